/**
 * The one rule for failing (src/compare/verdict.ts judge): the verdict and its causes, as data; the
 * lines the summary, the job's failure message and the CLI show are rendered from them
 * (src/report/verdict-lines.ts), and read here rendered. Without a baseline only a finding
 * in fail-on fails, at fail-on-severity or above (error by default: a warning, evidence that is not
 * conclusive, warns); an error finding outside fail-on warns. A failing line shows the evidence.
 */
import { DEFAULT_FAIL_ON, DEFAULT_FAIL_VERDICTS, failsJob, judge as judgeData, type ComparisonOutcome, type FailOn, type VerdictFinding } from '../../src/compare/verdict.js';
import { failureLine, skippedInputsLine, verdictLines } from '../../src/report/verdict-lines.js';
import { evidenceText } from '../../src/report/row-lines.js';
import type { Finding } from '../../src/model/report.js';
import { emptyReport } from '../helpers/empty-report.js';

const f = (id: string, severity: VerdictFinding['severity'], secondary = false): VerdictFinding => ({ id, severity, secondary });

/** The judgement with its lines as a report of it renders them (without a comparison: the findings decide). */
function judge(findings: readonly VerdictFinding[], failOn: readonly string[] | FailOn = DEFAULT_FAIL_ON) {
  const judged = judgeData(findings, failOn);
  const policy = Array.isArray(failOn) ? { ids: failOn as readonly string[], severity: 'error' as const } : (failOn as FailOn);
  const report = emptyReport({
    verdict: judged.verdict,
    findings: findings.map((x) => ({ title: '', message: '', evidence: {}, advice: '', docs: '', secondary: false, basis: [], ...x }) as Finding),
    decision: { causes: judged.causes, policy: { failOn: [...policy.ids], failOnSeverity: policy.severity, failVerdicts: ['fail', 'invalid'], thresholds: {}, shareThresholds: { warn: 10, fail: 20 }, ruleOptions: {} } },
  });
  return { ...judged, reasons: verdictLines(report) };
}

describe('judge, findings alone', () => {
  it('an error finding whose id is not in fail-on warns, and is never named as a reason to fail', () => {
    expect(judge([f('empty-capture', 'error')], DEFAULT_FAIL_ON)).toMatchObject({ verdict: 'warn', reasons: ['finding empty-capture (error), not in fail-on: warns'] });
    const mixed = judge([f('empty-capture', 'error'), f('unfused-attention', 'error')], DEFAULT_FAIL_ON);
    expect(mixed).toMatchObject({ verdict: 'fail', reasons: ['finding unfused-attention (error) is in fail-on'] });
  });

  // Before: a warning of a fail-on id failed the job. Now only fail-on-severity (error by default) fails.
  it('a warning in fail-on warns by default, and says why it does not fail; an error in fail-on fails', () => {
    expect(judge([f('re-prefill', 'warning')], DEFAULT_FAIL_ON)).toMatchObject({ verdict: 'warn', reasons: ['finding re-prefill (warning) is in fail-on, below fail-on-severity error: warns'] });
    expect(judge([f('re-prefill', 'error')], DEFAULT_FAIL_ON)).toMatchObject({ verdict: 'fail', reasons: ['finding re-prefill (error) is in fail-on'] });
  });

  it('fail-on-severity warning fails on a warning of a fail-on id too', () => {
    expect(judge([f('host-bound', 'warning')], { ids: ['host-bound'], severity: 'warning' }).verdict).toBe('fail');
    expect(judge([f('host-bound', 'warning')], { ids: ['host-bound'], severity: 'error' }).verdict).toBe('warn');
  });

  it('the strongest hit of an id decides: a warning and an error of one id fail, once', () => {
    expect(judge([f('unfused-attention', 'warning'), f('unfused-attention', 'error')], DEFAULT_FAIL_ON)).toMatchObject({ verdict: 'fail', reasons: ['finding unfused-attention (error) is in fail-on'] });
  });

  it('a failing line shows the evidence that decided it: message, named values and what it rests on', () => {
    const finding: VerdictFinding = {
      id: 'unfused-attention',
      severity: 'error',
      message: 'Attention appears unfused: 512 softmax launches (1.3% of kernel time) against 0 fused attention launches.',
      evidence: { softmaxShare: 0.013, softmaxLaunches: 512, fusedAttentionLaunches: 0 },
      basis: ['kernel breakdown: 11,512 launches of 4 kernels'],
    };
    const { verdict, reasons } = judge([finding], DEFAULT_FAIL_ON);
    expect(verdict).toBe('fail');
    expect(reasons).toEqual([
      'finding unfused-attention (error) is in fail-on: Attention appears unfused: 512 softmax launches (1.3% of kernel time) against 0 fused attention launches. (evidence: softmaxShare 0.013, softmaxLaunches 512, fusedAttentionLaunches 0; rests on kernel breakdown: 11,512 launches of 4 kernels)',
    ]);
  });

  it('evidence lines stay bounded: a long message is cut, more than five values are counted', () => {
    const text = evidenceText({ message: 'm'.repeat(1000), evidence: Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`k${i}`, i])) });
    expect(text.length).toBeLessThan(400);
    expect(text).toContain('k4 4, 4 more)');
  });

  it('info findings never count, not even in fail-on; an empty fail-on never fails', () => {
    expect(judge([f('host-bound', 'info')], ['host-bound'])).toMatchObject({ verdict: 'pass', reasons: [] });
    expect(judge([f('re-prefill', 'error')], []).verdict).toBe('warn');
  });

  it('a secondary finding counts only as an error', () => {
    expect(judge([f('unfused-attention', 'warning', true)], DEFAULT_FAIL_ON)).toMatchObject({ verdict: 'pass', reasons: [] });
    expect(judge([f('unfused-attention', 'error', true)], DEFAULT_FAIL_ON).verdict).toBe('fail');
  });

  it('one line per finding id, however often it fires', () => {
    expect(judge([f('host-bound', 'warning'), f('host-bound', 'warning')], []).reasons).toEqual(['finding host-bound (warning), not in fail-on: warns']);
  });
});

