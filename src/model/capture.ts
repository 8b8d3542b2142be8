/**
 * What one importer reads from one input file: the raw, unclassified facts of a capture.
 * Every importer returns this shape; `buildProfile` merges several of them into one Profile.
 * Times are integer-ish nanoseconds, shares are 0..1, percentages are 0..100.
 */
import { z } from 'zod';
import { TraceEvents } from './trace-events.js';
import { NoticeCodeSchema } from './notice-codes.js';
import { MetricNameSchema } from './metrics.js';

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
  'rocprof-json',
  'rocm-smi-csv',
  'amd-smi-csv',
  'amd-smi-json',
  'nsys-sqlite',
  'rocpd-sqlite',
  'jax-trace',
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
  /** Which run of the file this is (1-based), when the file holds several one after another (nsys stats output appended). */
  run: z.number().int().positive().optional(),
});
export type Source = z.infer<typeof SourceSchema>;

export const Dim3Schema = z.tuple([z.number(), z.number(), z.number()]);

/**
 * A line of the workload's Python that launched a kernel, where the trace holds Python stacks
 * (Kineto `with_stack=True`): the innermost frame of the user's code around the launch call.
 */
export const PythonSiteSchema = z.object({
  /** The function, as Python names it (`forward`, `sdpa`). */
  function: z.string(),
  /** Its file as the profiler wrote it: relative to the sys.path entry it was found under. */
  file: z.string(),
  /** The function's first line (the profiler records a frame's line on entry). */
  line: z.number().int().nonnegative(),
  /** The innermost nn.Module around the frame, by class (`LlamaAttention`). */
  module: z.string().optional(),
  /**
   * The kernel ran in a CUDA graph replay. Alone: this is where the graph was replayed (its kernels
   * were captured elsewhere).
   */
  graphReplay: z.boolean().optional(),
  /**
   * With graphReplay: the graph's capture is in the same trace, and this is where the capture's
   * launch that made the kernel's node ran (the replay's kernels, in start order, are the
   * capture's launches in order).
   */
  graphCapture: z.boolean().optional(),
  /** Share of the kernel's time launched from here (0..1). */
  share: z.number().min(0).max(1),
});
export type PythonSite = z.infer<typeof PythonSiteSchema>;

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
   * links kernels to ops (Kineto; a CUDA graph replay's kernel through its graph's capture, when that
   * is in the trace). When launches came from several chains, the one with the most time.
   */
  launchedBy: z.string().optional(),
  /** Share of the kernel's time launched from `launchedBy` (0..1). */
  launchedByShare: z.number().min(0).max(1).optional(),
  /** Token count M (rows of activations) of the matmul op that launched it, from recorded input shapes. */
  tokens: z.number().int().nonnegative().optional(),
  /** Where in the workload's Python it was launched from, most time first (at most 3). */
  pythonSites: z.array(PythonSiteSchema).max(3).optional(),
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
  /** A name of METRIC_CATALOG (src/model/metrics.ts): importers write no other. */
  name: MetricNameSchema,
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

/**
 * Another's work on the GPU, as one recording of a command saw it (gpu-snapshot version 2): a
 * process shown outside the command in this pid namespace (`process`), one listed before the
 * command started while nothing of the job used the GPU (`listed-before`: a host pid a container
 * cannot see), or utilization while no process of the command could be on the GPU yet
 * (`busy-before`, no pid). Its samples, device, highest SM utilization (the process's own, or the
 * GPU's for busy-before; null where the sampler could not read it) and GPU memory.
 */
export const GpuNeighbourSchema = z.object({
  pid: z.number().int().nonnegative().nullable(),
  evidence: z.enum(['process', 'listed-before', 'busy-before']),
  device: z.number().int().nonnegative(),
  samples: z.number().int().positive(),
  maxSmPercent: z.number().min(0).max(100).nullable(),
  maxMemoryBytes: z.number().nonnegative().nullable(),
});
export type GpuNeighbour = z.infer<typeof GpuNeighbourSchema>;

/**
 * The GPU's processes over one recording of a command: the samples that listed them (of all), the
 * neighbours seen on the GPUs the command used (`jobDevices`: those that listed a process of its
 * own or a pid it could not place; empty: not known, and every recorded GPU counts), and the pids
 * whose owner the recording could not tell (not in this pid namespace, first listed after the
 * command started: possibly the command's own).
 */
