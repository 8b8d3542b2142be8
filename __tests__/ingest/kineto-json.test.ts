import { jest } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { InputError } from '../../src/errors.js';
import { runImporter } from '../../src/ingest/common/importer.js';
import { openInput, type InputFile } from '../../src/ingest/common/input-file.js';
import { ingestFile } from '../../src/ingest/registry.js';
import kinetoJson from '../../src/ingest/formats/kineto-json.js';
import type { Capture } from '../../src/model/capture.js';
import { TraceSummary } from '../../src/ingest/formats/kineto/trace-summary.js';
import { deviceRows, nameMatches, parseKernelTable } from './kineto-table.js';
import { writeTempFile } from './profiler-temp-file.js';
import { claimedBy, expectedFor } from './sniff-sweep.js';

const dir = fileURLToPath(new URL('../fixtures/kineto/', import.meta.url));
const fixture = (name: string) => join(dir, name);
const read = async (path: string) => runImporter(kinetoJson, await openInput(path));
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** Small synthetic traces, written to a temp file and read like a real capture. */
function traceFile(events: unknown[], top: Record<string, unknown> = {}, name = 'trace.json'): string {
  return writeTempFile(name, JSON.stringify({ schemaVersion: 1, ...top, traceEvents: events }));
}
const kernel = (name: string, ts: number | string, dur: number, args: Record<string, unknown> = {}) => ({
  ph: 'X',
  cat: 'kernel',
  name,
  pid: 0,
  tid: 7,
  ts,
  dur,
  args: { device: 0, stream: 7, ...args },
});
const runtime = (name: string, ts: number, dur: number, correlation: number) => ({
  ph: 'X',
  cat: 'cuda_runtime',
  name,
  pid: 100,
  tid: 100,
  ts,
  dur,
  args: { correlation },
});

async function expectInputError(promise: Promise<unknown>, pattern: RegExp): Promise<InputError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(InputError);
  expect((error as InputError).message).toMatch(pattern);
  return error as InputError;
}

/** An input whose byte stream arrives in chunks of the given sizes (cycled), to cross every boundary. */
function chunkedInput(path: string, sizes: number[]): InputFile {
  const bytes = readFileSync(path);
  return {
    path,
    head: bytes.subarray(0, 65536).toString('utf8'),
    gzip: false,
    sizeBytes: bytes.length,
    text: async () => bytes.toString('utf8'),
    stream: () =>
      Readable.from(
        (function* () {
          for (let at = 0, k = 0; at < bytes.length; k++) {
            const size = sizes[k % sizes.length]!;
            yield bytes.subarray(at, at + size);
            at += size;
          }
        })(),
      ),
  };
}

/**
 * The file as a reader that takes the buffer to read into from the importer before each read (as
 * openInput's plain files do), `size` bytes a read at most; `landed`: each buffer's byte offset.
 */
function readerInto(path: string, size: number, landed: number[]): InputFile {
  const bytes = readFileSync(path);
  return {
    ...chunkedInput(path, [size]),
    chunks: async function* (into?: Buffer | (() => Buffer)) {
      for (let at = 0; at < bytes.length; ) {
        const buffer = typeof into === 'function' ? into() : Buffer.alloc(size);
        landed.push(buffer.byteOffset);
        const n = bytes.copy(buffer, 0, at, Math.min(at + size, bytes.length, at + buffer.length));
        at += n;
        yield buffer.subarray(0, n);
      }
    },
  };
}

describe('kineto-json sniff', () => {
  test('claims exactly the Kineto traces among all fixtures', async () => {
    const expected = await expectedFor(/\/kineto\/.*\.json(\.gz)?$|\.trace\.json\.gz$/);
    expect(expected.length).toBeGreaterThanOrEqual(8);
    expect(await claimedBy(kinetoJson)).toEqual(expected);
  });

  test('needs an object with traceEvents, or the Kineto header keys', () => {
    expect(kinetoJson.sniff('\uFEFF  {"traceEvents": []}')).toBe(true);
    expect(kinetoJson.sniff('{"schemaVersion": 1, "deviceProperties": [{"id": 0}]')).toBe(true);
    expect(kinetoJson.sniff('{"schemaVersion": 1, "other": 2}')).toBe(false);
    expect(kinetoJson.sniff('[{"traceEvents": []}]')).toBe(false);
    expect(kinetoJson.sniff('name,value\n"traceEvents",1')).toBe(false);
  });
});

