import { compare, type GateInput } from '../../src/compare/gate.js';
import { alphaAtLook, alphaSpent, lookSchedule } from '../../src/compare/sequential.js';
import { metricRowNote } from '../../src/report/row-lines.js';
import { groupStalls } from '../../src/compare/metric-rows.js';
import { findSlowOutliers } from '../../src/compare/statistics.js';
import type { ComparisonRow } from '../../src/model/report.js';
import { accountOf, linesOf } from '../helpers/gate-lines.js';

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

  it('two slow runs together are stalls too: a stall only slows a run down, so the fast cluster is the side\'s speed', () => {
    // 5% below, 0.1% apart: a tight pair, yet nothing says the build runs at that level.
    expect(findSlowOutliers([400.2, 380.1, 399.6, 380.4, 400.5], 'higher').outliers).toEqual([1, 3]);
    // Two stalls far apart from each other are both left out too.
    expect(findSlowOutliers([400.2, 340.1, 399.6, 320.4, 400.5], 'higher').outliers).toEqual([1, 3]);
    // The tight pair is a second state when the other side shows that level as well (two runs here,
    // a run there): both sides then carry it, and the overlap check judges it.
    expect(findSlowOutliers([400.2, 380.1, 399.6, 380.4, 400.5], 'higher', undefined, { other: [380.2, 379.9, 380.3, 380.0, 380.1] }).outliers).toEqual([]);
  });

  it('the issue\'s examples: the runs below the fast cluster are stalled, one or several (issue 24)', () => {
    // Base [218.2, 189.3, 216.2, 188.0, 216.7]: the fast cluster 216.2–218.2 (median 216.7,
    // MAD 0.5 → robust sd 0.74, 5 sd = 3.7 tok/s); 189.3 and 188.0 lie 27 tok/s below it.
    const base = findSlowOutliers([218.2, 189.3, 216.2, 188.0, 216.7], 'higher', undefined, { other: [202.5, 203.1, 204.7, 173.5, 204.0] });
    expect(base.outliers).toEqual([1, 3]);
    expect(base.kept).toEqual([218.2, 216.2, 216.7]);
    expect(findSlowOutliers([202.5, 203.1, 204.7, 173.5, 204.0], 'higher').outliers).toEqual([3]);
    // Three of five stalled: the two fast runs are the cluster.
    const three = findSlowOutliers([1.0, 0.85, 0.999, 0.83, 0.88], 'higher');
    expect(three.outliers).toEqual([1, 3, 4]);
    expect(three.kept).toEqual([1.0, 0.999]);
    // Four of five stalled: one fast run is no cluster; nothing is left out.
    expect(findSlowOutliers([1.0, 0.85, 0.87, 0.83, 0.88], 'higher').outliers).toEqual([]);
  });

  it('noise without stalls has no gap below a fast cluster: nothing is left out', () => {
    // About 1% noise (the simulator's lognormal): each run lies within 5 robust sd of the runs above it.
    expect(findSlowOutliers([1.004, 0.991, 1.012, 0.996, 1.001], 'higher').outliers).toEqual([]);
    expect(findSlowOutliers([1.02, 0.99, 1.0, 0.975, 1.01, 0.985], 'higher').outliers).toEqual([]);
  });

  it('keeps a lone slow run whose level the other side shows beside this side\'s level', () => {
    const base = [400.2, 399.6, 400.5, 399.9, 380.4];
    expect(findSlowOutliers(base, 'higher').outliers).toEqual([4]);
    expect(findSlowOutliers(base, 'higher', undefined, { other: [379.7, 380.1, 380.2, 379.9, 399.5] }).outliers).toEqual([]);
    // A regressed side at that level only (no run at the base level) does not make it a mode.
    expect(findSlowOutliers(base, 'higher', undefined, { other: [379.7, 380.1, 380.2, 379.9, 380.0] }).outliers).toEqual([4]);
  });

  it('a slow run after a dropped warm-up run is a stall like any other: only the other side can make a level a state', () => {
    const afterWarmup = [336.6, 336.5, 329.4, 336.6];
    expect(findSlowOutliers(afterWarmup, 'higher').outliers).toEqual([2]);
    // The other side shows both levels (329 and 336.5): a second state, kept.
    expect(findSlowOutliers(afterWarmup, 'higher', undefined, { other: [329.2, 336.4, 336.7, 329.5] }).outliers).toEqual([]);
  });

  it('a side of 3 keeps every run, and a run within 1% of the cluster is no stall', () => {
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

  it('fails, and names the run it left out and the current\'s slowest run, left out so that neither side is favoured', () => {
    const gated = compare(side(cur), side(base), { dropWarmup: false });
    const { verdict, comparison } = gated;
    const decode = row(comparison!.rows, 'decode_tok_s');
    expect(decode.status).toBe('fail');
    // One run of each side: the baseline's stall, and the current's slowest (336.2, run 5).
    expect(decode.samples).toEqual([5, 5]);
    expect(decode.leftOut).toEqual([1, 1]);
    expect(metricRowNote(decode)).toMatch(/left out baseline run 3: −6\.2% as stalled, beside 5 runs within ±0\.2% \(a stall only slows a run down\)/);
    // 336.2 / median(336.5, 337.1, 336.8, 337.4, 336.9) − 1 = −0.21%.
    expect(metricRowNote(decode)).toMatch(/left out current run 5: −0\.2% \(its slowest\) to leave out as many runs of each side as the other/);
    expect(verdict).toBe('fail');
    expect(comparison!.undecided).toEqual([]);
    // The reasons (what the comment shows) name it once for the two metrics of the same runs.
    expect(accountOf(gated).filter((r) => r.includes(': left out'))).toEqual([
      expect.stringMatching(/^decode_tok_s, tpot_ms: left out baseline run 3: −6\.2% as stalled, beside 5 runs within ±0\.2% \(a stall only slows a run down\); left out current run 5: /),
    ]);
  });

  it('without the outlier rule one slow baseline run at the current\'s level is no second state, but it stays in the interval', () => {
    const gated = compare(side(cur), side(base), { dropWarmup: false, dropOutliers: false });
    const { verdict, comparison } = gated;
    const decode = row(comparison!.rows, 'decode_tok_s');
    expect(metricRowNote(decode) ?? '').not.toMatch(/overlap/);
    // A resample of the six baseline runs holding the stalled one three times has a median of
    // (336.0 + 357.8) / 2, 2.9% above the current's: kept in the median, the stall lets the
    // interval reach inside the floor, so the regression is not shown (with the rule it fails, above).
    expect(decode.ci![1]).toBeGreaterThan(-0.03);
    expect(decode.insufficient!.why).toBe('interval-reaches-inside-floor');
    expect(verdict).toBe('insufficient-data');
    // Two of five at that level are a state: not a fail, undecided.
    const twoStates = [358.2, 357.4, 336.0, 358.9, 336.4];
    expect(compare(side(cur.slice(0, 5)), side(twoStates), { dropWarmup: false, dropOutliers: false }).verdict).toBe('insufficient-data');
  });
});

