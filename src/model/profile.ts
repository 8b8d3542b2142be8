/**
 * The normalized profile: every capture of one run merged and classified. The Report (report.ts)
 * is this plus the diagnosis and the gate's decision.
 */
import { z } from 'zod';
import {
  ApiStatSchema,
  CpuFunctionSchema,
  EnvironmentSchema,
  KernelStatSchema,
  MemopStatSchema,
  NcuResultSchema,
  NoticeSchema,
  SourceSchema,
  TimelineSchema,
} from './capture.js';
import { kernelFamily } from './family-ids.js';
import { GpuSharingSchema } from './gpu-sharing.js';

/** A kernel family as stored: a built-in id, or a user family's id (family-ids.ts). */
export const KernelFamilySchema = z.string().transform(kernelFamily);

export const KernelSchema = KernelStatSchema.extend({
  family: KernelFamilySchema,
  /** Share of all GPU kernel time in the profile, 0..1. */
  share: z.number().min(0).max(1),
});
export type Kernel = z.infer<typeof KernelSchema>;

export const FamilyShareSchema = z.object({
  family: KernelFamilySchema,
  totalNs: z.number().nonnegative(),
  share: z.number().min(0).max(1),
  kernels: z.number().int().nonnegative(),
  instances: z.number().int().nonnegative(),
});
export type FamilyShare = z.infer<typeof FamilyShareSchema>;

export const MetricSchema = z.object({
  /** A MetricName (model/metrics.ts) when this version built it; a report of another version may hold any name. */
  name: z.string(),
  unit: z.string(),
  direction: z.enum(['higher', 'lower']),
  samples: z.array(z.number()),
  /** The median of the samples. */
  value: z.number(),
  /**
   * The confidence interval of that median at the gate's level (src/compare/median-interval.ts), null
   * when the samples are too few for it; set when a report is written (absent in older reports).
   */
  ci: z.tuple([z.number(), z.number()]).nullable().optional(),
});
export type Metric = z.infer<typeof MetricSchema>;

export const UtilizationSchema = z.object({
  /**
   * Which samples the mean and the throttle share are over: `timed`, the workload's own timed runs
   * (the samples inside the windows it reported); `active`, each recording less its idle start and end.
   */
  window: z.enum(['timed', 'active']).default('active'),
  /** Mean over the window. */
  meanPercent: z.number().min(0).max(100),
  peakPercent: z.number().min(0).max(100),
  /** Samples in the window. */
  sampleCount: z.number().int().nonnegative(),
  /** Mean and count over every sample, start-up and tear-down included. */
  overallMeanPercent: z.number().min(0).max(100),
  totalSampleCount: z.number().int().nonnegative(),
  devices: z.number().int().nonnegative(),
  /** Hardware clock-event reasons seen in any sample (gpu_idle and settings excluded). */
  throttleReasons: z.array(z.string()),
  /** Share of samples with at least one hardware throttle reason, 0..1. */
  throttledFraction: z.number().min(0).max(1),
  meanSmClockMhz: z.number().optional(),
  peakPowerW: z.number().optional(),
});
export type Utilization = z.infer<typeof UtilizationSchema>;

/**
 * One rank of a distributed job (or one device of a capture that holds several): its own kernel
 * breakdown and timeline, so that ranks are compared rather than summed.
 */
export const RankSchema = z.object({
  /** The rank from the trace's `distributedInfo`; absent for a device split of one capture. */
  rank: z.number().int().nonnegative().optional(),
  device: z.number().int().optional(),
  host: z.string().optional(),
  worldSize: z.number().int().positive().optional(),
  backend: z.string().optional(),
  /** The input files this rank's numbers come from. */
  sources: z.array(z.string()).default([]),
  totalKernelNs: z.number().nonnegative(),
  families: z.array(FamilyShareSchema),
  timeline: TimelineSchema.nullable(),
});
export type Rank = z.infer<typeof RankSchema>;

export const ProfileSchema = z.object({
  sources: z.array(SourceSchema),
  environment: EnvironmentSchema,
  totalKernelNs: z.number().nonnegative(),
  kernels: z.array(KernelSchema),
  families: z.array(FamilyShareSchema),
  memops: z.array(MemopStatSchema),
  apiCalls: z.array(ApiStatSchema),
  metrics: z.array(MetricSchema),
  utilization: UtilizationSchema.nullable(),
  timeline: TimelineSchema.nullable(),
  cpuFunctions: z.array(CpuFunctionSchema),
  notices: z.array(NoticeSchema),
  ncu: z.array(NcuResultSchema),
  gpuTimeUtilPercent: z.number().min(0).max(100).nullable(),
  /** Per rank (or per device), in rank order; empty when the inputs are one undivided capture. */
  ranks: z.array(RankSchema).default([]),
  /**
   * Where the kernel rows come from: a breakdown of the run (nsys, Kineto, rocprof, MAX), or only the
   * few launches an Nsight Compute deep dive replayed, which say nothing about the run's mix.
   */
  kernelOrigin: z.enum(['breakdown', 'deep-dive']).optional(),
  /** Whether another process shared the GPU during each measured run (null: no recording listed the GPU's processes). */
  gpuSharing: GpuSharingSchema.nullable().default(null),
});
export type Profile = z.infer<typeof ProfileSchema>;
