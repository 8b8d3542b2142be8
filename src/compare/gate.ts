/**
 * The regression gate: the current run against a baseline → pass | warn | fail | insufficient-data
 * | invalid, with one row per metric, family and top kernel (time per step, and share) and changed
 * finding, and the verdict's causes, as data (src/report/verdict-lines.ts writes the sentences). Kernels are judged in time per step where both
 * sides count steps (per-step.ts); shares gate only without steps (shares.ts). Pure: no I/O, deterministic for a given seed.
 * Order of precedence: invalid (environment mismatch, a thermal or hardware throttle, power conditions that differ) > fail > insufficient-data > warn > pass.
 */
import type { Comparison, ComparisonNote, ComparisonRow, DecisionCause, FindingReading, PerStep } from '../model/report.js';
import { rowCause, strongestSeverity } from '../model/decision.js';
import { blockingMismatches, environmentMismatches } from './fingerprint.js';
import type { GatedRow, GateInput, GateMetric, GatePolicy, GateResult } from './gate-input.js';
import { PROFILER_STEP_METRIC, profiledStepRegime, profilerStepMetrics } from './profiler-steps.js';
import { ownValue } from '../model/own-key.js';
import { compareMetrics } from './metric-rows.js';
import { applySharedGpu } from './shared-gpu.js';
import { HOST_BOUND_STEP_FLOOR_PCT, metricFloor, parseGateOptions, resolveKernelThresholds, type GateOptions, type GateOptionsInput } from './gate-options.js';
import { estimateBetweenJobNoise, widenedFloor, type HistoryEntry } from './between-jobs.js';
import { lookAlpha } from './sequential.js';
import { compareCommunication, compareFamilies, compareKernels, type ShareMode } from './shares.js';
import { kernelTimeKeys, kernelTimeRows, noStepTimeChange, notComparedTimeRow, perStepAttribution } from './per-step.js';
import { judgeThrottling } from './throttle-check.js';
import { RULES } from '../diagnose/rules/index.js';
import { failsOn, isPrimary, judge, strongest, type FailOn, type InvalidCheck, type VerdictFinding } from './verdict.js';

export type { GateFamily, GateFinding, GateInput, GateKernel, GateMetric, GateResult } from './gate-input.js';
export type { HistoryEntry } from './between-jobs.js';

/** Findings that count: primary, warning or error (info findings and explained secondaries do not). */
function countedIds(findings: readonly VerdictFinding[]): Map<string, number> {
  const ids = new Map<string, number>();
  for (const f of findings) if (f.severity !== 'info' && isPrimary(f)) ids.set(f.id, (ids.get(f.id) ?? 0) + 1);
  return ids;
}

function findingRows(current: GateInput, baseline: GateInput, options: GateOptions): { rows: GatedRow[]; added: string[]; resolved: string[] } {
  const cur = countedIds(current.findings);
  const base = countedIds(baseline.findings);
  // A warning another finding explained (secondary) is still there: not new when it leads, not resolved when it steps back.
  const seen = (side: GateInput) => new Set(side.findings.filter((f) => f.severity !== 'info').map((f) => f.id));
  const baseSeen = seen(baseline);
  const curSeen = seen(current);
  const rows: GatedRow[] = [];
  const added: string[] = [];
  const resolved: string[] = [];
  for (const id of [...new Set([...base.keys(), ...cur.keys()])].sort()) {
    const b = base.get(id) ?? 0;
    const c = cur.get(id) ?? 0;
    let status: ComparisonRow['status'] = 'info';
    const inFailOn = (options.failOn as readonly string[]).includes(id);
    const plain = { kind: 'finding' as const, inFailOn, fails: false, failOnSeverity: options.failOnSeverity };
    let reading: FindingReading = { ...plain, change: 'present' };
    if (b === 0 && unseenByBaseline(id, current, baseline)) {
      // The baseline had no kernel capture, so it could not have shown this finding: not "new". It is
      // judged as a finding alone (src/compare/verdict.ts), and its line says why it was not compared.
      const hit = strongest(current.findings.filter((f) => f.id === id && f.severity !== 'info' && isPrimary(f)));
      const failing = hit ? failsOn(hit, failOnOf(options)) : false;
      if (hit) status = failing ? 'fail' : 'warn';
      reading = { ...plain, change: 'unseen', ...(hit ? { severity: hit.severity } : {}), fails: failing };
    } else if (b === 0 && baseSeen.has(id)) {
      reading = { ...plain, change: 'explained', explainedIn: 'baseline' };
    } else if (c === 0 && curSeen.has(id)) {
      reading = { ...plain, change: 'explained', explainedIn: 'current' };
    } else if (b === 0) {
      added.push(id);
      // The strongest new hit decides, and its evidence is the line's (src/report/row-lines.ts).
      const hit = strongest(current.findings.filter((f) => f.id === id && f.severity !== 'info' && isPrimary(f)))!;
      const failing = failsOn(hit, failOnOf(options));
      status = failing ? 'fail' : 'warn';
      reading = { ...plain, change: 'new', severity: hit.severity, fails: failing };
    } else if (c === 0) {
      resolved.push(id);
      status = 'improved';
      reading = { ...plain, change: 'resolved' };
    }
    rows.push({
      row: { metric: `finding:${id}`, kind: 'finding', unit: 'hits', baseline: b, current: c, delta: c - b, ci: null, threshold: null, status, subject: { type: 'finding', id }, reading },
    });
  }
  return { rows, added, resolved };
}

