import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '../../src/errors.js';
import { detectFormat, ingestFile } from '../../src/ingest/registry.js';
import { openInput } from '../../src/ingest/common/input-file.js';
import nsysSqlite from '../../src/ingest/formats/nsys-sqlite.js';
import rocpdSqlite from '../../src/ingest/formats/rocpd-sqlite.js';
import { claimedBy, expectedFor, OWN_FIXTURES } from './sniff-sweep.js';

const NSYS = join(OWN_FIXTURES, 'sqlite', 'nsys_h200_dense_decode_built.sqlite');
const ROCPD = join(OWN_FIXTURES, 'sqlite', 'rocpd_llamacpp_r9700_built_results.db');
const R9700_CSV = join(OWN_FIXTURES, 'rocprof', 'llamacpp_r9700_gfx1201_results.csv');
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/*
 * Expected numbers from Python's sqlite3 module over the two databases (a reader independent of
 * sql.js): nsys: 600 kernel rows, sum(end − start) = 1,893,526 ns, 44 distinct demangled names, the
 * heaviest nvjet_sm90_tst_88x64_64x11_1x2_h_bz_TNN with 26 launches and 243,166 ns; 6 memcpy rows,
 * 2,193 bytes. rocpd: 1,963 dispatches, 662,138,329 ns (the real results.csv they were built from).
 */
describe('nsys SQLite export', () => {
  test('kernels through StringIds, launch shapes in blocks, copies, the GPU name and nsys version', async () => {
    expect(detectFormat(await openInput(NSYS)).id).toBe('nsys-sqlite');
    const capture = await ingestFile(NSYS);
    expect(sum(capture.kernels.map((k) => k.instances))).toBe(600);
    expect(sum(capture.kernels.map((k) => k.totalNs))).toBe(1_893_526);
    expect(capture.kernels).toHaveLength(44);
    const top = [...capture.kernels].sort((a, b) => b.totalNs - a.totalNs)[0]!;
    expect(top).toMatchObject({ name: 'nvjet_sm90_tst_88x64_64x11_1x2_h_bz_TNN', instances: 26, totalNs: 243_166 });
    expect(top.grid).toBeDefined();
    expect(sum(capture.memops.map((m) => m.count))).toBe(6);
    expect(sum(capture.memops.map((m) => m.bytes ?? 0))).toBe(2_193);
    expect(capture.timeline).toMatchObject({ kernelLaunches: 600, devices: 1 });
    expect(capture.environment).toEqual({ vendor: 'nvidia', gpuName: 'NVIDIA H200', gpuCount: 1 });
    expect(capture.source).toMatchObject({ format: 'nsys-sqlite', toolVersion: '2025.3.1.0' });
  });
});

describe('nsys SQLite export with NVTX ranges', () => {
  test('ranges named decode_step_N are the timeline\'s decode ranges, and count the decode steps', async () => {
    // python3 sqlite3: SELECT eventType, text FROM NVTX_EVENTS → four push/pop ranges (59),
    // decode_step_0 … decode_step_3 (the workload's 4 profiled steps); 240 kernel rows.
    const { countSteps } = await import('../../src/diagnose/step-count.js');
    const { buildProfile } = await import('../../src/pipeline/build-profile.js');
    const capture = await ingestFile(join(OWN_FIXTURES, 'h200-secret', 'secret.sqlite'));
    expect(capture.timeline?.phaseRanges).toEqual({ decode: 4, prefill: 0, decodeName: 'decode_step_0' });
    const count = countSteps(buildProfile([capture]));
    expect(count).toMatchObject({ steps: 4, basis: 'decode-ranges' });
    expect(count.text).toMatch(/^4 ranges naming decode \(decode_step_0\)/);
  });

  test('an export without NVTX ranges has no phase ranges', async () => {
    expect((await ingestFile(NSYS)).timeline?.phaseRanges).toBeUndefined();
  });
});

describe('rocprofv3 rocpd database', () => {
  test('the llama.cpp R9700 dispatches: the same kernels and timeline as the results.csv they came from', async () => {
    expect(detectFormat(await openInput(ROCPD)).id).toBe('rocpd-sqlite');
    const capture = await ingestFile(ROCPD);
    expect(sum(capture.kernels.map((k) => k.totalNs))).toBe(662_138_329);
    expect(sum(capture.kernels.map((k) => k.instances))).toBe(1_963);
    const csv = await ingestFile(R9700_CSV);
    const byName = (kernels: typeof csv.kernels) => Object.fromEntries(kernels.map((k) => [k.name, [k.totalNs, k.instances, k.grid, k.block]]));
    expect(byName(capture.kernels)).toEqual(byName(csv.kernels));
    expect(capture.timeline).toEqual(csv.timeline);
    expect(capture.environment).toEqual({ vendor: 'amd', gpuName: 'AMD Radeon AI PRO R9700' });
  });
});

describe('SQLite files that cannot be read', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pg-sqlite-'));

  test('a cut-off database is one line naming the file and the export command', async () => {
    const bytes = (await (await openInput(ROCPD)).bytes!()).subarray(0, 20_000);
    const path = join(dir, 'cut_results.db');
    writeFileSync(path, bytes);
    const error = await ingestFile(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message.split('\n')).toHaveLength(1);
    expect((error as Error).message).toMatch(new RegExp(`^${path}: .*rocpd convert -i NAME_results.db --output-format csv`));
  });

  test('an SQLite file of neither tool names both export commands', async () => {
    const path = join(dir, 'other.sqlite');
    writeFileSync(path, Buffer.concat([Buffer.from('SQLite format 3\u0000', 'latin1'), Buffer.alloc(4096)]));
    await expect(ingestFile(path)).rejects.toThrow(`${path}:byte 0: an SQLite database with neither nsys`);
  });

  test('a gzipped export reads like the original', async () => {
    const { gzipSync } = await import('node:zlib');
    const { readFileSync } = await import('node:fs');
    const path = join(dir, 'x.sqlite.gz');
    writeFileSync(path, gzipSync(readFileSync(NSYS)));
    expect((await ingestFile(path)).kernels).toEqual((await ingestFile(NSYS)).kernels);
    copyFileSync(NSYS, join(dir, 'copy.sqlite'));
  });
});

test('sniffs claim exactly their own databases', async () => {
  expect(await claimedBy(nsysSqlite)).toEqual(await expectedFor(/\.sqlite(\.gz)?$/));
  expect(await claimedBy(rocpdSqlite)).toEqual(await expectedFor(/_results\.db$/));
});
