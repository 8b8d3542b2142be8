/**
 * Rank tests used by the gate: Mann-Whitney U between the two sides, and Mann-Kendall for a trend
 * over the sample order within one side. Both are exact for small samples (ties included for
 * Mann-Whitney) and fall back to the normal approximation with tie correction for larger ones.
 */

/** Standard normal CDF, via the complementary error function. */
export function normalCdf(z: number): number {
  return 0.5 * erfc(-z / Math.SQRT2);
}

/** Numerical Recipes' Chebyshev fit of erfc, fractional error below 1.2e-7 everywhere. */
function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}

/** 1-based ranks, tied values sharing the mean of their ranks. */
export function midranks(values: readonly number[]): number[] {
  const order = values.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0]);
  const ranks = new Array<number>(values.length);
  for (let start = 0; start < order.length; ) {
    let end = start;
    while (end + 1 < order.length && order[end + 1]![0] === order[start]![0]) end += 1;
    const rank = (start + end) / 2 + 1;
    for (let k = start; k <= end; k += 1) ranks[order[k]![1]] = rank;
    start = end + 1;
  }
  return ranks;
}

/** Sizes of the groups of tied values (groups of one left out). */
function tieGroups(values: readonly number[]): number[] {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.values()].filter((t) => t > 1);
}

export interface MannWhitneyResult {
  /** U of the first sample: pairs with x > y, ties counted one half. */
  u: number;
  /** P(U ≤ u) under the null: evidence that x tends to be smaller than y. */
  pLess: number;
  /** P(U ≥ u) under the null: evidence that x tends to be larger than y. */
  pGreater: number;
  pTwoSided: number;
  method: 'exact' | 'normal';
}

/** Largest n + m for which the exact permutation distribution is computed. */
export const MANN_WHITNEY_EXACT_MAX = 50;

export function mannWhitneyU(x: readonly number[], y: readonly number[], exactMax = MANN_WHITNEY_EXACT_MAX): MannWhitneyResult {
  const n = x.length;
  const m = y.length;
  if (n === 0 || m === 0) throw new RangeError('mannWhitneyU needs at least one value on each side');
  const ranks = midranks([...x, ...y]);
  let rankSumX = 0;
  for (let i = 0; i < n; i += 1) rankSumX += ranks[i]!;
  const u = rankSumX - (n * (n + 1)) / 2;
  const result = n + m <= exactMax ? exactRankSumTails(ranks, n, rankSumX) : normalRankSumTails([...x, ...y], n, m, u);
  const pLess = Math.min(1, result.pLess);
  const pGreater = Math.min(1, result.pGreater);
  return { u, pLess, pGreater, pTwoSided: Math.min(1, 2 * Math.min(pLess, pGreater)), method: result.method };
}

/**
 * The permutation distribution of the rank sum of n items drawn from the given midranks. Midranks
 * are multiples of one half, so doubled ranks are integers and a subset-sum count is exact with ties.
 */
function exactRankSumTails(ranks: readonly number[], n: number, rankSumX: number): { pLess: number; pGreater: number; method: 'exact' } {
  return { ...exactScoreSumTails(ranks.map((r) => Math.round(r * 2)), n, Math.round(rankSumX * 2)), method: 'exact' };
}

/**
 * P(sum ≤ observed) and P(sum ≥ observed) for the scores of n items drawn without replacement
 * from the given non-negative integer scores, every n-subset equally likely (a subset-sum count).
 */
function exactScoreSumTails(scores: readonly number[], n: number, observed: number): { pLess: number; pGreater: number } {
  const maxSum = scores.reduce((a, b) => a + b, 0);
  // ways[j][s]: number of j-subsets of the items seen so far with score sum s (as a probability-safe float).
  const ways: Float64Array[] = Array.from({ length: n + 1 }, () => new Float64Array(maxSum + 1));
  ways[0]![0] = 1;
  let reach = 0;
  for (const d of scores) {
    reach += d;
    for (let j = n; j >= 1; j -= 1) {
      const into = ways[j]!;
      const from = ways[j - 1]!;
      for (let s = reach; s >= d; s -= 1) into[s]! += from[s - d]!;
    }
  }
  const dist = ways[n]!;
  let total = 0;
  let atMost = 0;
  let atLeast = 0;
  for (let s = 0; s <= maxSum; s += 1) {
    const w = dist[s]!;
    if (w === 0) continue;
    total += w;
    if (s <= observed) atMost += w;
    if (s >= observed) atLeast += w;
  }
  return { pLess: atMost / total, pGreater: atLeast / total };
}