/*
 * Expected numbers in this file come from __tests__/fixtures/kineto/expected.py, which loads each
 * trace whole with Python's json (Decimal floats), sums `ph: X` events by category, and merges the
 * GPU op intervals per device with a sort-and-sweep; e.g. `python3 expected.py tiny_hostbound.trace.json.gz`.
 */
describe('kineto-json on public traces', () => {
  test('CUDA A100 trace (HTA simple add): kernels, launch shapes, API calls, environment', async () => {
    const capture = await read(fixture('hta_a100_simple_add_trace.json'));
    expect(capture.source).toMatchObject({ format: 'kineto-json', tool: 'pytorch-profiler', stats: [] });
    // distributedInfo follows traceEvents in this file: top-level keys after the array are read too.
    expect(capture.source.parts).toEqual(expect.arrayContaining(['deviceProperties', 'distributedInfo', 'kernel', 'cuda_runtime']));
    expect(capture.kernels).toHaveLength(2);
    expect(capture.kernels[0]).toMatchObject({ totalNs: 10_000, instances: 2, minNs: 5_000, maxNs: 5_000, device: 0, grid: [256, 1, 1], block: [256, 1, 1] });
    expect(capture.kernels[0]!.name).toMatch(/^void at::native::\(anonymous namespace\)::distribution_elementwise_grid_stride_kernel<float, 4/);
    expect(capture.kernels[1]).toMatchObject({ totalNs: 6_000, instances: 2, grid: [128, 1, 1], block: [128, 1, 1] });
    expect(capture.apiCalls.slice(0, 3)).toEqual([
      { name: 'cudaDeviceGetStreamPriorityRange', totalNs: 19_579_485_000, calls: 1 },
      { name: 'cudaDeviceSynchronize', totalNs: 7_742_000, calls: 5 },
      { name: 'cudaMalloc', totalNs: 2_989_000, calls: 1 },
    ]);
    expect(capture.memops).toEqual([]);
    expect(capture.environment).toEqual({ gpuName: 'NVIDIA A100-PG509-200', gpuCount: 8, vendor: 'nvidia' });
    expect(capture.timeline).toMatchObject({
      spanNs: 108_919_000,
      busyNs: 16_000,
      devices: 1,
      idleGaps: { count: 3, totalNs: 108_903_000, longestNs: 54_454_000 },
      kernelLaunches: 4,
      graphLaunches: 0,
      graphKernels: 0,
      steps: [],
      busyByDecile: [10_000, 0, 0, 0, 500, 2_500, 0, 0, 0, 3_000],
    });
  });

  test('ROCm MI250 trace: float ts, hip calls, device from args, GPU step annotation', async () => {
    const capture = await read(fixture('hta_mi250_rocm6.2_minitoy_train_kineto.json'));
    expect(capture.environment).toEqual({ gpuName: 'AMD Radeon Graphics', gpuCount: 4, vendor: 'amd' });
    expect(capture.kernels).toHaveLength(12);
    expect(sum(capture.kernels.map((k) => k.instances))).toBe(14);
    expect(sum(capture.kernels.map((k) => k.totalNs))).toBe(110_881);
    expect(capture.kernels[0]).toMatchObject({ totalNs: 17_600, instances: 1, device: 2 });
    expect(capture.kernels[0]!.name).toMatch(/^Cijk_Alik_Bljk_SB_Bias_AS_SAV_UserArgs_MT64x16x32_MI16x16x1_/);
    expect(capture.kernels[0]!.grid).toBeUndefined(); // roctracer records no launch shape
    expect(capture.memops).toEqual([{ kind: 'memcpy-htod', name: 'Memcpy HtoD (Host -> Device)', totalNs: 38_161, count: 2 }]);
    expect(capture.apiCalls.slice(0, 2)).toEqual([
      { name: 'hipLaunchKernel', totalNs: 6_626_497, calls: 12 },
      { name: 'hipMemcpyWithStream', totalNs: 95_772, calls: 2 },
    ]);
    expect(capture.timeline).toMatchObject({
      spanNs: 8_911_887,
      busyNs: 149_042,
      devices: 1,
      idleGaps: { count: 15, totalNs: 8_762_845, longestNs: 6_633_474 },
      kernelLaunches: 14, // hipLaunchKernel 12 + hipExtModuleLaunchKernel 2
      busyByDecile: [47_184, 32_496, 13_600, 0, 0, 0, 0, 0, 0, 17_601],
    });
    // Step 1 has a gpu_user_annotation (used); step 2 only its CPU range.
    expect(capture.timeline!.steps).toEqual([
      { name: 'ProfilerStep#1', startNs: -1, durNs: 1_031_368, gpuBusyNs: 92_081, kernels: 6, clock: 'gpu' },
      { name: 'ProfilerStep#2', startNs: 9_058_534, durNs: 49_073, gpuBusyNs: 0, kernels: 0, clock: 'cpu' },
    ]);
  });

  test('NCCL rank trace (world size 128): communication kernels, memcpy bytes, CPU ProfilerStep', async () => {
    const capture = await read(fixture('hta_sampled_rank0_ws128_trimmed.json'));
    expect(capture.source.parts).toContain('distributedInfo');
    expect(capture.environment).toEqual({ vendor: 'nvidia' }); // no deviceProperties in this trace
    expect(capture.kernels).toHaveLength(36);
    expect(sum(capture.kernels.map((k) => k.instances))).toBe(93);
    expect(capture.kernels[0]).toMatchObject({
      name: 'ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)',
      totalNs: 93_452_000,
      instances: 2,
      minNs: 30_669_000,
      maxNs: 62_783_000,
      grid: [16, 1, 1],
      block: [640, 1, 1],
    });
    expect(capture.memops).toEqual([
      { kind: 'memcpy-dtod', name: 'Memcpy DtoD (Device -> Device)', totalNs: 99_000, count: 1, bytes: 35_426_192 },
      { kind: 'memcpy-htod', name: 'Memcpy HtoD (Pageable -> Device)', totalNs: 20_000, count: 6, bytes: 3_084 },
      { kind: 'memcpy-htod', name: 'Memcpy HtoD (Pinned -> Device)', totalNs: 11_000, count: 1, bytes: 32 },
      { kind: 'memcpy-dtoh', name: 'Memcpy DtoH (Device -> Pageable)', totalNs: 8_000, count: 4, bytes: 3_626 },
    ]);
    expect(capture.timeline).toMatchObject({
      spanNs: 105_607_000,
      busyNs: 96_367_000,
      idleGaps: { count: 56, totalNs: 9_240_000, longestNs: 4_021_000 },
      kernelLaunches: 127,
      steps: [{ name: 'ProfilerStep#551', startNs: -2_936_000, durNs: 607_312_000, gpuBusyNs: 96_367_000, kernels: 93 }],
    });
  });
});

