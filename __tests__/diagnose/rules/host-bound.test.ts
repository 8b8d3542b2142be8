import rule from '../../../src/diagnose/rules/host-bound.js';
import { K } from '../../helpers/profile-builder.js';
import { testRule } from '../../helpers/rule-tester.js';

// Thresholds vs real runs (H200): transformers generate ~4-6% util and 3-12% trace busy (host-bound);
// the CUDA-graph decode 84-95% util (GPU-bound).
testRule(rule, {
  passing: [
    { name: 'GPU-bound decode at 84-95% utilization', profile: { util: [84, 90, 95, 92] } },
    { name: 'busy trace', profile: { timeline: { spanNs: 100e6, busyNs: 92e6, kernelLaunches: 5000 } } },
    { name: 'kernels only, no time measure', profile: { kernels: [[K.decodeGemm, 40, 1000]] } },
    { name: 'low sampled utilization contradicted by a busy trace', profile: { util: [10, 10], timeline: { spanNs: 100e6, busyNs: 90e6, kernelLaunches: 100 } } },
  ],
  failing: [
    {
      name: 'transformers generate at ~5% utilization',
      profile: { util: [4, 5, 6, 5] },
      hits: [{ severity: 'warning', evidence: { meanUtilPercent: 5, peakUtilPercent: 6, utilSamples: 4, signals: 'utilization' }, command: /--trace=cuda,osrt/ }],
    },
    {
      name: 'Kineto trace 7% busy (H200 dense_decode: 54.5 ms of kernels over 755.4 ms)',
      profile: { timeline: { spanNs: 755.4e6, busyNs: 54.5e6, kernelLaunches: 22406 } },
      hits: [{ evidence: { busyFraction: 0.0721, launchesPerMs: 29.66, spanMs: 755.4, signals: 'timeline' } }],
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
      name: 'moderate utilization is reported as info',
      profile: { util: [50, 60, 55] },
      hits: [{ severity: 'info', evidence: { meanUtilPercent: 55, signals: 'utilization-moderate' } }],
    },
    {
      name: 'a stricter threshold makes moderate utilization host-bound',
      profile: { util: [50, 55] },
      options: { maxMeanUtilPercent: 60 },
      hits: [{ severity: 'warning', evidence: { meanUtilPercent: 52.5, signals: 'utilization' } }],
    },
    {
      name: 'every low measure is named',
      profile: { util: [5, 7], gpuTimeUtilPercent: 3, timeline: { spanNs: 10e6, busyNs: 0.5e6, kernelLaunches: 40 } },
      hits: [{ evidence: { signals: 'utilization,timeline,gpu-time-util', busyFraction: 0.05, meanUtilPercent: 6 } }],
    },
  ],
});
