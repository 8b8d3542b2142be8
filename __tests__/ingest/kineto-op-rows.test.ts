/**
 * cpu_ops are summed in WebAssembly as the tape reads them (wasm/kineto-ops.ts), ahead of the
 * importer, which sums the other events of the same chunk after the scan. What the two share must
 * still follow the file's order: the trace record's clock (its first recorded event), its rows, the
 * host events' cap and a kernel's link to the op before it. Expected values are worked out by hand
 * from the events below.
 */
import { runImporter } from '../../src/ingest/common/importer.js';
import kinetoJson from '../../src/ingest/formats/kineto-json.js';
import { TraceEvents } from '../../src/model/trace-events.js';
import { chunkedInput } from './chunked-input.js';

const KERNEL = 'void gemm_kernel<128>(float*)';
const events = [
  // An API call: summed, never recorded, so it sets no clock.
  '{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 950, "dur": 2, "args": {"External id": 1, "correlation": 5}}',
  // The first event recorded: the trace record's clock is its ts, 1000 µs. Its op comes later in
  // the file, so it links to none.
  `{"ph": "X", "cat": "kernel", "name": "${KERNEL}", "pid": 0, "tid": 7, "ts": 1000, "dur": 3, "args": {"External id": 1, "correlation": 5, "device": 0, "stream": 7}}`,
  // An op that started before that kernel (ts 900) but is written after it.
  '{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 900, "dur": 200, "args": {"External id": 1, "Input Dims": [[16, 64], [64, 64]]}}',
  '{"ph": "X", "cat": "user_annotation", "name": "decode step 1", "pid": 1, "tid": 1, "ts": 1001, "dur": 10}',
  '{"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 1, "ts": 1002, "dur": 1, "args": {"External id": 2}}',
  // Launched by the aten::mm read before it: linked, at M = 16.
  `{"ph": "X", "cat": "kernel", "name": "${KERNEL}", "pid": 0, "tid": 7, "ts": 1003, "dur": 2, "args": {"External id": 1, "correlation": 6, "device": 0, "stream": 7}}`,
];
const text = `{"traceEvents": [\n  ${events.join(',\n  ')}\n]}`;

/** The trace as an input read `sizes` bytes at a time (cycling), the buffer overwritten after each. */
const chunked = (sizes: number[]) => chunkedInput('op-rows.json', text, sizes);

describe('cpu_ops summed beside the tape, in the file order of the other events', () => {
  it('the trace record starts its clock at the first event recorded and keeps every event in file order', async () => {
    const capture = await runImporter(kinetoJson, chunked([1 << 20]));
    const trace = capture.trace!;
    expect([...trace.events()]).toEqual([
      { kind: 'kernel', name: KERNEL, startNs: 0, durNs: 3000, device: 0, lane: 7 },
      { kind: 'cpu-op', name: 'aten::mm', startNs: -100_000, durNs: 200_000, device: -1, lane: 1 },
      { kind: 'range', name: 'decode step 1', startNs: 1000, durNs: 10_000, device: -1, lane: 1 },
      { kind: 'cpu-op', name: 'aten::add', startNs: 2000, durNs: 1000, device: -1, lane: 1 },
      { kind: 'kernel', name: KERNEL, startNs: 3000, durNs: 2000, device: 0, lane: 7 },
    ]);
    expect(trace.distinctNames()).toEqual([KERNEL, 'aten::mm', 'decode step 1', 'aten::add']);
    expect(trace.seen).toEqual({ kernel: 2, memcpy: 0, memset: 0, range: 1, 'cpu-op': 2 });
  });

  it('a kernel links to the op read before it, not to one read after it', async () => {
    const capture = await runImporter(kinetoJson, chunked([1 << 20]));
    // 2 µs of 5 launched by aten::mm (the second launch); the first read before its op.
    expect(capture.kernels).toEqual([expect.objectContaining({ name: KERNEL, instances: 2, totalNs: 5000, launchedBy: 'aten::mm', launchedByShare: 0.4, tokens: 16 })]);
    expect(capture.notices?.map((n) => n.message)).toEqual(['1 of 2 kernel launches could not be tied to the CPU op that launched them; their launching op is not available.']);
  });

  it('reads the same whatever the chunks: events the tape leaves to JavaScript are summed in the same order', async () => {
    const whole = JSON.stringify(await runImporter(kinetoJson, chunked([1 << 20])));
    for (const sizes of [[1], [7, 3], [64], [200, 41]]) {
      expect({ sizes, capture: JSON.stringify(await runImporter(kinetoJson, chunked(sizes))) }).toEqual({ sizes, capture: whole });
    }
  });
});

describe('the External id → site table of the cpu_op summing', () => {
  it('links kernels past 65,534 sites, to ids read before the table widened, and to ids past 2^26', async () => {
    // 70,000 matmul ops of distinct M: 70,000 sites (chain aten::mm, tokens M). Op i has External id
    // i and M = i + 1; one more, id 1e9 (kept apart from the dense pages), has M = 3 under an
    // aten::linear (its own chain).
    const ops: string[] = [];
    for (let i = 0; i < 70_000; i++) {
      ops.push(`{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": ${i * 10}, "dur": 5, "args": {"External id": ${i}, "Input Dims": [[${i + 1}, 64], [64, 64]]}}`);
    }
    ops.push('{"ph": "X", "cat": "cpu_op", "name": "aten::linear", "pid": 1, "tid": 1, "ts": 800000, "dur": 5, "args": {"External id": 1000000000, "Input Dims": [[3, 64], [64, 64]]}}');
    const kernel = (name: string, id: number, ts: number): string =>
      `{"ph": "X", "cat": "kernel", "name": "${name}", "pid": 0, "tid": 7, "ts": ${ts}, "dur": 2, "args": {"External id": ${id}, "correlation": ${ts}, "device": 0}}`;
    const text = `{"traceEvents": [${[...ops, kernel('late_site', 69_999, 900_000), kernel('early_site', 5, 900_010), kernel('far_id', 1_000_000_000, 900_020)].join(',\n')}]}`;
    const capture = await runImporter(kinetoJson, chunkedInput('op-rows.json', text, [1 << 22]));
    const byName = new Map(capture.kernels.map((k) => [k.name, k]));
    expect(byName.get('late_site')).toMatchObject({ launchedBy: 'aten::mm', tokens: 70_000 });
    expect(byName.get('early_site')).toMatchObject({ launchedBy: 'aten::mm', tokens: 6 });
    expect(byName.get('far_id')).toMatchObject({ launchedBy: 'aten::linear', tokens: 3 });
  });
});

