/**
 * Where the time went, per decode step. Shares move when anything else moves and do not add up to a
 * slowdown; time per step does. Each side's GPU kernel time is divided by the decode steps its
 * capture covers (src/diagnose/step-count.ts counts them from evidence), by family and by kernel,
 * and the change is set against the measured change of step time from the workload's own numbers
 * (tok/s medians and the batch, or time per output token). What kernel time does not explain is
 * host or idle time. Before dividing, the two windows are checked for the same kind of step
 * (windowRefusal); refused, or without a step count on both sides, kernels are compared per launch,
 * or over the whole windows where the same work ran in far fewer steps (wholeWindowSound).
 * Every family and top kernel gets a `kernel-time` row that fails only when its time grew past its
 * threshold in a step that did not get faster (kernelTimeRows); `kernel-time:` thresholds set its
 * fail level (not compared, visibly, without steps).
 */
import { keySubject, type ComparisonRow, type MeasuredStep, type PerStep, type PerStepKernel, type PerStepNote, type RowStatus, type StepCount, type StepRefusal, type TimeReading } from '../model/report.js';
import type { KernelFamily } from '../model/family-ids.js';
import { stepCountOf } from '../diagnose/step-count.js';
import { ownValue } from '../model/own-key.js';
import type { GatedRow, GateInput, GateKernel } from './gate-input.js';
import { KERNEL_TIME_PREFIX, type GateOptions } from './gate-options.js';
import { PROFILER_STEP_METRIC, profilerStepMetrics } from './profiler-steps.js';
import { compareText } from '../model/text-order.js';

/** Kernels kept in the report, by size of change (the thresholds see every kernel). */
export const PER_STEP_KERNELS = 25;

function metricValue(side: GateInput, name: string): number | undefined {
  const value = side.metrics.find((m) => m.name === name)?.value;
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : undefined;
}

/**
 * The measured step time of each side, from the workload's medians; per token when the batch is
 * unknown; where no workload metric gives one on both sides, the medians of the profiled steps.
 */
export function measuredStepTime(current: GateInput, baseline: GateInput, cur: StepCount, base: StepCount): MeasuredStep | null {
  const make = (basis: MeasuredStep['basis'], per: MeasuredStep['per'], baselineNs: number, currentNs: number): MeasuredStep => ({ basis, per, baselineNs, currentNs, deltaNs: currentNs - baselineNs });
  const baseTok = metricValue(baseline, 'decode_tok_s');
  const curTok = metricValue(current, 'decode_tok_s');
  if (baseTok !== undefined && curTok !== undefined && base.tokensPerStep !== undefined && cur.tokensPerStep !== undefined) {
    return make('decode_tok_s+batch', 'step', (base.tokensPerStep * 1e9) / baseTok, (cur.tokensPerStep * 1e9) / curTok);
  }
  for (const name of ['tpot_ms', 'itl_ms'] as const) {
    const b = metricValue(baseline, name);
    const c = metricValue(current, name);
    if (b !== undefined && c !== undefined) return make(name, 'step', b * 1e6, c * 1e6);
  }
  if (baseTok !== undefined && curTok !== undefined) return make('decode_tok_s', 'token', 1e9 / baseTok, 1e9 / curTok);
  const profiled = profilerStepMetrics(current, baseline);
  if (profiled) return make(PROFILER_STEP_METRIC, 'step', profiled.baseline.value * 1e6, profiled.current.value * 1e6);
  return null;
}

interface Totals {
  name: string;
  family: KernelFamily;
  totalNs: number;
  instances: number;
  launchedBy?: string | undefined;
  site?: string | undefined;
}

function siteText(kernel: GateKernel): string | undefined {
  const site = kernel.pythonSites?.[0];
  return site ? `${site.file}:${site.line} (${site.function})` : undefined;
}

/** Kernels merged by name over devices, with their launches and where the most time was launched from. */
function totalsByName(kernels: readonly GateKernel[]): Map<string, Totals> {
  const byName = new Map<string, Totals>();
  for (const k of kernels) {
    const seen = byName.get(k.name);
    if (seen) {
      seen.totalNs += k.totalNs;
      seen.instances += k.instances ?? 0;
      seen.launchedBy ??= k.launchedBy;
      seen.site ??= siteText(k);
    } else {
      byName.set(k.name, { name: k.name, family: k.family, totalNs: k.totalNs, instances: k.instances ?? 0, launchedBy: k.launchedBy, site: siteText(k) });
    }
  }
  return byName;
}