describe('compare with stalls on both sides (5 runs each, a 6% drop)', () => {
  // From bench/gate-sim.mjs (stalls, 5 per side): two baseline stalls and one current stall leave
  // 3 vs 4 runs, whose exact Mann-Whitney p is at best 1/35 = 0.029; Benjamini-Hochberg over four
  // metrics with two moving needs 0.025, so the gate warned. The fast clusters (358 ± 0.2% against
  // 336.6 ± 0.1%) are compared by Student's t instead: the gap is 40 cluster sd.
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

  it('fails, with the stalls named and as many runs of each side left out', () => {
    const gated = compare(fourMetrics(cur, prefillCur), fourMetrics(base, prefillBase), { dropWarmup: false });
    const { verdict, comparison } = gated;
    const decode = row(comparison!.rows, 'decode_tok_s');
    // Two of each side: the baseline's two stalls; the current's stall and its slowest other run (336.2).
    expect(decode.samples).toEqual([3, 3]);
    // Kept means 358.17 and 336.8, winsorized pooled sd about 0.5 (floored at 0.72) → t ≈ 30 on 4 df.
    expect(decode.pValue!).toBeLessThan(1e-4);
    expect(decode.status).toBe('fail');
    expect(verdict).toBe('fail');
    expect(metricRowNote(decode)).toMatch(/left out baseline run 2: −12\.\d%, baseline run 4: −19\.\d% as stalled, beside 3 runs within ±0\.\d%/);
    expect(metricRowNote(decode)).toMatch(/left out current run 3: −15\.\d%, current run 4: −0\.\d% \(its slowest\) as stalled or, to leave out as many runs of each side, as its slowest, beside 3 runs/);
    expect(accountOf(gated)[0]).toMatch(/3 vs 3 samples kept \(4 slowest runs left out; trimmed t-test\)/);
  });

  it('the same runs without their stalls (3 vs 4, nothing left out) are undecided: the exact test\'s floor', () => {
    const kept = (v: readonly number[], drop: number[]) => v.filter((_, i) => !drop.includes(i));
    const gated = compare(fourMetrics(kept(cur, [2]), kept(prefillCur, [4])), fourMetrics(kept(base, [1, 3]), kept(prefillBase, [3, 4])), { dropWarmup: false });
    const { verdict, comparison } = gated;
    const decode = row(comparison!.rows, 'decode_tok_s');
    expect(decode.samples).toEqual([3, 4]);
    expect(decode.pValue).toBeCloseTo((1 / 35) * 2, 6);
    expect(decode.status).toBe('insufficient-data');
    expect(decode.insufficient!.why).toBe('not-significant');
    expect(verdict).toBe('insufficient-data');
  });

  it('two baseline runs in one slow state at the current\'s level are a mode: kept, and the drop is not significant', () => {
    const twoStates = [358.2, 336.1, 357.4, 336.4, 358.9];
    const gated = compare(fourMetrics(cur.map((v, i) => (i === 2 ? 336.6 : v)), prefillCur), fourMetrics(twoStates, prefillBase), { dropWarmup: false });
    const { verdict, comparison } = gated;
    const decode = row(comparison!.rows, 'decode_tok_s');
    expect(decode.samples).toEqual([5, 5]);
    expect(metricRowNote(decode)).not.toMatch(/left out/);
    expect(metricRowNote(decode)).toBe('beyond the 3% floor but not significant');
    expect(verdict).toBe('insufficient-data');
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
    expect(second.verdict).toBe('insufficient-data');
    expect(accountOf(second)[0]).toMatch(/at look 2 of 6 \(alpha 0\.002\)/);
  });
});

