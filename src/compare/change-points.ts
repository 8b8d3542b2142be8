/**
 * Change-point detection for nightly series (tok/s per workload, family shares): E-divisive means
 * (Matteson & James 2014, α = 1) with binary segmentation and a permutation test, the method MongoDB
 * uses on its performance history. Deterministic: permutations come from a seeded PRNG keyed by the
 * segment, so the same series and seed always give the same answer.
 *
 * Each segment is searched over both the split τ and the end κ of the part after it, so a short dip
 * that recovers is found, not only a step that lasts to the end. With 2-D prefix sums of the
 * pairwise distances every (τ, κ) costs O(1), a segment O(n²).
 */
import { median } from '../model/averages.js';
import { mulberry32, seedFor } from './statistics.js';

export interface ChangePointOptions {
  /** Points on each side of a change, at least (≥ 2). */
  minSegment: number;
  /** Permutations of the segment per significance test (stopped early once it cannot be significant). */
  permutations: number;
  /** A change is kept when its permutation p-value is at most this. */
  alpha: number;
  seed: number;
  maxChangePoints: number;
  /** Changes smaller than this relative shift of the level (median) are dropped: 0.02 = 2%. */
  minRelativeChange: number;
  /** …or than this absolute shift (e.g. 0.02 for a 2-point share change). */
  minAbsoluteChange: number;
}

export const DEFAULT_CHANGE_POINT_OPTIONS: ChangePointOptions = {
  minSegment: 4,
  permutations: 199,
  alpha: 0.01,
  seed: 1,
  maxChangePoints: 16,
  minRelativeChange: 0,
  minAbsoluteChange: 0,
};

/** Longer segments would need (n+1)² doubles of prefix sums; the CLI caps history well below. */
export const MAX_SEGMENT = 3000;

export interface ChangePoint {
  /** The first index of the new level: the point where the shift began. */
  index: number;
  /** Permutation p-value of the split when it was found. */
  pValue: number;
  /** The E-divisive divergence of the split (scaled by mn/(m+n)). */
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
  /** End (exclusive) of the right part that gave the largest divergence. */
  end: number;
  statistic: number;
}

/**
 * P[i(n+1) + j] = Σ_{a<i, b<j} |x_a − x_b| for the values taken in `order` (identity when absent):
 * any block sum of the distance matrix is then four lookups.
 */
function distancePrefix(values: ArrayLike<number>, order: ArrayLike<number> | undefined, x: Float64Array, p: Float64Array): void {
  const n = values.length;
  const w = n + 1;
  for (let i = 0; i < n; i += 1) x[i] = order ? values[order[i]!]! : values[i]!;
  p.fill(0, 0, w);
  for (let i = 0; i < n; i += 1) {
    const row = (i + 1) * w;
    const above = i * w;
    const xi = x[i]!;
    let running = 0;
    p[row] = 0;
    for (let j = 0; j < n; j += 1) {
      // Not Math.abs: some embedders (jest's module sandbox) make it a slow call in this hot loop.
      const d = xi - x[j]!;
      running += d < 0 ? -d : d;
      p[row + j + 1] = p[above + j + 1]! + running;
    }
  }
}

export interface SplitScratch {
  x: Float64Array;
  p: Float64Array;
}

export function splitScratch(n: number): SplitScratch {
  return { x: new Float64Array(n), p: new Float64Array((n + 1) * (n + 1)) };
}

/**
 * The best split of `values` (in the order `order`, identity when absent): the τ, with some end κ,
 * maximizing (mk/(m+k))·(2·mean|X−Y| − mean|X−X'| − mean|Y−Y'|) for X = [0, τ), Y = [τ, κ),
 * each at least minSegment long.
 */
export function bestSplit(values: ArrayLike<number>, minSegment: number, order?: ArrayLike<number>, scratch?: SplitScratch): Split | undefined {
  const n = values.length;
  if (n < 2 * minSegment) return undefined;
  if (n > MAX_SEGMENT) throw new Error(`change points: ${n} points; at most ${MAX_SEGMENT} per series`);
  const w = n + 1;
  const { x, p } = scratch && scratch.x.length >= n ? scratch : splitScratch(n);
  distancePrefix(values, order, x, p);
  let bestStatistic = -Infinity;
  let bestTau = -1;
  let bestEnd = -1;
  for (let tau = minSegment; tau <= n - minSegment; tau += 1) {
    const m = tau;
    const tw = tau * w;
    // Σ within X counts each pair twice in the full block.
    const withinX = p[tw + tau]! / (m * (m - 1));
    const betweenBase = p[tw + tau]! - p[tau]!;
    const diagonal = p[tw + tau]!;
    for (let end = tau + minSegment; end <= n; end += 1) {
      const k = end - tau;
      const ew = end * w;
      const between = (2 * (p[tw + end]! - p[end]! - betweenBase)) / (m * k);
      const withinY = (p[ew + end]! - p[tw + end]! - p[ew + tau]! + diagonal) / (k * (k - 1));
      const statistic = ((m * k) / (m + k)) * (between - withinX - withinY);
      if (statistic > bestStatistic + 1e-9 * (statistic < 0 ? -statistic : statistic)) {
        bestStatistic = statistic;
        bestTau = tau;
        bestEnd = end;
      }
    }
  }
  return bestTau < 0 ? undefined : { index: bestTau, end: bestEnd, statistic: bestStatistic };
}

/**
 * Share of random orders of the segment whose best split is at least as strong as the observed one.
 * Stops once more than α·(permutations + 1) orders beat it: the answer can then only be "not significant".
 */
export function permutationPValue(
  values: ArrayLike<number>,
  observed: number,
  options: Pick<ChangePointOptions, 'minSegment' | 'permutations'> & { alpha?: number },
  random: () => number,
): number {
  const order = Int32Array.from({ length: values.length }, (_, i) => i);
  const scratch = splitScratch(values.length);
  const giveUpAfter = options.alpha === undefined ? Infinity : Math.floor(options.alpha * (options.permutations + 1));
  let asStrong = 0;
  let done = 0;
  for (; done < options.permutations && asStrong <= giveUpAfter; done += 1) {
    for (let i = order.length - 1; i > 0; i -= 1) {
      const j = (random() * (i + 1)) | 0;
      const swap = order[i]!;
      order[i] = order[j]!;
      order[j] = swap;
    }
    const split = bestSplit(values, options.minSegment, order, scratch);
    if (split && split.statistic >= observed * (1 - 1e-9)) asStrong += 1;
  }
  return (asStrong + 1) / (done + 1);
}

interface Candidate {
  start: number;
  end: number;
  split?: Split;
  pValue?: number;
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
      if (segment.split === undefined && segment.pValue === undefined) {
        segment.split = bestSplit(values.slice(segment.start, segment.end), o.minSegment);
        if (!segment.split) segment.pValue = 1;
      }
    }
    // Strongest split first; the first significant one is taken, then the segments are re-examined.
    const ranked = segments.filter((s) => s.split).sort((a, b) => b.split!.statistic - a.split!.statistic);
    let accepted: Candidate | undefined;
    for (const segment of ranked) {
      if (segment.pValue === undefined) {
        const random = mulberry32(seedFor(o.seed, `${segment.start}:${segment.end}`));
        segment.pValue = permutationPValue(values.slice(segment.start, segment.end), segment.split!.statistic, o, random);
      }
      if (segment.pValue <= o.alpha) {
        accepted = segment;
        break;
      }
    }
    if (!accepted) break;
    const cut = accepted.start + accepted.split!.index;
    found.set(cut, { pValue: accepted.pValue!, statistic: accepted.split!.statistic });
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
