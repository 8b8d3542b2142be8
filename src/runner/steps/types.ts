/**
 * The shape of a step runner and what it is handed. The executor (executor.ts) owns the order of
 * the steps and the run's budget; a runner carries out one step of its role and says how it went.
 */
import type { Logger } from '../logger.js';
import type { Plan, PlanNotice, PlannedStep, StepRole } from '../plan-types.js';
import type { ProcessGroups } from '../process-group.js';
import type { RunFile, StepRecord } from '../run-types.js';
import type { HealthCheck, Server, ServeTiming } from '../serve.js';

export interface StepResult {
  record: StepRecord;
  files: RunFile[];
}

/** What every runner works with; one per run of the executor. */
export interface StepContext {
  readonly plan: Plan;
  readonly logger: Logger;
  readonly groups: ProcessGroups;
  readonly health?: HealthCheck;
  readonly serveTiming?: ServeTiming;
  /** Notices for the report: the plan's, then what the steps add. */
  readonly notices: PlanNotice[];
  /** The server a serve step started, until a serve-stop step (or the end of the run) stops it. */
  server: Server | undefined;
  /** A path as the log shows it: relative to the job's folder when under it. */
  display(path: string): string;
  /** The step's environment, with its PATH additions in front of ours. */
  envFor(step: PlannedStep): Record<string, string>;
}

/** What the executor has seen so far, for a runner that depends on an earlier step. */
export interface RunProgress {
  /** A step of this role and side (head when none) failed. */
  failed(role: StepRole, side: PlannedStep['side']): boolean;
}

/** A step with a time limit: skipped once the run has stopped or its budget is spent. */
export interface TimedRunner {
  kind: 'timed';
  run(step: PlannedStep, context: StepContext, timeoutMs: number): Promise<StepResult>;
  /** Why the step is skipped although the run goes on (a step it builds on failed). */
  skipWhy?(step: PlannedStep, progress: RunProgress): string | undefined;
  /** What the report has none of when the step fails and the run goes on. */
  lacks?(step: PlannedStep): string;
}

/** Putting away what an earlier step started: runs even after the run stopped, outside the budget. */
export interface CleanupRunner {
  kind: 'cleanup';
  run(step: PlannedStep, context: StepContext): Promise<StepRecord>;
}

export type StepRunner = TimedRunner | CleanupRunner;

/** One runner for every role: the compiler asks for a runner when a role is added. */
export type StepRunners = Readonly<Record<StepRole, StepRunner>>;
