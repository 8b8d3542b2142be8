/**
 * CUDA graph replays tied to their capture when the capture is inside the trace.
 *
 * Real trace: fixtures/h200-stacks/graph_capture (PROVENANCE.md "graph_capture"), made by
 * python/workloads/llama_decode.py `torch_capture_profile` at the commit that added it (84f2560):
 * one `torch.cuda.graph` capture of a 16-layer repeat-KV decode step, then 4 replays. Counted with
 * python on the raw JSON: 460 kernel launches between cudaStreamBeginCapture and
 * cudaStreamEndCapture (331 cudaLaunchKernel, 32 cudaLaunchKernelExC, 97 cuLaunchKernelEx from
 * cuBLAS) and one cudaMemcpyAsync; each replay is 460 kernels and one DtoD memcpy on stream 7 with
 * the graph launch's correlation id; 2 fills ran before the capture, outside the graph. In the
 * workload's source at that commit, `def sdpa` (both repeat_interleave calls) is line 152, `def
 * linear` (every layer GEMM) 299, `def forward` 269 (the lm_head F.linear at 297 is inside it).
 */
import { join } from 'node:path';
import { analyze } from '../../src/pipeline/analyze.js';
import { ingestFile } from '../../src/ingest/registry.js';
import type { Capture, KernelStat } from '../../src/model/capture.js';
import { writeTempFile } from './profiler-temp-file.js';
import { analyzedOnce } from '../helpers/shared-analysis.js';

const graphCapture = join('__tests__', 'fixtures', 'h200-stacks', 'graph_capture', 'graphcap_repeatkv_stack.trace.json.gz');
const only = (kernels: KernelStat[], match: (k: KernelStat) => boolean): KernelStat => {
  const found = kernels.filter(match);
  expect(found).toHaveLength(1);
  return found[0]!;
};
const replayed = { graphReplay: true, graphCapture: true };

