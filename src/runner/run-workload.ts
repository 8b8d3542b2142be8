/**
 * The whole job on a GPU box, shared by the action and `profile-gate run`: detect the box, plan,
 * run the steps, hand the checked capture files to the analysis, and (when the analysis points at
 * one kernel) run the Nsight Compute deep dive and analyze again with it.
 */
import { existsSync, statSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InputError, UsageError } from '../errors.js';
import type { Notice } from '../model/capture.js';
import type { FormatId } from '../model/capture.js';
import { capabilitiesOf } from '../ingest/registry.js';
import type { OutputKind } from './plan-types.js';
import { BASE_SIDE_DIR, RUN_FILE, type Report, type SkippedInput, type Verdict } from '../model/report.js';
import type { BaselineChoice } from '../pipeline/analyze.js';
import { askedText, chooseDeepDive, deepDiveMismatch, withNcuLogFile } from './deep-dive.js';
import type { DeepDiveRequest } from '../diagnose/deep-dive-request.js';
import { createSystemProbe, detectEnvironment, type Probe } from './detect.js';
import { executePlan, type ExecuteDeps, type RunResult, type StepRecord } from './execute.js';
import type { RunOptions } from './run-options.js';
import { buildPlan, type Plan, type PlannedStep } from './plan.js';
import { renderPlan } from './plan-text.js';
import { ProcessGroups } from './process-group.js';
import { flagValue } from './shell-words.js';
import { consoleMetricsPath } from './capture-files.js';
import { fallbackNotice, lostCaptures, wholeProcessFallback } from './lost-captures.js';
import { writeOutput } from '../io/input-paths.js';
import { redact, redactValue, secretsFromEnv, type SecretSet } from '../io/secrets.js';
import { serializeReport } from '../report/json.js';

export { parseRunOptions, RUN_OPTION_NAMES, type RunOptions, type OptionStyle } from './run-options.js';
export { renderPlan } from './plan-text.js';
export type { Plan } from './plan.js';
export type { RunResult, RunFile, StepRecord } from './execute.js';
export { ProcessGroups } from './process-group.js';
export { createPlainLogger, type Logger } from './logger.js';

/** The folder with the python helpers: <package root>/python, from src/runner and from dist. */
export function findPythonDir(start = dirname(fileURLToPath(import.meta.url))): string {
  let dir = start;
  for (let i = 0; i < 6; i += 1) {
    if (existsSync(join(dir, 'python', 'preflight_custom_arch.py'))) return join(dir, 'python');
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return join(start, 'python');
}

/** True when something already listens on the port (binding it fails with EADDRINUSE). */
export function isPortInUse(port: number): Promise<boolean> {
  return new Promise((resolvePromise) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => resolvePromise(error.code === 'EADDRINUSE'));
    server.listen({ port, host: '0.0.0.0', exclusive: true }, () => server.close(() => resolvePromise(false)));
  });
}

export interface PrepareOptions {
  outDir: string;
  cwd?: string;
  probe?: Probe;
  pythonDir?: string;
}

export async function prepareRun(options: RunOptions, prepare: PrepareOptions): Promise<Plan> {
  const cwd = resolve(prepare.cwd ?? process.cwd());
  const pythonDir = prepare.pythonDir ?? findPythonDir();
  const detected = await detectEnvironment(prepare.probe ?? createSystemProbe(), { needMax: options.engine === 'max' });
  let busyPort: number | undefined;
  if (options.engine === 'max' && options.mode === 'serve') {
    const port = Number(flagValue(options.maxArgs, '--port') ?? 8000);
    if (Number.isInteger(port) && port > 0 && port < 65536 && (await isPortInUse(port))) busyPort = port;
  }
  return buildPlan(options, detected, {
    outDir: resolve(cwd, prepare.outDir),
    cwd,
    pythonDir,
    gpuSnapshotAvailable: existsSync(join(pythonDir, 'gpu_snapshot.py')),
    portInUse: (port) => port === busyPort,
    isDirectory: (path) => {
      try {
        return statSync(path).isDirectory();
      } catch {
        return false;
      }
    },
    isFile: (path) => {
      try {
        return !statSync(path).isDirectory();
      } catch {
        return false;
      }
    },
  });
}

