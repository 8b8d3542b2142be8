/**
 * The numbers of a mermaid xychart: `[+-]?(\d+(\.\d+)?|\.\d+)` is the only number mermaid's xychart
 * grammar reads (an exponent such as 1e+21 ends the chart), and an axis must run from low to high
 * across the samples it draws, whatever their size or sign.
 */
import { familySharesChart, samplesChart } from '../../../src/report/markdown/charts.js';
import type { Report } from '../../../src/model/report.js';
import { makeReport, row } from '../report-factory.js';

const MERMAID_NUMBER = /^[+-]?(?:\d+(?:\.\d+)?|\.\d+)$/;

function chartOf(baseline: number[], current: number[]): { axis: [number, number]; title: string; lines: number[][]; tokens: string[] } {
  const report = makeReport({ decodeSamples: current });
  const chart = samplesChart({ ...report, comparison: { ...report.comparison!, baselineSamples: { decode_tok_s: baseline } } } as Report)!;
  expect(chart).toBeDefined();
  const axisLine = chart.split('\n').find((l) => l.includes('y-axis'))!;
  const [, title, low, high] = /y-axis "([^"]*)" (\S+) --> (\S+)$/.exec(axisLine)!;
  const lineRows = chart.split('\n').filter((l) => l.trim().startsWith('line ['));
  const lines = lineRows.map((l) => l.replace(/^\s*line \[|\]$/g, '').split(', '));
  return { axis: [Number(low), Number(high)], title: title!, lines: lines.map((l) => l.map(Number)), tokens: [low!, high!, ...lines.flat()] };
}

test.each([
  ['at or above 1e21', [1.2e21, 1.25e21, 1.3e21], [1.1e21, 1.15e21, 1.2e21]],
  ['near the largest double', [1e300, 1.1e300, 1.2e300], [1.05e300, 1.1e300, 1.15e300]],
  ['negative', [-5, -4.5, -4], [-6, -5.5, -5.2]],
  ['either side of zero', [-1, 0.5, 2], [1, 1.5, 3]],
  ['of about 1e-9', [1e-9, 1.2e-9, 1.1e-9], [0.9e-9, 1e-9, 0.95e-9]],
])('samples %s: every number is one mermaid reads, the axis runs low to high and holds every drawn value, and the sides stay apart', (_name, baseline, current) => {
  const { axis, lines, tokens } = chartOf(baseline, current);
  for (const token of tokens) expect(token).toMatch(MERMAID_NUMBER);
  expect(axis[0]).toBeLessThan(axis[1]);
  for (const value of lines.flat()) {
    expect(value).toBeGreaterThanOrEqual(axis[0]);
    expect(value).toBeLessThanOrEqual(axis[1]);
  }
  // Not flattened to one value: the drawn samples keep their order.
  expect(new Set(lines.flat()).size).toBeGreaterThan(2);
});

test('large and small axes name their power of ten in the axis title, and the values are drawn in it', () => {
  const big = chartOf([1.2e21, 1.3e21], [1.1e21, 1.2e21]);
  expect(big.title).toBe('tok/s (×10^21)');
  expect(big.lines[0]).toEqual([1.2, 1.3]);
  const small = chartOf([1e-9, 1.2e-9], [0.9e-9, 1e-9]);
  expect(small.title).toBe('tok/s (×10^-9)');
  expect(small.lines[1]).toEqual([0.9, 1]);
  expect(chartOf([380, 378], [314, 312]).title).toBe('tok/s');
});

test('family shares outside 0–100 % (a report from elsewhere) are drawn within the axis, as plain numbers', () => {
  const chart = familySharesChart(
    makeReport({ rows: [row({ metric: 'family:gemv', kind: 'family-share', unit: '%', baseline: 1e21, current: -5, delta: 0, ci: null, threshold: 5 })] }),
  )!;
  expect(chart).toContain('    bar [100, 0]');
  expect(chart).toContain('0 --> 100');
});