export interface PerStepAnalysis {
  perStep: PerStep;
  /** Every kernel's and family's time per step by threshold key (`kernel:<name>`, `family:<id>`); empty per launch. */
  byKey: Map<string, { baselineNs: number; currentNs: number }>;
  /** The keys of the kernels that get a row by default: each side's top N by GPU time (empty per launch). */
  topKernels: string[];
  /** Each kernel's family (the current run's where the sides differ), by `kernel:<name>`. */
  kernelFamilies: Map<string, KernelFamily>;
}

/**
 * Kernel time per step per device may exceed the measured step time by this factor at most. A decode
 * step's kernels run mostly one after another on one stream (the demo pair's kernels are 94 % of the
 * measured step, 2.50 of 2.64 ms; the H200 pairs' 95-99 %); two streams overlapping completely (a
 * collective beside compute) would make 2. Beyond that, the window holds more work than its counted
 * steps.
 */
export const MAX_KERNEL_TIME_OVER_STEP = 2;

/**
 * Counted from different evidence, the sides' kernel time per step may differ by this factor at most.
 * The largest change of one workload's code in the fixtures, FP8 weights expanded every step, moved
 * it 1.8× (2.70 → 4.94 ms); a count of other units (forward passes against decode steps, steps
 * against graph launches) moves it by the ratio of the units. Within one basis a larger change is
 * compared: a step that re-runs its prompt is a real regression of that size.
 */
export const MAX_STEP_TIME_RATIO_ACROSS_BASES = 3;

/**
 * Without tokens per step on both sides, the two windows' step counts may differ by this factor at
 * most. Both sides of a pair run the same command under the same profiler, so the same work is the
 * same count of steps: every pair in the fixtures counts the same on both sides (8 and 8, 32 and
 * 32), and what moves a count without changing the step (a generation that ends at another
 * end-of-sequence token after a change of numerics, a window cut a little differently) moves it by
 * well under 2×. What changes the step itself divides the count by the tokens each step now carries:
 * n prompts packed into one forward by up to n (two prompts: 2×; four with their prefills packed:
 * 86 forwards → 10, 8.6×), speculative decoding by the tokens accepted per step. 1.5 refuses the
 * packing of two prompts and more: compared per step, each would read as a slower step although the
 * work got cheaper, and a faster change must not fail. The price is on the safe side: a window of
 * another length (over 1.5× the other's) without stated tokens per step is compared over the whole
 * windows, where nothing fails. A side that states its tokens per step (the batch) is compared on
 * those instead (a different length of window with the same tokens per step is sound per step).
 */
export const MAX_STEP_COUNT_RATIO = 1.5;

/** Σ kernel time over the steps and devices of a side's window, in ns. */
function kernelTimePerStep(kernels: Map<string, Totals>, count: StepCount): number {
  let total = 0;
  for (const k of kernels.values()) total += k.totalNs;
  return total / (count.steps! * count.devices);
}

/** A capture written by Nsight Systems (its kernel summary or its SQLite export). */
function fromNsys(side: GateInput): boolean {
  return (side.sources ?? []).some((s) => s.format.startsWith('nsys'));
}

/**
 * Whether the two windows hold the same kind of step, checked before dividing: the tokens each step
 * carries, each side's kernel time per step against its measured step time, and the step bases.
 * The first disagreement, or undefined when they agree (or nothing can tell).
 */
