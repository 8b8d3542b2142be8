import rule from '../../../src/diagnose/rules/capture-includes-warmup.js';
import type { Step } from '../../../src/model/capture.js';
import { testRule } from '../../helpers/rule-tester.js';
import { K } from '../../helpers/profile-builder.js';

const steps = (...ms: number[]): Step[] => ms.map((d, i) => ({ name: `ProfilerStep#${i}`, startNs: i * 1e8, durNs: d * 1e6, gpuBusyNs: d * 0.9e6, kernels: 700 }));
const span = { spanNs: 1e9, busyNs: 5e8, kernelLaunches: 3500 };

// TensorRT-LLM's autotuner delay (`__global__ void delayStreamKernel(long long delay_micro_secs)`), as nsys names it.
const DELAY = 'tensorrt_llm::kernels::delayStreamKernel(long long)';
/** Grouped-GEMM candidates an autotuner tries once each: CUTLASS SM90 grouped GEMMs of other tiles and stages. */
const candidates = (n: number, ms: number) =>
  Array.from({ length: n }, (_, i) => [
    `void cutlass::device_kernel<cutlass::gemm::kernel::GemmUniversal<cutlass::gemm::GroupProblemShape<cute::tuple<int, int, int>>, cutlass::gemm::collective::CollectiveMma<cutlass::gemm::MainloopSm90ArrayTmaGmmaWarpSpecialized<(int)${2 + (i % 6)}, cute::tuple<cute::C<(int)${1 + (i % 2)}>, cute::C<(int)1>, cute::C<(int)1>>, cutlass::gemm::KernelPtrArrayTmaWarpSpecializedPingpong>, cute::tuple<cute::C<(int)${64 * (1 + (i % 4))}>, cute::C<(int)${8 * (i + 1)}>, cute::C<(int)128>>>>>(T1::Params)`,
    ms,
    1,
  ] as const);
const FILL_INT = 'void at::native::vectorized_elementwise_kernel<(int)4, at::native::FillFunctor<int>, std::array<char *, (unsigned long)1>>(int, T2, T3)';
// A vLLM MoE decode of 64 steps: one argmax per step, grouped expert GEMMs and dense GEMMs every step.
const moeDecode = [
  [K.decodeGemm, 1200, 64 * 96],
  ['void cutlass::device_kernel<cutlass::gemm::kernel::GemmUniversal<cutlass::gemm::GroupProblemShape<cute::tuple<int, int, int>>>>(T1::Params)', 1500, 64 * 48],
  [K.argmax, 6, 64],
  [K.rmsNormVllm, 180, 64 * 97],
] as const;

