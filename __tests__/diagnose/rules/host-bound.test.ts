import rule from '../../../src/diagnose/rules/host-bound.js';
import { K, profileOf, type ProfileSpec } from '../../helpers/profile-builder.js';
import { checkRule } from '../../../src/diagnose/run-rules.js';
import type { Notice } from '../../../src/model/capture.js';
import { testRule } from '../../helpers/rule-tester.js';

// Thresholds vs real runs (H200): transformers generate ~4-6% util and 3-12% trace busy (host-bound);
// the CUDA-graph decode 84-95% util (GPU-bound). Samples are one second apart (sample i at t = i, reporting
// the second before it); the timed windows
// below mark the workload's own timed runs, the only utilization samples that show its steady loop.
// A real backward kernel name (PyTorch's sigmoid backward): the run is training.
const BACKWARD_NAME = 'void at::native::vectorized_elementwise_kernel<4, at::native::sigmoid_backward_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#4}::operator()() const::{lambda(float, float)#1}, at::detail::Array<char*, 3> >(int, at::native::sigmoid_backward_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#4}::operator()() const::{lambda(float, float)#1}, at::detail::Array<char*, 3>)';
const busyDecode = [84, 90, 95, 92, 88, 91, 93, 90, 89, 94, 92, 90];
const startUp = [0, 0, 0, 1, 2, 0, 0, 0];
const wholeProcessOnly: ProfileSpec = { util: [...startUp, 40, 45, 42, 38, ...startUp] };

