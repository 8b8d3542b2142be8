/**
 * Gate options: one zod schema with the defaults (references/steps/regression-gate.md says where each
 * comes from), and parsers for the CLI's `--threshold METRIC=PCT` and `--fail-on a,b`.
 */
import { z } from 'zod';
import { FAMILY_IDS } from '../classify/family-ids.js';
import { UsageError } from '../errors.js';
import { DESCRIPTIVE_METRICS, METRIC_CATALOG } from '../model/metrics.js';
import { FINGERPRINT_KEYS } from './fingerprint.js';
import { DEFAULT_FAIL_ON } from './verdict.js';

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
};

/** Metrics gated by default when both sides have them; any other metric is gated once it has a threshold. */
export const GATED_METRICS: readonly string[] = Object.keys(DEFAULT_METRIC_FLOORS_PCT);

const FAMILY_SET: ReadonlySet<string> = new Set(FAMILY_IDS);
const METRIC_NAMES = Object.keys(METRIC_CATALOG).filter((name) => !DESCRIPTIVE_METRICS.has(name));

/** Why a threshold key is not acceptable, or null when it is. */
export function thresholdKeyProblem(key: string): string | null {
  if (key.startsWith('family:')) {
    const family = key.slice('family:'.length);
    return FAMILY_SET.has(family) ? null : `unknown kernel family '${family}' (known: ${FAMILY_IDS.join(', ')})`;
  }
  if (key.startsWith('kernel:')) return key.length > 'kernel:'.length ? null : 'empty kernel name';
  if (DESCRIPTIVE_METRICS.has(key)) return `${key} describes the workload and is never gated`;
  return METRIC_NAMES.includes(key) ? null : `unknown metric '${key}' (known: ${METRIC_NAMES.join(', ')}, family:<id>, kernel:<name>)`;
}

/** One-sided test level of a regression. */
export const DEFAULT_ALPHA = 0.05;

/** The two-sided confidence level of every interval the gate reports: 1 − 2·alpha (90% at the default). */
export function ciLevel(alpha: number): number {
  return 1 - 2 * alpha;
}

/** The level the renderers show, and the intervals of medians use, so one level is read everywhere. */
export const CI_LEVEL = ciLevel(DEFAULT_ALPHA);

const FindingIdSchema = z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'a finding id is lower-case words joined by hyphens');

