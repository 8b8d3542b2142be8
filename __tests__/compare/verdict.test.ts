/**
 * The one rule for failing (src/compare/verdict.ts judge): the verdict and the lines that decide it,
 * which the summary, the job's failure message and the CLI show. Without a baseline only a finding
 * in failOn fails, at warning or error; an error finding outside failOn warns.
 */
import { DEFAULT_FAIL_ON, judge, failureLine, type ComparisonOutcome, type VerdictFinding } from '../../src/compare/verdict.js';

const f = (id: string, severity: VerdictFinding['severity'], secondary = false): VerdictFinding => ({ id, severity, secondary });

describe('judge, findings alone', () => {
  it('an error finding whose id is not in fail-on warns, and is never named as a reason to fail', () => {
    expect(judge([f('empty-capture', 'error')], DEFAULT_FAIL_ON)).toEqual({ verdict: 'warn', reasons: ['finding empty-capture (error), not in fail-on: warns'] });
    const mixed = judge([f('empty-capture', 'error'), f('unfused-attention', 'warning')], DEFAULT_FAIL_ON);
    expect(mixed).toEqual({ verdict: 'fail', reasons: ['finding unfused-attention (warning) is in fail-on'] });
  });

  it('a warning in fail-on fails, as an error in fail-on does', () => {
    expect(judge([f('host-bound', 'warning')], ['host-bound']).verdict).toBe('fail');
    expect(judge([f('re-prefill', 'error')], DEFAULT_FAIL_ON)).toEqual({ verdict: 'fail', reasons: ['finding re-prefill (error) is in fail-on'] });
  });

  it('info findings never count, not even in fail-on; an empty fail-on never fails', () => {
    expect(judge([f('host-bound', 'info')], ['host-bound'])).toEqual({ verdict: 'pass', reasons: [] });
    expect(judge([f('re-prefill', 'error')], []).verdict).toBe('warn');
  });

  it('a secondary finding counts only as an error', () => {
    expect(judge([f('unfused-attention', 'warning', true)], DEFAULT_FAIL_ON)).toEqual({ verdict: 'pass', reasons: [] });
    expect(judge([f('unfused-attention', 'error', true)], DEFAULT_FAIL_ON).verdict).toBe('fail');
  });

  it('one line per finding id, however often it fires', () => {
    expect(judge([f('host-bound', 'warning'), f('host-bound', 'warning')], []).reasons).toEqual(['finding host-bound (warning), not in fail-on: warns']);
  });
});

describe('judge, with a comparison', () => {
  const outcome = (over: Partial<ComparisonOutcome> = {}): ComparisonOutcome => ({ invalid: [], rows: [], noThroughput: false, passLine: 'no regression: 1 gated metric within its floor, no new findings', ...over });

  it('a finding in fail-on present on both sides does not fail: only the rows decide, and only failing rows are its reasons', () => {
    const rows = [
      { status: 'info' as const },
      { status: 'fail' as const, reason: 'decode_tok_s regressed' },
      { status: 'warn' as const, reason: 'kernel share grew' },
    ];
    expect(judge([f('unfused-attention', 'error')], DEFAULT_FAIL_ON, outcome({ rows }))).toEqual({ verdict: 'fail', reasons: ['decode_tok_s regressed'] });
    expect(judge([f('unfused-attention', 'error')], DEFAULT_FAIL_ON, outcome({ rows: [{ status: 'info' }] }))).toEqual({ verdict: 'pass', reasons: ['no regression: 1 gated metric within its floor, no new findings'] });
  });

  it('invalid beats fail beats insufficient-data beats warn beats pass', () => {
    const fail = { status: 'fail' as const, reason: 'a fail' };
    const insufficient = { status: 'insufficient-data' as const, reason: 'too few samples' };
    const warn = { status: 'warn' as const, reason: 'a warn' };
    expect(judge([], [], outcome({ invalid: ['throttled'], rows: [fail] }))).toEqual({ verdict: 'invalid', reasons: ['throttled'] });
    expect(judge([], [], outcome({ rows: [insufficient, fail, warn] }))).toEqual({ verdict: 'fail', reasons: ['a fail'] });
    expect(judge([], [], outcome({ rows: [warn, insufficient] }))).toEqual({ verdict: 'insufficient-data', reasons: ['too few samples'] });
    expect(judge([], [], outcome({ rows: [warn], noThroughput: true })).verdict).toBe('insufficient-data');
    expect(judge([], [], outcome({ rows: [warn] }))).toEqual({ verdict: 'warn', reasons: ['a warn'] });
  });
});

describe('failureLine', () => {
  it('shows the first reasons and counts the rest', () => {
    expect(failureLine(['a', 'b'])).toBe('a; b');
    expect(failureLine(['a', 'b', 'c', 'd', 'e'])).toBe('a; b; c; and 2 more');
    expect(failureLine([])).toBe('failed');
  });
});
