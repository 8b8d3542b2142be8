/**
 * The regression gate: the current run against a baseline → pass | warn | fail | insufficient-data
 * | invalid, with one row per metric, family share, top kernel and changed finding, and the human
 * reasons for the verdict. Pure: no I/O, deterministic for a given seed.
 * Order of precedence: invalid (environment mismatch, a thermal or hardware throttle, power conditions that differ) > fail > insufficient-data > warn > pass.
 */
import { keySubject, type Comparison, type ComparisonRow, type ReasonRow, type RowSubject } from '../model/report.js';
import { blockingMismatches, environmentMismatches, formatMismatch } from './fingerprint.js';
import type { GatedRow, GateInput, GateResult } from './gate-input.js';
import { compareMetrics } from './metric-rows.js';
import { metricFloor, parseGateOptions, type GateOptions, type GateOptionsInput } from './gate-options.js';
import { estimateBetweenJobNoise, MIN_HISTORY_REPORTS, widenedFloor, type HistoryEntry } from './between-jobs.js';
import { lookAlpha } from './sequential.js';
import { compareCommunication, compareFamilies, compareKernels } from './shares.js';
import { kernelTimeKeys, kernelTimeRows, noStepTimeChange, perStepAttribution } from './per-step.js';
import { judgeThrottling } from './throttle-check.js';
import { RULES } from '../diagnose/rules/index.js';
import { failingFindingLine, failsOn, isPrimary, judge, strongest, type FailOn, type VerdictFinding } from './verdict.js';

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
  const rows: GatedRow[] = [];
  const added: string[] = [];
  const resolved: string[] = [];
  for (const id of [...new Set([...base.keys(), ...cur.keys()])].sort()) {
    const b = base.get(id) ?? 0;
    const c = cur.get(id) ?? 0;
    let status: ComparisonRow['status'] = 'info';
    let reason: string | undefined;
    let note = 'present in both';
    if (b === 0 && unseenByBaseline(id, current, baseline)) {
      // The baseline had no kernel capture, so it could not have shown this finding: not "new". It is
      // judged as a finding alone (src/compare/verdict.ts), and the line says why it was not compared.
      const hit = strongest(current.findings.filter((f) => f.id === id && f.severity !== 'info' && isPrimary(f)));
      if (hit) {
        const failing = failsOn(hit, failOnOf(options));
        status = failing ? 'fail' : 'warn';
        note = 'not compared: the baseline has no kernel capture';
        const head = `finding ${id} (${hit.severity}${failing ? ', in fail-on' : ''}), not compared: the baseline has no kernel capture to show it`;
        reason = failing ? failingFindingLine(hit, head) : head;
      } else note = 'not compared: the baseline has no kernel capture';
    } else if (b === 0) {
      added.push(id);
      // The strongest new hit decides, and its evidence is the line's (src/compare/verdict.ts).
      const hit = strongest(current.findings.filter((f) => f.id === id && f.severity !== 'info' && isPrimary(f)))!;
      const listed = (options.failOn as readonly string[]).includes(id);
      const failing = failsOn(hit, failOnOf(options));
      status = failing ? 'fail' : 'warn';
      note = failing ? 'new since the baseline; in fail-on' : listed ? `new since the baseline; in fail-on, below fail-on-severity ${options.failOnSeverity}` : 'new since the baseline';
      reason = failing
        ? failingFindingLine(hit, `new finding ${id} (${hit.severity}, in fail-on)`)
        : `new finding ${id} (${hit.severity}${listed ? `; in fail-on, below fail-on-severity ${options.failOnSeverity}` : ''})`;
    } else if (c === 0) {
      resolved.push(id);
      status = 'improved';
      note = 'resolved since the baseline';
      reason = `finding ${id} resolved`;
    }
    rows.push({
      row: { metric: `finding:${id}`, kind: 'finding', unit: 'hits', baseline: b, current: c, delta: c - b, ci: null, threshold: null, status, note, subject: { type: 'finding', id } },
      ...(reason ? { reason } : {}),
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

const ORDER: Record<ComparisonRow['status'], number> = { fail: 0, 'insufficient-data': 1, warn: 2, improved: 3, info: 4, pass: 5 };

/** What else the gate may know about the baseline. */
export interface CompareContext {
  /**
   * The default branch's recent reports of the same workload, newest first. With a baseline from
   * another job (not a/b), their spread widens the floors (src/compare/between-jobs.ts).
   */
  history?: readonly HistoryEntry[];
}

/** The subject of a `kernel-time:` row, named by its key. */
function subjectField(key: string): { subject?: RowSubject } {
  const subject = keySubject(key.slice('kernel-time:'.length));
  return subject ? { subject } : {};
}

export function compare(current: GateInput, baseline: GateInput | null, optionsInput: GateOptionsInput | GateOptions = {}, context: CompareContext = {}): GateResult {
  let options = parseGateOptions(optionsInput);
  if (!baseline) return { ...judge(current.findings, failOnOf(options)), comparison: null };

  const invalid: string[] = [];
  const notes: string[] = [];
  const mismatches = environmentMismatches(baseline.environment, current.environment);
  const blocking = blockingMismatches(mismatches, options.allowEnvironmentMismatch);
  if (blocking.length) invalid.push(`environment differs (${blocking.map(formatMismatch).join('; ')}); compare like with like or allow the keys with --allow-environment-mismatch (action input allow-environment-mismatch)`);
  const allowed = mismatches.filter((m) => !blocking.includes(m));
  if (allowed.length) notes.push(`environment differs, allowed: ${allowed.map(formatMismatch).join('; ')}`);

  const sameJob = baseline.origin?.origin === 'a/b';
  const throttling = judgeThrottling(baseline.utilization, current.utilization, sameJob);
  notes.push(...throttling.notes);
  for (const problem of throttling.problems) {
    if (options.allowThrottled) notes.push(`${problem.what}; allowed by --allow-throttled`);
    else invalid.push(`${problem.what}; ${problem.remedy}, or allow it with --allow-throttled (action input allow-throttled)`);
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
    if (rows.length) {
      const parts = rows.map((r) => `${r.metric} ±${(r.spread * 100).toFixed(1)}% (floor ${(r.floor * 100).toFixed(1)}%)`);
      notes.push(`a comparison between jobs: the last ${context.history.length} reports of the default branch vary ${parts.join(', ')} between jobs, and the floors cover it; an A/B run in one job (base-workdir) takes that noise out`);
    } else {
      notes.push(`a comparison between jobs: ${context.history.length} earlier report${context.history.length === 1 ? '' : 's'} of the default branch, too few (${MIN_HISTORY_REPORTS} needed) to estimate the noise between jobs; the floors are as set`);
    }
  }
  const metrics = compareMetrics(current.metrics, baseline.metrics, options);
  const rows: GatedRow[] = [...metrics.rows];
  notes.push(...metrics.outlierNotes);
  const hasKernels = current.kernels.length > 0 && baseline.kernels.length > 0;
  let kernelChanges: Comparison['kernelChanges'] = [];
  let perStep: Comparison['perStep'];
  if (hasKernels) {
    rows.push(...compareFamilies(current, baseline, options));
    rows.push(...compareCommunication(current, baseline, options));
    const kernels = compareKernels(current, baseline, options);
    rows.push(...kernels.rows);
    kernelChanges = kernels.changes;
    const attribution = perStepAttribution(current, baseline);
    perStep = attribution.perStep;
    if (noStepTimeChange(perStep, metrics.rows.map((r) => r.row))) perStep = { ...perStep, noChange: true };
    rows.push(...kernelTimeRows(attribution, options));
  } else if (current.kernels.length || baseline.kernels.length) {
    notes.push(`kernel shares not compared: the ${current.kernels.length ? 'baseline' : 'current run'} has no kernel capture`);
  }
  if (!hasKernels && kernelTimeKeys(options).length) {
    // A time threshold with no kernels on a side is not a pass: each says it was not compared.
    const missing = !current.kernels.length && !baseline.kernels.length ? 'neither side has' : `the ${current.kernels.length ? 'baseline' : 'current run'} has`;
    for (const key of kernelTimeKeys(options)) {
      const note = `not compared: ${missing} no kernel capture`;
      rows.push({
        row: { metric: key, kind: 'kernel-time', unit: 'ms/step', baseline: null, current: null, delta: null, ci: null, threshold: options.thresholds[key]!, status: 'insufficient-data', note, ...subjectField(key) },
        reason: `${key.slice('kernel-time:'.length)} time per step ${note}`,
      });
    }
  }
  const findings = findingRows(current, baseline, options);
  rows.push(...findings.rows);

  const noThroughput = metrics.gatedInBaseline > 0 && metrics.compared === 0;
  if (noThroughput) notes.push('no gated metric is present on both sides');
  const metricCount = rows.filter((r) => r.row.kind === 'metric' && r.row.status === 'pass').length;
  const passParts = [`${metricCount} gated metric${metricCount === 1 ? '' : 's'} within ${metricCount === 1 ? 'its floor' : 'their floors'}`];
  if (hasKernels) passParts.push(`no kernel share grew by ${options.shareThresholds.warn} pp or more`);
  passParts.push('no new findings');
  const passLine = `no regression: ${passParts.join(', ')}`;
  const judgement = judge(current.findings, failOnOf(options), { invalid, rows: rows.map((r) => ({ status: r.row.status, reason: r.reason })), noThroughput, passLine });

  const ranked = rows.filter((r) => r.reason).sort((a, b) => ORDER[a.row.status] - ORDER[b.row.status]);
  const reasons = [...invalid, ...ranked.map((r) => r.reason!), ...notes];
  const reasonRows: (ReasonRow | null)[] = [
    ...invalid.map(() => null),
    ...ranked.map((r): ReasonRow => ({ row: r.row.metric, ...(r.reasonNameEnd !== undefined ? { nameEnd: r.reasonNameEnd } : {}) })),
    ...notes.map(() => null),
  ];
  if (judgement.verdict === 'pass') {
    reasons.push(passLine);
    reasonRows.push(null);
  }

  const comparison: Comparison = {
    baseline: {
      origin: baseline.origin?.origin ?? 'file',
      ...(baseline.origin?.path ? { path: baseline.origin.path } : {}),
      ...(baseline.generatedAt ? { generatedAt: baseline.generatedAt } : {}),
      reason: baseline.origin?.reason ?? 'baseline given',
    },
    environmentMismatch: mismatches.map(formatMismatch),
    rows: rows.map((r) => r.row),
    kernelChanges,
    newFindings: findings.added,
    resolvedFindings: findings.resolved,
    reasons,
    reasonRows,
    undecided: rows.filter((r) => r.undecided).map((r) => r.row.metric),
    ...(betweenJobs ? { betweenJobs } : {}),
    ...(perStep ? { perStep } : {}),
    ...(options.look ? { look: { ...options.look, alpha: lookAlpha(options.alpha, options.look) } } : {}),
  };
  return { ...judgement, comparison };
}