/** A finding that rests on kernels, when the baseline captured none while this run did. */
function unseenByBaseline(id: string, current: GateInput, baseline: GateInput): boolean {
  if (baseline.kernels.length > 0 || current.kernels.length === 0) return false;
  const needs = RULES.find((rule) => rule.meta.id === id)?.meta.needs.flat() ?? [];
  return needs.some((need) => need === 'kernel-breakdown' || need === 'kernel-metrics');
}

function failOnOf(options: GateOptions): FailOn {
  return { ids: options.failOn, severity: options.failOnSeverity };
}

/** The options that judged the verdict, as the report records them. */
function policyOf(options: GateOptions): GatePolicy {
  return {
    failOn: [...options.failOn],
    failOnSeverity: options.failOnSeverity,
    failVerdicts: [...options.failVerdicts],
    thresholds: Object.fromEntries(Object.entries(options.thresholds)),
    shareThresholds: { ...options.shareThresholds },
  };
}

/**
 * Each side's metrics, with the profiled step time added as a metric where it is the measured step
 * (profiler-steps.ts): both windows compared per step, neither refused as another kind of step.
 */
function withProfilerSteps(current: GateInput, baseline: GateInput, perStep: PerStep | undefined, options: GateOptions): ProfiledSteps {
  const regime = perStep && !perStep.refused ? profiledStepRegime(perStep) : undefined;
  const profiled = regime ? profilerStepMetrics(current, baseline) : undefined;
  if (!regime || !profiled) return { current: current.metrics, baseline: baseline.metrics, options };
  // A host-bound baseline's step moves with the host between processes: its floor is wider, unless set.
  const floor = regime.hostBound && ownValue(options.thresholds, PROFILER_STEP_METRIC) === undefined ? HOST_BOUND_STEP_FLOOR_PCT : undefined;
  return {
    current: [...current.metrics, profiled.current],
    baseline: [...baseline.metrics, profiled.baseline],
    // fromEntries defines each key as its own, `__proto__` included.
    options: floor === undefined ? options : { ...options, thresholds: Object.fromEntries([...Object.entries(options.thresholds), [PROFILER_STEP_METRIC, floor] as const]) },
    regime,
  };
}

interface ProfiledSteps {
  current: readonly GateMetric[];
  baseline: readonly GateMetric[];
  /** The gate's options with the profiled step's floor where the regime sets it. */
  options: GateOptions;
  regime?: { kernelShare: number; hostBound: boolean };
}

/** The profiled step's row says which regime set its floor (profiler-steps.ts). */
function withRegime(rows: readonly GatedRow[], regime: ProfiledSteps['regime']): GatedRow[] {
  if (!regime) return [...rows];
  return rows.map((r) => (r.row.metric === PROFILER_STEP_METRIC && r.row.reading?.kind === 'metric' ? { ...r, row: { ...r.row, reading: { ...r.row.reading, profiledStep: regime } } } : r));
}

