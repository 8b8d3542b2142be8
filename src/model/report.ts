/**
 * The report: the public, versioned contract that the gate, the dashboard and users' scripts read.
 * Bump REPORT_SCHEMA_VERSION on any change that an old reader would misread, and migrate forward.
 */
import { z } from 'zod';
import { EnvironmentSchema, GpuNeighbourSchema, NcuResultSchema, NoticeSchema, SourceSchema, TimelineSchema, ApiStatSchema, MemopStatSchema, CpuFunctionSchema } from './capture.js';
import { FamilyShareSchema, KernelFamilySchema, KernelSchema, MetricSchema, RankSchema, UtilizationSchema } from './profile.js';
import { GpuSharingSchema } from './gpu-sharing.js';

export const REPORT_SCHEMA_VERSION = 8;
/** The file name of a report wherever one is written or looked for (folders, artifacts). */
export const REPORT_FILE = 'report.json';
/** The record of a `profile-gate run`, written beside its report.json in the output folder. */
export const RUN_FILE = 'run.json';
/** Where an A/B `profile-gate run` keeps the base build's logs, captures and report, inside its output folder. */
export const BASE_SIDE_DIR = 'base';

export const SeveritySchema = z.enum(['info', 'warning', 'error']);
export type Severity = z.infer<typeof SeveritySchema>;

/** A finding's request for an Nsight Compute deep dive on one kernel; `command` is its rendering. */
export const DeepDiveRequestSchema = z.object({
  /** The kernel as the breakdown names it. */
  kernel: z.string(),
  /** Its normalized key, the same for every tool's spelling of the kernel. */
  kernelKey: z.string(),
  /** ncu's `--kernel-name regex:` filter, and whether it needs `--kernel-name-base demangled`. */
  nameRegex: z.string(),
  demangled: z.boolean(),
  launchSkip: z.number().int().nonnegative(),
  launchCount: z.number().int().positive(),
  sections: z.array(z.string()),
});
export type DeepDiveRequest = z.infer<typeof DeepDiveRequestSchema>;

/**
 * A kernel that keeps step with a finding's own kernels: launched a whole number of times (`perLaunch`)
 * per launch of the `anchor` family, to within less than one launch per step, as the copies that lay
 * out an unfused attention's operands keep step with its softmax, layer by layer.
 */
export const LockstepKernelSchema = z.object({
  /** The kernel's full name, as in the report's kernels. */
  name: z.string(),
  /** The family whose launches it keeps step with. */
  anchor: KernelFamilySchema,
  perLaunch: z.number().int().positive(),
  launches: z.number().int().nonnegative(),
  totalNs: z.number().nonnegative(),
  /** Per step per device, where the window's steps are counted (src/diagnose/step-count.ts); else null. */
  launchesPerStep: z.number().nonnegative().nullable(),
  nsPerStep: z.number().nonnegative().nullable(),
});
export type LockstepKernel = z.infer<typeof LockstepKernelSchema>;

export const FindingSchema = z.object({
  id: z.string(),
  severity: SeveritySchema,
  title: z.string(),
  /** One or two sentences with the numbers filled in. */
  message: z.string(),
  /** The numbers that triggered the rule, named. */
  evidence: z.record(z.string(), z.union([z.number(), z.string(), z.boolean()])),
  advice: z.string(),
  /** The exact next command to run, where there is one. */
  command: z.string().optional(),
  docs: z.string(),
  /** Reported below a primary finding that explains the run better (e.g. kernel findings on a host-bound run). */
  secondary: z.boolean().default(false),
  /** The kernel the finding is about, where it is about one. */
  kernel: z.string().optional(),
  /** The deep dive the finding asks for, as data (`profile-gate run` runs it; `command` shows it). */
  deepDive: DeepDiveRequestSchema.optional(),
  /** Kernels that are part of what the finding describes, beside its own (absent: none named). */
  lockstepKernels: z.array(LockstepKernelSchema).optional(),
  /** The evidence the finding rests on, each with its coverage ("kernel breakdown: 1,963 launches …"). */
  basis: z.array(z.string()).default([]),
});
export type Finding = z.infer<typeof FindingSchema>;
export type FindingInput = z.input<typeof FindingSchema>;

/** An input left out of the analysis, and why (the reader's one line). */
export const SkippedInputSchema = z.object({ path: z.string(), reason: z.string() });
export type SkippedInput = z.infer<typeof SkippedInputSchema>;

/**
 * `accepted`: a fail whose failing rows a person with write access accepted on the pull request
 * (src/compare/acceptance.ts); the rows stay as they are, `acceptance` says who accepted what.
 */
export const VerdictSchema = z.enum(['pass', 'warn', 'fail', 'insufficient-data', 'invalid', 'accepted']);
export type Verdict = z.infer<typeof VerdictSchema>;

/** Who accepted a failing verdict on the pull request, how, when, and which failing rows it covers. */
export const AcceptanceSchema = z.object({
  /** The GitHub login that accepted (checked for write access when it was read). */
  by: z.string(),
  /**
   * The PR label (it accepts until removed), the comment command (it accepts the head it was posted
   * on), or the CLI's `report --accepted-by` (a local acceptance, for trying it out).
   */
  via: z.enum(['label', 'comment', 'cli']),
  /** When the label was added or the comment posted (ISO 8601). */
  at: z.string(),
  /** The comment, or the pull request for a label. */
  url: z.string().optional(),
  reason: z.string().optional(),
  /** The failing rows accepted: comparison row metrics, or `finding:<id>` without a baseline. */
  covers: z.array(z.string()),
  /** The head commit of the pull request the acceptance was read for. */
  headSha: z.string().optional(),
});
export type Acceptance = z.infer<typeof AcceptanceSchema>;

