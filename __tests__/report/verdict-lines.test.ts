/**
 * The verdict is data; its words are the renderers'. The report keeps no sentence of the verdict
 * (no verdictReasons, no comparison reasons), the compare stage writes none of the verdict's
 * sentences, and each kind of cause is rendered here from its data alone.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compare } from '../../src/compare/gate.js';
import { ComparisonSchema, ReportSchema, type ComparisonRow, type DecisionCause } from '../../src/model/report.js';
import { causeLine, comparisonLines, comparisonNoteLines, verdictLines } from '../../src/report/verdict-lines.js';
import { metricRowNote, rowNote } from '../../src/report/row-lines.js';
import { emptyReport } from '../helpers/empty-report.js';
import { finding } from './report-factory.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

describe('the report holds no sentence of the verdict', () => {
  it('neither the report nor its comparison has a field for them', () => {
    expect(Object.keys(ReportSchema.shape)).not.toContain('verdictReasons');
    expect(Object.keys(ComparisonSchema.shape)).not.toContain('reasons');
    expect(Object.keys(ComparisonSchema.shape)).not.toContain('reasonRows');
  });

  it('the compare stage returns the verdict, its causes, the policy and the comparison: no lines', () => {
    const side = (value: number) => ({ kernels: [], families: [], metrics: [{ name: 'decode_tok_s', unit: 'tok/s', direction: 'higher' as const, samples: [value, value * 1.001, value * 0.999, value, value * 1.002], value }], findings: [], utilization: null, environment: {} });
    const result = compare(side(90), side(100), {});
    expect(result.verdict).toBe('fail');
    expect(Object.keys(result).sort()).toEqual(['causes', 'comparison', 'policy', 'verdict']);
    expect(Object.keys(result.comparison!)).not.toContain('reasons');
    // The row's sentence is the renderer's, from the row.
    expect(verdictLines(emptyReport({ verdict: result.verdict, comparison: result.comparison, decision: { causes: result.causes, policy: { ...result.policy, ruleOptions: {} } } }))[0]).toMatch(/^decode_tok_s regressed \(100\.0 tok\/s → 90\.00 tok\/s, −10\.0%; 90% CI .*, 5 vs 5 samples\), beyond the 3% floor$/);
  });

  it("no file of src/compare/ writes a sentence of the verdict (they live in src/report/)", () => {
    const dir = join(root, 'src', 'compare');
    // Wording only a verdict line says: a row past its threshold, a pass, nothing gated, a failing finding.
    const phrases = ['at or beyond the', 'no regression:', 'nothing gated:', ') is in fail-on', 'regressed (', 'looks worse (', 'environment differs (', 'allow it with --allow-throttled'];
    const found = readdirSync(dir)
      .filter((f) => f.endsWith('.ts'))
      .flatMap((f) => phrases.filter((p) => readFileSync(join(dir, f), 'utf8').includes(p)).map((p) => `${f}: ${p}`));
    expect(found).toEqual([]);
  });

  it('no file of src/compare/ stores words as a note: a row note, a pushed note or a joined list of them', () => {
    const dir = join(root, 'src', 'compare');
    const words = [/\bnote\s*:\s*[`'"]/, /\bnote\s*:\s*\w+\.join\(/, /\b(?:notes|extra)\.push\(\s*[`'"]/];
    // Each pattern catches the form it stands for (as the compare stage once wrote them).
    const forms = ["note: `not compared: ${why}`", "note: notes.join('; ')", "notes.push('no measured step time on both sides')", "extra.push('new kernel')"];
    expect(forms.filter((form) => !words.some((w) => w.test(form)))).toEqual([]);
    const found = readdirSync(dir)
      .filter((f) => f.endsWith('.ts'))
      .flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n').map((line, i) => ({ where: `${f}:${i + 1}`, line })))
      .filter(({ line }) => words.some((w) => w.test(line)))
      .map(({ where, line }) => `${where}: ${line.trim()}`);
    expect(found).toEqual([]);
  });
});

describe('each kind of cause is rendered from its data', () => {
  const policy = { failOn: ['re-prefill'], failOnSeverity: 'error' as const, failVerdicts: ['fail' as const, 'invalid' as const], thresholds: {}, shareThresholds: { warn: 5, fail: 20 }, ruleOptions: {} };
  const line = (cause: DecisionCause, rows: ComparisonRow[] = [], findings = [finding({ id: 're-prefill', severity: 'error', message: 'Prefill-shaped GEMMs are 71% of linear-layer time.', evidence: { prefillShare: 0.71 } })]) =>
    causeLine(cause, emptyReport({ verdict: 'fail', findings, comparison: rows.length ? { baseline: { origin: 'file', reason: 'test' }, rows } : null, decision: { causes: [cause], policy } }));

  it('a finding without a baseline: in fail-on with its evidence, or why it warns', () => {
    expect(line({ kind: 'finding', id: 're-prefill', severity: 'error', status: 'fail', inFailOn: true })).toBe('finding re-prefill (error) is in fail-on: Prefill-shaped GEMMs are 71% of linear-layer time. (evidence: prefillShare 0.71)');
    expect(line({ kind: 'finding', id: 're-prefill', severity: 'warning', status: 'warn', inFailOn: true })).toBe('finding re-prefill (warning) is in fail-on, below fail-on-severity error: warns');
    expect(line({ kind: 'finding', id: 'host-bound', severity: 'error', status: 'warn', inFailOn: false })).toBe('finding host-bound (error), not in fail-on: warns');
  });

  it('a check that keeps the comparison from standing: the keys with both values, the throttle with each side', () => {
    expect(line({ kind: 'invalid', check: 'environment', mismatches: [{ key: 'gpuName', baseline: 'NVIDIA H200', current: 'NVIDIA H100 80GB HBM3' }] })).toBe(
      'environment differs (gpuName: NVIDIA H200 → NVIDIA H100 80GB HBM3); compare like with like or allow the keys with --allow-environment-mismatch (action input allow-environment-mismatch)',
    );
    expect(line({ kind: 'invalid', check: 'throttling', throttle: { type: 'fault', side: 'baseline', reasons: ['hw_thermal_slowdown'] } })).toBe(
      'the baseline run was throttled (hw_thermal_slowdown: thermal or hardware protection); its numbers are not representative: rerun on a sound, cool GPU, or allow it with --allow-throttled (action input allow-throttled)',
    );
    const power = {
      type: 'power' as const,
      reasons: ['sw_power_cap'],
      baseline: { sampled: true, share: 0, clockMhz: 1980 },
      current: { sampled: true, share: 0.3, clockMhz: 1975 },
      sameJob: false,
      differs: [{ what: 'share-gap' as const, points: 30, maxPoints: 20 }],
    };
    expect(line({ kind: 'invalid', check: 'throttling', throttle: power })).toBe(
      'the sides ran under different power conditions (sw_power_cap in 0% of baseline and 30% of current samples; mean SM clock 1,980 MHz (baseline) vs 1,975 MHz (current)): the throttled shares differ by 30 points (more than 20); rerun both under the same load, or allow it with --allow-throttled (action input allow-throttled)',
    );
  });

  it('no throughput, and nothing gated with why', () => {
    expect(line({ kind: 'no-throughput' })).toBe('no gated metric is present on both sides');
    expect(line({ kind: 'nothing-gated', oneSided: ['decode_tok_s'], time: 'no-threshold' })).toBe(
      'nothing gated: no throughput or latency on both sides (decode_tok_s on one side only) and no time-per-step or kernel threshold set; kernel shares are context only. Add metric lines ({"metric": "decode_tok_s", "value": N}) or a threshold such as kernel-time:family:<id>=+0.1ms; fail-verdicts insufficient-data fails the job on this',
    );
  });

  it('a row: a share past its fail threshold, a time per step past its own, a new finding, a metric on one side', () => {
    const share: ComparisonRow = { metric: 'family:gemm-decode', kind: 'family-share', unit: '% of GPU time', baseline: 42.2, current: 66.2, delta: 24, ci: null, threshold: 5, status: 'fail', reading: { kind: 'share', fail: 20 } };
    expect(line({ kind: 'row', row: share.metric, rowKind: share.kind, status: 'fail', threshold: 5 }, [share])).toBe('family:gemm-decode share of GPU time 42.2% → 66.2% (+24.0 pp), at or beyond the 20 pp fail threshold');
    const time: ComparisonRow = {
      metric: 'kernel-time:family:attention',
      kind: 'kernel-time',
      unit: 'ms/step',
      baseline: 0.5,
      current: 0.8,
      delta: 0.3,
      ci: null,
      threshold: 0.1,
      status: 'fail',
      reading: { kind: 'time', warn: 0.05, basis: 'set' },
    };
    expect(line({ kind: 'row', row: time.metric, rowKind: time.kind, status: 'fail', threshold: 0.1 }, [time])).toBe(
      'family:attention GPU time per step 500 µs → 800 µs (+300 µs), at or beyond the +100 µs fail threshold, in a step that did not get faster',
    );
    const found: ComparisonRow = { metric: 'finding:re-prefill', kind: 'finding', unit: 'hits', baseline: 0, current: 1, delta: 1, ci: null, threshold: null, status: 'fail', subject: { type: 'finding', id: 're-prefill' }, reading: { kind: 'finding', change: 'new', severity: 'error', inFailOn: true, fails: true, failOnSeverity: 'error' } };
    expect(line({ kind: 'row', row: found.metric, rowKind: 'finding', status: 'fail', threshold: null }, [found])).toBe('new finding re-prefill (error, in fail-on): Prefill-shaped GEMMs are 71% of linear-layer time. (evidence: prefillShare 0.71)');
    const oneSide: ComparisonRow = { metric: 'ttft_ms', kind: 'metric', unit: 'ms', baseline: 12, current: null, delta: null, ci: null, threshold: null, status: 'info', reading: { kind: 'metric', outcome: 'only-in', side: 'baseline' } };
    expect(comparisonLines(emptyReport({ verdict: 'pass', comparison: { baseline: { origin: 'file', reason: 'test' }, rows: [oneSide] } }))).toEqual(['ttft_ms is only in the baseline; not compared', 'no regression: no throughput or latency compared, no new findings']);
  });

  it("the comparison's notes: environment allowed, the power regime, runs left out, a side without kernels", () => {
    const comparison = ComparisonSchema.parse({
      baseline: { origin: 'a/b', reason: 'test' },
      rows: [],
      notes: [
        { kind: 'environment-allowed', mismatches: [{ key: 'driver', baseline: '580.159.04', current: '570.86.15' }] },
        { kind: 'throttling', allowed: false, reading: { type: 'power', reasons: ['sw_power_cap'], baseline: { sampled: true, share: 0.25, clockMhz: 1902 }, current: { sampled: true, share: 0.35, clockMhz: 1980 }, sameJob: true, differs: [] } },
        { kind: 'left-out', metrics: ['decode_tok_s', 'tpot_ms'], sides: [{ side: 'baseline', runs: [{ run: 3, change: -0.062, stall: true }], kept: 4, spread: 0.004, found: 1, maxShare: 0.4 }] },
        { kind: 'no-kernel-capture', side: 'baseline' },
      ],
    });
    expect(comparisonNoteLines(comparison)).toEqual([
      'environment differs, allowed: driver: 580.159.04 → 570.86.15',
      'power regime: sw_power_cap in 25% of baseline and 35% of current samples; mean SM clock 1,902 MHz (baseline) vs 1,980 MHz (current); an A/B in one job meets it on both sides, so they are compared',
      'decode_tok_s, tpot_ms: left out baseline run 3: −6.2% as stalled, beside 4 runs within ±0.4% (a stall only slows a run down)',
      'kernel shares not compared: the baseline has no kernel capture',
    ]);
  });

  it("a metric row's note: its warm-up runs, its runs left out and what held it back, from its reading; an older row's note as stored", () => {
    const base: ComparisonRow = { metric: 'decode_tok_s', kind: 'metric', unit: 'tok/s', direction: 'higher', baseline: 358.5, current: 357.9, delta: -0.0017, ci: [-0.041, 0.002], threshold: 0.03, status: 'insufficient-data' };
    const reading = {
      kind: 'metric' as const,
      outcome: 'interval-reaches-floor' as const,
      warmupDropped: [{ side: 'current' as const, values: [320.5], median: 357.9 }],
      stalls: [{ side: 'baseline' as const, runs: [{ run: 3, change: -0.062, stall: true }], kept: 4, spread: 0.004, found: 1, maxShare: 0.4 }],
    };
    expect(metricRowNote({ ...base, reading })).toBe(
      'dropped the first sample of current as warm-up (320.5 vs median 357.9 tok/s); left out baseline run 3: −6.2% as stalled, beside 4 runs within ±0.4% (a stall only slows a run down); the interval reaches 4.1% worse, past the 3% floor: a regression at the floor is not ruled out',
    );
    expect(metricRowNote({ ...base, note: 'as an older report wrote it' })).toBe('as an older report wrote it');
  });

  it("a time row's note: the steps, its share and a shift of work, from its reading and the time per step; an older row's note as stored", () => {
    const count = (steps: number) => ({ steps, basis: 'decode-ranges' as const, text: `${steps} decode ranges`, devices: 1 });
    const perStep = { unit: 'step' as const, baseline: count(32), current: count(32), families: [], kernels: [], kernelDeltaNs: -600e3, measured: { basis: 'tpot_ms' as const, per: 'step' as const, baselineNs: 3.1e6, currentNs: 2.556e6, deltaNs: -544e3 }, explainedShare: 1.1, notes: [] };
    const row: ComparisonRow = { metric: 'kernel-time:family:attention-fused', kind: 'kernel-time', unit: 'ms/step', baseline: 0, current: 0.109, delta: 0.109, ci: null, threshold: 0.2, status: 'info' };
    const time = { kind: 'time' as const, warn: 0.05, basis: 'floor' as const, floorUs: 50, shares: [0, 4.25] as [number, number] };
    expect(rowNote({ ...row, reading: { ...time, shift: { within: 'step' } } }, { perStep })).toBe(
      'steps: baseline 32 (decode-ranges), current 32 (decode-ranges); share of GPU time 0.0% → 4.3%; a shift: it grew in a step that got faster (measured −544 µs/step), so it took over work; context, not a regression',
    );
    expect(rowNote({ ...row, reading: { ...time, neitherRan: true, shift: { within: 'family', family: 'gemm-decode', familyDeltaNs: 2e3 } } }, { perStep })).toBe(
      'steps: baseline 32 (decode-ranges), current 32 (decode-ranges); share of GPU time 0.0% → 4.3%; neither side ran it; a shift within its family: gemm-decode GPU time per step changed +2.0 µs, so other kernels of it gave up the work; context, not a regression',
    );
    expect(rowNote({ ...row, status: 'insufficient-data', reading: { kind: 'time', notCompared: 'no-kernels', sides: ['baseline', 'current'] } })).toBe('not compared: neither side has a kernel capture');
    expect(rowNote({ ...row, note: 'as an older report wrote it' }, { perStep })).toBe('as an older report wrote it');
  });

  it("a share row's note: a kernel into the top and its family changed, from its reading; an older row's note as stored", () => {
    const row: ComparisonRow = { metric: 'kernel:k', kind: 'kernel-share', unit: '% of GPU time', baseline: 1.2, current: 9.5, delta: 8.3, ci: null, threshold: 5, status: 'info', subject: { type: 'kernel', id: 'k' } };
    expect(rowNote({ ...row, reading: { kind: 'share', fail: 20, context: 'time', change: 'entered-top', top: 10, family: { baseline: 'gemm', current: 'gemm-decode' } } })).toBe('entered the top 10; family gemm → gemm-decode');
    expect(rowNote({ ...row, reading: { kind: 'share', fail: 20 } })).toBeUndefined();
    expect(rowNote({ ...row, note: 'new kernel', reading: { kind: 'share', fail: 20 } })).toBe('new kernel');
  });
});