export const GpuProcessesSchema = z.object({
  listedSamples: z.number().int().nonnegative(),
  samples: z.number().int().nonnegative(),
  neighbours: z.array(GpuNeighbourSchema),
  unknownPids: z.array(z.number().int().nonnegative()),
  jobDevices: z.array(z.number().int().nonnegative()).default([]),
});
export type GpuProcesses = z.infer<typeof GpuProcessesSchema>;

/** One profiler step (ProfilerStep#N or a user range), as the GPU saw it. */
export const StepSchema = z.object({
  name: z.string(),
  startNs: z.number(),
  durNs: z.number().nonnegative(),
  gpuBusyNs: z.number().nonnegative(),
  kernels: z.number().int().nonnegative(),
  /**
   * The clock the step was read on: its GPU projection (`gpu`, Kineto's gpu_user_annotation), or its
   * CPU range (`cpu`) where the trace has none, whose length is the host's and not the step's when
   * the host runs ahead of the GPU. Absent in older reports.
   */
  clock: z.enum(['gpu', 'cpu']).optional(),
});
export type Step = z.infer<typeof StepSchema>;

/**
 * An idle stretch that is not the workload: set-up before the first step (weights copied in, lazy
 * initialization), a pause between benchmark repetitions, or tear-down. Left out of utilization.
 */
export const ExcludedGapSchema = z.object({
  /** ns from the first GPU op. */
  startNs: z.number().nonnegative(),
  durNs: z.number().nonnegative(),
  reason: z.enum(['set-up', 'between-repetitions', 'tear-down']),
});
export type ExcludedGap = z.infer<typeof ExcludedGapSchema>;

/** Collective kernels on the timeline, summed over devices. */
export const TimelineCommunicationSchema = z.object({
  /** Union of collective kernel intervals. */
  collectiveNs: z.number().nonnegative(),
  /** Collective time with no other (compute) kernel running on the same device: on the critical path. */
  exposedNs: z.number().nonnegative(),
});
export type TimelineCommunication = z.infer<typeof TimelineCommunicationSchema>;

/** Host↔device copies on the timeline, summed over devices. */
export const TimelineTransfersSchema = z.object({
  /** Union of host-to-device and device-to-host copy intervals. */
  copyNs: z.number().nonnegative(),
  /** Copy time with no kernel running on the same device. */
  exposedNs: z.number().nonnegative(),
});
export type TimelineTransfers = z.infer<typeof TimelineTransfersSchema>;

/**
 * One activation shape of the outermost matmul ops of a trace that recorded shapes (Kineto
 * `record_shapes`): the token rows one forward pass feeds its linear layers.
 */
export const MatmulInputShapeSchema = z.object({
  /** The op, as the trace names it (`aten::linear`, or an `aten::mm` that no linear encloses). */
  op: z.string(),
  /** The activation input's shape less its feature dim: `[8, 512]` is 8 sequences of 512 tokens. */
  rows: z.array(z.number().int().nonnegative()),
  /** Ops with this shape. */
  ops: z.number().int().positive(),
  /** Start of the first and of the last of them, ns from the first such op of any shape (CPU clock). */
  firstNs: z.number(),
  lastNs: z.number(),
});
export type MatmulInputShape = z.infer<typeof MatmulInputShapeSchema>;

export const MatmulInputsSchema = z.object({
  /** In order of first use; a bounded number of distinct shapes. */
  shapes: z.array(MatmulInputShapeSchema),
  /** Ops of shapes past the bound, counted only. */
  otherOps: z.number().int().nonnegative(),
});
export type MatmulInputs = z.infer<typeof MatmulInputsSchema>;

/** Ranges (user annotations) whose names say a generation phase, e.g. SGLang's `step[EXTEND bs=15 toks=15360]`. */
export const PhaseRangesSchema = z.object({
  decode: z.number().int().nonnegative(),
  prefill: z.number().int().nonnegative(),
  /** The first name of each kind, as written. */
  decodeName: z.string().optional(),
  prefillName: z.string().optional(),
});
export type PhaseRanges = z.infer<typeof PhaseRangesSchema>;

