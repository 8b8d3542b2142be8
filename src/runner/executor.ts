/**
 * The step loop: the plan's steps in order, each handed to the runner of its role inside a log
 * group with its time. A step gets what is left of the run's budget (less a reserve while a server
 * runs) up to its own limit. Once a step that stops the run fails, or the run is cancelled or out
 * of time, the rest are skipped, except cleanup steps (stopping the server); a server still running
 * at the end is stopped all the same. A failed step that lets the run go on leaves a notice of the
 * gap. The runners are passed in (steps/index.ts in a run; stand-ins in the tests).
 */
import { delimiter, relative } from 'node:path';
import type { Plan, PlannedStep, StepRole } from './plan-types.js';
import type { ExecuteDeps, RunFile, RunOutcome, StepRecord } from './run-types.js';
import { stopServer } from './steps/serve.js';
import type { RunProgress, StepContext, StepResult, StepRunners, TimedRunner } from './steps/types.js';

export interface StepsDone {
  records: StepRecord[];
  files: RunFile[];
  context: StepContext;
  /** Why the run stopped before its last step (a failure that stops it, cancellation, the budget). */
  stopReason?: { outcome: RunOutcome; message: string };
  /** Why steps the run went on after failed: the cause when nothing is left to analyze. */
  stepProblems: string[];
}

function contextFor(plan: Plan, deps: ExecuteDeps): StepContext {
  return {
    plan,
    logger: deps.logger,
    groups: deps.groups,
    ...(deps.health ? { health: deps.health } : {}),
    ...(deps.serveTiming ? { serveTiming: deps.serveTiming } : {}),
    notices: [...plan.notices],
    server: undefined,
    display: (path) => (path.startsWith(`${plan.cwd}/`) ? relative(plan.cwd, path) : path),
    envFor: (step) => (step.pathPrepend.length ? { ...step.env, PATH: [...step.pathPrepend, process.env.PATH ?? ''].join(delimiter) } : step.env),
  };
}

const skipped = (step: PlannedStep, message?: string): StepRecord => ({ id: step.id, title: step.title, status: 'skipped', seconds: 0, ...(message ? { message } : {}) });

class Executor implements RunProgress {
  readonly records: StepRecord[] = [];
  readonly files: RunFile[] = [];
  readonly stepProblems: string[] = [];
  stopReason: StepsDone['stopReason'];
  private readonly failedRoles = new Set<string>();
  private readonly deadline: number;
  private readonly reserveMs: number;

  constructor(
    private readonly context: StepContext,
    private readonly runners: StepRunners,
    deps: ExecuteDeps,
    started: number,
  ) {
    this.deadline = started + context.plan.budgetSeconds * 1000;
    this.reserveMs = (deps.reserveSeconds ?? 15) * 1000;
  }

  failed(role: StepRole, side: PlannedStep['side']): boolean {
    return this.failedRoles.has(`${side ?? 'head'}:${role}`);
  }

  async runAll(): Promise<void> {
    const { logger, plan } = this.context;
    try {
      for (const step of plan.steps) await this.step(step);
    } finally {
      if (this.context.server) this.records.push(await logger.group('Stop the server', () => stopServer(this.context)));
    }
  }

  private async step(step: PlannedStep): Promise<void> {
    const { logger, groups } = this.context;
    const runner = this.runners[step.role];
    if (runner.kind === 'cleanup') {
      this.records.push(await logger.group(step.title, () => runner.run(step, this.context)));
      return;
    }
    if (this.stopReason || groups.isCancelled()) {
      this.records.push(skipped(step));
      return;
    }
    const why = runner.skipWhy?.(step, this);
    if (why) {
      this.records.push(skipped(step, why));
      return;
    }
    const remaining = this.deadline - Date.now() - (this.context.server ? this.reserveMs : 0);
    if (remaining <= 0) {
      this.stopReason = { outcome: 'timeout', message: `the run reached its time budget (timeout-minutes ${this.context.plan.options.timeoutMinutes}) before ${step.title.toLowerCase()}` };
      this.records.push(skipped(step));
      return;
    }
    const timeoutMs = Math.min(step.timeoutSeconds * 1000, remaining);
    const result = await logger.group(step.title, () => this.runLogged(step, runner, timeoutMs));
    this.settle(step, runner, result);
  }

  /** Runs the step and logs how it ended. */
  private async runLogged(step: PlannedStep, runner: TimedRunner, timeoutMs: number): Promise<StepResult> {
    const { logger } = this.context;
    const result = await runner.run(step, this.context, timeoutMs);
    const { record } = result;
    logger.info(`${step.id}: ${record.status === 'ok' ? 'done' : record.status} in ${record.seconds.toFixed(1)} s`);
    if (record.message && record.status !== 'ok') {
      if (step.onFailure === 'stop') logger.error(record.message);
      else logger.warning(record.message);
    }
    return result;
  }

  /** Keeps the step's record and files; a failure stops the run or leaves a gap the report tells about. */
  private settle(step: PlannedStep, runner: TimedRunner, result: StepResult): void {
    const { record } = result;
    this.records.push(record);
    this.files.push(...(step.side ? result.files.map((file) => ({ ...file, side: step.side })) : result.files));
    if (record.status === 'ok') return;
    this.failedRoles.add(`${step.side ?? 'head'}:${step.role}`);
    const message = record.message ?? `${step.title} failed`;
    if (record.status === 'cancelled') this.stopReason = { outcome: 'cancelled', message: 'the run was cancelled' };
    else if (step.onFailure === 'stop') this.stopReason = { outcome: record.status === 'timeout' ? 'timeout' : 'failed', message };
    else {
      this.stepProblems.push(message);
      this.context.notices.push({ severity: 'warning', message: `${message} The report has no ${runner.lacks?.(step) ?? `data from ${step.id}`}.` });
    }
  }
}

/** Carries out the plan's steps in order; `started` is when the run's budget began. */
export async function runSteps(plan: Plan, deps: ExecuteDeps, runners: StepRunners, started = Date.now()): Promise<StepsDone> {
  const context = contextFor(plan, deps);
  const executor = new Executor(context, runners, deps, started);
  await executor.runAll();
  return {
    records: executor.records,
    files: executor.files,
    context,
    ...(executor.stopReason ? { stopReason: executor.stopReason } : {}),
    stepProblems: executor.stepProblems,
  };
}