describe('kineto-json on H200 traces', () => {
  // Per case, from expected.py: kernel events, distinct kernels, kernel ns, busy ns, span ns, idle gaps.
  const cases = [
    ['healthy_graph_decode', 3_432, 24, 19_836_786, 19_836_786, 21_562_109, 3_431],
    ['tiny_hostbound', 3_827, 58, 5_747_524, 5_894_370, 214_984_884, 3_959],
    ['dense_decode', 22_259, 60, 54_352_267, 54_495_917, 755_377_950, 22_122],
    ['eager_attention', 26_723, 74, 62_473_743, 62_592_530, 925_751_659, 26_656],
    ['reprefill_nocache', 20_979, 59, 73_348_490, 73_844_141, 605_752_988, 21_341],
    ['moe_decode', 14_963, 84, 37_333_802, 37_539_653, 721_299_154, 15_141],
  ] as const;
  const captures = new Map<string, Capture>();
  const load = async (name: string) => {
    if (!captures.has(name)) captures.set(name, await read(fixture(`${name}.trace.json.gz`)));
    return captures.get(name)!;
  };

  test.each(cases)('%s: totals and timeline', async (name, events, rows, kernelNs, busyNs, spanNs, gaps) => {
    const capture = await load(name);
    expect(sum(capture.kernels.map((k) => k.instances))).toBe(events);
    expect(capture.kernels).toHaveLength(rows);
    expect(sum(capture.kernels.map((k) => k.totalNs))).toBe(kernelNs);
    const graph = name === 'healthy_graph_decode';
    expect(capture.timeline).toMatchObject({ busyNs, spanNs, devices: 1, kernelLaunches: graph ? 0 : events, graphKernels: graph ? events : 0 });
    expect(capture.timeline!.idleGaps.count).toBe(gaps);
    // Kernel time per tenth of the span adds up to all kernel time (one stream: no overlap).
    expect(sum(capture.timeline!.busyByDecile)).toBeCloseTo(kernelNs, -1);
    expect(capture.environment).toEqual({ gpuName: 'NVIDIA H200', gpuCount: 1, vendor: 'nvidia', cuda: '13.0' });
    expect(capture.source.stats).toEqual([]);
  });

  test.each(cases.map(([name]) => [name]))('%s: top 10 GPU rows match PyTorch key_averages', async (name) => {
    const capture = await load(name);
    const table = deviceRows(parseKernelTable(readFileSync(fixture(`${name}.kernels.txt`), 'utf8')));
    expect(table.length).toBeGreaterThanOrEqual(10);
    const ours = [
      ...capture.kernels.map((k) => ({ name: k.name, ns: k.totalNs, calls: k.instances })),
      ...capture.memops.map((m) => ({ name: m.name, ns: m.totalNs ?? 0, calls: m.count })),
    ];
    for (const row of table.slice(0, 10)) {
      const candidates = ours.filter((item) => nameMatches(row.name, item.name));
      const match = candidates.find((item) => item.calls === row.calls && Math.abs(item.ns - row.selfCudaNs) <= row.selfCudaToleranceNs);
      expect({ row: row.name, matched: match !== undefined }).toEqual({ row: row.name, matched: true });
    }
  });

  test('tiny_hostbound: the GPU is idle almost all the time', async () => {
    const { timeline } = await load('tiny_hostbound');
    const busyFraction = timeline!.busyNs / timeline!.spanNs;
    expect(busyFraction).toBeGreaterThan(0.01);
    expect(busyFraction).toBeLessThan(0.05); // 5_894_370 / 214_984_884 = 2.7 %
    expect(timeline!.idleGaps.totalNs + timeline!.busyNs).toBe(timeline!.spanNs);
    expect(timeline!.idleGaps).toMatchObject({ totalNs: 209_090_514, longestNs: 2_478_229 });
  });

  test('dense_decode: memops and launch calls', async () => {
    const capture = await load('dense_decode');
    expect(capture.memops).toEqual([
      { kind: 'memcpy-dtoh', name: 'Memcpy DtoH (Device -> Pinned)', totalNs: 92_675, count: 64, bytes: 64 },
      { kind: 'memcpy-dtod', name: 'Memcpy DtoD (Device -> Device)', totalNs: 59_324, count: 65, bytes: 2_672 },
      { kind: 'memset', name: 'Memset (Device)', totalNs: 12_735, count: 16, bytes: 64 },
      { kind: 'memcpy-htod', name: 'Memcpy HtoD (Pageable -> Device)', totalNs: 1_473, count: 2, bytes: 16 },
    ]);
    expect(capture.apiCalls.slice(0, 3)).toEqual([
      { name: 'cudaLaunchKernel', totalNs: 119_883_384, calls: 17_587 },
      { name: 'cuLaunchKernelEx', totalNs: 29_802_295, calls: 4_128 },
      { name: 'cudaLaunchKernelExC', totalNs: 3_839_487, calls: 512 },
    ]);
  });

  test('CUDA-graph decode (healthy_graph_decode): replayed kernels, graph launches, GPU step windows', async () => {
    const capture = await read(fixture('healthy_graph_decode.trace.json.gz'));
    expect(capture.kernels).toHaveLength(24);
    expect(sum(capture.kernels.map((k) => k.instances))).toBe(3_432);
    expect(capture.kernels[0]).toMatchObject({ name: 'nvjet_sm90_tst_256x8_64x6_4x1_v_bz_TNT', totalNs: 5_697_840, instances: 128 });
    expect(capture.apiCalls).toEqual([
      { name: 'cudaDeviceSynchronize', totalNs: 16_315_792, calls: 2 },
      { name: 'cudaGraphLaunch', totalNs: 5_259_911, calls: 8 },
      { name: 'cudaStreamIsCapturing', totalNs: 19_005, calls: 8 },
    ]);
    expect(capture.timeline).toMatchObject({
      spanNs: 21_562_109,
      busyNs: 19_836_786,
      idleGaps: { count: 3_431, totalNs: 1_725_323, longestNs: 4_992 },
      kernelLaunches: 0,
      graphLaunches: 8,
      graphKernels: 3_432,
    });
    // The GPU projection of each step (2.69 ms) is used, not the CPU range that queued it (~0.75 ms).
    const steps = capture.timeline!.steps;
    expect(steps).toHaveLength(8);
    expect(steps[0]).toEqual({ name: 'ProfilerStep#1', startNs: -1, durNs: 2_688_921, gpuBusyNs: 2_481_512, kernels: 429, clock: 'gpu' });
    expect(steps[7]).toEqual({ name: 'ProfilerStep#8', startNs: 18_872_292, durNs: 2_689_818, gpuBusyNs: 2_478_019, kernels: 429, clock: 'gpu' });
  });

  test('gzip and plain JSON of the same trace give the same capture', async () => {
    const gz = fixture('tiny_hostbound.trace.json.gz');
    const plain = writeTempFile('tiny_hostbound.trace.json', '');
    writeFileSync(plain, gunzipSync(readFileSync(gz)));
    const [a, b] = [await load('tiny_hostbound'), await read(plain)];
    expect({ ...b, source: { ...b.source, path: gz } }).toEqual(a);
  });
});