/**
 * An acceptance that did not apply: the comparison was `invalid`; the report records `no-failing-row`;
 * the claim covers only part of the failing rows (`covers`, `left`, and `unknown` names it gave
 * that name no failing row); or `refused` where it was read (`text`: the reader's line).
 */
export const AcceptanceNoteSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('invalid'), by: z.string(), via: AcceptanceSchema.shape.via }),
  z.object({ kind: z.literal('no-failing-row'), by: z.string(), via: AcceptanceSchema.shape.via }),
  z.object({ kind: z.literal('partial'), by: z.string(), via: AcceptanceSchema.shape.via, covers: z.array(z.string()), left: z.array(z.string()), unknown: z.array(z.string()) }),
  z.object({ kind: z.literal('refused'), text: z.string() }),
]);
export type AcceptanceNote = z.infer<typeof AcceptanceNoteSchema>;

export const RowStatusSchema = z.enum(['pass', 'improved', 'warn', 'fail', 'insufficient-data', 'info']);
export type RowStatus = z.infer<typeof RowStatusSchema>;

/** What a share, time-per-step or finding row is about: a family, a kernel (its whole name), a finding, or the exposed communication. */
export const RowSubjectSchema = z.object({
  type: z.enum(['family', 'kernel', 'finding', 'communication']),
  id: z.string(),
});
export type RowSubject = z.infer<typeof RowSubjectSchema>;

/** One side of a comparison. */
export const SideSchema = z.enum(['baseline', 'current']);
export type Side = z.infer<typeof SideSchema>;

/** A run of a side left out of its median as one of its slowest: its number as measured, its distance below the kept runs' median, and whether the outlier rule found it stalled. */
export const LeftOutRunSchema = z.object({ run: z.number().int().positive(), change: z.number(), stall: z.boolean() });

/** A side's runs left out as its slowest: which, beside how many kept runs of what spread, and the runs below its fast cluster (`found`) past a stall's share (`maxShare`). */
export const StallSideSchema = z.object({
  side: SideSchema,
  runs: z.array(LeftOutRunSchema),
  kept: z.number().int().nonnegative(),
  spread: z.number().nonnegative(),
  found: z.number().int().nonnegative(),
  maxShare: z.number(),
});
export type StallSide = z.infer<typeof StallSideSchema>;

/** What a gated metric's row reads as (its sentence: src/report/row-lines.ts). */
export const MetricOutcomeSchema = z.enum(['regressed', 'improved', 'within-floor', 'not-significant', 'interval-reaches-floor', 'interval-reaches-inside-floor', 'too-few-kept', 'sides-overlap', 'noisy-side', 'baseline-ran-faster', 'too-few-samples', 'only-in', 'not-gated', 'no-relative-change', 'drift', 'shared-gpu']);

/**
 * A gated metric whose runs another process shared the GPU with (schema 5; src/compare/shared-gpu.ts):
 * what the gate did (`clean-runs`: decided on the runs the sharing left alone, the others left out;
 * `fail-both-sides`: a failure kept, the sharing alike on both sides and the failure shown again
 * at a stricter level (`failCheck`); `against-sharing`: a failure
 * with only the baseline shared, or an improvement with only the current (a neighbour only slows the
 * runs it shares, so it worked against the change found); `refused`: undecided;
 * `ignored`: decided on every run, as shared-gpu ignore says), the row's status on every run (and
 * for `refused`, why the shared runs were not left out), and
 * per side the runs the sharing was seen in, of how many recorded, and who shared it (the busiest
 * first, at most 3: a pid, or null for work seen before any process of the job was on the GPU).
 */
export const SharedGpuReadingSchema = z.object({
  action: z.enum(['clean-runs', 'fail-both-sides', 'against-sharing', 'refused', 'ignored']),
  allRuns: RowStatusSchema,
  /** Refused: why: too few runs remain on a side without the shared ones, the runs' samples are not told apart, or (schema 6) a failure under sharing on both sides is not shown at the stricter level (`failCheck`). */
  refusedFor: z.enum(['too-few-clean-runs', 'runs-not-told-apart', 'fail-not-shown']).optional(),
  /**
   * A failure with the sharing alike on both sides (schema 6), judged again more strictly than a
   * pass: `shown` when the comparison at `level` (97.5% at the default alpha; its interval `ci`, its
   * `status` and `outcome`) fails too, each side keeps `keptNeeded` runs or more (`kept`: baseline,
   * current), and it is not an A/B look that can still add runs (`waitsForLastLook`). Not shown:
   * refused, `fail-not-shown`.
   */
  failCheck: z
    .object({
      shown: z.boolean(),
      level: z.number().gt(0).lt(1),
      ci: z.tuple([z.number(), z.number()]).nullable(),
      status: RowStatusSchema,
      outcome: MetricOutcomeSchema.nullable(),
      kept: z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()]),
      keptNeeded: z.number().int().positive(),
      waitsForLastLook: z.boolean(),
    })
    .optional(),
  sides: z.array(
    z.object({
      side: SideSchema,
      runs: z.array(z.number().int().positive()),
      of: z.number().int().nonnegative(),
      who: z.array(GpuNeighbourSchema.pick({ pid: true, evidence: true, maxSmPercent: true, maxMemoryBytes: true })).max(3),
    }),
  ),
});
export type SharedGpuReading = z.infer<typeof SharedGpuReadingSchema>;

