/**
 * Compilation, first-run or tuning work fell inside the capture: module loads and JIT in the API
 * table, a first step far slower than the rest, or an autotuner at work (its timing kernels, and
 * candidate kernels launched once beside kernels launched every step). No importer reads a tool's own
 * word about compilation, so no notice code stands for it.
 */
import { ROCPROF_KERNEL_COMMAND, toolVendor } from '../vendor-tools.js';
import { suiteOf } from '../../ingest/registry.js';
import { median } from '../../model/averages.js';
import { defineRule } from '../rule.js';
import { ms, percent, round } from '../profile-measures.js';
import { countSteps } from '../step-count.js';
import { kernelDisplayName } from '../../classify/kernel-display-name.js';
import type { Kernel, Profile } from '../../model/profile.js';
import { compareText } from '../../model/text-order.js';

const LOAD_API = /^(?:cu(?:Module|Library)Load|cuLink(?:Create|AddData|Complete)|nvrtc|nvJitLink|hip(?:Module|Library)Load|hiprtc)/;
/** Fewer long int fills than this are not a tuner's flushes. */
const MIN_FLUSHES = 10;
/** Kernels that only an autotuner launches, and what each does for it. */
const TUNER_KERNELS: ReadonlyArray<{ pattern: RegExp; minAvgNs?: number; what: string }> = [
  // TensorRT-LLM's delay holds the stream a fixed time before each timed candidate (FlashInfer's and TensorRT-LLM's tuners).
  { pattern: /\bdelayStreamKernel\b/, what: 'timing delay' },
  // Triton's do_bench zeroes a 256 MB int buffer before each timed run to flush L2: tens of µs per
  // fill on any current GPU (53 µs at the H200's 4.8 TB/s); a model's own int fills take a few µs.
  { pattern: /\bFillFunctor<int>/, minAvgNs: 25_000, what: 'L2 flush between timed runs' },
];

function tunerKernel(kernel: Kernel): string | undefined {
  const found = TUNER_KERNELS.find((t) => t.pattern.test(kernel.name) && (t.minAvgNs === undefined || (kernel.instances >= MIN_FLUSHES && kernel.totalNs / kernel.instances >= t.minAvgNs)));
  return found?.what;
}
const TUNING_ADVICE = 'An autotuner times its candidates once per shape and keeps the winner: let it finish in the warm-up, before the window opens. ';

interface Tuning {
  tuner: Kernel[];
  /** Kernels launched once in a window of several steps (or beside a tuner's own kernels): candidates tried once. */
  oneOff: Kernel[];
  steps: number | null;
}

/** What of the window is tuning rather than steady-state work. */
function tuningOf(profile: Profile, options: { minSteps: number; minOneOffKernels: number; minOneOffShare: number }): Tuning | undefined {
  const total = profile.totalKernelNs;
  if (total <= 0) return undefined;
  const tuner = profile.kernels.filter((k) => tunerKernel(k) !== undefined);
  const { steps } = countSteps(profile);
  const loop = steps !== null && steps >= options.minSteps;
  let oneOff: Kernel[] = [];
  if (loop || tuner.length > 0) {
    const once = profile.kernels.filter((k) => k.instances === 1 && tunerKernel(k) === undefined);
    const share = once.reduce((sum, k) => sum + k.totalNs, 0) / total;
    // Beside a tuner's own kernels, kernels launched once are its candidates whatever their share.
    if (once.length >= options.minOneOffKernels && (tuner.length > 0 || share >= options.minOneOffShare)) oneOff = once;
  }
  if (tuner.length === 0 && oneOff.length === 0) return undefined;
  return { tuner, oneOff, steps };
}