describe('kineto-json streaming details', () => {
  test.each([[[1]], [[7, 3, 64, 1, 5]], [[4096]]])('any chunking gives the same capture (chunks %j)', async (sizes) => {
    for (const name of ['hta_a100_simple_add_trace.json', 'hta_mi250_rocm6.2_minitoy_train_kineto.json']) {
      const whole = await read(fixture(name));
      expect(await runImporter(kinetoJson, chunkedInput(fixture(name), sizes))).toEqual(whole);
    }
  });

  test.each([[[1]], [[7, 3, 64, 1, 5]], [[4096]]])('chunks read into one reused buffer give the same capture (chunks %j)', async (sizes) => {
    // Each chunk overwrites the one before (scribbled first), as InputFile.chunks() does: a reader
    // that kept a chunk's bytes without copying them would read another chunk's bytes.
    for (const name of ['hta_a100_simple_add_trace.json', 'hta_mi250_rocm6.2_minitoy_train_kineto.json']) {
      const whole = await runImporter(kinetoJson, chunkedInput(fixture(name), [1 << 30]));
      const input = chunkedInput(fixture(name), sizes);
      const buffer = Buffer.alloc(Math.max(...sizes));
      const reused: InputFile = {
        ...input,
        chunks: async function* () {
          for await (const piece of input.stream()) {
            buffer.fill(0x7b);
            (piece as Buffer).copy(buffer);
            yield buffer.subarray(0, (piece as Buffer).length);
          }
        },
      };
      expect(await runImporter(kinetoJson, reused)).toEqual(whole);
    }
  });

  /** dense_decode's first 6 MB of events (its traceEvents closed there). */
  function denseDecodeStart(): Buffer {
    const all = gunzipSync(readFileSync(fixture('dense_decode.trace.json.gz')));
    const end = all.indexOf('\n  },', 6_000_000) + 4;
    return Buffer.concat([all.subarray(0, end), Buffer.from('\n]}\n')]);
  }

  test('an event that runs past a read is read by the tape in front of the next read, not in JavaScript', async () => {
    const bytes = denseDecodeStart();
    const path = writeTempFile('dense_decode_start.trace.json', '');
    writeFileSync(path, bytes);
    // The events the tape leaves to JavaScript (TraceSummary.event) when the trace is read in one piece.
    const jsEvents = jest.spyOn(TraceSummary.prototype, 'event');
    const landed: number[] = [];
    try {
      const whole = await runImporter(kinetoJson, readerInto(path, bytes.length, landed));
      const inOnePiece = jsEvents.mock.calls.length;
      jsEvents.mockClear();
      // Reads of 64 KiB and of an odd size: hundreds of events run past a read.
      for (const size of [65536, 40_013]) {
        landed.length = 0;
        expect(await runImporter(kinetoJson, readerInto(path, size, landed))).toEqual(whole);
        expect(jsEvents.mock.calls.length).toBe(inOnePiece);
        jsEvents.mockClear();
        // Each read lands at a multiple of 64 bytes of the tape's memory, after the bytes kept.
        expect(landed.length).toBeGreaterThan(bytes.length / size);
        expect(landed.filter((offset) => offset % 64 !== 0)).toEqual([]);
        expect(new Set(landed).size).toBeGreaterThan(1);
      }
      // The same through openInput's own reads (1 MiB, into the buffer the importer gives).
      expect(await read(path)).toEqual(whole);
      expect(jsEvents.mock.calls.length).toBe(inOnePiece);
    } finally {
      jsEvents.mockRestore();
    }
  });

  test('a trace that ends inside an event kept for the next read is told as before', async () => {
    const bytes = denseDecodeStart();
    // Cut inside the event that runs past the second read of 64 KiB (the end of the second read
    // falls in it): that event is kept, and no read follows.
    const end = bytes.lastIndexOf('{', 2 * 65536 - 1);
    for (const cut of [end + 1, 2 * 65536 - 3]) {
      const path = writeTempFile('cut.trace.json', '');
      writeFileSync(path, bytes.subarray(0, cut));
      const expected = `cut.trace.json:byte ${cut}: expected the rest of the JSON value, got end of file`;
      for (const size of [bytes.length, 65536]) {
        const error = await runImporter(kinetoJson, readerInto(path, size, [])).then(
          () => undefined,
          (caught: unknown) => caught,
        );
        expect(error).toBeInstanceOf(InputError);
        expect((error as InputError).message.endsWith(expected)).toBe(true);
      }
    }
  });

  test('a plain trace read through the reused buffer stops when its signal aborts', async () => {
    const plain = writeTempFile('dense_decode.trace.json', '');
    writeFileSync(plain, gunzipSync(readFileSync(fixture('dense_decode.trace.json.gz'))));
    expect(typeof (await openInput(plain)).chunks).toBe('function');
    const controller = new AbortController();
    // 46 MB is dozens of 1 MiB reads, each awaited: the abort lands before the last of them.
    setImmediate(() => controller.abort(new Error('analysis time limit')));
    // As on the stream path: the reason, in one line naming the file and how far it was read.
    await expectInputError(ingestFile(plain, 'kineto-json', { signal: controller.signal }), /dense_decode\.trace\.json:byte \d+: .*"analysis time limit" after \d+ bytes of JSON/);
  });

  test('escapes, non-ASCII names, "cat" inside args and cat after args, split across chunks', async () => {
    const path = traceFile([
      { ph: 'X', name: 'aten::mm', args: { cat: 'kernel', note: 'a "quoted" } brace' }, cat: 'cpu_op', pid: 1, tid: 1, ts: 1, dur: 5 },
      { ph: 'X', name: 'k\\"quoted\\" µ-kernel', pid: 0, tid: 7, ts: 10, dur: 2, args: { device: 0, correlation: 5 }, cat: 'kernel' },
      kernel('plain {lambda()#1} [x]', 20, 3),
      { ph: 'f', id: 5, pid: 0, tid: 7, ts: 10, cat: 'ac2g', name: 'ac2g', bp: 'e' },
      { name: 'process_name', ph: 'M', pid: 0, args: { name: 'python3' } },
    ]);
    const whole = await read(path);
    expect(whole.kernels.map((k) => [k.name, k.totalNs])).toEqual([
      ['plain {lambda()#1} [x]', 3_000],
      ['k\\"quoted\\" µ-kernel', 2_000],
    ]);
    for (const sizes of [[1], [2, 3], [5, 1, 1]]) {
      expect(await runImporter(kinetoJson, chunkedInput(path, sizes))).toEqual(whole);
    }
  });

  test('float µs timestamps keep their ns digits (epoch µs are beyond float64 ns precision)', async () => {
    // 1_700_000_000_000_002.001 µs is not representable as a float64; ns must still be exact.
    const text = `{"traceEvents": [
      {"ph": "X", "cat": "kernel", "name": "a", "pid": 0, "tid": 7, "ts": 1700000000000000.000, "dur": 1.5, "args": {"device": 0}},
      {"ph": "X", "cat": "kernel", "name": "b", "pid": 0, "tid": 7, "ts": 1700000000000002.001, "dur": 0.999, "args": {"device": 0}},
      {"ph": "X", "cat": "kernel", "name": "b", "pid": 0, "tid": 7, "ts": 1700000000000004, "dur": 1, "args": {"device": 0}}
    ]}`;
    const capture = await read(writeTempFile('float.json', text));
    expect(capture.kernels).toEqual([
      { name: 'b', totalNs: 1_999, instances: 2, minNs: 999, maxNs: 1_000, device: 0 },
      { name: 'a', totalNs: 1_500, instances: 1, minNs: 1_500, maxNs: 1_500, device: 0 },
    ]);
    expect(capture.timeline).toMatchObject({ spanNs: 5_000, busyNs: 3_499, idleGaps: { count: 2, totalNs: 1_501, longestNs: 1_000 } });
  });

  test('top-level keys after traceEvents are read', async () => {
    const text = `{"traceEvents": [${JSON.stringify(kernel('k', 5, 1))}],
      "deviceProperties": [{"id": 0, "name": "NVIDIA H100", "warpSize": 32}], "cuda_runtime_version": 12040}`;
    const capture = await read(writeTempFile('after.json', text));
    expect(capture.environment).toEqual({ gpuName: 'NVIDIA H100', gpuCount: 1, vendor: 'nvidia', cuda: '12.4' });
    expect(capture.kernels).toHaveLength(1);
  });

  test('kernels replayed from a CUDA graph are counted and attributed to the graph launch', async () => {
    const path = traceFile([
      runtime('cudaGraphLaunch', 0, 20, 100),
      kernel('graph_k1', 30, 4, { correlation: 100 }),
      kernel('graph_k2', 34, 4, { correlation: 100 }),
      kernel('graph_k1', 38, 4, { correlation: 100 }),
      runtime('cudaLaunchKernel', 40, 5, 101),
      kernel('eager_k', 50, 2, { correlation: 101 }),
    ]);
    const capture = await read(path);
    expect(capture.kernels.map((k) => [k.name, k.instances])).toEqual([
      ['graph_k1', 2],
      ['graph_k2', 1],
      ['eager_k', 1],
    ]);
    expect(capture.timeline).toMatchObject({ kernelLaunches: 1, graphLaunches: 1, graphKernels: 3, busyNs: 14_000, spanNs: 22_000 });
  });

  test('the launch shape that took most time is reported', async () => {
    const path = traceFile([
      kernel('k', 0, 1, { grid: [1, 1, 1], block: [128, 1, 1] }),
      kernel('k', 2, 1, { grid: [1, 1, 1], block: [128, 1, 1] }),
      kernel('k', 4, 5, { grid: [64, 2, 1], block: [256, 1, 1] }),
    ]);
    expect((await read(path)).kernels[0]).toMatchObject({ grid: [64, 2, 1], block: [256, 1, 1], instances: 3, totalNs: 7_000 });
  });

  test('durations over 7 days or negative are dropped and counted as data loss', async () => {
    const path = traceFile([kernel('ok', 0, 3), kernel('overflow', 1, 7 * 24 * 3600 * 1e6 + 1), kernel('negative', 2, -1)]);
    const capture = await read(path);
    expect(capture.kernels.map((k) => k.name)).toEqual(['ok']);
    expect(capture.source.stats).toEqual([expect.objectContaining({ name: 'bad-duration', severity: 'data-loss', count: 2 })]);
  });

  test('empty traceEvents is a valid empty capture', async () => {
    const capture = await read(traceFile([]));
    expect(capture).toMatchObject({ kernels: [], memops: [], apiCalls: [], environment: {} });
    expect(capture.timeline).toBeUndefined();
  });

  test('memcpy direction comes from the name; memset is its own kind', async () => {
    const op = (cat: string, name: string, bytes?: number) => ({ ph: 'X', cat, name, pid: 0, tid: 7, ts: 1, dur: 1, args: { device: 0, ...(bytes ? { bytes } : {}) } });
    const path = traceFile([op('gpu_memcpy', 'Memcpy PtoP (Device -> Device)', 8), op('Memcpy', 'Memcpy DtoH (Device -> Pageable)'), op('gpu_memset', 'Memset (Device)', 4)]);
    // Equal times: ordered by name.
    expect((await read(path)).memops.map((m) => [m.kind, m.bytes])).toEqual([
      ['memcpy-dtoh', undefined],
      ['memcpy-other', 8],
      ['memset', 4],
    ]);
  });
});

