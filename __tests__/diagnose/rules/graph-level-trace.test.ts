import rule from '../../../src/diagnose/rules/graph-level-trace.js';
import { K } from '../../helpers/profile-builder.js';
import { testRule } from '../../helpers/rule-tester.js';

testRule(rule, {
  passing: [
    { name: 'node-level trace: graph kernels present', profile: { apiCalls: [['cudaGraphLaunch_v10000', 5, 32]], kernels: [[K.decodeGemm, 40, 6400]] } },
    { name: 'trace says graph kernels were recorded', profile: { timeline: { graphLaunches: 32, graphKernels: 6400, kernelLaunches: 6432, spanNs: 1e8, busyNs: 9e7 } } },
    { name: 'no graphs', profile: { apiCalls: [['cudaLaunchKernel', 50, 9000]], kernels: [[K.decodeGemm, 40, 9000]] } },
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
      name: 'a higher bar for large graphs',
      profile: { apiCalls: [['cuGraphLaunch', 5, 32]], kernels: [[K.decodeGemm, 40, 6400]] },
      options: { minKernelsPerGraphLaunch: 300 },
      hits: [{ evidence: { kernelsPerGraphLaunch: 200, graphLaunches: 32 } }],
    },
  ],
});