export const GateOptionsSchema = z
  .object({
    /** Finding ids that fail the gate when they appear (new since the baseline, or at all without one). */
    failOn: z.array(FindingIdSchema).default([...DEFAULT_FAIL_ON]),
    /**
     * Per-row thresholds. Metric names take a practical floor in percent (`decode_tok_s: 3`);
     * `family:<id>` and `kernel:<name>` take a share-growth fail threshold in percentage points.
     */
    thresholds: z
      .record(z.string(), z.number().positive())
      .default({})
      .superRefine((thresholds, ctx) => {
        for (const key of Object.keys(thresholds)) {
          const problem = thresholdKeyProblem(key);
          if (problem) ctx.addIssue({ code: 'custom', message: problem, path: [key] });
        }
      }),
    /** Growth of a family's or top kernel's share of GPU time, in percentage points, that warns / fails. */
    shareThresholds: z
      .object({ warn: z.number().positive().default(5), fail: z.number().positive().default(20) })
      .default({ warn: 5, fail: 20 }),
    /** Fewer samples than this on either side (after the warm-up rule) gives insufficient-data. */
    minSamples: z.number().int().min(2).default(3),
    /** One-sided test level for a regression, after the correction across the metrics of one run. */
    alpha: z.number().gt(0).lt(0.5).default(DEFAULT_ALPHA),
    correction: z.enum(['bh', 'holm']).default('bh'),
    allowThrottled: z.boolean().default(false),
    /** true, or the fingerprint keys allowed to differ (e.g. ["driver"]). */
    allowEnvironmentMismatch: z
      .union([z.boolean(), z.array(z.string())])
      .default(false)
      .superRefine((allow, ctx) => {
        if (typeof allow === 'boolean') return;
        allow.forEach((key, i) => {
          if (!(FINGERPRINT_KEYS as readonly string[]).includes(key)) {
            ctx.addIssue({ code: 'custom', message: `unknown environment key '${key}' (known: ${FINGERPRINT_KEYS.join(', ')})`, path: [i] });
          }
        });
      }),
    /** Kernels compared one by one: the union of each side's top N by GPU time. */
    topN: z.number().int().positive().default(10),
    seed: z.number().int().default(1),
    bootstrapResamples: z.number().int().min(100).max(100_000).default(1000),
    /** Drop leading slow outliers (warm-up) from each side's samples. */
    dropWarmup: z.boolean().default(true),
    /**
     * Leave out a side's lone slow runs far from its cluster (stalls), judged against the side's own
     * spread; two or more slow runs together are a mode and stay (the overlap check handles them).
     */
    dropOutliers: z.boolean().default(true),
    /**
     * A regression fails only when neither side's own runs reach the other side's median (within half
     * the floor); otherwise it warns. Guards against two clock states a floor or more apart.
     */
    overlapCheck: z.boolean().default(true),
    /**
     * This comparison is look `index` of `of` in an adaptive A/B run (more runs while undecided):
     * the test's alpha is spent over the looks (src/compare/sequential.ts). Absent: a single look.
     */
    look: z
      .object({ index: z.number().int().positive(), of: z.number().int().positive() })
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
  const pct = options.thresholds[name] ?? DEFAULT_METRIC_FLOORS_PCT[name];
  return pct === undefined ? undefined : pct / 100;
}

/** `--threshold decode_tok_s=3 --threshold ttft_ms=5%` (or comma-separated) → { decode_tok_s: 3, ttft_ms: 5 }. */
export function parseThresholdArgs(args: readonly string[]): Record<string, number> {
  const thresholds: Record<string, number> = {};
  for (const arg of args) {
    for (const part of arg.split(',')) {
      const item = part.trim();
      if (!item) continue;
      const eq = item.lastIndexOf('=');
      if (eq <= 0) throw new UsageError(`--threshold ${item}: expected METRIC=PCT, e.g. decode_tok_s=3`);
      const key = item.slice(0, eq).trim();
      const text = item.slice(eq + 1).trim().replace(/%$/, '');
      const value = Number(text);
      if (!text || !Number.isFinite(value) || value <= 0) throw new UsageError(`--threshold ${item}: '${item.slice(eq + 1)}' is not a positive number`);
      const problem = thresholdKeyProblem(key);
      if (problem) throw new UsageError(`--threshold ${item}: ${problem}`);
      thresholds[key] = value;
    }
  }
  return thresholds;
}

/** `--fail-on re-prefill,unfused-attention` → the ids; `none` or an empty value → []. */
export function parseFailOnArg(arg: string): string[] {
  const trimmed = arg.trim();
  if (trimmed === '' || trimmed === 'none') return [];
  const ids = trimmed.split(',').map((id) => id.trim());
  for (const id of ids) {
    if (!FindingIdSchema.safeParse(id).success) throw new UsageError(`--fail-on ${arg}: '${id}' is not a finding id (lower-case words joined by hyphens, e.g. re-prefill)`);
  }
  return [...new Set(ids)];
}

/** The fail-on default as written in flags, inputs and help texts. */
export const DEFAULT_FAIL_ON_TEXT = DEFAULT_FAIL_ON.join(',');

/**
 * The gate options a user sets as text: the CLI's flags (analyze and run) and the action's inputs
 * carry the same names, so one parser serves all three doors.
 */
export const GATE_FLAGS = ['threshold', 'fail-on', 'allow-throttled', 'allow-environment-mismatch', 'overlap-check', 'drop-outliers'] as const;
export type GateFlag = (typeof GATE_FLAGS)[number];

export interface GateText {
  /** METRIC=PCT items (each may hold a comma list). */
  threshold?: readonly string[];
  failOn?: string;
  allowThrottled?: boolean | string;
  /** `all`, or fingerprint keys (comma-separated or a list). */
  allowEnvironmentMismatch?: string | readonly string[];
  overlapCheck?: boolean | string;
  dropOutliers?: boolean | string;
}

/** `--threshold` and `input 'thresholds'` name the same option. */
export type GateFlagLabel = (flag: GateFlag) => string;
export const cliGateLabel: GateFlagLabel = (flag) => `--${flag}`;

function booleanText(value: boolean | string | undefined, label: string): boolean | undefined {
  if (value === undefined || typeof value === 'boolean') return value;
  const text = value.trim().toLowerCase();
  if (text === '') return undefined;
  if (text === 'true') return true;
  if (text === 'false') return false;
  throw new UsageError(`${label}: expected true or false, got ${JSON.stringify(value)}`);
}

/** Gate options from their text form; a bad value is a UsageError naming the flag or input. */
export function parseGateText(text: GateText, label: GateFlagLabel = cliGateLabel): GateOptionsInput {
  // The CLI's own messages already start with the flag; another door names its input instead.
  const renamed = (error: unknown, flag: GateFlag, prefix: string) => (label === cliGateLabel ? error : new UsageError(`${label(flag)}: ${(error as Error).message.replace(prefix, '')}`));
  let thresholds: Record<string, number> | undefined;
  if (text.threshold?.length) {
    try {
      thresholds = parseThresholdArgs(text.threshold);
    } catch (error) {
      throw renamed(error, 'threshold', '--threshold ');
    }
  }
  let failOn: string[] | undefined;
  if (text.failOn !== undefined) {
    try {
      failOn = parseFailOnArg(text.failOn);
    } catch (error) {
      throw renamed(error, 'fail-on', `--fail-on ${text.failOn}: `);
    }
  }
  const allow = typeof text.allowEnvironmentMismatch === 'string' ? text.allowEnvironmentMismatch.split(',') : text.allowEnvironmentMismatch;
  const keys = (allow ?? []).map((key) => key.trim()).filter(Boolean);
  const allowThrottled = booleanText(text.allowThrottled, label('allow-throttled'));
  const overlapCheck = booleanText(text.overlapCheck, label('overlap-check'));
  const dropOutliers = booleanText(text.dropOutliers, label('drop-outliers'));
  return {
    ...(thresholds ? { thresholds } : {}),
    ...(failOn ? { failOn } : {}),
    ...(allowThrottled !== undefined ? { allowThrottled } : {}),
    ...(keys.length ? { allowEnvironmentMismatch: keys.includes('all') ? true : keys } : {}),
    ...(overlapCheck !== undefined ? { overlapCheck } : {}),
    ...(dropOutliers !== undefined ? { dropOutliers } : {}),
  };
}
