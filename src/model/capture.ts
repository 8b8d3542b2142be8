/**
 * What one importer reads from one input file: the raw, unclassified facts of a capture.
 * Every importer returns this shape; `buildProfile` merges several of them into one Profile.
 * Times are integer-ish nanoseconds, shares are 0..1, percentages are 0..100.
 */
import { z } from 'zod';

export const FORMAT_IDS = [
  'max-generate',
  'max-benchmark',
  'max-benchmark-json',
  'nsys-stats',
  'nsys-gpu-time-util',
  'rocprof-csv',
  'kineto-json',
  'ncu-csv',
  'nvidia-smi-csv',
  'rocm-smi-json',
  'max-gpu-stats-json',
  'gpu-snapshot-jsonl',
  'workload-metrics-jsonl',
] as const;
export const FormatIdSchema = z.enum(FORMAT_IDS);
export type FormatId = z.infer<typeof FormatIdSchema>;

/** A recoverable problem met while reading, counted rather than thrown (nothing vanishes silently). */
export const ImportStatSchema = z.object({
  name: z.string(),
  severity: z.enum(['info', 'data-loss', 'error']),
  count: z.number().int().nonnegative(),
  detail: z.string().optional(),
});
export type ImportStat = z.infer<typeof ImportStatSchema>;

export const SourceSchema = z.object({
  path: z.string(),
  format: FormatIdSchema,
  /** The report or table kinds found inside, e.g. nsys `cuda_gpu_kern_sum`, ncu `details`. */
  parts: z.array(z.string()).default([]),
  tool: z.string().optional(),
  toolVersion: z.string().optional(),
  stats: z.array(ImportStatSchema).default([]),
});
export type Source = z.infer<typeof SourceSchema>;

export const Dim3Schema = z.tuple([z.number(), z.number(), z.number()]);

export const KernelStatSchema = z.object({
  name: z.string(),
  totalNs: z.number().nonnegative(),
  instances: z.number().int().nonnegative(),
  minNs: z.number().nonnegative().optional(),
  maxNs: z.number().nonnegative().optional(),
  device: z.number().int().optional(),
  /** Launch shape of the launches that took the most time, where the capture records it. */
  grid: Dim3Schema.optional(),
  block: Dim3Schema.optional(),
  /**
   * The CPU op chain that launched it, outermost first (`aten::linear > aten::addmm`), where the trace
   * links kernels to ops (Kineto). When launches came from several chains, the one with the most time.
   */
  launchedBy: z.string().optional(),
  /** Share of the kernel's time launched from `launchedBy` (0..1). */
  launchedByShare: z.number().min(0).max(1).optional(),
  /** Token count M (rows of activations) of the matmul op that launched it, from recorded input shapes. */
  tokens: z.number().int().nonnegative().optional(),
});
export type KernelStat = z.infer<typeof KernelStatSchema>;

export const MemopStatSchema = z.object({
  /** `memcpy-htod` | `memcpy-dtoh` | `memcpy-dtod` | `memcpy-other` | `memset` */
  kind: z.string(),
  name: z.string(),
  totalNs: z.number().nonnegative().optional(),
  count: z.number().int().nonnegative(),
  bytes: z.number().nonnegative().optional(),
});
export type MemopStat = z.infer<typeof MemopStatSchema>;

export const ApiStatSchema = z.object({
  name: z.string(),
  totalNs: z.number().nonnegative(),
  calls: z.number().int().nonnegative(),
});
export type ApiStat = z.infer<typeof ApiStatSchema>;

export const MetricSampleSchema = z.object({
  /** Canonical name from METRIC_CATALOG (src/model/metrics.ts). */
  name: z.string(),
  value: z.number(),
});
export type MetricSample = z.infer<typeof MetricSampleSchema>;

export const UtilSampleSchema = z.object({
  /** Seconds since the epoch or since the start of sampling; only differences matter. */
  t: z.number().optional(),
  device: z.number().int().default(0),
  gpuPercent: z.number().min(0).max(100),
  memoryPercent: z.number().min(0).max(100).optional(),
  smClockMhz: z.number().optional(),
  powerW: z.number().optional(),
  memoryUsedBytes: z.number().optional(),
  /** Clock-event reasons active in this sample, in NVML/max.profiler.gpu names (gpu_idle included). */
  reasons: z.array(z.string()).default([]),
});
export type UtilSample = z.infer<typeof UtilSampleSchema>;

/** One profiler step (ProfilerStep#N or a user range), as the GPU saw it. */
export const StepSchema = z.object({
  name: z.string(),
  startNs: z.number(),
  durNs: z.number().nonnegative(),
  gpuBusyNs: z.number().nonnegative(),
  kernels: z.number().int().nonnegative(),
});
export type Step = z.infer<typeof StepSchema>;

