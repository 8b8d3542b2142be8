/**
 * The statistics the gate uses, as small pure functions: robust location and scale, a seeded PRNG,
 * a bootstrap CI of the ratio of medians, multiple-comparison corrections, the warm-up rule and
 * drift detection. Rank tests live in rank-tests.ts and are re-exported here.
 */
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
}

/**
 * Percentile bootstrap CI of median(current) / median(baseline), resampling each side on its own.
 * `level` is two-sided (0.90 → the 5th and 95th percentiles).
 */
export function bootstrapMedianRatioCI(
  current: readonly number[],
  baseline: readonly number[],
  options: { level: number; resamples: number; random: () => number },
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
  return { ratio, low: quantileSorted(ratios, tail), high: quantileSorted(ratios, 1 - tail) };
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
  /** Never leave fewer than this many samples on the side. */
  minKeep: number;
  /** How many robust standard deviations of the side (1.4826·MAD, at least `minSpread`) a run must lie beyond its median. */
  madMultiple: number;
  /** The smallest spread assumed for a cluster, as a fraction of its median: ties or few runs can make a MAD of 0. */
  minSpread: number;
  /** …and it must be slower than the median by at least this fraction. */
  minRelative: number;
  /** Two slow runs within this many robust sd of each other are one state (a mode), not two stalls. */
  modeWidth: number;
}

/**
 * 5 robust sd as in the warm-up rule; a spread of at least 0.2% (about three times the largest
 * within-process sd measured on the H200, 0.07%), so the distance is at least 1%; and 1% at least,
 * the warm-up rule's minimum (a run closer than that cannot reach the overlap margin of half a 3% floor).
 * Two slow runs within 3 robust sd of each other are as close as the runs of the cluster itself: a
 * second state with two or more runs in it, not two stalls.
 */
export const DEFAULT_OUTLIER_RULE: OutlierRule = { minKeep: 3, madMultiple: 5, minSpread: 0.002, minRelative: 0.01, modeWidth: 3 };

export interface OutlierResult {
  /** Positions (0-based, in the given order) of the runs left out. */
  outliers: number[];
  /** The runs kept, in order. */
  kept: number[];
  /** The kept runs' largest relative distance from their median (0.003 = ±0.3%). */
  restSpread: number;
}

/**
 * Slow runs far from the side's cluster: a stall (a competing process, a page-cache miss, a clock
 * dip) makes a run slower, never faster, so only the slow side counts. A run is left out when it is
 * slower than the side's median by more than `madMultiple` robust sd (floored at `minSpread`) and
 * by `minRelative`, and no other run lies within `modeWidth` robust sd of it: two or more runs close
 * together form a populated mode (a second clock state), which is left to the overlap check (a run
 * the warm-up rule dropped counts as one of them, so the two rules never strip a mode); so does
 * a lone slow run when the other side's runs sit both at its level and at this side's median (both
 * sides then show the same two states). At most
 * a minority is left out (the cluster keeps a strict majority), never going under `minKeep`.
 */
export interface OutlierNeighbours {
  /** The other side's runs: when they show both states, a lone slow run is a mode, not a stall. */
  other?: readonly number[];
  /** Runs of this side already left out (warm-up): a slow run next to one of them is a mode too. */
  dropped?: readonly number[];
}

export function findSlowOutliers(samples: readonly number[], direction: 'higher' | 'lower', rule: OutlierRule = DEFAULT_OUTLIER_RULE, neighbours: OutlierNeighbours = {}): OutlierResult {
  const other = neighbours.other ?? [];
  const dropped = neighbours.dropped ?? [];
  const n = samples.length;
  const none = (): OutlierResult => ({ outliers: [], kept: [...samples], restSpread: relativeSpread(samples) });
  const limit = Math.min(Math.floor((n - 1) / 2), n - rule.minKeep);
  if (limit <= 0) return none();
  const center = median(samples);
  const scale = Math.abs(center);
  if (!(scale > 0)) return none();
  const spread = Math.max(MAD_TO_SD * mad(samples), rule.minSpread * scale);
  const distance = Math.max(rule.madMultiple * spread, rule.minRelative * scale);
  const slowBy = (v: number) => (direction === 'higher' ? center - v : v - center);
  const candidates = samples.map((v, i) => [v, i] as const).filter(([v]) => slowBy(v) > distance);
  // "The same state" is as close as the cluster's own runs are to each other: the spread of the
  // runs within the distance, not of the side, which far runs widen (with 2 of 5 stalled, the
  // side's MAD is the cluster's range). Far runs as wide apart as sporadic stalls are not a mode.
  const cluster = samples.filter((v) => !(slowBy(v) > distance));
  const width = rule.modeWidth * Math.max(MAD_TO_SD * mad(cluster), rule.minSpread * scale);
  const near = (a: number, b: number) => Math.abs(a - b) <= width;
  // The other side shows both states (runs at this run's level and at this side's median): two clock states.
  const otherSpansBoth = (v: number) => other.some((w) => near(w, v)) && other.some((w) => near(w, center));
  const isolated = candidates.filter(([v, i]) => !samples.some((w, j) => j !== i && near(w, v)) && !dropped.some((w) => near(w, v)) && !otherSpansBoth(v));
  if (!isolated.length || isolated.length > limit) return none();
  const out = new Set(isolated.map(([, i]) => i));
  const kept = samples.filter((_, i) => !out.has(i));
  return { outliers: [...out].sort((a, b) => a - b), kept, restSpread: relativeSpread(kept) };
}

function relativeSpread(values: readonly number[]): number {
  if (!values.length) return 0;
  const center = median(values);
  if (!(Math.abs(center) > 0)) return 0;
  return Math.max(...values.map((v) => Math.abs(v / center - 1)));
}
