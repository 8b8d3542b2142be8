import { readFileSync } from 'node:fs';
import {
  adjustPValues,
  benjaminiHochbergAdjust,
  bootstrapMedianRatioCI,
  detectDrift,
  dropWarmupOutliers,
  gehanWilcoxon,
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
} from '../../src/compare/statistics.js';

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

describe('gehanWilcoxon', () => {
  const runs = (values: readonly number[], censored: readonly number[] = []) => values.map((value, i) => ({ value, censored: censored.includes(i) }));

  /** Gehan's U by its definition, pair by pair, over every split of the pooled runs: independent of the score sums. */
  function bruteForce(x: { value: number; censored: boolean }[], y: { value: number; censored: boolean }[]): { pLess: number; pGreater: number } {
    const certainlyBelow = (a: { value: number; censored: boolean }, b: { value: number; censored: boolean }) => !a.censored && a.value < b.value;
    const u = (xs: typeof x, ys: typeof y) => xs.reduce((sum, a) => sum + ys.reduce((inner, b) => inner + (certainlyBelow(b, a) ? 1 : 0) - (certainlyBelow(a, b) ? 1 : 0), 0), 0);
    const all = [...x, ...y];
    const observed = u(x, y);
    let total = 0;
    let less = 0;
    let greater = 0;
    for (let mask = 0; mask < 1 << all.length; mask += 1) {
      const xs = all.filter((_, i) => mask & (1 << i));
      if (xs.length !== x.length) continue;
      const value = u(xs, all.filter((_, i) => !(mask & (1 << i))));
      total += 1;
      if (value <= observed) less += 1;
      if (value >= observed) greater += 1;
    }
    return { pLess: less / total, pGreater: greater / total };
  }

  it('without censored runs it is the Mann-Whitney test, ties included', () => {
    const x = [1, 2, 2, 3, 4];
    const y = [2, 3, 3, 5, 6, 6];
    const gehan = gehanWilcoxon(runs(x), runs(y));
    expect(gehan.pLess).toBeCloseTo(28 / 462, 12);
    expect(gehan.pGreater).toBeCloseTo(446 / 462, 12);
    expect(gehan.method).toBe('exact');
  });

  it('3 vs 4 runs apart, with three stalled runs censored: 6 of the 252 splits are as extreme, not 1 of 35', () => {
    // Current: 4 runs at 0.94 and a stall; baseline: 3 runs at 1.0 and two stalls. A stall's order
    // is certain against nothing (every other run is above it), so its score is 0; the 7 others
    // score 2r − 8 and the current's four lowest sum to −12. Of the C(10,5) = 252 splits, the
    // current reaches −12 with the 3 lowest clean runs and 2 of the 3 stalls (3 ways) or with the
    // 4 lowest and 1 stall (3 ways): p = 6/252 = 0.0238. The kept runs alone give 1/C(7,3) = 1/35.
    const cur = runs([0.94, 0.941, 0.939, 0.942, 0.8], [4]);
    const base = runs([1.0, 1.002, 0.999, 0.85, 0.88], [3, 4]);
    const result = gehanWilcoxon(cur, base);
    expect(result.statistic).toBe(-12);
    expect(result.pLess).toBeCloseTo(6 / 252, 12);
    expect(result.pGreater).toBe(1);
    expect(bruteForce(cur, base).pLess).toBeCloseTo(6 / 252, 12);
  });

  it('a censored run above another run is certainly above it: the exact tails match the pair-by-pair definition', () => {
    // Censored values in the middle and at the top, and ties between censored and uncensored runs.
    const x = runs([5, 7, 7, 9, 12, 4], [1, 4]);
    const y = runs([6, 7, 8, 10, 3, 11], [0, 2]);
    const exact = gehanWilcoxon(x, y);
    const brute = bruteForce(x, y);
    expect(exact.pLess).toBeCloseTo(brute.pLess, 12);
    expect(exact.pGreater).toBeCloseTo(brute.pGreater, 12);
    // The censored 12 is above every uncensored run of y, so moving it lower changes the statistic.
    expect(gehanWilcoxon(runs([5, 7, 7, 9, 2, 4], [1, 4]), y).statistic).not.toBe(exact.statistic);
  });

  it('the normal approximation (Mantel\'s permutation variance) is close to the exact tails at 20 vs 20', () => {
    const random = mulberry32(7);
    const side = (shift: number) => Array.from({ length: 20 }, (_, i) => ({ value: shift + random(), censored: i % 5 === 0 }));
    const x = side(0);
    const y = side(0.2);
    const exact = gehanWilcoxon(x, y);
    const normal = gehanWilcoxon(x, y, 0);
    expect(exact.method).toBe('exact');
    expect(normal.method).toBe('normal');
    expect(exact.pLess).toBeLessThan(0.2);
    expect(Math.abs(normal.pLess - exact.pLess)).toBeLessThan(0.01);
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
