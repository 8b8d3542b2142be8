/**
 * The confidence interval of a median, the one every report shows (the summary, the PR comment and
 * the dashboard). Distribution-free, from order statistics: the number of samples below the true
 * median is Binomial(n, ½), so [x₍ⱼ₎, x₍ₙ₋ⱼ₊₁₎] covers it with probability 1 − 2·P(B ≤ j − 1). No
 * resampling, the same answer every time, exact for any continuous data.
 */
import { CI_LEVEL } from './gate-options.js';

export interface MedianInterval {
  low: number;
  high: number;
  /** The interval's actual coverage, at least the level asked for. */
  coverage: number;
}

/**
 * The narrowest order-statistic interval of the median that covers it with at least `level`
 * (two-sided; the gate's level by default). Null when no interval reaches the level: too few
 * samples (n < 5 at 90%), so a reader is never shown a "90% CI" that covers less.
 */
export function medianInterval(samples: readonly number[], level = CI_LEVEL): MedianInterval | null {
  const sorted = samples.filter(Number.isFinite).sort((a, b) => a - b);
  const n = sorted.length;
  const tail = (1 - level) / 2;
  // P(B ≤ j − 1) summed term by term in log space: one pass, and n in the millions neither overflows nor stalls.
  const logHalfPower = -n * Math.LN2;
  let below = Math.exp(logHalfPower);
  if (n < 2 || below > tail) return null;
  let j = 1;
  let logCoefficient = 0;
  while (j < n >> 1) {
    logCoefficient += Math.log(n - j + 1) - Math.log(j);
    const next = below + Math.exp(logCoefficient + logHalfPower);
    if (next > tail) break;
    below = next;
    j += 1;
  }
  return { low: sorted[j - 1]!, high: sorted[n - j]!, coverage: 1 - 2 * below };
}

/**
 * The fewest samples for which `medianInterval` has an interval at `level`: the widest one, from the
 * smallest sample to the largest, covers the median with 1 − 2·½ⁿ (5 samples at 90%, 6 at 95%).
 */
export function medianIntervalMinSamples(level = CI_LEVEL): number {
  let n = 2;
  while (2 * 0.5 ** n > 1 - level) n += 1;
  return n;
}

/** A metric with the interval of its median, as a report holds it. */
export function withMedianInterval<M extends { samples: readonly number[] }>(metric: M): M & { ci: [number, number] | null } {
  const interval = medianInterval(metric.samples);
  return { ...metric, ci: interval ? [interval.low, interval.high] : null };
}
