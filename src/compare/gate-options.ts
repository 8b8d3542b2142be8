/**
 * Gate options: one spec for each option a user sets (GATE_OPTION_SPECS), one zod schema built from
 * them and the gate's own settings, with the defaults (references/steps/regression-gate.md says where
 * each comes from), and the parsers of their text, which name the option as the user spelt it.
 */
import { z } from 'zod';
import { FAMILY_IDS } from '../model/family-ids.js';
import { UsageError } from '../errors.js';
import { DESCRIPTIVE_METRICS, METRIC_CATALOG } from '../model/metrics.js';
import { ownValue } from '../model/own-key.js';
import { FINGERPRINT_KEYS } from './fingerprint.js';
import { kernelDisplayName, kernelDisplayNames } from '../classify/kernel-display-name.js';
import { FINDING_IDS, isFindingId, unknownFindingId, type FindingId } from '../model/finding-ids.js';
import { DEFAULT_FAIL_ON, DEFAULT_FAIL_ON_SEVERITY, DEFAULT_FAIL_VERDICTS, FAIL_ON_SEVERITIES, FAILABLE_VERDICTS, type FailableVerdict, type FailOnSeverity } from './verdict.js';
import { compareText } from '../model/text-order.js';

/**
 * Practical floors in percent: a significant change smaller than this never fails. 3% is twice the
 * largest systematic A/A shift measured on an H200 (a 1.5% drift across 14 runs; process offsets
 * were ≤ 0.13%), and keeps A/A false alarms under 1% for ~1% heavy-tailed, skewed and bimodal noise
 * in bench/gate-sim.mjs (1% floors gave 2-3%). TTFT, not measured, also carries prefill and
 * scheduling jitter, so it gets more room.
 */
export const DEFAULT_METRIC_FLOORS_PCT: Readonly<Record<string, number>> = {
  decode_tok_s: 3,
  prefill_tok_s: 3,
  tpot_ms: 3,
  ttft_ms: 5,
  // The profiled steps of two traces where the GPU fills the baseline's step (profiler-steps.ts;
  // a host-bound one takes HOST_BOUND_STEP_FLOOR_PCT): one process per side, so a side's steps do
  // not show the noise between processes. Ten captures of one H200 decode replayed from CUDA graphs,
  // each its own process (fixtures/h200-pairs: trace_aa/aa_1-6 in one session; gpu_bound/torch_b8_kineto,
  // spin_ab/base, dequant_ab/dq_bf16 with Python stacks, opt_ab/opt over three days) put their
  // median steps 2.867-2.904 ms apart: 1.3 % (0.2 % within the session). 5 % is nearly four times
  // that, and fails both processes made 6 % slower (trace_aa/slow6, +5.5-6.1 %).
  profiler_step_ms: 5,
};

/**
 * A profiled step is the GPU's where kernels fill at least this share of the baseline's (its kernel
 * time per step over its median step): 0.93 for the decode replayed from CUDA graphs. Launched
 * kernel by kernel, the same decode's kernels fill 0.12-0.20 of a step the host sets.
 */
export const GPU_BOUND_STEP_KERNEL_SHARE = 0.8;

/**
 * The floor (%) of the profiled step time where the baseline's step is the host's: its length is
 * the host's speed, which moves between processes far more than a GPU's. Four processes of the decode
 * launched kernel by kernel on an H200 (trace_aa/eager_1-3, opt_ab/graph_off) put their median steps
 * 13.27-21.57 ms apart: 1.63× (eight on a quieter H100 host, 10 %: fixtures/h100-eager-aa). A step
 * must double to fail, so a host-bound window's traces alone
 * catch only a change of that size (CUDA graphs undone: 5×); the workload's run lines catch less.
 */
export const HOST_BOUND_STEP_FLOOR_PCT = 100;

