import { COMMENT_LIMIT_CHARS, commentMarker, decideComment, renderComment, renderReportComment, sanitizeCommentKey } from '../../../src/report/markdown/comment.js';
import { mergeReports } from '../../../src/report/merge-reports.js';
import { finding, HOSTILE, makeReport, OUR_TAGS, rawTags, row, tableCells, tablesOf, withoutFences } from '../report-factory.js';

describe('commentMarker', () => {
  it('keeps keys inside the HTML comment', () => {
    expect(commentMarker('llama-8b/h200')).toBe('<!-- profile-gate:llama-8b/h200 -->');
    expect(sanitizeCommentKey('a --> <b> c')).toBe('a-b-c');
    expect(sanitizeCommentKey('-->')).toBe('default');
    expect(commentMarker("x".repeat(500))).toHaveLength("<!-- profile-gate: -->".length + 100 + 11);
  });
});

describe('renderReportComment', () => {
  const report = makeReport({
    verdict: 'fail',
    workload: 'llama-8b',
    findings: [finding({ severity: 'info', id: 'note', title: 'A note' }), finding({ id: 're-prefill', severity: 'error', title: 'Re-prefill' })],
    rows: [row({ status: 'pass', metric: 'ttft_ms' }), row({ status: 'fail', delta: -0.2 })],
  });
  const body = renderReportComment(report, {
    key: 'llama',
    artifact: { name: 'profile-gate-llama', id: 5, url: 'https://github.com/o/r/actions/runs/1/artifacts/5' },
    links: { runUrl: 'https://github.com/o/r/actions/runs/1' },
  });

  it('starts with the marker and the verdict, then the alerting findings (the top one with its next step), the alerting rows, then folded details', () => {
    const lines = body.split('\n');
    expect(lines[0]).toBe('<!-- profile-gate:llama -->');
    expect(lines[1]).toBe('## profile-gate: ❌ Fail · llama\\-8b');
    const alertRow = body.indexOf('| Decode throughput | 100 tok/s | 98 tok/s | -20.0%');
    const alertFinding = body.indexOf('- ❌ **Re\\-prefill**');
    const details = body.indexOf('<details><summary>');
    expect(alertFinding).toBeGreaterThan(0);
    expect(alertRow).toBeGreaterThan(alertFinding);
    expect(details).toBeGreaterThan(alertRow);
    // The passing row and the info finding are only in the details.
    expect(body.indexOf('Time to first token')).toBeGreaterThan(details);
    expect(body.indexOf('A note')).toBeGreaterThan(details);
    expect(body).toMatch(/<\/summary>\n\n/);
    expect(body).toMatch(/\n\n<\/details>/);
  });

  it('links the full report', () => {
    expect(body.trimEnd().split('\n').pop()).toBe(
      'Full report: [profile\\-gate\\-llama](https://github.com/o/r/actions/runs/1/artifacts/5) · [job summary and all artifacts](https://github.com/o/r/actions/runs/1)',
    );
  });

  it('says so when there is nothing to flag', () => {
    const quiet = renderReportComment(makeReport({ rows: [row()] }), { key: 'k' });
    expect(quiet).toContain('No regressions and no findings.');
  });
});