describe('kineto-json bad input', () => {
  test('a gzip cut short is an InputError naming the file and the byte offset', async () => {
    const gz = readFileSync(fixture('tiny_hostbound.trace.json.gz'));
    const path = writeTempFile('cut.trace.json.gz', '');
    writeFileSync(path, gz.subarray(0, gz.length >> 1));
    const error = await expectInputError(read(path), /cut\.trace\.json\.gz:byte \d+: expected a complete gzip stream/);
    expect(Number(/byte (\d+)/.exec(error.message)![1])).toBeGreaterThan(1_000_000);
  });

  test('a stray quote in an event is told at its byte, wherever the reads split the event', async () => {
    // `"name": "aten::a"b"`: the quote after `a` ends the name, and the `b` is where the JSON breaks.
    const events = Array.from({ length: 40 }, (_, k) => `{"ph": "X", "cat": "cpu_op", "name": "aten::op${k}", "pid": 1, "tid": 1, "ts": ${k}, "dur": 1, "args": {"External id": ${k}}}`);
    events[30] = events[30]!.replace('"aten::op30"', '"aten::a"b"');
    const text = `{"traceEvents": [${events.join(', ')}]}`;
    const bad = text.indexOf('a"b"') + 2;
    const expected = `stray.json:byte ${bad}: expected \`,\` or \`}\`, got \`b\``;
    const path = writeTempFile('stray.json', text);
    expect(((await read(path).catch((caught: unknown) => caught)) as Error).message.endsWith(expected)).toBe(true);
    // Reads that end inside the bad event, before its `b`, from 1 to 30 bytes after its `{`.
    const start = text.lastIndexOf('{', bad);
    for (let into = 1; into <= 30; into += 7) {
      const size = start + into;
      for (const input of [chunkedInput(path, [size]), readerInto(path, size, [])]) {
        const error = await runImporter(kinetoJson, input).catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(InputError);
        expect((error as InputError).message.endsWith(expected)).toBe(true);
      }
    }
  });

  test('JSON cut inside traceEvents is an InputError at the end offset, never a partial capture', async () => {
    const text = readFileSync(fixture('hta_a100_simple_add_trace.json'), 'utf8').slice(0, 20_000);
    await expectInputError(read(writeTempFile('cut.json', text)), /cut\.json:byte 20000: expected the rest of the JSON value, got end of file/);
    const between = `{"traceEvents": [${JSON.stringify(kernel('k', 1, 1))},`;
    await expectInputError(read(writeTempFile('cut2.json', between)), new RegExp(`byte ${between.length}: expected the next element of the traceEvents array`));
  });

  test('not JSON, or JSON without traceEvents, is an InputError', async () => {
    await expectInputError(read(writeTempFile('a.json', 'name,value\n')), /a\.json:byte 0: expected a JSON object \(`\{`\), got `n`/);
    await expectInputError(read(writeTempFile('b.json', '{"schemaVersion": 1, "deviceProperties": []}')), /b\.json:byte 44: expected a Kineto trace with a top-level "traceEvents" array/);
    await expectInputError(read(writeTempFile('c.json', '{"traceEvents": {}}')), /c\.json:byte 16: expected traceEvents to be an array/);
    await expectInputError(read(writeTempFile('d.json', '')), /d\.json:byte 0: expected a JSON object, got an empty file/);
  });

  test('a malformed wanted event names the byte where it breaks', async () => {
    const text = '{"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "ts": 1 "dur": 2}]}';
    await expectInputError(read(writeTempFile('bad.json', text)), /bad\.json:byte 67: expected `,` or `}`, got `"`/);
  });

  test('mismatched brackets in a skipped event are caught', async () => {
    // Flow events (ac2g) are skipped by their bytes; python_function events are decoded (with_stack sites).
    const text = '{"traceEvents": [{"ph": "X", "cat": "ac2g", "args": {"a": [1}}]}';
    await expectInputError(read(writeTempFile('brackets.json', text)), /brackets\.json:byte 60: expected `]`, got `}`/);
  });

  test('a gzip of bad JSON reports the offset in the decompressed bytes', async () => {
    const path = writeTempFile('bad.json.gz', '');
    writeFileSync(path, gzipSync('{"traceEvents": [1, }'));
    await expectInputError(read(path), /bad\.json\.gz:byte 20: expected a trace event, got `}`/);
  });
});
