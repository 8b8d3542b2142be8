/**
 * The engine both doors share: capture files in, one Report out. No process exit, no @actions.
 */
import { buildProfile } from './build-profile.js';
import { createClassifier } from '../classify/classify.js';
import type { UserFamilyRule } from '../classify/families.js';
import { compare, type GateInput, type HistoryEntry } from '../compare/gate.js';
import { stepCountOf } from '../diagnose/step-count.js';
import { withMedianInterval } from '../compare/median-interval.js';
import type { GateOptionsInput } from '../compare/gate-options.js';
import { diagnose, type DiagnoseConfig } from '../diagnose/run-rules.js';
import { deepDiveMatches } from '../diagnose/ncu-metrics.js';
import type { IngestOptions } from '../ingest/common/importer.js';
import { ingestFileRuns } from '../ingest/registry.js';
import type { Capture, Notice } from '../model/capture.js';
import { checkMergeable, countEachRunOnce } from './input-groups.js';
import type { Profile } from '../model/profile.js';
import { REPORT_SCHEMA_VERSION, ReportSchema, type BaselineOrigin, type DecisionPolicy, type Report, type SkippedInput } from '../model/report.js';
import { TOOL_VERSION } from '../version.js';
import { InputError, UsageError, withoutQuotedText } from '../errors.js';

export interface AnalyzeOptions {
  inputs: readonly string[];
  /** Force one format for every input (otherwise detected from content). */
  format?: string;
  families?: readonly UserFamilyRule[];
  diagnose?: DiagnoseConfig;
  /** A previous report to compare against, with where it came from and why it was chosen. */
  baseline?: BaselineChoice | null;
  /** Thresholds, fail-on and the other gate options. */
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
  /** Merge captures that record different GPUs, vendors, engines or models (otherwise refused). */
  allowMixed?: boolean;
  /**
   * Files found inside a directory: one that cannot be read is skipped with a warning instead of
   * failing the analysis. Files named directly always fail when unreadable.
   */
  skippable?: ReadonlySet<string>;
  /** What the user says about inputs that cannot say it themselves (nvidia-smi noheader columns). */
  ingest?: IngestOptions;
  /** Inputs left out before the analysis (a capture path not found, a folder entry whose name is not UTF-8 or too long to open), with why. */
  skippedInputs?: readonly SkippedInput[];
  /** Told the captures the report is made from (each run counted once): the doors write their clean traces. */
  onCaptures?: (captures: readonly Capture[]) => void;
}

export interface BaselineChoice {
  report: Report;
  origin: BaselineOrigin;
  path?: string;
  reason: string;
  /** An adaptive A/B run: which look at the comparison this is (the gate spends alpha over the looks). */
  look?: { index: number; of: number; final?: boolean };
  /** A baseline from another job: the default branch's recent reports of the workload, for the noise between jobs. */
  history?: readonly HistoryEntry[];
}

export async function ingestAll(inputs: readonly string[], format?: string): Promise<Capture[]> {
  return (await ingestReadable(inputs, format)).captures;
}

/**
 * Every input read; a file in `skippable` that cannot be read is left out with a warning. When
 * nothing at all could be read, the first error stands: an analysis of nothing is never a pass.
 * `reading` is told each file as its reading starts (the time budget names it).
 */
export async function ingestReadable(
  inputs: readonly string[],
  format?: string,
  skippable: ReadonlySet<string> = new Set(),
  options: IngestOptions = {},
  reading?: (path: string) => void,
): Promise<{ captures: Capture[]; notices: Notice[]; skipped: SkippedInput[] }> {
  const captures: Capture[] = [];
  const notices: Notice[] = [];
  const skipped: SkippedInput[] = [];
  let firstError: InputError | undefined;
  for (const input of inputs) {
    reading?.(input);
    try {
      captures.push(...(await ingestFileRuns(input, format, options)));
    } catch (error) {
      if (!(error instanceof InputError) || !skippable.has(input) || options.signal?.aborted) throw error;
      firstError ??= error;
      // What the file held is not repeated: the report's pages are public, the file's bytes are not checked.
      const reason = withoutQuotedText(error.expected);
      notices.push({ code: 'unreadable-input', severity: 'warning', message: `skipped ${input}${error.location ? `:${error.location}` : ''}: ${reason} (pass --strict to fail instead)` });
      skipped.push({ path: input, reason });
    }
  }
  if (captures.length === 0 && firstError) throw firstError;
  return { captures, notices, skipped };
}

/** The error of an analysis past its time budget: names the file it was reading. */
function pastBudget(seconds: number, reading: string | undefined, inputs: number): Error {
  const budget = `expected the analysis to finish within ${seconds} s (the analyze time budget)`;
  if (reading) return new InputError(reading, `${budget}; it was stopped while reading this file`);
  return new UsageError(`${budget}; it was stopped after reading all ${inputs} input(s)`);
}

/**
 * Runs `work` under the budget: the signal aborts when it is spent (checked where reading awaits),
 * and `check` throws once it is spent, for synchronous work no timer can interrupt (user patterns).
 */
