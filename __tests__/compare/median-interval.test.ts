import { medianInterval, medianIntervalMinSamples } from '../../src/compare/median-interval.js';

describe('medianInterval: the one interval of a median', () => {
  it('takes the order statistics a binomial table gives', () => {
    // n = 15: P(B ≤ 3) = 576/32768 = 0.0176 ≤ 0.05 < P(B ≤ 4) = 0.0592, so the 90% CI (the gate's level) is [x(4), x(12)]
    // and its coverage 1 − 2·0.0176 = 0.9648 (binomial sums by hand).
    const ci = medianInterval([15, 3, 9, 1, 12, 7, 5, 14, 2, 8, 11, 4, 13, 6, 10])!;
    expect(ci).toMatchObject({ low: 4, high: 12 });
    expect(ci.coverage).toBeCloseTo(0.9648, 4);
    // n = 20: j = 6 covers 1 − 2·P(B ≤ 5) = 1 − 2·0.0207 = 0.959; j = 7 would give 0.885, under 90%.
    expect(medianInterval(Array.from({ length: 20 }, (_, i) => i + 1))).toMatchObject({ low: 6, high: 15 });
  });

  it('needs at least 5 samples for 90%: with fewer it gives none rather than a range that covers less', () => {
    // n = 4: the widest interval [min, max] covers 1 − 2/16 = 0.875 < 0.9.
    expect(medianInterval([3, 1, 2, 4])).toBeNull();
    // n = 5: [min, max] covers 1 − 2/32 = 0.9375.
    const five = medianInterval([5, 1, 4, 2, 3])!;
    expect(five).toMatchObject({ low: 1, high: 5 });
    expect(five.coverage).toBeCloseTo(0.9375, 6);
    // At 95% n = 5 is too few: 0.9375 < 0.95.
    expect(medianInterval([5, 1, 4, 2, 3], 0.95)).toBeNull();
    expect(medianInterval([])).toBeNull();
    expect(medianInterval([7])).toBeNull();
  });

  it('names the fewest samples that have an interval: 5 at 90%, 6 at 95%', () => {
    // [min, max] covers 1 − 2·½ⁿ: 0.9375 at n = 5 (≥ 0.9, < 0.95), 0.96875 at n = 6.
    expect(medianIntervalMinSamples(0.9)).toBe(5);
    expect(medianIntervalMinSamples(0.95)).toBe(6);
    expect(medianInterval([6, 1, 5, 2, 4, 3], 0.95)).toMatchObject({ low: 1, high: 6 });
    expect(medianIntervalMinSamples(0.99)).toBe(8);
  });

  it('ignores non-finite samples', () => {
    expect(medianInterval([5, 1, Number.NaN, 4, 2, 3, Number.POSITIVE_INFINITY])).toMatchObject({ low: 1, high: 5 });
  });

  it('gives a large sample its interval in one pass, near the normal approximation', () => {
    // n = 400,001 values 0..n−1: the normal approximation puts the 90% bounds at n/2 ± 1.645·√n/2 ≈ ±520.
    const n = 400_001;
    const samples = Array.from({ length: n }, (_, i) => i);
    const started = Date.now();
    const ci = medianInterval(samples)!;
    expect(Date.now() - started).toBeLessThan(5000);
    expect(ci.coverage).toBeGreaterThanOrEqual(0.9);
    expect(ci.coverage).toBeLessThan(0.901);
    expect(Math.abs(ci.low - (200_000 - 520))).toBeLessThanOrEqual(3);
    expect(ci.high - 200_000).toBe(200_000 - ci.low);
  });
});
