/**
 * A nightly history judged: change points of a metric's series and of the family shares, and the
 * regressions still open. The dashboard draws what this finds; it decides nothing itself.
 */
import { detectChangePoints, MAX_SEGMENT } from './change-points.js';

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