/**
 * Default growth of a family's or top kernel's GPU time per step that warns / fails, as a percent of
 * the baseline's step time (measured, else its kernel time per step), and never below an absolute
 * floor. A row that alone adds 3 % to the step costs what the 3 % throughput floor fails. Two
 * PyTorch-profiler captures of one H200 decode about half an hour apart (fixtures/h200-pairs: spin_ab/base and
 * dequant_ab/dq_bf16, the same batch-8 workload) moved at most +44.0 µs per step in a family
 * (decode GEMMs, 1.6 % of the 2.81 ms step) and +24.8 µs in a kernel (0.9 %): 3 % is about twice the
 * largest, as the metric floor is twice its A/A shift, and 2 % warns just past it. The floor: kernels
 * under 100 µs per step moved up to 3.4 µs there; 10 µs is about three times that, so a short step's
 * percentages do not flag timing jitter.
 */
export const DEFAULT_STEP_TIME_THRESHOLDS = { warnPct: 2, failPct: 3, floorUs: 10 } as const;

/** Metrics gated by default when both sides have them; any other metric is gated once it has a threshold. */
export const GATED_METRICS: readonly string[] = Object.keys(DEFAULT_METRIC_FLOORS_PCT);

const FAMILY_SET: ReadonlySet<string> = new Set(FAMILY_IDS);
const METRIC_NAMES = Object.keys(METRIC_CATALOG).filter((name) => !DESCRIPTIVE_METRICS.has(name));

/** The prefix of a threshold on GPU time per decode step: `kernel-time:family:copy`, `kernel-time:kernel:<name>`. */
export const KERNEL_TIME_PREFIX = 'kernel-time:';

/** Why a threshold key is not acceptable, or null when it is. */
export function thresholdKeyProblem(key: string): string | null {
  if (key.startsWith(KERNEL_TIME_PREFIX)) {
    const target = key.slice(KERNEL_TIME_PREFIX.length);
    if (!target.startsWith('family:') && !target.startsWith('kernel:')) return `expected ${KERNEL_TIME_PREFIX}family:<id> or ${KERNEL_TIME_PREFIX}kernel:<name>, got '${key}'`;
    return thresholdKeyProblem(target);
  }
  if (key.startsWith('family:')) {
    const family = key.slice('family:'.length);
    return FAMILY_SET.has(family) ? null : `unknown kernel family '${family}' (known: ${FAMILY_IDS.join(', ')})`;
  }
  if (key.startsWith('kernel:')) return key.length > 'kernel:'.length ? null : 'empty kernel name';
  if (DESCRIPTIVE_METRICS.has(key)) return `${key} describes the workload and is never gated`;
  return METRIC_NAMES.includes(key) ? null : `unknown metric '${key}' (known: ${METRIC_NAMES.join(', ')}, family:<id>, kernel:<name>, ${KERNEL_TIME_PREFIX}family:<id>, ${KERNEL_TIME_PREFIX}kernel:<name>)`;
}

/** One-sided test level of a regression. */
export const DEFAULT_ALPHA = 0.05;

/** The two-sided confidence level of every interval the gate reports: 1 − 2·alpha (90% at the default). */
export function ciLevel(alpha: number): number {
  return 1 - 2 * alpha;
}

/** The level the renderers show, and the intervals of medians use, so one level is read everywhere. */
export const CI_LEVEL = ciLevel(DEFAULT_ALPHA);

const FindingIdSchema = z.enum(FINDING_IDS, { error: (issue) => unknownFindingId(String(issue.input)) });

/**
 * One gate option a user sets (an action input, a flag of analyze and run): its value's schema, its
 * default, the one parser of its text (absent: the text is true or false) and how a value is written
 * as that text (the default in action.yml and in the flag's help). options/table.ts gives each its
 * input, flag and words; the gate's schema, the list of these options and their rows' defaults and
 * parsers all derive from here.
 */
export interface GateOptionSpec<V extends z.ZodType = z.ZodType> {
  readonly value: V;
  readonly default: z.output<V>;
  // Methods, so that a spec of any value is a GateOptionSpec (what the derivations below read).
  parse?(text: string, name: string): z.output<V>;
  write(value: z.output<V>): string;
}

function gateSpec<V extends z.ZodType>(spec: GateOptionSpec<V>): GateOptionSpec<V> {
  return spec;
}

/** What the gate does with runs another process shared the GPU with. */
export const SHARED_GPU_POLICIES = ['refuse', 'ignore'] as const;
export type SharedGpuPolicy = (typeof SHARED_GPU_POLICIES)[number];