describe('issue 24: a 6% drop against a stored baseline with stalls on both sides', () => {
  // The two pairs of the issue, each read by an engineer as −6%: stalls only slow a run down, and
  // the fast clusters agree within 0.5% (base 216.0–217.6 and 216.2–218.2; head 203.7–205.7 and
  // 202.5–204.7). Both were WARN before the fast clusters were compared.
  const examples = [
    { base: [216.0, 217.2, 180.9, 217.6, 178.6], head: [179.8, 205.5, 205.7, 203.7, 204.1] },
    { base: [218.2, 189.3, 216.2, 188.0, 216.7], head: [202.5, 203.1, 204.7, 173.5, 204.0] },
  ];

  it.each(examples)('base $base vs head $head fails, on the fast clusters', ({ base, head }) => {
    const gated = compare(side(head), side(base));
    const { verdict, comparison } = gated;
    const reasons = linesOf(gated);
    expect(verdict).toBe('fail');
    const decode = row(comparison!.rows, 'decode_tok_s');
    expect(decode.status).toBe('fail');
    // The medians of the kept runs (3 of each side: 2 stalls or a stall and a warm-up run, and the
    // other side's slowest): 217.2 → 205.5 (−5.4%) and 216.7 → 203.1 (−6.3%).
    expect(decode.delta!).toBeLessThan(-0.053);
    expect(decode.delta!).toBeGreaterThan(-0.065);
    expect(decode.samples).toEqual([3, 3]);
    expect(reasons[0]).toMatch(/^decode_tok_s regressed .* samples kept \(\d slowest runs?( and 1 warm-up run)? left out; trimmed t-test\)\), beyond the 3% floor$/);
  });

  it.each(examples)('at an A/B look that can add runs, the same drop adds runs before it fails: a fail on 3 kept runs a side is not shown ($base)', ({ base, head }) => {
    const first = compare(side(head), side(base), { look: { index: 1, of: 6 } });
    const decode = row(first.comparison!.rows, 'decode_tok_s');
    expect(decode.samples).toEqual([3, 3]);
    expect(decode.status).toBe('insufficient-data');
    expect(decode.insufficient).toMatchObject({ why: 'too-few-kept', addsRuns: true });
    // 5 kept runs a side: a 90% interval of a median from order statistics needs 5.
    expect(decode.reading).toMatchObject({ outcome: 'too-few-kept', keptNeeded: 5, keptFor: 'fail' });
    expect(metricRowNote(decode)).toMatch(/a fail rests on the runs kept \(3 baseline, 3 current\), fewer than the 5 a 90% interval of a median needs/);
    expect(first.comparison!.undecided).toContain('decode_tok_s');
    // The last look fails on the runs it has, as a single comparison does.
    expect(compare(side(head), side(base), { look: { index: 6, of: 6, final: true } }).verdict).toBe('fail');
    // A change deeper than any run left out as stalled (about −17%) is not what slowed them: a head
    // three times slower fails at the first look.
    const third = head.map((v) => Number((v / 3).toFixed(1)));
    const deep = compare(side(third), side(base), { look: { index: 1, of: 6 } });
    expect(row(deep.comparison!.rows, 'decode_tok_s').status).toBe('fail');
  });

  it.each(examples)('A/A: the same base against its own shape at the base level passes ($base)', ({ base, head }) => {
    // The head's runs moved up to the base's level (×1.06): the same stall pattern, no change in code.
    const level = head.map((v) => Number((v * 1.0607).toFixed(1)));
    const gated = compare(side(level), side(base));
    const { verdict, comparison } = gated;
    expect(row(comparison!.rows, 'decode_tok_s').status).toBe('pass');
    expect(verdict).toBe('pass');
  });

  it.each(examples)('at an A/B look that can add runs, the same A/A adds runs instead: a pass on 3 kept runs a side is not shown ($base)', ({ base, head }) => {
    const level = head.map((v) => Number((v * 1.0607).toFixed(1)));
    const first = compare(side(level), side(base), { look: { index: 1, of: 6 } });
    const decode = row(first.comparison!.rows, 'decode_tok_s');
    expect(decode.samples).toEqual([3, 3]);
    expect(decode.status).toBe('insufficient-data');
    expect(decode.insufficient).toMatchObject({ why: 'too-few-kept', addsRuns: true });
    // 6 kept runs a side: a 95% interval of a median from order statistics needs 6.
    expect(decode.reading).toMatchObject({ outcome: 'too-few-kept', keptNeeded: 6 });
    // At least the 3 kept runs it lacks more than the runs it read (4 on the side that dropped a warm-up run).
    expect(decode.insufficient!.runsPerSide).toBeGreaterThanOrEqual(7);
    expect(metricRowNote(decode)).toMatch(/a pass rests on the runs kept \(3 baseline, 3 current\), fewer than the 6 a 95% interval of a median needs/);
    expect(first.comparison!.undecided).toContain('decode_tok_s');
    // The last look decides from the runs it has, as a single comparison does.
    expect(compare(side(level), side(base), { look: { index: 6, of: 6, final: true } }).verdict).toBe('pass');
  });

  it('A/A with two stalled runs of five on each side passes; with three of five on a side it says it cannot decide, never fails', () => {
    const base = [358.2, 301.0, 357.9, 309.6, 358.4];
    expect(compare(side([358.0, 290.1, 358.6, 296.3, 357.7]), side(base)).verdict).toBe('pass');
    // Three of five is more than a stall's share (40%): two are left out, the third stays. On the
    // current side it widens the interval past the floor on the worse side: undecided.
    const head = [290.1, 358.0, 312.7, 358.6, 296.3];
    const noisyHead = compare(side(head), side(base));
    expect(noisyHead.verdict).toBe('insufficient-data');
    expect(row(noisyHead.comparison!.rows, 'decode_tok_s').samples).toEqual([3, 3]);
    expect(metricRowNote(row(noisyHead.comparison!.rows, 'decode_tok_s'))).toMatch(/3 current runs lie below its fast cluster, more than a stall's share \(at most 40% of a side\): 1 stayed/);
    // On the baseline side a stall left in can only make the baseline look slower: the interval's
    // worse end is the current's clean runs against the baseline's fastest, inside the floor.
    const noisyBase = compare(side(base), side(head));
    expect(row(noisyBase.comparison!.rows, 'decode_tok_s').ci![0]).toBeGreaterThan(-0.03);
    expect(noisyBase.verdict).toBe('pass');
  });

  it('three stalled runs of five on both sides are more than a stall\'s share: a 6% drop is not passed, and the row says what would decide it', () => {
    const base = [358.2, 301.0, 357.9, 309.6, 295.5];
    const head = [290.1, 336.6, 281.7, 336.9, 296.3];
    const gated = compare(side(head), side(base));
    const { verdict, comparison } = gated;
    const decode = row(comparison!.rows, 'decode_tok_s');
    expect(decode.samples).toEqual([3, 3]);
    expect(verdict).not.toBe('pass');
    expect(decode.status).toBe('insufficient-data');
    expect(decode.insufficient!.quieterRunner).toBe(true);
  });
});

