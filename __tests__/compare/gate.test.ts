import { readFileSync } from 'node:fs';
import { compare, type GateInput, type GateKernel } from '../../src/compare/gate.js';
import { metricRowNote, rowNote } from '../../src/report/row-lines.js';
import { formatMismatch } from '../../src/report/verdict-lines.js';
import { ComparisonSchema, type ComparisonRow, type Report } from '../../src/model/report.js';
import { emptyReport } from '../helpers/empty-report.js';
import type { FamilyId, KernelFamily } from '../../src/model/family-ids.js';
import { accountOf, linesOf } from '../helpers/gate-lines.js';

/** per_run_tok_s of each process: 15 timed runs after warm-up on an H200 (see ../fixtures/h200-noise/PROVENANCE.md). */
function noise(file: string): number[][] {
  return readFileSync(new URL(`../fixtures/h200-noise/${file}`, import.meta.url), 'utf8')
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { per_run_tok_s: number[] }).per_run_tok_s);
}
const healthy = noise('noise_healthy.jsonl');
const unfused = noise('noise_unfused.jsonl');

const ENV = { gpuName: 'NVIDIA H200', driver: '580.159.04', cuda: '13.0', engine: 'torch', engineVersion: '2.11', model: 'llama-2.8b', dtype: 'bfloat16', batch: '1' };

/** One side as `max benchmark`-style metrics: decode tok/s and TPOT (1000 / tok/s) from the same runs. */
function side(tokS: readonly number[], extra: Partial<GateInput> = {}): GateInput {
  const median = (v: readonly number[]) => [...v].sort((a, b) => a - b)[v.length >> 1]!;
  return {
    metrics: [
      { name: 'decode_tok_s', unit: 'tok/s', direction: 'higher', samples: tokS, value: median(tokS) },
      { name: 'tpot_ms', unit: 'ms', direction: 'lower', samples: tokS.map((v) => 1000 / v), value: 1000 / median(tokS) },
      { name: 'output_tokens', unit: 'tokens', direction: 'higher', samples: tokS.map(() => 64), value: 64 },
    ],
    kernels: [],
    families: [],
    findings: [],
    utilization: { throttleReasons: [] },
    environment: ENV,
    ...extra,
  };
}

const row = (rows: readonly ComparisonRow[], metric: string) => rows.find((r) => r.metric === metric)!;