const writeList = (items: readonly string[]): string => items.join(',');
const writeSwitch = (on: boolean): string => String(on);

/** Every gate option a user sets, in the order of the docs. */
export const GATE_OPTION_SPECS = {
  /**
   * Per-row thresholds. Metric names take a practical floor in percent (`decode_tok_s: 3`);
   * `family:<id>` and `kernel:<name>` take a share-growth fail threshold in percentage points;
   * `kernel-time:family:<id>` and `kernel-time:kernel:<name>` a growth of GPU time per decode step
   * that fails, in milliseconds (0.1 = 100 µs per step).
   */
  thresholds: gateSpec({
    value: z.record(z.string(), z.number().positive()).superRefine((thresholds, ctx) => {
      for (const key of Object.keys(thresholds)) {
        const problem = thresholdKeyProblem(key);
        if (problem) ctx.addIssue({ code: 'custom', message: problem, path: [key] });
      }
    }),
    default: {},
    parse: parseThresholds,
    // One a line: a kernel name may hold commas.
    write: (thresholds) =>
      Object.entries(thresholds)
        .map(([key, value]) => (key.startsWith(KERNEL_TIME_PREFIX) ? `${key}=+${value}ms` : `${key}=${value}`))
        .join('\n'),
  }),
  /** Finding ids that fail the gate when they appear (new since the baseline, or at all without one) at failOnSeverity or above. */
  failOn: gateSpec({ value: z.array(FindingIdSchema), default: [...DEFAULT_FAIL_ON], parse: parseFailOn, write: writeList }),
  /**
   * The least severity at which a finding in failOn fails: `error` (conclusive evidence) by default;
   * a warning (evidence there but not conclusive) then warns. `warning` fails on both.
   */
  failOnSeverity: gateSpec({
    value: z.enum(FAIL_ON_SEVERITIES, { error: `expected one of ${FAIL_ON_SEVERITIES.join(', ')}` }),
    default: DEFAULT_FAIL_ON_SEVERITY,
    parse: parseFailOnSeverity,
    write: (severity) => severity,
  }),
  /** The verdicts that fail the job (exit 1, the step failed); the others pass it. */
  failVerdicts: gateSpec({
    value: z.array(z.enum(FAILABLE_VERDICTS, { error: (issue) => `unknown verdict '${String(issue.input)}' (known: ${FAILABLE_VERDICTS.join(', ')})` })),
    default: [...DEFAULT_FAIL_VERDICTS],
    parse: parseFailVerdicts,
    write: (verdicts) => (verdicts.length ? writeList(verdicts) : 'none'),
  }),
  allowThrottled: gateSpec({ value: z.boolean(), default: false, write: writeSwitch }),
  /** true, or the fingerprint keys allowed to differ (e.g. ["driver"]). */
  allowEnvironmentMismatch: gateSpec({
    value: z.union([z.boolean(), z.array(z.string())]).superRefine((allow, ctx) => {
      if (typeof allow === 'boolean') return;
      allow.forEach((key, i) => {
        if (!(FINGERPRINT_KEYS as readonly string[]).includes(key)) {
          ctx.addIssue({ code: 'custom', message: `unknown environment key '${key}' (known: ${FINGERPRINT_KEYS.join(', ')})`, path: [i] });
        }
      });
    }),
    default: false,
    parse: parseEnvironmentMismatch,
    write: (allow) => (allow === true ? 'all' : allow === false ? '' : writeList(allow)),
  }),
  /**
   * A regression fails only when the sides do not overlap (within half the floor) and the slower
   * side is not noisy; otherwise it is undecided. Guards against two clock states a floor or more
   * apart, and a neighbour on one side.
   */
  overlapCheck: gateSpec({ value: z.boolean(), default: true, write: writeSwitch }),
  /**
   * Leave out the runs below a side's fast cluster (stalls), as many of each side, at most 40% of
   * the smaller side; a level both sides show stays (the overlap check handles it). With runs left
   * out the kept runs are compared by Yuen's trimmed t-test.
   */
  dropOutliers: gateSpec({ value: z.boolean(), default: true, write: writeSwitch }),
  /**
   * When the GPU sampler saw another process's work during measured runs: `refuse` (a gated metric
   * is decided on the runs it left alone when enough remain, else it is undecided; see
   * src/compare/shared-gpu.ts), or `ignore` (decided on every run, the sharing named).
   */
  sharedGpu: gateSpec({
    value: z.enum(SHARED_GPU_POLICIES, { error: `expected one of ${SHARED_GPU_POLICIES.join(', ')}` }),
    default: 'refuse',
    parse: parseSharedGpu,
    write: (policy) => policy,
  }),
};

