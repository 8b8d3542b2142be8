/**
 * Where the time went, per decode step. Shares move when anything else moves and do not add up to a
 * slowdown; time per step does. Each side's GPU kernel time is divided by the decode steps its
 * capture covers (src/diagnose/step-count.ts counts them from evidence), by family and by kernel,
 * and the change is set against the measured change of step time from the workload's own numbers
 * (tok/s medians and the batch, or time per output token). What kernel time does not explain is
 * host or idle time. Without a step count on both sides, kernels are compared per launch instead.
 * `kernel-time:` thresholds gate these numbers (a row each; not compared, visibly, without steps).
 */
import { keySubject, type ComparisonRow, type MeasuredStep, type PerStep, type PerStepKernel, type StepCount } from '../model/report.js';
import type { KernelFamily } from '../model/family-ids.js';
import { countSteps } from '../diagnose/step-count.js';
import { batchSize } from '../diagnose/profile-measures.js';
import { ownValue } from '../model/own-key.js';
import type { GatedRow, GateInput, GateKernel } from './gate-input.js';
import { KERNEL_TIME_PREFIX, type GateOptions } from './gate-options.js';

/** Kernels kept in the report, by size of change (the thresholds see every kernel). */
export const PER_STEP_KERNELS = 25;

/** A time per step for people: `0.53 ms`, `84 µs`; signed with `+`/`−` when asked. */
export function stepTimeText(ns: number, signed = false): string {
  const abs = Math.abs(ns);
  const sign = signed ? (ns > 0 ? '+' : ns < 0 ? '−' : '±') : ns < 0 ? '−' : '';
  const body = abs >= 1e6 ? `${(abs / 1e6).toFixed(abs >= 1e8 ? 0 : 2)} ms` : abs >= 1e3 ? `${(abs / 1e3).toFixed(abs >= 1e5 ? 0 : 1)} µs` : `${Math.round(abs)} ns`;
  return `${sign}${body}`;
}

/** The tokens each step generates: the batch, when the side states it as a plain number. */
function tokensPerStep(side: GateInput): number | undefined {
  const batch = batchSize(side);
  return batch !== undefined && batch > 0 ? batch : undefined;
}

/**
 * A side's decode steps: as its report recorded them when it was written (a report read back in part
 * keeps only its first profiler steps), else counted now (src/diagnose/step-count.ts), with the
 * tokens per step where the side states its batch.
 */
export function stepCountOf(side: GateInput): StepCount {
  if (side.stepCount) return side.stepCount;
  const counted = countSteps({
    kernels: side.kernels.map((k) => ({ ...k, instances: k.instances ?? 0 })),
    timeline: side.timeline ?? null,
    metrics: side.metrics,
    ...(side.sources ? { sources: side.sources } : {}),
  });
  const tokens = tokensPerStep(side);
  return { ...counted, ...(tokens !== undefined ? { tokensPerStep: tokens } : {}) };
}

function metricValue(side: GateInput, name: string): number | undefined {
  const value = side.metrics.find((m) => m.name === name)?.value;
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : undefined;
}

/** The measured step time of each side, from the workload's medians; per token when the batch is unknown. */
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
}

