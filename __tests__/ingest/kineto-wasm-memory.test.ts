/**
 * The Kineto importer's WebAssembly memories serve import after import (wasm-runtime.ts): a memory
 * handed back must read exactly as a fresh one (all zeros: each module's scrub() wipes what it and
 * its caller wrote, data segments included, which the next instance writes again), a reading must
 * not depend on what was read before in the same process, and a capture's trace record must not
 * change when its import's memory serves the next one.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { InputError } from '../../src/errors.js';
import { OPS_WASM_PAGES, TAPE_WASM_PAGES } from '../../src/ingest/formats/kineto/tape-wasm.js';
import { MemoryPool, OPS_MEMORIES, TAPE_MEMORIES, wasm, type WasmMemory } from '../../src/ingest/formats/kineto/wasm-runtime.js';
import { ingestFile } from '../../src/ingest/registry.js';
import type { Capture } from '../../src/model/capture.js';

const KINETO = resolve(import.meta.dirname, '..', 'fixtures', 'kineto');
// Real captures of different shapes: eager decodes with cpu_ops and Input Dims (gzip), a CUDA-graph
// decode, HTA's A100 trace and its ROCm one. The trace record keeps the complete (ph X) cpu_op,
// kernel, gpu_memcpy and gpu_memset events with a numeric ts and dur: counted in the files,
// 13,850 + 3,827 + 131 + 2 = 17,810 rows in tiny_hostbound, 78,138 + 22,259 + 131 + 16 = 100,544
// in dense_decode, either side of the 65,536 rows a record is copied out up to (launch-sites.ts).
const [SMALL, LARGE, ...OTHERS] = [
  'tiny_hostbound.trace.json.gz',
  'dense_decode.trace.json.gz',
  'healthy_graph_decode.trace.json.gz',
  'hta_a100_simple_add_trace.json',
  'hta_mi250_rocm6.2_minitoy_train_kineto.json',
].map((name) => join(KINETO, name));
const TRACES = [SMALL!, LARGE!, ...OTHERS];

const dir = mkdtempSync(join(tmpdir(), 'pg-wasm-memory-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The memory a pool would hand the next import, taken and given back untouched. */
function peek(pool: MemoryPool, pages: number): WasmMemory {
  const memory = pool.take(pages);
  pool.give(memory, () => undefined);
  return memory;
}

function nonZeroBytes(memory: WasmMemory): number[] {
  const bytes = new Uint8Array(memory.buffer);
  const at: number[] = [];
  for (let i = 0; i < bytes.length && at.length < 8; i++) if (bytes[i] !== 0) at.push(i);
  return at;
}

/** The capture as plain data: the trace record's JSON (its events), not its buffers. */
function reading(capture: unknown): unknown {
  return JSON.parse(JSON.stringify(capture));
}

/**
 * Launches and time per kernel name, once from the trace record's kernel rows and once from the
 * kernel table (summed apart from the record, in JavaScript): a record wiped or overwritten after
 * its import would not match the table.
 */
function kernelTimes(capture: Capture): { fromRecord: Record<string, [number, number]>; fromTable: Record<string, [number, number]> } {
  const fromRecord: Record<string, [number, number]> = {};
  for (const event of capture.trace!.events()) {
    if (event.kind !== 'kernel') continue;
    const sum = (fromRecord[event.name] ??= [0, 0]);
    sum[0] += 1;
    sum[1] += event.durNs;
  }
  const fromTable: Record<string, [number, number]> = {};
  for (const kernel of capture.kernels) {
    const sum = (fromTable[kernel.name] ??= [0, 0]);
    sum[0] += kernel.instances;
    sum[1] += kernel.totalNs;
  }
  const rounded = (sums: Record<string, [number, number]>) => Object.fromEntries(Object.entries(sums).map(([name, [n, ns]]) => [name, [n, Math.round(ns)] as [number, number]]));
  return { fromRecord: rounded(fromRecord), fromTable: rounded(fromTable) };
}

it('an import hands both memories back wiped to zero, and the next import reuses them', async () => {
  expect([TAPE_MEMORIES.kept, OPS_MEMORIES.kept]).toEqual([0, 0]);
  await ingestFile(SMALL!, 'kineto-json');
  expect([TAPE_MEMORIES.kept, OPS_MEMORIES.kept]).toEqual([1, 1]);
  const tape = peek(TAPE_MEMORIES, TAPE_WASM_PAGES);
  const ops = peek(OPS_MEMORIES, OPS_WASM_PAGES);
  // The summing's memory grew for the trace record's columns: a fresh one is a single page.
  expect(ops.buffer.byteLength).toBeGreaterThan(OPS_WASM_PAGES << 16);
  expect({ tape: nonZeroBytes(tape), ops: nonZeroBytes(ops) }).toEqual({ tape: [], ops: [] });

  await ingestFile(OTHERS[0]!, 'kineto-json');
  expect([TAPE_MEMORIES.kept, OPS_MEMORIES.kept]).toEqual([1, 1]);
  expect(peek(TAPE_MEMORIES, TAPE_WASM_PAGES)).toBe(tape);
  expect(peek(OPS_MEMORIES, OPS_WASM_PAGES)).toBe(ops);
  expect({ tape: nonZeroBytes(tape), ops: nonZeroBytes(ops) }).toEqual({ tape: [], ops: [] });
});