/**
 * Which side an analysis is for. The head's comes with the A/B baseline when the job ran one; the
 * caller's own baseline (a file, an artifact) applies otherwise. The base side is never gated.
 */
export type AnalyzeSide = { side: 'head'; baseline?: BaselineChoice; skipped?: readonly SkippedInput[] } | { side: 'base' };

export interface JobDeps extends Omit<ExecuteDeps, 'groups'> {
  groups?: ProcessGroups;
  /** The job's secrets: taken out of every file that records a command (run.json, plan.txt, the samplers' headers). Default: the environment's. */
  secrets?: SecretSet;
  /** Analyze capture files into a report (the engine's analyze); enables the deep dive. */
  analyze?: (inputs: readonly string[], side: AnalyzeSide) => Promise<Report>;
}

export interface JobResult {
  plan: Plan;
  run: RunResult;
  report?: Report;
  /** A/B: the base build's report, the head's baseline. */
  baseReport?: Report;
  deepDive?: StepRecord & { why: string };
  /** Planned kernel captures that were not made, per side, as skipped inputs of the head's report. */
  lost?: SkippedInput[];
}

const NOT_FORMATS: ReadonlySet<string> = new Set(['nsys-rep', 'workload-capture', 'workload-console']);
/** A planned output of a format whose importer reads GPU utilization samples (the sampler's files). */
function holdsUtilization(kind: OutputKind): boolean {
  return !NOT_FORMATS.has(kind) && capabilitiesOf(kind as FormatId).utilization === true;
}
/** A planned output of a format whose importer reads a per-launch timeline. */
function holdsTimeline(kind: OutputKind): boolean {
  return !NOT_FORMATS.has(kind) && capabilitiesOf(kind as FormatId).timeline === true;
}

/**
 * The GPU sampler's files record the command they ran (their header's `command`): redacted in place
 * as soon as the steps end, before anything reads or uploads them.
 */
async function redactCommandRecords(run: RunResult, secrets: SecretSet): Promise<void> {
  for (const file of run.files) {
    if (!holdsUtilization(file.kind)) continue;
    try {
      const text = await readFile(file.path, 'utf8');
      const lines = text.split('\n').map((line) => {
        if (!line.includes('"command"')) return line;
        try {
          return JSON.stringify(redactValue(JSON.parse(line) as unknown, secrets).value);
        } catch {
          return redact(line, secrets);
        }
      });
      const clean = lines.join('\n');
      if (clean !== text) await writeFile(file.path, clean);
    } catch {
      // A file the step did not leave is told by the run's own checks.
    }
  }
}

/** Plan notices and run gaps in the report's notice shape. */
export function runNotices(run: RunResult): Notice[] {
  return run.notices.map((notice) => ({ code: notice.code ?? 'run', severity: notice.severity, message: notice.fix ? `${notice.message} (${notice.fix})` : notice.message }));
}

async function runDeepDiveStep(plan: Plan, report: Report, deps: ExecuteDeps, remainingSeconds: number): Promise<{ record?: StepRecord & { why: string }; run?: RunResult; asked?: string; request?: DeepDiveRequest }> {
  const top = report.kernels[0];
  const choice = chooseDeepDive(plan.deepDive.mode, { findings: report.findings, ...(top ? { topKernel: { name: top.name, instances: top.instances } } : {}) }, plan.deepDive.ncu!, plan.deepDive.workload);
  if (!choice.run) {
    deps.logger.info(`deep dive: ${choice.why}`);
    return {};
  }
  if (remainingSeconds < 30) {
    deps.logger.warning(`deep dive skipped: ${Math.round(remainingSeconds)} s left of the time budget`);
    return {};
  }
  const step: PlannedStep = {
    id: 'deep-dive',
    role: 'profile',
    title: 'Deep dive (Nsight Compute)',
    argv: withNcuLogFile(choice.argv, plan.deepDive.csvFile),
    env: {},
    pathPrepend: [],
    timeoutSeconds: Math.min(plan.deepDive.timeoutSeconds, remainingSeconds),
    logFile: plan.deepDive.logFile,
    outputs: [{ path: plan.deepDive.csvFile, kind: 'ncu-csv', analysis: true }],
    onFailure: 'continue',
    weight: 0,
  };
  deps.logger.info(`deep dive: ${choice.why}`);
  // The deep dive is the head's alone: run as a plan without the base side, which would otherwise
  // count the base's missing capture of this step as a failed run (and lose the CSV of an A/B job).
  const { base: _base, ...headOnly } = plan;
  const run = await executePlan({ ...headOnly, steps: [step], notices: [], budgetSeconds: Math.ceil(remainingSeconds) }, { ...deps, reserveSeconds: 0 });
  const record = run.steps[0]!;
  // A step that ended ok in a run that did not still failed: the run's reason is the step's.
  const message = record.message ?? (run.outcome !== 'ok' ? run.message : undefined);
  return { record: { ...record, ...(run.outcome !== 'ok' && record.status === 'ok' ? { status: 'failed' as const } : {}), ...(message ? { message } : {}), why: choice.why }, run, asked: askedText(choice.request), request: choice.request };
}

