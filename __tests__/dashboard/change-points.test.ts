import { bestSplit, detectChangePoints, fTail, HOMOGENEITY_ALPHA, mayBeNoisier, windowCount } from '../../src/compare/change-points.js';
import { regularizedBeta, studentTTwoSided } from '../../src/compare/student-t.js';
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

/**
 * The windowed t scan straight from its definition, window by window from the slices: among windows
 * where neither part is improbably noisier than the other (F test at HOMOGENEITY_ALPHA) the largest
 * pooled |t|, among the others the largest Welch |t|, both among windows whose boundary runs sit on
 * their own side (the run before τ nearer X's mean, the run at τ nearer Y's); the first when significant, else the one with the
 * smaller p. The reference for the prefix-sum scan.
 */
function bruteForce(values: number[], minSegment: number): { index: number; end: number; statistic: number; p: number } | undefined {
  const best: Array<{ index: number; end: number; statistic: number; p: number } | undefined> = [undefined, undefined];
  const mean = (a: number[]) => a.reduce((s, v) => s + v, 0) / a.length;
  const squares = (a: number[]) => a.reduce((s, v) => s + (v - mean(a)) ** 2, 0);
  for (let tau = minSegment; tau <= values.length - minSegment; tau += 1) {
    for (let end = tau + minSegment; end <= values.length; end += 1) {
      const x = values.slice(0, tau);
      const y = values.slice(tau, end);
      // The run before τ nearer X's mean, the run at τ nearer Y's.
      if (!(Math.abs(values[tau - 1]! - mean(x)) < Math.abs(values[tau - 1]! - mean(y)) && Math.abs(values[tau]! - mean(y)) < Math.abs(values[tau]! - mean(x)))) continue;
      const [m, k] = [x.length, y.length];
      const [vx, vy] = [squares(x) / (m - 1), squares(y) / (k - 1)];
      // P(F ≥ f) = I_{d2/(d2 + d1·f)}(d2/2, d1/2), with the larger variance on top.
      const fP = vy > vx ? regularizedBeta((m - 1) / (m - 1 + (k - 1) * (vy / vx)), (m - 1) / 2, (k - 1) / 2) : regularizedBeta((k - 1) / (k - 1 + (m - 1) * (vx / vy)), (k - 1) / 2, (m - 1) / 2);
      const welch = fP <= HOMOGENEITY_ALPHA;
      const t = welch ? (mean(y) - mean(x)) / Math.sqrt(vx / m + vy / k) : (mean(y) - mean(x)) / Math.sqrt(((squares(x) + squares(y)) / (m + k - 2)) * (1 / m + 1 / k));
      const df = welch ? (vx / m + vy / k) ** 2 / ((vx / m) ** 2 / (m - 1) + (vy / k) ** 2 / (k - 1)) : m + k - 2;
      const kind = welch ? 1 : 0;
      if (!best[kind] || Math.abs(t) > Math.abs(best[kind].statistic)) best[kind] = { index: tau, end, statistic: t, p: studentTTwoSided(t, df) };
    }
  }
  // The pooled window when it is significant (Bonferroni over the windows), else the smaller p.
  if (best[0] && windowCount(values.length, minSegment) * best[0].p <= 0.01) return best[0];
  const found = best.filter((b) => b !== undefined);
  return found.length ? found.reduce((a, b) => (b.p < a.p ? b : a)) : undefined;
}