/**
 * What a metric row's sentence says beyond the row's own fields, as data (renderers write it):
 * the interval's level, the runs left out (slowest, warm-up), and for an undecided or warned row
 * what held it back: runs of one side that reach the other's median (`overlap`), a side whose runs
 * spread far more than the other's (`noisy`), a baseline run better than the current median by the
 * floor (`baselineFaster`), a drift within a side's samples (`drift`).
 */
export const MetricReadingSchema = z.object({
  kind: z.literal('metric'),
  /**
   * The outcome that wrote the row's status; `only-in` with `side`: the metric is on one side;
   * `not-gated`: no threshold names it; `no-relative-change`: the baseline median is not positive.
   */
  outcome: MetricOutcomeSchema,
  side: SideSchema.optional(),
  /** The interval's confidence level (0.95). */
  level: z.number().optional(),
  /**
   * The interval a pass is judged on, at a stricter level than the row's `ci` (1 − alpha two-sided:
   * 95% at the default alpha), when the row was within its floor: its level and its ends as
   * relative changes (absent in older reports and on rows that were not).
   */
  passInterval: z.object({ level: z.number(), ci: z.tuple([z.number(), z.number()]) }).optional(),
  /** `too-few-kept`: the kept runs a side needs after runs were left out as stalled (a pass: 6 at 95%; a fail: 5 at 90%). */
  keptNeeded: z.number().int().positive().optional(),
  /** With `too-few-kept`: the verdict the kept runs were too few to show (a pass at the pass level, a fail at the interval's). */
  keptFor: z.enum(['pass', 'fail']).optional(),
  /** Runs left out of both sides: slowest (stalls), warm-up. */
  stalled: z.number().int().nonnegative().optional(),
  warmup: z.number().int().nonnegative().optional(),
  /** The least samples per side (too-few-samples). */
  minSamples: z.number().int().positive().optional(),
  /** Runs of the faster side as bad as the slower side's median (counted only when a third of its runs or more; else 0), and runs of the slower side as good as the faster's; each of how many kept. */
  overlap: z.object({ slow: SideSchema, fastReach: z.number().int().nonnegative(), fastKept: z.number().int().nonnegative(), slowReach: z.number().int().nonnegative(), slowKept: z.number().int().nonnegative() }).optional(),
  /** The slower side's run spread (robust sd over the median) and the faster side's. */
  /** `fasterHalf`: the spreads are of each side's faster half (the interval lay wholly past the floor). */
  noisy: z.object({ slow: SideSchema, slowSd: z.number(), fastSd: z.number(), fasterHalf: z.boolean().optional() }).optional(),
  /** The baseline's best kept run and how much better than the current median it is (a fraction). */
  baselineFaster: z.object({ fastest: z.number(), by: z.number() }).optional(),
  /** Warm-up runs dropped from a side: their values and the median of the runs kept. */
  warmupDropped: z.array(z.object({ side: SideSchema, values: z.array(z.number()), median: z.number() })).optional(),
  /** Sides whose first run looked like warm-up but was kept (dropping it would leave fewer than `minSamples`). */
  warmupKept: z.array(SideSchema).optional(),
  /** Each side's runs left out as its slowest. */
  stalls: z.array(StallSideSchema).optional(),
  /** A significant change, but below the floor. */
  smallChange: z.boolean().optional(),
  /** A monotonic drift within a side: its change over its samples (a fraction), the samples and the Mann-Kendall p. */
  drift: z.array(z.object({ side: SideSchema, change: z.number(), samples: z.number().int().nonnegative(), pValue: z.number() })).optional(),
  /** Another process shared the GPU during runs of a side: what the gate did about it (schema 5). */
  sharedGpu: SharedGpuReadingSchema.optional(),
  /**
   * The profiled step time's row (schema 8): the share of the baseline's profiled step its kernels
   * fill, and whether that made the step the host's (`hostBound`), whose floor is wider.
   */
  profiledStep: z.object({ kernelShare: z.number(), hostBound: z.boolean() }).optional(),
});

/**
 * A `kernel-time:` row's thresholds and why they are what they are: `set` by the user, the µs
 * `floor`, or a percent (`pct`) of the baseline's step (`of: step`, measured) or of its kernel time
 * per step (`of: kernels`), `baseMs` long. Without a comparison per step: why the row was not
 * compared (`refused`, `steps-unknown` with the sides, `no-kernels` with the sides lacking a capture).
 * Compared: each side's share of GPU time per step (`shares`, in %), whether neither side ran it
 * (`neitherRan`), and a growth read as a shift of work (`shift`): in a step that got faster
 * (`step`), or within its family, whose time per step changed only `familyDeltaNs` (`family`).
 */
export const TimeReadingSchema = z.object({
  kind: z.literal('time'),
  warn: z.number().optional(),
  basis: z.enum(['set', 'floor', 'relative']).optional(),
  pct: z.number().optional(),
  floorUs: z.number().optional(),
  of: z.enum(['step', 'kernels']).optional(),
  baseMs: z.number().optional(),
  notCompared: z.enum(['refused', 'steps-unknown', 'no-kernels']).optional(),
  sides: z.array(SideSchema).optional(),
  shares: z.tuple([z.number(), z.number()]).optional(),
  neitherRan: z.boolean().optional(),
  shift: z
    .discriminatedUnion('within', [
      z.object({ within: z.literal('step') }),
      z.object({ within: z.literal('family'), family: KernelFamilySchema, familyDeltaNs: z.number() }),
    ])
    .optional(),
});

