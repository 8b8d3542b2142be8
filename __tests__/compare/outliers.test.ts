import { compare, type GateInput } from '../../src/compare/gate.js';
import { alphaAtLook, alphaSpent, lookSchedule } from '../../src/compare/sequential.js';
import { findSlowOutliers } from '../../src/compare/statistics.js';
import type { ComparisonRow } from '../../src/model/report.js';

describe('findSlowOutliers', () => {
  it('leaves out a lone stalled run (−15% against ±0.3%)', () => {
    const runs = [358.2, 357.4, 304.5, 358.9, 357.8];
    const found = findSlowOutliers(runs, 'higher');
    expect(found.outliers).toEqual([2]);
    expect(found.kept).toEqual([358.2, 357.4, 358.9, 357.8]);
    // 304.5 / 358.0 − 1 = −14.9%; the rest sit within 0.21% of their median 358.0.
    expect(found.restSpread).toBeCloseTo(0.9 / 358.0, 4);
  });

  it('for a lower-is-better metric a stall is a high value, and a fast run is never left out', () => {
    expect(findSlowOutliers([2.80, 2.79, 3.30, 2.81, 2.80], 'lower').outliers).toEqual([2]);
    expect(findSlowOutliers([358, 357.5, 400, 358.4, 357.9], 'higher').outliers).toEqual([]);
  });

  it('keeps two slow runs in one state: a populated mode, not stalls', () => {
    // 5% below, 0.1% apart: as close as the cluster's own runs.
    expect(findSlowOutliers([400.2, 380.1, 399.6, 380.4, 400.5], 'higher').outliers).toEqual([]);
    // Two stalls far apart from each other are both left out (a minority, 3 kept).
    expect(findSlowOutliers([400.2, 340.1, 399.6, 320.4, 400.5], 'higher').outliers).toEqual([1, 3]);
  });

  it('keeps a lone slow run whose level the other side shows beside this side\'s level', () => {
    const base = [400.2, 399.6, 400.5, 399.9, 380.4];
    expect(findSlowOutliers(base, 'higher').outliers).toEqual([4]);
    expect(findSlowOutliers(base, 'higher', undefined, { other: [379.7, 380.1, 380.2, 379.9, 399.5] }).outliers).toEqual([]);
    // A regressed side at that level only (no run at the base level) does not make it a mode.
    expect(findSlowOutliers(base, 'higher', undefined, { other: [379.7, 380.1, 380.2, 379.9, 380.0] }).outliers).toEqual([4]);
  });

  it('a slow run beside the run the warm-up rule dropped is a mode: the two rules never strip one', () => {
    // Two clock states 2% apart; the first run (slow state) went as warm-up, the fourth is its twin.
    const afterWarmup = [336.6, 336.5, 329.4, 336.6];
    expect(findSlowOutliers(afterWarmup, 'higher').outliers).toEqual([2]);
    expect(findSlowOutliers(afterWarmup, 'higher', undefined, { dropped: [329.1] }).outliers).toEqual([]);
  });

  it('never leaves fewer than minKeep runs, nor a run within 1% of the median', () => {
    expect(findSlowOutliers([358, 300, 358.5], 'higher').outliers).toEqual([]);
    expect(findSlowOutliers([358, 300, 358.5, 358.2], 'higher').outliers).toEqual([1]);
    // 0.8% slow with a cluster of ±0.05%: beyond 5 robust sd, but under the 1% minimum.
    expect(findSlowOutliers([358.0, 355.1, 358.1, 357.9, 358.05], 'higher').outliers).toEqual([]);
  });
});

function side(tokS: readonly number[]): GateInput {
  const median = (v: readonly number[]) => [...v].sort((a, b) => a - b)[v.length >> 1]!;
  return {
    metrics: [
      { name: 'decode_tok_s', unit: 'tok/s', direction: 'higher', samples: tokS, value: median(tokS) },
      { name: 'tpot_ms', unit: 'ms', direction: 'lower', samples: tokS.map((v) => 1000 / v), value: 1000 / median(tokS) },
    ],
    kernels: [],
    families: [],
    findings: [],
    utilization: { throttleReasons: [] },
    environment: { gpuName: 'NVIDIA H200' },
  };
}
const row = (rows: readonly ComparisonRow[], metric: string) => rows.find((r) => r.metric === metric)!;