export function windowRefusal(
  sides: { current: GateInput; baseline: GateInput },
  counts: { current: StepCount; baseline: StepCount },
  kernelNs: { current: number; baseline: number },
  measured: MeasuredStep | null,
): StepRefusal | undefined {
  const { baseline: base, current: cur } = counts;
  if (base.tokensPerStep !== undefined && cur.tokensPerStep !== undefined && base.tokensPerStep !== cur.tokensPerStep) {
    return { cause: 'tokens-per-step', baseline: base.tokensPerStep, current: cur.tokensPerStep };
  }
  if (measured?.per === 'step') {
    for (const side of ['current', 'baseline'] as const) {
      const stepNs = side === 'current' ? measured.currentNs : measured.baselineNs;
      if (kernelNs[side] > MAX_KERNEL_TIME_OVER_STEP * stepNs) {
        return { cause: 'kernel-time-exceeds-step', side, baseline: kernelNs[side], current: stepNs, ...(fromNsys(sides[side]) ? { fix: 'cuda-graph-trace-node' as const } : {}) };
      }
    }
  }
  if (base.basis !== cur.basis && kernelNs.baseline > 0 && kernelNs.current > 0) {
    const ratio = kernelNs.current / kernelNs.baseline;
    if (ratio > MAX_STEP_TIME_RATIO_ACROSS_BASES || ratio < 1 / MAX_STEP_TIME_RATIO_ACROSS_BASES) {
      const nsys = fromNsys(ratio > 1 ? sides.current : sides.baseline);
      return { cause: 'step-bases-differ', baseline: kernelNs.baseline, current: kernelNs.current, ...(nsys ? { fix: 'cuda-graph-trace-node' as const } : {}) };
    }
  }
  if ((base.tokensPerStep === undefined || cur.tokensPerStep === undefined) && base.steps !== null && cur.steps !== null) {
    const ratio = cur.steps / base.steps;
    if (ratio > MAX_STEP_COUNT_RATIO || ratio < 1 / MAX_STEP_COUNT_RATIO) return { cause: 'step-counts-differ', baseline: base.steps, current: cur.steps };
  }
  return undefined;
}

/** The workload-stated amounts of work that must agree for two whole windows to hold the same work. */
const WORK_METRICS = ['output_tokens', 'prompt_tokens'] as const;

/**
 * Whether the two whole windows may be compared after a refusal for step counts: the same work in
 * fewer, larger steps is the same total on both sides, so each side's kernel time per device over
 * its window compares what the work cost. Not where the sides state different work (output or
 * prompt tokens), nor after another cause, whose windows hold different kinds of work or time.
 */
function wholeWindowSound(refused: StepRefusal | undefined, current: GateInput, baseline: GateInput): boolean {
  if (refused?.cause !== 'step-counts-differ') return false;
  return WORK_METRICS.every((name) => {
    const b = metricValue(baseline, name);
    const c = metricValue(current, name);
    return b === undefined || c === undefined || b === c;
  });
}

/** The `kernel:<name>` keys of the union of each side's top N kernels by GPU time (the rows the gate gives by default). */
function topKernelKeys(base: Map<string, Totals>, cur: Map<string, Totals>, n: number): string[] {
  const top = (kernels: Map<string, Totals>) => [...kernels.values()].sort((a, b) => b.totalNs - a.totalNs || compareText(a.name, b.name)).slice(0, n).map((k) => k.name);
  return [...new Set([...top(base), ...top(cur)])].map((name) => `kernel:${name}`);
}