async function withTimeBudget<T>(
  timeoutMs: number,
  inputs: number,
  work: (signal: AbortSignal, reading: (path: string | undefined) => void, check: () => void) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const deadline = Date.now() + timeoutMs;
  let current: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = pastBudget(Math.round(timeoutMs) / 1000, current, inputs);
      controller.abort(error);
      reject(error);
    }, timeoutMs);
  });
  const check = (): void => {
    if (Date.now() < deadline) return;
    const error = pastBudget(Math.round(timeoutMs) / 1000, current, inputs);
    controller.abort(error);
    throw error;
  };
  const running = work(controller.signal, (path) => (current = path), check);
  running.catch(() => undefined);
  try {
    return await Promise.race([running, expired]);
  } finally {
    clearTimeout(timer);
  }
}

export function reportFromProfile(profile: Profile, options: Omit<AnalyzeOptions, 'inputs' | 'format' | 'families' | 'allowMixed' | 'skippable' | 'ingest' | 'timeoutMs'>): Report {
  const skippedInputs = [...(options.skippedInputs ?? [])];
  const { findings, notes } = diagnose(profile, options.diagnose);
  const environment = { ...profile.environment, ...(options.environment ?? {}) };
  const current: GateInput = { ...profile, findings, environment };
  const baseline: GateInput | null = options.baseline
    ? {
        ...options.baseline.report,
        origin: { origin: options.baseline.origin, reason: options.baseline.reason, ...(options.baseline.path ? { path: options.baseline.path } : {}) },
      }
    : null;
  const look = options.baseline?.look;
  const gate = compare(
    current,
    baseline,
    { ...(options.gate ?? {}), ...(look && look.of > 1 ? { look } : {}) },
    options.baseline?.history ? { history: options.baseline.history } : {},
  );
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
    metrics: profile.metrics.map(withMedianInterval),
    utilization: profile.utilization,
    timeline: profile.timeline,
    gpuTimeUtilPercent: profile.gpuTimeUtilPercent,
    memops: profile.memops,
    apiCalls: profile.apiCalls,
    cpuFunctions: profile.cpuFunctions,
    notices: [...profile.notices, ...notes],
    skippedInputs,
    deepDive: profile.ncu,
    deepDives: deepDiveMatches(profile.ncu, profile.kernels, findings),
    findings,
    verdict: gate.verdict,
    decision: { causes: gate.causes, policy: { ...gate.policy, ruleOptions: ruleOptionsOf(options.diagnose) } },
    comparison:
      gate.comparison && baseline
        ? { ...gate.comparison, baselineSamples: comparedSamples(gate.comparison, baseline.metrics) }
        : gate.comparison,
    ranks: profile.ranks,
    stepCount: gate.comparison?.perStep?.current ?? stepCountOf(current),
    ...(profile.gpuSharing ? { gpuSharing: profile.gpuSharing } : {}),
  };
  return ReportSchema.parse(report);
}

/** The rules' options as given, by rule id: the values a report can hold (each rule's defaults apply to the rest). */
function ruleOptionsOf(config: DiagnoseConfig | undefined): DecisionPolicy['ruleOptions'] {
  const rules: [string, Record<string, number | string | boolean>][] = [];
  for (const [rule, values] of Object.entries(config?.options ?? {})) {
    const kept = Object.entries(values).filter((entry): entry is [string, number | string | boolean] => ['number', 'string', 'boolean'].includes(typeof entry[1]));
    if (kept.length) rules.push([rule, Object.fromEntries(kept)]);
  }
  // fromEntries defines each key as its own, `__proto__` included.
  return Object.fromEntries(rules);
}

/** The baseline's samples of the metrics the comparison has a row for: what its charts draw. */
function comparedSamples(comparison: NonNullable<Report['comparison']>, metrics: readonly { name: string; samples: readonly number[] }[]): Record<string, number[]> {
  const compared = new Set(comparison.rows.filter((r) => r.kind === 'metric').map((r) => r.metric));
  return Object.fromEntries(metrics.filter((m) => compared.has(m.name)).map((m) => [m.name, [...m.samples]]));
}

export async function analyze(options: AnalyzeOptions): Promise<Report> {
  const build = async (signal?: AbortSignal, reading?: (path: string | undefined) => void, check?: () => void): Promise<Report> => {
    const classify = createClassifier(options.families, check);
    const isCollective = (name: string) => classify({ name }) === 'collective';
    const ingest = { ...(options.ingest ?? {}), isCollective, ...(signal ? { signal } : {}) };
    const read = await ingestReadable(options.inputs, options.format, options.skippable, ingest, reading);
    reading?.(undefined);
    signal?.throwIfAborted();
    const once = countEachRunOnce(read.captures);
    options.onCaptures?.(once.captures);
    const mixed = checkMergeable(once.captures, options.allowMixed ?? false);
    const profile = buildProfile(once.captures, classify, [...read.notices, ...once.notices, ...mixed]);
    return reportFromProfile(profile, { ...options, skippedInputs: [...(options.skippedInputs ?? []), ...read.skipped] });
  };
  if (options.timeoutMs === undefined) return build();
  return withTimeBudget(options.timeoutMs, options.inputs.length, build);
}
