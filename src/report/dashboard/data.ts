/**
 * The dashboard's data: what `data.js` assigns to `window.PROFILE_GATE_DASHBOARD` and the page script
 * reads. Columnar per workload (one array per field, one entry per point) so a year of nightly runs
 * of several workloads stays small and parses fast. Text in it comes from reports and is hostile:
 * the page only ever puts it in text nodes, and every link in it has been checked here first.
 */
import type { HistoryChange } from '../../compare/history.js';
import type { Verdict } from '../../model/report.js';

/**
 * How the page draws each verdict (its symbol and its band's fill). A Record over Verdict: a verdict
 * missing here is a type error, never drawn as another. New verdicts go at the end: a point stores
 * the index of its verdict in this order (VERDICT_ORDER), and the page script decodes it with the same list.
 */
export const VERDICT_DRAWING = {
  pass: { symbol: '\u25CF', fill: '#9AD1BF' },
  warn: { symbol: '\u25B2', fill: '#E69F00' },
  fail: { symbol: '\u2716', fill: '#D55E00' },
  'insufficient-data': { symbol: '\u25CB', fill: '#D0D7DE' },
  invalid: { symbol: '\u25C6', fill: '#8C959F' },
  accepted: { symbol: '\u2611', fill: '#CC79A7' },
} as const satisfies Record<Verdict, { symbol: string; fill: string }>;
export const VERDICT_ORDER = Object.keys(VERDICT_DRAWING) as Verdict[];

/** A verdict's code in the data: its index in VERDICT_ORDER. */
export function verdictCode(verdict: Verdict): number {
  const code = VERDICT_ORDER.indexOf(verdict);
  if (code < 0) throw new Error(`the dashboard has no drawing of verdict ${JSON.stringify(verdict)}`);
  return code;
}
export const SEVERITY_ORDER = ['info', 'warning', 'error'] as const;
/** Shares are stored as integers in units of 0.01 percentage points. */
export const SHARE_SCALE = 10_000;

export interface DashboardData {
  version: 1;
  title: string;
  generatedAt: string;
  /** Where commit and compare links point: https://github.com or a GitHub Enterprise host. */
  serverUrl: string;
  metric: { name: string; unit: string; label: string; direction: 'higher' | 'lower' };
  topN: number;
  /** One line on how change points were found, shown in the footer. */
  method: string;
  reportCount: number;
  skipped: SkippedReport[];
  regressions: OpenRegression[];
  workloads: WorkloadSeries[];
}

export interface SkippedReport {
  source: string;
  reason: string;
}

export interface PointColumns {
  /** Epoch milliseconds: run.timestamp, else the report's generatedAt. */
  t: number[];
  /** Full commit SHA, or '' when unknown. */
  commit: string[];
  /** Index into `repos`, -1 when unknown. */
  repo: number[];
  /** An https run URL, or ''. */
  run: string[];
  /** Index into VERDICT_ORDER. */
  verdict: number[];
  /** Who accepted the run's failing verdict on its pull request (report.acceptance.by), '' when nobody did. */
  accepted: string[];
  /**
   * What decided the run's verdict, as its report recorded it (report.decision.causes): row keys,
   * `finding:<id>`, `invalid: <check>` or `no-throughput`, the first few (and `+N more`); empty for a pass.
   */
  decided: string[][];
  /** Median of the metric's samples; null when the run has no such metric. */
  value: Array<number | null>;
  /** The confidence interval of the median (compare/median-interval.ts); null when too few samples reach its level. */
  low: Array<number | null>;
  high: Array<number | null>;
  /** Samples behind the median. */
  n: number[];
  /** Per point, one share per entry of `families` (SHARE_SCALE units). */
  shares: number[][];
  /**
   * Per point, GPU time per decode step of each entry of `families`, in whole ns (per device); null
   * when the run's capture does not count its steps (src/diagnose/step-count.ts).
   */
  stepNs: Array<number[] | null>;
  /** Per point, what counted the steps (a step basis, or '' when unknown), and how many. */
  stepBasis: string[];
  steps: Array<number | null>;
  /** Per point, the top kernels flattened: [kernel index, share, kernel index, share, …]. */
  top: number[][];
  /** Per point, indexes into `findings`. */
  findings: number[][];
}

/** A change point of a series, as compare/history.ts finds it (rounded for the page). */
export type ChangeMark = HistoryChange;

export interface FamilyChangeMark extends ChangeMark {
  family: number;
}

export interface KernelEvent {
  /** The later of the two consecutive points compared. */
  index: number;
  kernel: number;
  kind: 'entered' | 'left' | 'up' | 'down';
  /** Shares before and after (SHARE_SCALE units). */
  before: number;
  after: number;
}

export interface FindingInfo {
  id: string;
  title: string;
  /** Index into SEVERITY_ORDER: the worst seen. */
  severity: number;
}

export interface WorkloadSeries {
  name: string;
  gpu: string;
  model: string;
  repos: string[];
  /** Families shown in the stacked area, largest mean share first; the last may be `other`. */
  families: string[];
  kernels: string[];
  kernelFamily: string[];
  findings: FindingInfo[];
  points: PointColumns;
  changes: ChangeMark[];
  familyChanges: FamilyChangeMark[];
  /** Newest first, capped. */
  kernelEvents: KernelEvent[];
}

export interface OpenRegression {
  workload: number;
  /** The change point's index in that workload's points. */
  index: number;
  before: number;
  after: number;
  /** The level now (the last segment's median). */
  latest: number;
  relative: number;
  latestRelative: number;
  pValue: number;
}