type GateSpecs = typeof GATE_OPTION_SPECS;
/** The gate options a user sets, by their fields. */
export type GateOptionKey = keyof GateSpecs;
export const GATE_OPTION_KEYS = Object.keys(GATE_OPTION_SPECS) as GateOptionKey[];
/** A gate option's value. */
export type GateOptionValue<K extends GateOptionKey> = z.output<GateSpecs[K]['value']>;

/** A gate option's default as its text is written: action.yml's default, the flag's help, an empty input. */
export function gateOptionDefaultText(key: GateOptionKey): string {
  const spec: GateOptionSpec = GATE_OPTION_SPECS[key];
  return spec.write(spec.default);
}

/** The gate options a user sets, each its value's schema with its default (the type says what the specs build). */
const SET_BY_USER = Object.fromEntries(
  GATE_OPTION_KEYS.map((key) => {
    const spec: GateOptionSpec = GATE_OPTION_SPECS[key];
    return [key, spec.value.default(spec.default)];
  }),
) as { [K in GateOptionKey]: z.ZodDefault<GateSpecs[K]['value']> };

export const GateOptionsSchema = z
  .object({
    ...SET_BY_USER,
    /**
     * Growth of a family's or top kernel's GPU time per step that warns / fails (with steps on both
     * sides), in percent of the baseline's step, never below floorUs microseconds.
     */
    stepTimeThresholds: z
      .object({
        warnPct: z.number().positive().default(DEFAULT_STEP_TIME_THRESHOLDS.warnPct),
        failPct: z.number().positive().default(DEFAULT_STEP_TIME_THRESHOLDS.failPct),
        floorUs: z.number().nonnegative().default(DEFAULT_STEP_TIME_THRESHOLDS.floorUs),
      })
      .default({ ...DEFAULT_STEP_TIME_THRESHOLDS }),
    /** Growth of a family's or top kernel's share of GPU time, in percentage points, that warns / fails (the share rows: see shares.ts). */
    shareThresholds: z
      .object({ warn: z.number().positive().default(5), fail: z.number().positive().default(20) })
      .default({ warn: 5, fail: 20 }),
    /** Fewer samples than this on either side (after the warm-up rule) gives insufficient-data. */
    minSamples: z.number().int().min(2).default(3),
    /** One-sided test level for a regression, after the correction across the metrics of one run. */
    alpha: z.number().gt(0).lt(0.5).default(DEFAULT_ALPHA),
    correction: z.enum(['bh', 'holm']).default('bh'),
    /** Kernels compared one by one: the union of each side's top N by GPU time. */
    topN: z.number().int().positive().default(10),
    seed: z.number().int().default(1),
    bootstrapResamples: z.number().int().min(100).max(100_000).default(1000),
    /** Drop leading slow outliers (warm-up) from each side's samples. */
    dropWarmup: z.boolean().default(true),
    /**
     * This comparison is look `index` of `of` in an adaptive A/B run (more runs while undecided):
     * the test's alpha is spent over the looks (src/compare/sequential.ts). Absent: a single look.
     */
    look: z
      .object({
        index: z.number().int().positive(),
        of: z.number().int().positive(),
        /** No run will be added after this look: it tests at what the earlier looks left (sequential.ts). */
        final: z.boolean().optional(),
      })
      .refine((look) => look.index <= look.of, { message: 'look index must not exceed the number of looks' })
      .optional(),
    /** Trend within one side: Mann-Kendall level and the smallest change across the side (percent) worth a warning. */
    drift: z
      .object({ alpha: z.number().gt(0).lt(0.5).default(0.001), minChangePct: z.number().nonnegative().default(1) })
      .default({ alpha: 0.001, minChangePct: 1 }),
  })
  .strict();

