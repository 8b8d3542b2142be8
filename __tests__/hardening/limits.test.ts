/**
 * GitHub's limits hold for a profile of 100,000 kernels (a big nsys kern_sum of a model with many
 * shapes): the PR comment under 65,536 characters, the job summary under 1 MiB, at most the
 * per-level number of annotations, each within its size. The report itself stays small enough to
 * be read back as a baseline. Time and memory of ingesting such captures are measured in
 * bench/fuzz-limits.mjs, not here.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadReport, MAX_REPORT_BYTES } from '../../src/io/reports.js';
import { ANNOTATION_LIMITS, buildAnnotations } from '../../src/report/markdown/annotations.js';
import { COMMENT_LIMIT_CHARS, renderComment, renderReportComment } from '../../src/report/markdown/comment.js';
import { serializeReport } from '../../src/report/json.js';
import { mergeReports } from '../../src/report/merge-reports.js';
import { renderMergedSummary, renderSummary, SUMMARY_LIMIT_BYTES } from '../../src/report/markdown/summary.js';
import { renderTerminal } from '../../src/report/terminal.js';
import { finding, makeReport, row } from '../report/report-factory.js';

const KERNELS = 100_000;
/** A C++ kernel name of the length real ones have (nsys prints 200-400 characters for templated kernels). */
const kernelName = (i: number): string =>
  `void at::native::elementwise_kernel<(int)128, (int)4, void at::native::gpu_kernel_impl_nocast<at::native::BinaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, at::native::binary_internal::MulFunctor<float>>>(at::TensorIteratorBase &, const T1 &)::[lambda(int) (instance ${i})]>(int, T3)`;

const report = makeReport({
  kernels: KERNELS,
  kernelName,
  verdict: 'fail',
  findings: Array.from({ length: 40 }, (_, i) => finding({ id: `rule-${i}`, severity: i % 2 ? 'error' : 'warning', message: `kernel ${kernelName(i)} `.repeat(20), kernel: kernelName(i) })),
  rows: Array.from({ length: 2000 }, (_, i) => row({ metric: `kernel:${kernelName(i)}`, kind: 'kernel-share', unit: 'pp', status: i % 4 ? 'pass' : 'fail' })),
});
const links = { runUrl: 'https://github.com/o/r/actions/runs/1' };

describe(`a report of ${KERNELS.toLocaleString('en')} kernels`, () => {
  it('is what the test says it is', () => {
    expect(report.kernels).toHaveLength(KERNELS);
    expect(report.kernels[KERNELS - 1]!.name.length).toBeGreaterThan(250);
  });

  it('PR comment: under 65,536 characters, alone and merged with other legs, in well under a second each', () => {
    const started = performance.now();
    const single = renderReportComment(report, { key: 'big', artifact: { name: 'a', url: `${links.runUrl}/artifacts/2` } });
    const merged = renderComment(mergeReports(Array.from({ length: 8 }, (_, i) => ({ label: `leg-${i}`, report }))), { key: 'report', links });
    expect(single.length).toBeLessThan(COMMENT_LIMIT_CHARS);
    expect(merged.length).toBeLessThan(COMMENT_LIMIT_CHARS);
    expect(single.split('\n')[0]).toBe('<!-- profile-gate:big -->');
    expect((single.match(/<details>/g) ?? []).length).toBe((single.match(/<\/details>/g) ?? []).length);
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('job summary: under 1 MiB, alone and merged', () => {
    const single = renderSummary(report, { links });
    const merged = renderMergedSummary(mergeReports(Array.from({ length: 8 }, (_, i) => ({ label: `leg-${i}`, report }))), { links });
    expect(Buffer.byteLength(single)).toBeLessThan(SUMMARY_LIMIT_BYTES);
    expect(Buffer.byteLength(merged)).toBeLessThan(SUMMARY_LIMIT_BYTES);
    expect(single).toContain(`${KERNELS} distinct kernels`);
  });

  it('annotations: at most the per-level limit, each message and title within its size', () => {
    const annotations = buildAnnotations([{ label: 'big', report }]);
    for (const level of ['error', 'warning'] as const) {
      expect(annotations.filter((a) => a.level === level).length).toBeLessThanOrEqual(ANNOTATION_LIMITS.perLevel);
    }
    expect(annotations.length).toBeGreaterThan(0);
    for (const annotation of annotations) {
      expect(annotation.message.length).toBeLessThanOrEqual(ANNOTATION_LIMITS.messageChars);
      expect(annotation.title.length).toBeLessThanOrEqual(ANNOTATION_LIMITS.titleChars);
    }
  });

  it('terminal output: the top kernels only', () => {
    const text = renderTerminal(report, { topKernels: 10 });
    expect(text).toContain('(instance 0)');
    expect(text).not.toContain(`(instance ${KERNELS - 1})`);
    expect(text).not.toContain('(instance 50000)');
  });

  it('report.json: under the size a baseline may have, and it reads back', async () => {
    const json = serializeReport(report);
    expect(Buffer.byteLength(json)).toBeLessThan(MAX_REPORT_BYTES);
    const path = join(mkdtempSync(join(tmpdir(), 'pg-limits-')), 'report.json');
    writeFileSync(path, json);
    expect((await loadReport(path)).kernels).toHaveLength(KERNELS);
  });
});
