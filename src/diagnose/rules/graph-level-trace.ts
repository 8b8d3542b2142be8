/**
 * CUDA graphs were traced as opaque launches: the kernels they replay are missing from the kernel
 * table, so every share computed from it describes only the few kernels launched outside the graphs.
 */
import { defineRule } from '../rule.js';
import { round, totalLaunches } from '../profile-measures.js';
import { stepsWithoutForwards } from '../decode-steps.js';

const GRAPH_LAUNCH_API = /^(?:cu|cuda|hip)GraphLaunch/;
const ADVICE = 'Nsight Systems traces a graph as one launch unless told to trace its nodes. Re-capture with node-level graph tracing (PyTorch profiler traces graph kernels already):';
const COMMAND = 'nsys profile --cuda-graph-trace=node --trace=cuda,nvtx --sample=none --cpuctxsw=none -o profile <workload>';

export default defineRule({
  meta: {
    id: 'graph-level-trace',
    severity: 'warning',
    title: 'CUDA graphs traced without their kernels',
    stage: 'capture',
    needs: [],
    description: "Graph launches appear but the kernels they replay do not, or the window's decode steps come without their forward passes, so the kernel mix is incomplete.",
    defaults: { minKernelsPerGraphLaunch: 8 },
    units: { minKernelsPerGraphLaunch: 'ratio' },
  },
  check({ profile, options }) {
    const timeline = profile.timeline;
    let graphLaunches = 0;
    let kernels = 0;
    let source = '';
    if (timeline && timeline.graphLaunches > 0 && timeline.graphKernels === 0) {
      graphLaunches = timeline.graphLaunches;
      kernels = timeline.kernelLaunches;
      source = 'timeline';
    } else {
      graphLaunches = profile.apiCalls.filter((a) => GRAPH_LAUNCH_API.test(a.name)).reduce((sum, a) => sum + a.calls, 0);
      kernels = totalLaunches(profile);
      source = 'api';
    }
    if (graphLaunches === 0) {
      // No graph launch recorded (a kernel summary alone): steps counted without their GEMMs say the same.
      const missing = stepsWithoutForwards(profile);
      if (!missing) return [];
      return [
        {
          message: `The window holds ${missing.steps} decode steps (${missing.stepsText}) but only ${missing.linearLaunches} linear-layer launches (${round(missing.linearLaunches / missing.steps, 2)} per step): a decode step runs every linear layer, so the steps' forward passes are missing from the kernel table, as when CUDA graphs are traced as opaque launches.`,
          evidence: { steps: missing.steps, linearLaunches: missing.linearLaunches, linearLaunchesPerStep: round(missing.linearLaunches / missing.steps, 3), source: 'steps' },
          advice: `${ADVICE} If the steps are not replayed from CUDA graphs, profile the process that runs the model.`,
          command: COMMAND,
        },
      ];
    }
    const perGraph = kernels / graphLaunches;
    if (perGraph >= options.minKernelsPerGraphLaunch) return [];
    return [
      {
        message: `${graphLaunches} CUDA graph launches but only ${kernels} kernel launches recorded (${round(perGraph, 2)} per graph): the graphs' kernels are missing.`,
        evidence: { graphLaunches, kernelLaunches: kernels, kernelsPerGraphLaunch: round(perGraph, 3), source },
        advice: ADVICE,
        command: COMMAND,
      },
    ];
  },
});