export function perStepAttribution(current: GateInput, baseline: GateInput, topN = 10): PerStepAnalysis {
  const base = stepCountOf(baseline);
  const cur = stepCountOf(current);
  const baseKernels = totalsByName(baseline.kernels);
  const curKernels = totalsByName(current.kernels);
  const notes: PerStepNote[] = [];
  const measured = measuredStepTime(current, baseline, cur, base);
  const counted = base.steps !== null && cur.steps !== null;
  const checked = counted
    ? windowRefusal({ current, baseline }, { current: cur, baseline: base }, { current: kernelTimePerStep(curKernels, cur), baseline: kernelTimePerStep(baseKernels, base) }, measured)
    : undefined;
  const whole = wholeWindowSound(checked, current, baseline);
  const windowNs = (kernels: Map<string, Totals>, count: StepCount) => [...kernels.values()].reduce((sum, k) => sum + k.totalNs, 0) / count.devices;
  const refused: StepRefusal | undefined = checked && whole ? { ...checked, window: { baselineNs: windowNs(baseKernels, base), currentNs: windowNs(curKernels, cur) } } : checked;
  const perStepKnown = counted && !refused;
  const byKey = new Map<string, { baselineNs: number; currentNs: number }>();
  const kernelFamilies = new Map<string, KernelFamily>();

  // Per step per device; per device over the whole window where that is compared; per launch when either side's steps are unknown.
  const baseDiv = perStepKnown ? base.steps! * base.devices : whole ? base.devices : 0;
  const curDiv = perStepKnown ? cur.steps! * cur.devices : whole ? cur.devices : 0;
  const divided = perStepKnown || whole;
  const kernels: PerStepKernel[] = [];
  for (const name of new Set([...baseKernels.keys(), ...curKernels.keys()])) {
    const b = baseKernels.get(name);
    const c = curKernels.get(name);
    const perLaunch = (t: Totals | undefined) => (t && t.instances > 0 ? t.totalNs / t.instances : 0);
    const baselineNs = divided ? (b?.totalNs ?? 0) / baseDiv : perLaunch(b);
    const currentNs = divided ? (c?.totalNs ?? 0) / curDiv : perLaunch(c);
    const launchedBy = c?.launchedBy ?? b?.launchedBy;
    const site = c?.site ?? b?.site;
    kernels.push({
      name,
      family: (c ?? b)!.family,
      baselineNs,
      currentNs,
      deltaNs: currentNs - baselineNs,
      baselineLaunches: divided ? (b?.instances ?? 0) / baseDiv : (b?.instances ?? 0),
      currentLaunches: divided ? (c?.instances ?? 0) / curDiv : (c?.instances ?? 0),
      ...(launchedBy ? { launchedBy } : {}),
      ...(site ? { site } : {}),
    });
    if (perStepKnown) byKey.set(`kernel:${name}`, { baselineNs, currentNs });
    kernelFamilies.set(`kernel:${name}`, (c ?? b)!.family);
  }
  kernels.sort((x, y) => Math.abs(y.deltaNs) - Math.abs(x.deltaNs) || compareText(x.name, y.name));

  const families: PerStep['families'] = [];
  let kernelDeltaNs: number | null = null;
  if (perStepKnown) {
    const sums = new Map<KernelFamily, { baselineNs: number; currentNs: number }>();
    for (const k of kernels) {
      const sum = sums.get(k.family) ?? { baselineNs: 0, currentNs: 0 };
      sum.baselineNs += k.baselineNs;
      sum.currentNs += k.currentNs;
      sums.set(k.family, sum);
    }
    for (const [family, sum] of sums) {
      families.push({ family, ...sum, deltaNs: sum.currentNs - sum.baselineNs });
      byKey.set(`family:${family}`, sum);
    }
    families.sort((x, y) => Math.abs(y.deltaNs) - Math.abs(x.deltaNs) || compareText(x.family, y.family));
    kernelDeltaNs = families.reduce((sum, f) => sum + f.deltaNs, 0);
    if (base.devices > 1 || cur.devices > 1) notes.push({ kind: 'per-device' });
  } else if (!refused) {
    notes.push({ kind: 'steps-unknown', sides: [...(base.steps === null ? ['baseline' as const] : []), ...(cur.steps === null ? ['current' as const] : [])] });
  }

  let explainedShare: number | null = null;
  if (measured?.per === 'step' && kernelDeltaNs !== null && measured.deltaNs !== 0) explainedShare = kernelDeltaNs / measured.deltaNs;
  if (measured?.per === 'token') notes.push({ kind: 'per-token' });
  if (!measured) notes.push({ kind: 'no-measured-step' });

  return {
    perStep: { unit: perStepKnown ? 'step' : whole ? 'window' : 'launch', baseline: base, current: cur, families, kernels: kernels.slice(0, PER_STEP_KERNELS), kernelDeltaNs, measured, explainedShare, notes, ...(refused ? { refused } : {}) },
    byKey,
    topKernels: perStepKnown ? topKernelKeys(baseKernels, curKernels, topN) : [],
    kernelFamilies,
  };
}

/** The metric whose medians give the measured step time. */
const BASIS_METRIC: Record<MeasuredStep['basis'], string> = { tpot_ms: 'tpot_ms', itl_ms: 'itl_ms', 'decode_tok_s+batch': 'decode_tok_s', 'decode_tok_s': 'decode_tok_s', profiler_step_ms: PROFILER_STEP_METRIC };

