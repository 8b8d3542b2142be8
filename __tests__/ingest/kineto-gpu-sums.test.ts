/**
 * Kernels and API calls are summed in WebAssembly (wasm/kineto-sums.ts): by the tape as it reads
 * them, by the importer for the events the tape leaves it, one owner in file order. What depends on
 * order must still be the file's: the first-seen order of devices and launch shapes, the op log's
 * rows, the categories, which launches came before the first Python frame, what a capture's
 * launches and replays are. Expected values are worked out by hand from the events below, and the
 * same trace read in chunks too small for the tape (every event read by the importer) must read
 * the same.
 */
import { runImporter } from '../../src/ingest/common/importer.js';
import kinetoJson from '../../src/ingest/formats/kineto-json.js';
import { TraceScanner } from '../../src/ingest/formats/kineto/json-scanner.js';
import { TraceSummary } from '../../src/ingest/formats/kineto/trace-summary.js';
import type { IngestOptions } from '../../src/ingest/common/importer.js';
import { chunkedInput } from './chunked-input.js';

const GEMM = 'void gemm_kernel<128>(float*)';
const RELU = 'void relu_kernel(float*)';
const kernel = (ts: number, dur: number, device: number, correlation: number, more: string): string =>
  `{"ph": "X", "cat": "kernel", "name": "${GEMM}", "pid": 0, "tid": 7, "ts": ${ts}, "dur": ${dur}, "args": {"correlation": ${correlation}, "device": ${device}, "stream": 7${more}}}`;
const events = [
  // The first timed event: the GPU clock's base, and a kernel launch before any Python frame.
  '{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 100, "dur": 4, "args": {"External id": 1, "correlation": 10}}',
  '{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 99, "dur": 50, "args": {"External id": 1}}',
  // A second launch before the first Python frame (the tape sums this one: the clock is set).
  '{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 102, "dur": 1, "args": {"External id": 1, "correlation": 11}}',
  // GEMM on device 1, then 0, then 1 twice: device 1's sums come first. Shapes on device 1:
  // grid 4 (3 µs), grid 8 (2 µs), grid 4 again (2 µs): grid 4 has the most time.
  kernel(105, 3, 1, 10, ', "External id": 1, "grid": [4, 1, 1], "block": [128, 1, 1]'),
  kernel(110, 5, 0, 11, ', "External id": 1, "grid": [8, 1, 1], "block": [128, 1, 1]'),
  kernel(120, 2, 1, 12, ', "External id": 1, "grid": [8, 1, 1], "block": [128, 1, 1]'),
  // No External id: not linked to an op.
  kernel(125, 2, 1, 13, ', "grid": [4, 1, 1], "block": [128, 1, 1]'),
  // The first Python frame: launches from here on are the importer's to tie to a line.
  '{"ph": "X", "cat": "python_function", "name": "model.py(10): forward", "pid": 1, "tid": 1, "ts": 130, "dur": 100}',
  '{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 140, "dur": 3, "args": {"correlation": 14}}',
  `{"ph": "X", "cat": "kernel", "name": "${RELU}", "pid": 0, "tid": 7, "ts": 150, "dur": 1, "args": {"correlation": 14, "device": 1, "stream": 7}}`,
  '{"ph": "X", "cat": "cuda_driver", "name": "cuLaunchKernel", "pid": 1, "tid": 1, "ts": 160, "dur": 2, "args": {"correlation": 15}}',
];

// A CUDA-graph capture after the events above: from its beginning, the tape hands the importer
// the kernels and the capture's calls; the replay's kernel (no op) is tied to the capture's launch.
const capturing = [
  ...events,
  '{"ph": "X", "cat": "cpu_op", "name": "aten::relu", "pid": 1, "tid": 1, "ts": 300, "dur": 10, "args": {"External id": 2}}',
  '{"ph": "X", "cat": "cuda_runtime", "name": "cudaStreamBeginCapture", "pid": 1, "tid": 1, "ts": 301, "dur": 1, "args": {"correlation": 20}}',
  '{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 303, "dur": 1, "args": {"External id": 2, "correlation": 21}}',
  '{"ph": "X", "cat": "cuda_runtime", "name": "cudaStreamEndCapture", "pid": 1, "tid": 1, "ts": 305, "dur": 1, "args": {"correlation": 22}}',
  '{"ph": "X", "cat": "cuda_runtime", "name": "cudaGraphLaunch", "pid": 1, "tid": 1, "ts": 320, "dur": 2, "args": {"correlation": 23}}',
  `{"ph": "X", "cat": "kernel", "name": "${RELU}", "pid": 0, "tid": 7, "ts": 330, "dur": 4, "args": {"correlation": 23, "device": 1, "stream": 7}}`,
  '{"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy DtoH (Device -> Pinned)", "pid": 0, "tid": 7, "ts": 340, "dur": 3, "args": {"correlation": 24, "device": 1, "stream": 7, "bytes": 64}}',
  kernel(350, 1, 1, 25, ''),
];

const chunked = (text: string, sizes: number[]) => chunkedInput('gpu-sums.json', text, sizes);
const trace = (list: string[]): string => `{"traceEvents": [\n  ${list.join(',\n  ')}\n]}`;
const WHOLE = [1 << 22];

