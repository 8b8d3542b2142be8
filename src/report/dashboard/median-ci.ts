/**
 * A distribution-free confidence interval of the median from order statistics: the number of
 * samples below the true median is Binomial(n, ½), so [x₍ⱼ₎, x₍ₙ₋ⱼ₊₁₎] covers it with probability
 * 1 − 2·P(B ≤ j − 1). No resampling, the same answer every time, exact for any continuous data.
 */

import { CI_LEVEL } from '../../compare/gate-options.js';

export interface MedianInterval {
  median: number;
  low: number;
  high: number;
  /** The interval's actual coverage (≥ level when there are enough samples). */
  coverage: number;
}

function binomialHalfCdf(n: number, k: number): number {
  // P(B ≤ k) for B ~ Binomial(n, ½), summed in log space so n in the thousands does not overflow.
  let logCoefficient = 0;
  let sum = 0;
  for (let i = 0; i <= k; i += 1) {
    if (i > 0) logCoefficient += Math.log(n - i + 1) - Math.log(i);
    sum += Math.exp(logCoefficient - n * Math.LN2);
  }
  return Math.min(1, sum);
}

/**
 * The median and its CI at `level` (two-sided; the gate's level by default). With too few samples for the level (n < 5 at 90%)
 * the interval is [min, max] and `coverage` says how much less it covers. Undefined for no samples.
 */
export function medianInterval(samples: readonly number[], level = CI_LEVEL): MedianInterval | undefined {
  const sorted = samples.filter(Number.isFinite).sort((a, b) => a - b);
  const n = sorted.length;
  if (n === 0) return undefined;
  const mid = n >> 1;
  const median = n % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  const tail = (1 - level) / 2;
  // j: the largest rank with P(B ≤ j − 1) ≤ tail (1-based), at least 1.
  let j = 1;
  while (j < mid && binomialHalfCdf(n, j) <= tail) j += 1;
  const coverage = 1 - 2 * binomialHalfCdf(n, j - 1);
  return { median, low: sorted[j - 1]!, high: sorted[n - j]!, coverage };
}