/**
 * A share row's fail threshold (its warn threshold is the row's `threshold`), in pp, and, where it
 * moved that far but shares are context only (status info), why: time per step judges kernels
 * (`time`), the windows hold different kinds of step (`refused`), throughput improved and a share
 * grows when others shrink (`throughput-improved`), or (schema 7) as the fallback its own time did
 * not make the growth, the rest of the GPU time shrank (`rest-shrank`; `ownDelta`). What changed beside the share (`change`): the
 * family or kernel is `new` or `gone`, or a kernel `entered-top` or `left-top` the `top` kernels by
 * GPU time; a kernel whose family differs between the sides (`family`: each side's).
 */
export const ShareReadingSchema = z.object({
  kind: z.literal('share'),
  fail: z.number(),
  context: z.enum(['time', 'refused', 'throughput-improved', 'rest-shrank']).optional(),
  /** As the fallback (no steps on a side), the share change in pp its own GPU time alone made (schema 7). */
  ownDelta: z.number().optional(),
  change: z.enum(['new', 'gone', 'entered-top', 'left-top']).optional(),
  top: z.number().int().positive().optional(),
  family: z.object({ baseline: KernelFamilySchema, current: KernelFamilySchema }).optional(),
});
export type ShareReading = z.infer<typeof ShareReadingSchema>;

/**
 * A finding row's change: `new` since the baseline, `resolved`, `present` on both sides,
 * `explained` on one side by another finding (`explainedIn`: that side, where it stepped back as a
 * secondary), or `unseen` (the baseline has no kernel capture to show it: judged alone); whether
 * fail-on lists it, and whether it fails at fail-on-severity (`failOnSeverity`, the least that fails).
 */
export const FindingReadingSchema = z.object({
  kind: z.literal('finding'),
  change: z.enum(['new', 'resolved', 'present', 'explained', 'unseen']),
  explainedIn: SideSchema.optional(),
  /** The severity of its strongest counted hit in the current run (absent when resolved). */
  severity: SeveritySchema.optional(),
  inFailOn: z.boolean(),
  fails: z.boolean(),
  failOnSeverity: z.enum(['error', 'warning']),
});

export const RowReadingSchema = z.discriminatedUnion('kind', [MetricReadingSchema, TimeReadingSchema, ShareReadingSchema, FindingReadingSchema]);
export type RowReading = z.infer<typeof RowReadingSchema>;
export type MetricReading = z.infer<typeof MetricReadingSchema>;
export type TimeReading = z.infer<typeof TimeReadingSchema>;
export type FindingReading = z.infer<typeof FindingReadingSchema>;

export const ComparisonRowSchema = z.object({
  /** `decode_tok_s`, `family:gemv`, `kernel:<name>`, `finding:re-prefill` … */
  metric: z.string(),
  /** `kernel-time`: GPU time per decode step of a family or kernel, gated by a `kernel-time:` threshold (schema 2). */
  kind: z.enum(['metric', 'family-share', 'kernel-share', 'kernel-time', 'finding']),
  unit: z.string(),
  direction: z.enum(['higher', 'lower']).optional(),
  baseline: z.number().nullable(),
  current: z.number().nullable(),
  /** Relative change for metrics (0.05 = +5%), percentage points for shares. */
  delta: z.number().nullable(),
  /** Confidence interval of the delta, same unit as delta. */
  ci: z.tuple([z.number(), z.number()]).nullable(),
  threshold: z.number().nullable(),
  pValue: z.number().nullable().optional(),
  samples: z.tuple([z.number().int(), z.number().int()]).optional(),
  /** Samples of the metric each side left out of those counts (unreadable, warm-up, stalled runs); metric rows only, absent in older reports. */
  leftOut: z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()]).optional(),
  status: RowStatusSchema,
  /** The row's note in words, as reports written before `reading` held it stored it (renderers write it from `reading` now: src/report/row-lines.ts rowNote). */
  note: z.string().optional(),
  /**
   * A gated metric its runs could not decide (status `insufficient-data`): why, each side's
   * run-to-run noise (robust sd over the median, 0.01 = ±1%), the largest regression its interval
   * still allows (worse-positive, 0.092 = 9.2% worse; null without an interval), the runs per side
   * that would decide it at that noise (null when no count would), whether this A/B adds runs
   * itself, and whether a quieter runner is the way (more runs than a job takes). Metric rows only;
   * absent in older reports.
   */
  insufficient: z
    .object({
      why: z.enum(['interval-reaches-floor', 'interval-reaches-inside-floor', 'too-few-kept', 'baseline-ran-faster', 'noisy-side', 'not-significant', 'sides-overlap', 'too-few-samples', 'shared-gpu']),
      noise: z.tuple([z.number().nonnegative(), z.number().nonnegative()]),
      couldHide: z.number().nullable(),
      runsPerSide: z.number().int().positive().nullable(),
      addsRuns: z.boolean(),
      quieterRunner: z.boolean(),
    })
    .optional(),
  /** What the row is about, for rows of a family, kernel, finding or communication (absent on metric rows and in older reports). */
  subject: RowSubjectSchema.optional(),
  /** What the row's sentence needs beyond the fields above (schema 4; renderers write it). */
  reading: RowReadingSchema.optional(),
});
export type ComparisonRow = z.infer<typeof ComparisonRowSchema>;

