/**
 * The dashboard's layout in a real browser at three widths: the stacked bars of "GPU time per decode
 * step" stay inside their plot and no axis label is cut; an open regression's p-value reads as
 * p<0.001, never p=0; counts of one are singular; a workload without throughput gets no empty
 * panel; the latest verdict beside an open regression is reconciled in words. Screenshots go to
 * __tests__/browser/out/layout-WIDTH.png.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { analyze } from '../../src/pipeline/analyze.js';
import { writeSite } from '../../src/cli/dashboard-site.js';
import { expandInputs } from '../../src/io/input-paths.js';
import { buildSite, type DashboardData } from '../../src/report/dashboard/index.js';
import { nightlyMatrix } from '../dashboard/nightly-factory.js';
import { Browser } from './browser.js';

const here = dirname(fileURLToPath(import.meta.url));
const OUT = join(here, 'out');
const ROOT = join(here, '..', '..');
const WIDTHS = [1360, 900, 420];

let browser: Browser | undefined;
let site: string;
let data: DashboardData;

beforeAll(async () => {
  mkdirSync(OUT, { recursive: true });
  browser = await Browser.launch(WIDTHS[0], 900);
  // The real H200 runs (baseline, then unfused attention: its copy bars are the tallest), a
  // kernel-only capture of the same workload (no throughput), and one nightly series with an open regression.
  const run = (workload: string, at: string) => ({ workload, commit: at.replace(/\D/g, '').padEnd(40, 'a'), timestamp: at });
  const baseline = await analyze({ inputs: await expandInputs([join(ROOT, 'samples', 'baseline')]), run: run('llama-decode · H200', '2026-11-28T03:00:00.000Z') });
  const current = await analyze({ inputs: await expandInputs([join(ROOT, 'samples', 'current')]), run: run('llama-decode · H200', '2026-11-29T03:00:00.000Z') });
  const kernelsOnly = await analyze({ inputs: [join(ROOT, 'samples', 'current', 'unfused.trace.json.gz')], run: run('kernels only', '2026-11-29T03:00:00.000Z') });
  const [nightly] = nightlyMatrix(40, 30);
  // Its last night compared with the night before, already at the lower level: a pass, beside the open regression.
  const last = nightly!.length - 1;
  nightly![last] = { ...nightly![last]!, verdict: 'pass' };
  const inputs = [baseline, current, kernelsOnly, ...nightly!].map((report, i) => ({ report, source: `r-${i}` }));
  const built = buildSite(inputs, [], { title: 'Layout', generatedAt: '2026-12-01T06:00:00.000Z' });
  data = built.data;
  site = join(OUT, 'layout');
  await writeSite(site, built.files);
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

describe.each(WIDTHS)('at %i px wide', (width) => {
  it('keeps every bar inside its plot and every label inside its chart; words as a reader takes them', async () => {
    const page = await browser!.newPage(width, 900);
    await page.load(pathToFileURL(join(site, 'index.html')).toString(), "document.documentElement.getAttribute('data-ready') || document.documentElement.getAttribute('data-error')");
    writeFileSync(join(OUT, `layout-${width}.png`), await page.screenshot(width));
    const found = await page.evaluate<{ bars: number; outside: string[]; cut: string[]; text: string; metricPanels: Record<string, number>; reconcile: string[] }>(`(() => {
      const outside = [], cut = [];
      let bars = 0;
      document.querySelectorAll('svg.chart').forEach((svg) => {
        const view = svg.viewBox.baseVal;
        const rects = svg.querySelectorAll('rect[data-step-family]');
        if (rects.length) {
          // The plot's top: its highest grid line.
          const top = Math.min(...[...svg.querySelectorAll('line.grid')].map((l) => Number(l.getAttribute('y1'))));
          rects.forEach((r) => { bars++; if (Number(r.getAttribute('y')) < top - 0.05) outside.push(r.getAttribute('data-index') + ':' + r.getAttribute('y') + '<' + top); });
        }
        svg.querySelectorAll('text').forEach((t) => {
          const box = t.getBBox();
          if (box.width > 0 && (box.x < view.x - 0.5 || box.x + box.width > view.x + view.width + 0.5)) cut.push(t.textContent);
        });
      });
      const metricPanels = {};
      document.querySelectorAll('article.card').forEach((card) => {
        metricPanels[card.querySelector('h2').textContent] = [...card.querySelectorAll('.section-title')].filter((s) => s.firstChild.textContent === ${JSON.stringify(data.metric.label)}).length;
      });
      return { bars, outside, cut, text: document.body.innerText, metricPanels, reconcile: [...document.querySelectorAll('[data-reconcile]')].map((e) => e.textContent) };
    })()`);
    expect(page.problems).toEqual([]);
    expect(found.bars).toBeGreaterThan(0);
    expect(found.outside).toEqual([]);
    expect(found.cut).toEqual([]);
    // p-values: the regression's, below 0.001, as p<0.001.
    expect(data.regressions.length).toBeGreaterThan(0);
    expect(data.regressions[0]!.pValue).toBeLessThan(0.001);
    expect(found.text).toContain('p<0.001');
    expect(found.text).not.toMatch(/p=0(?![.\d])/);
    expect(found.text).not.toMatch(/\b1 (workloads|reports|runs|open regressions)\b/);
    // The kernel-only workload has no throughput panel; the others have theirs.
    expect(found.metricPanels['kernels only']).toBe(0);
    expect(found.metricPanels['llama-decode · H200']).toBe(1);
    // The nightly series' latest verdict sits beside its open regression, said in words.
    const regressed = data.workloads[data.regressions[0]!.workload]!;
    expect(regressed.points.verdict.at(-1)).toBe(0);
    expect(found.reconcile).toHaveLength(1);
    expect(found.reconcile[0]).toMatch(/^The latest run’s verdict \(pass\) is its own gate against its baseline; the open regression is the level since \d{4}-\d\d-\d\d/);
  }, 60_000);
});
