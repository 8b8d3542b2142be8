/**
 * The acceptance rule (src/compare/acceptance.ts): the command's grammar, which failing rows a claim
 * covers, and what the verdict becomes. Reports are built from the report factory; the rows are
 * written here, so every expectation follows from the rows, not from the product's output.
 */
import { applyAcceptance, coverage, failingRows, parseAcceptCommand, type AcceptanceClaim } from '../../src/compare/acceptance.js';
import { failsJob, judge, type FailOn } from '../../src/compare/verdict.js';
import type { ComparisonRow, Finding, Report } from '../../src/model/report.js';
import { ReportSchema } from '../../src/model/report.js';
import { finding, makeReport } from '../report/report-factory.js';
import { renderTerminal } from '../../src/report/terminal.js';
import { accountOf, linesOf } from '../helpers/gate-lines.js';

const FAIL_ON: FailOn = { ids: ['re-prefill', 'unfused-attention'], severity: 'error' };

function row(metric: string, kind: ComparisonRow['kind'], status: ComparisonRow['status'], unit = kind === 'metric' ? 'tok/s' : '% of GPU time'): ComparisonRow {
  return { metric, kind, unit, baseline: 1, current: 1, delta: 0, ci: null, threshold: null, status };
}

/** A report compared with a baseline: its decision is its rows' (the record of src/model/decision.ts). */
function compared(rows: ComparisonRow[], verdict: Report['verdict'] = 'fail'): Report {
  const base = makeReport({ rows, verdict });
  return base;
}

/** A report without a baseline, judged (src/compare/verdict.ts) under `failOn`, with that decision recorded. */
function judgedAlone(findings: Finding[], failOn: FailOn): Report {
  const judged = judge(findings, failOn);
  const base = makeReport({ findings, verdict: judged.verdict });
  const policy = { failOn: [...failOn.ids], failOnSeverity: failOn.severity, failVerdicts: ['fail' as const, 'invalid' as const], thresholds: {}, shareThresholds: { warn: 5, fail: 20 }, ruleOptions: {} };
  return { ...base, decision: { causes: judged.causes, policy } };
}

const claim = (extra: Partial<AcceptanceClaim> = {}): AcceptanceClaim => ({ by: 'maint', via: 'label', at: '2026-05-01T10:00:00Z', targets: [], ...extra });

describe('the accept command', () => {
  it('bare: every failing row, no reason', () => {
    expect(parseAcceptCommand('/profile-gate accept')).toEqual({ targets: [] });
  });

  it('names rows by metric, kind, unit or all; the first other word starts the reason', () => {
    expect(parseAcceptCommand('/profile-gate accept decode_tok_s family:copy kernel-share masking is now correct')).toEqual({
      targets: ['decode_tok_s', 'family:copy', 'kernel-share'],
      reason: 'masking is now correct',
    });
    expect(parseAcceptCommand('/profile-gate accept tok/s')).toEqual({ targets: ['tok/s'] });
    expect(parseAcceptCommand('/profile-gate accept kernel-time the copy is the fix')).toEqual({ targets: ['kernel-time'], reason: 'the copy is the fix' });
    expect(parseAcceptCommand('/profile-gate accept all')).toEqual({ targets: [] });
    expect(parseAcceptCommand('/profile-gate accept -- decode_tok_s is slower on purpose')).toEqual({ targets: [], reason: 'decode_tok_s is slower on purpose' });
  });

  it('counts only a line that starts with the command: not a quote, not a longer word, not inline', () => {
    expect(parseAcceptCommand('> /profile-gate accept')).toBeUndefined();
    expect(parseAcceptCommand('/profile-gate accepted')).toBeUndefined();
    expect(parseAcceptCommand('try `/profile-gate accept` here')).toBeUndefined();
    expect(parseAcceptCommand('LGTM\r\n  /profile-gate accept ok')).toEqual({ targets: [], reason: 'ok' });
    expect(parseAcceptCommand('/profile-gate accept', '')).toBeUndefined();
    expect(parseAcceptCommand('/perf ok', '/perf')).toEqual({ targets: [], reason: 'ok' });
  });

  it('reads the commit it accepts: the hex word right after the command, 7 to 40 digits', () => {
    expect(parseAcceptCommand('/profile-gate accept 3F2A9C1 decode_tok_s the price')).toEqual({ sha: '3f2a9c1', targets: ['decode_tok_s'], reason: 'the price' });
    expect(parseAcceptCommand(`/profile-gate accept ${'ab'.repeat(20)}`)).toEqual({ sha: 'ab'.repeat(20), targets: [] });
    // Six digits is a word of the reason, not a commit.
    expect(parseAcceptCommand('/profile-gate accept 3f2a9c ok')).toEqual({ targets: [], reason: '3f2a9c ok' });
  });

  it('does not read the command in a fenced or indented code block, or an HTML comment', () => {
    expect(parseAcceptCommand('ask a maintainer to run\n```\n/profile-gate accept 3f2a9c1\n```\nI have not looked yet')).toBeUndefined();
    expect(parseAcceptCommand('~~~~ sh\n/profile-gate accept 3f2a9c1\n~~~\n/profile-gate accept 3f2a9c1 still fenced\n~~~~')).toBeUndefined();
    expect(parseAcceptCommand('```\nunclosed\n/profile-gate accept 3f2a9c1')).toBeUndefined();
    expect(parseAcceptCommand('example:\n\n    /profile-gate accept 3f2a9c1\n\tline')).toBeUndefined();
    expect(parseAcceptCommand('<!-- /profile-gate accept 3f2a9c1 -->')).toBeUndefined();
    expect(parseAcceptCommand('<!--\n/profile-gate accept 3f2a9c1\n')).toBeUndefined();
    // After the block closes, a command counts; three spaces of indent are not code.
    expect(parseAcceptCommand('```\nx\n```\n   /profile-gate accept 3f2a9c1 ok')).toEqual({ sha: '3f2a9c1', targets: [], reason: 'ok' });
    expect(parseAcceptCommand('<!-- note -->\n/profile-gate accept 3f2a9c1')).toEqual({ sha: '3f2a9c1', targets: [] });
    // Three backticks in a line of text are a code span, not a fence.
    expect(parseAcceptCommand('```/profile-gate accept 3f2a9c1```\n/profile-gate accept 3f2a9c1 ok')).toEqual({ sha: '3f2a9c1', targets: [], reason: 'ok' });
  });
});

