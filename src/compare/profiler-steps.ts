/**
 * The step time of a profiled window, from its own step ranges: ProfilerStep#N (or a range that
 * marks each step) as the GPU saw it, one sample per step in time order. Where neither side's
 * workload states a step time (tok/s with the batch, TPOT, ITL), this is the only step time two
 * traces hold, and without it a change that leaves the kernels alone and slows the host (launches
 * no longer replayed from a CUDA graph, a sync added per step) would compare as no change at all.
 *
 * Under the profiler every step is slower by the profiler's own cost per launch and per op, on both
 * sides alike; where a change adds host launches, that cost grows with them, so the step grows
 * more under the profiler than outside it. Its gate floor is wider for that (gate-options.ts), and
 * the workload's own numbers, where both sides have them, always come first.
 */
import { MIN_STEPS } from '../diagnose/step-count.js';
import { median } from '../model/averages.js';
import { metricInfo } from '../model/metrics.js';
import type { PerStep } from '../model/report.js';
import type { GateInput, GateMetric } from './gate-input.js';
import { GPU_BOUND_STEP_KERNEL_SHARE } from './gate-options.js';

export const PROFILER_STEP_METRIC = 'profiler_step_ms';

/**
 * Each step's duration in ms, in time order; undefined without MIN_STEPS steps of positive length,
 * all read on the GPU's clock. A CPU range is the host's time: where the host runs ahead (CUDA
 * graphs), a step's range on the CPU is a fraction of the step, and the last one holds the wait.
 */
export function profilerStepSamples(side: Pick<GateInput, 'timeline'>): number[] | undefined {
  const steps = side.timeline?.steps ?? [];
  if (steps.length < MIN_STEPS) return undefined;
  const samples: number[] = [];
  for (const step of steps) {
    if (step.clock !== 'gpu' || step.durNs === undefined || !(step.durNs > 0)) return undefined;
    samples.push(step.durNs / 1e6);
  }
  return samples;
}

function hasMetric(side: GateInput, name: string): boolean {
  return side.metrics.some((m) => m.name === name && Number.isFinite(m.value) && m.value > 0);
}

/** The side's profiled steps as a metric the gate compares like any other (its samples are the steps). */
function profilerStepMetric(samples: number[]): GateMetric {
  const { unit, direction } = metricInfo(PROFILER_STEP_METRIC);
  return { name: PROFILER_STEP_METRIC, unit, direction, samples, value: median(samples) };
}

/**
 * Both sides' profiled steps as metrics, when both have them and neither side's workload wrote a
 * metric of that name. The workload's own step time comes first: measuredStepTime (per-step.ts)
 * asks for these only where no workload metric gives one on both sides.
 */
export function profilerStepMetrics(current: GateInput, baseline: GateInput): { current: GateMetric; baseline: GateMetric } | undefined {
  if (hasMetric(current, PROFILER_STEP_METRIC) || hasMetric(baseline, PROFILER_STEP_METRIC)) return undefined;
  const cur = profilerStepSamples(current);
  const base = profilerStepSamples(baseline);
  return cur && base ? { current: profilerStepMetric(cur), baseline: profilerStepMetric(base) } : undefined;
}

/**
 * The share of the baseline's profiled step its kernels fill (kernel time per step per device over
 * the median step), and whether the step is the host's (below GPU_BOUND_STEP_KERNEL_SHARE).
 */
export function profiledStepRegime(perStep: PerStep): { kernelShare: number; hostBound: boolean } | undefined {
  const measured = perStep.measured;
  if (measured?.basis !== PROFILER_STEP_METRIC || perStep.unit !== 'step') return undefined;
  const kernelNs = perStep.families.reduce((sum, f) => sum + f.baselineNs, 0);
  const kernelShare = kernelNs / measured.baselineNs;
  return { kernelShare, hostBound: kernelShare < GPU_BOUND_STEP_KERNEL_SHARE };
}
