/**
 * Change-point detection for nightly series (tok/s per workload, family shares): binary segmentation
 * with a windowed two-sample t scan and an analytical null, so the answer is a function of the
 * series alone: no seed, no random draw, the same open regressions on every build of the page.
 *
 * A segment is scanned over every split τ and every end κ of the part after it: X = [0, τ) against
 * Y = [τ, κ), each at least `minSegment` long, whose boundary runs sit on their own side (the run
 * before τ nearer X's mean, the run at τ nearer Y's), scored by the pooled-variance t of their
 * means, or Welch's t where one part is improbably noisier than the other (it mixes two levels).
 * Searching κ finds a short dip that recovered, not only a step that lasts. The strongest window is
 * tested against Student's t, and its p-value is multiplied by the number of windows scanned
 * (Bonferroni): the chance that a segment with no shift gives any window that strong is at most α.
 * With prefix sums of the values and their squares each window costs O(1), a segment O(n²) time
 * and O(n) memory.
 *
 * Why not a permutation test: with three nights after a step, the exact permutation p-value of the
 * best window is about 4/84 (the three low nights may sit in several windows), so no permutation
 * test can reach α = 0.01 there, and a sampled one decides differently from seed to seed.
 */
import { median } from '../model/averages.js';
import { regularizedBeta, studentTTwoSided } from './student-t.js';

export interface ChangePointOptions {
  /** Points on each side of a change, at least (≥ 2). */
  minSegment: number;
  /** A change is kept when its p-value (Bonferroni over the windows scanned) is at most this. */
  alpha: number;
  maxChangePoints: number;
  /** Changes smaller than this relative shift of the level (median) are dropped: 0.02 = 2%. */
  minRelativeChange: number;
  /** …or than this absolute shift (e.g. 0.02 for a 2-point share change). */
  minAbsoluteChange: number;
}

export const DEFAULT_CHANGE_POINT_OPTIONS: ChangePointOptions = {
  minSegment: 3,
  alpha: 0.01,
  maxChangePoints: 16,
  minRelativeChange: 0,
  minAbsoluteChange: 0,
};

/** A longer segment is scanned over its latest part (history.ts): the scan is O(n²) in time. */
export const MAX_SEGMENT = 3000;

export interface ChangePoint {
  /** The first index of the new level: the point where the shift began. */
  index: number;
  /** p-value of the split when it was found: the t test's, times the windows scanned (at most 1). */
  pValue: number;
  /** The t of the split's window, pooled or Welch's (negative: the level went down). */
  statistic: number;
  /** Median of the segment before and after (between the neighbouring change points). */
  before: number;
  after: number;
  /** (after − before) / |before|; 0 when before is 0. */
  relativeChange: number;
}

export interface Split {
  /** Index (within the segment) of the first point of the right part. */
  index: number;
  /** End (exclusive) of the right part that gave the strongest t. */
  end: number;
  /** t of mean(Y) − mean(X): pooled variance, or Welch's when one part is much noisier. */
  statistic: number;
  /** Degrees of freedom of that t: |X| + |Y| − 2 pooled, Welch–Satterthwaite's otherwise. */
  df: number;
  /** Windows (τ, κ) scanned: the Bonferroni factor. */
  windows: number;
  /** min(1, windows · P(|T| ≥ |t|)). */
  pValue: number;
}

/** Windows (τ, κ) of a segment of n points with parts of at least m: Σ_{j=1}^{n−2m+1} j. */
export function windowCount(n: number, minSegment: number): number {
  const free = n - 2 * minSegment + 1;
  return free > 0 ? (free * (free + 1)) / 2 : 0;
}

/**
 * X's and Y's spreads are pooled unless one is this improbably larger than the other (F test): a
 * part that mixes nights of the old level with nights of the new one is noisy, and must not pass
 * for a step on the other part's tight noise (Welch's t then, which needs more nights to be sure).
 */
export const HOMOGENEITY_ALPHA = 1e-6;

/** z of HOMOGENEITY_ALPHA, one-sided (Φ⁻¹(1 − 1e-6)). */
const HOMOGENEITY_Z = 4.753;

/**
 * False only where P(F ≥ f) is surely above HOMOGENEITY_ALPHA: ln F has a standard deviation of
 * about √(2/d1 + 2/d2), and its critical value is never below half of z times that (the tests check
 * this over the degrees of freedom a scan meets). It spares the incomplete beta on most windows.
 */