export type GateOptions = z.infer<typeof GateOptionsSchema>;
export type GateOptionsInput = z.input<typeof GateOptionsSchema>;

/** Validated options with defaults filled; a bad option is a UsageError naming the option and the value. */
export function parseGateOptions(input: unknown = {}): GateOptions {
  const parsed = GateOptionsSchema.safeParse(input ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const path = issue.path.join('.');
  let value: unknown = input;
  for (const key of issue.path) value = value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key as PropertyKey] : undefined;
  const got = issue.code === 'custom' || value === undefined ? '' : ` (got ${JSON.stringify(value)})`;
  throw new UsageError(`gate option ${path || '(root)'}: ${issue.message}${got}`);
}

/** The practical floor of a metric as a fraction (0.03), or undefined when the metric is not gated. */
export function metricFloor(options: GateOptions, name: string): number | undefined {
  const pct = ownValue(options.thresholds, name) ?? ownValue(DEFAULT_METRIC_FLOORS_PCT, name);
  return pct === undefined ? undefined : pct / 100;
}

/**
 * The parsers of the gate options' text (a flag's value, an action input). Each takes the option's
 * name as the user spells it (`--fail-on`, `input 'fail-on'`), so its message names what to fix;
 * src/options/table.ts says which text goes to which parser.
 */

/**
 * Where a list of thresholds splits: at a newline, and at a comma that starts another threshold
 * (`family:`, `kernel:`, `kernel-time:` or a metric name and `=`). A comma inside a kernel name
 * (`rms_norm_kernel(c10::BFloat16 *, const c10::BFloat16 *, float)`) is followed by none of these,
 * so a full C++ name needs no quoting; one threshold per flag or per line is never split elsewhere.
 */
const THRESHOLD_SEPARATOR = /\n|,(?=\s*(?:kernel-time:|family:|kernel:|[A-Za-z_][A-Za-z0-9_]*\s*=))/;

/**
 * `decode_tok_s=3,ttft_ms=5%` (several texts: one per flag, or a list split at newlines and at the
 * commas that start another threshold) → { decode_tok_s: 3, ttft_ms: 5 }.
 */
export function parseThresholds(texts: string | readonly string[], name: string): Record<string, number> {
  const thresholds: Record<string, number> = Object.create(null) as Record<string, number>;
  for (const text of typeof texts === 'string' ? [texts] : texts) {
    for (const part of text.split(THRESHOLD_SEPARATOR)) {
      const item = part.trim();
      if (!item) continue;
      const eq = item.lastIndexOf('=');
      if (eq <= 0) throw new UsageError(`${name}: ${item}: expected METRIC=PCT, e.g. decode_tok_s=3`);
      const key = item.slice(0, eq).trim().replace(/\s+/g, ' ');
      if (key.startsWith(KERNEL_TIME_PREFIX)) {
        const problem = thresholdKeyProblem(key);
        if (problem) throw new UsageError(`${name}: ${item}: ${problem}`);
        setOnce(thresholds, key, parseStepTimeMs(`${name}: ${item}`, item.slice(eq + 1)), `${name}: ${item}`, ' ms');
        continue;
      }
      const value = item.slice(eq + 1).trim().replace(/%$/, '');
      const number = Number(value);
      // Plain decimals only: 1e308 or 0x10 would set a floor no change reaches, silently.
      if (!/^(?:\d+(?:\.\d*)?|\.\d+)$/.test(value) || !Number.isFinite(number) || number <= 0 || number > 1000) {
        throw new UsageError(`${name}: ${item}: '${item.slice(eq + 1)}' is not a positive number (a plain decimal up to 1000, e.g. 3)`);
      }
      const problem = thresholdKeyProblem(key);
      if (problem) throw new UsageError(`${name}: ${item}: ${problem}`);
      setOnce(thresholds, key, number, `${name}: ${item}`, '');
    }
  }
  return thresholds;
}

/** A threshold given twice must agree: with two values, the later would silently decide. */
function setOnce(thresholds: Record<string, number>, key: string, value: number, where: string, unit: string): void {
  const set = thresholds[key];
  if (set !== undefined && set !== value) throw new UsageError(`${where}: ${key} is already set to ${set}${unit}; give each threshold once`);
  thresholds[key] = value;
}

