/**
 * The engine both doors share: capture files in, one Report out. No process exit, no @actions.
 */
import { buildProfile } from '../classify/build-profile.js';
import { createClassifier } from '../classify/classify.js';
import type { FamilyRule } from '../classify/families.js';
import { compare, type GateInput } from '../compare/gate.js';
import type { GateOptionsInput } from '../compare/options.js';
import { runRules, type DiagnoseConfig } from '../diagnose/run-rules.js';
import { ingestFile } from '../ingest/index.js';
import type { Capture } from '../model/capture.js';
import type { Profile } from '../model/profile.js';
import { REPORT_SCHEMA_VERSION, ReportSchema, type Report } from '../model/report.js';
import { TOOL_VERSION } from '../version.js';

export interface AnalyzeOptions {
  inputs: readonly string[];
  /** Force one format for every input (otherwise detected from content). */
  format?: string;
  families?: readonly FamilyRule[];
  diagnose?: DiagnoseConfig;
  failOn?: readonly string[];
  /** A previous report to compare against, with where it came from and why it was chosen. */
  baseline?: BaselineChoice | null;
  /** Thresholds and the other gate options (failOn above wins over gate.failOn). */
  gate?: GateOptionsInput;
  run?: Report['run'];
  /** Overrides for the environment fingerprint (model, dtype, engine …). */
  environment?: Report['environment'];
  now?: () => Date;
}

export interface BaselineChoice {
  report: Report;
  /** `file`, `artifact` or `a/b` (same job). */
  origin: string;
  path?: string;
  reason: string;
}

export async function ingestAll(inputs: readonly string[], format?: string): Promise<Capture[]> {
  const captures: Capture[] = [];
  for (const input of inputs) captures.push(await ingestFile(input, format));
  return captures;
}

export function reportFromProfile(profile: Profile, options: Omit<AnalyzeOptions, 'inputs' | 'format' | 'families'>): Report {
  const findings = runRules(profile, options.diagnose);
  const environment = { ...profile.environment, ...(options.environment ?? {}) };
  const current: GateInput = { ...profile, findings, environment };
  const baseline: GateInput | null = options.baseline
    ? {
        ...options.baseline.report,
        origin: { origin: options.baseline.origin, reason: options.baseline.reason, ...(options.baseline.path ? { path: options.baseline.path } : {}) },
      }
    : null;
  const gate = compare(current, baseline, { ...(options.gate ?? {}), ...(options.failOn ? { failOn: [...options.failOn] } : {}) });
  const report: Report = {
    schemaVersion: REPORT_SCHEMA_VERSION,
    tool: { name: 'profile-gate', version: TOOL_VERSION },
    generatedAt: (options.now ?? (() => new Date()))().toISOString(),
    run: options.run ?? {},
    environment,
    sources: profile.sources,
    totalKernelNs: profile.totalKernelNs,
    kernels: profile.kernels,
    families: profile.families,
    metrics: profile.metrics,
    utilization: profile.utilization,
    timeline: profile.timeline,
    gpuTimeUtilPercent: profile.gpuTimeUtilPercent,
    memops: profile.memops,
    apiCalls: profile.apiCalls,
    cpuFunctions: profile.cpuFunctions,
    notices: profile.notices,
    deepDive: profile.ncu,
    findings,
    verdict: gate.verdict,
    comparison: gate.comparison && baseline ? { ...gate.comparison, baselineSamples: comparedSamples(gate.comparison, baseline.metrics) } : gate.comparison,
  };
  return ReportSchema.parse(report);
}

/** The baseline's samples of the metrics the comparison has a row for: what its charts draw. */
function comparedSamples(comparison: NonNullable<Report['comparison']>, metrics: readonly { name: string; samples: readonly number[] }[]): Record<string, number[]> {
  const compared = new Set(comparison.rows.filter((r) => r.kind === 'metric').map((r) => r.metric));
  return Object.fromEntries(metrics.filter((m) => compared.has(m.name)).map((m) => [m.name, [...m.samples]]));
}

export async function analyze(options: AnalyzeOptions): Promise<Report> {
  const captures = await ingestAll(options.inputs, options.format);
  const profile = buildProfile(captures, createClassifier(options.families));
  return reportFromProfile(profile, options);
}
