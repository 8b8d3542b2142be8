/**
 * Reports → the dashboard's data: grouped by workload (run.workload, else model · GPU), ordered by
 * time, with the metric's median and its CI, family shares, top kernels, findings and verdicts per
 * point, change points of the metric and of the large family shares, top-kernel changes between
 * consecutive points, and the open regressions (a shift the wrong way with no recovery since).
 */
import { DEFAULT_CHANGE_POINT_OPTIONS } from '../../compare/change-points.js';
import { analyzeHistory, type HistoryChange, type HistoryRegression } from '../../compare/history.js';
import { metricInfo } from '../../model/metrics.js';
import type { DecisionCause, Report } from '../../model/report.js';
import { causeKey } from '../../model/decision.js';
import {
  SEVERITY_ORDER,
  SHARE_SCALE,
  verdictCode,
  type ChangeMark,
  type DashboardData,
  type FamilyChangeMark,
  type FindingInfo,
  type KernelEvent,
  type OpenRegression,
  type PointColumns,
  type SkippedReport,
  type WorkloadSeries,
} from './data.js';
import { CI_PERCENT } from '../number-format.js';
import { kernelDisplayNames } from '../kernel-display-name.js';
import { stepCountOf } from '../../diagnose/step-count.js';
import { clampText, safeCommit, safeHttpsUrl, safeRepository, safeServerUrl } from './safe-text.js';
import { compareText } from '../../model/text-order.js';

export interface DashboardInput {
  report: Report;
  /** Where it came from (a path or an artifact), for messages. */
  source: string;
  /** The GitHub artifact it was downloaded from. */
  artifact?: { id: number; name: string; run: number };
}

export interface DashboardOptions {
  title: string;
  generatedAt: string;
  serverUrl: string;
  metric: string;
  topN: number;
  /** Families drawn in the stacked area; the rest are summed into `other`. */
  families: number;
  /** Smallest relative shift of the metric's level that counts (0.02 = 2%). */
  minChange: number;
  /** Smallest family or kernel share move that counts (0.02 = 2 points). */
  minShareChange: number;
  /** Significance of a change point (compare/change-points.ts: Bonferroni over the windows scanned). */
  alpha: number;
  maxKernelEvents: number;
}

export const DEFAULT_DASHBOARD_OPTIONS: DashboardOptions = {
  title: 'profile-gate dashboard',
  generatedAt: '1970-01-01T00:00:00.000Z',
  serverUrl: 'https://github.com',
  metric: 'decode_tok_s',
  topN: 10,
  families: 7,
  minChange: 0.02,
  minShareChange: 0.02,
  alpha: 0.01,
  maxKernelEvents: 60,
};

const NAME_MAX = 160;
/** GitHub logins are at most 39 characters; a bot's carries `[bot]`. */
const LOGIN_MAX = 60;
/** Causes of a verdict named per point: a failing run's first few, the rest counted. */
const DECIDED_SHOWN = 5;

function causeName(cause: DecisionCause): string {
  if (cause.kind === 'invalid') return `invalid: ${cause.check}`;
  if (cause.kind === 'no-throughput' || cause.kind === 'nothing-gated') return cause.kind;
  return clampText(causeKey(cause), NAME_MAX);
}

/** What decided a run's verdict, from the decision its report recorded (nothing is judged again here). */
function decidedBy(report: Report): string[] {
  const causes = report.decision.causes;
  const shown = causes.slice(0, DECIDED_SHOWN).map(causeName);
  return causes.length > DECIDED_SHOWN ? [...shown, `+${causes.length - DECIDED_SHOWN} more`] : shown;
}
const KERNEL_MAX = 300;

export function workloadName(report: Report): string {
  const named = clampText(report.run.workload, NAME_MAX);
  if (named) return named;
  return clampText(`${report.environment.model || 'unknown model'} · ${report.environment.gpuName || 'unknown GPU'}`, NAME_MAX);
}

/**
 * When a report's run happened: its own claim, never later than the page is made (a report dated 2099
 * would otherwise stay the newest point of its series for ever). Artifacts read from GitHub are dated
 * by the API before they get here (src/github).
 */
function timeOf(report: Report, latest: number): number | undefined {
  for (const text of [report.run.timestamp, report.generatedAt]) {
    const t = text ? Date.parse(text) : Number.NaN;
    if (Number.isFinite(t)) return Math.min(t, latest);
  }
  return undefined;
}

function round(value: number, digits = 3): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

class Interner {
  readonly list: string[] = [];
  private readonly index = new Map<string, number>();
  of(text: string): number {
    let i = this.index.get(text);
    if (i === undefined) {
      i = this.list.length;
      this.list.push(text);
      this.index.set(text, i);
    }
    return i;
  }
}

/** A change as the page stores it: rounded, so a year of points stays small. */
function mark(change: HistoryChange): ChangeMark {
  return { index: change.index, before: round(change.before, 4), after: round(change.after, 4), relative: round(change.relative, 5), pValue: round(change.pValue, 4) };
}