describe('compare on real H200 noise', () => {
  it('A/A (two processes of the healthy decode) passes', () => {
    const gated = compare(side(healthy[1]!), side(healthy[0]!), {});
    const { verdict, comparison } = gated;
    expect(verdict).toBe('pass');
    const decode = row(comparison!.rows, 'decode_tok_s');
    expect(decode.status).toBe('pass');
    // Medians of runs 2-15, computed with Python's statistics.median: 358.4614 → 358.8026 (+0.095%).
    expect(decode.baseline).toBeCloseTo(358.4614109, 5);
    expect(decode.current).toBeCloseTo(358.8026067, 5);
    expect(decode.delta).toBeCloseTo(0.000951834, 8);
    // The 8-13% slow first run of each process is dropped by the warm-up rule and said so.
    expect(decode.samples).toEqual([14, 14]);
    expect(metricRowNote(decode)).toMatch(/dropped the first sample of baseline as warm-up/);
    expect(metricRowNote(decode)).toMatch(/dropped the first sample of current as warm-up/);
    // With warm-up runs left out, the clean runs are compared by Student's t with the sd taken as at
    // least 0.2% (three times the largest within-process sd): the process offset of 0.1% is no news.
    expect(decode.pValue!).toBeGreaterThan(0.05);
    expect(metricRowNote(decode)).not.toMatch(/beyond|real but small/);
    expect(comparison!.rows.some((r) => r.metric === 'output_tokens')).toBe(false);
    expect(accountOf(gated).at(-1)).toMatch(/^no regression: 2 gated metrics within their floors/);
    expect(() => ComparisonSchema.parse(comparison)).not.toThrow();
  });

  it('the same with a synthetic 5% drop fails on decode tok/s and TPOT', () => {
    const gated = compare(side(healthy[1]!.map((v) => v * 0.95)), side(healthy[0]!), {});
    const { verdict, comparison, causes } = gated;
    expect(verdict).toBe('fail');
    // The causes are the failing rows, as data: each the row's key, kind, status and threshold.
    expect(causes).toEqual(comparison!.rows.filter((r) => r.status === 'fail').map((r) => ({ kind: 'row', row: r.metric, rowKind: 'metric', status: 'fail', threshold: r.threshold })));
    expect(causes.map((c) => (c.kind === 'row' ? c.row : c.kind))).toContain('decode_tok_s');
    const decode = row(comparison!.rows, 'decode_tok_s');
    expect(decode.status).toBe('fail');
    // 358.8026·0.95 / 358.4614 − 1 = −4.9096% (Python).
    expect(decode.delta).toBeCloseTo(-0.0490957576, 8);
    expect(decode.ci![1]).toBeLessThan(0);
    expect(decode.threshold).toBe(0.03);
    // 14 vs 14 clean runs 4.9% apart against an sd of at least 0.2%: t ≈ 65 on 26 df.
    expect(decode.pValue!).toBeLessThan(1e-12);
    const tpot = row(comparison!.rows, 'tpot_ms');
    expect(tpot.status).toBe('fail');
    expect(tpot.delta).toBeCloseTo(0.0516306011, 8);
    expect(accountOf(gated)[0]).toMatch(/^decode_tok_s regressed \(358\.5 tok\/s → 340\.9 tok\/s, −4\.9%; 90% CI .*beyond the 3% floor$/);
  });

  it('5 runs per side, warm-up run included, still detect the 5% drop', () => {
    const gated = compare(side(healthy[1]!.slice(0, 5).map((v) => v * 0.95)), side(healthy[0]!.slice(0, 5)), {});
    const { verdict, comparison } = gated;
    expect(verdict).toBe('fail');
    const decode = row(comparison!.rows, 'decode_tok_s');
    expect(decode.samples).toEqual([4, 4]);
    // 4 vs 4 clean runs (the warm-up run of each side left out) by Student's t: far below alpha,
    // where the exact rank test of 4 vs 4 could reach 1/70 = 0.0143 at best.
    expect(decode.pValue!).toBeLessThan(1e-4);
    expect(accountOf(gated)[0]).toMatch(/4 vs 4 samples kept \(2 warm-up runs left out; trimmed t-test\)\), beyond the 3% floor$/);
  });

  it('a 5% improvement is reported as improved and passes', () => {
    const gated = compare(side(healthy[1]!.map((v) => v * 1.05)), side(healthy[0]!), {});
    const { verdict, comparison } = gated;
    expect(verdict).toBe('pass');
    expect(row(comparison!.rows, 'decode_tok_s').status).toBe('improved');
    expect(accountOf(gated)[0]).toMatch(/^decode_tok_s improved/);
  });

  it('2 samples per side give insufficient-data, never a silent pass or fail', () => {
    const gated = compare(side(healthy[1]!.slice(1, 3).map((v) => v * 0.9)), side(healthy[0]!.slice(1, 3)), {});
    const { verdict, comparison } = gated;
    expect(verdict).toBe('insufficient-data');
    const decode = row(comparison!.rows, 'decode_tok_s');
    expect(decode.status).toBe('insufficient-data');
    expect(decode.samples).toEqual([2, 2]);
    expect(decode.pValue).toBeNull();
    expect(accountOf(gated)[0]).toBe('decode_tok_s: 2 baseline and 2 current samples; at least 3 per side are needed');
  });

  it('3 samples with a warm-up run keep the warm-up run (minSamples), and cannot show a pass: a median of 3 may be the slow run', () => {
    const gated = compare(side(healthy[1]!.slice(0, 3)), side(healthy[0]!.slice(0, 3)), {});
    const { comparison } = gated;
    expect(row(comparison!.rows, 'decode_tok_s').samples).toEqual([3, 3]);
    // Each side's first run is 8-13% slow: a resampled median of 3 lands on it, so the interval
    // reaches past the 3% floor and a regression at the floor is not ruled out.
    const decode = row(comparison!.rows, 'decode_tok_s');
    expect(decode.ci![0]).toBeLessThan(-0.03);
    expect(decode.status).toBe('insufficient-data');
    expect(decode.insufficient).toMatchObject({ why: 'interval-reaches-floor', addsRuns: false });
    expect(decode.insufficient!.couldHide).toBeCloseTo(-decode.ci![0], 12);
    expect(metricRowNote(row(comparison!.rows, 'decode_tok_s'))).toMatch(/^the first sample of baseline looks like warm-up but was kept: dropping it would leave fewer than 3/);
  });

  it('a side throttled by a hardware fault makes the verdict invalid unless allowed', () => {
    const throttled = side(healthy[1]!, { utilization: { throttleReasons: ['hw_slowdown'] } });
    const blocked = compare(throttled, side(healthy[0]!), {});
    expect(blocked.verdict).toBe('invalid');
    expect(blocked.causes).toEqual([{ kind: 'invalid', check: 'throttling', throttle: { type: 'fault', side: 'current', reasons: ['hw_slowdown'] } }]);
    expect(accountOf(blocked)[0]).toMatch(/^the current run was throttled \(hw_slowdown: thermal or hardware protection\)/);
    const allowed = compare(throttled, side(healthy[0]!), { allowThrottled: true });
    expect(allowed.verdict).toBe('pass');
    expect(accountOf(allowed)).toContain('the current run was throttled (hw_slowdown: thermal or hardware protection); allowed by --allow-throttled');
    // The power cap with no share to compare against the baseline's: invalid too (throttle.test.ts has the regime).
    expect(compare(side(healthy[1]!, { utilization: { throttleReasons: ['sw_power_cap'] } }), side(healthy[0]!), {}).verdict).toBe('invalid');
    // gpu_idle is not a hardware throttle reason.
    expect(compare(side(healthy[1]!, { utilization: { throttleReasons: ['gpu_idle'] } }), side(healthy[0]!), {}).verdict).toBe('pass');
  });

  it('an environment mismatch makes the verdict invalid unless allowed', () => {
    const other = side(healthy[1]!, { environment: { ...ENV, driver: '570.86.15', dtype: 'float16' } });
    const blocked = compare(other, side(healthy[0]!), {});
    expect(blocked.verdict).toBe('invalid');
    expect(blocked.causes).toEqual([
      {
        kind: 'invalid',
        check: 'environment',
        mismatches: [
          { key: 'driver', baseline: '580.159.04', current: '570.86.15' },
          { key: 'dtype', baseline: 'bfloat16', current: 'float16' },
        ],
      },
    ]);
    expect(linesOf(blocked)[0]).toBe('environment differs (driver: 580.159.04 → 570.86.15; dtype: bfloat16 → float16); compare like with like or allow the keys with --allow-environment-mismatch (action input allow-environment-mismatch)');
    expect(blocked.comparison!.environmentMismatch).toEqual([
      { key: 'driver', baseline: '580.159.04', current: '570.86.15' },
      { key: 'dtype', baseline: 'bfloat16', current: 'float16' },
    ]);
    expect(blocked.comparison!.environmentMismatch.map(formatMismatch)).toEqual(['driver: 580.159.04 → 570.86.15', 'dtype: bfloat16 → float16']);
    expect(compare(other, side(healthy[0]!), { allowEnvironmentMismatch: ['driver'] }).verdict).toBe('invalid');
    const allowed = compare(other, side(healthy[0]!), { allowEnvironmentMismatch: ['driver', 'dtype'] });
    expect(allowed.verdict).toBe('pass');
    expect(allowed.comparison!.environmentMismatch).toHaveLength(2);
    expect(compare(other, side(healthy[0]!), { allowEnvironmentMismatch: true }).verdict).toBe('pass');
  });

  it('drift within a side (the unfused processes, +1.5% over 14 runs) warns', () => {
    const gated = compare(side(unfused[1]!), side(unfused[0]!), {});
    const { verdict, comparison } = gated;
    expect(verdict).toBe('warn');
    const decode = row(comparison!.rows, 'decode_tok_s');
    expect(decode.status).toBe('warn');
    expect(metricRowNote(decode)).toMatch(/drift within baseline: \+1\.[45]% across 14 samples/);
    expect(metricRowNote(decode)).toMatch(/drift within current: \+1\.5% across 14 samples/);
  });

  it('is deterministic for a seed', () => {
    const a = compare(side(healthy[2]!.slice(0, 6)), side(healthy[3]!.slice(0, 6)), { seed: 42 });
    const b = compare(side(healthy[2]!.slice(0, 6)), side(healthy[3]!.slice(0, 6)), { seed: 42 });
    expect(a).toEqual(b);
  });
});

