/**
 * Which line of the workload's Python launched each kernel (Kineto `with_stack=True`).
 * Expected readings come from the workloads' source, not from the importer:
 * - repeat_kv: python/workloads/llama_decode.py as it was when the capture was made (commit 77a3e91,
 *   PROVENANCE.md: 2026-12-01 19:51–19:54 UTC): `def sdpa` is line 142 and holds both
 *   `repeat_interleave` calls (148–149); `def linear` is 289 (every layer GEMM); the lm_head GEMM is
 *   `F.linear(last, self.lm_head)` at 287, inside `def forward` (259); `rope` is a @staticmethod
 *   whose decorator is line 253. The workload defines no nn.Module.
 * - vLLM TP=4 (../shared/fixtures/external-2/SOURCES.md): 8,667 graph kernels replayed by vLLM's
 *   piecewise backend (vllm/compilation/backends.py), the NCCL all-reduce called through vLLM's
 *   ctypes wrapper (pynccl_wrapper.py `ncclAllReduce`), FA3 outside the piecewise graphs.
 */
import { join } from 'node:path';
import { ingestFile } from '../../src/ingest/registry.js';
import { classifyFrame } from '../../src/ingest/formats/kineto/python-frames.js';
import type { Capture, KernelStat } from '../../src/model/capture.js';
import { writeTempFile } from './profiler-temp-file.js';
import { ingestedOnce } from '../helpers/shared-analysis.js';

const repeatKv = join('__tests__', 'fixtures', 'h200-stacks', 'repeat_kv', 'repeatkv_eager_stack.trace.json.gz');
const vllm = join('__tests__', 'fixtures', 'external-2', 'kineto', 'vllm_tp4_h100_rank0_1000isl_10osl_32con.pt.trace.json.gz');
const only = (kernels: KernelStat[], match: (k: KernelStat) => boolean): KernelStat => {
  const found = kernels.filter(match);
  expect(found).toHaveLength(1);
  return found[0]!;
};
const sites = (capture: Capture) => capture.kernels.flatMap((k) => k.pythonSites ?? []);

