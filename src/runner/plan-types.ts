/**
 * The plan's shapes: steps, outputs, notices and the context a plan is built in. Kept apart from
 * the planning logic so the step builders and the profiler choice can name them without importing
 * the planner that imports them.
 */
import type { Environment, FormatId } from '../model/capture.js';
import type { NoticeCode } from '../model/notice-codes.js';
import type { DetectedEnvironment } from './detect.js';
import type { RunOptions } from './run-options.js';

/**
 * What a planned output is: a capture format (the importer's sniff checks it, as the analysis
 * detects it), or a file of no format of its own.
 */
export type OutputKind =
  | FormatId
  | 'nsys-rep'
  | 'workload-capture'
  /** A command workload's console: read when an importer recognizes it (e.g. JSON metric lines). */
  | 'workload-console';

export interface PlannedOutput {
  path: string;
  kind: OutputKind;
  /** Handed to the analysis; otherwise kept as an artifact only. */
  analysis: boolean;
  /** Missing: the run goes on without it (told), instead of failing. */
  optional?: boolean;
  /** What most likely went wrong when the file is missing or empty, with the fix. */
  hint?: string;
}

export type StepRole = 'preflight' | 'warmup' | 'measured' | 'profile' | 'profile-stats' | 'serve' | 'benchmark-warmup' | 'benchmark' | 'serve-stop';

export interface PlannedStep {
  id: string;
  role: StepRole;
  title: string;
  argv: string[];
  env: Record<string, string>;
  /** Directories put in front of PATH (a profiler found outside PATH that MAX calls by name). */
  pathPrepend: string[];
  timeoutSeconds: number;
  logFile: string;
  /** stdout to this file (a CSV), stderr to the log. */
  stdoutFile?: string;
  outputs: PlannedOutput[];
  /** Capture globs a command workload writes, copied into `into` after the step. */
  collect?: { globs: string[]; into: string; analysis: boolean };
  /** Files a tool writes into a folder under names it picks (rocprofv3). */
  findOutputs?: { dir: string; suffix: string; kind: OutputKind };
  /** The analysis copy of a profiled `max generate` console: its timings are not a measurement. */
  derive?: { from: string; to: string };
  /** A failed step either stops the run or leaves a gap the report tells about. */
  onFailure: 'stop' | 'continue';
  /** A step of the base build (A/B); otherwise the head's. */
  side?: 'base';
  /** Where the command runs, when not the job's folder (the base build's folder). */
  cwd?: string;
  weight: number;
}

export interface ServePlan {
  port: number;
  healthUrl: string;
  /** Seconds the server gets to answer /health before the run gives up on it. */
  readyTimeoutSeconds: number;
}

export interface DeepDivePlan {
  enabled: boolean;
  mode: RunOptions['deepDive'];
  reason: string;
  ncu?: string;
  /** The command ncu runs (the workload, unprofiled). */
  workload: string[];
  timeoutSeconds: number;
  logFile: string;
  csvFile: string;
}

export interface PlanNotice {
  /** Its code in the report; `run` when none more precise is given. What reads a notice reads this, never the message. */
  code?: NoticeCode;
  severity: 'info' | 'warning';
  message: string;
  fix?: string;
}

export type ResolvedProfiler = 'max' | 'nsys' | 'rocprofv3' | 'torch' | 'none';

export interface Plan {
  options: RunOptions;
  detected: DetectedEnvironment;
  environment: Environment;
  profiler: ResolvedProfiler;
  sampling: boolean;
  steps: PlannedStep[];
  serve?: ServePlan;
  deepDive: DeepDivePlan;
  notices: PlanNotice[];
  /** Each one alone stops the run before it starts. */
  problems: string[];
  budgetSeconds: number;
  outDir: string;
  cwd: string;
  /** A/B: the base build's folder and command; its report becomes the baseline. */
  base?: BasePlan;
  /**
   * Adaptive A/B: measured runs held in reserve, one ABBA pair (base, head, head, base) each, run in
   * order while a gated metric is undecided, up to max-runs per side.
   */
  extraPairs: PlannedStep[][];
}

export interface BasePlan {
  cwd: string;
  run?: string;
}

export interface PlanContext {
  outDir: string;
  cwd: string;
  /** The folder holding gpu_snapshot.py and preflight_custom_arch.py. */
  pythonDir: string;
  gpuSnapshotAvailable: boolean;
  /** The port is taken by some other process right now (serve mode). */
  portInUse?: (port: number) => boolean;
  /** The path is a folder (checked for base-workdir). */
  isDirectory?: (path: string) => boolean;
  /** The path exists and is not a folder (checked for the output folder). */
  isFile?: (path: string) => boolean;
}