it('a trace record of more than 65,536 rows stays in its memory, which is not kept', async () => {
  const capture = await ingestFile(LARGE!, 'kineto-json');
  expect(capture.trace!.count).toBeGreaterThan(65_536);
  // The tape's memory came back; the summing's is the record's now.
  expect([TAPE_MEMORIES.kept, OPS_MEMORIES.kept]).toEqual([1, 0]);
  const { fromRecord, fromTable } = kernelTimes(capture);
  await ingestFile(SMALL!, 'kineto-json');
  expect(kernelTimes(capture)).toEqual({ fromRecord, fromTable });
  expect(fromRecord).toEqual(fromTable);
});

it('each trace reads the same after any other, and its trace record stays as read', async () => {
  const first = new Map<string, unknown>();
  const captures = [];
  for (const path of TRACES) {
    const capture = await ingestFile(path, 'kineto-json');
    captures.push(capture);
    first.set(path, reading(capture));
  }
  // Again, in the other order: every import now starts on memories an earlier trace wrote.
  for (const path of [...TRACES].reverse()) {
    expect({ path, capture: reading(await ingestFile(path, 'kineto-json')) }).toEqual({ path, capture: first.get(path) });
  }
  // The captures of the first round, kept while their memories served six more imports: their
  // trace records still hold each kernel launch the kernel table counts.
  captures.forEach((capture, i) => {
    expect({ path: TRACES[i], capture: reading(capture) }).toEqual({ path: TRACES[i], capture: first.get(TRACES[i]!) });
    const { fromRecord, fromTable } = kernelTimes(capture);
    expect({ path: TRACES[i], kernels: fromRecord }).toEqual({ path: TRACES[i], kernels: fromTable });
    expect(Object.keys(fromTable).length).toBeGreaterThan(0);
  });
});

it('an import that fails hands its memories back wiped too, and the next reads as before', async () => {
  const before = reading(await ingestFile(TRACES[0]!, 'kineto-json'));
  const cut = join(dir, 'cut.json');
  const text = gunzipSync(readFileSync(TRACES[0]!));
  writeFileSync(cut, text.subarray(0, Math.floor(text.length / 2)));
  await expect(ingestFile(cut, 'kineto-json')).rejects.toThrow(InputError);
  expect({ tape: nonZeroBytes(peek(TAPE_MEMORIES, TAPE_WASM_PAGES)), ops: nonZeroBytes(peek(OPS_MEMORIES, OPS_WASM_PAGES)) }).toEqual({ tape: [], ops: [] });
  expect(reading(await ingestFile(TRACES[0]!, 'kineto-json'))).toEqual(before);
});

it('imports that run at the same time each get memories of their own', async () => {
  const paths = [SMALL!, LARGE!, OTHERS[0]!, SMALL!];
  const alone = [];
  for (const path of paths) alone.push(reading(await ingestFile(path, 'kineto-json')));
  // Interleaved: each import awaits between its chunks while the others scan theirs.
  const together = await Promise.all(paths.map((path) => ingestFile(path, 'kineto-json')));
  expect(together.map(reading)).toEqual(alone);
  // Two memories of each module came back and were kept; the others went to the collector.
  expect([TAPE_MEMORIES.kept, OPS_MEMORIES.kept]).toEqual([2, 2]);
});

describe('MemoryPool', () => {
  const memory = (pages: number): WasmMemory => new wasm.Memory({ initial: pages });

  it('keeps two memories at most, each of 64 MiB at most, and wipes only those it keeps', () => {
    const pool = new MemoryPool();
    const wiped: string[] = [];
    pool.give(memory(1024 + 1), () => wiped.push('large'));
    expect(pool.kept).toBe(0);
    pool.give(memory(1024), () => wiped.push('a'));
    pool.give(memory(2), () => wiped.push('b'));
    pool.give(memory(2), () => wiped.push('c'));
    expect({ kept: pool.kept, wiped }).toEqual({ kept: 2, wiped: ['a', 'b'] });
  });

  it('hands out a kept memory only when it is large enough, else a fresh one', () => {
    const pool = new MemoryPool();
    const small = memory(2);
    pool.give(small, () => undefined);
    const taken = pool.take(4);
    expect(taken).not.toBe(small);
    expect(taken.buffer.byteLength).toBe(4 << 16);
    pool.give(taken, () => undefined);
    expect(pool.take(3)).toBe(taken);
  });
});
