/**
 * The PR comment and the job summary as a reviewer sees them: the markdown rendered by a real
 * markdown renderer (marked) with mermaid, in headless Chromium, styled like GitHub's comment body
 * (tables scroll inside themselves, inline code wraps at spaces), 780 px wide. The report is the
 * bundled real H200 pair (samples/): the unfused-attention head against its fused baseline.
 * Screenshots go to __tests__/browser/out/.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { analyze } from '../../src/pipeline/analyze.js';
import { expandInputs } from '../../src/io/input-paths.js';
import type { Report } from '../../src/model/report.js';
import { renderReportComment } from '../../src/report/markdown/comment.js';
import { renderSummary } from '../../src/report/markdown/summary.js';
import { Browser, type Page } from './browser.js';
import { reportKernelNames } from '../../src/report/kernel-display-name.js';
import { FAMILY_IDS, familyLabel } from '../../src/model/family-ids.js';
import { makeReport, row } from '../report/report-factory.js';

const here = dirname(fileURLToPath(import.meta.url));
const ROOT = join(here, '..', '..');
const OUT = join(here, 'out');
const NARROW = 780;

// GitHub's comment body, the parts that decide the layout.
const STYLE = `
body { margin: 0; font: 14px/1.5 -apple-system, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif; }
.markdown-body { box-sizing: border-box; max-width: 100%; padding: 16px; }
.markdown-body table { display: block; width: max-content; max-width: 100%; overflow: auto; border-collapse: collapse; }
.markdown-body td, .markdown-body th { padding: 6px 13px; border: 1px solid #d1d9e0; }
.markdown-body code { white-space: break-spaces; font-size: 85%; padding: .2em .4em; }
.markdown-body pre { overflow: auto; }
`;

function page(markdown: string): string {
  const script = (path: string) => `<script src="${pathToFileURL(join(ROOT, 'node_modules', path))}"></script>`;
  const source = JSON.stringify(markdown).replace(/</g, '\\u003c');
  return `<!doctype html><html><head><meta charset="utf-8"><style>${STYLE}</style></head><body><div class="markdown-body" id="body"></div>
${script('marked/lib/marked.umd.js')}${script('mermaid/dist/mermaid.min.js')}
<script>
(async () => {
  const body = document.getElementById('body');
  body.innerHTML = marked.parse(${source});
  for (const code of body.querySelectorAll('pre > code.language-mermaid')) {
    const chart = document.createElement('pre');
    chart.className = 'mermaid';
    chart.textContent = code.textContent;
    code.parentElement.replaceWith(chart);
  }
  mermaid.initialize({ startOnLoad: false });
  await mermaid.run({ querySelector: '.mermaid' });
  document.documentElement.setAttribute('data-ready', '1');
})().catch((error) => document.documentElement.setAttribute('data-error', String(error)));
</script></body></html>`;
}

interface Rendered {
  charts: number;
  bars: number;
  lines: number;
  syntaxErrors: number;
  /** The fill of each bar series, in drawing order. */
  barColours: string[];
  /** Chart texts (labels, titles) that reach past the chart or the page. */
  cutLabels: string[];
  nextVisible: boolean;
  nextInDetails: boolean;
  /** Where the Next: step's bottom edge and the verdict heading's top are on the page, in px. */
  nextBottom: number;
  /** The "Where the time went" line: its bottom edge in px, and its text. */
  whereBottom: number;
  whereText: string;
  /** Invisible characters in the page's text (a copied name must be the name). */
  invisible: number;
  /** The text of every inline code element (kernel and finding names). */
  codes: string[];
  headingTop: number;
  pageWidth: number;
  tables: Array<{ header: string; scroll: number; client: number; right: number }>;
}