const SUBJECT_PREFIXES: readonly (readonly [string, RowSubject['type']])[] = [
  ['family:', 'family'],
  ['kernel:', 'kernel'],
  ['finding:', 'finding'],
  ['communication:', 'communication'],
];

/** The subject a row key names (`family:gemv`, `kernel:<name>`, `finding:<id>`, `communication:exposed`; a `kernel-time:` key without its prefix). */
export function keySubject(key: string): RowSubject | undefined {
  for (const [prefix, type] of SUBJECT_PREFIXES) if (key.startsWith(prefix)) return { type, id: key.slice(prefix.length) };
  return undefined;
}

/** A row's subject: as the comparison wrote it, or for a report written before, as its key names it. */
export function rowSubject(row: Pick<ComparisonRow, 'metric' | 'kind' | 'subject'>): RowSubject | undefined {
  if (row.subject) return row.subject;
  if (row.kind === 'metric') return undefined;
  return keySubject(row.kind === 'kernel-time' ? row.metric.slice('kernel-time:'.length) : row.metric);
}

export const KernelChangeSchema = z.object({
  name: z.string(),
  family: KernelFamilySchema,
  change: z.enum(['added', 'removed', 'increased', 'decreased']),
  baselineNs: z.number(),
  currentNs: z.number(),
  deltaNs: z.number(),
});
export type KernelChange = z.infer<typeof KernelChangeSchema>;

/** What counts a capture's decode steps (src/diagnose/step-count.ts reads the evidence). */
export const STEP_BASES = ['workload', 'max-output-tokens', 'profiler-steps', 'decode-ranges', 'graph-replays', 'once-per-step-kernel'] as const;
export const StepBasisSchema = z.enum(STEP_BASES);
export type StepBasis = z.infer<typeof StepBasisSchema>;

/** One side's decode steps in its capture window, and what says so. */
export const StepCountSchema = z.object({
  /** Steps per device in the window; null when nothing in the capture counts them. */
  steps: z.number().positive().nullable(),
  basis: StepBasisSchema.nullable(),
  /** The evidence in words, with the other signals that agree or differ, or why there is none. */
  text: z.string(),
  /** Devices the kernel time is spread over: times are per step per device. */
  devices: z.number().int().positive(),
  /** Tokens generated per step (the batch), where the workload says it. */
  tokensPerStep: z.number().positive().optional(),
});
export type StepCount = z.infer<typeof StepCountSchema>;

/** GPU time of one family or kernel per step (per launch when unit is `launch`; per device over the whole window when `window`), each side, in ns. */
export const StepTimeSchema = z.object({
  baselineNs: z.number().nonnegative(),
  currentNs: z.number().nonnegative(),
  deltaNs: z.number(),
});

export const PerStepKernelSchema = StepTimeSchema.extend({
  name: z.string(),
  family: KernelFamilySchema,
  /** Launches per step (over the whole window when unit is `launch`; per device over it when `window`), each side. */
  baselineLaunches: z.number().nonnegative(),
  currentLaunches: z.number().nonnegative(),
  /** The CPU op chain that launched it, where the trace links it (the side that ran it, the current first). */
  launchedBy: z.string().optional(),
  /** The workload's Python line that launched it: `file.py:123 (function)`. */
  site: z.string().optional(),
});
export type PerStepKernel = z.infer<typeof PerStepKernelSchema>;

/**
 * The measured change of time per step (or per token), in ns: from the workload's own numbers, or,
 * where neither side has them, from the profiled window's own steps.
 */
export const MeasuredStepSchema = z.object({
  /**
   * `tpot_ms` / `itl_ms` medians; or `decode_tok_s` medians with the tokens per step
   * (`decode_tok_s+batch`), or per token without them; or (schema 8) the medians of the profiled
   * window's step ranges (`profiler_step_ms`: ProfilerStep#N or a step-marking range, as the GPU saw
   * them), when no side's workload gave a step time: slower than the unprofiled step by the
   * profiler's own cost, which both sides pay.
   */
  basis: z.enum(['tpot_ms', 'itl_ms', 'decode_tok_s+batch', 'decode_tok_s', 'profiler_step_ms']),
  per: z.enum(['step', 'token']),
  baselineNs: z.number().positive(),
  currentNs: z.number().positive(),
  deltaNs: z.number(),
});
export type MeasuredStep = z.infer<typeof MeasuredStepSchema>;

/**
 * Why a comparison per step was refused: the two windows do not hold the same kind of step, so
 * dividing each side's kernel time by its steps would compare different things. Kernels are then
 * compared per launch (`unit: launch`) and nothing fails on them. Renderers write the words.
 * - `tokens-per-step`: the sides state different tokens per step (the batch), e.g. prompts packed
 *   into fewer forwards; `baseline`/`current` are the tokens per step.
 * - `kernel-time-exceeds-step`: a side's kernel time per step per device is more than its measured
 *   step time allows (`side`; `baseline`/`current` there are that side's kernel time per step and
 *   its measured step time, in ns): the window holds more work than its count says, e.g. an nsys
 *   trace of CUDA graphs at graph level, whose count sees only the launches outside the graphs.
 * - `step-bases-differ`: the sides count steps from different evidence and their kernel time per
 *   step differs by more than a code change of one workload moves it (`baseline`/`current`: ns per step).
 * - `step-counts-differ`: tokens per step are not stated on both sides and the step counts differ by
 *   more than the same work's windows do (`baseline`/`current`: steps per device), e.g. the same
 *   requests packed into fewer, larger forwards (86 → 10).
 * `fix`: what makes the capture countable: `cuda-graph-trace-node` (nsys `--cuda-graph-trace=node`).
 * `window`: each side's total kernel time per device over its whole window, in ns, where comparing
 * the windows is sound (then `unit` is `window`).
 */
