/**
 * Notes on the evidence (a rule's "not established") are shown beside the findings in the summary,
 * the comment and the terminal, never as a finding, and never among the capture notes; skipped
 * inputs lead the verdict's lines everywhere.
 */
import { renderComment } from '../../src/report/markdown/comment.js';
import { renderSummary } from '../../src/report/markdown/summary.js';
import { mergeReports } from '../../src/report/merge-reports.js';
import { renderTerminal } from '../../src/report/terminal.js';
import { emptyReport } from '../helpers/empty-report.js';

const NOTE = 'host-bound: not established: utilization sampled over whole processes averages 41.3% (24 samples, start-up included), which does not show the steady loop.';
const report = emptyReport({
  notices: [
    { code: 'diagnosis-note', severity: 'info', message: NOTE },
    { code: 'unreadable-input', severity: 'warning', message: 'skipped caps/t.json: truncated (pass --strict to fail instead)' },
  ],
  skippedInputs: [{ path: 'caps/t.json', reason: 'truncated' }],
  verdict: 'pass',
});

describe('notes on the evidence', () => {
  it('the summary shows them under the findings, not as a finding nor a capture note', () => {
    const md = renderSummary(report);
    const findings = md.slice(md.indexOf('### Findings'));
    expect(findings).toMatch(/No findings\.\n\nNotes on the evidence:\n- host\\-bound: not established: utilization sampled over whole processes averages 41\\\.3%/);
    expect(md.match(/not established/g)).toHaveLength(1);
    expect(md).toContain('- warning: skipped caps/t\\.json: truncated');
  });

  it('the comment shows them too', () => {
    expect(renderComment(mergeReports([{ label: 'k', report }]), { key: 'k' })).toContain('Notes on the evidence:');
  });

  it('the terminal shows them in the diagnosis, and the skipped input first under the verdict', () => {
    const lines = renderTerminal(report).split('\n');
    expect(lines[1]).toBe('  - 1 input was skipped, the verdict rests on the rest: caps/t.json (truncated); strict (--strict) fails instead');
    const at = lines.indexOf('  Notes on the evidence (not findings):');
    expect(lines.slice(at - 2, at + 2)).toEqual(['Diagnosis', '  no findings', '  Notes on the evidence (not findings):', `    - ${NOTE}`]);
    expect(lines.filter((l) => l.includes('not established'))).toHaveLength(1);
  });
});
