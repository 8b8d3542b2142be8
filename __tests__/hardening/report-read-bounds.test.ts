/**
 * The worst report within the read limits (src/model/read-report.ts REPORT_JSON_BOUNDS): 150,000
 * kernel rows and as many reasons, under the 200,000 items an array may hold, written before the
 * decision was recorded (schema 2, no links from reasons to rows), as a fork's artifact may hold it.
 * Every pass over it is linear: it is read in seconds, with bounded memory, where linking reasons to
 * rows by their wording took hours (a square law: 27 s at 8,000 rows).
 */
import { parseReportText, REPORT_JSON_BOUNDS } from '../../src/model/read-report.js';
import { boundReport, BOUNDED_REPORT } from '../../src/report/bounded-report.js';
import { mergeReports } from '../../src/report/merge-reports.js';
import { renderMergedSummary } from '../../src/report/markdown/summary.js';
import { verdictLines } from '../../src/report/verdict-lines.js';

const ROWS = 150_000;

/** Distinct long kernel names sharing their first 80 characters, as templated kernels do. */
const kernelName = (i: number) => `void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::native::direct_copy_kernel_cuda_${i}>>(int, T3)`;

function worstReportText(): string {
  const rows: unknown[] = [];
  const reasons: string[] = [];
  for (let i = 0; i < ROWS; i++) {
    rows.push({ metric: `kernel:${kernelName(i)}`, kind: 'kernel-share', unit: '% of GPU time', baseline: 0, current: 9.9, delta: 9.9, ci: null, threshold: 5, status: 'fail' });
    reasons.push(`kernel:${kernelName(i).slice(0, 79)}… share of GPU time 0.0% → 9.9% (+9.9 pp), at or beyond the 5 pp warn threshold`);
  }
  return JSON.stringify({
    schemaVersion: 2,
    tool: { name: 'profile-gate', version: '0.1.0' },
    generatedAt: '2026-11-30T00:00:00.000Z',
    run: {},
    environment: {},
    sources: [],
    totalKernelNs: 0,
    kernels: [],
    families: [],
    metrics: [],
    utilization: null,
    timeline: null,
    gpuTimeUtilPercent: null,
    memops: [],
    apiCalls: [],
    cpuFunctions: [],
    notices: [],
    deepDive: [],
    findings: [],
    verdict: 'fail',
    verdictReasons: reasons,
    comparison: { baseline: { origin: 'file', reason: 'a fork' }, rows, reasons },
  });
}

describe('the worst report within the read limits', () => {
  it('150,000 rows and reasons without links: read, migrated, bounded and rendered in seconds, in bounded memory', () => {
    expect(ROWS).toBeLessThan(REPORT_JSON_BOUNDS.maxItems);
    const text = worstReportText();
    // The peak resident memory of this process (kB) before the read: the text built, nothing read yet.
    const peakBefore = process.resourceUsage().maxRSS;
    const started = performance.now();
    const read = parseReportText(text, 'fork/report.json');
    const report = boundReport(read);
    const summary = renderMergedSummary(mergeReports([{ label: 'fork', report }]));
    const seconds = (performance.now() - started) / 1000;
    // Everything was read: the decision from the rows' statuses, every row failing.
    expect(read.comparison!.rows).toHaveLength(ROWS);
    expect(read.decision.causes).toHaveLength(ROWS);
    expect(read.decision.policy).toBeNull();
    // Its sentences are dropped on migration; each failing row still gets its line, from its data.
    expect(verdictLines(read)).toHaveLength(ROWS);
    // Then cut to what a summary shows, the cut said.
    expect(report.comparison!.rows).toHaveLength(BOUNDED_REPORT.kernels);
    expect(report.decision.causes).toHaveLength(BOUNDED_REPORT.kernels);
    expect(report.notices.at(-1)!.message).toMatch(/^read back in part: .*comparison rows 200 of 150000/);
    expect(summary.split('\n')[0]).toMatch(/^## profile-gate: ❌ Fail/);
    // Generous for a shared 2-core box (14 s there under a load of 14): the square law took hours.
    expect(seconds).toBeLessThan(60);
    // The report (70 MB of text) read, migrated and rendered raises the peak by a small multiple of its size at most.
    expect((process.resourceUsage().maxRSS - peakBefore) / 2 ** 10).toBeLessThan(1536);
  }, 180_000);

  it('a read past its time budget is refused, naming the file, where the scan was and the budget', () => {
    const text = worstReportText();
    // A budget of 0 s is spent at the first look at the clock (the 4,096th value).
    expect(() => parseReportText(text, 'fork/report.json', { ...REPORT_JSON_BOUNDS, maxMillis: 0 })).toThrow(
      /^fork\/report\.json: verdictReasons\[\d+\]: read past its time budget of 0 s, at value 4096; expected a profile-gate report\.json within its read limits/,
    );
    expect(REPORT_JSON_BOUNDS.maxMillis).toBe(30_000);
  }, 180_000);
});
