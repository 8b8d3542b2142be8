/**
 * The decision's causes as data (src/model/decision.ts): a row's cause is the row itself, and a
 * report written before the decision was recorded gets one from its rows' statuses and findings.
 * The rows and findings are written here; every expected cause follows from them.
 */
import { causeKey, decisionFromRows, rowCause } from '../../src/model/decision.js';
import type { ComparisonRow } from '../../src/model/report.js';
import { finding, row } from '../report/report-factory.js';

const rows: ComparisonRow[] = [
  row({ metric: 'decode_tok_s', kind: 'metric', status: 'fail', threshold: 0.03 }),
  row({ metric: 'ttft_ms', kind: 'metric', status: 'insufficient-data', threshold: 0.05 }),
  row({ metric: 'family:copy', kind: 'family-share', unit: '% of GPU time', status: 'warn', threshold: 5 }),
  row({ metric: 'finding:unfused-attention', kind: 'finding', unit: 'hits', status: 'fail', threshold: null }),
  row({ metric: 'family:gemv', kind: 'family-share', unit: '% of GPU time', status: 'pass', threshold: 5 }),
];
const findings = [
  finding({ id: 'unfused-attention', severity: 'warning' }),
  finding({ id: 'unfused-attention', severity: 'error' }),
  // A secondary warning does not count; an info never does.
  finding({ id: 'copy-heavy', severity: 'warning', secondary: true }),
  finding({ id: 'host-bound', severity: 'info' }),
];

describe('rowCause', () => {
  it('is the row: key, kind, status, threshold, and the subject its key names', () => {
    expect(rowCause(rows[2]!)).toEqual({ kind: 'row', row: 'family:copy', rowKind: 'family-share', status: 'warn', subject: { type: 'family', id: 'copy' }, threshold: 5 });
    expect(rowCause(rows[0]!)).toEqual({ kind: 'row', row: 'decode_tok_s', rowKind: 'metric', status: 'fail', threshold: 0.03 });
    expect(rowCause(rows[3]!, 'error')).toMatchObject({ subject: { type: 'finding', id: 'unfused-attention' }, severity: 'error' });
  });
});

describe('the decision of a report written before it was recorded', () => {
  const keys = (verdict: Parameters<typeof decisionFromRows>[0]['verdict'], comparison: { rows: ComparisonRow[] } | null = { rows }) =>
    decisionFromRows({ verdict, findings, comparison }).causes.map((c) => causeKey(c) ?? c.kind);

  it('with a comparison: the rows whose status decided the verdict, a finding row with its strongest hit', () => {
    const fail = decisionFromRows({ verdict: 'fail', findings, comparison: { rows } });
    expect(fail.policy).toBeNull();
    expect(fail.causes.map((c) => causeKey(c))).toEqual(['decode_tok_s', 'finding:unfused-attention']);
    expect(fail.causes[1]).toMatchObject({ severity: 'error' });
    expect(keys('accepted')).toEqual(['decode_tok_s', 'finding:unfused-attention']);
    expect(keys('insufficient-data')).toEqual(['ttft_ms']);
    expect(keys('warn')).toEqual(['family:copy']);
    expect(keys('pass')).toEqual([]);
    // Which check made it invalid was not recorded: no cause is made up.
    expect(keys('invalid')).toEqual([]);
  });

  it('without a comparison: the findings that count, with the verdict status and no word on fail-on', () => {
    expect(decisionFromRows({ verdict: 'fail', findings, comparison: null }).causes).toEqual([{ kind: 'finding', id: 'unfused-attention', severity: 'error', status: 'fail' }]);
    expect(decisionFromRows({ verdict: 'warn', findings, comparison: null }).causes).toEqual([{ kind: 'finding', id: 'unfused-attention', severity: 'error', status: 'warn' }]);
    expect(keys('pass', null)).toEqual([]);
  });
});