describe('compare: two clock states', () => {
  // Two states 5% apart, as in bench/gate-sim.mjs's bimodal-wide model: the same build, whose medians
  // differ only by which state more runs fell in. The rank test alone calls it significant.
  const fast = [400.2, 399.6, 400.5, 399.9];
  const slow = [379.7, 380.1, 380.2, 379.9];
  const baseRuns = [...fast, 380.4]; // 4 fast, 1 slow: median fast
  const curRuns = [...slow, 399.5]; // 4 slow, 1 fast: median slow

  it('A/A across two states warns with the overlapping runs named, instead of failing', () => {
    const gated = compare(side(curRuns), side(baseRuns), { dropWarmup: false });
    const { verdict, comparison } = gated;
    const decode = row(comparison!.rows, 'decode_tok_s');
    // Medians 399.9 → 380.1 (sorted by hand): −5.0%, past the 3% floor. The current's ranks are
    // 1-4 and 6 of 10: 2 of 252 orderings are as extreme, p = 0.0079, so the rank test alone would fail it.
    expect(decode.delta).toBeCloseTo(380.1 / 399.9 - 1, 8);
    expect(decode.pValue!).toBeCloseTo(2 / 252, 6);
    expect(decode.status).toBe('insufficient-data');
    expect(decode.insufficient!.why).toBe('sides-overlap');
    // The current run at the baseline's level is what holds it back: a run is never made faster, so
    // the build can run that fast. One baseline run of five at the current's level alone would be a
    // slowed run, not a state (a third of the side or more is).
    expect(metricRowNote(decode)).toMatch(/the sides overlap: 1 of 5 current runs are as high as the baseline median 399\.9/);
    expect(metricRowNote(decode)).not.toMatch(/baseline runs are as low/);
    expect(verdict).toBe('insufficient-data');
    expect(accountOf(gated).join("\n")).toMatch(/decode_tok_s looks worse .*the sides overlap.*(more runs per side .*or pinned clocks|a quieter runner .* or pinned clocks) would decide it/);
    // The same samples without the check: the rank test and the floor would fail it, but a median
    // of five that moves with the state a run fell in gives an interval that reaches inside the
    // floor (a resample holding three fast runs is as fast as the baseline), so no regression at
    // the floor is shown either.
    const unchecked = row(compare(side(curRuns), side(baseRuns), { dropWarmup: false, overlapCheck: false }).comparison!.rows, 'decode_tok_s');
    expect(unchecked.pValue!).toBeCloseTo(2 / 252, 6);
    expect(unchecked.ci![1]).toBeGreaterThan(-0.03);
    expect(unchecked.status).toBe('insufficient-data');
    expect(unchecked.insufficient!.why).toBe('interval-reaches-inside-floor');
    expect(metricRowNote(unchecked)).toMatch(/the interval reaches [\d.]+% worse, inside the 3% floor: a regression at the floor is not shown/);
  });

  it('a drop that leaves every baseline run behind still fails', () => {
    const gated = compare(side(slow.concat([379.9])), side(fast.concat([400.0])), { dropWarmup: false });
    const { verdict, comparison } = gated;
    expect(row(comparison!.rows, 'decode_tok_s').status).toBe('fail');
    expect(metricRowNote(row(comparison!.rows, 'decode_tok_s')) ?? '').not.toMatch(/overlap/);
    expect(verdict).toBe('fail');
  });

  it('a regression larger than the gap between states fails even with both states on each side', () => {
    const tenPctSlower = curRuns.map((v) => v * 0.9);
    const gated = compare(side(tenPctSlower), side(baseRuns), { dropWarmup: false });
    const { comparison } = gated;
    expect(row(comparison!.rows, 'decode_tok_s').status).toBe('fail');
  });
});

