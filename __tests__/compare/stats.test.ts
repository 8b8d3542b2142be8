import { readFileSync } from 'node:fs';
import {
  adjustPValues,
  benjaminiHochbergAdjust,
  bootstrapMedianRatioCI,
  detectDrift,
  dropWarmupOutliers,
  holmAdjust,
  inversionDistribution,
  mad,
  mannKendall,
  mannWhitneyU,
  median,
  midranks,
  mulberry32,
  normalCdf,
  quantileSorted,
  seedFor,
  theilSenSlope,
  pooledTTest,
} from '../../src/compare/statistics.js';
import { regularizedBeta as regularizedIncompleteBeta, studentTUpperTail } from '../../src/compare/student-t.js';

function noise(file: string): number[][] {
  return readFileSync(new URL(`../fixtures/h200-noise/${file}`, import.meta.url), 'utf8')
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { per_run_tok_s: number[] }).per_run_tok_s);
}

describe('descriptive statistics', () => {
  it('quantileSorted is Hyndman-Fan type 7 (numpy.quantile default: [1,2,3,4,10] → 1.4, 2, 7.6)', () => {
    const sorted = [1, 2, 3, 4, 10];
    expect(quantileSorted(sorted, 0.1)).toBeCloseTo(1.4, 12);
    expect(quantileSorted(sorted, 0.25)).toBeCloseTo(2, 12);
    expect(quantileSorted(sorted, 0.9)).toBeCloseTo(7.6, 12);
  });
  it('mad by hand: [1,2,3,4,100] → deviations from 3 are 2,1,0,1,97 → median 1', () => {
    expect(mad([1, 2, 3, 4, 100])).toBe(1);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
  it('normalCdf matches the normal table (Φ(1.96)=0.9750021, Φ(−1)=0.1586553, Φ(−3)=0.0013499)', () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 7);
    expect(normalCdf(1.96)).toBeCloseTo(0.9750021, 6);
    expect(normalCdf(-1)).toBeCloseTo(0.1586553, 6);
    expect(normalCdf(-3)).toBeCloseTo(0.0013499, 6);
  });
  it('midranks average tied ranks', () => {
    expect(midranks([10, 20, 20, 5])).toEqual([2, 3.5, 3.5, 1]);
  });
});

describe('mannWhitneyU', () => {
  // Hollander & Wolfe (1973), p. 69, the example in R's ?wilcox.test: W = 35, one-sided p = 0.1272
  // (exact; scipy.stats.mannwhitneyu(method="exact") gives 0.1272061272).
  const x = [0.8, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46];
  const y = [1.15, 0.88, 0.9, 0.74, 1.21];
  it('exact: the textbook example', () => {
    const result = mannWhitneyU(x, y);
    expect(result.u).toBe(35);
    expect(result.method).toBe('exact');
    expect(result.pGreater).toBeCloseTo(0.1272061272, 9);
    expect(result.pTwoSided).toBeCloseTo(0.2544122544, 9);
  });
  it('normal approximation with continuity correction (scipy asymptotic: 0.1223118026)', () => {
    const result = mannWhitneyU(x, y, 0);
    expect(result.method).toBe('normal');
    expect(result.pGreater).toBeCloseTo(0.1223118026, 6);
  });
  it('exact with ties: the permutation distribution of midrank sums (enumerated: 28 of 462 splits)', () => {
    const result = mannWhitneyU([1, 2, 2, 3, 4], [2, 3, 3, 5, 6, 6]);
    expect(result.u).toBe(6);
    expect(result.pLess).toBeCloseTo(28 / 462, 12);
    expect(result.pGreater).toBeCloseTo(446 / 462, 12);
  });
  it('complete separation: 1/C(6,3) = 0.05 for 3 vs 3, 1/C(8,4) = 1/70 for 4 vs 4', () => {
    expect(mannWhitneyU([1, 2, 3], [4, 5, 6]).pLess).toBeCloseTo(1 / 20, 12);
    expect(mannWhitneyU([1, 2, 3, 4], [5, 6, 7, 8]).pLess).toBeCloseTo(1 / 70, 12);
    expect(mannWhitneyU([1, 2, 3, 4], [5, 6, 7, 8]).pGreater).toBe(1);
  });
  it('all values tied gives p = 1 both ways', () => {
    const exact = mannWhitneyU([1, 1, 1], [1, 1, 1]);
    expect([exact.pLess, exact.pGreater]).toEqual([1, 1]);
    const normal = mannWhitneyU([1, 1, 1], [1, 1, 1], 0);
    expect([normal.pLess, normal.pGreater]).toEqual([1, 1]);
  });
});