function familyShares(reports: readonly Report[], options: DashboardOptions): { families: string[]; shares: number[][] } {
  // Ranked by peak share, so a family that appeared lately (a new attention path) gets its own band.
  const totals = new Map<string, number>();
  for (const report of reports) for (const f of report.families) totals.set(f.family, Math.max(totals.get(f.family) ?? 0, f.share));
  const ranked = [...totals.entries()].sort((a, b) => b[1] - a[1] || compareText(a[0], b[0])).map(([name]) => name);
  const shown = ranked.slice(0, options.families);
  const hasOther = ranked.length > shown.length;
  const families = [...shown.map((f) => clampText(f, NAME_MAX)), ...(hasOther ? ['other'] : [])];
  const position = new Map(shown.map((f, i) => [f, i]));
  const shares = reports.map((report) => {
    const row = new Array<number>(families.length).fill(0);
    for (const f of report.families) row[position.get(f.family) ?? families.length - 1]! += f.share;
    return row.map((s) => Math.round(s * SHARE_SCALE));
  });
  return { families, shares };
}

/** GPU time per decode step of each shown family (ns, per device), or null when the capture does not count steps. */
function familyStepTimes(report: Report, families: readonly string[]): { ns: number[] | null; basis: string; steps: number | null } {
  // The count the report recorded (a report read back in part keeps only its first profiler steps), else counted now.
  const count = stepCountOf(report);
  if (count.steps === null || report.kernels.length === 0) return { ns: null, basis: '', steps: null };
  const position = new Map(families.map((f, i) => [f, i]));
  const row = new Array<number>(families.length).fill(0);
  // As the shares: a family not shown is summed into the last band (`other`).
  for (const f of report.families) row[position.get(f.family) ?? families.length - 1]! += f.totalNs;
  const per = count.steps * count.devices;
  return { ns: row.map((total) => Math.round(total / per)), basis: count.basis ?? '', steps: count.steps };
}

/** A share (0..1) as the page stores it. */
function scaled(share: number): number {
  return Math.round(share * SHARE_SCALE);
}

interface Entry {
  report: Report;
  t: number;
}

/** A workload's series as the page draws it, and its open regressions (without the workload's position, known once all are ordered). */
function buildWorkload(name: string, entries: Entry[], options: DashboardOptions, direction: 'higher' | 'lower'): { series: WorkloadSeries; open: Array<Omit<OpenRegression, 'workload'>> } {
  entries.sort((a, b) => a.t - b.t || compareText((a.report.run.commit ?? ''), b.report.run.commit ?? ''));
  const reports = entries.map((e) => e.report);
  // compare/history.ts judges the history; what follows only rounds, interns and clamps.
  const history = analyzeHistory(reports, { metric: options.metric, direction, topN: options.topN, families: options.families, minChange: options.minChange, minShareChange: options.minShareChange, alpha: options.alpha });
  const repos = new Interner();
  const kernels = new Interner();
  const kernelFamily: string[] = [];
  const findingIndex = new Map<string, number>();
  const findings: FindingInfo[] = [];
  const points: PointColumns = { t: [], commit: [], repo: [], run: [], verdict: [], accepted: [], decided: [], value: [], low: [], high: [], n: [], shares: [], stepNs: [], stepBasis: [], steps: [], top: [], findings: [] };
  const { families, shares } = familyShares(reports, options);
  const kernelOf = (report: Report, name: string): number => {
    const i = kernels.of(clampText(name, KERNEL_MAX));
    if (kernelFamily[i] === undefined) kernelFamily[i] = clampText(report.kernels.find((k) => k.name === name)?.family, NAME_MAX);
    return i;
  };
  reports.forEach((report, i) => {
    const point = history.points[i]!;
    points.t.push(entries[i]!.t);
    points.commit.push(safeCommit(report.run.commit));
    const repo = safeRepository(report.run.repository);
    points.repo.push(repo ? repos.of(repo) : -1);
    points.run.push(safeHttpsUrl(report.run.runUrl));
    points.verdict.push(verdictCode(report.verdict));
    points.accepted.push(report.verdict === 'accepted' ? clampText(report.acceptance?.by, LOGIN_MAX) : '');
    points.decided.push(decidedBy(report));
    points.value.push(point.value !== null ? round(point.value) : null);
    points.low.push(point.ci ? round(point.ci[0]) : null);
    points.high.push(point.ci ? round(point.ci[1]) : null);
    points.n.push(point.n);
    points.shares.push(shares[i]!);
    const stepTimes = familyStepTimes(report, families);
    points.stepNs.push(stepTimes.ns);
    points.stepBasis.push(stepTimes.basis);
    points.steps.push(stepTimes.steps);
    points.top.push(point.top.flatMap((k) => [kernelOf(report, k.name), scaled(k.share)]));
    const seen = new Set<number>();
    for (const f of report.findings) {
      let fi = findingIndex.get(f.id);
      if (fi === undefined) {
        fi = findings.length;
        findingIndex.set(f.id, fi);
        findings.push({ id: clampText(f.id, 80), title: '', severity: 0 });
      }
      findings[fi]!.title = clampText(f.title, NAME_MAX);
      findings[fi]!.severity = Math.max(findings[fi]!.severity, SEVERITY_ORDER.indexOf(f.severity));
      seen.add(fi);
    }
    points.findings.push([...seen].sort((a, b) => a - b));
  });
  // Every kernel of an event was in a top list, interned with its point above.
  const events: KernelEvent[] = history.kernelEvents.map((e) => ({ index: e.index, kernel: kernelOf(reports[e.index]!, e.kernel), kind: e.kind, before: scaled(e.before), after: scaled(e.after) }));
  // Newest first: the table shows the latest moves.
  events.sort((a, b) => b.index - a.index);
  const familyChanges: FamilyChangeMark[] = history.familyChanges.map((c) => ({ ...mark(c), family: c.family }));
  const latest = reports[reports.length - 1]!;
  const series: WorkloadSeries = {
    name,
    gpu: clampText(latest.environment.gpuName, NAME_MAX),
    model: clampText(latest.environment.model, NAME_MAX),
    repos: repos.list,
    families,
    // The short names the CLI and the comment show, still told apart where the full names differ.
    kernels: ((display) => kernels.list.map((name) => display.get(name) ?? name))(kernelDisplayNames(kernels.list)),
    kernelFamily,
    findings,
    points,
    changes: history.changes.map(mark),
    familyChanges: familyChanges.sort((a, b) => a.index - b.index),
    kernelEvents: events.slice(0, options.maxKernelEvents),
  };
  return { series, open: history.openRegressions.map(openMark) };
}