/** What a per-launch trace (Kineto, rocprofv3 kernel_trace) says about time, beyond per-kernel sums. */
const TimelineObjectSchema = z.object({
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
  /** Idle stretches that are not the workload (see ExcludedGapSchema), in time order. */
  excludedGaps: z.array(ExcludedGapSchema).default([]),
  /** spanNs less the excluded gaps; equals spanNs when there are none. */
  activeSpanNs: z.number().nonnegative().optional(),
  /** Present when the trace holds collective kernels. */
  communication: TimelineCommunicationSchema.optional(),
  /** Present when the trace holds host↔device copies. */
  transfers: TimelineTransfersSchema.optional(),
  /** Present when the trace recorded the input shapes of its matmul ops. */
  matmulInputs: MatmulInputsSchema.optional(),
  /** Present when the trace's annotations name prefill or decode. */
  phaseRanges: PhaseRangesSchema.optional(),
});
export const TimelineSchema = TimelineObjectSchema.transform((timeline) => ({
  ...timeline,
  activeSpanNs: timeline.activeSpanNs ?? Math.max(0, timeline.spanNs - timeline.excludedGaps.reduce((sum, gap) => sum + gap.durNs, 0)),
}));
export type Timeline = z.infer<typeof TimelineSchema>;
/** A timeline as importers build it (defaults and activeSpanNs filled on parse). */
export type TimelineInput = z.input<typeof TimelineSchema>;

export const CpuFunctionSchema = z.object({
  name: z.string(),
  totalNs: z.number().nonnegative(),
  calls: z.string(),
  percent: z.number().optional(),
});
export type CpuFunction = z.infer<typeof CpuFunctionSchema>;

/**
 * A statement about the capture or the analysis (fallbacks, skipped reports, errors). Later stages
 * read its code, one of a closed set (model/notice-codes.ts); the message is for people.
 */
export const NoticeSchema = z.object({
  code: NoticeCodeSchema,
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

/** Where a capture sits in a distributed job (Kineto `distributedInfo`). */
export const DistributedSchema = z.object({
  rank: z.number().int().nonnegative(),
  worldSize: z.number().int().positive().optional(),
  backend: z.string().optional(),
  host: z.string().optional(),
});
export type Distributed = z.infer<typeof DistributedSchema>;

export const CaptureSchema = z.object({
  source: SourceSchema,
  /** The rank this capture was taken on, where the trace says. */
  distributed: DistributedSchema.optional(),
  kernels: z.array(KernelStatSchema).default([]),
  memops: z.array(MemopStatSchema).default([]),
  apiCalls: z.array(ApiStatSchema).default([]),
  metrics: z.array(MetricSampleSchema).default([]),
  utilization: z.array(UtilSampleSchema).default([]),
  timeline: TimelineSchema.optional(),
  /** One timeline per device when a per-launch trace spans several (device ids as in KernelStat.device). */
  deviceTimelines: z.array(z.object({ device: z.number().int(), timeline: TimelineSchema })).default([]),
  cpuFunctions: z.array(CpuFunctionSchema).default([]),
  notices: z.array(NoticeSchema).default([]),
  ncu: z.array(NcuResultSchema).default([]),
  environment: EnvironmentSchema.default({}),
  /** Where the workload reported its timed runs: utilization is read over these when samples fall inside. */
  timedWindows: z.array(TimedWindowSchema).default([]),
  /** The GPU's processes over a recording of one command (gpu-snapshot version 2): whether another's work shared the GPU. */
  gpuProcesses: GpuProcessesSchema.optional(),
  /** GPU utilization as a profiler computed it over the capture (e.g. nsys analyze gpu_time_util), 0..100. */
  gpuTimeUtilPercent: z.number().min(0).max(100).optional(),
  /** The timeline's events as read (bounded), for the clean trace profile-gate writes; never serialized. */
  trace: z.custom<TraceEvents>((value) => value instanceof TraceEvents).optional(),
});
export type Capture = z.infer<typeof CaptureSchema>;
/** What importers build; defaults are filled by CaptureSchema.parse. */
export type CaptureInput = z.input<typeof CaptureSchema>;