describe('compare with a stalled run', () => {
  // A 6% drop; the baseline's third run stalled down to the current's level (336.0 / 358.2 − 1 = −6.2%).
  const base = [358.2, 357.4, 336.0, 358.9, 357.8, 358.4];
  const cur = [336.5, 337.1, 336.8, 337.4, 336.2, 336.9];

  it('fails, and names the run it left out', () => {
    const { verdict, comparison } = compare(side(cur), side(base), { dropWarmup: false });
    const decode = row(comparison!.rows, 'decode_tok_s');
    expect(decode.status).toBe('fail');
    expect(decode.samples).toEqual([5, 6]);
    expect(decode.note).toMatch(/left out baseline run 3: −6\.2%, an outlier against ±0\.2% for the rest/);
    expect(verdict).toBe('fail');
    expect(comparison!.undecided).toEqual([]);
    // The reasons (what the comment shows) name it once for the two metrics of the same runs.
    expect(comparison!.reasons.filter((r) => r.includes('left out'))).toEqual([expect.stringMatching(/^decode_tok_s, tpot_ms: left out baseline run 3: −6\.2%, an outlier against ±0\.2% for the rest$/)]);
  });

  it('without the outlier rule the stall holds the verdict back (the overlap check) and the metric is undecided', () => {
    const { verdict, comparison } = compare(side(cur), side(base), { dropWarmup: false, dropOutliers: false });
    expect(row(comparison!.rows, 'decode_tok_s').note).toMatch(/the sides overlap: 1 of 6 baseline runs are as low/);
    expect(verdict).toBe('warn');
    expect(comparison!.undecided).toEqual(['decode_tok_s', 'tpot_ms']);
  });
});

describe('alpha spending over the looks', () => {
  it('schedules one ABBA pair (2 runs per side) per extra look, ending at the maximum', () => {
    expect(lookSchedule(5, 15)).toEqual([5, 7, 9, 11, 13, 15]);
    expect(lookSchedule(5, 10)).toEqual([5, 7, 9, 10]);
    expect(lookSchedule(5, 5)).toEqual([5]);
  });

  it('spends 80% at the planned look and the rest in equal parts, adding up to alpha', () => {
    expect(alphaAtLook(0.05, 1, 1)).toBe(0.05);
    expect(alphaAtLook(0.05, 1, 6)).toBeCloseTo(0.04, 12);
    expect(alphaAtLook(0.05, 4, 6)).toBeCloseTo(0.002, 12);
    expect(alphaSpent(0.05, 6, 6)).toBeCloseTo(0.05, 12);
    expect(alphaSpent(0.05, 3, 6)).toBeCloseTo(0.044, 12);
  });

  it('a later look tests at its share: p = 1/70 fails at the first look of six, not at the second', () => {
    // 4 vs 4 fully apart: exact one-sided p = 1/70 = 0.0143; BH over the two metrics keeps it at 0.0143.
    const base = [358.2, 357.4, 358.9, 357.8];
    const cur = [336.5, 337.1, 336.8, 337.4];
    const first = compare(side(cur), side(base), { dropWarmup: false, look: { index: 1, of: 6 } });
    expect(first.verdict).toBe('fail');
    expect(first.comparison!.look).toMatchObject({ index: 1, of: 6 });
    expect(first.comparison!.look!.alpha).toBeCloseTo(0.04, 12);
    const second = compare(side(cur), side(base), { dropWarmup: false, look: { index: 2, of: 6 } });
    expect(second.verdict).toBe('warn');
    expect(second.comparison!.reasons[0]).toMatch(/at look 2 of 6 \(alpha 0\.002\)/);
  });
});