export default defineRule({
  meta: {
    id: 'capture-includes-warmup',
    severity: 'warning',
    title: 'Capture includes warm-up or compilation',
    stage: 'capture',
    needs: [],
    description: 'Module loading, JIT compilation, autotuning or a slow first step is inside the captured window, which inflates times and shifts the kernel mix.',
    defaults: { firstStepRatio: 3, minSteps: 3, maxModuleLoadShare: 0.05, minOneOffKernels: 10, minOneOffShare: 0.02 },
    units: { firstStepRatio: 'ratio', minSteps: 'count', maxModuleLoadShare: 'fraction', minOneOffKernels: 'count', minOneOffShare: 'fraction' },
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

    const tuning = tuningOf(profile, options);
    if (tuning) {
      signals.push('tuning');
      const tunerNs = tuning.tuner.reduce((sum, k) => sum + k.totalNs, 0);
      const oneOffNs = tuning.oneOff.reduce((sum, k) => sum + k.totalNs, 0);
      // One-off candidates of one kernel template share a short name: counted by it, heaviest first.
      const groups = new Map<string, { count: number; ns: number }>();
      for (const k of tuning.oneOff) {
        const short = kernelDisplayName(k.name);
        const group = groups.get(short) ?? { count: 0, ns: 0 };
        groups.set(short, { count: group.count + 1, ns: group.ns + k.totalNs });
      }
      const oneOffNames = [...groups.entries()].sort((a, b) => b[1].ns - a[1].ns || compareText(a[0], b[0]));
      const names = [
        ...tuning.tuner.map((k) => `${kernelDisplayName(k.name)} ×${k.instances}`),
        ...oneOffNames.slice(0, 3).map(([short, g]) => `${short} (${g.count} ${g.count === 1 ? 'kernel' : 'kernels'} launched once)`),
      ];
      Object.assign(evidence, {
        ...(tuning.tuner.length > 0 ? { tunerLaunches: tuning.tuner.reduce((sum, k) => sum + k.instances, 0), tunerMs: ms(tunerNs) } : {}),
        ...(tuning.oneOff.length > 0 ? { oneOffKernels: tuning.oneOff.length, oneOffMs: ms(oneOffNs) } : {}),
        ...(tuning.steps !== null ? { steps: tuning.steps } : {}),
        tuningKernels: `${names.join(', ')}${oneOffNames.length > 3 ? `, and ${oneOffNames.length - 3} more launched once` : ''}`,
        tuningShare: round((tunerNs + oneOffNs) / profile.totalKernelNs),
      });
    }

    if (signals.length === 0) return [];
    const tuningText =
      tuning && typeof evidence.tuningShare === 'number'
        ? ` The window holds tuning, not steady-state work: ${[
            ...tuning.tuner.map((k) => `${k.instances} launches of an autotuner's ${tunerKernel(k)} (${kernelDisplayName(k.name)})`),
            tuning.oneOff.length > 0 ? `${tuning.oneOff.length} kernels launched once${tuning.steps !== null ? ` in a window of ${tuning.steps} steps` : ''}` : '',
          ]
            .filter(Boolean)
            .join(' and ')}, ${percent(evidence.tuningShare)} of kernel time.`
        : '';
    return [
      {
        message: `Warm-up work is inside the capture (${signals.join(', ')}); times and shares include one-off costs.${tuningText}`,
        evidence: { ...evidence, signals: signals.join(',') },
        ...(toolVendor(profile) === 'amd'
          ? {
              advice:
                `${tuning ? TUNING_ADVICE : ''}Warm up before the capture window and profile only steady-state steps: ${profile.sources.some((s) => suiteOf(s.format) === 'max') ? '`max generate --num-warmups N` (one warm-up generation of N tokens), ' : ''}torch.profiler.schedule(wait=1, warmup=2, active=N) in PyTorch, or run the warm-up before the profiled steps and read only those from the rocprofv3 kernel trace:`,
              command: ROCPROF_KERNEL_COMMAND,
            }
          : {
              advice:
                (tuning ? TUNING_ADVICE : '') +
                'Warm up before the capture window and profile only steady-state steps: `max generate --num-warmups N` (one warm-up generation of N tokens), cudaProfilerStart() after warm-up with a capture range in nsys, or torch.profiler.schedule(wait=1, warmup=2, active=N) in PyTorch:',
              command:
                'nsys profile --capture-range=cudaProfilerApi --capture-range-end=stop --cuda-graph-trace=node --trace=cuda,nvtx --sample=none --cpuctxsw=none -o steady <workload>',
            }),
      },
    ];
  },
});