export function mayBeNoisier(f: number, d1: number, d2: number): boolean {
  return Math.log(f) > 0.5 * HOMOGENEITY_Z * Math.sqrt(2 / d1 + 2 / d2);
}

/** Whether a variance ratio f ≥ 1 with (d1, d2) degrees of freedom is improbable for equal spreads. */
function improbablyNoisier(f: number, d1: number, d2: number): boolean {
  return mayBeNoisier(f, d1, d2) && fTail(f, d1, d2) <= HOMOGENEITY_ALPHA;
}

/** P(F ≥ f) for F with (d1, d2) degrees of freedom. */
export function fTail(f: number, d1: number, d2: number): number {
  if (!(f > 0)) return 1;
  if (!Number.isFinite(f)) return 0;
  return regularizedBeta(d2 / (d2 + d1 * f), d2 / 2, d1 / 2);
}

/**
 * The strongest window of `values`: among windows Y = [τ, κ) against X = [0, τ) (each at least
 * minSegment long, boundary runs on their own side) whose spreads agree, the largest pooled |t|;
 * among those where one part is improbably noisier than the other, the largest Welch |t|. The
 * first when its p-value times the number of windows is at most α, else whichever of the two has
 * the smaller p-value. A window's spreads are compared only when it could beat the best so far, so
 * the scan stays a few operations per window.
 */
export function bestSplit(values: ArrayLike<number>, minSegment: number, alpha = DEFAULT_CHANGE_POINT_OPTIONS.alpha): Split | undefined {
  const n = values.length;
  if (n < 2 * minSegment) return undefined;
  if (n > MAX_SEGMENT) throw new Error(`change points: ${n} points; at most ${MAX_SEGMENT} per series`);
  // Centred on the mean, so the sums of squares do not cancel for large, tight values.
  let mean = 0;
  let largest = 0;
  for (let i = 0; i < n; i += 1) {
    mean += values[i]!;
    largest = Math.max(largest, Math.abs(values[i]!));
  }
  mean /= n;
  // Differences and spreads below the resolution of the values are none: an exact step is as strong
  // as a step can be, identical values are no step at all.
  const resolution = 1e-9 * largest;
  const floor = resolution * resolution;
  const s1 = new Float64Array(n + 1);
  const s2 = new Float64Array(n + 1);
  for (let i = 0; i < n; i += 1) {
    const v = values[i]! - mean;
    s1[i + 1] = s1[i]! + v;
    s2[i + 1] = s2[i]! + v * v;
  }
  let pooledBest: { index: number; end: number; t: number } | undefined;
  let welchBest: { index: number; end: number; t: number; df: number } | undefined;
  for (let tau = minSegment; tau <= n - minSegment; tau += 1) {
    const m = tau;
    const sumX = s1[tau]!;
    const meanX = sumX / m;
    const ssX = Math.max(0, s2[tau]! - sumX * meanX);
    const varX = Math.max(ssX / (m - 1), floor);
    for (let end = tau + minSegment; end <= n; end += 1) {
      const k = end - tau;
      const sumY = s1[end]! - sumX;
      const meanY = sumY / k;
      const difference = meanY - meanX;
      if ((difference < 0 ? -difference : difference) <= resolution) continue;
      // A change begins at the first run of the new level: the run before τ is nearer X's mean,
      // the run at τ nearer Y's. A window that starts a run early or late is not a step there.
      const middle = (meanX + meanY) / 2;
      const first = values[tau]! - mean;
      const last = values[tau - 1]! - mean;
      if (difference > 0 ? !(first > middle && last < middle) : !(first < middle && last > middle)) continue;
      const ssY = Math.max(0, s2[end]! - s2[tau]! - sumY * meanY);
      const varY = Math.max(ssY / (k - 1), floor);
      const pooled = difference / Math.sqrt(Math.max((ssX + ssY) / (m + k - 2), floor) * (1 / m + 1 / k));
      const a = varX / m;
      const b = varY / k;
      const welch = difference / Math.sqrt(a + b);
      const beatsPooled = !pooledBest || Math.abs(pooled) > Math.abs(pooledBest.t) * (1 + 1e-12);
      const beatsWelch = !welchBest || Math.abs(welch) > Math.abs(welchBest.t) * (1 + 1e-12);
      if (!beatsPooled && !beatsWelch) continue;
      const noisier = varY > varX ? improbablyNoisier(varY / varX, k - 1, m - 1) : improbablyNoisier(varX / varY, m - 1, k - 1);
      if (!noisier && beatsPooled) pooledBest = { index: tau, end, t: pooled };
      else if (noisier && beatsWelch) welchBest = { index: tau, end, t: welch, df: ((a + b) * (a + b)) / ((a * a) / (m - 1) + (b * b) / (k - 1)) };
    }
  }
  const windows = windowCount(n, minSegment);
  const candidates = [
    ...(pooledBest ? [{ index: pooledBest.index, end: pooledBest.end, statistic: pooledBest.t, df: pooledBest.end - 2 }] : []),
    ...(welchBest ? [{ index: welchBest.index, end: welchBest.end, statistic: welchBest.t, df: welchBest.df }] : []),
  ].map((c) => ({ ...c, p: studentTTwoSided(c.statistic, c.df) }));
  if (!candidates.length) return { index: minSegment, end: n, statistic: 0, df: n - 2, windows, pValue: 1 };
  // A significant window whose spreads agree is the step; Welch's window (a noisier level) only when
  // none is: with many nights, Welch's many degrees of freedom can make a mixed window look stronger.
  const adjusted = candidates.map((c) => ({ ...c, pValue: Math.min(1, windows * c.p) }));
  const best = adjusted[0]!.pValue <= alpha && pooledBest ? adjusted[0]! : adjusted.reduce((x, y) => (y.p < x.p ? y : x));
  return { index: best.index, end: best.end, statistic: best.statistic, df: best.df, windows, pValue: best.pValue };
}

