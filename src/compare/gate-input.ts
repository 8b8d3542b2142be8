/**
 * What the gate reads from each side. A Report (or a Profile plus its findings) fits as is;
 * tests and the simulator build it directly.
 */
import type { Environment } from '../model/capture.js';
import type { BaselineOrigin, Comparison, ComparisonRow, DecisionCause, DecisionPolicy, StepCount, Verdict } from '../model/report.js';
import type { VerdictFinding } from './verdict.js';
import type { KernelFamily } from '../model/family-ids.js';
import type { GpuSharing } from '../model/gpu-sharing.js';

export interface GateMetric {
  name: string;
  unit: string;
  direction: 'higher' | 'lower';
  /** Repeated measurements in the order they were taken (the warm-up and drift rules rely on it). */
  samples: readonly number[];
  /** The median of the samples (or the single reported value). */
  value: number;
}

export interface GateKernel {
  name: string;
  family: KernelFamily;
  totalNs: number;
  /** Share of all GPU kernel time, 0..1. */
  share: number;
  /** Launches, the device, and where it was launched from, where the capture says (time per step reads them). */
  instances?: number;
  device?: number | undefined;
  launchedBy?: string | undefined;
  pythonSites?: ReadonlyArray<{ function: string; file: string; line: number }> | undefined;
}

export interface GateFamily {
  family: KernelFamily;
  share: number;
}

export type GateFinding = VerdictFinding;

/** The part of a timeline the gate reads: how much collective time no compute overlapped. */
export interface GateTimeline {
  activeSpanNs: number;
  devices: number;
  communication?: { exposedNs: number };
  /** What counts the decode steps (src/diagnose/step-count.ts); their durations give the profiled step time (profiler-steps.ts). */
  steps?: ReadonlyArray<{ name: string; durNs?: number; clock?: 'gpu' | 'cpu' }>;
  graphLaunches?: number;
  kernelLaunches?: number;
  phaseRanges?: { decode: number; prefill: number; decodeName?: string | undefined } | undefined;
}

export interface GateInput {
  metrics: readonly GateMetric[];
  kernels: readonly GateKernel[];
  families: readonly GateFamily[];
  findings: readonly VerdictFinding[];
  /** GPU sampling: the hardware throttle reasons seen, the share of samples with one, and the mean SM clock (a Report's utilization fits). */
  utilization: { throttleReasons: readonly string[]; throttledFraction?: number; meanSmClockMhz?: number; sampleCount?: number } | null;
  /** A per-launch trace's timeline, and each rank's, when there are several (both optional). */
  timeline?: GateTimeline | null;
  ranks?: ReadonlyArray<{ timeline: GateTimeline | null }>;
  environment: Environment;
  /** The formats read into the side (a Report's or a Profile's sources): which tool's figures count its steps. */
  sources?: ReadonlyArray<{ format: string }>;
  /** The decode steps of the side's capture, as its report recorded them (stepCountOf in src/diagnose/step-count.ts counts them otherwise). */
  stepCount?: StepCount | undefined;
  /** Whether another process shared the GPU during each measured run (a Report's or a Profile's gpuSharing). */
  gpuSharing?: GpuSharing | null | undefined;
  /** When the side was produced (a Report's generatedAt). */
  generatedAt?: string;
  /** Where a baseline came from and why it was chosen, for the report. */
  origin?: { origin: BaselineOrigin; path?: string; reason?: string };
}

export interface GateResult {
  verdict: Verdict;
  /** What decides the verdict, as data (src/compare/verdict.ts judge). */
  causes: DecisionCause[];
  /** The gate's part of the policy that judged it (the rules' options are the analysis's). */
  policy: GatePolicy;
  comparison: Comparison | null;
}

export type GatePolicy = Omit<DecisionPolicy, 'ruleOptions'>;

/** A row plus what the verdict needs to know about it. */
export interface GatedRow {
  row: ComparisonRow;
  /** A gated metric that more runs could decide. */
  undecided?: boolean;
}