describe('windowed t scan', () => {
  it('matches the definition computed window by window on random series, ties included', () => {
    for (let seed = 1; seed <= 12; seed += 1) {
      const values = series([[12, 100], [6, 94], [9, 100]], 3, seed).map((v) => (seed % 3 === 0 ? Math.round(v) : v));
      const fast = bestSplit(values, 3)!;
      const slow = bruteForce(values, 3)!;
      expect(fast.index).toBe(slow.index);
      expect(fast.end).toBe(slow.end);
      expect(fast.statistic).toBeCloseTo(slow.statistic, 6);
      expect(fast.windows).toBe(windowCount(values.length, 3));
      expect(fast.pValue).toBeCloseTo(Math.min(1, fast.windows * slow.p), 10);
    }
  });

  it('skips the F test only where it could not find Y noisier', () => {
    // At the edge of mayBeNoisier the F tail is still above the level, for every pair of degrees of
    // freedom a scan of up to 3000 points meets (sampled densely where the F distribution is skewed).
    const dfs = [...Array.from({ length: 60 }, (_, i) => i + 2), 80, 100, 150, 200, 300, 500, 800, 1200, 2000, 2998];
    for (const d1 of dfs) {
      for (const d2 of dfs) {
        let low = 1;
        let high = 1e6;
        for (let i = 0; i < 80; i += 1) {
          const mid = Math.sqrt(low * high);
          if (mayBeNoisier(mid, d1, d2)) high = mid;
          else low = mid;
        }
        expect(fTail(low, d1, d2)).toBeGreaterThan(HOMOGENEITY_ALPHA);
      }
    }
  });

  it('counts the windows it scans', () => {
    // n = 9, parts of at least 3: τ = 3 (κ = 6..9), 4 (7..9), 5 (8, 9), 6 (9): 10 windows.
    expect(windowCount(9, 3)).toBe(10);
    expect(windowCount(5, 3)).toBe(0);
    expect(windowCount(6, 3)).toBe(1);
  });

  it('honours the minimum segment and refuses series too short to split', () => {
    expect(bestSplit([1, 2, 3, 4, 5, 6, 7], 4)).toBeUndefined();
    // The obvious split at 1 is not allowed with segments of at least 3.
    const split = bestSplit([50, 1, 1, 1, 1, 1, 1, 1], 3)!;
    expect(split.index).toBeGreaterThanOrEqual(3);
    expect(split.index).toBeLessThanOrEqual(5);
  });

  it('gives a tiny p-value for a clear shift, a large one for noise, and none for identical values', () => {
    const shifted = bestSplit(series([[20, 100], [20, 90]], 1, 7), 3)!;
    expect(shifted.index).toBe(20);
    expect(shifted.statistic).toBeLessThan(-20);
    expect(shifted.pValue).toBeLessThan(1e-12);
    expect(bestSplit(series([[40, 100]], 1, 8), 3)!.pValue).toBeGreaterThan(0.05);
    expect(bestSplit(new Array(12).fill(3.25), 3)!.pValue).toBe(1);
    // An exact step (no noise at all) is as strong as a step can be.
    const exact = bestSplit([...new Array(6).fill(0.2), ...new Array(4).fill(0.3)], 3)!;
    expect(exact.index).toBe(6);
    expect(exact.pValue).toBeLessThan(1e-30);
  });

  it('starts a change at the first run of the new level, even where a window one run late looks stronger', () => {
    // A family that appears at run 12 (share 0 before, ~9% after): the window starting at 13 keeps
    // run 12 on the zero side; run 12 is nearer the new level, so the change begins at 12.
    const appeared = [...new Array(12).fill(0), ...series([[10, 0.09]], 0.002, 6)];
    expect(bestSplit(appeared, 3)!.index).toBe(12);
    expect(detectChangePoints(appeared).map((p) => p.index)).toEqual([12]);
  });

  it('does not take a window that mixes the old level with the new for a step', () => {
    // Two nights 5% down after 18 tight ones: every window of three or more holds an old night, and
    // its spread gives it away. The pooled t alone would call it a step at night 17 (p ≈ 0.005).
    const values = [...series([[18, 1000]], 2, 4), 950, 950.5];
    expect(bestSplit(values, 3)!.pValue).toBeGreaterThan(0.05);
    // The third night makes a clean window.
    expect(bestSplit([...values, 949.6], 3)).toMatchObject({ index: 18, end: 21 });
    expect(bestSplit([...values, 949.6], 3)!.pValue).toBeLessThan(1e-6);
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

  it('depends on the values alone: the same series, the same answer', () => {
    const values = series([[30, 10], [30, 10.6], [30, 10.1]], 0.15, 77);
    const a = detectChangePoints(values);
    expect(a.map((p) => p.index)).toEqual([30, 60]);
    expect(detectChangePoints([...values])).toEqual(a);
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
