/**
 * A report cut down to what a merged summary, a comment or a dashboard shows of it, right after it
 * was read: many reports (matrix legs, a dashboard's history) then fit in memory whatever each one
 * held. The verdict, findings, comparison and totals are kept; long lists keep their top entries
 * (they are sorted by time already), and a notice says what was cut.
 */
import type { Report } from '../model/report.js';

export const BOUNDED_REPORT = {
  kernels: 200,
  listRows: 100,
  samples: 1000,
} as const;

function top<T>(list: readonly T[], n: number): T[] {
  return list.length > n ? list.slice(0, n) : [...list];
}

export function boundReport(report: Report): Report {
  const cut: string[] = [];
  const keep = <T>(what: string, list: readonly T[], n: number): T[] => {
    if (list.length > n) cut.push(`${what} ${n} of ${list.length}`);
    return top(list, n);
  };
  const bounded: Report = {
    ...report,
    sources: keep('sources', report.sources, BOUNDED_REPORT.listRows),
    kernels: keep('kernels', report.kernels, BOUNDED_REPORT.kernels),
    families: keep('families', report.families, BOUNDED_REPORT.listRows),
    metrics: keep('metrics', report.metrics, BOUNDED_REPORT.listRows).map((m) => (m.samples.length > BOUNDED_REPORT.samples ? { ...m, samples: m.samples.slice(0, BOUNDED_REPORT.samples) } : m)),
    memops: keep('memory operations', report.memops, BOUNDED_REPORT.listRows),
    apiCalls: keep('API calls', report.apiCalls, BOUNDED_REPORT.listRows),
    cpuFunctions: keep('CPU functions', report.cpuFunctions, BOUNDED_REPORT.listRows),
    notices: keep('notices', report.notices, BOUNDED_REPORT.listRows),
    skippedInputs: keep('skipped inputs', report.skippedInputs, BOUNDED_REPORT.listRows),
    deepDive: keep('Nsight Compute results', report.deepDive, BOUNDED_REPORT.listRows),
    findings: keep('findings', report.findings, BOUNDED_REPORT.listRows),
    decision: { ...report.decision, causes: keep('causes of the verdict', report.decision.causes, BOUNDED_REPORT.kernels) },
    timeline: report.timeline ? { ...report.timeline, steps: top(report.timeline.steps, BOUNDED_REPORT.samples) } : null,
    comparison: report.comparison
      ? { ...report.comparison, rows: keep('comparison rows', report.comparison.rows, BOUNDED_REPORT.kernels), kernelChanges: keep('kernel changes', report.comparison.kernelChanges, BOUNDED_REPORT.kernels) }
      : null,
  };
  if (cut.length) bounded.notices = [...bounded.notices, { code: 'read-back-in-part', severity: 'info', message: `read back in part: ${cut.join(', ')} kept (the artifact holds the whole report)` }];
  return bounded;
}