export const StepRefusalSchema = z.object({
  cause: z.enum(['tokens-per-step', 'kernel-time-exceeds-step', 'step-bases-differ', 'step-counts-differ']),
  side: z.enum(['baseline', 'current']).optional(),
  baseline: z.number(),
  current: z.number(),
  fix: z.enum(['cuda-graph-trace-node']).optional(),
  window: z.object({ baselineNs: z.number().nonnegative(), currentNs: z.number().nonnegative() }).optional(),
});
export type StepRefusal = z.infer<typeof StepRefusalSchema>;

/**
 * What limits the reading of the time per step (renderers write the words): times are per step per
 * device (`per-device`); steps unknown on `sides`, so kernels are compared per launch
 * (`steps-unknown`); the measured change is per token, the tokens per step being unknown on a side
 * (`per-token`); no measured step time on both sides (`no-measured-step`).
 */
export const PerStepNoteSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('per-device') }),
  z.object({ kind: z.literal('steps-unknown'), sides: z.array(SideSchema) }),
  z.object({ kind: z.literal('per-token') }),
  z.object({ kind: z.literal('no-measured-step') }),
]);
export type PerStepNote = z.infer<typeof PerStepNoteSchema>;

/**
 * Where the time went, per decode step: GPU time per step by family and kernel on each side and the
 * change, set against the measured change of step time. Kernel time that does not add up to the
 * measured change is host or idle time. When either side's steps are unknown, `unit` is `launch`:
 * time per launch of each kernel, no families and no share explained. When the comparison per step
 * was refused because the same work ran in far fewer steps, `unit` is `window` where comparing the
 * whole windows is sound: each kernel's time and launches per device over the whole window.
 */
export const PerStepSchema = z.object({
  unit: z.enum(['step', 'launch', 'window']),
  baseline: StepCountSchema,
  current: StepCountSchema,
  /** Per step, every family either side ran, largest change first (empty per launch). */
  families: z.array(StepTimeSchema.extend({ family: KernelFamilySchema })),
  /** The kernels with the largest changes, largest first (a bounded number). */
  kernels: z.array(PerStepKernelSchema),
  /** Σ of the kernel time change per step; null per launch. */
  kernelDeltaNs: z.number().nullable(),
  measured: MeasuredStepSchema.nullable(),
  /** kernelDeltaNs over the measured change per step; null when either is unknown or the measured change is 0. */
  explainedShare: z.number().nullable(),
  /**
   * No change in time per step: the measured change is not significant (its row neither fails nor
   * improves, and its interval holds 0) and kernel time per step moved by no more than that interval
   * allows. Renderers then say so instead of naming a kernel. Absent in older reports.
   */
  noChange: z.boolean().optional(),
  /** What limits the reading, as data (a string only in older reports, which stored the words). */
  notes: z.array(z.union([PerStepNoteSchema, z.string()])).default([]),
  /** Present when the windows hold different kinds of step: the comparison per step was refused (then `unit` is `launch`, or `window`). */
  refused: StepRefusalSchema.optional(),
});
export type PerStep = z.infer<typeof PerStepSchema>;

/** An environment key whose values differ, as each side's capture spelled it. */
export const EnvironmentMismatchSchema = z.object({ key: z.string(), baseline: z.string(), current: z.string() });

/** One side's GPU sampling as the throttling check read it: its throttled share (null: unknown), mean SM clock, and whether it was sampled at all. */
export const ThrottleSideSchema = z.object({ sampled: z.boolean(), share: z.number().nullable(), clockMhz: z.number().nullable() });

/**
 * What the throttling check saw: `fault`, a side (`side`) throttled for thermal or hardware
 * protection (`reasons`); `power`, the power regime (`reasons`) on either side, with each side's
 * sampling, and what differs (`differs`: a side's share unknown or not sampled, the throttled
 * shares `points` apart past `maxPoints`, the clocks `gap` apart past `maxGap`). `sameJob`: an A/B
 * in one job, where both sides meet the regime alike.
 */
export const ThrottleReadingSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('fault'), side: SideSchema, reasons: z.array(z.string()) }),
  z.object({
    type: z.literal('power'),
    reasons: z.array(z.string()),
    baseline: ThrottleSideSchema,
    current: ThrottleSideSchema,
    sameJob: z.boolean(),
    differs: z.array(
      z.discriminatedUnion('what', [
        z.object({ what: z.literal('share-unknown'), side: SideSchema, sampled: z.boolean() }),
        z.object({ what: z.literal('share-gap'), points: z.number(), maxPoints: z.number() }),
        z.object({ what: z.literal('clock-gap'), gap: z.number(), maxGap: z.number() }),
      ]),
    ),
    /** The limits the sides were found alike within (a clock limit only where both clocks are known). */
    alike: z.object({ maxPoints: z.number(), maxGap: z.number().optional() }).optional(),
  }),
]);
export type ThrottleReading = z.infer<typeof ThrottleReadingSchema>;


