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
import { InputError, UsageError } from '../errors.js';

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
  /**
   * Time budget of the analysis in ms. Past it the reading stops (at the next chunk of the file
   * being read) and analyze rejects with an InputError naming that file.
   */
  timeoutMs?: number;
}

export interface BaselineChoice {
  report: Report;
  /** `file`, `artifact` or `a/b` (same job). */
  origin: string;
  path?: string;
  reason: string;
}

export async function ingestAll(inputs: readonly string[], format?: string, options: { signal?: AbortSignal; reading?: (path: string) => void } = {}): Promise<Capture[]> {
  const captures: Capture[] = [];
  for (const input of inputs) {
    options.reading?.(input);
    captures.push(await ingestFile(input, format, options.signal ? { signal: options.signal } : {}));
  }
  return captures;
}

/** The error of an analysis past its time budget: names the file it was reading. */
function pastBudget(seconds: number, reading: string | undefined, inputs: number): Error {
  const budget = `expected the analysis to finish within ${seconds} s (the analyze time budget)`;
  if (reading) return new InputError(reading, `${budget}; it was stopped while reading this file`);
  return new UsageError(`${budget}; it was stopped after reading all ${inputs} input(s)`);
}

async function withTimeBudget<T>(timeoutMs: number, inputs: number, work: (signal: AbortSignal, reading: (path: string | undefined) => void) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let current: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = pastBudget(Math.round(timeoutMs) / 1000, current, inputs);
      controller.abort(error);
      reject(error);
    }, timeoutMs);
  });
  const running = work(controller.signal, (path) => (current = path));
  running.catch(() => undefined);
  try {
    return await Promise.race([running, expired]);
  } finally {
    clearTimeout(timer);
  }
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
    comparison: gate.comparison,
  };
  return ReportSchema.parse(report);
}

export async function analyze(options: AnalyzeOptions): Promise<Report> {
  if (options.timeoutMs === undefined) {
    const captures = await ingestAll(options.inputs, options.format);
    return reportFromProfile(buildProfile(captures, createClassifier(options.families)), options);
  }
  return withTimeBudget(options.timeoutMs, options.inputs.length, async (signal, reading) => {
    const captures = await ingestAll(options.inputs, options.format, { signal, reading });
    reading(undefined);
    signal.throwIfAborted();
    return reportFromProfile(buildProfile(captures, createClassifier(options.families)), options);
  });
}