describe('mannKendall and theilSenSlope', () => {
  it('a strictly increasing run of 5: S = 10, exact p = 1/5! (scipy kendalltau exact two-sided 0.016667)', () => {
    const result = mannKendall([1, 2, 3, 4, 5]);
    expect(result.s).toBe(10);
    expect(result.pIncreasing).toBeCloseTo(1 / 120, 12);
    expect(result.pTwoSided).toBeCloseTo(2 / 120, 12);
  });
  it('[1,3,2,4]: one inversion; Mahonian counts for n=4 are 1,3,5,6,5,3,1, so P(≤1) = 4/24', () => {
    expect(Array.from(inversionDistribution(4), (p) => Math.round(p * 24))).toEqual([1, 3, 5, 6, 5, 3, 1]);
    const result = mannKendall([1, 3, 2, 4]);
    expect(result.s).toBe(4);
    expect(result.pIncreasing).toBeCloseTo(4 / 24, 12);
  });
  it('exact, n = 10: matches scipy kendalltau(method="exact") two-sided 0.0466225750', () => {
    expect(mannKendall([5, 1, 4, 2, 3, 9, 7, 8, 6, 10]).pTwoSided).toBeCloseTo(0.046622575, 8);
  });
  it('with ties: normal approximation with the tie-corrected variance (S = 59, var = 207 by the textbook formula)', () => {
    const result = mannKendall([1, 2, 2, 3, 3, 3, 5, 4, 6, 7, 7, 8]);
    expect(result.method).toBe('normal');
    expect(result.s).toBe(59);
    expect(result.pIncreasing).toBeCloseTo(1 - normalCdf(58 / Math.sqrt(207)), 10);
    expect(result.pIncreasing).toBeCloseTo(2.7737e-5, 8);
  });
  it('Theil-Sen: median of the 10 pairwise slopes of [1,3,2,5,4] is 0.875 (scipy theilslopes)', () => {
    expect(theilSenSlope([1, 3, 2, 5, 4])).toBeCloseTo(0.875, 12);
  });
});

describe('multiple-comparison corrections', () => {
  // By hand: sorted p = .005,.01,.03,.04 (m = 4).
  // Holm: 4·.005=.02, 3·.01=.03, 2·.03=.06, 1·.04=.04 → running max .02,.03,.06,.06.
  // BH: 4/1·.005=.02, 4/2·.01=.02, 4/3·.03=.04, 4/4·.04=.04 → running min from the top: .02,.02,.04,.04.
  const p = [0.01, 0.04, 0.03, 0.005];
  it('Holm', () => {
    holmAdjust(p).forEach((v, i) => expect(v).toBeCloseTo([0.03, 0.06, 0.06, 0.02][i]!, 12));
  });
  it('Benjamini-Hochberg', () => {
    benjaminiHochbergAdjust(p).forEach((v, i) => expect(v).toBeCloseTo([0.02, 0.04, 0.04, 0.02][i]!, 12));
    expect(adjustPValues([0.5], 'bh')).toEqual([0.5]);
    // Holm on [.9, .8]: 2·.8 caps at 1, then max(1, .9) = 1.
    expect(adjustPValues([0.9, 0.8], 'holm')).toEqual([1, 1]);
    expect(adjustPValues([0.9, 0.8], 'bh')).toEqual([0.9, 0.9]);
  });
});