/** The options as run.json records them: those of the engine that ran, none of the other's. */
export function recordedOptions(options: Plan['options']): Partial<Plan['options']> {
  if (options.engine === 'command') {
    const { mode: _mode, maxArgs: _maxArgs, prompt: _prompt, maxNewTokens: _maxNewTokens, customArchitectures: _arch, benchmarkArgs: _bench, captureSeconds: _seconds, ...rest } = options;
    return rest;
  }
  const { captures: _captures, ...rest } = options;
  return options.mode === 'serve' ? rest : (({ captureSeconds: _seconds, benchmarkArgs: _bench, ...generate }) => generate)(rest);
}

async function writeRunJson(plan: Plan, result: JobResult, secrets: SecretSet): Promise<void> {
  const { run } = result;
  const data = {
    outcome: run.outcome,
    ...(run.message ? { message: run.message } : {}),
    environment: plan.environment,
    profiler: plan.profiler,
    options: recordedOptions(plan.options),
    steps: run.steps,
    ...(result.deepDive ? { deepDive: result.deepDive } : {}),
    files: run.files,
    analysisInputs: run.analysisInputs,
    ...(plan.base ? { base: { ...plan.base, analysisInputs: run.baseAnalysisInputs, report: baseReportPath(plan) } } : {}),
    ...(result.lost?.length ? { lostCaptures: result.lost } : {}),
    notices: run.notices,
    seconds: run.seconds,
  };
  // Command lines quote what the workflow wrote, a `--token VALUE` included.
  await writeOutput(join(plan.outDir, RUN_FILE), `${JSON.stringify(redactValue(data, secrets).value, null, 2)}\n`);
}

/** Remove what an earlier run into the same folder left at the paths this plan writes (only those). */
async function clearPlannedFiles(plan: Plan): Promise<void> {
  const paths = new Set<string>([join(plan.outDir, RUN_FILE), plan.deepDive.csvFile, plan.deepDive.logFile]);
  for (const step of plan.steps) {
    paths.add(step.logFile);
    if (step.stdoutFile) paths.add(step.stdoutFile);
    if (step.derive) paths.add(step.derive.to);
    if (step.collect) paths.add(step.collect.into);
    if (step.findOutputs) paths.add(step.findOutputs.dir);
    for (const output of step.outputs) {
      paths.add(output.path);
      if (output.kind === 'workload-console') paths.add(consoleMetricsPath(output.path));
    }
  }
  const ours = [...paths].filter((path) => path.startsWith(`${plan.outDir}/`));
  await Promise.all(ours.map((path) => rm(path, { recursive: true, force: true })));
}

/**
 * Where an A/B job keeps the base build's report. Not named report.json, so that a folder or an
 * artifact holding the run is never read as two reports (matrix merge, baseline download, dashboard).
 */
export function baseReportPath(plan: Plan): string {
  return join(plan.outDir, BASE_SIDE_DIR, 'baseline-report.json');
}

/**
 * The head's files that hold its timeline but were not read by the analysis (the nsys SQLite export
 * beside the stats it read): what profile-gate's clean trace of the run is written from.
 */
export function traceInputs(run: RunResult): string[] {
  return run.files.filter((file) => holdsTimeline(file.kind) && !file.side && !run.analysisInputs.includes(file.path)).map((file) => file.path);
}