describe('failsJob: the workflow chooses which verdicts fail the job', () => {
  it('by default a regression and a comparison that could not stand fail; insufficient-data, warn and pass do not', () => {
    expect(DEFAULT_FAIL_VERDICTS).toEqual(['fail', 'invalid']);
    expect(['pass', 'warn', 'fail', 'insufficient-data', 'invalid'].filter((v) => failsJob(v as never))).toEqual(['fail', 'invalid']);
  });

  it('a workflow may add insufficient-data or warn, or list none; pass never fails', () => {
    expect(failsJob('insufficient-data', ['fail', 'invalid', 'insufficient-data'])).toBe(true);
    expect(failsJob('warn', ['warn'])).toBe(true);
    expect(failsJob('fail', [])).toBe(false);
    expect(failsJob('pass', ['pass'])).toBe(false);
  });
});

describe('skippedInputsLine', () => {
  it('names each skipped input with why, the first three, and that strict fails instead', () => {
    expect(skippedInputsLine([])).toBeUndefined();
    expect(skippedInputsLine([{ path: 'caps/b.json', reason: 'truncated JSON' }])).toBe('1 input was skipped, the verdict rests on the rest: caps/b.json (truncated JSON); strict (--strict) fails instead');
    const many = Array.from({ length: 5 }, (_, i) => ({ path: `c${i}`, reason: 'r' }));
    expect(skippedInputsLine(many)).toBe('5 inputs were skipped, the verdict rests on the rest: c0 (r); c1 (r); c2 (r), and 2 more; strict (--strict) fails instead');
  });
});

