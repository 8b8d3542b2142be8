/** Wording read the same everywhere: one confidence level (the gate's), p-values, hit counts. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CI_LEVEL, DEFAULT_ALPHA, ciLevel } from '../../src/compare/gate-options.js';
import { formatP } from '../../src/report/percent-format.js';
import { renderSummary } from '../../src/report/markdown/summary.js';
import { buildSite } from '../../src/report/dashboard/index.js';
import { makeReport, row } from './report-factory.js';

const ROOT = join(import.meta.dirname, '..', '..');

describe('the confidence level', () => {
  it('is 1 − 2·alpha, 90% at the default alpha', () => {
    expect(DEFAULT_ALPHA).toBe(0.05);
    expect(CI_LEVEL).toBeCloseTo(0.9, 12);
    expect(ciLevel(0.025)).toBeCloseTo(0.95, 12);
  });

  it('reads the same in the legend and the median table of the summary', () => {
    const md = renderSummary(makeReport({ rows: [row({ metric: 'decode_tok_s' })] }));
    expect(md).toContain('CI: 90% interval of the delta');
    expect(md).toContain('| metric | median | 90% CI of the median | samples |');
    expect(md).not.toMatch(/9[59]% (CI|interval)/);
  });

  it('reads the same on the dashboard page and in its footer', () => {
    const site = buildSite([{ report: makeReport({}), source: 'r.json' }], [], { generatedAt: '2026-12-01T00:00:00Z' });
    const text = site.files.map((f) => f.content).join('\n');
    expect(text).toContain('90% CI');
    expect(text).toContain('a 90% confidence interval of the median');
    expect(text).not.toContain('95%');
  });

  it('is written nowhere else as a number of its own (sources and user docs)', () => {
    const files = (dir: string): string[] =>
      readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
        .filter((e) => e.isFile() && /\.(ts|md)$/.test(e.name))
        .map((e) => join(e.parentPath, e.name));
    for (const file of [...files('src'), ...files('references'), join(ROOT, 'README.md')]) {
      const text = readFileSync(file, 'utf8');
      expect({ file, hits: text.match(/\b95 ?% (CI|confidence|interval)/g) }).toEqual({ file, hits: null });
    }
  });
});

describe('p-values', () => {
  it('read p<0.001, never p=<0.001', () => {
    expect(formatP(0.0001)).toBe('p<0.001');
    expect(formatP(0.012)).toBe('p=0.012');
    expect(formatP(0.05)).toBe('p=0.05');
  });
});

describe('finding rows', () => {
  it('count one hit, two hits', () => {
    const md = renderSummary(makeReport({ rows: [row({ metric: 'finding:unfused-attention', kind: 'finding', unit: 'hits', baseline: 0, current: 1, delta: 1, ci: null, threshold: null, status: 'fail' }), row({ metric: 'finding:host-bound', kind: 'finding', unit: 'hits', baseline: 1, current: 2, delta: 1, ci: null, threshold: null, status: 'warn' })] }));
    expect(md).toMatch(/\| finding <code>unfused-attention<\/code> \| 0 hits \| 1 hit \| \+1 \|/);
    expect(md).toMatch(/\| finding <code>host-bound<\/code> \| 1 hit \| 2 hits \| \+1 \|/);
    expect(md).not.toContain('1 hits');
  });
});