function abBaseline(plan: Plan, base: NonNullable<Plan['base']>, report: Report, look?: { index: number; of: number; final?: boolean }): BaselineChoice {
  const where = base.cwd === plan.cwd ? 'this folder' : base.cwd;
  const what = base.run ? `\`${base.run}\` in ${where}` : `the same workload in ${where}`;
  const order = plan.options.engine === 'max' && plan.options.mode === 'serve' ? 'its benchmark windows in server blocks base, head, head, base (ABBA)' : 'its measured runs interleaved with the head\'s (ABBA)';
  return { report, origin: 'a/b', path: base.cwd, reason: `base build: ${what}, in this job on the same machine, ${order}`, ...(look ? { look } : {}) };
}

/** Seconds one reserve pair is expected to take: its runs at the mean length of the measured runs so far. */
function pairSeconds(run: RunResult, plan: Plan, pair: readonly PlannedStep[]): number {
  const measured = new Set(plan.steps.filter((s) => s.role === 'measured').map((s) => s.id));
  const times = run.steps.filter((s) => measured.has(s.id) && s.status === 'ok').map((s) => s.seconds);
  const mean = times.length ? times.reduce((a, b) => a + b, 0) / times.length : 0;
  return mean * pair.length;
}

/** Whether more A/B pairs may change a verdict: a fail is decided; an invalid comparison (throttled, another environment) no run can mend. */
const MORE_PAIRS_MAY_DECIDE: Readonly<Record<Verdict, boolean>> = { pass: true, warn: true, 'insufficient-data': true, accepted: true, fail: false, invalid: false };

/**
 * Adaptive A/B: while the head's comparison has undecided gated metrics and it has not failed, run
 * the next reserve ABBA pair and compare again, as the next look (the gate spends alpha over the
 * looks). Undecided is the gate's rule (src/compare/metric-rows.ts): a metric passes only when its
 * interval excludes a regression at the floor, so one whose interval reaches past the floor is
 * undecided as much as one whose sides overlap or whose change is not significant. Stops at
 * max-runs, or when the next pair would not fit twice into the time left; the last look's rows
 * then say insufficient-data with what would decide them.
 */
async function decideWithMoreRuns(plan: Plan, result: JobResult & { report: Report; baseReport: Report }, deps: JobDeps & { analyze: NonNullable<JobDeps['analyze']> }, executeDeps: ExecuteDeps, started: number): Promise<void> {
  const { run } = result;
  const looks = plan.extraPairs.length + 1;
  for (let index = 2; index <= looks; index += 1) {
    const undecided = result.report.comparison?.undecided ?? [];
    if (!MORE_PAIRS_MAY_DECIDE[result.report.verdict] || !undecided.length) return;
    const pair = plan.extraPairs[index - 2]!;
    const remaining = plan.budgetSeconds - (Date.now() - started) / 1000;
    const need = pairSeconds(run, plan, pair);
    if (remaining < 2 * need + 30) {
      run.notices.push({ severity: 'info', message: `${undecided.join(', ')} still undecided after look ${index - 1} of ${looks}: ${Math.round(remaining)} s left of the time budget, and a pair takes about ${Math.round(need)} s` });
      return;
    }
    deps.logger.info(`${undecided.join(', ')} undecided: one more ABBA pair (look ${index} of ${looks})`);
    const more = await executePlan({ ...plan, steps: pair, notices: [], budgetSeconds: Math.floor(remaining) }, { ...executeDeps, reserveSeconds: 0 });
    run.steps.push(...more.steps);
    run.files.push(...more.files);
    if (more.outcome !== 'ok') {
      run.notices.push({ severity: 'warning', message: `an added A/B pair did not finish (${more.message ?? more.outcome}); the comparison is the one before it` });
      return;
    }
    run.analysisInputs.push(...more.analysisInputs);
    run.baseAnalysisInputs.push(...more.baseAnalysisInputs);
    result.baseReport = await deps.analyze(run.baseAnalysisInputs, { side: 'base' });
    result.report = await deps.analyze(run.analysisInputs, { side: 'head', baseline: abBaseline(plan, plan.base!, result.baseReport, { index, of: looks }), ...lostOf(result) });
  }
}

function lostOf(result: JobResult): { skipped?: readonly SkippedInput[] } {
  return result.lost?.length ? { skipped: result.lost } : {};
}

