/**
 * What carrying out a plan gives back: a record per step, the files the steps wrote, the outcome.
 * Kept apart from the executor so the step runners can name them without importing it.
 */
import type { Logger } from './logger.js';
import type { OutputKind, PlanNotice } from './plan-types.js';
import type { ProcessGroups } from './process-group.js';
import type { HealthCheck, ServeTiming } from './serve.js';

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