/**
 * What the comparison says beside its rows, as data (renderers write the lines, in this order):
 * environment keys that differ but were allowed; the power regime the sides were compared under;
 * a throttle allowed by allow-throttled; runs left out as outliers (metrics that left out the same
 * runs together); a side without kernel capture; the baseline's gated metrics missing on a side.
 * Notes with a home of their own are rendered from it: the noise between jobs (`betweenJobs`), a
 * refused comparison per step (`perStep.refused`), a metric on one side (its row).
 */
export const ComparisonNoteSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('environment-allowed'), mismatches: z.array(EnvironmentMismatchSchema) }),
  z.object({ kind: z.literal('throttling'), reading: ThrottleReadingSchema, allowed: z.boolean() }),
  z.object({ kind: z.literal('left-out'), metrics: z.array(z.string()), sides: z.array(StallSideSchema) }),
  z.object({ kind: z.literal('no-kernel-capture'), side: SideSchema }),
  z.object({ kind: z.literal('no-throughput') }),
]);
export type ComparisonNote = z.infer<typeof ComparisonNoteSchema>;

/**
 * How kernels were gated: by `time` per step, by `share` (no steps on a side), or not at all:
 * shares as context with time per step `refused`, or in a step whose throughput improved
 * (`throughputImproved`, shares only then).
 */
export const KernelGateSchema = z.object({ mode: z.enum(['time', 'fallback', 'refused']), throughputImproved: z.boolean() });

/** Where a baseline comes from, as this version chooses it: a file given, the default branch's artifact, or the base build in the same job. A stored report's origin is read as text (another version's may differ). */
export const BASELINE_ORIGINS = ['file', 'artifact', 'a/b'] as const;
export type BaselineOrigin = (typeof BASELINE_ORIGINS)[number];

export const ComparisonSchema = z.object({
  baseline: z.object({
    origin: z.string(),
    path: z.string().optional(),
    generatedAt: z.string().optional(),
    reason: z.string(),
  }),
  /** The environment keys whose values differ, each side's value (a string `key: a → b` only in older reports). */
  environmentMismatch: z.array(z.union([EnvironmentMismatchSchema, z.string()])).default([]),
  rows: z.array(ComparisonRowSchema),
  kernelChanges: z.array(KernelChangeSchema).default([]),
  newFindings: z.array(z.string()).default([]),
  resolvedFindings: z.array(z.string()).default([]),
  /** What the comparison says beside its rows, as data (schema 4). */
  notes: z.array(ComparisonNoteSchema).default([]),
  /** How kernels were gated (absent without kernels on both sides). */
  kernelGate: KernelGateSchema.optional(),
  /** Gated metrics that more runs could decide (the sides overlap, or too few or not significant samples). */
  undecided: z.array(z.string()).default([]),
  /** An adaptive A/B run: which look this comparison is and the alpha it tested at. */
  look: z.object({ index: z.number().int().positive(), of: z.number().int().positive(), final: z.boolean().optional(), alpha: z.number() }).optional(),
  /** The noise between jobs estimated from the default branch's recent reports (artifact baselines). */
  betweenJobs: z
    .object({
      reports: z.number().int().nonnegative(),
      /** Per metric: the robust sd of the per-job medians, as a fraction (0.018 = ±1.8%), and the floor used. */
      metrics: z.array(z.object({ metric: z.string(), spread: z.number().nonnegative(), floor: z.number().nonnegative() })),
    })
    .optional(),
  /** GPU time per decode step by family and kernel, against the measured change (schema 2). */
  perStep: PerStepSchema.optional(),
  /** The baseline's samples of each compared metric, in run order (the current's are in metrics). */
  baselineSamples: z.record(z.string(), z.array(z.number())).optional(),
});
export type Comparison = z.infer<typeof ComparisonSchema>;

/**
 * A kernel's Nsight Compute deep dive matched to the report's kernels when the report was written
 * (tools spell a kernel's name differently; src/diagnose/ncu-metrics.ts deepDiveMatches).
 */
export const DeepDiveMatchSchema = z.object({
  /** The kernel as the kernels table names it where a timing capture has it, else as ncu names it. */
  kernel: z.string(),
  /** The launch the numbers come from, by its index in `deepDive`: of the kernel's profiled launches, the one of median duration. */
  result: z.number().int().nonnegative(),
  launches: z.number().int().positive(),
  /** The ids of the findings about this kernel (dominant-kernel left out: the kernel's row says as much). */
  findings: z.array(z.string()),
});
export type DeepDiveMatch = z.infer<typeof DeepDiveMatchSchema>;

/**
 * One cause of the verdict, as data (renderers write its sentence):
 * - `row`: a comparison row whose status decided (fail, insufficient-data or warn), named by its key,
 *   with its kind, subject, status and the threshold it was judged against (the row's own);
 *   a finding row carries the severity of its strongest hit;
 * - `finding`: without a baseline, a finding that decided (fail: in fail-on at fail-on-severity;
 *   warn: any other counted finding), with its severity and whether fail-on lists it (absent where
 *   the report was migrated from before the policy was recorded);
 * - `invalid`: a check that keeps the comparison from standing (environment, throttling), with what it saw;
 * - `no-throughput`: the baseline's gated metrics are not on both sides;
 * - `nothing-gated`: nothing was compared on both sides (no metric, no time per step, no share
 *   threshold set), so a pass would say nothing; with why.
 */
