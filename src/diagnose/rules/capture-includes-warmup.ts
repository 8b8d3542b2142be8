/**
 * Compilation or first-run work fell inside the capture: module loads and JIT in the API table, or a
 * first step far slower than the rest. No importer reads a tool's own word about compilation, so no
 * notice code stands for it.
 */
import { ROCPROF_KERNEL_COMMAND, toolVendor } from '../vendor-tools.js';
import { suiteOf } from '../../ingest/registry.js';
import { median } from '../../model/averages.js';
import { defineRule } from '../rule.js';
import { ms, round } from '../profile-measures.js';

const LOAD_API = /^(?:cu(?:Module|Library)Load|cuLink(?:Create|AddData|Complete)|nvrtc|nvJitLink|hip(?:Module|Library)Load|hiprtc)/;

export default defineRule({
  meta: {
    id: 'capture-includes-warmup',
    severity: 'warning',
    title: 'Capture includes warm-up or compilation',
    stage: 'capture',
    needs: [],
    description: 'Module loading, JIT compilation or a slow first step is inside the captured window, which inflates times and shifts the kernel mix.',
    defaults: { firstStepRatio: 3, minSteps: 3, maxModuleLoadShare: 0.05 },
    units: { firstStepRatio: 'ratio', minSteps: 'count', maxModuleLoadShare: 'fraction' },
  },
  check({ profile, options }) {
    const evidence: Record<string, number | string> = {};
    const signals: string[] = [];

    const steps = profile.timeline?.steps ?? [];
    if (steps.length >= options.minSteps) {
      const rest = median(steps.slice(1).map((s) => s.durNs));
      const ratio = rest > 0 ? steps[0]!.durNs / rest : 0;
      if (ratio >= options.firstStepRatio) {
        signals.push('first-step');
        Object.assign(evidence, { firstStepMs: ms(steps[0]!.durNs), medianStepMs: ms(rest), firstStepRatio: round(ratio, 2) });
      }
    }

    const apiNs = profile.apiCalls.reduce((sum, a) => sum + a.totalNs, 0);
    const loads = profile.apiCalls.filter((a) => LOAD_API.test(a.name));
    const loadNs = loads.reduce((sum, a) => sum + a.totalNs, 0);
    if (apiNs > 0 && loadNs / apiNs >= options.maxModuleLoadShare) {
      signals.push('module-load');
      Object.assign(evidence, {
        moduleLoadCalls: loads.reduce((sum, a) => sum + a.calls, 0),
        moduleLoadMs: ms(loadNs),
        moduleLoadShare: round(loadNs / apiNs),
      });
    }

    if (signals.length === 0) return [];
    return [
      {
        message: `Warm-up work is inside the capture (${signals.join(', ')}); times and shares include one-off costs.`,
        evidence: { ...evidence, signals: signals.join(',') },
        ...(toolVendor(profile) === 'amd'
          ? {
              advice:
                `Warm up before the capture window and profile only steady-state steps: ${profile.sources.some((s) => suiteOf(s.format) === 'max') ? '`max generate --num-warmups N` (one warm-up generation of N tokens), ' : ''}torch.profiler.schedule(wait=1, warmup=2, active=N) in PyTorch, or run the warm-up before the profiled steps and read only those from the rocprofv3 kernel trace:`,
              command: ROCPROF_KERNEL_COMMAND,
            }
          : {
              advice:
                'Warm up before the capture window and profile only steady-state steps: `max generate --num-warmups N` (one warm-up generation of N tokens), cudaProfilerStart() after warm-up with a capture range in nsys, or torch.profiler.schedule(wait=1, warmup=2, active=N) in PyTorch:',
              command:
                'nsys profile --capture-range=cudaProfilerApi --capture-range-end=stop --cuda-graph-trace=node --trace=cuda,nvtx --sample=none --cpuctxsw=none -o steady <workload>',
            }),
      },
    ];
  },
});