/**
 * A profiled run whose nsys capture range never opened (the workload never called
 * cudaProfilerStart: nsys exits 0 and writes no report) is taken once more as a whole process, on
 * each side that lost it, with its summaries; the run's files and analysis inputs gain what it
 * made. Returns the steps it ran, so the loss is judged over both tries.
 */
async function recoverCaptureRange(plan: Plan, run: RunResult, deps: ExecuteDeps, started: number): Promise<PlannedStep[]> {
  const ran: PlannedStep[] = [];
  for (const side of [undefined, 'base'] as const) {
    const steps = wholeProcessFallback(plan, run, side);
    if (!steps) continue;
    const remaining = plan.budgetSeconds - (Date.now() - started) / 1000;
    if (remaining < 30) {
      run.notices.push({ severity: 'warning', message: `${fallbackNotice(side).split('. It was taken again')[0]}; ${Math.round(remaining)} s left of the time budget, too little to take it again as a whole process` });
      continue;
    }
    deps.logger.warning(`${side === 'base' ? 'base: ' : ''}the capture range never opened (nsys wrote no report): profiling the run again as a whole process`);
    const { base: _base, ...withoutBase } = plan;
    const more = await executePlan({ ...(side === 'base' ? plan : withoutBase), steps, notices: [], budgetSeconds: Math.floor(remaining) }, { ...deps, reserveSeconds: 0 });
    ran.push(...steps);
    run.steps.push(...more.steps);
    run.files.push(...more.files);
    run.notices.push(...more.notices);
    const made = more.files.filter((file) => file.analysis);
    run.analysisInputs.push(...made.filter((file) => !file.side).map((file) => file.path));
    run.baseAnalysisInputs.push(...made.filter((file) => file.side === 'base').map((file) => file.path));
    if (made.length) run.notices.push({ severity: 'warning', message: fallbackNotice(side) });
  }
  // A run that failed only for want of a capture file stands once the fallback made one.
  if (ran.length && run.outcome === 'failed' && run.analysisInputs.length && (!plan.base || run.baseAnalysisInputs.length) && !stoppedByStep(plan, run)) {
    run.outcome = 'ok';
    delete run.message;
  }
  return ran;
}

/** A step whose failure stops the run did not end ok. */
function stoppedByStep(plan: Plan, run: RunResult): boolean {
  const stops = new Set(plan.steps.filter((step) => step.onFailure === 'stop').map((step) => step.id));
  return run.steps.some((record) => stops.has(record.id) && record.status !== 'ok' && record.status !== 'skipped');
}

/**
 * Processes the steps started that are still alive at the end (a daemon that left its group and
 * session, found by the tracking marker): stopped, and named in the run's notices.
 */
async function stopTrackedLeftovers(groups: ProcessGroups, run: RunResult, logger: JobDeps['logger'], report?: Report): Promise<void> {
  const swept = await groups.sweepTracked();
  if (swept.length === 0) return;
  const list = swept.map((entry) => `pid ${entry.pid} (${entry.command.slice(0, 200) || 'command unknown'})`).join(', ');
  const message = `${swept.length === 1 ? '1 process the run started was' : `${swept.length} processes the run started were`} still running after its last step and ${swept.length === 1 ? 'was' : 'were'} stopped: ${list}`;
  logger.warning(message);
  run.notices.push({ severity: 'warning', message });
  report?.notices.push({ code: 'run', severity: 'warning', message });
}