describe('compare: metrics present on one side', () => {
  it('a gated metric missing from the current run is noted and not compared', () => {
    const current = side(healthy[1]!);
    const baseline = side(healthy[0]!, {
      metrics: [...side(healthy[0]!).metrics, { name: 'ttft_ms', unit: 'ms', direction: 'lower', samples: [40, 41, 40], value: 40 }],
    });
    const gated = compare(current, baseline, {});
    const { verdict, comparison } = gated;
    expect(verdict).toBe('pass');
    expect(row(comparison!.rows, 'ttft_ms')).toMatchObject({ status: 'info', reading: { kind: 'metric', outcome: 'only-in', side: 'baseline' } });
    expect(metricRowNote(row(comparison!.rows, 'ttft_ms'))).toBe('only in the baseline; not compared');
  });
  it('a gated metric with a zero baseline is shown, not divided by', () => {
    const zero = (v: number[]) => ({ name: 'failed_requests', unit: 'requests', direction: 'lower' as const, samples: v, value: v[0]! });
    const gated = compare(
      side(healthy[1]!, { metrics: [...side(healthy[1]!).metrics, zero([1, 2, 1])] }),
      side(healthy[0]!, { metrics: [...side(healthy[0]!).metrics, zero([0, 0, 0])] }),
      { thresholds: { failed_requests: 10 } },
    );
    const { verdict, comparison } = gated;
    expect(verdict).toBe('pass');
    expect(row(comparison!.rows, 'failed_requests')).toMatchObject({ status: 'info', delta: null });
    expect(() => ComparisonSchema.parse(comparison)).not.toThrow();
  });
  it('no gated metric in common gives insufficient-data', () => {
    const { verdict } = compare(side([], { metrics: [] }), side(healthy[0]!), {});
    expect(verdict).toBe('insufficient-data');
  });
});

