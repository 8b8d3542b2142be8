import { bestSplit, detectChangePoints, permutationPValue } from '../../src/compare/change-points.js';
import { mulberry32 } from '../../src/compare/statistics.js';

/** Gaussian noise from a seeded PRNG (Box-Muller), so every series is the same on every run. */
function noise(seed: number): () => number {
  const random = mulberry32(seed);
  return () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

function series(levels: Array<[length: number, level: number]>, sd: number, seed: number): number[] {
  const gauss = noise(seed);
  return levels.flatMap(([length, level]) => Array.from({ length }, () => level + sd * gauss()));
}

/** The E-divisive statistic straight from its definition, O(n⁵): the reference for the fast scan. */
function bruteForce(values: number[], minSegment: number): { index: number; end: number; statistic: number } | undefined {
  let best: { index: number; end: number; statistic: number } | undefined;
  const meanDistance = (a: number[], b: number[]) => a.reduce((sum, x) => sum + b.reduce((t, y) => t + Math.abs(x - y), 0), 0) / (a.length * b.length);
  const withinMean = (a: number[]) => {
    let sum = 0;
    for (let i = 0; i < a.length; i += 1) for (let j = i + 1; j < a.length; j += 1) sum += Math.abs(a[i]! - a[j]!);
    return sum / ((a.length * (a.length - 1)) / 2);
  };
  for (let tau = minSegment; tau <= values.length - minSegment; tau += 1) {
    for (let end = tau + minSegment; end <= values.length; end += 1) {
      const x = values.slice(0, tau);
      const y = values.slice(tau, end);
      const m = x.length;
      const n = y.length;
      const q = ((m * n) / (m + n)) * (2 * meanDistance(x, y) - withinMean(x) - withinMean(y));
      if (!best || q > best.statistic + 1e-9 * Math.abs(q)) best = { index: tau, end, statistic: q };
    }
  }
  return best;
}

describe('E-divisive split scan', () => {
  it('matches the definition computed pair by pair on random series, ties included', () => {
    for (let seed = 1; seed <= 12; seed += 1) {
      const values = series([[12, 100], [6, 94], [9, 100]], 3, seed).map((v) => (seed % 3 === 0 ? Math.round(v) : v));
      const fast = bestSplit(values, 3)!;
      const slow = bruteForce(values, 3)!;
      expect(fast.index).toBe(slow.index);
      expect(fast.end).toBe(slow.end);
      expect(fast.statistic).toBeCloseTo(slow.statistic, 8);
    }
  });

  it('honours the minimum segment and refuses series too short to split', () => {
    expect(bestSplit([1, 2, 3, 4, 5, 6, 7], 4)).toBeUndefined();
    // The obvious split at 1 is not allowed with segments of at least 3.
    const split = bestSplit([50, 1, 1, 1, 1, 1, 1, 1], 3)!;
    expect(split.index).toBeGreaterThanOrEqual(3);
    expect(split.index).toBeLessThanOrEqual(5);
  });

  it('gives a permutation p-value at its floor for a clear shift and a large one for noise', () => {
    const shifted = series([[20, 100], [20, 90]], 1, 7);
    const observed = bestSplit(shifted, 4)!.statistic;
    expect(permutationPValue(shifted, observed, { minSegment: 4, permutations: 99 }, mulberry32(3))).toBe(0.01);
    const flat = series([[40, 100]], 1, 8);
    const flatObserved = bestSplit(flat, 4)!.statistic;
    expect(permutationPValue(flat, flatObserved, { minSegment: 4, permutations: 99 }, mulberry32(3))).toBeGreaterThan(0.05);
    // With α given, the test stops as soon as it cannot be significant, and says so.
    expect(permutationPValue(flat, flatObserved, { minSegment: 4, permutations: 99, alpha: 0.01 }, mulberry32(3))).toBeGreaterThan(0.01);
  });
});

describe('detectChangePoints', () => {
  it('finds a known 8% drop in a year of nightly throughput, at the night it began', () => {
    // 1% noise (sd), the drop starts at night 200.
    const values = series([[200, 1500], [165, 1380]], 15, 42);
    const points = detectChangePoints(values, { minRelativeChange: 0.02 });
    expect(points).toHaveLength(1);
    expect(points[0]!.index).toBe(200);
    expect(points[0]!.relativeChange).toBeCloseTo(-0.08, 2);
    expect(points[0]!.pValue).toBeLessThanOrEqual(0.01);
  });

  it('finds a short dip that recovered, in the middle of a long history', () => {
    // 8 nights at −9% among 150: a split at τ alone would not see it; the (τ, κ) search does.
    const values = series([[60, 2985], [8, 2710], [82, 2985]], 12, 21);
    const points = detectChangePoints(values, { minRelativeChange: 0.02 });
    expect(points.map((p) => p.index)).toEqual([60, 68]);
  });

  it('finds a drop and its later recovery as two change points', () => {
    const values = series([[60, 1000], [30, 900], [60, 1000]], 8, 5);
    const points = detectChangePoints(values, { minRelativeChange: 0.02 });
    expect(points.map((p) => p.index)).toEqual([60, 90]);
    expect(points[0]!.relativeChange).toBeLessThan(-0.08);
    expect(points[1]!.relativeChange).toBeGreaterThan(0.08);
  });

  it('reports nothing on flat noisy series (at most one false alarm in 20 at α = 0.01)', () => {
    let alarms = 0;
    for (let seed = 100; seed < 120; seed += 1) alarms += detectChangePoints(series([[365, 1200]], 12, seed)).length > 0 ? 1 : 0;
    expect(alarms).toBeLessThanOrEqual(1);
  });

  it('ignores single outliers (a noisy night is not a shift)', () => {
    const values = series([[120, 500]], 3, 9);
    values[40] = 300;
    values[80] = 700;
    expect(detectChangePoints(values, { minRelativeChange: 0.02 })).toEqual([]);
  });

  it('drops shifts below the magnitude floor', () => {
    // A real 1% shift on very quiet data is significant, but smaller than a 2% floor.
    const values = series([[80, 1000], [80, 990]], 1, 11);
    expect(detectChangePoints(values).map((p) => p.index)).toEqual([80]);
    expect(detectChangePoints(values, { minRelativeChange: 0.02 })).toEqual([]);
    expect(detectChangePoints(values, { minAbsoluteChange: 20 })).toEqual([]);
  });

  it('is deterministic for a seed', () => {
    const values = series([[30, 10], [30, 10.6], [30, 10.1]], 0.15, 77);
    const a = detectChangePoints(values, { seed: 9 });
    const b = detectChangePoints(values, { seed: 9 });
    expect(a).toEqual(b);
    expect(a.length).toBeGreaterThan(0);
  });

  it('rejects non-finite values and a minimum segment under 2', () => {
    expect(() => detectChangePoints([1, 2, Number.NaN, 4])).toThrow(/finite/);
    expect(() => detectChangePoints([1, 2, 3, 4], { minSegment: 1 })).toThrow(/minSegment/);
  });

  // Its speed is measured in bench/, not here: a timed unit test fails on a loaded machine.
  it('finds both changes of a 365-point series', () => {
    const values = series([[120, 1000], [120, 950], [125, 1010]], 10, 3);
    const points = detectChangePoints(values, { minRelativeChange: 0.02 });
    expect(points.map((p) => p.index)).toEqual([120, 240]);
  });
});
