/**
 * The dashboard in a real browser (headless Chromium from the npm registry, see browser.ts): a year
 * of nightly runs of five workloads loads in under a second, draws every point, and raises no
 * console error; hostile report text renders as text and runs nothing. Screenshots go to
 * __tests__/browser/out/.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { analyze } from '../../src/pipeline/analyze.js';
import { writeSite } from '../../src/cli/dashboard-site.js';
import { expandInputs } from '../../src/io/input-paths.js';
import type { Report } from '../../src/model/report.js';
import { buildSite, type DashboardData } from '../../src/report/dashboard/index.js';
import { finding } from '../report/report-factory.js';
import { DEFAULT_FAMILIES, DEFAULT_KERNELS, nightlyMatrix, nightlyReport } from '../dashboard/nightly-factory.js';
import { Browser, type Page } from './browser.js';

const here = dirname(fileURLToPath(import.meta.url));
const OUT = join(here, 'out');
const ROOT = join(here, '..', '..');
const WIDTH = 1360;
const HOSTILE_KERNEL = '<img src=x onerror=alert(1)>';

const NIGHTS = 365;
const SHIFT_AT = 300;

let browser: Browser | undefined;

beforeAll(async () => {
  // Only this file's site: the other browser tests write their pages into OUT at the same time.
  rmSync(join(OUT, 'nightly'), { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  browser = await Browser.launch(WIDTH, 900);
}, 30_000);

afterAll(async () => {
  await browser?.close();
});

async function open(site: string): Promise<{ page: Page; wallMs: number; readyMs: number }> {
  const page = await browser!.newPage(WIDTH, 900);
  const url = pathToFileURL(join(site, 'index.html')).toString();
  const wallMs = await page.load(url, "document.documentElement.getAttribute('data-ready') || document.documentElement.getAttribute('data-error')");
  const readyMs = Number(await page.evaluate<string>("document.documentElement.getAttribute('data-ready')"));
  return { page, wallMs, readyMs };
}

describe('a year of nightly runs of five workloads', () => {
  let data: DashboardData;
  let page: Page;
  let timing: { wallMs: number; readyMs: number };

  beforeAll(async () => {
    const inputs = nightlyMatrix(NIGHTS, SHIFT_AT).flatMap((series) => series.map((report, i) => ({ report, source: `night-${i}` })));
    const site = buildSite(inputs, [], { title: 'Nightly inference performance', generatedAt: '2026-12-01T06:00:00.000Z' });
    data = site.data;
    await writeSite(join(OUT, 'nightly'), site.files);
    const opened = await open(join(OUT, 'nightly'));
    page = opened.page;
    timing = opened;
    writeFileSync(join(OUT, 'dashboard.png'), await page.screenshot(WIDTH));
    writeFileSync(join(OUT, 'dashboard-top.png'), await page.screenshot(WIDTH, 1000));
    writeFileSync(join(OUT, 'timing.json'), `${JSON.stringify({ reports: inputs.length, readyMs: timing.readyMs, wallMs: Math.round(timing.wallMs), dataBytes: site.files.find((f) => f.path === 'data.js')!.content.length }, null, 2)}\n`);
  }, 60_000);

  it('loads in under a second and raises no console error', () => {
    // readyMs: performance.now() when the page script set data-ready, i.e. from the start of navigation.
    expect(timing.readyMs).toBeGreaterThan(0);
    expect(timing.readyMs).toBeLessThan(1000);
    expect(page.problems).toEqual([]);
  });

  it('draws one point per run in every workload card, and a band per chart', async () => {
    const counts = await page.evaluate<Array<{ points: number; bands: number; declared: string }>>(
      `[...document.querySelectorAll('article.card')].map((card) => ({ points: card.querySelectorAll('circle[data-point]').length, bands: card.querySelectorAll('path.band').length, declared: card.getAttribute('data-points') }))`,
    );
    expect(counts).toHaveLength(5);
    for (const card of counts) expect(card).toEqual({ points: NIGHTS, bands: 1, declared: String(NIGHTS) });
  });

  it('lists the open regression on top and marks where it began', async () => {
    const top = await page.evaluate<{ first: string; regressions: string[]; changes: string[]; firstCard: string }>(`({
      first: document.querySelector('main > section').id,
      regressions: [...document.querySelectorAll('[data-regression]')].map((r) => r.textContent),
      changes: [...document.querySelectorAll('#w0 line[data-change]')].map((l) => l.getAttribute('data-change')),
      firstCard: document.querySelector('article.card h2').textContent,
    })`);
    expect(top.first).toBe('open-regressions');
    expect(top.regressions).toHaveLength(1);
    expect(top.regressions[0]).toContain('llama-3.1-8b · H200 · bf16 · bs1');
    expect(top.regressions[0]).toMatch(/▼ −8\.\d%/);
    const commit = data.workloads[0]!.points.commit[SHIFT_AT]!;
    expect(top.regressions[0]).toContain(commit.slice(0, 7));
    expect(top.changes).toEqual([String(SHIFT_AT)]);
    expect(top.firstCard).toBe('llama-3.1-8b · H200 · bf16 · bs1');
  });

  it('stacks one area per family and lists the kernels that entered and left', async () => {
    const w = data.workloads[0]!;
    const found = await page.evaluate<{ areas: number; labels: number; events: string[] }>(`({
      areas: document.querySelectorAll('#w0 path[data-family]').length,
      labels: document.querySelectorAll('#w0 text[data-family-label]').length,
      events: [...document.querySelectorAll('#w0 tr[data-kernel-event]')].map((r) => r.getAttribute('data-kernel-event')),
    })`);
    expect(found.areas).toBe(w.families.length);
    // Labels only for families with time in the latest run: the fused attention is gone by then.
    expect(found.labels).toBe(w.points.shares[NIGHTS - 1]!.filter((s) => s > 0).length);
    expect(found.events).toEqual(w.kernelEvents.map((e) => e.kind));
    // At the shift: matmul + softmax enter, the fused kernel leaves, and the GEMMs lose share.
    expect(found.events.filter((k) => k === 'entered' || k === 'left').sort()).toEqual(['entered', 'entered', 'left']);
  });

  it('shows exact values on hover and links on click', async () => {
    const shown = await page.evaluate<{ tip: string; links: string[] }>(`(() => {
      const svg = document.querySelector('#w0 svg.chart');
      const box = svg.getBoundingClientRect();
      const at = (i) => box.left + (70 + i * (740 / ${NIGHTS - 1})) * box.width / 1000;
      const where = { clientX: at(${SHIFT_AT}), clientY: box.top + box.height / 2, bubbles: true };
      svg.dispatchEvent(new MouseEvent('mousemove', where));
      const tip = document.querySelector('.tooltip').textContent;
      svg.dispatchEvent(new MouseEvent('click', where));
      const links = [...document.querySelectorAll('#w0 .detail a')].map((a) => a.getAttribute('href'));
      return { tip, links };
    })()`);
    const w = data.workloads[0]!;
    const value = w.points.value[SHIFT_AT]!;
    expect(shown.tip).toContain(w.points.commit[SHIFT_AT]!.slice(0, 7));
    expect(shown.tip).toContain(value.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 }));
    expect(shown.tip).toContain('unfused-attention');
    // What decided the night's verdict, as its report recorded it.
    expect(shown.tip).toContain(`decided by: ${w.points.decided[SHIFT_AT]!.join(', ')}`);
    expect(w.points.decided[SHIFT_AT]).toEqual(['finding:unfused-attention']);
    const sha = w.points.commit[SHIFT_AT]!;
    expect(shown.links).toEqual([
      `https://github.com/octo/gpu-app/commit/${sha}`,
      `https://github.com/octo/gpu-app/compare/${w.points.commit[SHIFT_AT - 1]}...${sha}`,
      `https://github.com/octo/gpu-app/actions/runs/${9_000_000 + SHIFT_AT}`,
    ]);
  });
});

describe('hostile report text and the real H200 reports', () => {
  let page: Page;

  beforeAll(async () => {
    const run = (dir: string, day: string, commit: string) =>
      expandInputs([join(ROOT, 'samples', dir)]).then((inputs) =>
        analyze({ inputs, run: { workload: 'llama-decode · H200 (bundled samples)', commit, repository: 'octo/gpu-app', timestamp: `${day}T03:00:00.000Z`, runUrl: 'https://github.com/octo/gpu-app/actions/runs/41' } }),
      );
    const real: Report[] = [await run('baseline', '2026-11-29', 'a'.repeat(40)), await run('current', '2026-11-30', 'b'.repeat(40))];
    const base = { nights: 6, level: () => 900, families: () => ({ ...DEFAULT_FAMILIES, '"><img src=x onerror=alert(5)>': 0.05 }), seed: 3 };
    const hostile = Array.from({ length: 6 }, (_, night) => {
      const report = nightlyReport({ ...base, workload: '<script>alert(2)</script>', kernels: () => (night < 3 ? DEFAULT_KERNELS : [...DEFAULT_KERNELS, { name: HOSTILE_KERNEL, family: 'gemm', part: 0.3 }]) }, night);
      return {
        ...report,
        run: { ...report.run, runUrl: 'javascript:alert(4)', repository: 'octo/gpu-app' },
        findings: [finding({ id: 'host-bound', title: '<svg onload=alert(3)>' })],
      };
    });
    const inputs = [...real, ...hostile].map((report, i) => ({ report, source: `r${i}` }));
    const site = buildSite(inputs, [{ source: '<b>broken</b>/report.json', reason: '<i>bad</i>' }], { generatedAt: '2026-12-01T06:00:00.000Z' });
    await writeSite(join(OUT, 'hostile'), site.files);
    page = (await open(join(OUT, 'hostile'))).page;
    // Hover and click every card so the tooltip and the details panel render report text too.
    await page.evaluate(`document.querySelectorAll('svg.chart').forEach((svg) => {
      const box = svg.getBoundingClientRect();
      const where = { clientX: box.left + box.width * 0.72, clientY: box.top + 20, bubbles: true };
      svg.dispatchEvent(new MouseEvent('mousemove', where));
      svg.dispatchEvent(new MouseEvent('click', where));
    })`);
    writeFileSync(join(OUT, 'dashboard-hostile.png'), await page.screenshot(WIDTH));
  }, 60_000);

  it('renders hostile names as text, runs none of them, and logs no error', async () => {
    const found = await page.evaluate<{ imgs: number; inlineScripts: number; text: string; hrefs: string[]; title: string }>(`({
      imgs: document.querySelectorAll('img').length,
      inlineScripts: document.querySelectorAll('script:not([src])').length,
      text: document.body.textContent,
      hrefs: [...document.querySelectorAll('a[href]')].map((a) => a.getAttribute('href')),
      title: document.title,
    })`);
    expect(page.problems).toEqual([]);
    expect(found.imgs).toBe(0);
    expect(found.inlineScripts).toBe(0);
    expect(found.text).toContain(HOSTILE_KERNEL);
    expect(found.text).toContain('<script>alert(2)</script>');
    expect(found.text).toContain('<svg onload=alert(3)>');
    expect(found.text).toContain('<b>broken</b>/report.json');
    for (const href of found.hrefs) expect(href).toMatch(/^(https:\/\/github\.com\/octo\/gpu-app\/|#w\d+$)/);
    expect(found.hrefs.some((h) => h.includes('javascript'))).toBe(false);
    expect(found.title).toBe('profile-gate dashboard');
  });

  it('draws the real H200 baseline and unfused-attention runs as one workload of two points', async () => {
    const card = await page.evaluate<{ name: string; points: number; timeline: string; details: string }>(`(() => {
      const card = [...document.querySelectorAll('article.card')].find((c) => c.querySelector('h2').textContent.startsWith('llama-decode'));
      return {
        name: card.querySelector('h2').textContent,
        points: card.querySelectorAll('circle[data-point]').length,
        timeline: [...card.querySelectorAll('rect[data-finding]')].map((r) => r.getAttribute('data-from') + '-' + r.getAttribute('data-to')).join(','),
        details: card.querySelector('.detail').textContent,
      };
    })()`);
    expect(card.name).toBe('llama-decode · H200 (bundled samples)');
    expect(card.points).toBe(2);
    expect(card.details).toContain('unfused-attention');
    // Both traces count 8 profiler steps: a bar of GPU time per step for each run, and the clicked
    // run's families with their time per step (unfused: 24,064 µs of kernels / 8 = 3.01 ms per step).
    const steps = await page.evaluate<{ runs: string[]; per: boolean }>(`(() => {
      const card = [...document.querySelectorAll('article.card')].find((c) => c.querySelector('h2').textContent.startsWith('llama-decode'));
      return { runs: [...new Set([...card.querySelectorAll('rect[data-step-family]')].map((r) => r.getAttribute('data-index')))], per: card.querySelector('.detail').textContent.includes('per step') };
    })()`);
    expect(steps.runs.sort()).toEqual(['0', '1']);
    expect(steps.per).toBe(true);
  }, 30_000);
});

describe('a regression a reviewer accepted', () => {
  const ACCEPTED_AT = 10;
  let page: Page;
  let data: DashboardData;

  beforeAll(async () => {
    const shape = { workload: 'accepted-shift', nights: 16, level: (night: number) => (night < ACCEPTED_AT ? 1500 : 1380), families: () => DEFAULT_FAMILIES, kernels: () => DEFAULT_KERNELS, seed: 9 };
    const reports = Array.from({ length: shape.nights }, (_, night) => {
      const report = nightlyReport(shape, night);
      if (night !== ACCEPTED_AT) return report;
      return { ...report, verdict: 'accepted' as const, acceptance: { by: 'maint', via: 'label' as const, at: '2026-03-11T09:00:00Z', covers: ['decode_tok_s'] } };
    });
    const site = buildSite(reports.map((report, i) => ({ report, source: `n${i}` })), [], { generatedAt: '2026-12-01T06:00:00.000Z' });
    data = site.data;
    await writeSite(join(OUT, 'accepted'), site.files);
    page = (await open(join(OUT, 'accepted'))).page;
  }, 60_000);

  it('keeps the night’s verdict and its accepter, and the change point says it was accepted', async () => {
    expect(data.workloads[0]!.points.accepted[ACCEPTED_AT]).toBe('maint');
    expect(data.regressions.map((r) => r.index)).toEqual([ACCEPTED_AT]);
    const found = await page.evaluate<{ regression: string; shifts: string[]; table: string }>(`({
      regression: document.querySelector('[data-regression]').textContent,
      shifts: [...document.querySelectorAll('tr[data-shift]')].map((r) => r.textContent),
      table: [...document.querySelectorAll('details table tr')].map((r) => r.textContent).join('\\n'),
    })`);
    expect(page.problems).toEqual([]);
    expect(found.regression).toContain('accepted by @maint');
    expect(found.shifts.some((s) => s.includes('accepted by @maint'))).toBe(true);
    expect(found.table).toContain('accepted by @maint');
  }, 30_000);
});