describe('compare: findings', () => {
  const rePrefill = { id: 're-prefill', severity: 'error' as const };
  it('a new re-prefill finding fails by default', () => {
    const gated = compare(side(healthy[1]!, { findings: [rePrefill] }), side(healthy[0]!), {});
    const { verdict, comparison } = gated;
    expect(verdict).toBe('fail');
    expect(comparison!.newFindings).toEqual(['re-prefill']);
    expect(row(comparison!.rows, 'finding:re-prefill')).toMatchObject({ kind: 'finding', status: 'fail', baseline: 0, current: 1 });
    expect(accountOf(gated)[0]).toBe('new finding re-prefill (error, in fail-on)');
  });
  it('the verdict comes with the lines that decide it: the failing rows only, never a finding the baseline shares', () => {
    const both = compare(side(healthy[1]!, { findings: [rePrefill, { id: 'empty-capture', severity: 'error' }] }), side(healthy[0]!, { findings: [rePrefill] }), {});
    expect(both.verdict).toBe('warn');
    expect(linesOf(both)).toEqual(['new finding empty-capture (error)']);
    const passed = compare(side(healthy[1]!), side(healthy[0]!), {});
    expect(linesOf(passed)).toEqual([accountOf(passed).at(-1)]);
    expect(linesOf(passed)[0]).toMatch(/^no regression: /);
  });
  // Seen on the H200: an A/B whose base side wrote no kernel capture called the head's copy-heavy "new".
  it('a kernel finding is not new when the baseline has no kernel capture to show it: a warning warns, saying so; a fail-on error still fails on its own', () => {
    const kernels: GateKernel[] = [{ name: 'copy', totalNs: 1e6, family: 'copy', share: 1 }];
    const copy = { id: 'copy-heavy', severity: 'warning' as const, message: 'Copy kernels take 57.6% of kernel time.', evidence: { copyShare: 0.576 }, basis: [] };
    const noKernels = compare(side(healthy[1]!, { findings: [copy], kernels }), side(healthy[0]!), {});
    expect(noKernels.comparison!.newFindings).toEqual([]);
    expect(row(noKernels.comparison!.rows, 'finding:copy-heavy')).toMatchObject({ status: 'warn', reading: { kind: 'finding', change: 'unseen', severity: 'warning', inFailOn: false, fails: false } });
    expect(linesOf(noKernels)).toContain('finding copy-heavy (warning), not compared: the baseline has no kernel capture to show it');
    const withKernels = compare(side(healthy[1]!, { findings: [copy], kernels }), side(healthy[0]!, { kernels }), {});
    expect(withKernels.comparison!.newFindings).toEqual(['copy-heavy']);
    const unfused = { id: 'unfused-attention', severity: 'error' as const, message: 'Attention appears unfused.', evidence: {}, basis: [] };
    const failing = compare(side(healthy[1]!, { findings: [unfused], kernels }), side(healthy[0]!), {});
    expect(failing.verdict).toBe('fail');
    expect(failing.causes).toEqual([
      { kind: 'row', row: 'finding:unfused-attention', rowKind: 'finding', status: 'fail', subject: { type: 'finding', id: 'unfused-attention' }, threshold: null, severity: 'error' },
    ]);
    expect(linesOf(failing, { findings: [unfused] })[0]).toMatch(/^finding unfused-attention \(error, in fail-on\), not compared: the baseline has no kernel capture to show it: Attention appears unfused\./);
  });
  // Before, a new warning of a fail-on id failed the job; now only fail-on-severity (error by default) does.
  it('a new warning of a fail-on id warns by default and fails under failOnSeverity warning; the failing line shows its evidence', () => {
    const warning = { id: 're-prefill', severity: 'warning' as const, message: 'Prefill-shaped GEMMs are 71% of linear-layer time.', evidence: { prefillShare: 0.71 }, basis: ['kernel breakdown: 3,648 launches of 22 kernels'] };
    const byDefault = compare(side(healthy[1]!, { findings: [warning] }), side(healthy[0]!), {});
    expect(byDefault.verdict).toBe('warn');
    expect(linesOf(byDefault)).toEqual(['new finding re-prefill (warning; in fail-on, below fail-on-severity error)']);
    expect(row(byDefault.comparison!.rows, 'finding:re-prefill')).toMatchObject({ status: 'warn', reading: { kind: 'finding', change: 'new', severity: 'warning', inFailOn: true, fails: false, failOnSeverity: 'error' } });
    const strict = compare(side(healthy[1]!, { findings: [warning] }), side(healthy[0]!), { failOnSeverity: 'warning' });
    expect(strict.verdict).toBe('fail');
    expect(linesOf(strict, { findings: [warning] })).toEqual(['new finding re-prefill (warning, in fail-on): Prefill-shaped GEMMs are 71% of linear-layer time. (evidence: prefillShare 0.71; rests on kernel breakdown: 3,648 launches of 22 kernels)']);
  });
  it('warns instead when re-prefill is not in failOn, and a finding in both runs is not news', () => {
    expect(compare(side(healthy[1]!, { findings: [rePrefill] }), side(healthy[0]!), { failOn: [] }).verdict).toBe('warn');
    const both = compare(side(healthy[1]!, { findings: [rePrefill] }), side(healthy[0]!, { findings: [rePrefill] }), {});
    expect(both.verdict).toBe('pass');
    expect(row(both.comparison!.rows, 'finding:re-prefill').status).toBe('info');
  });
  it('lists resolved findings and ignores info and explained secondary ones', () => {
    const gated = compare(
      side(healthy[1]!, { findings: [{ id: 'low-occupancy', severity: 'warning', secondary: true }, { id: 'note', severity: 'info' }] }),
      side(healthy[0]!, { findings: [{ id: 'unfused-attention', severity: 'error' }] }),
      {},
    );
    const { verdict, comparison } = gated;
    expect(verdict).toBe('pass');
    expect(comparison!.resolvedFindings).toEqual(['unfused-attention']);
    expect(comparison!.newFindings).toEqual([]);
  });
  it('without a baseline the findings alone decide', () => {
    const alone = compare(side(healthy[1]!, { findings: [rePrefill] }), null, {});
    expect(linesOf(alone, { findings: [rePrefill] })).toEqual(['finding re-prefill (error) is in fail-on']);
    expect(alone).toMatchObject({
      verdict: 'fail',
      causes: [{ kind: 'finding', id: 're-prefill', severity: 'error', status: 'fail', inFailOn: true }],
      comparison: null,
    });
    // The policy that judged it, as resolved: the defaults here.
    expect(compare(side(healthy[1]!, { findings: [rePrefill] }), null, {}).policy).toEqual({
      failOn: ['re-prefill', 'unfused-attention'],
      failOnSeverity: 'error',
      failVerdicts: ['fail', 'invalid'],
      thresholds: {},
      shareThresholds: { warn: 5, fail: 20 },
    });
    expect(compare(side(healthy[1]!, { findings: [{ id: 'host-bound', severity: 'warning' }] }), null, {}).verdict).toBe('warn');
    expect(compare(side(healthy[1]!), null, {}).verdict).toBe('pass');
  });
});