testRule(rule, {
  passing: [
    { name: 'steady steps', profile: { timeline: { ...span, steps: steps(10, 10.2, 9.9, 10.1) } } },
    // H200 transformers under nsys: 24 cuLibraryLoadData calls, 1.25 ms of 102.8 ms API time.
    { name: 'a few lazy module loads', profile: { apiCalls: [['cudaLaunchKernel', 55.3, 9394], ['cuKernelSetAttribute', 26, 512], ['cuLaunchKernelEx', 20.25, 2080], ['cuLibraryLoadData', 1.25, 24]] } },
    // Notices are read by their code, and no code says compilation: a message that speaks of it is no signal.
    { name: 'a warning whose message speaks of compilation', profile: { notices: [{ code: 'gpu-snapshot-warning', severity: 'warning', message: 'model compiled during the profiled run' }] } },
    { name: 'too few steps to judge', profile: { timeline: { ...span, steps: steps(50, 10) } } },
    // vLLM Qwen2.5-7B under nsys: 10 kernels launched once (set-up fills and copies), 0.01 % of kernel time.
    { name: 'a few set-up kernels launched once, a sliver of the time', profile: { kernels: [...moeDecode, ...candidates(10, 0.03)] } },
    { name: 'fewer one-off kernels than a tuner tries', profile: { kernels: [...moeDecode, ...candidates(9, 30)] } },
    // vLLM's own int fills (TraceLens graph capture: 4 launches, 2 µs each) are no tuner's L2 flush.
    { name: 'short int fills', profile: { kernels: [...moeDecode, [FILL_INT, 0.008, 4]] } },
    { name: 'a few long int fills', profile: { kernels: [...moeDecode, [FILL_INT, 0.72, 9]] } },
    // One prefill forward: every kernel runs once per layer or once, and no step repeats.
    { name: 'kernels launched once with no step loop around them', profile: { kernels: [[K.prefillGemm, 300, 64], [K.flash, 40, 32], ...candidates(20, 5)] } },
  ],
  failing: [
    {
      name: 'first step five times the median',
      profile: { timeline: { ...span, steps: steps(50, 10, 10, 10, 10) } },
      hits: [{ evidence: { firstStepMs: 50, medianStepMs: 10, firstStepRatio: 5, signals: 'first-step' }, command: /--capture-range=cudaProfilerApi/ }],
    },
    {
      name: 'module loading in the API table',
      profile: { apiCalls: [['cudaLaunchKernel', 50, 9000], ['cuModuleLoadData', 20, 40]] },
      hits: [{ evidence: { moduleLoadCalls: 40, moduleLoadMs: 20, moduleLoadShare: 0.2857, signals: 'module-load' } }],
    },
    {
      name: 'two signals together',
      profile: { timeline: { ...span, steps: steps(40, 10, 10, 10) }, apiCalls: [['cudaLaunchKernel', 10, 900], ['nvrtcCompileProgram', 30, 3]] },
      hits: [{ evidence: { signals: 'first-step,module-load', firstStepRatio: 4, moduleLoadShare: 0.75 } }],
    },
    {
      // vLLM with FlashInfer's autotuner on: 126 delays of about 1.02 ms and 120 grouped-GEMM
      // candidates launched once, beside a 64-step decode. Tuning: 128.52 + 36 ms of 3,050.52 ms.
      name: 'an autotuner inside the window: its delay kernel and its one-off candidates',
      profile: { kernels: [...moeDecode, [DELAY, 128.52, 126], ...candidates(120, 0.3)] },
      hits: [
        {
          evidence: {
            signals: 'tuning',
            tunerLaunches: 126,
            tunerMs: 128.52,
            oneOffKernels: 120,
            oneOffMs: 36,
            steps: 64,
            tuningShare: 0.0539,
            tuningKernels: 'delayStreamKernel ×126, device_kernel<GemmUniversal> (120 kernels launched once)',
          },
          message: /The window holds tuning, not steady-state work: 126 launches of an autotuner's timing delay \(delayStreamKernel\) and 120 kernels launched once in a window of 64 steps, 5\.4% of kernel time\./,
          advice: /^An autotuner times its candidates once per shape/,
        },
      ],
    },
    {
      name: "the tuner's delay kernel alone, without a step loop",
      profile: { kernels: [[K.decodeGemm, 900, 4000], [DELAY, 20.4, 20]] },
      hits: [{ evidence: { signals: 'tuning', tunerLaunches: 20, tunerMs: 20.4, tuningShare: 0.0222 } }],
    },
    {
      // Inductor max-autotune or a Triton autotuner: candidates of one op, each launched once, in a 64-step window.
      name: 'forty kernels launched once among kernels launched every step',
      profile: { kernels: [...moeDecode, ...candidates(40, 2)] },
      hits: [{ evidence: { signals: 'tuning', oneOffKernels: 40, oneOffMs: 80, steps: 64, tuningShare: 0.0269 } }],
    },
    {
      // triton.autotune's do_bench on an H100 (fixtures/h100-patterns): 1,605 fills of 80 µs flush L2 between timed runs.
      name: "Triton's L2 flushes between timed runs",
      profile: { kernels: [...moeDecode, [FILL_INT, 128.45, 1605]] },
      hits: [{ evidence: { signals: 'tuning', tunerLaunches: 1605, tunerMs: 128.45, steps: 64, tuningShare: 0.0426 }, message: /1605 launches of an autotuner's L2 flush between timed runs/ }],
    },
    {
      name: 'a lower one-off share',
      profile: { kernels: [...moeDecode, ...candidates(10, 0.03)] },
      options: { minOneOffShare: 0.0001 },
      hits: [{ evidence: { signals: 'tuning', oneOffKernels: 10, oneOffMs: 0.3 } }],
    },
    {
      name: 'a stricter first-step ratio',
      profile: { timeline: { ...span, steps: steps(20, 10, 10, 10) } },
      options: { firstStepRatio: 1.5 },
      hits: [{ evidence: { firstStepRatio: 2 } }],
    },
  ],
});
