import rule from '../../../src/diagnose/rules/capture-includes-warmup.js';
import type { Step } from '../../../src/model/capture.js';
import { testRule } from '../../helpers/rule-tester.js';

const steps = (...ms: number[]): Step[] => ms.map((d, i) => ({ name: `ProfilerStep#${i}`, startNs: i * 1e8, durNs: d * 1e6, gpuBusyNs: d * 0.9e6, kernels: 700 }));
const span = { spanNs: 1e9, busyNs: 5e8, kernelLaunches: 3500 };

testRule(rule, {
  passing: [
    { name: 'steady steps', profile: { timeline: { ...span, steps: steps(10, 10.2, 9.9, 10.1) } } },
    // H200 transformers under nsys: 24 cuLibraryLoadData calls, 1.25 ms of 102.8 ms API time.
    { name: 'a few lazy module loads', profile: { apiCalls: [['cudaLaunchKernel', 55.3, 9394], ['cuKernelSetAttribute', 26, 512], ['cuLaunchKernelEx', 20.25, 2080], ['cuLibraryLoadData', 1.25, 24]] } },
    // Notices are read by their code, and no code says compilation: a message that speaks of it is no signal.
    { name: 'a warning whose message speaks of compilation', profile: { notices: [{ code: 'gpu-snapshot-warning', severity: 'warning', message: 'model compiled during the profiled run' }] } },
    { name: 'too few steps to judge', profile: { timeline: { ...span, steps: steps(50, 10) } } },
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
      name: 'a stricter first-step ratio',
      profile: { timeline: { ...span, steps: steps(20, 10, 10, 10) } },
      options: { firstStepRatio: 1.5 },
      hits: [{ evidence: { firstStepRatio: 2 } }],
    },
  ],
});