export function perStepAttribution(current: GateInput, baseline: GateInput): PerStepAnalysis {
  const base = stepCountOf(baseline);
  const cur = stepCountOf(current);
  const perStepKnown = base.steps !== null && cur.steps !== null;
  const baseKernels = totalsByName(baseline.kernels);
  const curKernels = totalsByName(current.kernels);
  const notes: string[] = [];
  const byKey = new Map<string, { baselineNs: number; currentNs: number }>();

  // Per step per device; per launch when either side's steps are unknown.
  const baseDiv = perStepKnown ? base.steps! * base.devices : 0;
  const curDiv = perStepKnown ? cur.steps! * cur.devices : 0;
  const kernels: PerStepKernel[] = [];
  for (const name of new Set([...baseKernels.keys(), ...curKernels.keys()])) {
    const b = baseKernels.get(name);
    const c = curKernels.get(name);
    const perLaunch = (t: Totals | undefined) => (t && t.instances > 0 ? t.totalNs / t.instances : 0);
    const baselineNs = perStepKnown ? (b?.totalNs ?? 0) / baseDiv : perLaunch(b);
    const currentNs = perStepKnown ? (c?.totalNs ?? 0) / curDiv : perLaunch(c);
    const launchedBy = c?.launchedBy ?? b?.launchedBy;
    const site = c?.site ?? b?.site;
    kernels.push({
      name,
      family: (c ?? b)!.family,
      baselineNs,
      currentNs,
      deltaNs: currentNs - baselineNs,
      baselineLaunches: perStepKnown ? (b?.instances ?? 0) / baseDiv : (b?.instances ?? 0),
      currentLaunches: perStepKnown ? (c?.instances ?? 0) / curDiv : (c?.instances ?? 0),
      ...(launchedBy ? { launchedBy } : {}),
      ...(site ? { site } : {}),
    });
    if (perStepKnown) byKey.set(`kernel:${name}`, { baselineNs, currentNs });
  }
  kernels.sort((x, y) => Math.abs(y.deltaNs) - Math.abs(x.deltaNs) || x.name.localeCompare(y.name));

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
    families.sort((x, y) => Math.abs(y.deltaNs) - Math.abs(x.deltaNs) || x.family.localeCompare(y.family));
    kernelDeltaNs = families.reduce((sum, f) => sum + f.deltaNs, 0);
    if (base.devices > 1 || cur.devices > 1) notes.push('times are per step per device (kernel time over the devices, divided by them)');
  } else {
    const missing = [base.steps === null ? `the baseline (${base.text})` : '', cur.steps === null ? `the current run (${cur.text})` : ''].filter(Boolean).join(' and ');
    notes.push(`steps unknown for ${missing}: kernels compared by time per launch, not per step`);
  }

  const measured = measuredStepTime(current, baseline, cur, base);
  let explainedShare: number | null = null;
  if (measured?.per === 'step' && kernelDeltaNs !== null && measured.deltaNs !== 0) explainedShare = kernelDeltaNs / measured.deltaNs;
  if (measured?.per === 'token') notes.push('tokens per step (the batch) unknown on a side: the measured change is per token (1/tok/s), and kernel time per step is not set against it');
  if (!measured) notes.push('no measured step time on both sides (decode_tok_s with the batch, tpot_ms or itl_ms)');

  return { perStep: { unit: perStepKnown ? 'step' : 'launch', baseline: base, current: cur, families, kernels: kernels.slice(0, PER_STEP_KERNELS), kernelDeltaNs, measured, explainedShare, notes }, byKey };
}

/** The metric whose medians give the measured step time. */
const BASIS_METRIC: Record<MeasuredStep['basis'], string> = { tpot_ms: 'tpot_ms', itl_ms: 'itl_ms', 'decode_tok_s+batch': 'decode_tok_s', 'decode_tok_s': 'decode_tok_s' };

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

/**
 * One row per `kernel-time:` threshold: growth of GPU time per step at or beyond it fails. Without a
 * step count on both sides the row is not compared, and says why (insufficient data, never a pass).
 */
export function kernelTimeRows(analysis: PerStepAnalysis, options: GateOptions): GatedRow[] {
  const rows: GatedRow[] = [];
  for (const key of kernelTimeKeys(options)) {
    const thresholdMs = ownValue(options.thresholds, key)!;
    const target = key.slice(KERNEL_TIME_PREFIX.length);
    const label = target.length > 80 ? `${target.replace(/\s+/g, ' ').slice(0, 79)}…` : target;
    const { perStep } = analysis;
    const subject = keySubject(target);
    const base = { metric: key, kind: 'kernel-time' as const, unit: 'ms/step', ci: null, threshold: thresholdMs, ...(subject ? { subject } : {}) };
    if (perStep.unit !== 'step') {
      const why = [perStep.baseline.steps === null ? `the baseline's steps are unknown (${perStep.baseline.text})` : '', perStep.current.steps === null ? `the current run's steps are unknown (${perStep.current.text})` : '']
        .filter(Boolean)
        .join('; ');
      const row: ComparisonRow = { ...base, baseline: null, current: null, delta: null, status: 'insufficient-data', note: `not compared: ${why}` };
      rows.push({ row, reason: `${label} time per step not compared: ${why}` });
      continue;
    }
    const times = analysis.byKey.get(target) ?? { baselineNs: 0, currentNs: 0 };
    const deltaNs = times.currentNs - times.baselineNs;
    const failing = deltaNs / 1e6 >= thresholdMs;
    const notes = [`steps: baseline ${perStep.baseline.steps} (${perStep.baseline.basis}), current ${perStep.current.steps} (${perStep.current.basis})`];
    if (!analysis.byKey.has(target)) notes.push('neither side ran it');
    const row: ComparisonRow = {
      ...base,
      baseline: times.baselineNs / 1e6,
      current: times.currentNs / 1e6,
      delta: deltaNs / 1e6,
      status: failing ? 'fail' : 'pass',
      note: notes.join('; '),
    };
    const what = `${label} GPU time per step ${stepTimeText(times.baselineNs)} → ${stepTimeText(times.currentNs)} (${stepTimeText(deltaNs, true)})`;
    rows.push({ row, ...(failing ? { reason: `${what}, at or beyond the +${stepTimeText(thresholdMs * 1e6)} fail threshold` } : {}) });
  }
  return rows;
}
