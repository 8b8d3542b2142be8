/**
 * The statistics the gate uses, as small pure functions: robust location and scale, a seeded PRNG,
 * a bootstrap CI of the ratio of medians, multiple-comparison corrections, the warm-up rule and
 * drift detection. Rank tests live in rank-tests.ts and are re-exported here.
 */
import { studentTUpperTail } from './student-t.js';
import { median } from '../model/averages.js';
import { mannKendall, theilSenSlope } from './rank-tests.js';

export { median, mean } from '../model/averages.js';
export * from './rank-tests.js';

/** Scales a MAD to a standard deviation for normal data. */
export const MAD_TO_SD = 1.4826;

/** Quantile of sorted values by linear interpolation between order statistics (Hyndman-Fan type 7, R's default). */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  const h = (n - 1) * Math.min(1, Math.max(0, q));
  const lo = Math.floor(h);
  const hi = Math.min(n - 1, lo + 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

/** Median absolute deviation from the median (unscaled). */
export function mad(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const center = median(values);
  return median(values.map((v) => Math.abs(v - center)));
}

/** mulberry32: a small, fast 32-bit PRNG; the same seed gives the same stream on every platform. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A seed for one named stream (FNV-1a over the key, mixed with the base seed), so rows do not depend on their order. */
export function seedFor(seed: number, key: string): number {
  let hash = (2166136261 ^ seed) >>> 0;
  for (let i = 0; i < key.length; i += 1) hash = Math.imul(hash ^ key.charCodeAt(i), 16777619) >>> 0;
  return hash;
}

function medianOfResample(values: readonly number[], random: () => number, scratch: Float64Array): number {
  const n = values.length;
  // Insertion sort while drawing: the samples are few, and TypedArray#sort costs more per call here.
  for (let i = 0; i < n; i += 1) {
    const v = values[Math.floor(random() * n)]!;
    let j = i - 1;
    while (j >= 0 && scratch[j]! > v) {
      scratch[j + 1] = scratch[j]!;
      j -= 1;
    }
    scratch[j + 1] = v;
  }
  const mid = n >> 1;
  return n % 2 ? scratch[mid]! : (scratch[mid - 1]! + scratch[mid]!) / 2;
}

export interface RatioInterval {
  /** median(current) / median(baseline). */
  ratio: number;
  low: number;
  high: number;
  /** The same resamples' interval at `strictLevel`, when one was asked for. */
  strict?: { low: number; high: number };
}

/**
 * Percentile bootstrap CI of median(current) / median(baseline), resampling each side on its own.
 * `level` is two-sided (0.90 → the 5th and 95th percentiles); `strictLevel` adds the interval at a
 * second level from the same resamples (the gate judges a pass on a stricter one).
 */
export function bootstrapMedianRatioCI(
  current: readonly number[],
  baseline: readonly number[],
  options: { level: number; resamples: number; random: () => number; strictLevel?: number },
): RatioInterval {
  const ratio = median(current) / median(baseline);
  const ratios = new Float64Array(options.resamples);
  const scratchCurrent = new Float64Array(current.length);
  const scratchBaseline = new Float64Array(baseline.length);
  for (let b = 0; b < options.resamples; b += 1) {
    ratios[b] = medianOfResample(current, options.random, scratchCurrent) / medianOfResample(baseline, options.random, scratchBaseline);
  }
  ratios.sort();
  const tail = (1 - options.level) / 2;
  const interval: RatioInterval = { ratio, low: quantileSorted(ratios, tail), high: quantileSorted(ratios, 1 - tail) };
  if (options.strictLevel !== undefined) {
    const strictTail = (1 - options.strictLevel) / 2;
    interval.strict = { low: quantileSorted(ratios, strictTail), high: quantileSorted(ratios, 1 - strictTail) };
  }
  return interval;
}

/** Holm's step-down adjusted p-values (family-wise error control), in the input order. */
export function holmAdjust(pValues: readonly number[]): number[] {
  const m = pValues.length;
  const order = pValues.map((p, i) => [p, i] as const).sort((a, b) => a[0] - b[0]);
  const adjusted = new Array<number>(m);
  let running = 0;
  order.forEach(([p, i], rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    adjusted[i] = running;
  });
  return adjusted;
}

/** Benjamini-Hochberg step-up adjusted p-values (false discovery rate control), in the input order. */
export function benjaminiHochbergAdjust(pValues: readonly number[]): number[] {
  const m = pValues.length;
  const order = pValues.map((p, i) => [p, i] as const).sort((a, b) => a[0] - b[0]);
  const adjusted = new Array<number>(m);
  let running = 1;
  for (let rank = m - 1; rank >= 0; rank -= 1) {
    const [p, i] = order[rank]!;
    running = Math.min(running, Math.min(1, (m / (rank + 1)) * p));
    adjusted[i] = running;
  }
  return adjusted;
}

export type Correction = 'holm' | 'bh';

export function adjustPValues(pValues: readonly number[], method: Correction): number[] {
  return method === 'holm' ? holmAdjust(pValues) : benjaminiHochbergAdjust(pValues);
}

export interface WarmupRule {
  /** Never drop below this many samples. */
  minKeep: number;
  /** Leading samples that may be dropped at most. */
  maxDrop: number;
  /** How many robust standard deviations (1.4826·MAD of the rest) a sample must lie beyond the rest's median. */
  madMultiple: number;
  /** …and by at least this fraction of that median, so sub-percent wobbles on quiet hardware are kept. */
  minRelative: number;
}

export const DEFAULT_WARMUP_RULE: WarmupRule = { minKeep: 3, maxDrop: 2, madMultiple: 5, minRelative: 0.01 };

export interface WarmupResult {
  kept: number[];
  dropped: number[];
}

/**
 * Drops leading samples that are slow outliers against the samples after them. Only the slow side
 * counts: warm-up (lazy init, cold caches, clock ramp) makes the first runs slower, never faster.
 */
export function dropWarmupOutliers(samples: readonly number[], direction: 'higher' | 'lower', rule: WarmupRule = DEFAULT_WARMUP_RULE): WarmupResult {
  let first = 0;
  while (first < rule.maxDrop && samples.length - first - 1 >= rule.minKeep) {
    const rest = samples.slice(first + 1);
    const center = median(rest);
    const spread = MAD_TO_SD * mad(rest);
    const slowBy = direction === 'higher' ? center - samples[first]! : samples[first]! - center;
    if (!(slowBy > rule.madMultiple * spread && slowBy > rule.minRelative * Math.abs(center))) break;
    first += 1;
  }
  return { kept: samples.slice(first), dropped: samples.slice(0, first) };
}

export interface DriftResult {
  drift: boolean;
  /** Two-sided Mann-Kendall p-value over the sample order. */
  pValue: number;
  /** Theil-Sen slope times (n − 1), relative to the median: the change across the side, 0.01 = 1%. */
  change: number;
}

/** A monotone trend over the sample order that is both significant and at least `minChange` across the side. */
export function detectDrift(samples: readonly number[], options: { alpha: number; minChange: number }): DriftResult {
  if (samples.length < 3) return { drift: false, pValue: 1, change: 0 };
  const { pTwoSided } = mannKendall(samples);
  const center = median(samples);
  const change = center === 0 ? 0 : (theilSenSlope(samples) * (samples.length - 1)) / Math.abs(center);
  return { drift: pTwoSided <= options.alpha && Math.abs(change) >= options.minChange, pValue: pTwoSided, change };
}

export interface OutlierRule {
  /** A side needs at least this many runs (after the warm-up rule) for any of them to count as stalled. */
  minRuns: number;
  /** The fast cluster keeps at least this many runs: one fast run alone is no cluster to compare. */
  minCluster: number;
  /** How many robust standard deviations of the fast cluster (1.4826·MAD, at least `minSpread`) a run must lie below its median. */
  madMultiple: number;
  /** The smallest spread assumed for a cluster, as a fraction of its median: ties or few runs can make a MAD of 0. */
  minSpread: number;
  /** …and it must be slower than the cluster's median by at least this fraction. */
  minRelative: number;
  /** Runs within this many robust sd of the cluster are at one level (the mode guards below). */
  modeWidth: number;
  /** At most this share of a side's runs is left out as stalled (`symmetricStalls`): a stall is rare. */
  maxShare: number;
}

/**
 * 5 robust sd as in the warm-up rule; a spread of at least 0.2% (about three times the largest
 * within-process sd measured on the H200, 0.07%), so the distance is at least 1%; and 1% at least,
 * the warm-up rule's minimum. A side of 3 keeps every run (a third of a side is no exception), so
 * stalls are looked for from 4 runs on; the fast cluster has 2 runs at least. 3 robust sd is the
 * width of the cluster itself: "at one level" for the mode guards.
 */
export const DEFAULT_OUTLIER_RULE: OutlierRule = { minRuns: 4, minCluster: 2, madMultiple: 5, minSpread: 0.002, minRelative: 0.01, modeWidth: 3, maxShare: 0.4 };

export interface OutlierResult {
  /** Positions (0-based, in the given order) of the runs left out as stalled. */
  outliers: number[];
  /** The runs kept (the fast cluster, or every run when nothing stalled), in order. */
  kept: number[];
  /** The kept runs' largest relative distance from their median (0.003 = ±0.3%). */
  restSpread: number;
}

export interface OutlierNeighbours {
  /** The other side's runs: when they show both levels, a slow run is a second state, not a stall. */
  other?: readonly number[];
}

/**
 * The fast cluster of a side and its stalled runs. A stall (a competing process, a page-cache
 * miss, a power or clock dip) only ever makes a run slower, so the runs that tell the code's speed
 * are the fastest ones that agree with each other: the fast cluster. It is the smallest group of
 * the side's fastest runs (at least `minCluster`) below which the next run lies more than
 * `madMultiple` robust sd of the group (floored at `minSpread`) and `minRelative` away; every run
 * below that gap is stalled, one or several, close together or not, up to all but `minCluster`
 * runs. A side with no such gap has no stalls (noise without stalls has none: its runs fill the
 * gaps). A second state of the machine that both sides show is no stall: a slow run whose level
 * the other side shows beside this side's cluster level, or a level that two slow runs of this side
 * share with the other side's own level (its fast cluster, or all its runs when it has none), stays
 * with the cluster for the overlap check to judge; the rest of the runs below the gap are stalled.
 */
export function findSlowOutliers(samples: readonly number[], direction: 'higher' | 'lower', rule: OutlierRule = DEFAULT_OUTLIER_RULE, neighbours: OutlierNeighbours = {}): OutlierResult {
  const other = neighbours.other ?? [];
  const none = (): OutlierResult => ({ outliers: [], kept: [...samples], restSpread: relativeSpread(samples) });
  const split = fastSplit(samples, direction, rule);
  if (!split) return none();
  const { cluster, below, spread } = split;
  const center = median(cluster);
  const width = rule.modeWidth * spread;
  const near = (a: number, b: number) => Math.abs(a - b) <= width;
  const otherSpansBoth = (v: number) => other.some((w) => near(w, v)) && other.some((w) => near(w, center));
  // The other side's own level: the median of its fast cluster (of all its runs when it has none).
  const otherSplit = other.length ? fastSplit(other, direction, rule) : null;
  const otherLevel = other.length ? median(otherSplit ? otherSplit.cluster : other) : Number.NaN;
  const sharedLevel = (v: number, i: number) => below.some(([w, j]) => j !== i && near(w, v)) && near(otherLevel, v);
  const stalled = below.filter(([v, i]) => !otherSpansBoth(v) && !sharedLevel(v, i));
  if (!stalled.length) return none();
  const out = new Set(stalled.map(([, i]) => i));
  const kept = samples.filter((_, i) => !out.has(i));
  return { outliers: [...out].sort((a, b) => a - b), kept, restSpread: relativeSpread(kept) };
}

/** The fast cluster's runs, the runs below its gap (value, position), and the cluster's robust sd; null when the side has no such gap. */
function fastSplit(samples: readonly number[], direction: 'higher' | 'lower', rule: OutlierRule): { cluster: number[]; below: (readonly [number, number])[]; spread: number } | null {
  const n = samples.length;
  if (n < Math.max(rule.minRuns, rule.minCluster + 1)) return null;
  const faster = (a: number, b: number) => (direction === 'higher' ? b - a : a - b);
  const order = samples.map((v, i) => [v, i] as const).sort((a, b) => faster(a[0], b[0]));
  for (let k = rule.minCluster; k < n; k += 1) {
    const cluster = order.slice(0, k).map(([v]) => v);
    const center = median(cluster);
    const scale = Math.abs(center);
    if (!(scale > 0)) return null;
    const spread = Math.max(MAD_TO_SD * mad(cluster), rule.minSpread * scale);
    const distance = Math.max(rule.madMultiple * spread, rule.minRelative * scale);
    const next = order[k]![0];
    const slowBy = direction === 'higher' ? center - next : next - center;
    if (slowBy > distance) return { cluster, below: order.slice(k), spread };
  }
  return null;
}

/**
 * How many runs each side leaves out as slower than the rest: the same number on both sides, and
 * never more than a share of the side. A stall is a large slowdown of a run: a run below a side's
 * fast cluster (`findSlowOutliers`), or a slow first run (the warm-up rule). Both sides leave out as
 * many runs in all as the side with more of them has, capped at `maxShare` of the smaller side;
 * what is left to leave out after a side's warm-up runs are its slowest runs. Leaving out the
 * slowest of each side alike compares the same upper part of both sides, so a neighbour that slows
 * runs on both sides by varying amounts biases neither; leaving out a third of one side alone made
 * it look faster. A side with more slow runs than the cap is noisy rather than stalled: the runs
 * beyond the cap stay, and the winsorized spread of the test and the bootstrap interval carry them.
 * Returns the runs each side leaves out besides its warm-up runs.
 */
export function symmetricStalls(
  found: { baseline: number; current: number },
  warmup: { baseline: number; current: number },
  sizes: { baseline: number; current: number },
  rule: Pick<OutlierRule, 'maxShare' | 'minRuns'> = DEFAULT_OUTLIER_RULE,
): { baseline: number; current: number } {
  const none = { baseline: 0, current: 0 };
  // Sizes are the runs as measured, warm-up included.
  const smaller = Math.min(sizes.baseline, sizes.current);
  // Warm-up runs alone are left out as the warm-up rule says; stalls make both sides leave out as many.
  if (smaller < rule.minRuns || (!found.baseline && !found.current)) return none;
  const total = Math.min(Math.floor(rule.maxShare * smaller), Math.max(found.baseline + warmup.baseline, found.current + warmup.current));
  // Never fewer than two kept runs on a side (a fast cluster's least).
  const side = (n: number, w: number) => Math.max(0, Math.min(total - w, n - w - 2));
  return { baseline: side(sizes.baseline, warmup.baseline), current: side(sizes.current, warmup.current) };
}

/** The positions (0-based, in order) of the `k` slowest runs of a side. */
export function slowestPositions(samples: readonly number[], k: number, direction: 'higher' | 'lower'): number[] {
  if (k <= 0) return [];
  const slower = (a: number, b: number) => (direction === 'higher' ? a - b : b - a);
  return samples
    .map((v, i) => [v, i] as const)
    .sort((a, b) => slower(a[0], b[0]) || b[1] - a[1])
    .slice(0, k)
    .map(([, i]) => i)
    .sort((a, b) => a - b);
}

/**
 * Yuen's test on runs trimmed on the slow side, the variance pooled: each side drops its `k`
 * slowest runs, its spread is the winsorized one (the dropped runs counted at the slowest kept
 * run), so a side with more slow runs than were dropped shows it in the spread rather than hiding
 * it. The pooled sd is at least `minSd`. With nothing trimmed it is Student's pooled t-test.
 */
export function trimmedTTest(x: readonly number[], y: readonly number[], kx: number, ky: number, direction: 'higher' | 'lower', minSd = 0): TTestResult {
  const side = (v: readonly number[], k: number) => {
    const out = new Set(slowestPositions(v, k, direction));
    const kept = v.filter((_, i) => !out.has(i));
    const edge = direction === 'higher' ? Math.min(...kept) : Math.max(...kept);
    const winsorized = v.map((value, i) => (out.has(i) ? edge : value));
    const wMean = winsorized.reduce((a, b) => a + b, 0) / winsorized.length;
    return { mean: kept.reduce((a, b) => a + b, 0) / kept.length, h: kept.length, squares: winsorized.reduce((a, b) => a + (b - wMean) ** 2, 0) };
  };
  const a = side(x, kx);
  const b = side(y, ky);
  const df = a.h + b.h - 2;
  if (!a.h || !b.h || df < 1) throw new RangeError('trimmedTTest needs a kept value on each side and three in all');
  const sd = Math.max(Math.sqrt((a.squares + b.squares) / df), minSd);
  const se = sd * Math.sqrt(1 / a.h + 1 / b.h);
  const diff = a.mean - b.mean;
  if (!(se > 0)) return { t: diff === 0 ? 0 : diff * Infinity, df, pLess: diff < 0 ? 0 : diff > 0 ? 1 : 0.5, pGreater: diff > 0 ? 0 : diff < 0 ? 1 : 0.5 };
  const t = diff / se;
  return { t, df, pLess: studentTUpperTail(-t, df), pGreater: studentTUpperTail(t, df) };
}

/** Robust relative spread of runs: 1.4826 × MAD over the median (0.01 = ±1% run to run). */
export function relativeRobustSd(values: readonly number[]): number {
  if (!values.length) return 0;
  const center = median(values);
  return Math.abs(center) > 0 ? (MAD_TO_SD * mad(values)) / Math.abs(center) : 0;
}

/** Relative standard deviation of runs: the sample sd over the mean (0.01 = ±1% run to run); 0 below two runs. */
export function relativeSd(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  if (!(Math.abs(mean) > 0)) return 0;
  const squares = values.reduce((a, v) => a + (v - mean) ** 2, 0);
  return Math.sqrt(squares / (values.length - 1)) / Math.abs(mean);
}

/** P(T ≥ t) for Student's t with `df` degrees of freedom (df > 0, not necessarily whole). */
export interface TTestResult {
  t: number;
  df: number;
  /** P(T ≤ t): evidence that x's mean is smaller than y's. */
  pLess: number;
  /** P(T ≥ t): evidence that x's mean is larger than y's. */
  pGreater: number;
}

/**
 * Student's two-sample t-test with the variance pooled over both sides (n₁ + n₂ − 2 degrees of
 * freedom), the pooled standard deviation taken as at least `minSd`: two runs that happen to tie
 * must not make a difference infinitely certain. Needs three values in all and one per side.
 */
export function pooledTTest(x: readonly number[], y: readonly number[], minSd = 0): TTestResult {
  const df = x.length + y.length - 2;
  if (!x.length || !y.length || df < 1) throw new RangeError('pooledTTest needs a value on each side and three in all');
  const meanOf = (v: readonly number[]) => v.reduce((a, b) => a + b, 0) / v.length;
  const mx = meanOf(x);
  const my = meanOf(y);
  const squares = x.reduce((a, v) => a + (v - mx) ** 2, 0) + y.reduce((a, v) => a + (v - my) ** 2, 0);
  const sd = Math.max(Math.sqrt(squares / df), minSd);
  const se = sd * Math.sqrt(1 / x.length + 1 / y.length);
  const diff = mx - my;
  if (!(se > 0)) return { t: diff === 0 ? 0 : diff * Infinity, df, pLess: diff < 0 ? 0 : diff > 0 ? 1 : 0.5, pGreater: diff > 0 ? 0 : diff < 0 ? 1 : 0.5 };
  const t = diff / se;
  return { t, df, pLess: studentTUpperTail(-t, df), pGreater: studentTUpperTail(t, df) };
}

function relativeSpread(values: readonly number[]): number {
  if (!values.length) return 0;
  const center = median(values);
  if (!(Math.abs(center) > 0)) return 0;
  return Math.max(...values.map((v) => Math.abs(v / center - 1)));
}