/** Run a plan to the end. Throws UsageError when the plan has problems (nothing was started). */
export async function runJob(plan: Plan, deps: JobDeps): Promise<JobResult> {
  if (plan.problems.length) throw new UsageError(`cannot run: ${plan.problems.join('; ')}`);
  const started = Date.now();
  const groups = deps.groups ?? new ProcessGroups();
  const executeDeps: ExecuteDeps = { ...deps, groups };
  await clearPlannedFiles(plan);
  // Every folder a step writes into (logs/, captures/, and base/… for an A/B job's base side).
  const folders = new Set<string>([join(plan.outDir, 'logs'), join(plan.outDir, 'captures')]);
  for (const step of plan.steps) for (const path of [step.logFile, step.stdoutFile, ...step.outputs.map((o) => o.path)]) if (path?.startsWith(`${plan.outDir}/`)) folders.add(dirname(path));
  for (const folder of folders) await mkdir(folder, { recursive: true });
  const secrets = deps.secrets ?? secretsFromEnv(process.env);
  await writeFile(join(plan.outDir, 'logs', 'plan.txt'), redact(renderPlan(plan), secrets));

  const run = await executePlan(plan, executeDeps);
  const fallback = await recoverCaptureRange(plan, run, executeDeps, started);
  await redactCommandRecords(run, secrets);
  const result: JobResult = { plan, run };
  const lost = run.outcome === 'ok' ? lostCaptures(plan, run, fallback) : [];
  if (lost.length) {
    result.lost = lost;
    for (const entry of lost) deps.logger.warning(`${entry.path}: ${entry.reason}`);
  }
  if (run.outcome === 'ok' && deps.analyze) {
    let head: AnalyzeSide = { side: 'head', ...lostOf(result) };
    const looks = plan.extraPairs.length + 1;
    if (plan.base) {
      result.baseReport = await deps.analyze(run.baseAnalysisInputs, { side: 'base' });
      head = { side: 'head', baseline: abBaseline(plan, plan.base, result.baseReport, looks > 1 ? { index: 1, of: looks } : undefined), ...lostOf(result) };
    }
    result.report = await deps.analyze(run.analysisInputs, head);
    if (plan.base && looks > 1) {
      await decideWithMoreRuns(plan, result as JobResult & { report: Report; baseReport: Report }, deps as JobDeps & { analyze: NonNullable<JobDeps['analyze']> }, executeDeps, started);
      // No run is added after the last comparison: it is the final look, tested at what the looks
      // before it left of alpha (all of it when the job stopped at its first look), so the same
      // samples read as they would in analyze, and no row promises runs the job will not add.
      const last = { index: result.report.comparison?.look?.index ?? 1, of: looks, final: true };
      head = { side: 'head', baseline: abBaseline(plan, plan.base, result.baseReport!, last), ...lostOf(result) };
      if (result.report.comparison) result.report = await deps.analyze(run.analysisInputs, head);
    }
    const analyzeHead = (inputs: readonly string[]) => deps.analyze!(inputs, head);
    const remaining = plan.budgetSeconds - (Date.now() - started) / 1000;
    if (plan.deepDive.enabled) {
      const deep = await runDeepDiveStep(plan, result.report, executeDeps, remaining);
      if (deep.record) result.deepDive = deep.record;
      if (deep.run && deep.run.outcome === 'ok') {
        run.files.push(...deep.run.files);
        const csv = plan.deepDive.csvFile.startsWith(`${plan.cwd}/`) ? relative(plan.cwd, plan.deepDive.csvFile) : plan.deepDive.csvFile;
        try {
          result.report = await analyzeHead([...run.analysisInputs, ...deep.run.analysisInputs]);
          run.analysisInputs.push(...deep.run.analysisInputs);
          const mismatch = deep.request ? deepDiveMismatch(result.report.deepDive, deep.request, csv) : undefined;
          if (mismatch) run.notices.push({ severity: 'warning', message: mismatch });
        } catch (error) {
          // The deep dive is extra: a CSV the analysis refuses costs it, not the report made without it.
          if (!(error instanceof InputError)) throw error;
          run.notices.push({ severity: 'warning', message: `the deep dive's ${csv} could not be analyzed (${error.message}); the report has no Nsight Compute section (${deep.asked ?? 'no request'}).` });
        }
      } else if (deep.record) {
        run.notices.push({ severity: 'warning', message: `${deep.record.message ?? 'the deep dive failed'} The report has no Nsight Compute section (${deep.asked ?? 'no request'}).` });
      }
    }
    result.report.notices.push(...runNotices(run));
  }
  await stopTrackedLeftovers(groups, run, deps.logger, result.report);
  try {
    if (result.baseReport) await writeOutput(baseReportPath(plan), serializeReport(result.baseReport));
    await writeRunJson(plan, result, secrets);
  } catch (error) {
    // A full disk must not cost the report that was already made: warn, and keep going.
    const message = `${(error as Error).message}; the run's record is in this log only`;
    deps.logger.warning(message);
    run.notices.push({ severity: 'warning', message });
    result.report?.notices.push({ code: 'run', severity: 'warning', message });
  }
  return result;
}