/**
 * No change in time per step, decided from the data: the measured step time's row is not
 * significant (neither fail nor improved, its interval holds 0), and kernel time per step moved by
 * no more than that interval allows (its widest end times the baseline's step time): kernels that
 * moved within the runs' own noise are no story to tell. False when either is unknown.
 */
export function noStepTimeChange(perStep: PerStep, rows: readonly ComparisonRow[]): boolean {
  const measured = perStep.measured;
  if (!measured || measured.per !== 'step' || perStep.kernelDeltaNs === null) return false;
  const row = rows.find((r) => r.kind === 'metric' && r.metric === BASIS_METRIC[measured.basis]);
  if (!row?.ci || row.status === 'fail' || row.status === 'improved') return false;
  const [low, high] = row.ci;
  if (!(low <= 0 && high >= 0)) return false;
  // Relative bounds of the metric's change; for tok/s the step time moves by 1/(1 + change) − 1.
  const reach = measured.basis.startsWith('decode_tok_s') ? Math.max(Math.abs(1 / (1 + low) - 1), Math.abs(1 / (1 + high) - 1)) : Math.max(Math.abs(low), Math.abs(high));
  return Math.abs(perStep.kernelDeltaNs) <= reach * measured.baselineNs;
}

/** The thresholds on time per step set in the options: `kernel-time:family:copy`, `kernel-time:kernel:<name>`. */
export function kernelTimeKeys(options: GateOptions): string[] {
  return Object.keys(options.thresholds).filter((key) => key.startsWith(KERNEL_TIME_PREFIX));
}

/** How the step moved overall: the measured change, or the kernel time per step where nothing is measured. */
interface StepMove {
  faster: boolean;
  /** The baseline's step time the default thresholds are a percent of: measured per step, else its kernel time per step. */
  baseStepNs: number;
}

function stepMove(perStep: PerStep): StepMove {
  const kernelBaseNs = perStep.families.reduce((sum, f) => sum + f.baselineNs, 0);
  const measured = perStep.measured;
  const baseStepNs = measured?.per === 'step' ? measured.baselineNs : kernelBaseNs;
  return { faster: (measured ? measured.deltaNs : (perStep.kernelDeltaNs ?? 0)) < 0, baseStepNs };
}

interface TimeLimits {
  warnNs: number;
  failNs: number;
  /** Why the fail threshold is what it is, for the row's sentence (src/report/row-lines.ts). */
  reading: TimeReading;
}

function timeLimits(key: string, move: StepMove, options: GateOptions, measuredStep: boolean): TimeLimits {
  const { warnPct, failPct, floorUs } = options.stepTimeThresholds;
  const relative = (pct: number) => Math.max((pct / 100) * move.baseStepNs, floorUs * 1e3);
  const set = ownValue(options.thresholds, key);
  if (set !== undefined) {
    const warnNs = Math.min(relative(warnPct), set * 1e6);
    return { failNs: set * 1e6, warnNs, reading: { kind: 'time', warn: warnNs / 1e6, basis: 'set' } };
  }
  const failNs = relative(failPct);
  const warnNs = relative(warnPct);
  const basis = failNs === floorUs * 1e3 ? { basis: 'floor' as const, floorUs } : { basis: 'relative' as const, pct: failPct, of: measuredStep ? ('step' as const) : ('kernels' as const), baseMs: move.baseStepNs / 1e6 };
  return { failNs, warnNs, reading: { kind: 'time', warn: warnNs / 1e6, ...basis } };
}

/** Each side's share of GPU time per step, in %. */
function sharesOf(times: { baselineNs: number; currentNs: number }, perStep: PerStep): [number, number] {
  const totalBase = perStep.families.reduce((sum, f) => sum + f.baselineNs, 0);
  const totalCur = perStep.families.reduce((sum, f) => sum + f.currentNs, 0);
  const pct = (part: number, whole: number) => (whole > 0 ? (part / whole) * 100 : 0);
  return [pct(times.baselineNs, totalBase), pct(times.currentNs, totalCur)];
}

