/**
 * The comment and the summary as a new reviewer reads them: names that copy back whole, thresholds
 * signed the way they are gated, passes folded, every leg of a matrix listed, the measured notes kept
 * on a failure, one median per metric, a title that names the run.
 */
import { marked } from 'marked';
import type { ComparisonRow, Report } from '../../../src/model/report.js';
import { renderComment, renderReportComment } from '../../../src/report/markdown/comment.js';
import { renderSummary } from '../../../src/report/markdown/summary.js';
import { comparisonRowCells, DETAIL_LEVELS } from '../../../src/report/markdown/sections.js';
import { mergeReports } from '../../../src/report/merge-reports.js';
import { launchCallsText } from '../../../src/report/number-format.js';
import { finding, makeReport, row, tableCells } from '../report-factory.js';

/** What a reader copies from the rendered page: the HTML's text, tags dropped and entities decoded. */
function pageText(markdown: string): string {
  const html = marked.parse(markdown, { async: false });
  return html
    .replace(/<[^>]+>/g, '')
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n: string) => String.fromCodePoint(parseInt(n, 16)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

/** Characters that show nothing and would make a copied name differ from the real one. */
const INVISIBLE = /[\u00ad\u200b-\u200f\u2060-\u2064\ufeff]/u;

describe('names copied from the rendered comment and summary', () => {
  const names = ['void flash_fwd_kernel<Flash_fwd_params, 128>', 'nvjet_sm90_tst_256x8_64x6_4x1_v_bz_TNT', 'op@v2_#12_GH-7'];
  const report = makeReport({
    verdict: 'fail',
    workload: 'llama@main #12',
    kernels: 3,
    kernelName: (i) => names[i]!,
    findings: [finding({ id: 'dominant-kernel', severity: 'error', title: 'One kernel dominates', message: `${names[2]} takes 60% of kernel time`, kernel: names[2] })],
    rows: [row({ metric: `kernel:${names[2]}`, kind: 'kernel-share', unit: '% of GPU time', baseline: 10, current: 30, delta: 20, ci: null, threshold: 5, status: 'fail' })],
  });
  // As the gate writes it: the row with its fail threshold, judged under the default share thresholds.
  const withReason: Report = {
    ...report,
    decision: { ...report.decision, policy: { failOn: [], failOnSeverity: 'error', failVerdicts: ['fail', 'invalid'], thresholds: {}, shareThresholds: { warn: 5, fail: 20 }, ruleOptions: {} } },
    comparison: { ...report.comparison!, rows: report.comparison!.rows.map((r) => ({ ...r, reading: { kind: 'share' as const, fail: 20 } })) },
  };

  it.each([
    ['comment', () => renderReportComment(withReason, { key: 'k' })],
    ['summary', () => renderSummary(withReason)],
  ])('the %s holds no inserted invisible character and every name as it was', (_, render) => {
    const markdown = render();
    expect(markdown).not.toMatch(INVISIBLE);
    const text = pageText(markdown);
    expect(text).not.toMatch(INVISIBLE);
    // The heading, the finding's message, the reason line and the tables.
    expect(text).toContain('llama@main #12');
    expect(text).toContain(`${names[2]} takes 60% of kernel time`);
    expect(text).toContain(`kernel ${names[2]} share of GPU time`);
    expect(text).toContain('nvjet_sm90_tst_256x8_64x6_4x1_v_bz_TNT');
  });

  it('still keeps a mention or an issue reference from linking: the text is split by an element', () => {
    const markdown = renderReportComment(withReason, { key: 'k' });
    expect(markdown).toContain('llama@<wbr>main \\#<wbr>12');
    expect(markdown).toContain('op@<wbr>v2\\_\\#<wbr>12');
    // Outside entities (`&#95;`), no `@name` and no `#12` is left whole.
    expect(markdown.replace(/&#\d+;/g, '')).not.toMatch(/@\\?[A-Za-z0-9]|#\d/);
  });
});

describe('thresholds carry the sign of the direction they gate', () => {
  const d = DETAIL_LEVELS[0]!;
  const threshold = (r: ComparisonRow): string => tableCells(comparisonRowCells(r, d))[5]!.trim();

  it('a share fails on growth only: +5 pp', () => {
    expect(threshold(row({ metric: 'family:copy', kind: 'family-share', unit: '% of GPU time', baseline: 5.6, current: 0, delta: -5.6, ci: null, threshold: 5, status: 'pass' }))).toBe('+5 pp');
  });

  it('throughput fails on a drop, latency on a rise', () => {
    expect(threshold(row({ threshold: 0.03 }))).toBe('−3%');
    expect(threshold(row({ metric: 'ttft_ms', unit: 'ms', direction: 'lower', threshold: 0.05 }))).toBe('+5%');
  });
});

describe('the comparison folds its passes', () => {
  const rows = [
    row({ status: 'fail', delta: -0.2 }),
    ...Array.from({ length: 21 }, (_, i) => row({ metric: `family:f${i}`, kind: 'family-share', unit: '% of GPU time', baseline: 1, current: 1.1, delta: 0.1, ci: null, threshold: 5, status: 'pass' })),
    row({ metric: 'ttft_ms', unit: 'ms', direction: 'lower', status: 'warn', delta: 0.06 }),
  ];
  const summary = renderSummary(makeReport({ verdict: 'fail', rows }));
  const section = summary.slice(summary.indexOf('### Comparison'), summary.indexOf('###', summary.indexOf('### Comparison') + 5));

  it('keeps the alerts in view and the 21 passes in one closed <details>', () => {
    const fold = section.indexOf('<details><summary>21 rows with nothing to flag</summary>');
    expect(fold).toBeGreaterThan(0);
    const open = section.slice(0, fold);
    expect(open).toContain('| Decode throughput |');
    expect(open).toContain('| Time to first token |');
    expect(open).not.toContain('family: f');
    expect(section.slice(fold).match(/\| family: f\d+/g)).toHaveLength(21);
  });
});

describe('what the medians rest on, on a failure too', () => {
  const note = 'dropped the first sample of current as warm-up (250 vs median 338.7 tok/s)';
  const samples = [250, 338.5, 338.6, 338.7, 338.8, 338.9];
  const report = makeReport({
    verdict: 'fail',
    decodeSamples: samples,
    rows: [row({ status: 'fail', baseline: 360, current: 338.7, delta: 338.7 / 360 - 1, threshold: 0.03, samples: [6, 5], note })],
  });

  it('shows the warm-up note in the comment alert block and in the summary', () => {
    const comment = renderReportComment(report, { key: 'k' });
    expect(comment.indexOf('warm\\-up')).toBeGreaterThan(0);
    expect(comment.indexOf('warm\\-up')).toBeLessThan(comment.indexOf('<details>'));
    expect(renderSummary(report)).toContain(`- Decode throughput: dropped the first sample of current as warm\\-up`);
  });

  it('shows one median of the metric: the compared one, with the runs it rests on', () => {
    const summary = renderSummary(report);
    expect(summary).not.toMatch(/338\.5 tok\/s/);
    expect(summary).toContain('| Decode throughput | 338.7 tok/s | — (see the comparison) | 5 of 6 |');
  });
});

describe('the title names the run', () => {
  it('without a workload or a model: the captures and the GPU, never a bare "profile"', () => {
    const base = makeReport({ verdict: 'fail', rows: [row({ status: 'fail' })] });
    const report: Report = { ...base, environment: { ...base.environment, model: undefined as unknown as string }, sources: [{ path: 'runs/unfused/trace.json.gz', format: 'kineto-json', parts: [], stats: [] }] };
    delete (report.environment as { model?: string }).model;
    const heading = renderReportComment(report, { key: 'k' }).split('\n')[1]!;
    expect(heading).toBe('## profile-gate: ❌ Fail · unfused \\(NVIDIA H200\\)');
    expect(renderSummary(report).split('\n')[0]).toBe('## profile-gate: ❌ Fail · unfused \\(NVIDIA H200\\)');
  });

  it('with nothing to name it by, the verdict alone', () => {
    const base = makeReport({ verdict: 'fail', rows: [row({ status: 'fail' })] });
    const report: Report = { ...base, environment: { vendor: 'nvidia' } as Report['environment'], sources: [] };
    expect(renderReportComment(report, { key: 'k' }).split('\n')[1]).toBe('## profile-gate: ❌ Fail');
  });
});

describe('the matrix comment', () => {
  it('lists every leg in one line each, the passing ones too', () => {
    const leg = (verdict: Report['verdict']) => makeReport({ verdict, rows: [row({ status: verdict === 'fail' ? 'fail' : 'pass' })] });
    const merged = mergeReports([
      { label: 'llama-h200', report: leg('pass') },
      { label: 'qwen-h200', report: leg('fail') },
      { label: 'llama-mi300', report: leg('pass') },
    ]);
    const body = renderComment(merged, { key: 'matrix' });
    expect(body.split('\n')[1]).toBe('## profile-gate: ❌ Fail · 3 reports (1 fail, 2 pass)');
    const lines = body.split('\n');
    const start = lines.findIndex((l) => l.startsWith('| report |'));
    const end = lines.findIndex((l, i) => i > start && !l.startsWith('|'));
    const table = lines.slice(start, end).filter((l) => !l.startsWith('|---'));
    expect(table[0]).toBe('| report | verdict | findings | alerts | decode tok/s (Δ) |');
    expect(table.slice(1).map((l) => tableCells(l)[0]!.trim())).toEqual(['qwen\\-h200', 'llama\\-h200', 'llama\\-mi300']);
  });
});

describe('launch counts', () => {
  it('say which calls they count, so a graph launch is not read as no kernels', () => {
    expect(launchCallsText({ kernelLaunches: 0, graphLaunches: 8, graphKernels: 4328 })).toBe('host launch calls: 0 for single kernels, 8 CUDA graph launches (replaying 4,328 kernels)');
    expect(launchCallsText({ kernelLaunches: 1963, graphLaunches: 0, graphKernels: 0 })).toBe('host launch calls: 1,963 kernel launches');
  });
});

describe('links from the comment and the summary', () => {
  const report = makeReport({ verdict: 'fail', workload: 'llama-8b', rows: [row({ status: 'fail' })] });
  const links = { runUrl: 'https://github.com/o/r/actions/runs/9', dashboardUrl: 'https://o.github.io/r/' };
  const artifact = { name: 'profile-gate-llama', id: 77, url: 'https://github.com/o/r/actions/runs/9/artifacts/77' };

  it('the comment links the artifact, the run and the dashboard series', () => {
    const last = renderReportComment(report, { key: 'k', links, artifact }).trimEnd().split('\n').pop()!;
    expect(last).toBe(
      'Full report: [profile\\-gate\\-llama](https://github.com/o/r/actions/runs/9/artifacts/77) · [job summary and all artifacts](https://github.com/o/r/actions/runs/9) · [Dashboard](https://o.github.io/r/): the llama\\-8b series over time',
    );
  });

  it('the summary lists the dashboard with the artifacts; no dashboard, no line; never a non-http link', () => {
    expect(renderSummary(report, { links, artifact })).toContain('- [Dashboard](https://o.github.io/r/): the llama\\-8b series over time');
    expect(renderSummary(report, { links: { runUrl: links.runUrl }, artifact })).not.toContain('Dashboard');
    expect(renderSummary(report, { links: { dashboardUrl: 'javascript:alert(1)' } })).not.toContain('Dashboard');
  });
});