/** The kernel a threshold key names (`kernel:X`, `kernel-time:kernel:X`), or undefined for another key. */
function thresholdKernel(key: string): { prefix: string; name: string } | undefined {
  const prefix = key.startsWith(`${KERNEL_TIME_PREFIX}kernel:`) ? `${KERNEL_TIME_PREFIX}kernel:` : key.startsWith('kernel:') ? 'kernel:' : undefined;
  return prefix ? { prefix, name: key.slice(prefix.length) } : undefined;
}

const oneLine = (name: string): string => name.replace(/\s+/g, ' ').trim();

/** Edit distance of two short texts (the closest names of a threshold that names nothing). */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length]!;
}

/** Kernels looked at for the closest names: the distinct short names of both sides, at most this many. */
const CLOSEST_POOL = 2000;

/**
 * Kernel thresholds keyed by the kernels' full names, as the comparison looks them up. A threshold may
 * name a kernel by its full name (whitespace as it likes) or by the name the report shows (its short
 * name, e.g. `elementwise_kernel<direct_copy_kernel_cuda>`, or the longer one the report shows where
 * two kernels share it): each kernel of either side so named gets the threshold. One that names no
 * kernel of either side is a usage error listing the closest names: a threshold never gates nothing
 * silently. A threshold given by the full name wins over one given by a short name.
 */
export function resolveKernelThresholds(options: GateOptions, baselineKernels: readonly string[], currentKernels: readonly string[]): GateOptions {
  const keys = Object.keys(options.thresholds);
  if (!keys.some((key) => thresholdKernel(key))) return options;
  const names = [...new Set([...baselineKernels, ...currentKernels])];
  const byName = new Map<string, Set<string>>();
  const add = (shown: string, full: string) => {
    const set = byName.get(shown) ?? new Set<string>();
    set.add(full);
    byName.set(shown, set);
  };
  const displayed = kernelDisplayNames(names);
  for (const full of names) {
    add(full, full);
    add(oneLine(full), full);
    add(kernelDisplayName(full), full);
    add(displayed.get(full)!, full);
  }
  const resolved: Record<string, number> = Object.create(null) as Record<string, number>;
  const byShortName: Array<{ prefix: string; kernels: Set<string>; value: number }> = [];
  for (const key of keys) {
    const value = options.thresholds[key]!;
    const target = thresholdKernel(key);
    if (!target) {
      resolved[key] = value;
      continue;
    }
    const matches = byName.get(oneLine(target.name));
    if (!matches) throw new UsageError(`threshold ${key}: ${noKernelNamed(target.name, names)}`);
    const exact = [...matches].filter((full) => oneLine(full) === oneLine(target.name));
    if (exact.length) for (const full of exact) resolved[`${target.prefix}${full}`] = value;
    else byShortName.push({ prefix: target.prefix, kernels: matches, value });
  }
  for (const { prefix, kernels, value } of byShortName) {
    for (const full of kernels) if (!Object.hasOwn(resolved, `${prefix}${full}`)) resolved[`${prefix}${full}`] = value;
  }
  return { ...options, thresholds: resolved };
}

/** Why a threshold names nothing, with the closest names either side ran. */
function noKernelNamed(name: string, names: readonly string[]): string {
  // The name as written, against the short names either side ran (what the report shows).
  const wanted = oneLine(name).toLowerCase().slice(0, 120);
  const pool = [...new Set(names.map((n) => kernelDisplayName(n)))].slice(0, CLOSEST_POOL);
  const closest = pool
    .map((shown) => ({ shown, d: distance(wanted, shown.toLowerCase().slice(0, 120)) }))
    .sort((a, b) => a.d - b.d || compareText(a.shown, b.shown))
    .slice(0, 3)
    .map((c) => c.shown);
  const clip = (text: string) => (text.length > 120 ? `${text.slice(0, 119)}…` : text);
  const hint = closest.length ? `; closest: ${closest.map(clip).join(', ')}` : '; neither side ran any kernel';
  return `no kernel of either side is named ${JSON.stringify(clip(oneLine(name)))} (by its full name or the name the report shows)${hint}`;
}

