/**
 * Collective exposure, ranks and the idle gaps that are not the workload, read from real traces.
 * Expected values were computed from the raw events (interval unions in a separate script), and
 * match the readings in the fixtures' SOURCES.md, not this product's output.
 */
import { fileURLToPath } from 'node:url';
import { buildProfile } from '../../src/pipeline/build-profile.js';
import { createClassifier } from '../../src/classify/classify.js';
import { ingestFile } from '../../src/ingest/registry.js';
import { writeTempFile } from './profiler-temp-file.js';

const dir = fileURLToPath(new URL('../fixtures/external-2/', import.meta.url));
const kinetoDir = fileURLToPath(new URL('../fixtures/kineto/', import.meta.url));
const classify = createClassifier();
const isCollective = (name: string) => classify({ name }) === 'collective';
const read = (path: string, withCollectives = true) => ingestFile(path, undefined, withCollectives ? { isCollective } : {});
const MS = 1e6;

describe('exposed collective time (Kineto)', () => {
  it('DDP V100 rank 1: the NCCL all-reduce (357.3 ms) never overlaps compute', async () => {
    const capture = await read(`${dir}kineto/hta_v100_ddp_rank1_ws2_nccl_allreduce.json.gz`);
    expect(capture.distributed).toEqual({ rank: 1, worldSize: 2, backend: 'nccl' });
    expect(capture.timeline!.communication).toEqual({ collectiveNs: 357_343_000, exposedNs: 357_343_000 });
    expect(capture.timeline!.spanNs).toBe(1_732_965_000);
    expect(capture.timeline!.busyNs / capture.timeline!.spanNs).toBeCloseTo(0.577, 3);
    expect(capture.timeline!.excludedGaps).toEqual([]);
    expect(capture.timeline!.activeSpanNs).toBe(capture.timeline!.spanNs);
  });

  it('vLLM TP4 rank 0: NCCL plus custom all-reduce, about 24.18 ms, on the compute stream (exposed)', async () => {
    const capture = await read(`${dir}kineto/vllm_tp4_h100_rank0_1000isl_10osl_32con.pt.trace.json.gz`);
    expect(capture.distributed).toEqual({ rank: 0, worldSize: 4, backend: 'nccl' });
    const comm = capture.timeline!.communication!;
    // 24.177 ms from the NCCL and cross_device_reduce kernels; a Triton masking kernel named
    // `…fused_add_all_reduce…` (21 µs) is not a collective, hence the tolerance.
    expect(Math.abs(comm.collectiveNs - 24.1775 * MS)).toBeLessThan(0.05 * MS);
    expect(comm.collectiveNs - comm.exposedNs).toBeLessThan(0.001 * MS);
    expect(capture.timeline!.excludedGaps).toEqual([]);
  });

  it('128-rank trainer (trimmed window): 93.45 ms of send/recv, 14.05 ms of it overlapped by compute', async () => {
    const capture = await read(`${kinetoDir}hta_sampled_rank0_ws128_trimmed.json`);
    expect(capture.distributed).toEqual({ rank: 0, worldSize: 128, backend: 'nccl' });
    expect(capture.timeline!.communication).toEqual({ collectiveNs: 93_452_000, exposedNs: 79_401_000 });
  });

  it('without the collective test nothing is counted as communication', async () => {
    const capture = await read(`${kinetoDir}hta_sampled_rank0_ws128_trimmed.json`, false);
    expect(capture.timeline!.communication).toBeUndefined();
  });

  it('a trace with no collectives has no communication section', async () => {
    const capture = await read(`${dir}kineto/hta_a100_alexnet_critical_path.json.gz`);
    expect(capture.timeline!.communication).toBeUndefined();
    expect(capture.distributed).toEqual({ rank: 0 });
    // The 16 host-to-device copies (55.503 ms) all ran before any kernel: none is hidden.
    expect(capture.timeline!.transfers).toEqual({ copyNs: 55_503_000, exposedNs: 55_503_000 });
  });
});

