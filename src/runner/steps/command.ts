/**
 * The runner most roles share: one command in its own process group, stopped at its limit, its
 * output streamed to its log, its files checked before they count. With `watchServer`, the server
 * a serve step started is watched too: its death stops the command and fails the step.
 */
import { matchCaptures } from '../capture-files.js';
import { MAX_LINE_BYTES } from '../line-splitter.js';
import type { PlannedStep } from '../plan-types.js';
import type { ProcessOutcome, RunningProcess } from '../process-group.js';
import type { Server } from '../serve.js';
import { formatCommand } from '../shell-words.js';
import { commandFailure, describeExit } from './failure-text.js';
import { stepOutputs } from './outputs.js';
import type { StepContext, StepResult, TimedRunner } from './types.js';

export interface CommandOptions {
  /** Fail the step when the server exits while it runs (a step that talks to the server). */
  watchServer?: boolean;
}

/** Says in the log what is run, and where when not in the job's folder. */
export function announce(step: PlannedStep, context: StepContext): void {
  context.logger.info(`${step.cwd ? `(in ${step.cwd}) ` : ''}$ ${formatCommand(step.argv.map(context.display))}`);
}

/**
 * How long a failed command waits for the watched server's exit to be seen: a server that dies
 * makes its client fail at once (connection refused), often before the server's own exit is
 * reported, and the failure is the server's.
 */
const SERVER_EXIT_GRACE_MS = 2_000;

/** Waits for the command; when the watched server exits first (or just after the command failed), stops the command and says so. */
async function waitWatching(running: RunningProcess, server: Server | undefined): Promise<{ outcome: ProcessOutcome; serverDied: boolean }> {
  if (!server) return { outcome: await running.done, serverDied: false };
  const first = await Promise.race([running.done.then(() => 'step' as const), server.exited.then(() => 'server' as const)]);
  if (first === 'server') {
    await running.stop();
    return { outcome: await running.done, serverDied: true };
  }
  const outcome = await running.done;
  if (outcome.exitCode === 0) return { outcome, serverDied: false };
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<'alive'>((resolve) => {
    timer = setTimeout(() => resolve('alive'), SERVER_EXIT_GRACE_MS);
  });
  const after = await Promise.race([server.exited.then(() => 'died' as const), grace]);
  clearTimeout(timer);
  return { outcome, serverDied: after === 'died' };
}

/** Notices about the command's process group and output, whatever its end. */
function noteProcessTrouble(step: PlannedStep, outcome: ProcessOutcome, context: StepContext): void {
  if (outcome.leftovers > 0) context.notices.push({ severity: 'info', message: `${step.id}: ${outcome.leftovers} process(es) of its group were still running after it exited and were stopped` });
  if (outcome.cutLines > 0) {
    const lines = outcome.cutLines === 1 ? '1 output line longer than' : `${outcome.cutLines} output lines longer than`;
    context.notices.push({ severity: 'warning', message: `${step.id}: ${lines} ${MAX_LINE_BYTES} bytes ${outcome.cutLines === 1 ? 'was' : 'were'} cut (${outcome.cutBytes} bytes dropped; log: ${context.display(step.logFile)})` });
  }
}

async function serverDeathMessage(step: PlannedStep, server: Server): Promise<string> {
  const exit = await server.exited;
  const lines = server.recentLines().slice(-3).map((line) => JSON.stringify(line.slice(0, 200)));
  return `max serve exited (${describeExit(exit)}) during ${step.title.toLowerCase()}; its last log lines: ${lines.join(' / ') || '(none)'}`;
}

export async function runCommand(step: PlannedStep, context: StepContext, timeoutMs: number, options: CommandOptions = {}): Promise<StepResult> {
  const stepStart = Date.now();
  const cwd = step.cwd ?? context.plan.cwd;
  const capturesBefore = step.collect ? await matchCaptures(step.collect.globs, cwd) : new Map<string, number>();
  announce(step, context);
  const running = context.groups.start({
    argv: step.argv,
    cwd,
    env: context.envFor(step),
    logFile: step.logFile,
    ...(step.stdoutFile ? { stdoutFile: step.stdoutFile } : {}),
    timeoutMs,
    onLine: (line) => context.logger.output(line),
  });
  const server = options.watchServer ? context.server : undefined;
  const { outcome, serverDied } = await waitWatching(running, server);
  const base = { id: step.id, title: step.title, seconds: (Date.now() - stepStart) / 1000, exitCode: outcome.exitCode, logFile: step.logFile };
  noteProcessTrouble(step, outcome, context);

  if (serverDied) return { record: { ...base, status: 'failed', message: await serverDeathMessage(step, server!) }, files: [] };
  const failure = commandFailure(step, outcome, timeoutMs, context.display(step.logFile));
  if (failure) return { record: { ...base, ...failure }, files: [] };

  const { files, problem } = await stepOutputs(step, context, cwd, capturesBefore);
  if (problem) return { record: { ...base, status: 'failed', message: `${step.title} exited 0 but ${problem} (log: ${context.display(step.logFile)})` }, files };
  return { record: { ...base, status: 'ok' }, files };
}

/** A runner of plain commands for a role. */
export function commandRunner(options: CommandOptions = {}): TimedRunner {
  return { kind: 'timed', run: (step, context, timeoutMs) => runCommand(step, context, timeoutMs, options) };
}
