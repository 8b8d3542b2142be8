/** The mermaid charts of the comment and the summary: drawn only from the report's numbers, labels made safe. */
import { familySharesChart, reportCharts, samplesChart } from '../../../src/report/markdown/charts.js';
import { renderComment, renderReportComment } from '../../../src/report/markdown/comment.js';
import { renderMergedSummary } from '../../../src/report/markdown/summary.js';
import { mergeReports } from '../../../src/report/merge-reports.js';
import type { Report } from '../../../src/model/report.js';
import { makeReport, row } from '../report-factory.js';

const shares = [
  row({ metric: 'family:gemv', kind: 'family-share', unit: '%', baseline: 61.2, current: 55.04, delta: -6.16, ci: null, threshold: 5 }),
  row({ metric: 'family:attention-softmax', kind: 'family-share', unit: '%', baseline: 0, current: 2.4, delta: 2.4, ci: null, threshold: 5 }),
];

function withBaseline(report: Report, samples: number[]): Report {
  return { ...report, comparison: { ...report.comparison!, baselineSamples: { decode_tok_s: samples } } };
}

describe('familySharesChart', () => {
  it('draws a bar per family and side, largest family first, from the comparison rows', () => {
    const chart = familySharesChart(makeReport({ rows: shares }))!;
    // Two series on alternating categories: the baseline in grey, this run in blue.
    expect(chart.split('\n')).toEqual([
      '```mermaid',
      '---',
      'config:',
      '  themeVariables:',
      '    xyChart:',
      '      plotColorPalette: "#8c959f, #0072b2"',
      '---',
      'xychart-beta horizontal',
      '    title "GPU kernel time by family (%): baseline (grey), this run (blue)"',
      '    x-axis ["GEMV (decode linear) · base", "GEMV (decode linear) · head", "Softmax (unfused attention) · base", "Softmax (unfused attention) · head"]',
      '    y-axis "share of GPU kernel time (%)" 0 --> 70',
      '    bar [61.2, 0, 0, 0]',
      '    bar [0, 55, 0, 2.4]',
      '```',
    ]);
  });

  it('is absent without a comparison', () => {
    expect(familySharesChart(makeReport({}))).toBeUndefined();
  });

  it('cannot be broken out of by a family name (user families are free text)', () => {
    const hostile = 'x"] \n```\n<script>alert(1)</script> `y` [z';
    const chart = familySharesChart(makeReport({ rows: [row({ metric: `family:${hostile}`, kind: 'family-share', baseline: 1, current: 2, delta: 1 })] }))!;
    const axis = chart.split('\n').find((l) => l.includes('x-axis'))!;
    expect(axis.match(/"/g)).toHaveLength(4);
    expect(chart.match(/```/g)).toHaveLength(2);
    expect(axis).not.toContain('<');
  });
});

describe('samplesChart', () => {
  it("draws both sides' runs in order, baseline first", () => {
    const report = withBaseline(makeReport({ rows: [row()], decodeSamples: [90, 91, 92] }), [100, 101, 99]);
    const lines = samplesChart(report)!.split('\n');
    expect(lines).toContain('    x-axis "timed run" ["1", "2", "3"]');
    expect(lines).toContain('    line [100, 101, 99]');
    expect(lines).toContain('    line [90, 91, 92]');
    expect(lines.indexOf('    line [100, 101, 99]')).toBeLessThan(lines.indexOf('    line [90, 91, 92]'));
    const [low, high] = /y-axis "tok\/s" ([\d.]+) --> ([\d.]+)/.exec(lines.join('\n'))!.slice(1).map(Number);
    expect(low).toBeLessThanOrEqual(90);
    expect(high).toBeGreaterThanOrEqual(101);
  });

  it('with unequal counts draws the first runs of each side and says so', () => {
    const chart = samplesChart(withBaseline(makeReport({ rows: [row()], decodeSamples: [90, 91, 92, 93, 94] }), [100, 101, 99]))!;
    expect(chart).toContain('the first 3 runs of 3 and 5');
    expect(chart).toContain('    line [90, 91, 92]');
  });

  it('is absent without the baseline samples (a report from before they were kept) or with one run', () => {
    expect(samplesChart(makeReport({ rows: [row()] }))).toBeUndefined();
    expect(samplesChart(withBaseline(makeReport({ rows: [row()] }), [100]))).toBeUndefined();
  });
});

describe('where the charts go', () => {
  const report = withBaseline(makeReport({ rows: [row(), ...shares] }), [100, 101, 99, 100, 102, 98, 100, 103, 97, 100]);

  it('above the details of a one-report comment, and in the summary', () => {
    expect(reportCharts(report)).toHaveLength(2);
    const comment = renderReportComment(report, { key: 'k' });
    const details = comment.indexOf('<details>');
    expect(comment.indexOf('```mermaid')).toBeGreaterThan(0);
    expect(comment.indexOf('```mermaid')).toBeLessThan(details);
    expect(comment.slice(details)).not.toContain('```mermaid');
    const summary = renderMergedSummary(mergeReports([{ label: 'a', report }]));
    expect(summary.match(/```mermaid/g)).toHaveLength(2);
  });

  it('not in a comment that merges several reports (short by design); each leg has them in the summary', () => {
    const merged = mergeReports([{ label: 'a', report }, { label: 'b', report }]);
    expect(renderComment(merged, { key: 'k' })).not.toContain('```mermaid');
    expect(renderMergedSummary(merged).match(/```mermaid/g)).toHaveLength(4);
  });
});
