/**
 * A nightly history judged: change points of a metric's series and of the family shares, and the
 * regressions still open. The dashboard draws what this finds; it decides nothing itself.
 */
import { detectChangePoints, MAX_SEGMENT } from './change-points.js';
import { medianInterval } from './median-interval.js';
import { median } from '../model/averages.js';
import type { Report } from '../model/report.js';
import { compareText } from '../model/text-order.js';

export interface HistoryOptions {
  /** A change is kept when its p-value (change-points.ts: a t scan, Bonferroni over its windows) is at most this. */
  alpha: number;
}

export interface HistoryChange {
  /** The point where the new level began (an index into the whole series, gaps included). */
  index: number;
  before: number;
  after: number;
  relative: number;
  pValue: number;
}

/** A family share series is scanned only when it reaches this share somewhere (small bands jitter). */
export const MIN_SCANNED_SHARE = 0.05;

/**
 * Change points of a series with gaps (nulls): found on the values present, indexed on all points.
 * The answer depends on the values alone (no seed): the same history gives the same changes.
 */
export function seriesChanges(values: ReadonlyArray<number | null>, options: HistoryOptions & { minRelativeChange?: number; minAbsoluteChange?: number }): HistoryChange[] {
  const indexes: number[] = [];
  const present: number[] = [];
  values.forEach((v, i) => {
    if (v !== null && Number.isFinite(v)) {
      indexes.push(i);
      present.push(v);
    }
  });
  // The scan is O(n²) in time: a very long history is scanned over its latest part.
  const skip = Math.max(0, present.length - MAX_SEGMENT);
  const found = detectChangePoints(present.slice(skip), options);
  return found.map((p) => ({ index: indexes[skip + p.index]!, before: p.before, after: p.after, relative: p.relativeChange, pValue: p.pValue }));
}

/** Change points of share series (0..1), each scanned when it reaches MIN_SCANNED_SHARE; `series` is the position in the list. */
export function shareChanges(series: ReadonlyArray<{ shares: readonly number[] }>, options: HistoryOptions & { minShareChange: number }): Array<HistoryChange & { series: number }> {
  const { minShareChange, ...rest } = options;
  return series.flatMap(({ shares }, s) =>
    Math.max(0, ...shares) < MIN_SCANNED_SHARE ? [] : seriesChanges(shares, { ...rest, minAbsoluteChange: minShareChange }).map((c) => ({ ...c, series: s })),
  );
}

export interface HistoryRegression extends HistoryChange {
  /** The level now (the last segment's). */
  latest: number;
  /** (latest − before) / |before|. */
  latestRelative: number;
}

/** Shifts the wrong way (by at least `minChange`, relative) whose lost level no later segment won back. */
export function openRegressions(changes: readonly HistoryChange[], direction: 'higher' | 'lower', minChange: number): HistoryRegression[] {
  const worse = (from: number, to: number): number => (direction === 'higher' ? 1 : -1) * ((to - from) / Math.abs(from || 1));
  const open: HistoryRegression[] = [];
  changes.forEach((change, c) => {
    if (worse(change.before, change.after) > -minChange) return;
    const later = changes.slice(c).map((x) => x.after);
    if (later.some((level) => worse(change.before, level) > -minChange)) return;
    const latest = later[later.length - 1]!;
    open.push({ ...change, latest, latestRelative: (latest - change.before) / Math.abs(change.before || 1) });
  });
  return open;
}

/** What a workload's history is judged on: the dashboard's metric and floors. */
export interface HistoryAnalysisOptions {
  metric: string;
  direction: 'higher' | 'lower';
  /** Kernels per point in its top list. */
  topN: number;
  /** Families scanned for share changes: the largest by peak share (the rest are too small to move). */
  families: number;
  /** Smallest relative shift of the metric's level that counts (0.02 = 2%). */
  minChange: number;
  /** Smallest family or kernel share move that counts (0.02 = 2 points). */
  minShareChange: number;
  alpha: number;
}

/** One report of the history: the metric's median over its readable samples, that median's interval, and the top kernels. */
export interface HistoryPoint {
  value: number | null;
  ci: [number, number] | null;
  /** Samples of the metric, unreadable ones included. */
  n: number;
  /** The top kernels by share (0..1), largest first. */
  top: Array<{ name: string; share: number }>;
}

/** A top-kernel change between a point and the one before it (shares 0..1). */
export interface HistoryKernelEvent {
  /** The later of the two consecutive points. */
  index: number;
  kernel: string;
  kind: 'entered' | 'left' | 'up' | 'down';
  before: number;
  after: number;
}

export interface WorkloadHistory {
  points: HistoryPoint[];
  /** The families by peak share, largest first; the first `options.families` were scanned. */
  families: string[];
  /** Level shifts of the metric. */
  changes: HistoryChange[];
  /** Share shifts of the scanned families; `family` is a position in `families`. */
  familyChanges: Array<HistoryChange & { family: number }>;
  /** Top-kernel entries, exits and moves, in point order; within a pair, entries and exits first, then the largest moves. */
  kernelEvents: HistoryKernelEvent[];
  /** Level shifts the wrong way that no later level won back. */
  openRegressions: HistoryRegression[];
}