interface Candidate {
  start: number;
  end: number;
  split?: Split | undefined;
}

function levels(values: readonly number[], cuts: readonly number[]): number[] {
  const bounds = [0, ...cuts, values.length];
  return bounds.slice(0, -1).map((start, i) => median(values.slice(start, bounds[i + 1])));
}

function relative(before: number, after: number): number {
  return before === 0 ? 0 : (after - before) / Math.abs(before);
}

/** Change points of a series, in index order. Non-finite values are not allowed: drop them first. */
export function detectChangePoints(values: readonly number[], options: Partial<ChangePointOptions> = {}): ChangePoint[] {
  const o: ChangePointOptions = { ...DEFAULT_CHANGE_POINT_OPTIONS, ...options };
  if (o.minSegment < 2) throw new Error(`minSegment ${o.minSegment}: expected at least 2`);
  if (values.some((v) => !Number.isFinite(v))) throw new Error('change points: every value must be finite');
  const segments: Candidate[] = [{ start: 0, end: values.length }];
  const found = new Map<number, { pValue: number; statistic: number }>();
  while (found.size < o.maxChangePoints) {
    for (const segment of segments) {
      if (!('split' in segment)) segment.split = bestSplit(values.slice(segment.start, segment.end), o.minSegment, o.alpha);
    }
    // The most significant split is cut (the strongest t on ties), then both halves are examined again.
    let accepted: Candidate | undefined;
    for (const segment of segments) {
      const split = segment.split;
      if (!split || split.pValue > o.alpha) continue;
      const best = accepted?.split;
      if (!best || split.pValue < best.pValue || (split.pValue === best.pValue && Math.abs(split.statistic) > Math.abs(best.statistic))) accepted = segment;
    }
    if (!accepted) break;
    const cut = accepted.start + accepted.split!.index;
    found.set(cut, { pValue: accepted.split!.pValue, statistic: accepted.split!.statistic });
    segments.splice(segments.indexOf(accepted), 1, { start: accepted.start, end: cut }, { start: cut, end: accepted.end });
  }
  // Drop the weakest shift below the magnitude floors, one at a time: the levels around it merge.
  let cuts = [...found.keys()].sort((a, b) => a - b);
  for (;;) {
    const level = levels(values, cuts);
    let weakest = -1;
    let weakestSize = Infinity;
    cuts.forEach((_, i) => {
      const shift = Math.abs(level[i + 1]! - level[i]!);
      const small = shift < o.minAbsoluteChange || Math.abs(relative(level[i]!, level[i + 1]!)) < o.minRelativeChange;
      if (small && shift < weakestSize) {
        weakest = i;
        weakestSize = shift;
      }
    });
    if (weakest < 0) {
      return cuts.map((index, i) => ({
        index,
        pValue: found.get(index)!.pValue,
        statistic: found.get(index)!.statistic,
        before: level[i]!,
        after: level[i + 1]!,
        relativeChange: relative(level[i]!, level[i + 1]!),
      }));
    }
    cuts = cuts.filter((_, i) => i !== weakest);
  }
}
