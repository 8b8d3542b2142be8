/**
 * Carrying out a plan: each step in a log group with its time, its process group stopped at its
 * limit or at the run's deadline, its files checked before they count. A failed warm-up, measured
 * run or server stops the run; a failed profile leaves a gap the report tells about.
 */
import { readFile } from 'node:fs/promises';
import { delimiter, relative } from 'node:path';
import { checkOutput, collectCaptures, consoleAnalysisFile, deriveProfileConsole, findBySuffix, matchCaptures } from './capture-files.js';
import type { Logger } from './logger.js';
import { INSTALL } from './install-lines.js';
import type { OutputKind, Plan, PlanNotice, PlannedOutput, PlannedStep } from './plan.js';
import { parsePreflightOutput, preflightMessages } from './preflight.js';
import { MAX_LINE_BYTES } from './line-splitter.js';
import type { ProcessGroups, ProcessOutcome } from './process-group.js';
import { startServer, type HealthCheck, type Server, type ServeTiming } from './serve.js';
import { formatCommand } from './shell-words.js';

export type StepStatus = 'ok' | 'failed' | 'timeout' | 'cancelled' | 'skipped';

export interface StepRecord {
  id: string;
  title: string;
  status: StepStatus;
  seconds: number;
  exitCode?: number | null;
  message?: string;
  logFile?: string;
}

export interface RunFile {
  path: string;
  kind: OutputKind;
  /** An input of the analysis (otherwise an artifact: a log, a .nsys-rep). */
  analysis: boolean;
  bytes: number;
  step: string;
  /** A file of the base build's side (A/B). */
  side?: 'base';
}

export type RunOutcome = 'ok' | 'failed' | 'timeout' | 'cancelled';

export interface RunResult {
  outcome: RunOutcome;
  /** Why the run did not end ok, in one paragraph with the fix where there is one. */
  message?: string;
  steps: StepRecord[];
  files: RunFile[];
  /** What the analysis reads: the verified analysis files, in step order. */
  analysisInputs: string[];
  /** A/B: what the base side's analysis reads. */
  baseAnalysisInputs: string[];
  notices: PlanNotice[];
  /** Seconds from the first step to the last. */
  seconds: number;
}

export interface ExecuteDeps {
  logger: Logger;
  groups: ProcessGroups;
  health?: HealthCheck;
  serveTiming?: ServeTiming;
  /** Seconds kept back at the deadline for stopping the server and writing run.json. */
  reserveSeconds?: number;
}

interface StepResult {
  record: StepRecord;
  files: RunFile[];
}

function describeExit(outcome: ProcessOutcome): string {
  if (outcome.startError) return outcome.startError;
  if (outcome.signal) return `was killed by ${outcome.signal}`;
  return `exited with code ${outcome.exitCode}`;
}

function tailText(outcome: ProcessOutcome): string {
  const lines = outcome.tail.slice(-5).map((line) => line.slice(0, 300));
  return lines.length ? ` Last output: ${lines.map((line) => JSON.stringify(line)).join(' / ')}` : '';
}

/** An extra hint for failures with a known cause. */
function knownCause(step: PlannedStep, outcome: ProcessOutcome): string {
  const text = outcome.tail.join('\n');
  if (/libdw\.so\.1/.test(text)) return ` Fix: ${INSTALL.libdw}.`;
  if (outcome.startError && /not found/.test(outcome.startError)) {
    const program = step.argv[0] ?? '';
    const tool = (['nsys', 'ncu', 'rocprofv3', 'max'] as const).find((name) => program.endsWith(name));
    if (tool) return ` Install: ${INSTALL[tool]}.`;
  }
  if (/Process launch is not allowed in this state/.test(text)) return ' A stale nsys session is still open: run `nsys sessions list` and `nsys shutdown --session=<name>`.';
  // Timeouts and cancellation are reported before this; a SIGKILL here came from outside the run.
  if (outcome.signal === 'SIGKILL') return " A SIGKILL that the run did not send is usually the kernel's out-of-memory killer: check `dmesg` and the runner's memory.";
  return '';
}