describe('compare: kernel mix', () => {
  const k = (name: string, family: FamilyId, totalNs: number, total: number): GateKernel => ({ name, family, totalNs, share: totalNs / total });
  // Baseline: 1000 µs in all; current: 1100 µs (attention went unfused).
  const baseKernels = [k('gemv_a', 'gemv', 600e3, 1000e3), k('sdpa_flash', 'attention-fused', 250e3, 1000e3), k('rmsnorm', 'norm', 100e3, 1000e3), k('rope', 'rope', 50e3, 1000e3)];
  const curKernels = [k('gemv_a', 'gemv', 590e3, 1100e3), k('softmax', 'attention-softmax', 260e3, 1100e3), k('bmm', 'attention-bmm', 150e3, 1100e3), k('rmsnorm', 'norm', 100e3, 1100e3)];
  const families = (ks: GateKernel[]) => {
    const byFamily = new Map<KernelFamily, number>();
    ks.forEach((x) => byFamily.set(x.family, (byFamily.get(x.family) ?? 0) + x.share));
    return [...byFamily].map(([family, share]) => ({ family, share }));
  };

  it('ranks kernel changes by absolute time like a trace diff', () => {
    const gated = compare(
      side(healthy[1]!, { kernels: curKernels, families: families(curKernels) }),
      side(healthy[0]!, { kernels: baseKernels, families: families(baseKernels) }),
      { topN: 3 },
    );
    const { comparison } = gated;
    // |Δ| by hand: softmax +260, sdpa −250, bmm +150, rope −50, gemv −10 (µs); rmsnorm unchanged. rope is in
    // neither top 3: it has no share row, but its time change is listed (the kernels table shows more).
    expect(comparison!.kernelChanges.map((c) => [c.name, c.change, c.deltaNs])).toEqual([
      ['softmax', 'added', 260e3],
      ['sdpa_flash', 'removed', -250e3],
      ['bmm', 'added', 150e3],
      ['rope', 'removed', -50e3],
      ['gemv_a', 'decreased', -10e3],
    ]);
    // rmsnorm was in the baseline's top 3 and took the same time: a row that says it left, no change entry.
    expect(row(comparison!.rows, 'kernel:rmsnorm').reading).toMatchObject({ kind: 'share', change: 'left-top', top: 3 });
    expect(rowNote(row(comparison!.rows, 'kernel:rmsnorm'))).toBe('left the top 3');
    expect(row(comparison!.rows, 'kernel:rope')).toBeUndefined();
  });

  it('gives the time change of a kernel both sides ran outside the top N', () => {
    const base = [...baseKernels, k('cat_copy', 'copy', 474.5e3, 1000e3)];
    const cur = [...curKernels, k('cat_copy', 'copy', 496.2e3, 1100e3)];
    const gated = compare(side(healthy[1]!, { kernels: cur, families: families(cur) }), side(healthy[0]!, { kernels: base, families: families(base) }), { topN: 1 });
    const { comparison } = gated;
    expect(comparison!.kernelChanges.find((c) => c.name === 'cat_copy')).toMatchObject({ change: 'increased', baselineNs: 474.5e3, currentNs: 496.2e3 });
    expect(row(comparison!.rows, 'kernel:cat_copy')).toBeUndefined();
  });

  it('flags share growth: +23.6 pp softmax fails, +13.6 pp bmm warns', () => {
    const gated = compare(
      side(healthy[1]!, { kernels: curKernels, families: families(curKernels) }),
      side(healthy[0]!, { kernels: baseKernels, families: families(baseKernels) }),
      { topN: 5 },
    );
    const { verdict, comparison } = gated;
    expect(verdict).toBe('fail');
    // 260/1100 = 23.64% of GPU time, from 0; 150/1100 = 13.64%.
    const softmax = row(comparison!.rows, 'family:attention-softmax');
    expect(softmax).toMatchObject({ kind: 'family-share', status: 'fail', baseline: 0, threshold: 5 });
    expect(softmax.delta).toBeCloseTo(23.636364, 5);
    expect(row(comparison!.rows, 'family:attention-bmm').status).toBe('warn');
    expect(row(comparison!.rows, 'family:attention-fused').status).toBe('pass');
    expect(rowNote(row(comparison!.rows, 'kernel:softmax'))).toBe('new kernel');
    expect(rowNote(row(comparison!.rows, 'kernel:rope'))).toBe('kernel gone');
    expect(rowNote(row(comparison!.rows, 'family:attention-softmax'))).toBe('new family');
    expect(rowNote(row(comparison!.rows, 'family:attention-fused'))).toBe('family gone');
    // A per-family threshold in pp overrides the default fail level.
    const relaxed = compare(
      side(healthy[1]!, { kernels: curKernels, families: families(curKernels) }),
      side(healthy[0]!, { kernels: baseKernels, families: families(baseKernels) }),
      { topN: 5, thresholds: { 'family:attention-softmax': 30, 'kernel:softmax': 30 } },
    );
    expect(relaxed.verdict).toBe('warn');
  });

  it('notes when only one side has kernels', () => {
    const gated = compare(side(healthy[1]!, { kernels: curKernels }), side(healthy[0]!), {});
    expect(accountOf(gated)).toContain('kernel shares not compared: the baseline has no kernel capture');
  });
});

describe('compare: a Report is a GateInput', () => {
  it('takes two Reports as they are, and reads generatedAt', () => {
    const report = (tokS: number[], generatedAt: string): Report => emptyReport({ generatedAt, environment: ENV, metrics: side(tokS).metrics.map((m) => ({ ...m, samples: [...m.samples] })) });
    const baseline: Report = report(healthy[0]!, '2026-11-30T00:00:00.000Z');
    const gated = compare(report(healthy[1]!.map((v) => v * 0.9), '2026-11-30T01:00:00.000Z'), { ...baseline, origin: { origin: 'artifact', path: 'baseline.json', reason: 'latest main' } }, {});
    const { verdict, comparison } = gated;
    expect(verdict).toBe('fail');
    expect(comparison!.baseline).toEqual({ origin: 'artifact', path: 'baseline.json', generatedAt: '2026-11-30T00:00:00.000Z', reason: 'latest main' });
  });
});