/** Five rows (kernel, cpu-op, kernel, memcpy, kernel) whose names are the references `refs`. */
const columnsNamed = (refs: Int32Array) => ({
  starts: Float64Array.of(0, 5, 10, 20, 30),
  durs: Float64Array.of(1, 2, 3, 4, 5),
  devices: Int32Array.of(0, -1, 0, 1, 0),
  lanes: Float64Array.of(7, 1, 7, 8, 7),
  kinds: Uint8Array.of(0, 4, 0, 1, 0),
  nameIds: refs,
});

describe('TraceEvents.fromColumns', () => {
  it('takes a reader\'s columns, numbers their names in order of first use and counts what was seen and kept', () => {
    const names = new Map([
      [5, 'gemm'],
      [-2, 'aten::mm'],
      [7, 'copy'],
      [-9, 'gemm'], // another reference to a name already numbered
    ]);
    const refs = Int32Array.of(5, -2, 5, 7, -9);
    const asked: number[] = [];
    const nameOf = (row: number): string => {
      asked.push(row);
      return names.get(refs[row]!)!;
    };
    const trace = TraceEvents.fromColumns(
      { gpu: 4, host: 10 },
      columnsNamed(refs),
      [4, 1, 0, 0, 2],
      nameOf,
    );
    expect([...trace.events()].map((e) => [e.kind, e.name, e.startNs])).toEqual([
      ['kernel', 'gemm', 0],
      ['cpu-op', 'aten::mm', 5],
      ['kernel', 'gemm', 10],
      ['memcpy', 'copy', 20],
      ['kernel', 'gemm', 30],
    ]);
    expect(trace.distinctNames()).toEqual(['gemm', 'aten::mm', 'copy']);
    // Each reference is asked for once: rows 0, 1, 3 and 4.
    expect(asked).toEqual([0, 1, 3, 4]);
    expect(trace.dropped()).toEqual({ kernel: 1, 'cpu-op': 1 });
    // Its 4 GPU rows fill the GPU class's cap of 4: one more is refused; a host event is still kept.
    trace.add('kernel', 'late', 40, 1, 0, 7);
    expect(trace.count).toBe(5);
    trace.add('range', 'step', 40, 1, -1, 1);
    expect(trace.count).toBe(6);
  });

  it('takes names its reader numbered itself, with the rows kept per class, and merges two numbers of one name', () => {
    // Rows numbered 0, 1, 0, 2, 3 in order of first use; numbers 0 and 3 are both gemm.
    const trace = TraceEvents.fromColumns(
      { gpu: 4, host: 10 },
      columnsNamed(Int32Array.of(0, 1, 0, 2, 3)),
      [4, 1, 0, 0, 2],
      () => {
        throw new Error('nameOf is not asked when the reader numbered its names');
      },
      { names: ['gemm', 'aten::mm', 'copy', 'gemm'], kept: { gpu: 4, host: 1 } },
    );
    expect([...trace.events()].map((e) => [e.kind, e.name])).toEqual([
      ['kernel', 'gemm'],
      ['cpu-op', 'aten::mm'],
      ['kernel', 'gemm'],
      ['memcpy', 'copy'],
      ['kernel', 'gemm'],
    ]);
    expect(trace.distinctNames()).toEqual(['gemm', 'aten::mm', 'copy']);
    expect(trace.dropped()).toEqual({ kernel: 1, 'cpu-op': 1 });
    // The reader's count of 4 GPU rows fills the cap of 4: one more is refused; a host event is kept.
    trace.add('kernel', 'late', 40, 1, 0, 7);
    expect(trace.count).toBe(5);
    trace.add('range', 'step', 40, 1, -1, 1);
    expect(trace.count).toBe(6);
  });

  it('renumbers references far apart (a map rather than an array by offset) as it does close ones', () => {
    const names = new Map([
      [1 << 30, 'gemm'],
      [-(1 << 30), 'aten::mm'],
      [7, 'copy'],
      [-9, 'gemm'],
    ]);
    const refs = Int32Array.of(1 << 30, -(1 << 30), 1 << 30, 7, -9);
    const asked: number[] = [];
    const trace = TraceEvents.fromColumns(
      { gpu: 4, host: 10 },
      columnsNamed(refs),
      [4, 1, 0, 0, 2],
      (row) => {
        asked.push(row);
        return names.get(refs[row]!)!;
      },
    );
    expect([...trace.events()].map((e) => e.name)).toEqual(['gemm', 'aten::mm', 'gemm', 'copy', 'gemm']);
    expect(trace.distinctNames()).toEqual(['gemm', 'aten::mm', 'copy']);
    expect(asked).toEqual([0, 1, 3, 4]);
  });
});