/** What else the gate may know about the baseline. */
export interface CompareContext {
  /**
   * The default branch's recent reports of the same workload, newest first. With a baseline from
   * another job (not a/b), their spread widens the floors (src/compare/between-jobs.ts).
   */
  history?: readonly HistoryEntry[];
}

export function compare(current: GateInput, baseline: GateInput | null, optionsInput: GateOptionsInput | GateOptions = {}, context: CompareContext = {}): GateResult {
  let options = parseGateOptions(optionsInput);
  if (!baseline) return { ...judge(current.findings, failOnOf(options)), policy: policyOf(options), comparison: null };
  // Kernel thresholds by the name the report shows become the full names the rows are keyed by.
  options = resolveKernelThresholds(options, baseline.kernels.map((k) => k.name), current.kernels.map((k) => k.name));

  const invalid: InvalidCheck[] = [];
  const notes: ComparisonNote[] = [];
  const mismatches = environmentMismatches(baseline.environment, current.environment);
  const blocking = blockingMismatches(mismatches, options.allowEnvironmentMismatch);
  if (blocking.length) invalid.push({ kind: 'invalid', check: 'environment', mismatches: blocking.map((m) => ({ ...m })) });
  const allowed = mismatches.filter((m) => !blocking.includes(m));
  if (allowed.length) notes.push({ kind: 'environment-allowed', mismatches: allowed.map((m) => ({ ...m })) });

  const sameJob = baseline.origin?.origin === 'a/b';
  const throttling = judgeThrottling(baseline.utilization, current.utilization, sameJob);
  notes.push(...throttling.notes.map((reading): ComparisonNote => ({ kind: 'throttling', reading, allowed: false })));
  for (const problem of throttling.problems) {
    if (options.allowThrottled) notes.push({ kind: 'throttling', reading: problem, allowed: true });
    else invalid.push({ kind: 'invalid', check: 'throttling', throttle: problem });
  }

  let betweenJobs: Comparison['betweenJobs'];
  if (context.history?.length && !sameJob) {
    const gated = [...new Set(baseline.metrics.map((m) => m.name))].filter((name) => metricFloor(options, name) !== undefined);
    const spreads = estimateBetweenJobNoise(context.history, gated);
    const rows: NonNullable<Comparison['betweenJobs']>['metrics'] = [];
    for (const { metric, spread } of spreads) {
      const floor = widenedFloor(metricFloor(options, metric)!, spread);
      rows.push({ metric, spread, floor });
    }
    // fromEntries defines each key as its own, `__proto__` included.
    options = { ...options, thresholds: Object.fromEntries([...Object.entries(options.thresholds), ...rows.map((r) => [r.metric, r.floor * 100] as const)]) };
    betweenJobs = { reports: context.history.length, metrics: rows };
  }
  const hasKernels = current.kernels.length > 0 && baseline.kernels.length > 0;
  const attribution = hasKernels ? perStepAttribution(current, baseline, options.topN) : undefined;
  const profiled = withProfilerSteps(current, baseline, attribution?.perStep, options);
  const metrics = applySharedGpu(current, baseline, compareMetrics(profiled.current, profiled.baseline, profiled.options), profiled.options);
  const rows: GatedRow[] = withRegime(metrics.rows, profiled.regime);
  let kernelChanges: Comparison['kernelChanges'] = [];
  let perStep: Comparison['perStep'];
  let shareMode: ShareMode | undefined;
  if (attribution) {
    perStep = attribution.perStep;
    // Time per step judges kernels where both sides have steps; shares are context then (shares.ts).
    const throughputImproved = metrics.rows.some((r) => r.row.status === 'improved') && !metrics.rows.some((r) => r.row.status === 'fail' || r.row.status === 'warn');
    shareMode = { mode: perStep.refused ? 'refused' : perStep.unit === 'step' ? 'time' : 'fallback', throughputImproved };
    rows.push(...kernelTimeRows(attribution, options));
    rows.push(...compareFamilies(current, baseline, options, shareMode));
    rows.push(...compareCommunication(current, baseline, options));
    const kernels = compareKernels(current, baseline, options, shareMode);
    rows.push(...kernels.rows);
    kernelChanges = kernels.changes;
    if (noStepTimeChange(perStep, metrics.rows.map((r) => r.row))) perStep = { ...perStep, noChange: true };
  } else if (current.kernels.length || baseline.kernels.length) {
    notes.push({ kind: 'no-kernel-capture', side: current.kernels.length ? 'baseline' : 'current' });
  }
  if (!hasKernels && kernelTimeKeys(options).length) {
    // A time threshold with no kernels on a side is not a pass: each says it was not compared.
    const sides = [...(baseline.kernels.length ? [] : ['baseline' as const]), ...(current.kernels.length ? [] : ['current' as const])];
    for (const key of kernelTimeKeys(options)) {
      rows.push({ row: notComparedTimeRow(key, options.thresholds[key]!, { kind: 'time', notCompared: 'no-kernels', sides }) });
    }
  }
  const findings = findingRows(current, baseline, options);
  rows.push(...findings.rows);

  const noThroughput = metrics.gatedInBaseline > 0 && metrics.compared === 0;
  if (noThroughput) notes.push({ kind: 'no-throughput' });
  const cause = (row: ComparisonRow) => rowCause(row, row.kind === 'finding' && row.subject ? strongestSeverity(current.findings, row.subject.id) : undefined);
  const unGated = nothingGated(rows, metrics.compared, options, hasKernels);
  const judgement = judge(current.findings, failOnOf(options), {
    invalid,
    rows: rows.map((r) => ({ status: r.row.status, cause: cause(r.row) })),
    noThroughput,
    ...(unGated ? { nothingGated: unGated } : {}),
  });

  const comparison: Comparison = {
    baseline: {
      origin: baseline.origin?.origin ?? 'file',
      ...(baseline.origin?.path ? { path: baseline.origin.path } : {}),
      ...(baseline.generatedAt ? { generatedAt: baseline.generatedAt } : {}),
      reason: baseline.origin?.reason ?? 'baseline given',
    },
    environmentMismatch: mismatches,
    rows: rows.map((r) => r.row),
    kernelChanges,
    newFindings: findings.added,
    resolvedFindings: findings.resolved,
    notes: [...notes, ...metrics.outlierNotes],
    ...(shareMode ? { kernelGate: shareMode } : {}),
    undecided: rows.filter((r) => r.undecided).map((r) => r.row.metric),
    ...(betweenJobs ? { betweenJobs } : {}),
    ...(perStep ? { perStep } : {}),
    ...(options.look ? { look: { ...options.look, alpha: lookAlpha(options.alpha, options.look) } } : {}),
  };
  return { ...judgement, policy: policyOf(options), comparison };
}