describe('size', () => {
  const longName = (i: number): string => `${HOSTILE}_${i}_${'y'.repeat(3000)}`;
  const huge = makeReport({
    kernels: 10_000,
    kernelName: longName,
    verdict: 'fail',
    findings: Array.from({ length: 300 }, (_, i) => finding({ id: `r${i}`, severity: 'error', message: 'm'.repeat(5000) })),
    rows: Array.from({ length: 10_000 }, (_, i) => row({ metric: `kernel:${longName(i)}`, kind: 'kernel-share', status: 'fail' })),
  });

  it('stays under 65,536 characters with 10,000 kernels and rows', () => {
    const body = renderReportComment(huge, { key: 'big', artifact: { name: 'a', url: 'https://github.com/o/r/actions/runs/1/artifacts/2' } });
    expect(body.length).toBeLessThan(COMMENT_LIMIT_CHARS);
    expect(body).toContain('more alerts in the details');
    expect(body).toContain('[a](https://github.com/o/r/actions/runs/1/artifacts/2)');
    expect((body.match(/<details>/g) ?? []).length).toBe((body.match(/<\/details>/g) ?? []).length);
  });

  it('stays under the limit for 300 merged legs', () => {
    const merged = mergeReports(Array.from({ length: 300 }, (_, i) => ({ label: `leg-${i}`, report: huge, artifact: { name: `profile-gate-leg-${i}` } })));
    const body = renderComment(merged, { key: 'report' });
    expect(body.length).toBeLessThan(COMMENT_LIMIT_CHARS);
    expect(body.split('\n')[1]).toBe('## profile-gate: ❌ Fail · 300 reports (300 fail)');
    expect(body).toContain('lines of alerts; see the job summary');
  });
});

describe('hostile names in the comment', () => {
  const report = makeReport({
    kernels: 2,
    kernelName: () => HOSTILE,
    workload: HOSTILE,
    findings: [finding({ severity: 'error', title: HOSTILE, message: HOSTILE, command: `x\r\`\`\`\n</details>\n# pwned` })],
    rows: [row({ metric: `kernel:${HOSTILE}`, kind: 'kernel-share', status: 'fail' })],
  });
  const body = renderReportComment(report, { key: 'k' });

  it('holds exactly one marker and only our own tags', () => {
    expect(body.match(/<!-- profile-gate:/g)).toHaveLength(1);
    expect(rawTags(body).filter((t) => !OUR_TAGS.has(t) && t !== '<!-- profile-gate:k -->')).toEqual([]);
    const outsideFences = withoutFences(body);
    // Hostile names are not shortened, so there is no fold of full names: only the details fold.
    expect((outsideFences.match(/<details>/g) ?? []).length).toBe(1);
    expect(outsideFences.match(/<\/details>/g)).toEqual(['</details>']);
  });

  it('keeps the command fenced inside its list item', () => {
    const fence = body.split('\n').find((l) => /^ {2}`{4,}sh$/.test(l));
    expect(fence).toBeDefined();
    expect(body).toContain('  </details>\n  # pwned');
    expect(body.split('\n').some((l) => l.startsWith('# pwned'))).toBe(false);
  });

  it('keeps table shapes and breaks mentions', () => {
    for (const table of tablesOf(body)) {
      const columns = tableCells(table[0]!).length;
      for (const line of table) expect(tableCells(line)).toHaveLength(columns);
    }
    expect(body).not.toContain('@octocat');
  });
});

describe('decideComment', () => {
  const pass = mergeReports([{ label: 'a', report: makeReport({ rows: [row()] }) }]);
  const regressed = mergeReports([{ label: 'a', report: makeReport({ rows: [row({ status: 'warn' })] }) }]);
  const newFinding = mergeReports([
    { label: 'a', report: { ...makeReport({ rows: [row()] }), comparison: { ...makeReport({ rows: [row()] }).comparison!, newFindings: ['host-bound'] } } },
  ]);

  it('follows the policy', () => {
    expect(decideComment('off', true, regressed).action).toBe('skip');
    expect(decideComment('auto', true, pass).action).toBe('post');
    expect(decideComment('auto', false, regressed).action).toBe('skip');
    expect(decideComment('always', false, pass).action).toBe('post');
    expect(decideComment('on-regression', true, pass).action).toBe('update-only');
    expect(decideComment('on-regression', true, regressed).action).toBe('post');
    expect(decideComment('on-regression', false, newFinding).action).toBe('post');
    const warnVerdict = mergeReports([{ label: 'a', report: makeReport({ verdict: 'warn' }) }]);
    expect(decideComment('on-regression', true, warnVerdict).action).toBe('post');
  });
});