export const DecisionCauseSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('row'),
    row: z.string(),
    rowKind: ComparisonRowSchema.shape.kind,
    status: RowStatusSchema,
    subject: RowSubjectSchema.optional(),
    threshold: z.number().nullable(),
    severity: SeveritySchema.optional(),
  }),
  z.object({ kind: z.literal('finding'), id: z.string(), severity: SeveritySchema, status: z.enum(['fail', 'warn']), inFailOn: z.boolean().optional() }),
  z.object({
    kind: z.literal('invalid'),
    check: z.enum(['environment', 'throttling']),
    /** environment: the keys that differ, each side's value (absent where migrated). */
    mismatches: z.array(EnvironmentMismatchSchema).optional(),
    /** throttling: what was seen (absent where migrated). */
    throttle: ThrottleReadingSchema.optional(),
  }),
  z.object({ kind: z.literal('no-throughput') }),
  z.object({
    kind: z.literal('nothing-gated'),
    /** Gated metrics present on one side only. */
    oneSided: z.array(z.string()).default([]),
    /** Why no time per step gated: thresholds set but none compared, none set, or no kernels on both sides. */
    time: z.enum(['thresholds-not-compared', 'no-threshold', 'no-kernels']).optional(),
  }),
]);
export type DecisionCause = z.infer<typeof DecisionCauseSchema>;

/** The policy a report was judged under: the gate's options and the rules' options as they were resolved. */
export const DecisionPolicySchema = z.object({
  failOn: z.array(z.string()),
  failOnSeverity: z.enum(['error', 'warning']),
  /** The verdicts that fail the job. */
  failVerdicts: z.array(VerdictSchema),
  /** Per-row thresholds as set: metric floors in percent, share growth in pp, time per step in ms. */
  thresholds: z.record(z.string(), z.number()),
  /** Share growth (pp) that warns and fails, where no threshold names the row. */
  shareThresholds: z.object({ warn: z.number(), fail: z.number() }),
  /** Options given to rules, by rule id (each rule's defaults apply to the rest). */
  ruleOptions: z.record(z.string(), z.record(z.string(), z.union([z.number(), z.string(), z.boolean()]))),
});
export type DecisionPolicy = z.infer<typeof DecisionPolicySchema>;

/**
 * The decision as data (schema 3): what decided `verdict` and under which policy. Acceptance, mode
 * report, the dashboard and the CLI read it rather than judging again. `policy` is null for a
 * report migrated from before it was recorded.
 */
export const DecisionSchema = z.object({
  /** Most decisive first; empty for a pass. */
  causes: z.array(DecisionCauseSchema),
  policy: DecisionPolicySchema.nullable(),
});
export type Decision = z.infer<typeof DecisionSchema>;

export const RunInfoSchema = z.object({
  /** A stable name for the workload (model × GPU × config); the dashboard groups by it. */
  workload: z.string().optional(),
  commit: z.string().optional(),
  ref: z.string().optional(),
  repository: z.string().optional(),
  runId: z.string().optional(),
  runUrl: z.string().optional(),
  timestamp: z.string().optional(),
});

export const ReportSchema = z.object({
  schemaVersion: z.literal(REPORT_SCHEMA_VERSION),
  tool: z.object({ name: z.literal('profile-gate'), version: z.string() }),
  generatedAt: z.string(),
  run: RunInfoSchema.default({}),
  environment: EnvironmentSchema,
  sources: z.array(SourceSchema),
  totalKernelNs: z.number().nonnegative(),
  kernels: z.array(KernelSchema),
  families: z.array(FamilyShareSchema),
  metrics: z.array(MetricSchema),
  utilization: UtilizationSchema.nullable(),
  timeline: TimelineSchema.nullable(),
  gpuTimeUtilPercent: z.number().nullable(),
  memops: z.array(MemopStatSchema),
  apiCalls: z.array(ApiStatSchema),
  cpuFunctions: z.array(CpuFunctionSchema),
  notices: z.array(NoticeSchema),
  /**
   * Inputs that were given (inside a folder) but left out of the analysis, each with why: an
   * unreadable or unrecognized capture. The verdict rests on the rest; its first line says so.
   */
  skippedInputs: z.array(SkippedInputSchema).default([]),
  deepDive: z.array(NcuResultSchema),
  /** Each profiled kernel once, matched to its row (older reports lack it; renderers then match on the fly). */
  deepDives: z.array(DeepDiveMatchSchema).optional(),
  findings: z.array(FindingSchema),
  verdict: VerdictSchema,
  /** What decided the verdict and the policy it was judged under (schema 3). */
  decision: DecisionSchema,
  comparison: ComparisonSchema.nullable(),
  /** Present when the verdict is `accepted`: the failing verdict a reviewer accepted, and by whom. */
  acceptance: AcceptanceSchema.optional(),
  /** Acceptances that were read but did not apply, and why (schema 4; renderers write the lines). */
  acceptanceNotes: z.array(AcceptanceNoteSchema).optional(),
  ranks: z.array(RankSchema).default([]),
  /**
   * The decode steps this run's capture covers, counted when the report was written (schema 2): what
   * reads the report later (a baseline, the dashboard) takes it from here, since a report read back
   * in part keeps only the first profiler steps.
   */
  stepCount: StepCountSchema.optional(),
  /**
   * Whether another process shared the GPU during each measured run, with what was seen (schema 5;
   * absent where no GPU recording listed the GPU's processes).
   */
  gpuSharing: GpuSharingSchema.optional(),
});
export type Report = z.infer<typeof ReportSchema>;
