/**
 * The summary, the PR comment and the dashboard show one interval for the same samples: all three
 * read compare/median-interval.ts. They once disagreed at n = 4 (the comment said "too few samples",
 * the dashboard drew [min, max] as a 90% band that covers 87.5%) and for equal samples.
 */
import { buildDashboardData } from '../../src/report/dashboard/index.js';
import { renderReportComment } from '../../src/report/markdown/comment.js';
import { renderSummary } from '../../src/report/markdown/summary.js';
import { formatNumber } from '../../src/report/number-format.js';
import { makeReport, tableCells } from './report-factory.js';

/** The "90% CI of the median" cell of the decode throughput row, as the markdown shows it. */
function markdownInterval(markdown: string): string {
  const header = markdown.split('\n').findIndex((line) => line.startsWith('| metric | median |'));
  expect(header).toBeGreaterThanOrEqual(0);
  const row = markdown.split('\n').slice(header + 2).find((line) => line.includes('tok/s'));
  return tableCells(row!)[2]!.trim();
}

function dashboardInterval(samples: number[]): string {
  const report = makeReport({ decodeSamples: samples });
  const data = buildDashboardData([{ report, source: 'r.json' }], [], { generatedAt: '2026-05-01T00:00:00.000Z' });
  const points = data.workloads[0]!.points;
  const [low, high] = [points.low[0], points.high[0]];
  if (low === null || high === null) return samples.length > 1 ? '— (too few samples)' : '—';
  return `${formatNumber(low!)} … ${formatNumber(high!)} tok/s`;
}

describe('one median interval in the summary, the comment and the dashboard', () => {
  it.each([
    ['n = 4, too few for 90% (the old disagreement)', [101, 99, 100, 102], '— (too few samples)'],
    ['n = 5, [min, max] covers 93.75%', [101, 99, 100, 102, 98], '98 … 102 tok/s'],
    ['n = 6, all equal', [100, 100, 100, 100, 100, 100], '100 … 100 tok/s'],
    ['n = 15', [115, 103, 109, 101, 112, 107, 105, 114, 102, 108, 111, 104, 113, 106, 110], '104 … 112 tok/s'],
  ])('%s', (_name, samples, expected) => {
    const report = makeReport({ decodeSamples: samples });
    expect(markdownInterval(renderSummary(report))).toBe(expected);
    expect(markdownInterval(renderReportComment(report, { key: 'k' }))).toBe(expected);
    expect(dashboardInterval(samples)).toBe(expected);
  });
});