/** An open regression as the page lists it: rounded as its change is. */
function openMark(r: HistoryRegression): Omit<OpenRegression, 'workload'> {
  const m = mark(r);
  return { index: m.index, before: m.before, after: m.after, latest: round(r.latest, 4), relative: m.relative, latestRelative: round(r.latestRelative, 5), pValue: m.pValue };
}

/** What makes two report files the same report (a saved copy and its artifact): one point on the page. */
export function reportIdentity(report: Report): string {
  return JSON.stringify([workloadName(report), report.run.runId, report.run.commit, report.generatedAt]);
}

export function buildDashboardData(inputs: readonly DashboardInput[], skipped: readonly SkippedReport[], partial: Partial<DashboardOptions> = {}): DashboardData {
  const options: DashboardOptions = { ...DEFAULT_DASHBOARD_OPTIONS, ...partial };
  const made = Date.parse(options.generatedAt);
  // Without a page time (the 1970 default), no report's time is clamped.
  const pageTime = Number.isFinite(made) && made > 0 ? made : Number.POSITIVE_INFINITY;
  const info = metricInfo(options.metric);
  const groups = new Map<string, Entry[]>();
  const notes: SkippedReport[] = skipped.map((s) => ({ source: clampText(s.source, 300), reason: clampText(s.reason, 300) }));
  // The same report read twice (a saved copy and its artifact) is one point.
  const seen = new Set<string>();
  let duplicates = 0;
  for (const { report, source } of inputs) {
    const identity = reportIdentity(report);
    if (seen.has(identity)) {
      duplicates += 1;
      continue;
    }
    seen.add(identity);
    const t = timeOf(report, pageTime);
    if (t === undefined) {
      notes.push({ source: clampText(source, 300), reason: 'no usable run.timestamp or generatedAt' });
      continue;
    }
    const name = workloadName(report);
    const list = groups.get(name) ?? [];
    list.push({ report, t });
    groups.set(name, list);
  }
  const names = [...groups.keys()].sort((a, b) => compareText(a, b));
  const built = names.map((name) => buildWorkload(name, groups.get(name)!, options, info.direction));
  const worst = (open: ReadonlyArray<Omit<OpenRegression, 'workload'>>): number => Math.min(0, ...open.map((r) => (info.direction === 'higher' ? r.latestRelative : -r.latestRelative)));
  // Workloads with open regressions first, worst first; then by name.
  const order = built.map((b, i) => ({ b, i, worst: worst(b.open) })).sort((a, b) => a.worst - b.worst || a.i - b.i);
  const workloads = order.map((o) => o.b.series);
  const regressions = order.flatMap((o, w) => o.b.open.map((r) => ({ workload: w, ...r })));
  return {
    version: 1,
    title: clampText(options.title, 200) || DEFAULT_DASHBOARD_OPTIONS.title,
    generatedAt: options.generatedAt,
    serverUrl: safeServerUrl(options.serverUrl),
    metric: { name: clampText(options.metric, 80), unit: info.unit, label: info.label, direction: info.direction },
    topN: options.topN,
    method: `Change points: binary segmentation with a t test of every window of at least ${DEFAULT_CHANGE_POINT_OPTIONS.minSegment} runs on each side, p ≤ ${options.alpha} after Bonferroni over the windows (deterministic: no seed, no random draws); level shifts under ${round(options.minChange * 100, 2)}% and family-share moves under ${round(options.minShareChange * 100, 2)} points are ignored. The band is a ${CI_PERCENT}% confidence interval of the median from order statistics.`,
    reportCount: inputs.length - duplicates,
    skipped: notes.slice(0, 200),
    regressions,
    workloads,
  };
}