/**
 * GPU time per step of every family, each side's top N kernels and each `kernel-time:` threshold's
 * target, a row each (`kernel-time:family:<id>`, `kernel-time:kernel:<name>`). A row warns or fails
 * only when its time grew past its threshold and the step did not get faster; grown in a faster step
 * it took over work (a shift): context, status info. Shrunk past the warn level it is improved.
 * Without a comparison per step (steps unknown on a side, or refused) only the thresholds set get a
 * row, not compared and saying why (insufficient data, never a pass).
 */
export function kernelTimeRows(analysis: PerStepAnalysis, options: GateOptions): GatedRow[] {
  const { perStep } = analysis;
  const explicit = kernelTimeKeys(options).map((key) => key.slice(KERNEL_TIME_PREFIX.length));
  if (perStep.unit !== 'step') return explicit.map((target) => notComparedRow(target, perStep, options));
  const targets = [...new Set([...perStep.families.map((f) => `family:${f.family}`), ...analysis.topKernels, ...explicit])];
  const move = stepMove(perStep);
  const measuredStep = perStep.measured?.per === 'step';
  return targets.map((target) => {
    const key = `${KERNEL_TIME_PREFIX}${target}`;
    const times = analysis.byKey.get(target) ?? { baselineNs: 0, currentNs: 0 };
    const deltaNs = times.currentNs - times.baselineNs;
    const limits = timeLimits(key, move, options, measuredStep);
    let status: RowStatus = 'pass';
    let shift: TimeReading['shift'];
    const family = analysis.kernelFamilies.get(target);
    const familyTimes = family ? analysis.byKey.get(`family:${family}`) : undefined;
    // A kernel that grew while its family did not took work from its own family (another GEMM picked, a kernel renamed).
    const withinFamily = target.startsWith('kernel:') && ownValue(options.thresholds, key) === undefined && familyTimes !== undefined && familyTimes.currentNs - familyTimes.baselineNs < limits.warnNs;
    if (deltaNs >= limits.warnNs && move.faster) {
      status = 'info';
      shift = { within: 'step' };
    } else if (deltaNs >= limits.warnNs && withinFamily && family) {
      status = 'info';
      shift = { within: 'family', family, familyDeltaNs: familyTimes.currentNs - familyTimes.baselineNs };
    } else if (deltaNs >= limits.failNs) {
      status = 'fail';
    } else if (deltaNs >= limits.warnNs) {
      status = 'warn';
    } else if (-deltaNs >= limits.warnNs) {
      status = 'improved';
    }
    const subject = keySubject(target);
    const row: ComparisonRow = {
      metric: key,
      kind: 'kernel-time',
      unit: 'ms/step',
      baseline: times.baselineNs / 1e6,
      current: times.currentNs / 1e6,
      delta: deltaNs / 1e6,
      ci: null,
      threshold: limits.failNs / 1e6,
      status,
      ...(subject ? { subject } : {}),
      reading: { ...limits.reading, shares: sharesOf(times, perStep), ...(analysis.byKey.has(target) ? {} : { neitherRan: true }), ...(shift ? { shift } : {}) },
    };
    return { row };
  });
}

/** A `kernel-time:` threshold's row that was not compared, with why (its reading): undecided, never a pass. */
export function notComparedTimeRow(key: string, threshold: number, reading: TimeReading): ComparisonRow {
  const subject = keySubject(key.slice(KERNEL_TIME_PREFIX.length));
  return {
    metric: key,
    kind: 'kernel-time',
    unit: 'ms/step',
    baseline: null,
    current: null,
    delta: null,
    ci: null,
    threshold,
    status: 'insufficient-data',
    ...(subject ? { subject } : {}),
    reading,
  };
}

/** A `kernel-time:` threshold's row when there is no comparison per step: not compared, and why. */
function notComparedRow(target: string, perStep: PerStep, options: GateOptions): GatedRow {
  const key = `${KERNEL_TIME_PREFIX}${target}`;
  const reading: TimeReading = perStep.refused
    ? { kind: 'time', notCompared: 'refused' }
    : { kind: 'time', notCompared: 'steps-unknown', sides: [...(perStep.baseline.steps === null ? ['baseline' as const] : []), ...(perStep.current.steps === null ? ['current' as const] : [])] };
  return { row: notComparedTimeRow(key, ownValue(options.thresholds, key)!, reading) };
}
