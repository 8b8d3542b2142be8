/**
 * The Kineto importer's lookup structures past their fast path: names that share the sampled
 * fingerprint, and one kernel launched with many grid shapes. Their speed against input size is in
 * bench/kineto-growth.mjs; here, that they still give the right answers.
 */
import { runImporter } from '../../src/ingest/common/importer.js';
import { openInput } from '../../src/ingest/common/input-file.js';
import { IdTable } from '../../src/ingest/formats/kineto/id-table.js';
import { NameCache } from '../../src/ingest/formats/kineto/name-cache.js';
import kinetoJson from '../../src/ingest/formats/kineto-json.js';
import { writeTempFile } from './profiler-temp-file.js';

/** Names of 120 bytes that differ only in bytes 1–3, which a 12-sample fingerprint skips (it reads every 10th). */
function collidingNames(count: number): Buffer[] {
  return Array.from({ length: count }, (_, i) => {
    const name = Buffer.alloc(120, 'k');
    name[1] = 0x61 + (i % 26);
    name[2] = 0x61 + (Math.floor(i / 26) % 26);
    name[3] = 0x61 + Math.floor(i / 676);
    return name;
  });
}

describe('NameCache', () => {
  it('finds a name by a tape id far from 0 without its bytes, and by its bytes without an id', () => {
    const cache = new NameCache((bytes) => bytes.toString('latin1'), (name) => name.length);
    const buf = Buffer.from('aten::mmaten::add');
    const mm = cache.getById(50_000, buf, 0, 8);
    expect(mm.name).toBe('aten::mm');
    expect(cache.getById(50_000, Buffer.alloc(0), 0, 0)).toBe(mm);
    expect(cache.getById(3, buf, 8, 17).name).toBe('aten::add');
    expect(cache.getById(-1, buf, 0, 8)).toBe(mm);
  });

  it('keeps names apart that differ only in bytes its fingerprint skips, and finds each again', () => {
    let created = 0;
    const cache = new NameCache<number>((bytes) => bytes.toString('latin1'), () => created++);
    const names = collidingNames(300);
    const first = names.map((name) => cache.get(name, 0, name.length));
    expect(created).toBe(300);
    expect(new Set(first.map((entry) => entry.name)).size).toBe(300);
    // Found again from another buffer, at an offset, before and after the bucket was indexed.
    const again = names.map((name) => {
      const framed = Buffer.concat([Buffer.from('"x":"'), name, Buffer.from('"')]);
      return cache.get(framed, 5, 5 + name.length);
    });
    expect(again.every((entry, i) => entry === first[i])).toBe(true);
    expect(created).toBe(300);
    expect([...cache.entries()]).toHaveLength(300);
    expect(first[123]!.name).toBe(names[123]!.toString('latin1'));
  });
});

describe('launch shapes of one kernel', () => {
  it('with 500 distinct grids, the shape that took the most time is the one reported', async () => {
    const events = [];
    for (let i = 0; i < 500; i += 1) {
      const dur = i === 357 ? 90 : 1 + (i % 7);
      events.push({ ph: 'X', cat: 'kernel', name: 'dyn_grid_kernel', pid: 0, tid: 7, ts: i * 100, dur, args: { device: 0, stream: 7, grid: [i + 1, 2, 1], block: [128, 1, 1] } });
      // A second launch of the same shape, after the shapes were indexed.
      if (i === 357) events.push({ ph: 'X', cat: 'kernel', name: 'dyn_grid_kernel', pid: 0, tid: 7, ts: i * 100 + 95, dur: 1, args: { device: 0, stream: 7, grid: [i + 1, 2, 1], block: [128, 1, 1] } });
    }
    // Early shapes seen again later add up: grid [3,2,1] gets 20 launches of 3 us = 60 us, under 91.
    for (let k = 0; k < 20; k += 1) events.push({ ph: 'X', cat: 'kernel', name: 'dyn_grid_kernel', pid: 0, tid: 7, ts: 60_000 + k * 10, dur: 3, args: { device: 0, stream: 7, grid: [3, 2, 1], block: [128, 1, 1] } });
    const path = writeTempFile('many-shapes.json', JSON.stringify({ schemaVersion: 1, traceEvents: events }));
    const capture = await runImporter(kinetoJson, await openInput(path));
    expect(capture.kernels).toHaveLength(1);
    expect(capture.kernels[0]).toMatchObject({ instances: 521, grid: [358, 2, 1], block: [128, 1, 1] });
  });

  it('launches that record a block but no grid count as one shape', async () => {
    const events = [];
    // 12 launches without a grid (one shape, 12 us in all) against one with a grid of 10 us.
    for (let i = 0; i < 12; i += 1) events.push({ ph: 'X', cat: 'kernel', name: 'k', pid: 0, tid: 7, ts: i * 10, dur: 1, args: { device: 0, stream: 7, block: [64, 1, 1] } });
    events.push({ ph: 'X', cat: 'kernel', name: 'k', pid: 0, tid: 7, ts: 500, dur: 10, args: { device: 0, stream: 7, grid: [4, 1, 1], block: [32, 1, 1] } });
    const path = writeTempFile('blocks-only.json', JSON.stringify({ schemaVersion: 1, traceEvents: events }));
    const capture = await runImporter(kinetoJson, await openInput(path));
    expect(capture.kernels[0]!.block).toEqual([64, 1, 1]);
    expect(capture.kernels[0]!.grid).toBeUndefined();
  });
});

describe('IdTable', () => {
  it('keeps a value per id across its pages, past 16 bits and for ids far apart', () => {
    const table = new IdTable();
    expect(table.get(5)).toBe(-1);
    table.set(5, 7);
    table.set(40_000, 65_534);
    table.set(1 << 20, 3);
    expect([table.get(5), table.get(40_000), table.get(1 << 20), table.get(6), table.get(1 << 19)]).toEqual([7, 65_534, 3, -1, -1]);
    table.set(7, 70_000);
    expect([table.get(5), table.get(40_000), table.get(7), table.get(1 << 20)]).toEqual([7, 65_534, 70_000, 3]);
    table.set(2 ** 27, 9);
    expect([table.get(2 ** 27), table.get(2 ** 27 + 1), table.get(-1), table.get(NaN)]).toEqual([9, -1, -1, -1]);
  });
});
