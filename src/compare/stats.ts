/**
 * The statistics the gate uses, as small pure functions: robust location and scale, a seeded PRNG,
 * a bootstrap CI of the ratio of medians, multiple-comparison corrections, the warm-up rule and
 * drift detection. Rank tests live in rank-tests.ts and are re-exported here.
 */
import { median } from '../model/stats.js';
import { mannKendall, theilSenSlope } from './rank-tests.js';

export { median, mean } from '../model/stats.js';
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