function normalRankSumTails(all: readonly number[], n: number, m: number, u: number): { pLess: number; pGreater: number; method: 'normal' } {
  const total = n + m;
  const tieTerm = tieGroups(all).reduce((sum, t) => sum + t ** 3 - t, 0);
  const variance = ((n * m) / 12) * (total + 1 - tieTerm / (total * (total - 1)));
  if (variance <= 0) return { pLess: 1, pGreater: 1, method: 'normal' };
  const sd = Math.sqrt(variance);
  const mean = (n * m) / 2;
  // Continuity correction of one half toward the mean.
  return {
    pLess: normalCdf((u - mean + 0.5) / sd),
    pGreater: 1 - normalCdf((u - mean - 0.5) / sd),
    method: 'normal',
  };
}

export interface MannKendallResult {
  /** Concordant minus discordant pairs over the sample order; > 0 is an upward trend. */
  s: number;
  pIncreasing: number;
  pDecreasing: number;
  pTwoSided: number;
  method: 'exact' | 'normal';
}

/** Largest n for which the exact null distribution of S (no ties) is used. */
export const MANN_KENDALL_EXACT_MAX = 30;

export function mannKendall(values: readonly number[]): MannKendallResult {
  const n = values.length;
  let s = 0;
  for (let i = 0; i < n; i += 1) for (let j = i + 1; j < n; j += 1) s += Math.sign(values[j]! - values[i]!);
  const ties = tieGroups(values);
  if (n < 2) return { s, pIncreasing: 1, pDecreasing: 1, pTwoSided: 1, method: 'exact' };
  let pIncreasing: number;
  let pDecreasing: number;
  let method: 'exact' | 'normal';
  if (ties.length === 0 && n <= MANN_KENDALL_EXACT_MAX) {
    // Without ties S = pairs - 2·inversions; the inversion count of a random order has the Mahonian distribution.
    const dist = inversionDistribution(n);
    const pairs = (n * (n - 1)) / 2;
    const inversions = (pairs - s) / 2;
    pIncreasing = 0;
    pDecreasing = 0;
    dist.forEach((p, k) => {
      if (k <= inversions) pIncreasing += p;
      if (k >= inversions) pDecreasing += p;
    });
    method = 'exact';
  } else {
    const variance = (n * (n - 1) * (2 * n + 5) - ties.reduce((sum, t) => sum + t * (t - 1) * (2 * t + 5), 0)) / 18;
    if (variance <= 0) return { s, pIncreasing: 1, pDecreasing: 1, pTwoSided: 1, method: 'normal' };
    const sd = Math.sqrt(variance);
    pIncreasing = 1 - normalCdf((s - 1) / sd);
    pDecreasing = normalCdf((s + 1) / sd);
    method = 'normal';
  }
  pIncreasing = Math.min(1, pIncreasing);
  pDecreasing = Math.min(1, pDecreasing);
  return { s, pIncreasing, pDecreasing, pTwoSided: Math.min(1, 2 * Math.min(pIncreasing, pDecreasing)), method };
}

const inversionCache = new Map<number, Float64Array>();

/** P(a random permutation of n items has k inversions), k = 0 … n(n−1)/2. */
export function inversionDistribution(n: number): Float64Array {
  const cached = inversionCache.get(n);
  if (cached) return cached;
  let dist = new Float64Array([1]);
  for (let size = 2; size <= n; size += 1) {
    const next = new Float64Array(dist.length + size - 1);
    // Inserting the new largest item adds 0 … size−1 inversions, each equally likely.
    for (let k = 0; k < dist.length; k += 1) for (let j = 0; j < size; j += 1) next[k + j]! += dist[k]! / size;
    dist = next;
  }
  inversionCache.set(n, dist);
  return dist;
}

/** Theil-Sen slope: the median of the slopes between every pair of samples, per step of the sample order. */
export function theilSenSlope(values: readonly number[]): number {
  const slopes: number[] = [];
  for (let i = 0; i < values.length; i += 1) {
    for (let j = i + 1; j < values.length; j += 1) slopes.push((values[j]! - values[i]!) / (j - i));
  }
  if (slopes.length === 0) return 0;
  slopes.sort((a, b) => a - b);
  const mid = slopes.length >> 1;
  return slopes.length % 2 ? slopes[mid]! : (slopes[mid - 1]! + slopes[mid]!) / 2;
}