async function render(browser: Browser, name: string, markdown: string, openDetails = false, width = NARROW): Promise<{ page: Page; found: Rendered }> {
  mkdirSync(OUT, { recursive: true });
  const file = join(OUT, `${name}.html`);
  writeFileSync(file, page(markdown));
  const view = await browser.newPage(width, 900);
  await view.load(pathToFileURL(file).toString(), "document.documentElement.getAttribute('data-ready') || document.documentElement.getAttribute('data-error')", 30_000);
  const error = await view.evaluate<string | null>("document.documentElement.getAttribute('data-error')");
  if (error) throw new Error(`${name}: ${error}`);
  if (openDetails) await view.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; }), true");
  writeFileSync(join(OUT, `${name}-${width}.png`), await view.screenshot(width));
  const found = await view.evaluate<Rendered>(`(() => {
    const next = [...document.querySelectorAll('#body li')].find((li) => li.textContent.trim().startsWith('Next:'));
    return {
      charts: document.querySelectorAll('svg[aria-roledescription="xychart"]').length,
      bars: document.querySelectorAll('svg g.bar-plot-0 rect').length,
      lines: document.querySelectorAll('svg g[class^="line-plot"] path').length,
      syntaxErrors: [...document.querySelectorAll('svg')].filter((s) => /Syntax error/i.test(s.textContent)).length,
      barColours: [...document.querySelectorAll('svg g[class^="bar-plot"]')].map((g) => [...new Set([...g.querySelectorAll('rect')].map((r) => r.getAttribute('fill')))].join(',')),
      cutLabels: [...document.querySelectorAll('svg[aria-roledescription="xychart"]')].flatMap((svg) => {
        const box = svg.getBoundingClientRect();
        return [...svg.querySelectorAll('text')].filter((t) => {
          const r = t.getBoundingClientRect();
          return r.width > 0 && (r.left < box.left - 1 || r.right > box.right + 1 || r.left < 0 || r.right > document.documentElement.clientWidth + 1);
        }).map((t) => t.textContent);
      }),
      nextVisible: Boolean(next && next.getClientRects().length && next.offsetParent),
      nextInDetails: Boolean(next && next.closest('details')),
      invisible: (document.getElementById('body').textContent.match(/[\u00ad\u200b-\u200f\u2060-\u2064\ufeff]/g) || []).length,
      codes: [...document.querySelectorAll('#body code')].filter((c) => !c.closest('pre')).map((c) => c.textContent),
      nextBottom: next ? next.getBoundingClientRect().bottom : Infinity,
      whereBottom: (() => { const w = [...document.querySelectorAll('#body p')].find((p) => p.textContent.trim().startsWith('Where the time went')); return w ? w.getBoundingClientRect().bottom : Infinity; })(),
      whereText: ([...document.querySelectorAll('#body p')].find((p) => p.textContent.trim().startsWith('Where the time went')) || { textContent: '' }).textContent.trim(),
      headingTop: document.querySelector('#body h2') ? document.querySelector('#body h2').getBoundingClientRect().top : Infinity,
      pageWidth: document.documentElement.scrollWidth,
      tables: [...document.querySelectorAll('#body table')].filter((t) => t.getClientRects().length).map((t) => ({
        header: t.querySelector('tr').textContent.trim().replace(/\\s+/g, ' '),
        scroll: t.scrollWidth,
        client: t.clientWidth,
        right: Math.max(...[...t.querySelectorAll('th')].map((th) => th.getBoundingClientRect().right)),
      })),
    };
  })()`);
  return { page: view, found };
}