/** What a per-launch trace (Kineto, rocprofv3 kernel_trace) says about time, beyond per-kernel sums. */
export const TimelineSchema = z.object({
  /** First GPU op start to last GPU op end, over all devices. */
  spanNs: z.number().nonnegative(),
  /** Union of GPU op intervals (kernels, memcpy, memset), summed over devices. */
  busyNs: z.number().nonnegative(),
  devices: z.number().int().nonnegative(),
  idleGaps: z.object({
    count: z.number().int().nonnegative(),
    totalNs: z.number().nonnegative(),
    longestNs: z.number().nonnegative(),
  }),
  kernelLaunches: z.number().int().nonnegative(),
  graphLaunches: z.number().int().nonnegative(),
  /** Kernels that ran inside a CUDA graph replay, where the trace says so. */
  graphKernels: z.number().int().nonnegative(),
  steps: z.array(StepSchema).default([]),
  /** GPU kernel time per tenth of the span (for growth over the capture). */
  busyByDecile: z.array(z.number().nonnegative()).default([]),
  /** Idle gaps that are not the workload (set-up, between benchmark repetitions, tear-down), left out of utilization. */
  excludedGaps: z
    .array(z.object({ startNs: z.number(), durNs: z.number().nonnegative(), reason: z.enum(['set-up', 'between-repetitions', 'tear-down']) }))
    .optional(),
  /** The span less the excluded gaps; absent when nothing was excluded. */
  activeSpanNs: z.number().nonnegative().optional(),
});
export type Timeline = z.infer<typeof TimelineSchema>;

export const CpuFunctionSchema = z.object({
  name: z.string(),
  totalNs: z.number().nonnegative(),
  calls: z.string(),
  percent: z.number().optional(),
});
export type CpuFunction = z.infer<typeof CpuFunctionSchema>;

/** A statement the tool itself printed about the capture (fallbacks, skipped reports, errors). */
export const NoticeSchema = z.object({
  code: z.string(),
  severity: z.enum(['info', 'warning', 'error']),
  message: z.string(),
});
export type Notice = z.infer<typeof NoticeSchema>;

/** One Nsight Compute result (one profiled launch): metrics keyed by section and metric label. */
export const NcuMetricSchema = z.object({
  section: z.string(),
  name: z.string(),
  unit: z.string(),
  /** The value in base units (ns, byte, byte/s, hz, %), or the raw text when not numeric. */
  value: z.union([z.number(), z.string()]),
});
export const NcuRuleSchema = z.object({
  section: z.string(),
  name: z.string(),
  type: z.string(),
  description: z.string(),
  speedupType: z.string().optional(),
  estimatedSpeedupPercent: z.number().optional(),
});
export const NcuResultSchema = z.object({
  id: z.number().int(),
  kernel: z.string(),
  device: z.string().optional(),
  cc: z.string().optional(),
  grid: z.string().optional(),
  block: z.string().optional(),
  metrics: z.array(NcuMetricSchema),
  rules: z.array(NcuRuleSchema),
});
export type NcuResult = z.infer<typeof NcuResultSchema>;

export const EnvironmentSchema = z.object({
  gpuName: z.string().optional(),
  gpuCount: z.number().int().optional(),
  vendor: z.enum(['nvidia', 'amd']).optional(),
  driver: z.string().optional(),
  cuda: z.string().optional(),
  rocm: z.string().optional(),
  engine: z.string().optional(),
  engineVersion: z.string().optional(),
  model: z.string().optional(),
  dtype: z.string().optional(),
  batch: z.string().optional(),
  sequence: z.string().optional(),
});
export type Environment = z.infer<typeof EnvironmentSchema>;

/** A stretch of wall-clock time (seconds since the epoch) in which the workload says it timed itself. */
export const TimedWindowSchema = z.object({ startS: z.number(), endS: z.number() });
export type TimedWindow = z.infer<typeof TimedWindowSchema>;

export const CaptureSchema = z.object({
  source: SourceSchema,
  kernels: z.array(KernelStatSchema).default([]),
  memops: z.array(MemopStatSchema).default([]),
  apiCalls: z.array(ApiStatSchema).default([]),
  metrics: z.array(MetricSampleSchema).default([]),
  utilization: z.array(UtilSampleSchema).default([]),
  timeline: TimelineSchema.optional(),
  cpuFunctions: z.array(CpuFunctionSchema).default([]),
  notices: z.array(NoticeSchema).default([]),
  ncu: z.array(NcuResultSchema).default([]),
  environment: EnvironmentSchema.default({}),
  /** Where the workload reported its timed runs: utilization is read over these when samples fall inside. */
  timedWindows: z.array(TimedWindowSchema).default([]),
  /** GPU utilization as a profiler computed it over the capture (e.g. nsys analyze gpu_time_util), 0..100. */
  gpuTimeUtilPercent: z.number().min(0).max(100).optional(),
});
export type Capture = z.infer<typeof CaptureSchema>;
/** What importers build; defaults are filled by CaptureSchema.parse. */
export type CaptureInput = z.input<typeof CaptureSchema>;