describe('failing rows and coverage', () => {
  const report = compared([row('decode_tok_s', 'metric', 'fail'), row('family:copy', 'family-share', 'fail'), row('family:gemv', 'family-share', 'warn')]);

  it('the rows with status fail, or without a comparison the findings that failed under the recorded fail-on', () => {
    expect(failingRows(report).map((r) => r.metric)).toEqual(['decode_tok_s', 'family:copy']);
    expect(failingRows(report).map((r) => r.unit)).toEqual(['tok/s', '% of GPU time']);
    const alone = judgedAlone([finding({ id: 'unfused-attention', severity: 'error' }), finding({ id: 'copy-heavy', severity: 'error' }), finding({ id: 're-prefill', severity: 'warning' })], FAIL_ON);
    expect(failingRows(alone).map((r) => r.metric)).toEqual(['finding:unfused-attention']);
  });

  it('a named row covers itself only; a kind covers its rows; an unknown name is said', () => {
    const failing = failingRows(report);
    expect(coverage({ targets: ['decode_tok_s'] }, failing)).toEqual({ covers: ['decode_tok_s'], left: ['family:copy'], unknown: [] });
    expect(coverage({ targets: ['family-share', 'tok/s'] }, failing)).toEqual({ covers: ['decode_tok_s', 'family:copy'], left: [], unknown: [] });
    expect(coverage({ targets: ['family:gemv'] }, failing)).toEqual({ covers: [], left: ['decode_tok_s', 'family:copy'], unknown: ['family:gemv'] });
  });

  it("a family's or kernel's name covers its time-per-step row; the kind kernel-time covers them all", () => {
    const timed = failingRows(compared([row('kernel-time:family:copy', 'kernel-time', 'fail'), row('kernel-time:kernel:spin', 'kernel-time', 'fail')]));
    expect(coverage({ targets: ['family:copy'] }, timed)).toEqual({ covers: ['kernel-time:family:copy'], left: ['kernel-time:kernel:spin'], unknown: [] });
    expect(parseAcceptCommand('/profile-gate accept kernel-time the spin is the price')!.targets).toEqual(['kernel-time']);
    expect(coverage({ targets: ['kernel-time'] }, timed)).toEqual({ covers: ['kernel-time:family:copy', 'kernel-time:kernel:spin'], left: [], unknown: [] });
  });
});