/** Units of a time per step, as the number of them in a millisecond. */
const TIME_UNITS_PER_MS: Readonly<Record<string, number>> = { ms: 1, us: 1e3, 'µs': 1e3, 'μs': 1e3, ns: 1e6 };

/** A growth of time per step as written after `kernel-time:…=`: `+0.1ms`, `+100us`, `250µs`, `50000ns` → milliseconds. */
function parseStepTimeMs(where: string, value: string): number {
  const match = /^\s*\+?\s*(\d+(?:\.\d*)?|\.\d+)\s*(ms|us|µs|μs|ns)\s*$/i.exec(value);
  const ms = match ? Number(match[1]) / TIME_UNITS_PER_MS[match[2]!.toLowerCase()]! : NaN;
  if (!match || !Number.isFinite(ms) || ms <= 0) throw new UsageError(`${where}: '${value}' is not a positive time per step; expected a number with ms, us or ns, e.g. +0.1ms or +100us`);
  return ms;
}

/** `re-prefill,unfused-attention` → the ids; `none` or an empty value → []. An unknown id is refused with the known list. */
export function parseFailOn(text: string, name: string): FindingId[] {
  const trimmed = text.trim();
  if (trimmed === '' || trimmed === 'none') return [];
  const ids = trimmed.split(/[\n,]/).map((id) => id.trim()).filter(Boolean);
  for (const id of ids) {
    if (!isFindingId(id)) throw new UsageError(`${name}: ${unknownFindingId(id)}`);
  }
  return [...new Set(ids as FindingId[])];
}

/** `warning` or `error`, in any case. */
export function parseFailOnSeverity(text: string, name: string): FailOnSeverity {
  const severity = text.trim().toLowerCase();
  if (!(FAIL_ON_SEVERITIES as readonly string[]).includes(severity)) throw new UsageError(`${name}: expected one of ${FAIL_ON_SEVERITIES.join(', ')}, got ${JSON.stringify(text)}`);
  return severity as FailOnSeverity;
}

export function parseSharedGpu(text: string, name: string): SharedGpuPolicy {
  const policy = text.trim().toLowerCase();
  if (!(SHARED_GPU_POLICIES as readonly string[]).includes(policy)) throw new UsageError(`${name}: expected one of ${SHARED_GPU_POLICIES.join(', ')}, got ${JSON.stringify(text)}`);
  return policy as SharedGpuPolicy;
}

/** `fail,invalid,insufficient-data` → the verdicts that fail the job; `none` → [] (nothing fails it). */
export function parseFailVerdicts(text: string, name: string): FailableVerdict[] {
  const trimmed = text.trim();
  if (trimmed === 'none') return [];
  const verdicts = trimmed.split(/[\n,]/).map((v) => v.trim()).filter(Boolean);
  if (!verdicts.length) throw new UsageError(`${name}: expected a list of ${FAILABLE_VERDICTS.join(', ')} (or none), got ${JSON.stringify(text)}`);
  for (const verdict of verdicts) {
    if (!(FAILABLE_VERDICTS as readonly string[]).includes(verdict)) throw new UsageError(`${name}: unknown verdict '${verdict}' (known: ${FAILABLE_VERDICTS.join(', ')}; none for no verdict)`);
  }
  return [...new Set(verdicts as FailableVerdict[])];
}

/** `driver,cuda` → the fingerprint keys allowed to differ; `all` → true; empty → false (none may differ). */
export function parseEnvironmentMismatch(text: string, name: string): boolean | string[] {
  const keys = [...new Set(text.split(/[\n,]/).map((key) => key.trim()).filter(Boolean))];
  if (keys.includes('all')) return true;
  if (!keys.length) return false;
  for (const key of keys) {
    if (!(FINGERPRINT_KEYS as readonly string[]).includes(key)) throw new UsageError(`${name}: unknown environment key '${key}' (known: ${FINGERPRINT_KEYS.join(', ')}, or all)`);
  }
  return keys;
}

/** The fail-on default as written in flags, inputs and help texts. */
export const DEFAULT_FAIL_ON_TEXT = gateOptionDefaultText('failOn');
/** The fail-verdicts default as written in flags, inputs and help texts. */
export const DEFAULT_FAIL_VERDICTS_TEXT = gateOptionDefaultText('failVerdicts');
