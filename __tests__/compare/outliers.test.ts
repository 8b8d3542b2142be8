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

  it('two slow runs far apart against the cluster\'s own spread are two stalls, not a mode', () => {
    // Measured in bench/gate-sim.mjs (stalls): the cluster sits within ±0.3% (robust sd 0.2%, its
    // floor), the two slow runs −13% and −11% lie 2.5% apart: 12 cluster sd. The side's MAD with
    // both far runs in it is the cluster's range (0.57%), which made them one "state" before.
    const runs = [1.0045, 1.0031, 0.9988, 0.8694, 0.8939];
    expect(findSlowOutliers(runs, 'higher').outliers).toEqual([3, 4]);
    // Neighbours: 0.2% apart is as close as the cluster's runs, a populated second state.
    expect(findSlowOutliers([1.0045, 1.0031, 0.9988, 0.8694, 0.8714], 'higher').outliers).toEqual([]);
    // The same pair beside a cluster wide enough to hold them (±1.2%): one state again.
    expect(findSlowOutliers([1.012, 0.988, 1.0, 0.80, 0.825], 'higher').outliers).toEqual([]);
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
    expect(comparison!.reasons.filter((r) => r.includes('left out'))).toEqual([
      expect.stringMatching(/^decode_tok_s, tpot_ms: left out baseline run 3: −6\.2%, an outlier against ±0\.2% for the rest \(ranked as censored: it would have run at least that fast\)$/),
    ]);
  });

  it('without the outlier rule the stall holds the verdict back (the overlap check) and the metric is undecided', () => {
    const { verdict, comparison } = compare(side(cur), side(base), { dropWarmup: false, dropOutliers: false });
    expect(row(comparison!.rows, 'decode_tok_s').note).toMatch(/the sides overlap: 1 of 6 baseline runs are as low/);
    expect(verdict).toBe('warn');
    expect(comparison!.undecided).toEqual(['decode_tok_s', 'tpot_ms']);
  });
});

describe('compare with stalls on both sides (5 runs each, a 6% drop)', () => {
  // From bench/gate-sim.mjs (stalls, 5 per side): two baseline stalls and one current stall leave
  // 3 vs 4 runs, whose exact Mann-Whitney p is at best 1/35 = 0.029; Benjamini-Hochberg over four
  // metrics with two moving needs 0.025, so the gate warned. Counting the stalls as censored runs
  // (Gehan's test) gives 6/252 = 0.024, and the drop fails.
  const base = [358.2, 313.9, 357.4, 288.5, 358.9];
  const cur = [336.5, 336.9, 284.1, 336.2, 337.0];
  function fourMetrics(tokS: readonly number[], prefill: readonly number[]): GateInput {
    const input = side(tokS);
    const median = (v: readonly number[]) => [...v].sort((a, b) => a - b)[v.length >> 1]!;
    return {
      ...input,
      metrics: [
        ...input.metrics,
        { name: 'prefill_tok_s', unit: 'tok/s', direction: 'higher', samples: prefill, value: median(prefill) },
        { name: 'ttft_ms', unit: 'ms', direction: 'lower', samples: prefill.map((v) => 360000 / v), value: 360000 / median(prefill) },
      ],
    };
  }
  // Prefill and TTFT unchanged (the same level, jitter only): their p-values are far from small.
  const prefillBase = [9012, 8985, 9003, 8991, 9020];
  const prefillCur = [9008, 8996, 9015, 8979, 9001];

  it('fails, with the stalls named and counted as censored in the test', () => {
    const { verdict, comparison } = compare(fourMetrics(cur, prefillCur), fourMetrics(base, prefillBase), { dropWarmup: false });
    const decode = row(comparison!.rows, 'decode_tok_s');
    expect(decode.samples).toEqual([3, 4]);
    expect(decode.pValue).toBeCloseTo((6 / 252) * 2, 6);
    expect(decode.status).toBe('fail');
    expect(verdict).toBe('fail');
    expect(decode.note).toMatch(/left out baseline run 2: −12\.\d%, baseline run 4: −19\.\d%, outliers against ±0\.\d% for the rest \(ranked as censored: each would have run at least that fast\)/);
    expect(decode.note).toMatch(/left out current run 3: −15\.\d%, an outlier/);
    expect(comparison!.reasons[0]).toMatch(/3 vs 4 samples \(and 3 stalled runs ranked as censored\)/);
  });

  it('the same runs without their stalls (3 vs 4, nothing censored) only warn: the exact test\'s floor', () => {
    const kept = (v: readonly number[], drop: number[]) => v.filter((_, i) => !drop.includes(i));
    const { verdict, comparison } = compare(fourMetrics(kept(cur, [2]), kept(prefillCur, [4])), fourMetrics(kept(base, [1, 3]), kept(prefillBase, [3, 4])), { dropWarmup: false });
    const decode = row(comparison!.rows, 'decode_tok_s');
    expect(decode.samples).toEqual([3, 4]);
    expect(decode.pValue).toBeCloseTo((1 / 35) * 2, 6);
    expect(decode.status).toBe('warn');
    expect(verdict).toBe('warn');
  });

  it('two baseline runs in one slow state at the current\'s level are a mode: kept, and the drop is not significant', () => {
    const twoStates = [358.2, 336.1, 357.4, 336.4, 358.9];
    const { verdict, comparison } = compare(fourMetrics(cur.map((v, i) => (i === 2 ? 336.6 : v)), prefillCur), fourMetrics(twoStates, prefillBase), { dropWarmup: false });
    const decode = row(comparison!.rows, 'decode_tok_s');
    expect(decode.samples).toEqual([5, 5]);
    expect(decode.note).not.toMatch(/left out/);
    expect(decode.note).toBe('beyond the 3% floor but not significant');
    expect(verdict).toBe('warn');
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