describe('bootstrapMedianRatioCI', () => {
  it('matches the analytic bootstrap distribution of a median of 3', () => {
    // Resampling {1,2,3} three times, the median is 1 with P = 7/27, 2 with 13/27, 3 with 7/27,
    // so against a constant baseline the 5th/95th percentiles are 1 and 3, the 30th/70th both 2.
    const random = mulberry32(7);
    const wide = bootstrapMedianRatioCI([1, 2, 3], [1, 1, 1], { level: 0.9, resamples: 4000, random });
    expect([wide.ratio, wide.low, wide.high]).toEqual([2, 1, 3]);
    const narrow = bootstrapMedianRatioCI([1, 2, 3], [1, 1, 1], { level: 0.4, resamples: 4000, random });
    expect([narrow.low, narrow.high]).toEqual([2, 2]);
  });
  it('gives a stricter interval from the same resamples', () => {
    const options = { level: 0.9, resamples: 2000, random: mulberry32(5), strictLevel: 0.98 };
    const interval = bootstrapMedianRatioCI([95, 97, 94, 96.5, 93], [100, 101, 99, 100.5, 98], options);
    const plain = bootstrapMedianRatioCI([95, 97, 94, 96.5, 93], [100, 101, 99, 100.5, 98], { level: 0.9, resamples: 2000, random: mulberry32(5) });
    expect([interval.low, interval.high]).toEqual([plain.low, plain.high]);
    expect(interval.strict!.low).toBeLessThan(interval.low);
    expect(interval.strict!.high).toBeGreaterThan(interval.high);
    expect(plain.strict).toBeUndefined();
  });
  it('is deterministic for a seed and excludes 1 for well separated samples', () => {
    const a = bootstrapMedianRatioCI([95, 96, 94, 95.5], [100, 101, 99, 100.5], { level: 0.9, resamples: 1000, random: mulberry32(seedFor(1, 'decode_tok_s')) });
    const b = bootstrapMedianRatioCI([95, 96, 94, 95.5], [100, 101, 99, 100.5], { level: 0.9, resamples: 1000, random: mulberry32(seedFor(1, 'decode_tok_s')) });
    expect(a).toEqual(b);
    expect(a.high).toBeLessThan(1);
    expect(a.low).toBeLessThanOrEqual(a.ratio);
    expect(a.ratio).toBeCloseTo(95.25 / 100.25, 12);
    expect(seedFor(1, 'decode_tok_s')).not.toBe(seedFor(1, 'tpot_ms'));
  });
  it('mulberry32 is uniform enough: mean of 10,000 draws within 0.01 of 0.5', () => {
    const random = mulberry32(123);
    let sum = 0;
    for (let i = 0; i < 10000; i += 1) sum += random();
    expect(Math.abs(sum / 10000 - 0.5)).toBeLessThan(0.01);
  });
});

describe('dropWarmupOutliers on the real H200 runs', () => {
  const runs = [...noise('noise_healthy.jsonl'), ...noise('noise_unfused.jsonl')];
  it('drops the slow first run of every one of the 9 processes, and nothing else', () => {
    for (const samples of runs) {
      const result = dropWarmupOutliers(samples, 'higher');
      expect(result.dropped).toEqual([samples[0]]);
      expect(result.kept).toHaveLength(14);
    }
  });
  it('drops the first 5 runs down to the same outcome', () => {
    const result = dropWarmupOutliers(runs[0]!.slice(0, 5), 'higher');
    expect(result.dropped).toHaveLength(1);
  });
  it('keeps a fast first sample, a small wobble, and samples needed for the minimum', () => {
    expect(dropWarmupOutliers([110, 100, 100.1, 99.9], 'higher').dropped).toEqual([]);
    // 0.6% slow is 5+ MADs out here but below the 1% relative minimum.
    expect(dropWarmupOutliers([99.4, 100, 100.01, 99.99, 100.02], 'higher').dropped).toEqual([]);
    expect(dropWarmupOutliers([80, 100, 100.1], 'higher').dropped).toEqual([]);
    // For latency (lower is better) the slow warm-up sample is the high one.
    expect(dropWarmupOutliers([12, 10, 10.02, 9.98, 10.01], 'lower').dropped).toEqual([12]);
    expect(dropWarmupOutliers([8, 10, 10.02, 9.98, 10.01], 'lower').dropped).toEqual([]);
  });
  it('drops two leading slow samples at most', () => {
    expect(dropWarmupOutliers([80, 90, 95, 100, 100.1, 99.9, 100], 'higher').dropped).toEqual([80, 90]);
  });
});