describe('a real CUDA graph capture in the trace (H200, repeat-KV decode, 4 replays)', () => {
  let capture: Capture;
  beforeAll(async () => {
    capture = await ingestFile(graphCapture);
  }, 60_000);

  it('the repeated-KV copy: repeat_interleave from sdpa (line 152), 16 layers x (k, v) x 4 replays', () => {
    const copy = only(capture.kernels, (k) => k.name.includes('direct_copy_kernel_cuda'));
    expect(copy.instances).toBe(128);
    expect(copy.launchedBy).toBe('aten::repeat_interleave > aten::clone > aten::copy_');
    expect(copy.launchedByShare).toBe(1);
    expect(copy.pythonSites).toEqual([{ function: 'sdpa', file: 'llama_decode.py', line: 152, ...replayed, share: 1 }]);
  });

  it('the layer GEMMs from aten::linear in linear (299), the lm_head GEMM from forward (269)', () => {
    const layerGemms = capture.kernels.filter((k) => k.name.startsWith('nvjet_') && k.instances === 64); // 16 layers x 4 replays
    expect(layerGemms.length).toBe(4);
    for (const gemm of layerGemms) {
      expect(gemm.launchedBy).toBe('aten::linear > aten::matmul > aten::mm');
      expect(gemm.tokens).toBe(1); // batch 1 decode: one row of activations
      expect(gemm.pythonSites).toEqual([{ function: 'linear', file: 'llama_decode.py', line: 299, ...replayed, share: 1 }]);
    }
    const lmHead = only(capture.kernels, (k) => k.name.startsWith('nvjet_') && k.instances === 4);
    expect(lmHead.launchedBy).toMatch(/aten::mm$/);
    expect(lmHead.pythonSites).toEqual([{ function: 'forward', file: 'llama_decode.py', line: 269, ...replayed, share: 1 }]);
  });

  it('attention from aten::scaled_dot_product_attention in sdpa', () => {
    const attention = only(capture.kernels, (k) => k.name.includes('native_sdpa'));
    expect(attention.launchedBy).toMatch(/^aten::scaled_dot_product_attention > .*aten::_cudnn_attention_forward$/);
    expect(attention.pythonSites?.[0]).toMatchObject({ function: 'sdpa', line: 152, graphCapture: true });
  });

  it('every kernel now names its op; the two fills before the capture are eager launches', () => {
    expect(capture.kernels.filter((k) => k.launchedBy === undefined)).toEqual([]);
    const replayedKernels = capture.kernels.filter((k) => k.pythonSites?.some((s) => s.graphCapture));
    expect(replayedKernels.reduce((sum, k) => sum + k.instances, 0)).toBe(4 * 460);
    const eager = capture.kernels.filter((k) => k.pythonSites?.some((s) => !s.graphReplay));
    expect(eager.reduce((sum, k) => sum + k.instances, 0)).toBe(2);
  });

  it('says once how the replays were attributed; no notice that the op is unavailable', () => {
    expect(capture.notices.map((n) => n.code)).toEqual(['kineto-graph-replays-from-capture']);
    // 4 replays of 460 kernels and 1 memcpy node each.
    expect(capture.notices[0]!.message).toMatch(/^1844 GPU events of 4 CUDA graph replays were tied to the launches of their graph's capture/);
    expect(capture.source.stats).toEqual([]);
  });

  it('the GPU idle while the host recorded the graph is set-up, not host-bound time', async () => {
    // From the raw JSON: the longest GPU idle stretch is 28,379.6 us (after the two fills, before
    // the first replay); cudaStreamBeginCapture..EndCapture covers 23,300 us of it. Span 42,749.1 us.
    expect(capture.timeline!.excludedGaps).toEqual([{ startNs: expect.any(Number), durNs: expect.closeTo(28_379_609, -3), reason: 'set-up' }]);
    expect(capture.timeline!.activeSpanNs).toBeCloseTo(42_749_126 - 28_379_609, -3);
    const report = await analyzedOnce([graphCapture]);
    expect(report.findings.map((f) => f.id)).not.toContain('host-bound');
    expect(report.findings.map((f) => f.id)).toContain('healthy-dense-decode');
  }, 60_000);

  it('copy-heavy and dominant-kernel say where the kernel was launched from, and that it was replayed', async () => {
    // The copies are 10 % of kernel time in this short graph decode: under copy-heavy's default bar.
    const report = await analyze({
      inputs: [graphCapture],
      diagnose: { options: { 'copy-heavy': { minCopyShare: 0.1 }, 'dominant-kernel': { minShare: 0.25 } } },
    });
    const copy = report.findings.find((f) => f.id === 'copy-heavy')!;
    expect(copy.message).toContain(
      'KV heads repeated (repeat_interleave / repeat_kv), is 8.1% over 128 launches launched from `sdpa` (llama_decode.py:152) via aten::repeat_interleave > aten::clone > aten::copy_ (captured into a CUDA graph, then replayed).',
    );
    expect(copy.evidence).toMatchObject({ attributed: true, pythonSite: 'sdpa (llama_decode.py:152)' });
    expect(copy.advice).not.toMatch(/does not say which op/);
    const dominant = report.findings.find((f) => f.id === 'dominant-kernel')!;
    expect(dominant.message).toMatch(/launched from `linear` \(llama_decode\.py:299\) via aten::linear > aten::matmul > aten::mm \(captured into a CUDA graph, then replayed\)\.$/);
  }, 60_000);
});

// Hand-made traces in Kineto's order: CPU ops, then Python events, then the runtime and GPU
// activities (each GPU event just before its launch call; a graph's events before its graph launch).
type Event = Record<string, unknown>;
const RANK: Record<string, number> = { cpu_op: 0, python_function: 1 };
const trace = (...parts: Event[][]): string => {
  const events = parts.flat().map((event, k) => ({ event, k }));
  events.sort((a, b) => (RANK[a.event.cat as string] ?? 2) - (RANK[b.event.cat as string] ?? 2) || a.k - b.k);
  return writeTempFile('trace.json', JSON.stringify({ traceEvents: events.map((e) => e.event) }));
};
const read = (...parts: Event[][]) => ingestFile(trace(...parts), 'kineto-json');

let nextId = 1;
const cpuOp = (name: string, ts: number, externalId: number, tid = 1): Event => ({ ph: 'X', cat: 'cpu_op', name, pid: 1, tid, ts, dur: 8, args: { 'External id': externalId } });
const call = (name: string, ts: number, correlation: number, externalId?: number, tid = 1): Event => ({
  ph: 'X',
  cat: name.startsWith('cu') && !name.startsWith('cuda') ? 'cuda_driver' : 'cuda_runtime',
  name,
  pid: 1,
  tid,
  ts,
  dur: 1,
  args: { correlation, ...(externalId !== undefined ? { 'External id': externalId } : {}) },
});
const gpu = (name: string, ts: number, correlation: number, stream = 7, externalId?: number): Event => ({
  ph: 'X',
  cat: name.startsWith('Memcpy') ? 'gpu_memcpy' : name.startsWith('Memset') ? 'gpu_memset' : 'kernel',
  name,
  pid: 0,
  tid: stream,
  ts,
  dur: 2,
  args: { device: 0, stream, correlation, ...(externalId !== undefined ? { 'External id': externalId } : {}) },
});
const python = (name: string, ts: number, dur: number): Event => ({ ph: 'X', cat: 'python_function', name, pid: 1, tid: 1, ts, dur, args: {} });

/** The kernel each op launches in these traces. */
const KERNEL_OF: Record<string, string> = { 'aten::mm': 'gemm_kernel', 'aten::copy_': 'copy_kernel', 'aten::softmax': 'softmax_kernel', 'aten::add': 'add_kernel' };

/**
 * A capture on thread `tid` from `t0` µs: one op and one launch call per entry, in order (`memcpy`
 * entries are a cudaMemcpyAsync inside aten::copy_). Returns the events and the correlation ids.
 */
function captureOf(t0: number, entries: string[], tid = 1): { events: Event[]; correlations: number[] } {
  const events: Event[] = [call('cudaStreamBeginCapture', t0, nextId++, undefined, tid)];
  const correlations: number[] = [];
  entries.forEach((entry, i) => {
    const ts = t0 + 10 + 10 * i;
    const externalId = nextId++;
    const correlation = nextId++;
    const launchCall = entry === 'memcpy' ? 'cudaMemcpyAsync' : entry === 'aten::mm' ? 'cuLaunchKernelEx' : 'cudaLaunchKernel';
    events.push(cpuOp(entry === 'memcpy' ? 'aten::copy_' : entry, ts, externalId, tid), call('INVALID', ts + 1, nextId++, externalId, tid), call(launchCall, ts + 2, correlation, externalId, tid));
    correlations.push(correlation);
  });
  events.push(call('cudaStreamEndCapture', t0 + 10 + 10 * entries.length, nextId++, undefined, tid));
  return { events, correlations };
}

/** One replay from `t0` µs: its GPU events (kernel names, or Memcpy/Memset) in order, then the graph launch. */
function replayOf(t0: number, names: string[], streams: number[] = []): Event[] {
  const correlation = nextId++;
  const events = names.map((name, i) => gpu(name, t0 + 5 + 3 * i, correlation, streams[i] ?? 7));
  return [...events, call('cudaGraphLaunch', t0, correlation)];
}

const kernelsOf = (ops: string[]) => ops.filter((op) => op !== 'memcpy').map((op) => KERNEL_OF[op]!);
const opOf = (capture: Capture, kernel: string) => capture.kernels.find((k) => k.name === kernel)?.launchedBy;
const opNotice = (capture: Capture) => capture.notices.find((n) => n.code === 'kineto-launch-op-unavailable')?.message;
const STEP = ['aten::mm', 'aten::copy_', 'aten::softmax'];

describe('hand-made traces: a replay takes the op of the capture launch at its position', () => {
  it('each kernel of each replay gets the op of the launch at its position (runtime and driver launches)', async () => {
    const { events } = captureOf(0, STEP);
    const capture = await read(events, replayOf(100, kernelsOf(STEP)), replayOf(200, kernelsOf(STEP)));
    expect(opOf(capture, 'gemm_kernel')).toBe('aten::mm');
    expect(opOf(capture, 'copy_kernel')).toBe('aten::copy_');
    expect(opOf(capture, 'softmax_kernel')).toBe('aten::softmax');
    expect(capture.kernels.find((k) => k.name === 'gemm_kernel')!.instances).toBe(2);
    expect(opNotice(capture)).toBeUndefined();
    expect(capture.notices.map((n) => n.code)).toEqual(['kineto-graph-replays-from-capture']);
  });

  it('positions follow start time, not file order', async () => {
    const { events } = captureOf(0, STEP);
    const replay = replayOf(100, kernelsOf(STEP));
    const shuffled = [replay[2]!, replay[0]!, replay[1]!, replay[3]!];
    const capture = await read(events, shuffled);
    expect(opOf(capture, 'gemm_kernel')).toBe('aten::mm');
    expect(opOf(capture, 'softmax_kernel')).toBe('aten::softmax');
  });

  it('a graph launch read before its kernels is matched the same way', async () => {
    const { events } = captureOf(0, STEP);
    const replay = replayOf(100, kernelsOf(STEP));
    const capture = await read(events, [replay[3]!, ...replay.slice(0, 3)]);
    expect(opOf(capture, 'copy_kernel')).toBe('aten::copy_');
  });

  it('a captured cudaMemcpyAsync is a memcpy node on both sides: the kernels after it keep their positions', async () => {
    const ops = ['aten::mm', 'memcpy', 'aten::softmax'];
    const { events } = captureOf(0, ops);
    const capture = await read(events, replayOf(100, ['gemm_kernel', 'Memcpy DtoD (Device -> Device)', 'softmax_kernel']));
    expect(opOf(capture, 'gemm_kernel')).toBe('aten::mm');
    expect(opOf(capture, 'softmax_kernel')).toBe('aten::softmax');
  });

  it('a memset node counts the same way', async () => {
    const { events } = captureOf(0, ['aten::mm', 'aten::add']);
    // The memset's call: cudaMemsetAsync inside aten::zero_.
    events.splice(events.length - 1, 0, cpuOp('aten::zero_', 29, 900), call('cudaMemsetAsync', 29.5, 901, 900));
    const capture = await read(events, replayOf(100, ['gemm_kernel', 'add_kernel', 'Memset (Device)']));
    expect(opOf(capture, 'add_kernel')).toBe('aten::add');
    expect(opNotice(capture)).toBeUndefined();
  });

  it('a launch during the capture that ran at once (its kernel carries its own correlation) is no node', async () => {
    const { events, correlations } = captureOf(0, ['aten::mm', 'aten::add', 'aten::softmax']);
    // The add went to a stream that was not being captured: it ran then, with its own correlation.
    const addOp = events[4]!; // Begin, then (op, INVALID, launch) per entry
    expect(addOp.name).toBe('aten::add');
    const direct = gpu('add_kernel', 32, correlations[1]!, 9, (addOp.args as Record<string, number>)['External id']);
    const capture = await read(events, [direct], replayOf(100, ['gemm_kernel', 'softmax_kernel']));
    expect(opOf(capture, 'softmax_kernel')).toBe('aten::softmax');
    expect(opOf(capture, 'add_kernel')).toBe('aten::add');
  });

  it('the Python line is the capture launch\'s, marked as replayed from a capture', async () => {
    const { events } = captureOf(0, STEP);
    const frames = [python('bench.py(5): <module>', 0, 300), python('model.py(20): attention', 5, 25), python('bench.py(40): step', 95, 200)];
    const capture = await read(frames, events, replayOf(100, kernelsOf(STEP)));
    expect(capture.kernels.find((k) => k.name === 'copy_kernel')!.pythonSites).toEqual([{ function: 'attention', file: 'model.py', line: 20, graphReplay: true, graphCapture: true, share: 1 }]);
    expect(capture.kernels.find((k) => k.name === 'softmax_kernel')!.pythonSites).toEqual([{ function: '<module>', file: 'bench.py', line: 5, graphReplay: true, graphCapture: true, share: 1 }]);
  });
});

describe('hand-made traces: the idle time of a capture', () => {
  it('an idle stretch under a capture is left out as set-up; the same stretch with no capture stays', async () => {
    // 12 kernels 3 us apart, a 40 us idle stretch, 12 more: only the capture tells the stretch apart.
    const before = Array.from({ length: 12 }, (_, i) => gpu('add_kernel', 10 + 3 * i, nextId++));
    const after = Array.from({ length: 12 }, (_, i) => gpu('add_kernel', 90 + 3 * i, nextId++));
    const { events } = captureOf(47, ['aten::add', 'aten::add']);
    const captured = await read(before, events, after);
    expect(captured.timeline!.excludedGaps).toEqual([{ startNs: 35_000, durNs: 45_000, reason: 'set-up' }]);
    const plain = await read(before, after);
    expect(plain.timeline!.excludedGaps).toEqual([]);
  });
});

describe('hand-made traces: replays not tied to a capture, and why', () => {
  it('no capture in the trace: today\'s notice', async () => {
    const capture = await read([cpuOp('aten::mm', 0, 1), call('cudaLaunchKernel', 1, 2, 1), gpu('gemm_kernel', 2, 2, 7, 1)], replayOf(100, ['gemm_kernel', 'copy_kernel']));
    expect(opNotice(capture)).toBe('2 of 3 kernel launches could not be tied to the CPU op that launched them (CUDA graph replays: the graph capture is not in the trace); their launching op is not available.');
  });

  it('a replay with one kernel more than the capture recorded launches: refused, and counted', async () => {
    const { events } = captureOf(0, STEP);
    const capture = await read(events, replayOf(100, [...kernelsOf(STEP), 'add_kernel']));
    expect(opOf(capture, 'gemm_kernel')).toBeUndefined();
    expect(opNotice(capture)).toBe(
      '4 of 4 kernel launches could not be tied to the CPU op that launched them (CUDA graph replays: the trace holds 1 graph capture, but 1 of 1 replays are not tied to one: 1 ran a different number of kernels and copies than any capture before them (a graph captured before the trace began, or a replay cut by the trace)); their launching op is not available.',
    );
    expect(capture.notices.map((n) => n.code)).toEqual(['kineto-launch-op-unavailable']);
  });

  it('a trace cut in mid-replay: the whole replays are tied, the cut one is not', async () => {
    const { events } = captureOf(0, STEP);
    const capture = await read(events, replayOf(100, kernelsOf(STEP)), replayOf(200, kernelsOf(STEP)), replayOf(300, kernelsOf(STEP).slice(0, 2)));
    const gemm = capture.kernels.find((k) => k.name === 'gemm_kernel')!;
    expect(gemm.instances).toBe(3);
    expect(gemm.launchedBy).toBe('aten::mm');
    expect(gemm.launchedByShare).toBeCloseTo(2 / 3, 4);
    expect(opNotice(capture)).toMatch(/^2 of 8 kernel launches .* 1 of 3 replays are not tied to one: 1 ran a different number/);
    expect(capture.notices.find((n) => n.code === 'kineto-graph-replays-from-capture')!.message).toMatch(/^6 GPU events of 2 CUDA graph replays/);
  });

  it('a replay on two streams: refused (its start order need not follow the capture)', async () => {
    const { events } = captureOf(0, STEP);
    const capture = await read(events, replayOf(100, kernelsOf(STEP), [7, 8, 7]));
    expect(opOf(capture, 'copy_kernel')).toBeUndefined();
    expect(opNotice(capture)).toContain('1 of 1 replays are not tied to one: 1 ran on several streams');
  });

  it('the same replay on one stream (another than the usual one) is tied', async () => {
    const { events } = captureOf(0, STEP);
    const capture = await read(events, replayOf(100, kernelsOf(STEP), [3, 3, 3]));
    expect(opOf(capture, 'copy_kernel')).toBe('aten::copy_');
  });

  it('two captures with the same launch count: which one a replay belongs to is not known', async () => {
    const first = captureOf(0, STEP);
    const second = captureOf(50, ['aten::add', 'aten::mm', 'aten::copy_']);
    const capture = await read(first.events, second.events, replayOf(100, kernelsOf(STEP)));
    expect(opOf(capture, 'gemm_kernel')).toBeUndefined();
    expect(opNotice(capture)).toContain('the trace holds 2 graph captures, but 1 of 1 replays are not tied to one: 1 match several captures of the same launch count');
  });

  it('two captures of different launch counts: each replay is matched by its count', async () => {
    const small = captureOf(0, ['aten::add', 'aten::mm']);
    const large = captureOf(50, STEP);
    const capture = await read(small.events, large.events, replayOf(100, ['add_kernel', 'gemm_kernel']), replayOf(200, kernelsOf(STEP)));
    expect(opOf(capture, 'add_kernel')).toBe('aten::add');
    expect(opOf(capture, 'gemm_kernel')).toBe('aten::mm');
    expect(capture.kernels.find((k) => k.name === 'gemm_kernel')!.instances).toBe(2);
    expect(opOf(capture, 'softmax_kernel')).toBe('aten::softmax');
    expect(opNotice(capture)).toBeUndefined();
  });

  it('a replay launched before the capture ended belongs to an earlier graph: refused', async () => {
    const { events } = captureOf(200, STEP);
    const capture = await read(replayOf(100, kernelsOf(STEP)), events);
    expect(opOf(capture, 'gemm_kernel')).toBeUndefined();
    expect(opNotice(capture)).toContain('1 replayed before any capture in the trace ended');
  });

  it('replays of one capture that run different kernels at a position: refused', async () => {
    const { events } = captureOf(0, STEP);
    const capture = await read(events, replayOf(100, kernelsOf(STEP)), replayOf(200, ['gemm_kernel', 'softmax_kernel', 'copy_kernel']));
    expect(opOf(capture, 'gemm_kernel')).toBeUndefined();
    expect(opNotice(capture)).toContain('2 disagree with other replays of their capture');
  });

  it('two captures open at once on one thread: refused', async () => {
    const outer = captureOf(0, STEP);
    const inner = captureOf(5, ['aten::add']);
    // The inner capture begins and ends inside the outer one's range (times interleave on the thread).
    const events = [...outer.events, ...inner.events].sort((a, b) => (a.ts as number) - (b.ts as number));
    const capture = await read(events, replayOf(100, kernelsOf(STEP)));
    expect(opOf(capture, 'copy_kernel')).toBeUndefined();
    expect(opNotice(capture)).toContain('1 match a capture whose calls are out of time order, overlap another capture on the thread, or launch a graph');
  });

  it('refused replays keep the line of the graph launch, marked as a replay only', async () => {
    const { events } = captureOf(0, STEP);
    const frames = [python('bench.py(5): <module>', 0, 300), python('bench.py(40): step', 95, 200)];
    const capture = await read(frames, events, replayOf(100, [...kernelsOf(STEP), 'add_kernel']));
    expect(capture.kernels.find((k) => k.name === 'copy_kernel')!.pythonSites).toEqual([{ function: 'step', file: 'bench.py', line: 40, graphReplay: true, share: 1 }]);
  });

  it('a capture on another thread than the replays is still matched (capture and replay threads may differ)', async () => {
    const { events } = captureOf(0, STEP, 2);
    const capture = await read(events, replayOf(100, kernelsOf(STEP)));
    expect(opOf(capture, 'softmax_kernel')).toBe('aten::softmax');
  });
});