export async function executePlan(plan: Plan, deps: ExecuteDeps): Promise<RunResult> {
  const { logger, groups } = deps;
  const started = Date.now();
  const deadline = started + plan.budgetSeconds * 1000;
  const reserveMs = (deps.reserveSeconds ?? 15) * 1000;
  const records: StepRecord[] = [];
  const files: RunFile[] = [];
  const notices: PlanNotice[] = [...plan.notices];
  let server: Server | undefined;
  let stopReason: { outcome: RunOutcome; message: string } | undefined;
  const failedSteps = new Set<string>();
  /** Why steps the run went on after failed: the cause when nothing is left to analyze. */
  const stepProblems: string[] = [];
  const display = (path: string) => (path.startsWith(`${plan.cwd}/`) ? relative(plan.cwd, path) : path);

  const envFor = (step: PlannedStep): Record<string, string> => {
    if (!step.pathPrepend.length) return step.env;
    return { ...step.env, PATH: [...step.pathPrepend, process.env.PATH ?? ''].join(delimiter) };
  };

  const verify = async (step: PlannedStep, extra: PlannedOutput[]): Promise<{ files: RunFile[]; problem?: string }> => {
    const found: RunFile[] = [];
    const problems: string[] = [];
    const outputs = [...step.outputs, ...extra];
    if (step.findOutputs) {
      const matches = await findBySuffix(step.findOutputs.dir, step.findOutputs.suffix);
      if (matches.length === 0) problems.push(`no *${step.findOutputs.suffix} under ${display(step.findOutputs.dir)}`);
      for (const path of matches) outputs.push({ path, kind: step.findOutputs.kind, analysis: true });
    }
    for (const output of outputs) {
      const check = output.kind === 'workload-console' ? await consoleAnalysisFile(output.path) : { ...(await checkOutput(output.path, output.kind)), path: output.path };
      if (check.ok) found.push({ path: check.path, kind: output.kind, analysis: output.analysis, bytes: check.bytes, step: step.id });
      else if (output.optional) {
        // Said once for all the runs of a workload whose console carries no metrics.
        const message = output.kind === 'workload-console' ? `the workload's console ${check.reason}` : `${step.id}: ${display(output.path)} ${check.reason}`;
        if (!notices.some((notice) => notice.message === message)) notices.push({ severity: 'info', message });
      }
      else problems.push(`${display(output.path)} ${check.reason}${output.hint ? ` (${output.hint})` : ''}`);
    }
    return problems.length ? { files: found, problem: problems.join('; ') } : { files: found };
  };

  const runProcessStep = async (step: PlannedStep, timeoutMs: number): Promise<StepResult> => {
    const stepStart = Date.now();
    const cwd = step.cwd ?? plan.cwd;
    const capturesBefore = step.collect ? await matchCaptures(step.collect.globs, cwd) : new Map<string, number>();
    logger.info(`${step.cwd ? `(in ${step.cwd}) ` : ''}$ ${formatCommand(step.argv.map(display))}`);
    const running = groups.start({
      argv: step.argv,
      cwd,
      env: envFor(step),
      logFile: step.logFile,
      ...(step.stdoutFile ? { stdoutFile: step.stdoutFile } : {}),
      timeoutMs,
      onLine: (line) => logger.output(line),
    });
    let outcome: ProcessOutcome;
    let serverDied = false;
    if (server && (step.role === 'benchmark' || step.role === 'benchmark-warmup' || step.role === 'profile')) {
      const watched = server;
      const first = await Promise.race([running.done.then(() => 'step' as const), watched.exited.then(() => 'server' as const)]);
      if (first === 'server') {
        serverDied = true;
        await running.stop();
      }
      outcome = await running.done;
    } else outcome = await running.done;
    const seconds = (Date.now() - stepStart) / 1000;
    const base = { id: step.id, title: step.title, seconds, exitCode: outcome.exitCode, logFile: step.logFile };
    if (outcome.leftovers > 0) notices.push({ severity: 'info', message: `${step.id}: ${outcome.leftovers} process(es) of its group were still running after it exited and were stopped` });
    if (outcome.cutLines > 0) {
      const lines = outcome.cutLines === 1 ? '1 output line longer than' : `${outcome.cutLines} output lines longer than`;
      notices.push({ severity: 'warning', message: `${step.id}: ${lines} ${MAX_LINE_BYTES} bytes ${outcome.cutLines === 1 ? 'was' : 'were'} cut (${outcome.cutBytes} bytes dropped; log: ${display(step.logFile)})` });
    }

    if (serverDied) {
      const exit = await server!.exited;
      const lines = server!.recentLines().slice(-3).map((line) => JSON.stringify(line.slice(0, 200)));
      return { record: { ...base, status: 'failed', message: `max serve exited (${describeExit(exit)}) during ${step.title.toLowerCase()}; its last log lines: ${lines.join(' / ') || '(none)'}` }, files: [] };
    }
    if (outcome.cancelled) return { record: { ...base, status: 'cancelled', message: `${step.title} was stopped: the run was cancelled` }, files: [] };
    if (outcome.timedOut) return { record: { ...base, status: 'timeout', message: `${step.title} did not finish within ${Math.round(timeoutMs / 1000)} s and was stopped (log: ${display(step.logFile)}).${tailText(outcome)}` }, files: [] };
    if (outcome.exitCode !== 0) return { record: { ...base, status: 'failed', message: `${step.title} ${describeExit(outcome)} (log: ${display(step.logFile)}).${knownCause(step, outcome)}${tailText(outcome)}` }, files: [] };

    const derived: PlannedOutput[] = [];
    if (step.derive) {
      const dropped = await deriveProfileConsole(step.derive.from, step.derive.to);
      derived.push({ path: step.derive.to, kind: 'max-generate', analysis: true });
      if (dropped) logger.info(`${display(step.derive.to)}: the profiled run's console without its ${dropped} timing lines (profiling slows the run)`);
    }
    const collected: RunFile[] = [];
    if (step.collect) {
      const copies = await collectCaptures(step.collect.globs, cwd, capturesBefore, step.collect.into);
      // A measured run beside a profile run of its own need not write the profile: only the
      // step whose captures are analyzed is expected to.
      if (copies.length === 0 && step.collect.analysis) notices.push({ severity: 'warning', message: `${step.id}: the step wrote no file matching captures ${step.collect.globs.join(', ')}` });
      for (const path of copies) {
        const check = await checkOutput(path, 'workload-capture');
        if (check.ok) collected.push({ path, kind: 'workload-capture', analysis: step.collect.analysis, bytes: check.bytes, step: step.id });
        else notices.push({ severity: 'warning', message: `${step.id}: capture ${display(path)} ${check.reason}; left out of the analysis` });
      }
    }
    const verified = await verify(step, derived);
    if (verified.problem) return { record: { ...base, status: 'failed', message: `${step.title} exited 0 but ${verified.problem} (log: ${display(step.logFile)})` }, files: [...collected, ...verified.files] };
    return { record: { ...base, status: 'ok' }, files: [...collected, ...verified.files] };
  };

  const runPreflight = async (step: PlannedStep, timeoutMs: number): Promise<StepResult> => {
    const result = await runProcessStep({ ...step, outputs: [] }, timeoutMs);
    if (result.record.status === 'cancelled') return result;
    const text = step.stdoutFile ? await readFile(step.stdoutFile, 'utf8').catch(() => '') : '';
    const report = parsePreflightOutput(text);
    if (!report) {
      notices.push({ severity: 'warning', message: `custom-architecture pre-flight skipped: the checker gave no result (${result.record.message ?? 'no JSON on stdout'})` });
      return { record: { ...result.record, status: 'ok', message: 'checker gave no result; skipped' }, files: [] };
    }
    const messages = preflightMessages(report, { mode: plan.options.mode, maxVersion: plan.detected.maxVersion ?? null });
    for (const message of messages) {
      const line = `${message.message}${message.fix ? ` Fix: ${message.fix}` : ''}`;
      if (message.severity === 'error') logger.error(line);
      else if (message.severity === 'warning') logger.warning(line);
      else logger.info(line);
      if (message.severity !== 'error') notices.push({ severity: message.severity === 'warning' ? 'warning' : 'info', message: message.message, ...(message.fix ? { fix: message.fix } : {}) });
    }
    const errors = messages.filter((m) => m.severity === 'error');
    if (errors.length) {
      const text = errors.map((m) => `${m.message}${m.fix ? ` Fix: ${m.fix}` : ''}`).join(' | ');
      return { record: { ...result.record, status: 'failed', message: `custom-architecture pre-flight failed: ${text}` }, files: [] };
    }
    logger.info('custom architectures: pre-flight passed');
    return { record: { ...result.record, status: 'ok' }, files: [] };
  };

  const runServe = async (step: PlannedStep, timeoutMs: number): Promise<StepResult> => {
    const stepStart = Date.now();
    logger.info(`${step.cwd ? `(in ${step.cwd}) ` : ''}$ ${formatCommand(step.argv.map(display))}`);
    const start = await startServer(groups, step, plan.serve!, {
      logger,
      env: envFor(step),
      cwd: step.cwd ?? plan.cwd,
      readyTimeoutMs: timeoutMs,
      ...(deps.serveTiming ? { timing: deps.serveTiming } : {}),
      ...(deps.health ? { health: deps.health } : {}),
    });
    const seconds = (Date.now() - stepStart) / 1000;
    const base = { id: step.id, title: step.title, seconds, logFile: step.logFile };
    if (!start.ok) {
      const status: StepStatus = groups.isCancelled() ? 'cancelled' : start.timedOut ? 'timeout' : 'failed';
      return { record: { ...base, status, message: start.message }, files: [] };
    }
    server = start.server;
    return { record: { ...base, status: 'ok' }, files: [] };
  };

  const stopServer = async (step?: PlannedStep): Promise<StepRecord> => {
    const stepStart = Date.now();
    const id = step?.id ?? 'serve-stop';
    const title = step?.title ?? 'Stop the server';
    if (!server) return { id, title, status: 'skipped', seconds: 0 };
    const pid = server.process.pid;
    if (!server.process.exited()) {
      logger.info(`stopping the server's process group ${pid} (SIGTERM, SIGKILL after ${groups.graceMs / 1000} s)`);
      await server.process.stop();
    }
    await server.exited;
    server = undefined;
    return { id, title, status: 'ok', seconds: (Date.now() - stepStart) / 1000, message: `process group ${pid} stopped` };
  };

  try {
    for (const step of plan.steps) {
      if (stopReason || groups.isCancelled()) {
        if (step.role === 'serve-stop') records.push(await logger.group(step.title, () => stopServer(step)));
        else records.push({ id: step.id, title: step.title, status: 'skipped', seconds: 0 });
        continue;
      }
      if (step.role === 'profile-stats' && failedSteps.has(`${step.side ?? 'head'}:profile`)) {
        records.push({ id: step.id, title: step.title, status: 'skipped', seconds: 0, message: 'the profiled run failed' });
        continue;
      }
      if (step.role === 'serve-stop') {
        records.push(await logger.group(step.title, () => stopServer(step)));
        continue;
      }
      const remaining = deadline - Date.now() - (server ? reserveMs : 0);
      if (remaining <= 0) {
        stopReason = { outcome: 'timeout', message: `the run reached its time budget (timeout-minutes ${plan.options.timeoutMinutes}) before ${step.title.toLowerCase()}` };
        records.push({ id: step.id, title: step.title, status: 'skipped', seconds: 0 });
        continue;
      }
      const timeoutMs = Math.min(step.timeoutSeconds * 1000, remaining);
      const result = await logger.group(step.title, async () => {
        const outcome = step.role === 'preflight' ? await runPreflight(step, timeoutMs) : step.role === 'serve' ? await runServe(step, timeoutMs) : await runProcessStep(step, timeoutMs);
        const mark = outcome.record.status === 'ok' ? 'done' : outcome.record.status;
        logger.info(`${step.id}: ${mark} in ${outcome.record.seconds.toFixed(1)} s`);
        if (outcome.record.message && outcome.record.status !== 'ok') {
          if (step.onFailure === 'stop') logger.error(outcome.record.message);
          else logger.warning(outcome.record.message);
        }
        return outcome;
      });
      records.push(result.record);
      files.push(...(step.side ? result.files.map((file) => ({ ...file, side: step.side })) : result.files));
      if (result.record.status === 'ok') continue;
      failedSteps.add(step.role === 'profile' ? `${step.side ?? 'head'}:profile` : step.id);
      if (result.record.status === 'cancelled') stopReason = { outcome: 'cancelled', message: 'the run was cancelled' };
      else if (step.onFailure === 'stop') stopReason = { outcome: result.record.status === 'timeout' ? 'timeout' : 'failed', message: result.record.message ?? `${step.title} failed` };
      else {
        stepProblems.push(result.record.message ?? `${step.title} failed`);
        notices.push({ severity: 'warning', message: `${result.record.message ?? `${step.title} failed`} The report has no ${step.role === 'profile' || step.role === 'profile-stats' ? 'kernel profile' : `data from ${step.id}`}.` });
      }
    }
  } finally {
    if (server) records.push(await logger.group('Stop the server', () => stopServer()));
  }

  const outcome: RunOutcome = groups.isCancelled() ? 'cancelled' : stopReason?.outcome ?? 'ok';
  const analysisInputs = files.filter((file) => file.analysis && !file.side).map((file) => file.path);
  const baseAnalysisInputs = files.filter((file) => file.analysis && file.side === 'base').map((file) => file.path);
  const missing = analysisInputs.length === 0 ? 'the head' : plan.base && baseAnalysisInputs.length === 0 ? 'the base' : undefined;
  if (outcome === 'ok' && missing) {
    // The failed steps' own messages carry the hint (a capture range that never opened, a tool missing).
    const why = stepProblems.length ? `: ${stepProblems.join('; ')}` : '';
    const message = `${why ? '' : 'every step finished but '}no capture file was produced for ${plan.base ? `${missing}'s analysis` : 'the analysis'}${why}`;
    return { outcome: 'failed', message, steps: records, files, analysisInputs, baseAnalysisInputs, notices, seconds: (Date.now() - started) / 1000 };
  }
  return {
    outcome,
    ...(outcome !== 'ok' ? { message: stopReason?.message ?? 'the run was cancelled' } : {}),
    steps: records,
    files,
    analysisInputs,
    baseAnalysisInputs,
    notices,
    seconds: (Date.now() - started) / 1000,
  };
}