describe('detectDrift', () => {
  const unfused = noise('noise_unfused.jsonl');
  const healthy = noise('noise_healthy.jsonl');
  it('flags the upward drift of the unfused H200 processes (+1.4-1.5% across 14 runs by Theil-Sen)', () => {
    for (const samples of unfused) {
      const result = detectDrift(samples.slice(1), { alpha: 0.01, minChange: 0.01 });
      expect(result.drift).toBe(true);
      expect(result.change).toBeGreaterThan(0.014);
      expect(result.change).toBeLessThan(0.016);
    }
  });
  it('leaves the flat healthy processes alone', () => {
    for (const samples of healthy) expect(detectDrift(samples.slice(1), { alpha: 0.01, minChange: 0.01 }).drift).toBe(false);
  });
  it('needs both significance and size', () => {
    expect(detectDrift([100, 100.01, 100.02, 100.03, 100.04, 100.05, 100.06], { alpha: 0.01, minChange: 0.01 }).drift).toBe(false);
    expect(detectDrift([100, 101, 102, 103, 104, 105, 106], { alpha: 0.01, minChange: 0.01 }).drift).toBe(true);
    expect(detectDrift([100, 103, 101], { alpha: 0.01, minChange: 0.01 }).drift).toBe(false);
  });
});

describe('Student t', () => {
  it('the t tail in closed form: df 1 is Cauchy, df 2 is 0.5·(1 − t/√(t²+2))', () => {
    expect(studentTUpperTail(1, 1)).toBeCloseTo(0.25, 10);
    expect(studentTUpperTail(30, 1)).toBeCloseTo(0.5 - Math.atan(30) / Math.PI, 10);
    expect(studentTUpperTail(2, 2)).toBeCloseTo(0.5 * (1 - 2 / Math.sqrt(6)), 10);
    expect(studentTUpperTail(-2, 2)).toBeCloseTo(1 - 0.5 * (1 - 2 / Math.sqrt(6)), 10);
    expect(studentTUpperTail(0, 7)).toBeCloseTo(0.5, 12);
  });

  it('matches the t table (t₀.₀₅,₅ = 2.015048, t₀.₀₁,₁₀ = 2.763769) and the normal for large df', () => {
    expect(studentTUpperTail(2.015048, 5)).toBeCloseTo(0.05, 6);
    expect(studentTUpperTail(2.763769, 10)).toBeCloseTo(0.01, 6);
    expect(studentTUpperTail(1.959964, 1e7)).toBeCloseTo(0.025, 6);
    // I_x(a, b) at a symmetric point is ½.
    expect(regularizedIncompleteBeta(0.5, 3.5, 3.5)).toBeCloseTo(0.5, 12);
  });

  it('pooled t on [1,2,3] vs [4,5,6]: t = −3.674, df = 4 (scipy ttest_ind two-sided p 0.02131)', () => {
    const result = pooledTTest([1, 2, 3], [4, 5, 6]);
    expect(result.t).toBeCloseTo(-3 / Math.sqrt(2 / 3), 10);
    expect(result.df).toBe(4);
    expect(2 * result.pLess).toBeCloseTo(0.021311641128756, 8);
    expect(result.pGreater).toBeCloseTo(1 - result.pLess, 12);
  });

  it('one run against three: the spread comes from the three (sd 1, t = −2/√(4/3), 2 df)', () => {
    const result = pooledTTest([1], [2, 3, 4]);
    expect(result.df).toBe(2);
    expect(result.t).toBeCloseTo(-2 / Math.sqrt(4 / 3), 10);
    expect(result.pLess).toBeCloseTo(0.5 * (1 - Math.sqrt(3) / Math.sqrt(5)), 10);
  });

  it('a floor on the sd keeps two tied runs from making a difference certain', () => {
    // Without the floor the sd is 0 and the difference is certain; with 0.2% of 358 it is t = 29.9 on 2 df.
    expect(pooledTTest([336.6, 336.6], [358.0, 358.0]).pLess).toBe(0);
    const floored = pooledTTest([336.6, 336.6], [358.0, 358.0], 0.716);
    expect(floored.t).toBeCloseTo(-21.4 / 0.716, 6);
    expect(floored.df).toBe(2);
    expect(floored.pLess).toBeCloseTo(0.5 * (1 - floored.t / -Math.sqrt(floored.t ** 2 + 2)), 10);
    expect(() => pooledTTest([1], [2])).toThrow(RangeError);
    expect(() => pooledTTest([], [2, 3])).toThrow(RangeError);
  });
});