testRule(rule, {
  passing: [
    // Before: an info finding "Host-bound is not established". Now a note on the evidence (below), no finding.
    { name: 'whole-process samples only: no finding, a note that says what they are', profile: wholeProcessOnly },
    { name: 'GPU-bound decode at 84-95% utilization inside the timed runs', profile: { util: busyDecode, timedWindows: [[-1, 11]] } },
    { name: 'busy trace', profile: { timeline: { spanNs: 100e6, busyNs: 92e6, kernelLaunches: 5000 } } },
    { name: 'kernels only, no time measure', profile: { kernels: [[K.decodeGemm, 40, 1000]] } },
    { name: 'low sampled utilization contradicted by a busy trace', profile: { util: [10, 10, 12, 9], timeline: { spanNs: 100e6, busyNs: 90e6, kernelLaunches: 100 } } },
    {
      // profile-gate run on a command workload without t_start/t_end: 13-20% over the whole process,
      // while the nsys capture of the same run said 93% in use.
      name: 'whole-process samples with start-up, the capture range busy',
      profile: { util: [...startUp, ...busyDecode.slice(0, 3), ...startUp], gpuTimeUtilPercent: 93.3 },
    },
    {
      name: 'whole-process samples low, but the host waited on the GPU (cudaDeviceSynchronize 93% of API time)',
      profile: { util: [...startUp, 90, 95, ...startUp], apiCalls: [['cudaDeviceSynchronize', 93, 16], ['cudaGraphLaunch', 7, 16]] },
    },
    { name: 'one rocm-smi snapshot of an idle card', profile: { util: [0] } },
    // TraceLens's vLLM graph-capture trace: 428 host launches recorded while capturing, 7 set-up
    // kernels ran (28.8 µs of GPU ops in a 57.8 ms span). Almost no GPU work says nothing about waiting.
    { name: 'a graph-capture trace with almost no GPU time', profile: { timeline: { spanNs: 57.8e6, busyNs: 28_830, kernelLaunches: 428 } } },
    { name: 'a handful of launches on the timeline', profile: { timeline: { spanNs: 50e6, busyNs: 5e6, kernelLaunches: 6 } } },
    { name: 'two whole-process samples', profile: { util: [3, 4] } },
    // amd-smi metric CSV from an MI355X box: one sample of each of 8 GPUs, all at the same moment.
    { name: 'one snapshot of eight GPUs', profile: { util: [0, 1, 0, 2, 0, 0, 3, 0].map((gpuPercent, device) => ({ t: 0, device, gpuPercent })) } },
    {
      // DDP V100: NCCL is 36.5% of kernel time and the GPU idle 42%: communication, not the host.
      name: 'collectives dominate the idle trace',
      profile: {
        kernels: [['ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)', 36.5, 60], [K.ampereGemm, 63.5, 4000]],
        timeline: { spanNs: 172e6, busyNs: 100e6, kernelLaunches: 4060 },
      },
    },
    {
      // llama.cpp rocprof: 544 of 808 ms idle are two gaps between benchmark repetitions; without them ~72% busy.
      name: 'idle gaps between repetitions are left out',
      profile: {
        timeline: {
          spanNs: 2_343e6,
          busyNs: 1_535e6,
          kernelLaunches: 1963,
          activeSpanNs: 1_799e6,
          excludedGaps: [{ startNs: 600e6, durNs: 313e6, reason: 'between-repetitions' }, { startNs: 1_500e6, durNs: 231e6, reason: 'between-repetitions' }],
        },
      },
    },
  ],
  failing: [
    {
      name: 'transformers generate at ~5% utilization inside its timed runs',
      profile: { util: [4, 5, 6, 5, 4, 5, 6, 5, 4, 6, 5, 5], timedWindows: [[-1, 11]] },
      hits: [{ severity: 'warning', evidence: { meanUtilPercent: 5, peakUtilPercent: 6, utilSamples: 12, utilWindow: 'timed', signals: 'utilization' }, command: /--trace=cuda,osrt/ }],
    },
    {
      name: 'four timed samples are thin evidence: a note, not a warning',
      profile: { util: [4, 5, 6, 5], timedWindows: [[-1, 3]] },
      hits: [{ severity: 'info', evidence: { meanUtilPercent: 5, utilSamples: 4, signals: 'utilization' } }],
    },
    {
      // DDP training busy 24% of its span, NCCL 40% of kernel time: the GPU is idle 76%, and idle is
      // not time in a collective (a collective waiting on its peers is a running kernel). The host.
      name: 'collectives a large share of kernel time, but the GPU idle most of the trace',
      profile: {
        kernels: [['ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)', 96, 2000], [K.ampereGemm, 120, 4000], [BACKWARD_NAME, 24, 3000]],
        timeline: { spanNs: 1000e6, busyNs: 240e6, kernelLaunches: 9000 },
      },
      hits: [{ severity: 'warning', evidence: { busyFraction: 0.24, signals: 'timeline' } }],
    },
    {
      name: 'Kineto trace 7% busy (H200 dense_decode: 54.5 ms of kernels over 755.4 ms)',
      profile: { timeline: { spanNs: 755.4e6, busyNs: 54.5e6, kernelLaunches: 22406 } },
      hits: [{ severity: 'warning', evidence: { busyFraction: 0.0721, launchesPerMs: 29.66, spanMs: 755.4, signals: 'timeline' } }],
    },
    {
      name: 'nsys gpu_time_util 2%',
      profile: { gpuTimeUtilPercent: 2, kernels: [[K.decodeGemm, 3.5, 496]] },
      hits: [{ evidence: { gpuTimeUtilPercent: 2, signals: 'gpu-time-util' } }],
    },
    {
      name: 'two devices: busy time is over both',
      profile: { timeline: { spanNs: 100e6, busyNs: 60e6, devices: 2, kernelLaunches: 1000 } },
      hits: [{ evidence: { busyFraction: 0.3, signals: 'timeline' } }],
    },
    {
      name: 'busy over the active span once the gaps that are not the workload are left out',
      profile: {
        timeline: {
          spanNs: 12_900e6,
          busyNs: 66e6,
          kernelLaunches: 95,
          activeSpanNs: 2_900e6,
          excludedGaps: [{ startNs: 1_000e6, durNs: 10_000e6, reason: 'set-up' }],
        },
      },
      hits: [{ severity: 'warning', evidence: { busyFraction: 0.0228, spanMs: 2900, excludedGaps: 1, excludedGapMs: 10000, signals: 'timeline' } }],
    },
    {
      name: 'moderate utilization in the timed runs is reported as info',
      profile: { util: [50, 60, 55, 50, 60, 55, 50, 60, 55, 55], timedWindows: [[-1, 9]] },
      hits: [{ severity: 'info', evidence: { meanUtilPercent: 55, signals: 'utilization-moderate' } }],
    },
    {
      name: 'a stricter threshold makes moderate utilization host-bound',
      profile: { util: [50, 55, 50, 55, 50, 55, 50, 55, 50, 55], timedWindows: [[-1, 9]] },
      options: { maxMeanUtilPercent: 60 },
      hits: [{ severity: 'warning', evidence: { meanUtilPercent: 52.5, signals: 'utilization' } }],
    },
    {
      name: 'every low steady measure is named',
      profile: { util: [5, 7, 6, 5, 7, 6, 5, 7, 6, 6], timedWindows: [[-1, 9]], gpuTimeUtilPercent: 3, timeline: { spanNs: 40e6, busyNs: 2e6, kernelLaunches: 40 } },
      hits: [{ evidence: { signals: 'timeline,gpu-time-util,utilization', busyFraction: 0.05, meanUtilPercent: 6 } }],
    },
    {
      name: 'a training trace gets training advice, not decode CUDA graphs',
      profile: {
        kernels: [['void cudnn::detail::dgrad_engine<float, 128, 6, 7, 3, 3, 5, false>(int, int, int, float const*, int, float const*, int, float*, kernel_grad_params, unsigned long long, int, float, int, int, int)', 5, 100]],
        timeline: { spanNs: 100e6, busyNs: 10e6, kernelLaunches: 100 },
      },
      hits: [{ evidence: { busyFraction: 0.1, signals: 'timeline' } }],
    },
  ],
});

describe('host-bound notes', () => {
  it('whole-process samples only: a notice on the report says host-bound is not established, and no finding carries the id', () => {
    const notes: Notice[] = [];
    expect(checkRule(rule, profileOf(wholeProcessOnly), rule.meta.defaults, undefined, notes)).toEqual([]);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ code: 'diagnosis-note', severity: 'info' });
    expect(notes[0]!.message).toMatch(/^host-bound: not established: utilization sampled over whole processes averages [\d.]+% \(\d+ samples, start-up included\)/);
  });

  it('a GPU-bound run in the timed windows gets no note', () => {
    const notes: Notice[] = [];
    expect(checkRule(rule, profileOf({ util: busyDecode, timedWindows: [[-1, 11]] }), rule.meta.defaults, undefined, notes)).toEqual([]);
    expect(notes).toEqual([]);
  });
});
