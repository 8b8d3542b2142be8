import rule from '../../../src/diagnose/rules/graph-level-trace.js';
import { K } from '../../helpers/profile-builder.js';
import { testRule } from '../../helpers/rule-tester.js';

testRule(rule, {
  passing: [
    { name: 'node-level trace: graph kernels present', profile: { apiCalls: [['cudaGraphLaunch_v10000', 5, 32]], kernels: [[K.decodeGemm, 40, 6400]] } },
    { name: 'trace says graph kernels were recorded', profile: { timeline: { graphLaunches: 32, graphKernels: 6400, kernelLaunches: 6432, spanNs: 1e8, busyNs: 9e7 } } },
    { name: 'no graphs', profile: { apiCalls: [['cudaLaunchKernel', 50, 9000]], kernels: [[K.decodeGemm, 40, 9000]] } },
    // 64 steps, each with its 4 decode GEMMs per layer in the table.
    { name: 'a kernel summary whose steps hold their GEMMs', profile: { kernels: [[K.decodeGemm, 40, 64 * 64], [K.argmax, 0.6, 64]] } },
    // One prompt forward: a single argmax is no step loop.
    { name: 'one prefill forward', profile: { kernels: [[K.prefillGemm, 40, 64], [K.argmax, 0.01, 1]] } },
  ],
  failing: [
    {
      // Seen on the H200: without --cuda-graph-trace=node only the kernels outside the graph showed.
      name: 'nsys default graph tracing',
      profile: { apiCalls: [['cudaGraphLaunch_v10000', 5, 32]], kernels: [[K.argmax, 0.3, 16], [K.copy, 0.2, 16]] },
      hits: [{ evidence: { graphLaunches: 32, kernelLaunches: 32, kernelsPerGraphLaunch: 1, source: 'api' }, command: /--cuda-graph-trace=node/ }],
    },
    {
      name: 'trace with graph launches and no graph kernels',
      profile: { timeline: { graphLaunches: 64, graphKernels: 0, kernelLaunches: 128, spanNs: 1e8, busyNs: 1e6 } },
      hits: [{ evidence: { graphLaunches: 64, kernelLaunches: 128, kernelsPerGraphLaunch: 2, source: 'timeline' } }],
    },
    {
      // H100, 64 graph-replayed decode steps under nsys's default graph tracing (fixtures/h100-patterns):
      // ArgMax ×65 (the steps and the prefill's), but the GEMMs only of the prefill (×64) and its LM head (×1).
      name: 'a kernel summary of decode steps without their GEMMs, no API table',
      profile: { kernels: [[K.prefillGemm, 58.8, 64], [K.decodeGemm, 0.1, 1], [K.argmax, 0.7, 65]] },
      hits: [{ evidence: { steps: 65, linearLaunches: 65, linearLaunchesPerStep: 1, source: 'steps' }, command: /--cuda-graph-trace=node/ }],
    },
    {
      name: 'a higher bar for large graphs',
      profile: { apiCalls: [['cuGraphLaunch', 5, 32]], kernels: [[K.decodeGemm, 40, 6400]] },
      options: { minKernelsPerGraphLaunch: 300 },
      hits: [{ evidence: { kernelsPerGraphLaunch: 200, graphLaunches: 32 } }],
    },
  ],
});