describe('applying acceptances', () => {
  const rows = [row('decode_tok_s', 'metric', 'fail'), row('family:copy', 'family-share', 'fail')];

  it('a claim that covers every failing row makes the fail accepted; the rows stay, acceptance says who', () => {
    const out = applyAcceptance(compared(rows), { claims: [claim({ url: 'https://github.com/o/r/pull/7' })] });
    expect(out.verdict).toBe('accepted');
    expect(out.acceptance).toEqual({ by: 'maint', via: 'label', at: '2026-05-01T10:00:00Z', url: 'https://github.com/o/r/pull/7', covers: ['decode_tok_s', 'family:copy'] });
    expect(out.comparison!.rows.map((r) => r.status)).toEqual(['fail', 'fail']);
    expect(linesOf(out)[0]).toMatch(/^accepted by @maint \(label\) on 2026-05-01T10:00:00Z, covering decode_tok_s, family:copy;/);
    expect(linesOf(out)[1]).toBe('decode_tok_s failed (1.00 tok/s → 1.00 tok/s)');
    expect(accountOf(out)[0]).toBe(linesOf(out)[0]);
    // The report stays valid against the schema, and the default fail-verdicts pass it.
    expect(ReportSchema.parse(out).verdict).toBe('accepted');
    expect(failsJob(out.verdict)).toBe(false);
    expect(failsJob(out.verdict, ['fail', 'invalid', 'accepted'])).toBe(true);
  });

  it('the terminal shows the verdict, who accepted it, and each accepted row still failing', () => {
    const out = applyAcceptance(compared([...rows, row('family:gemv', 'family-share', 'warn')]), { claims: [claim()] });
    const lines = renderTerminal(out).split('\n');
    expect(lines[0]).toMatch(/: ACCEPTED$/);
    expect(lines[1]).toMatch(/^ {2}- accepted by @maint \(label\)/);
    expect(lines.find((l) => l.includes('decode_tok_s') && l.trimStart().startsWith('FAIL'))).toMatch(/^ {2}FAIL \(ACCEPTED\)/);
    expect(lines.find((l) => l.includes('family:gemv'))).toMatch(/^ {2}WARN {2}/);
  });

  it('a claim that leaves a failing row out accepts nothing; a later claim that covers all does', () => {
    const partial = claim({ by: 'alice', via: 'comment', targets: ['decode_tok_s'] });
    const failing = applyAcceptance(compared(rows), { claims: [partial] });
    expect(failing.verdict).toBe('fail');
    expect(failing.acceptance).toBeUndefined();
    expect(linesOf(failing)[0]).toBe('the acceptance by @alice (comment) covers decode_tok_s, not family:copy: not accepted');
    const both = applyAcceptance(compared(rows), { claims: [partial, claim()] });
    expect(both.verdict).toBe('accepted');
    expect(both.acceptance?.by).toBe('maint');
    expect(linesOf(both)[1]).toBe('the acceptance by @alice (comment) covers decode_tok_s, not family:copy: not accepted');
  });

  it('invalid is never accepted; pass and warn are left as they are', () => {
    const invalid = applyAcceptance(compared(rows, 'invalid'), { claims: [claim()] });
    expect(invalid.verdict).toBe('invalid');
    expect(invalid.acceptance).toBeUndefined();
    expect(linesOf(invalid)[0]).toBe('the acceptance by @maint (label) does not apply: the comparison is invalid, so nothing was compared to accept');
    const warn = compared([row('family:copy', 'family-share', 'warn')], 'warn');
    expect(applyAcceptance(warn, { claims: [claim()] })).toBe(warn);
  });

  it('refusals are lines of a fail, even with no claim', () => {
    const out = applyAcceptance(compared(rows), { claims: [], refused: ['the acceptance by @x (label) is not applied: read access'] });
    expect(out.verdict).toBe('fail');
    expect(linesOf(out)).toEqual(['the acceptance by @x (label) is not applied: read access', 'decode_tok_s failed (1.00 tok/s → 1.00 tok/s)', 'family:copy failed (1.00 % of GPU time → 1.00 % of GPU time)']);
  });

  it('a report judged under another fail-on: the acceptance covers what failed it, never what the default fail-on would', () => {
    const findings = [finding({ id: 'unfused-norm-rope', severity: 'error' }), finding({ id: 'unfused-attention', severity: 'error' })];
    const report = judgedAlone(findings, { ids: ['unfused-norm-rope'], severity: 'error' });
    expect(report.verdict).toBe('fail');
    const out = applyAcceptance(report, { claims: [claim()] });
    expect(out.verdict).toBe('accepted');
    expect(out.acceptance?.covers).toEqual(['finding:unfused-norm-rope']);
    // Naming the default's finding covers nothing that failed this report.
    const named = applyAcceptance(report, { claims: [claim({ via: 'comment', targets: ['finding:unfused-attention'] })] });
    expect(named.verdict).toBe('fail');
    expect(linesOf(named)[0]).toBe('the acceptance by @maint (comment) covers no failing row, not finding:unfused-norm-rope; finding:unfused-attention names no failing row: not accepted');
  });

  it('a fail whose record names no failing row is not accepted', () => {
    const report = { ...judgedAlone([finding({ id: 'copy-heavy', severity: 'error' })], FAIL_ON), verdict: 'fail' as const };
    const out = applyAcceptance(report, { claims: [claim()] });
    expect(out.verdict).toBe('fail');
    expect(linesOf(out)[0]).toBe('the acceptance by @maint (label) does not apply: the report records no failing row to accept');
  });

  it('without a baseline, the failing findings are what a claim covers', () => {
    const report = judgedAlone([finding({ id: 'unfused-attention', severity: 'error' })], FAIL_ON);
    const out = applyAcceptance(report, { claims: [claim({ via: 'comment', targets: ['finding:unfused-attention'] })] });
    expect(out.verdict).toBe('accepted');
    expect(out.acceptance?.covers).toEqual(['finding:unfused-attention']);
  });
});