describe('the comment and the summary of the real H200 pair, rendered', () => {
  let browser: Browser;
  let report: Report;
  let families: number;

  beforeAll(async () => {
    const samples = join(ROOT, 'samples');
    const baseline = await analyze({ inputs: await expandInputs([join(samples, 'baseline')]) });
    report = await analyze({ inputs: await expandInputs([join(samples, 'current')]), baseline: { report: baseline, origin: 'file', path: 'samples/baseline', reason: 'the bundled fused-attention run' } });
    families = Math.min(6, report.comparison!.rows.filter((r) => r.kind === 'family-share').length);
    browser = await Browser.launch(NARROW, 900);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('draws both charts in the comment without a syntax error: a bar per family and side, a line per side', async () => {
    const { page, found } = await render(browser, 'comment', renderReportComment(report, { key: 'llama' }));
    expect(page.problems).toEqual([]);
    expect(families).toBeGreaterThanOrEqual(3);
    expect(found).toMatchObject({ charts: 2, bars: 2 * families, lines: 2, syntaxErrors: 0 });
    // Kernel names as the page shows them copy back as the names (the display name of each kernel).
    expect(found.invisible).toBe(0);
    const names = reportKernelNames(report);
    for (const kernel of report.kernels.slice(0, 5)) expect(found.codes).toContain(names(kernel.name));
  }, 60_000);

  it.each([NARROW, 1280])('at %i px draws the baseline and this run in two colours, no label cut', async (width) => {
    const { found } = await render(browser, `comment-chart`, renderReportComment(report, { key: 'llama' }), false, width);
    expect(found.barColours).toHaveLength(2);
    expect(new Set(found.barColours).size).toBe(2);
    expect(found.cutLabels).toEqual([]);
  }, 60_000);

  it.each([NARROW, 1280])('at %i px keeps the longest family labels whole in the chart', async (width) => {
    // Six families with the longest built-in labels, every one of them moved.
    const longest = [...FAMILY_IDS].sort((a, b) => familyLabel(b).length - familyLabel(a).length).slice(0, 6);
    const rows = longest.map((id, i) => row({ metric: `family:${id}`, kind: 'family-share', unit: '%', baseline: 10 + i, current: 12 + i, delta: 2, ci: null, threshold: 5 }));
    const { found } = await render(browser, 'comment-long-labels', renderReportComment(makeReport({ rows, verdict: 'pass' }), { key: 'k' }), false, width);
    expect(found.syntaxErrors).toBe(0);
    expect(found.cutLabels).toEqual([]);
  }, 60_000);

  it.each([NARROW, 1280])("at %i px keeps the verdict, where the time went and the top finding's Next: step on the first screen (900 px), outside the details", async (width) => {
    const { found } = await render(browser, 'comment-next', renderReportComment(report, { key: 'llama' }), false, width);
    // The sentence names the kernel that grew and the share of the measured slowdown kernels explain.
    expect(found.whereText).toMatch(/^Where the time went: \+\d+ µs\/step in .*direct_copy.*explains \d+ % of the \+\d+ µs\/step slowdown/);
    expect(found.whereBottom).toBeLessThanOrEqual(900);
    expect(found.nextVisible).toBe(true);
    expect(found.nextInDetails).toBe(false);
    expect(found.headingTop).toBeLessThan(100);
    expect(found.nextBottom).toBeLessThanOrEqual(900);
  }, 60_000);

  it.each([
    ['as it opens', false, 1],
    ['with every details block open', true, 5],
  ])('fits every table at 780 px %s: the threshold and status columns stay on screen', async (_, open, atLeast) => {
    const { found } = await render(browser, open ? 'comment-open' : 'comment-narrow', renderReportComment(report, { key: 'llama' }), open);
    expect(found.tables.filter((t) => t.header.includes('threshold')).length).toBeGreaterThan(0);
    expect(found.tables.length).toBeGreaterThanOrEqual(atLeast);
    for (const table of found.tables) {
      expect({ header: table.header, hidden: table.scroll - table.client > 1, right: table.right <= NARROW }).toEqual({ header: table.header, hidden: false, right: true });
    }
    expect(found.pageWidth).toBeLessThanOrEqual(NARROW);
  }, 60_000);

  it('draws the same charts in the job summary', async () => {
    const { page, found } = await render(browser, 'summary', renderSummary(report));
    expect(page.problems).toEqual([]);
    expect(found).toMatchObject({ charts: 2, bars: 2 * families, lines: 2, syntaxErrors: 0 });
  }, 60_000);
});