describe('Python launch sites on real traces', () => {
  let eager: Capture;
  let served: Capture;
  beforeAll(async () => {
    eager = await ingestFile(repeatKv);
    served = await ingestedOnce(vllm);
  }, 60_000);

  it('repeat_kv eager: the repeated-KV copy comes from sdpa (line 142), all of it', () => {
    const copy = only(eager.kernels, (k) => k.name.includes('direct_copy_kernel_cuda'));
    expect(copy.instances).toBe(64); // 8 layers x (k, v) x 4 steps
    expect(copy.pythonSites).toEqual([{ function: 'sdpa', file: 'llama_decode.py', line: 142, share: 1 }]);
    expect(copy.launchedBy).toBe('aten::repeat_interleave > aten::clone > aten::copy_');
  });

  it('repeat_kv eager: layer GEMMs from linear (289), the lm_head GEMM from forward (259)', () => {
    const layerGemms = eager.kernels.filter((k) => k.name.startsWith('nvjet_') && k.instances === 32);
    expect(layerGemms.length).toBeGreaterThanOrEqual(4);
    for (const gemm of layerGemms) expect(gemm.pythonSites).toEqual([{ function: 'linear', file: 'llama_decode.py', line: 289, share: 1 }]);
    // The one GEMM per step whose grid covers the 32,000-row vocabulary.
    const lmHead = only(eager.kernels, (k) => k.name.startsWith('nvjet_') && k.instances === 4);
    expect(lmHead.pythonSites).toEqual([{ function: 'forward', file: 'llama_decode.py', line: 259, share: 1 }]);
  });

  it('repeat_kv eager: one kernel from two functions gets both, the larger first', () => {
    // 160 bf16 multiplies: 4 per layer in rope (q and k, cos and sin) and 1 per layer in dense_mlp.
    const mul = only(eager.kernels, (k) => k.instances === 160 && k.launchedBy === 'aten::mul');
    expect(mul.pythonSites!.map((s) => [s.function, s.line])).toEqual([
      ['rope', 253],
      ['dense_mlp', 298],
    ]);
    expect(mul.pythonSites![0]!.share).toBeGreaterThan(0.6);
    expect(mul.pythonSites![0]!.share + mul.pythonSites![1]!.share).toBeCloseTo(1, 3);
  });

  it('repeat_kv eager: no frame of torch, the standard library or a built-in is ever named', () => {
    expect(sites(eager).length).toBeGreaterThan(10);
    expect(new Set(sites(eager).map((s) => s.file))).toEqual(new Set(['llama_decode.py']));
    expect(sites(eager).some((s) => s.module !== undefined || s.graphReplay)).toBe(false);
    expect(eager.notices).toEqual([]);
  });

  it('vLLM: graph kernels are replays from the piecewise backend, inside LlamaForCausalLM', () => {
    const gemm = only(served.kernels, (k) => k.name.startsWith('sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize64x128x64'));
    expect(gemm.launchedBy).toBeUndefined(); // no op for a replayed kernel
    expect(gemm.pythonSites).toEqual([{ function: '__call__', file: 'vllm/compilation/backends.py', line: 608, module: 'LlamaForCausalLM', graphReplay: true, share: 1 }]);
    const replayedNs = served.kernels.flatMap((k) => (k.pythonSites ?? []).filter((s) => s.graphReplay).map((s) => s.share * k.totalNs)).reduce((a, b) => a + b, 0);
    const replayedKernels = served.kernels.filter((k) => k.pythonSites?.some((s) => s.graphReplay)).length;
    expect(replayedNs).toBeGreaterThan(0);
    expect(replayedKernels).toBeGreaterThan(5);
  });

  it('vLLM: the NCCL all-reduce from pynccl_wrapper ncclAllReduce, FA3 from flash_attn_varlen_func', () => {
    const allReduce = only(served.kernels, (k) => k.name.startsWith('ncclDevKernel_AllReduce_Sum_bf16_RING_LL'));
    expect(allReduce.pythonSites).toEqual([
      { function: 'ncclAllReduce', file: 'vllm/distributed/device_communicators/pynccl_wrapper.py', line: 282, module: 'LlamaForCausalLM', share: 1 },
    ]);
    // Two FA3 variants (decode and prefill tiles), both run eagerly between the piecewise graphs.
    const fa3 = served.kernels.filter((k) => k.name.includes('FlashAttnFwdSm90'));
    expect(fa3).toHaveLength(2);
    for (const kernel of fa3) {
      expect(kernel.pythonSites).toEqual([{ function: 'flash_attn_varlen_func', file: 'vllm/vllm_flash_attn/flash_attn_interface.py', line: 119, module: 'LlamaForCausalLM', share: 1 }]);
    }
  });

  it('vLLM: generated code (FX, Inductor cache, <string>) and torch frames are never the site', () => {
    const files = new Set(sites(served).map((s) => s.file));
    expect(files.size).toBeGreaterThan(2);
    for (const file of files) expect(file).toMatch(/^vllm\//);
    expect(served.notices.map((n) => n.code)).toEqual(['kineto-launch-op-unavailable']);
  });
});

describe('classifyFrame', () => {
  it.each([
    ['models/llama.py(123): forward', { kind: 'user', function: 'forward', file: 'models/llama.py', line: 123 }],
    ['/home/me/proj/run.py(7): main', { kind: 'user', function: 'main', file: '/home/me/proj/run.py', line: 7 }],
    ['/opt/venv/lib/python3.12/site-packages/transformers/models/llama/modeling_llama.py(338): forward', { kind: 'user', function: 'forward', file: 'transformers/models/llama/modeling_llama.py', line: 338 }],
    ['<ipython-input-3-5f2c>(4): step', { kind: 'user', function: 'step', file: '<ipython-input-3-5f2c>', line: 4 }],
    ['nn.Module: LlamaAttention_0', { kind: 'module', module: 'LlamaAttention' }],
    ['nn.Module: GraphModule_0', { kind: 'skip' }],
    ['torch/nn/modules/module.py(1743): _call_impl', { kind: 'skip' }],
    ['/usr/local/lib/python3.10/dist-packages/torch/nn/functional.py(2940): rms_norm', { kind: 'skip' }],
    ['triton/backends/nvidia/driver.py(443): __call__', { kind: 'skip' }],
    ['torchvision/ops/boxes.py(40): nms', { kind: 'skip' }],
    ['contextlib.py(299): helper', { kind: 'skip' }],
    ['multiprocessing/process.py(108): run', { kind: 'skip' }],
    ['/usr/lib/python3.12/json/decoder.py(343): decode', { kind: 'skip' }],
    ['<built-in method repeat_interleave of Tensor object at 0x7f076b06e440>', { kind: 'skip' }],
    ['<built-in function linear>', { kind: 'skip' }],
    ['<string>(1): launcher', { kind: 'skip' }],
    ['<frozen importlib._bootstrap>(1390): _handle_fromlist', { kind: 'skip' }],
    ['<eval_with_key>.162(4): forward', { kind: 'skip' }],
    ['/tmp/torchinductor_me/ab/cabc.py(428): call', { kind: 'skip' }],
    ['/root/.cache/vllm/torch_compile_cache/db06/rank_0_0/inductor_cache/lh/clhg.py(428): call', { kind: 'skip' }],
    // A workload file whose name only starts like a runtime package is the workload's.
    ['torchrun_helpers.py(12): launch', { kind: 'user', function: 'launch', file: 'torchrun_helpers.py', line: 12 }],
    ['copy_kv.py(5): copy_kv', { kind: 'user', function: 'copy_kv', file: 'copy_kv.py', line: 5 }],
  ])('%s', (name, expected) => {
    expect(classifyFrame(name)).toEqual(expected);
  });
});

describe('Python launch sites on hand-made traces', () => {
  // One thread (pid 1, tid 1): the workload's attention() inside nn.Module Attn, calling torch, a
  // context manager and a built-in, inside which the launch call (correlation 9) runs at 52 µs.
  const pyEvent = (name: string, ts: number, dur: number, id: number, parent: number | null, tid = 1) => ({ ph: 'X', cat: 'python_function', name, pid: 1, tid, ts, dur, args: { 'Python id': id, 'Python parent id': parent } });
  const stack = [
    pyEvent('bench.py(10): <module>', 0, 200, 1, null),
    pyEvent('bench.py(40): step', 10, 180, 2, 1),
    pyEvent('torch/nn/modules/module.py(1743): _call_impl', 20, 100, 3, 2),
    pyEvent('nn.Module: Attn_0', 21, 98, 4, 3),
    pyEvent('model.py(88): attention', 30, 80, 5, 4),
    pyEvent('contextlib.py(299): helper', 40, 30, 6, 5),
    pyEvent('torch/_tensor.py(1052): repeat', 45, 20, 7, 6),
    pyEvent('<built-in method repeat_interleave of Tensor object at 0x7f0>', 50, 10, 8, 7),
  ];
  const op = { ph: 'X', cat: 'cpu_op', name: 'aten::repeat_interleave', pid: 1, tid: 1, ts: 51, dur: 8, args: { 'External id': 3 } };
  const kernel = (correlation: number, ts = 60) => ({ ph: 'X', cat: 'kernel', name: 'copy_kernel', pid: 0, tid: 7, ts, dur: 4, args: { device: 0, correlation, 'External id': 3 } });
  const launch = (correlation: number, ts = 52, tid = 1, name = 'cudaLaunchKernel') => ({ ph: 'X', cat: 'cuda_runtime', name, pid: 1, tid, ts, dur: 3, args: { correlation, 'External id': 3 } });
  const read = (events: unknown[]) => ingestFile(writeTempFile('trace.json', JSON.stringify({ traceEvents: events })), 'kineto-json');
  const attention = { function: 'attention', file: 'model.py', line: 88, module: 'Attn' };

  it('Kineto order (ops, then Python, then each kernel before its launch): the innermost user frame, with its module', async () => {
    const capture = await read([op, ...stack, kernel(9), launch(9)]);
    expect(capture.kernels[0]!.pythonSites).toEqual([{ ...attention, share: 1 }]);
    expect(capture.kernels[0]!.launchedBy).toBe('aten::repeat_interleave');
    expect(capture.notices).toEqual([]);
  });

  it('a kernel read after its launch is attributed as well', async () => {
    const capture = await read([op, ...stack, launch(9), kernel(9)]);
    expect(capture.kernels[0]!.pythonSites).toEqual([{ ...attention, share: 1 }]);
  });

  it('a launch in step() but outside attention() is given step(), with no module', async () => {
    const capture = await read([...stack, kernel(9, 160), launch(9, 150)]);
    expect(capture.kernels[0]!.pythonSites).toEqual([{ function: 'step', file: 'bench.py', line: 40, share: 1 }]);
  });

  it('a graph replay is marked as one; time splits by site with shares', async () => {
    const capture = await read([...stack, kernel(9), launch(9, 52, 1, 'cudaGraphLaunch'), kernel(10, 170), kernel(10, 175), launch(10, 150, 1, 'cudaGraphLaunch')]);
    expect(capture.kernels[0]!.pythonSites).toEqual([
      { function: 'step', file: 'bench.py', line: 40, graphReplay: true, share: 0.6667 },
      { ...attention, graphReplay: true, share: 0.3333 },
    ]);
  });

  it('Python events after the launches: not attributed, and a notice says so', async () => {
    const capture = await read([op, kernel(9), launch(9), ...stack]);
    expect(capture.kernels[0]!.pythonSites).toBeUndefined();
    expect(capture.notices.map((n) => n.code)).toEqual(['kineto-python-stacks-late']);
    expect(capture.notices[0]!.message).toMatch(/^1 kernel launches came before/);
  });

  it('a launch on a thread without stacks is not attributed, and the notice says why', async () => {
    const capture = await read([...stack, kernel(9), launch(9, 52, 2)]);
    expect(capture.kernels[0]!.pythonSites).toBeUndefined();
    expect(capture.notices.map((n) => n.code)).toEqual(['kineto-python-no-user-frame']);
  });

  it('a stack of runtime frames only names no line', async () => {
    const runtimeOnly = stack.filter((e) => !/bench\.py|model\.py/.test(e.name));
    const capture = await read([...runtimeOnly, kernel(9), launch(9)]);
    expect(capture.kernels[0]!.pythonSites).toBeUndefined();
  });

  it('a trace without Python events reads as before: no sites, no Python notice', async () => {
    const capture = await read([op, kernel(9), launch(9)]);
    expect(capture.kernels[0]!.pythonSites).toBeUndefined();
    expect(capture.kernels[0]!.launchedBy).toBe('aten::repeat_interleave');
    expect(capture.notices).toEqual([]);
  });

  it('a Python event out of start order on its thread is dropped and counted', async () => {
    const capture = await read([...stack, pyEvent('late.py(1): f', 5, 1, 9, 1), kernel(9), launch(9)]);
    expect(capture.kernels[0]!.pythonSites).toEqual([{ ...attention, share: 1 }]);
    expect(capture.source.stats).toEqual([expect.objectContaining({ name: 'python-frame-out-of-order', severity: 'data-loss', count: 1 })]);
  });
});