/**
 * Why nothing was gated, or undefined when something was: no metric compared on both sides, no
 * time per step compared against a threshold, and no kernel share against one the user set. Shares
 * under the default thresholds alone are context, not a gate: a kernel 30 % slower moves its share
 * by less than they catch. A pass then would say nothing, so the verdict is insufficient-data with
 * this cause first, which fail-verdicts can make fail the job.
 */
function nothingGated(rows: readonly GatedRow[], metricsCompared: number, options: GateOptions, hasKernels: boolean): Extract<DecisionCause, { kind: 'nothing-gated' }> | undefined {
  if (metricsCompared > 0) return undefined;
  const compared = (r: GatedRow) => r.row.status !== 'insufficient-data';
  if (rows.some((r) => r.row.kind === 'kernel-time' && compared(r))) return undefined;
  if (rows.some((r) => (r.row.kind === 'family-share' || r.row.kind === 'kernel-share') && Object.hasOwn(options.thresholds, r.row.metric))) return undefined;
  const oneSided = rows.filter((r) => r.row.reading?.kind === 'metric' && r.row.reading.outcome === 'only-in').map((r) => r.row.metric);
  const time = kernelTimeKeys(options).length ? 'thresholds-not-compared' : hasKernels ? 'no-threshold' : 'no-kernels';
  return { kind: 'nothing-gated', oneSided, time };
}
