import { labelFor, mergeReports, needsAttention, worstVerdict } from '../../src/report/merge-reports.js';
import { makeReport, row } from './report-factory.js';

describe('mergeReports', () => {
  it('takes the worst verdict and puts the worst legs first, keeping input order within a verdict', () => {
    const merged = mergeReports([
      { label: 'a', report: makeReport({ verdict: 'pass' }) },
      { label: 'b', report: makeReport({ verdict: 'warn' }) },
      { label: 'c', report: makeReport({ verdict: 'fail' }) },
      { label: 'd', report: makeReport({ verdict: 'warn' }) },
    ]);
    expect(merged.verdict).toBe('fail');
    expect(merged.entries.map((e) => e.label)).toEqual(['c', 'b', 'd', 'a']);
    expect(merged.counts).toEqual({ fail: 1, invalid: 0, accepted: 0, warn: 2, 'insufficient-data': 0, pass: 1 });
  });

  it('makes labels unique', () => {
    const merged = mergeReports([
      { label: 'x', report: makeReport() },
      { label: 'x', report: makeReport() },
    ]);
    expect(merged.entries.map((e) => e.label)).toEqual(['x', 'x (2)']);
  });

  it('ranks verdicts', () => {
    expect(worstVerdict([])).toBe('insufficient-data');
    expect(worstVerdict(['pass', 'insufficient-data'])).toBe('insufficient-data');
    expect(worstVerdict(['warn', 'invalid'])).toBe('invalid');
    expect(worstVerdict(['invalid', 'fail'])).toBe('fail');
    // An accepted regression is still a regression: worse than a warning, better than a leg that fails or compared nothing.
    expect(worstVerdict(['pass', 'warn', 'accepted'])).toBe('accepted');
    expect(worstVerdict(['accepted', 'invalid'])).toBe('invalid');
    expect(worstVerdict(['accepted', 'fail'])).toBe('fail');
  });

  it('labels by workload, then model', () => {
    expect(labelFor(makeReport({ workload: 'w' }), 'f')).toBe('w');
    expect(labelFor(makeReport(), 'f')).toBe('llama-3.1-8b');
  });

  it('flags a report that needs attention', () => {
    expect(needsAttention({ label: 'a', report: makeReport({ rows: [row()] }) })).toBe(false);
    expect(needsAttention({ label: 'a', report: makeReport({ rows: [row({ status: 'fail' })] }) })).toBe(true);
    expect(needsAttention({ label: 'a', report: makeReport({ verdict: 'insufficient-data' }) })).toBe(true);
  });
});