describe('idle gaps that are not the workload', () => {
  it('AlexNet A100: the 10 s gap after the weights are copied in is set-up, left out of the active span', async () => {
    const t = (await read(`${dir}kineto/hta_a100_alexnet_critical_path.json.gz`)).timeline!;
    expect(t.spanNs).toBe(12_920_244_000);
    const tenSeconds = t.excludedGaps.find((g) => g.durNs === 10_033_725_000);
    expect(tenSeconds).toEqual({ startNs: 904_233_000, durNs: 10_033_725_000, reason: 'set-up' });
    // Every gap of 50 ms or more (the median gap is 2 µs): 0.824 s and 10.03 s before the first
    // convolution (set-up), then 0.825 s, 1.044 s and 52.9 ms between forward passes.
    expect(t.excludedGaps.map((g) => [g.durNs / MS, g.reason])).toEqual([
      [824.158, 'set-up'],
      [10033.725, 'set-up'],
      [824.572, 'between-repetitions'],
      [1043.841, 'between-repetitions'],
      [52.853, 'between-repetitions'],
    ]);
    expect(t.activeSpanNs).toBe(141_095_000);
  });

  it('llama.cpp rocprof: the 313 ms and 231 ms pauses between repetitions, nothing else; 72 % busy without them', async () => {
    const t = (await read(fileURLToPath(new URL("../fixtures/rocprof/llamacpp_r9700_gfx1201_results.csv", import.meta.url)))).timeline!;
    expect(t.excludedGaps).toEqual([
      { startNs: 250_219_647, durNs: 312_607_251, reason: 'between-repetitions' },
      { startNs: 564_015_582, durNs: 231_242_858, reason: 'between-repetitions' },
    ]);
    expect(t.idleGaps.totalNs).toBe(807_702_270);
    expect(t.busyNs / t.activeSpanNs).toBeCloseTo(0.715, 3);
    expect(t.busyNs / t.spanNs).toBeCloseTo(0.45, 2);
  });

  it('gaps under 50 ms stay the workload: the MI250 toy trainer keeps its 6.6 ms gap', async () => {
    const t = (await read(`${kinetoDir}hta_mi250_rocm6.2_minitoy_train_kineto.json`)).timeline!;
    expect(t.idleGaps.longestNs).toBeGreaterThan(6 * MS);
    expect(t.excludedGaps).toEqual([]);
  });

  /** 100 kernels of 10 µs, 5 µs apart, a 200 ms pause, then `after` more kernels. */
  const pausedTrace = (after: number, step: boolean) => {
    const kernel = (ts: number) => ({ ph: 'X', cat: 'kernel', name: 'volta_sgemm_128x32_nt', pid: 0, tid: 7, ts, dur: 10, args: { device: 0, stream: 7 } });
    const events: unknown[] = Array.from({ length: 100 }, (_, k) => kernel(k * 15));
    for (let k = 0; k < after; k++) events.push(kernel(1500 + 200_000 + k * 15));
    if (step) events.push({ ph: 'X', cat: 'user_annotation', name: 'ProfilerStep#1', pid: 1, tid: 1, ts: 0, dur: 1500 + 200_000 + after * 15 });
    return writeTempFile('paused.json', JSON.stringify({ schemaVersion: 1, traceEvents: events }));
  };

  it('a 200 ms pause between two runs of kernels is between repetitions', async () => {
    const t = (await read(pausedTrace(100, false))).timeline!;
    expect(t.excludedGaps).toEqual([{ startNs: 1_495_000, durNs: 200_005_000, reason: 'between-repetitions' }]);
    expect(t.activeSpanNs).toBe(t.spanNs - 200_005_000);
  });

  it('the same pause inside a profiler step is the workload', async () => {
    expect((await read(pausedTrace(100, true))).timeline!.excludedGaps).toEqual([]);
  });

  it('a pause followed by under 2 % of the kernels is tear-down', async () => {
    expect((await read(pausedTrace(1, false))).timeline!.excludedGaps.map((g) => g.reason)).toEqual(['tear-down']);
  });
});

describe('several devices in one trace', () => {
  const op = (name: string, device: number, stream: number, ts: number, dur: number) => ({ ph: 'X', cat: 'kernel', name, pid: device, tid: stream, ts, dur, args: { device, stream } });
  const NCCL = 'ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevComm*, unsigned long, ncclWork*)';
  const GEMM = 'volta_sgemm_128x32_nt';
  // Device 0: compute 0-100 µs, all-reduce 100-150 on another stream. Device 1: compute 0-130,
  // all-reduce 120-150. Device 1's compute overlaps device 0's all-reduce in time, but on another
  // GPU: it hides nothing there.
  const twoDevices = () =>
    writeTempFile(
      'two-devices.json',
      JSON.stringify({
        schemaVersion: 1,
        traceEvents: [op(GEMM, 0, 7, 0, 100), op(NCCL, 0, 20, 100, 50), op(GEMM, 1, 7, 0, 130), op(NCCL, 1, 20, 120, 30)],
      }),
    );

  it('a copy on a side stream while a kernel runs is hidden; the same copy alone is exposed', async () => {
    const copy = (ts: number) => ({ ph: 'X', cat: 'gpu_memcpy', name: 'Memcpy HtoD (Pinned -> Device)', pid: 0, tid: 21, ts, dur: 40, args: { device: 0, stream: 21, bytes: 1e6 } });
    const file = writeTempFile('copies.json', JSON.stringify({ schemaVersion: 1, traceEvents: [op(GEMM, 0, 7, 0, 100), copy(30), copy(200)] }));
    expect((await read(file)).timeline!.transfers).toEqual({ copyNs: 80_000, exposedNs: 40_000 });
  });

  it('exposure is per device: another GPU\'s compute hides nothing', async () => {
    const capture = await read(twoDevices());
    expect(capture.timeline!.communication).toEqual({ collectiveNs: 80_000, exposedNs: 70_000 });
    expect(capture.deviceTimelines.map((d) => [d.device, d.timeline.communication, d.timeline.busyNs])).toEqual([
      [0, { collectiveNs: 50_000, exposedNs: 50_000 }, 150_000],
      [1, { collectiveNs: 30_000, exposedNs: 20_000 }, 150_000],
    ]);
  });

  it('each device becomes its own entry of the profile, with its timeline', async () => {
    const profile = buildProfile([await read(twoDevices())]);
    expect(profile.ranks.map((r) => [r.device, r.totalKernelNs, r.timeline?.communication?.exposedNs])).toEqual([
      [0, 150_000, 50_000],
      [1, 160_000, 20_000],
    ]);
  });

  it('a single-device trace has no per-device timelines', async () => {
    expect((await read(`${kinetoDir}hta_sampled_rank0_ws128_trimmed.json`)).deviceTimelines).toEqual([]);
  });
});