/** Each kernel's share of a report (a name listed twice counts once, summed). */
function kernelShares(report: Report): Map<string, number> {
  const shares = new Map<string, number>();
  for (const k of report.kernels) shares.set(k.name, (shares.get(k.name) ?? 0) + k.share);
  return shares;
}

function topNames(shares: Map<string, number>, n: number): string[] {
  return [...shares.entries()].sort((a, b) => b[1] - a[1] || compareText(a[0], b[0])).slice(0, n).map(([name]) => name);
}

function familyShare(report: Report, family: string): number {
  return report.families.reduce((sum, f) => (f.family === family ? sum + f.share : sum), 0);
}

/** Events of one pair of points: entries and exits first, then the largest moves. */
function eventsBetween(before: { shares: Map<string, number>; top: string[] }, after: { shares: Map<string, number>; top: string[] }, index: number, minShareChange: number): HistoryKernelEvent[] {
  const wasTop = new Set(before.top);
  const isTop = new Set(after.top);
  const event = (kernel: string, kind: HistoryKernelEvent['kind']): HistoryKernelEvent => ({ index, kernel, kind, before: before.shares.get(kernel) ?? 0, after: after.shares.get(kernel) ?? 0 });
  const events = [...after.top.filter((k) => !wasTop.has(k)).map((k) => event(k, 'entered')), ...before.top.filter((k) => !isTop.has(k)).map((k) => event(k, 'left'))];
  const moves: HistoryKernelEvent[] = [];
  for (const kernel of new Set([...before.top, ...after.top])) {
    if (!wasTop.has(kernel) || !isTop.has(kernel)) continue;
    const delta = (after.shares.get(kernel) ?? 0) - (before.shares.get(kernel) ?? 0);
    if (Math.abs(delta) >= minShareChange) moves.push(event(kernel, delta > 0 ? 'up' : 'down'));
  }
  moves.sort((a, b) => Math.abs(b.after - b.before) - Math.abs(a.after - a.before));
  return [...events, ...moves];
}

/**
 * A workload's history judged, its reports in time order: per point the metric's median and its
 * interval, level change points of the metric, share change points of the largest families,
 * top-kernel changes between consecutive points, and the regressions still open.
 */
export function analyzeHistory(reports: readonly Report[], options: HistoryAnalysisOptions): WorkloadHistory {
  const points = reports.map((report): HistoryPoint => {
    const metric = report.metrics.find((m) => m.name === options.metric);
    // The median of the samples the interval is of (a report's value is that median when it is whole).
    const finite = metric?.samples.filter(Number.isFinite) ?? [];
    const value = finite.length ? median(finite) : metric?.value;
    const interval = metric ? medianInterval(metric.samples) : null;
    const shares = kernelShares(report);
    return {
      value: value !== undefined && Number.isFinite(value) ? value : null,
      ci: interval ? [interval.low, interval.high] : null,
      n: metric?.samples.length ?? 0,
      top: topNames(shares, options.topN).map((name) => ({ name, share: shares.get(name)! })),
    };
  });
  // Ranked by peak share, so a family that appeared lately (a new attention path) is scanned too.
  const peaks = new Map<string, number>();
  for (const report of reports) for (const f of report.families) peaks.set(f.family, Math.max(peaks.get(f.family) ?? 0, f.share));
  const families = [...peaks.entries()].sort((a, b) => b[1] - a[1] || compareText(a[0], b[0])).map(([name]) => name);
  // `other` (kernels no family claims) mixes whatever is unclassified: its share is not scanned.
  const scannedAt = families.slice(0, options.families).flatMap((family, f) => (family === 'other' ? [] : [f]));
  const scanned = scannedAt.map((f) => ({ shares: reports.map((report) => familyShare(report, families[f]!)) }));
  const changes = seriesChanges(
    points.map((p) => p.value),
    { alpha: options.alpha, minRelativeChange: options.minChange },
  );
  const familyChanges = shareChanges(scanned, { alpha: options.alpha, minShareChange: options.minShareChange }).map(({ series, ...c }) => ({ ...c, family: scannedAt[series]! }));
  const kernelEvents: HistoryKernelEvent[] = [];
  let previous: { shares: Map<string, number>; top: string[] } | undefined;
  reports.forEach((report, i) => {
    const shares = kernelShares(report);
    const current = { shares, top: points[i]!.top.map((k) => k.name) };
    if (previous) kernelEvents.push(...eventsBetween(previous, current, i, options.minShareChange));
    previous = current;
  });
  return { points, families, changes, familyChanges, kernelEvents, openRegressions: openRegressions(changes, options.direction, options.minChange) };
}