describe('kernels and API calls summed beside the tape, in file order', () => {
  it('sums each kernel by name and device, in the order devices were first seen, with its launch shape and op', async () => {
    const capture = await runImporter(kinetoJson, chunked(trace(events), WHOLE));
    expect(capture.kernels.map(({ name, device, instances, totalNs, minNs, maxNs, grid, block, launchedBy, launchedByShare }) => ({ name, device, instances, totalNs, minNs, maxNs, grid, block, launchedBy, launchedByShare }))).toEqual([
      // 3 + 2 + 2 µs; 5 of the 7 linked to aten::mm (0.7143).
      { name: GEMM, device: 1, instances: 3, totalNs: 7000, minNs: 2000, maxNs: 3000, grid: [4, 1, 1], block: [128, 1, 1], launchedBy: 'aten::mm', launchedByShare: 0.7143 },
      { name: GEMM, device: 0, instances: 1, totalNs: 5000, minNs: 5000, maxNs: 5000, grid: [8, 1, 1], block: [128, 1, 1], launchedBy: 'aten::mm', launchedByShare: 1 },
      { name: RELU, device: 1, instances: 1, totalNs: 1000, minNs: 1000, maxNs: 1000, grid: undefined, block: undefined, launchedBy: undefined, launchedByShare: undefined },
    ]);
    // 2 of 5 launches not linked: the GEMM without an External id, and the ReLU.
    expect(capture.notices?.map((n) => n.message)).toEqual(expect.arrayContaining([expect.stringMatching(/^2 of 5 kernel launches could not be tied to the CPU op/)]));
  });

  it('sums API calls by name and counts the launches before the first Python frame', async () => {
    const capture = await runImporter(kinetoJson, chunked(trace(events), WHOLE));
    expect(capture.apiCalls).toEqual([
      { name: 'cudaLaunchKernel', totalNs: 8000, calls: 3 },
      { name: 'cuLaunchKernel', totalNs: 2000, calls: 1 },
    ]);
    expect(capture.timeline?.kernelLaunches).toBe(4);
    expect(capture.notices?.find((n) => n.code === 'kineto-python-stacks-late')?.message).toMatch(/^2 kernel launches came before/);
    // The ReLU's launch came inside the workload's frame: it has that line.
    expect(capture.kernels.find((k) => k.name === RELU)?.pythonSites?.[0]).toEqual(expect.objectContaining({ share: 1 }));
    expect(JSON.stringify(capture.kernels.find((k) => k.name === RELU)?.pythonSites)).toContain('model.py');
    // The categories summed, in the order first seen.
    expect(capture.source.parts).toEqual(['cuda_runtime', 'kernel', 'cuda_driver']);
  });

  it('reads the same whatever the chunks: events the tape leaves to JavaScript are summed in file order', async () => {
    const text = trace(capturing);
    const whole = await runImporter(kinetoJson, chunked(text, WHOLE));
    // The replay's ReLU (4 µs) is tied to the launch aten::relu made in the capture.
    expect(whole.kernels.find((k) => k.name === RELU)).toEqual(expect.objectContaining({ instances: 2, totalNs: 5000, launchedBy: 'aten::relu', launchedByShare: 0.8 }));
    expect(whole.timeline?.graphLaunches).toBe(1);
    const expected = JSON.stringify(whole);
    for (const sizes of [[1], [7, 3], [64], [200, 41], [1000]]) {
      expect({ sizes, capture: JSON.stringify(await runImporter(kinetoJson, chunked(text, sizes))) }).toEqual({ sizes, capture: expected });
    }
  });

  it('moves the op log rows of a chunk with more kernels than a scan keeps, in order', async () => {
    // 20,000 small kernel events in one chunk: past the 16,384 rows one scan writes.
    const count = 20_000;
    const many = Array.from({ length: count }, (_, k) => `{"ph":"X","cat":"kernel","name":"k${k % 3}","pid":0,"tid":1,"ts":${1000 + k},"dur":${1 + (k % 3)},"args":{"device":0,"correlation":${k}}}`);
    const text = trace(many);
    const whole = await runImporter(kinetoJson, chunked(text, WHOLE));
    // k0, k1, k2 take turns: 6,667, 6,667 and 6,666 events of 1, 2 and 3 µs.
    expect(whole.kernels.map(({ name, instances, totalNs }) => ({ name, instances, totalNs }))).toEqual([
      { name: 'k2', instances: 6666, totalNs: 6666 * 3000 },
      { name: 'k1', instances: 6667, totalNs: 6667 * 2000 },
      { name: 'k0', instances: 6667, totalNs: 6667 * 1000 },
    ]);
    // Each kernel starts 1 µs after the last and runs 1 to 3 µs: the device is never idle from the
    // first start (1000 µs) to the last end (1000 + 19,999 + 2 µs).
    expect(whole.timeline?.busyNs).toBe((19_999 + 2) * 1000);
    expect(JSON.stringify(await runImporter(kinetoJson, chunked(text, [4093])))).toEqual(JSON.stringify(whole));
  });

  it('keeps the op log in file order: the rows of the kernels the tape summed, then the copy the importer summed', () => {
    const summary = new TraceSummary({ path: 'gpu-sums.json', options: {} as IngestOptions, count: () => undefined });
    const scanner = new TraceScanner(summary);
    try {
      scanner.push(Buffer.from(trace(capturing)));
      scanner.finish();
      summary.finish();
      const ops = summary.ops;
      // The GPU events' starts in the file's order, in µs after the first timed event's 100 µs.
      expect(Array.from(ops.starts.subarray(0, ops.count), (ns) => ns / 1000)).toEqual([5, 10, 20, 25, 50, 230, 240, 250]);
      expect(ops.deviceRuns.get(1)?.ordered).toBe(true);
    } finally {
      scanner.release();
      summary.release();
    }
  });
});
