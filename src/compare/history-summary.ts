/**
 * One report as a history keeps it: what the dashboard draws of it (the metrics' medians and
 * intervals with their samples, family shares and GPU time per step, the top kernels, findings,
 * verdict, acceptance) and where it came from, in a record of a few kilobytes. A nightly history
 * stores one per report, written once, and the dashboard is built from these records: a report's
 * summary and the dashboard's reading of that report are the same data.
 */
import { stepCountOf } from '../diagnose/step-count.js';
import { median } from '../model/averages.js';
import { REPORT_SCHEMA_VERSION, type Report, type StepCount } from '../model/report.js';
import { medianInterval } from './median-interval.js';
import { compareText } from '../model/text-order.js';

export const HISTORY_SUMMARY_VERSION = 1;
/** Kernels kept per report, by share: the dashboard tracks at most this many per point. */
export const HISTORY_KERNELS = 50;

export interface SummaryMetric {
  name: string;
  unit: string;
  direction: 'higher' | 'lower';
  /** Median of the finite samples (the report's value when it has none); null when neither is finite. */
  median: number | null;
  /** The median's confidence interval (compare/median-interval.ts); null when the samples are too few. */
  low: number | null;
  high: number | null;
  /** Samples, unreadable ones included. */
  n: number;
  samples: number[];
  /** The report's own value. */
  value: number;
}

export interface SummaryProvenance {
  /** The profile-gate version that wrote the report. */
  tool: string;
  /** The captures the report was made from. */
  sources: string[];
  /** Where this history read it: a file path, or `run R artifact NAME/PATH`. */
  readFrom: string;
  /** The GitHub artifact it came from, when it was downloaded. */
  artifact?: { id: number; name: string; run: number };
}

export interface HistorySummary {
  v: typeof HISTORY_SUMMARY_VERSION;
  /** What makes two copies of a report the same report (workload, run, commit, generatedAt). */
  id: string;
  generatedAt: string;
  run: Report['run'];
  environment: { gpuName?: string; model?: string; vendor?: 'nvidia' | 'amd' };
  verdict: Report['verdict'];
  /** Who accepted a failing verdict, and how; absent when nobody did. */
  acceptance?: NonNullable<Report['acceptance']>;
  /** What decided the verdict, as the report recorded it (its causes; the policy is left out). */
  decided?: Report['decision']['causes'];
  metrics: SummaryMetric[];
  families: Array<{ family: string; share: number; totalNs: number; kernels: number }>;
  /** Decode steps the capture covers (diagnose/step-count.ts). */
  steps: StepCount;
  /** Kernels of the report's kernel list (whether or not cut when read). */
  kernelCount: number;
  /** The top HISTORY_KERNELS kernels by share (a name listed twice summed), largest first. */
  kernels: Array<{ name: string; family: string; share: number }>;
  findings: Array<{ id: string; title: string; severity: Report['findings'][number]['severity'] }>;
  provenance: SummaryProvenance;
}

function summaryMetric(metric: Report['metrics'][number]): SummaryMetric {
  const finite = metric.samples.filter(Number.isFinite);
  const value = finite.length ? median(finite) : metric.value;
  const interval = medianInterval(metric.samples);
  return {
    name: metric.name,
    unit: metric.unit,
    direction: metric.direction,
    median: Number.isFinite(value) ? value : null,
    low: interval ? interval.low : null,
    high: interval ? interval.high : null,
    n: metric.samples.length,
    samples: metric.samples,
    value: metric.value,
  };
}

/** A report as a history keeps it; `id` is the caller's identity of it, `provenance` where it was read. */
export function summarizeReport(report: Report, id: string, provenance: Omit<SummaryProvenance, 'tool' | 'sources'>): HistorySummary {
  const shares = new Map<string, { share: number; family: string }>();
  for (const k of report.kernels) {
    const seen = shares.get(k.name);
    if (seen) seen.share += k.share;
    else shares.set(k.name, { share: k.share, family: k.family });
  }
  const kernels = [...shares.entries()]
    .sort((a, b) => b[1].share - a[1].share || compareText(a[0], b[0]))
    .slice(0, HISTORY_KERNELS)
    .map(([name, k]) => ({ name, family: k.family, share: k.share }));
  const environment: HistorySummary['environment'] = {};
  if (report.environment.gpuName !== undefined) environment.gpuName = report.environment.gpuName;
  if (report.environment.model !== undefined) environment.model = report.environment.model;
  if (report.environment.vendor !== undefined) environment.vendor = report.environment.vendor;
  return {
    v: HISTORY_SUMMARY_VERSION,
    id,
    generatedAt: report.generatedAt,
    run: { ...report.run },
    environment,
    verdict: report.verdict,
    ...(report.acceptance ? { acceptance: report.acceptance } : {}),
    ...(report.decision.causes.length ? { decided: report.decision.causes } : {}),
    metrics: report.metrics.map(summaryMetric),
    families: report.families.map((f) => ({ family: f.family, share: f.share, totalNs: f.totalNs, kernels: f.kernels })),
    // The count the report recorded (a report read back in part keeps only its first profiler steps), else counted now.
    steps: stepCountOf(report),
    kernelCount: report.kernels.length,
    kernels,
    findings: report.findings.map((f) => ({ id: f.id, title: f.title, severity: f.severity })),
    provenance: { tool: report.tool.version, sources: report.sources.map((s) => s.path), ...provenance },
  };
}

/**
 * A summary as a report of what it kept, for what judges and draws histories (compare/history.ts,
 * the dashboard): kernels past the top HISTORY_KERNELS, timelines, memory operations and the like
 * are empty.
 */
export function reportOfSummary(summary: HistorySummary): Report {
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    tool: { name: 'profile-gate', version: summary.provenance.tool },
    generatedAt: summary.generatedAt,
    run: summary.run,
    environment: summary.environment,
    sources: [],
    totalKernelNs: summary.families.reduce((sum, f) => sum + f.totalNs, 0),
    kernels: summary.kernels.map((k) => ({ name: k.name, family: k.family, share: k.share, totalNs: 0, instances: 0 })) as Report['kernels'],
    families: summary.families.map((f) => ({ family: f.family, share: f.share, totalNs: f.totalNs, kernels: f.kernels, instances: 0 })) as Report['families'],
    metrics: summary.metrics.map((m) => ({ name: m.name, unit: m.unit, direction: m.direction, samples: m.samples, value: m.value })),
    utilization: null,
    timeline: null,
    gpuTimeUtilPercent: null,
    memops: [],
    apiCalls: [],
    cpuFunctions: [],
    notices: [],
    skippedInputs: [],
    deepDive: [],
    findings: summary.findings.map((f) => ({ ...f, message: '', evidence: {}, advice: '', docs: '', secondary: false, basis: [] })),
    verdict: summary.verdict,
    comparison: null,
    ...(summary.acceptance ? { acceptance: summary.acceptance } : {}),
    ranks: [],
    stepCount: summary.steps,
    decision: { causes: summary.decided ?? [], policy: null },
  };
}