describe('the stalled-run notes are grouped by the runs, not by their wording', () => {
  const stalls = (side: 'baseline' | 'current', runs: number[]) => ({ side, runs: runs.map((run) => ({ run, change: -0.062, stall: true })), kept: 4, spread: 0.004, found: runs.length, maxShare: 0.4 });
  it('names metrics that left out the same runs together, whatever their notes say', () => {
    // The second metric's side differs in what is no run number (its spread): still the same run of the same side.
    const lines = groupStalls([
      { name: 'decode_tok_s', sides: [stalls('baseline', [3])] },
      { name: 'tpot_ms', sides: [{ ...stalls('baseline', [3]), spread: 0.02 }] },
      { name: 'ttft_ms', sides: [] },
    ]);
    expect(lines).toEqual([{ kind: 'left-out', metrics: ['decode_tok_s', 'tpot_ms'], sides: [stalls('baseline', [3])] }]);
  });

  it('keeps apart metrics whose notes read alike but left out other runs, or the same numbers of the other side', () => {
    const lines = groupStalls([
      { name: 'decode_tok_s', sides: [stalls('baseline', [3])] },
      { name: 'tpot_ms', sides: [stalls('baseline', [3, 4])] },
      { name: 'ttft_ms', sides: [stalls('current', [3])] },
      { name: 'e2e_ms', sides: [stalls('baseline', [3]), stalls('current', [3])] },
    ]);
    expect(lines.map((l) => l.metrics)).toEqual([['decode_tok_s'], ['tpot_ms'], ['ttft_ms'], ['e2e_ms']]);
  });
});