describe('judge, with a comparison', () => {
  const outcome = (over: Partial<ComparisonOutcome> = {}): ComparisonOutcome => ({ invalid: [], rows: [], noThroughput: false, ...over });
  const cause = (row: string, status: 'fail' | 'warn' | 'insufficient-data') => ({ kind: 'row' as const, row, rowKind: 'metric' as const, status, threshold: 3 });
  const fail = { status: 'fail' as const, cause: cause('decode_tok_s', 'fail') };
  const insufficient = { status: 'insufficient-data' as const, cause: cause('itl_ms', 'insufficient-data') };
  const warn = { status: 'warn' as const, cause: cause('ttft_ms', 'warn') };

  it('a finding in fail-on present on both sides does not fail: only the rows decide, and only failing rows are its causes', () => {
    const rows = [{ status: 'info' as const }, fail, warn];
    expect(judgeData([f('unfused-attention', 'error')], DEFAULT_FAIL_ON, outcome({ rows }))).toEqual({ verdict: 'fail', causes: [fail.cause] });
    expect(judgeData([f('unfused-attention', 'error')], DEFAULT_FAIL_ON, outcome({ rows: [{ status: 'info' }] }))).toEqual({ verdict: 'pass', causes: [] });
  });

  it('nothing gated is insufficient-data with its cause, never a pass; a row that fails or warns still decides', () => {
    const nothingGated = { kind: 'nothing-gated' as const, oneSided: [], time: 'no-threshold' as const };
    expect(judgeData([], [], outcome({ rows: [{ status: 'pass' }], nothingGated }))).toEqual({ verdict: 'insufficient-data', causes: [nothingGated] });
    expect(judgeData([], [], outcome({ rows: [warn], nothingGated }))).toEqual({ verdict: 'warn', causes: [warn.cause] });
    expect(judgeData([], [], outcome({ rows: [fail], nothingGated }))).toEqual({ verdict: 'fail', causes: [fail.cause] });
  });

  it('invalid beats fail beats insufficient-data beats warn beats pass', () => {
    const throttled = { kind: 'invalid' as const, check: 'throttling' as const, throttle: { type: 'fault' as const, side: 'current' as const, reasons: ['hw_slowdown'] } };
    expect(judgeData([], [], outcome({ invalid: [throttled], rows: [fail] }))).toEqual({ verdict: 'invalid', causes: [throttled] });
    expect(judgeData([], [], outcome({ rows: [insufficient, fail, warn] }))).toEqual({ verdict: 'fail', causes: [fail.cause] });
    expect(judgeData([], [], outcome({ rows: [warn, insufficient] }))).toEqual({ verdict: 'insufficient-data', causes: [insufficient.cause] });
    expect(judgeData([], [], outcome({ rows: [warn], noThroughput: true })).verdict).toBe('insufficient-data');
    expect(judgeData([], [], outcome({ rows: [warn] }))).toEqual({ verdict: 'warn', causes: [warn.cause] });
  });

  it('the causes are the deciding rows as data, the no-throughput check among them', () => {
    const rows = [fail, warn, insufficient];
    expect(judgeData([], [], outcome({ rows })).causes).toEqual([cause('decode_tok_s', 'fail')]);
    expect(judgeData([], [], outcome({ rows: rows.slice(1), noThroughput: true })).causes).toEqual([cause('itl_ms', 'insufficient-data'), { kind: 'no-throughput' }]);
    expect(judgeData([], [], outcome({ rows: rows.slice(1, 2) })).causes).toEqual([cause('ttft_ms', 'warn')]);
  });
});

describe('judge, findings alone: the causes', () => {
  it('name the deciding findings with their severity and whether fail-on lists them', () => {
    const failOn = { ids: ['unfused-norm-rope'], severity: 'error' as const };
    expect(judge([f('unfused-norm-rope', 'error'), f('unfused-attention', 'error')], failOn).causes).toEqual([{ kind: 'finding', id: 'unfused-norm-rope', severity: 'error', status: 'fail', inFailOn: true }]);
    expect(judge([f('unfused-norm-rope', 'warning'), f('unfused-attention', 'error')], failOn).causes).toEqual([
      { kind: 'finding', id: 'unfused-norm-rope', severity: 'warning', status: 'warn', inFailOn: true },
      { kind: 'finding', id: 'unfused-attention', severity: 'error', status: 'warn', inFailOn: false },
    ]);
  });
});

describe('failureLine', () => {
  it('shows the first reasons and counts the rest', () => {
    expect(failureLine(['a', 'b'])).toBe('a; b');
    expect(failureLine(['a', 'b', 'c', 'd', 'e'])).toBe('a; b; c; and 2 more');
    expect(failureLine([])).toBe('failed');
  });
});
