/**
 * Gate options: one zod schema with the defaults (references/steps/regression-gate.md says where each
 * comes from), and parsers for the CLI's `--threshold METRIC=PCT` and `--fail-on a,b`.
 */
import { z } from 'zod';
import { FAMILY_IDS } from '../model/family-ids.js';
import { UsageError } from '../errors.js';
import { DESCRIPTIVE_METRICS, METRIC_CATALOG } from '../model/metrics.js';
import { ownValue } from '../model/own-key.js';
import { FINGERPRINT_KEYS } from './fingerprint.js';
import { FINDING_IDS, isFindingId, unknownFindingId, type FindingId } from '../model/finding-ids.js';
import { DEFAULT_FAIL_ON, DEFAULT_FAIL_ON_SEVERITY, DEFAULT_FAIL_VERDICTS, FAIL_ON_SEVERITIES, FAILABLE_VERDICTS, type FailableVerdict, type FailOnSeverity } from './verdict.js';

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

export const GateOptionsSchema = z
  .object({
    /** Finding ids that fail the gate when they appear (new since the baseline, or at all without one) at failOnSeverity or above. */
    failOn: z.array(FindingIdSchema).default([...DEFAULT_FAIL_ON]),
    /**
     * The least severity at which a finding in failOn fails: `error` (conclusive evidence) by default;
     * a warning (evidence there but not conclusive) then warns. `warning` fails on both.
     */
    failOnSeverity: z.enum(FAIL_ON_SEVERITIES, { error: `expected one of ${FAIL_ON_SEVERITIES.join(', ')}` }).default(DEFAULT_FAIL_ON_SEVERITY),
    /** The verdicts that fail the job (exit 1, the step failed); the others pass it. */
    failVerdicts: z
      .array(z.enum(FAILABLE_VERDICTS, { error: (issue) => `unknown verdict '${String(issue.input)}' (known: ${FAILABLE_VERDICTS.join(', ')})` }))
      .default([...DEFAULT_FAIL_VERDICTS]),
    /**
     * Per-row thresholds. Metric names take a practical floor in percent (`decode_tok_s: 3`);
     * `family:<id>` and `kernel:<name>` take a share-growth fail threshold in percentage points;
     * `kernel-time:family:<id>` and `kernel-time:kernel:<name>` a growth of GPU time per decode step
     * that fails, in milliseconds (0.1 = 100 µs per step).
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
     * Leave out the runs below a side's fast cluster (stalls: one or several, up to all but two
     * runs); a level both sides show stays (the overlap check handles it). With runs left out the
     * fast clusters are compared by Student's t.
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

/** `--threshold decode_tok_s=3 --threshold ttft_ms=5%` (or comma-separated) → { decode_tok_s: 3, ttft_ms: 5 }. */
export function parseThresholdArgs(args: readonly string[]): Record<string, number> {
  const thresholds: Record<string, number> = Object.create(null) as Record<string, number>;
  for (const arg of args) {
    for (const part of arg.split(',')) {
      const item = part.trim();
      if (!item) continue;
      const eq = item.lastIndexOf('=');
      if (eq <= 0) throw new UsageError(`--threshold ${item}: expected METRIC=PCT, e.g. decode_tok_s=3`);
      const key = item.slice(0, eq).trim();
      if (key.startsWith(KERNEL_TIME_PREFIX)) {
        const problem = thresholdKeyProblem(key);
        if (problem) throw new UsageError(`--threshold ${item}: ${problem}`);
        thresholds[key] = parseStepTimeMs(item, item.slice(eq + 1));
        continue;
      }
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

/** Units of a time per step, as the number of them in a millisecond. */
const TIME_UNITS_PER_MS: Readonly<Record<string, number>> = { ms: 1, us: 1e3, 'µs': 1e3, 'μs': 1e3, ns: 1e6 };

/** A growth of time per step as written after `kernel-time:…=`: `+0.1ms`, `+100us`, `250µs`, `50000ns` → milliseconds. */
function parseStepTimeMs(item: string, value: string): number {
  const match = /^\s*\+?\s*(\d+(?:\.\d*)?|\.\d+)\s*(ms|us|µs|μs|ns)\s*$/i.exec(value);
  const ms = match ? Number(match[1]) / TIME_UNITS_PER_MS[match[2]!.toLowerCase()]! : NaN;
  if (!match || !Number.isFinite(ms) || ms <= 0) throw new UsageError(`--threshold ${item}: '${value}' is not a positive time per step; expected a number with ms, us or ns, e.g. +0.1ms or +100us`);
  return ms;
}

/** `--fail-on re-prefill,unfused-attention` → the ids; `none` or an empty value → []. An unknown id is refused with the known list. */
export function parseFailOnArg(arg: string): FindingId[] {
  const trimmed = arg.trim();
  if (trimmed === '' || trimmed === 'none') return [];
  const ids = trimmed.split(/[\n,]/).map((id) => id.trim()).filter(Boolean);
  for (const id of ids) {
    if (!isFindingId(id)) throw new UsageError(`--fail-on ${arg}: ${unknownFindingId(id)}`);
  }
  return [...new Set(ids as FindingId[])];
}

/** `--fail-on-severity warning|error`. */
export function parseFailOnSeverityArg(arg: string): FailOnSeverity {
  const text = arg.trim().toLowerCase();
  if (!(FAIL_ON_SEVERITIES as readonly string[]).includes(text)) throw new UsageError(`--fail-on-severity ${arg}: expected one of ${FAIL_ON_SEVERITIES.join(', ')}`);
  return text as FailOnSeverity;
}

/** `--fail-verdicts fail,invalid,insufficient-data` → the verdicts that fail the job; `none` → [] (nothing fails it). */
export function parseFailVerdictsArg(arg: string): FailableVerdict[] {
  const trimmed = arg.trim();
  if (trimmed === 'none') return [];
  const verdicts = trimmed.split(/[\n,]/).map((v) => v.trim()).filter(Boolean);
  if (!verdicts.length) throw new UsageError(`--fail-verdicts ${JSON.stringify(arg)}: expected a list of ${FAILABLE_VERDICTS.join(', ')} (or none)`);
  for (const verdict of verdicts) {
    if (!(FAILABLE_VERDICTS as readonly string[]).includes(verdict)) throw new UsageError(`--fail-verdicts ${arg}: unknown verdict '${verdict}' (known: ${FAILABLE_VERDICTS.join(', ')}; none for no verdict)`);
  }
  return [...new Set(verdicts as FailableVerdict[])];
}

/** The fail-on default as written in flags, inputs and help texts. */
export const DEFAULT_FAIL_ON_TEXT = DEFAULT_FAIL_ON.join(',');
/** The fail-verdicts default as written in flags, inputs and help texts. */
export const DEFAULT_FAIL_VERDICTS_TEXT = DEFAULT_FAIL_VERDICTS.join(',');

export interface GateText {
  /** METRIC=PCT items (each may hold a comma list). */
  threshold?: readonly string[];
  failOn?: string;
  failOnSeverity?: string;
  failVerdicts?: string;
  allowThrottled?: boolean | string;
  /** `all`, or fingerprint keys (comma-separated or a list). */
  allowEnvironmentMismatch?: string | readonly string[];
  overlapCheck?: boolean | string;
  dropOutliers?: boolean | string;
}

/** How the CLI reads a flag (node:util parseArgs), and how its help line reads. */
interface GateFlagSpec {
  field: keyof GateText;
  cli: { readonly type: 'string' | 'boolean'; readonly multiple?: boolean };
  /** The action input of the same option (its name in action.yml). */
  input: string;
  /** What the flag takes, in its help line (none for a switch). */
  value?: string;
  help: string;
}

/**
 * The gate options a user sets as text: the CLI's flags (analyze and run) and the action's inputs
 * carry the same names, so one table and one reader serve all three doors. A new gate flag is one
 * row here (and its input in action.yml and the action's input schema).
 */
export const GATE_FLAG_SPECS = {
  threshold: {
    field: 'threshold',
    cli: { type: 'string', multiple: true },
    input: 'thresholds',
    value: 'M=PCT',
    help: 'practical floor of a metric in percent (decode_tok_s=3), a share threshold in percentage points (family:attention-fused=10), or a growth of GPU time per decode step (kernel-time:family:copy=+0.1ms); repeatable',
  },
  'fail-on': { field: 'failOn', cli: { type: 'string' }, input: 'fail-on', value: 'LIST', help: `finding ids that fail the gate (default ${DEFAULT_FAIL_ON_TEXT}; none for no id)` },
  'fail-on-severity': {
    field: 'failOnSeverity',
    cli: { type: 'string' },
    input: 'fail-on-severity',
    value: 'error|warning',
    help: `the least severity of a fail-on finding that fails (default ${DEFAULT_FAIL_ON_SEVERITY}: a warning, evidence that is not conclusive, warns)`,
  },
  'fail-verdicts': {
    field: 'failVerdicts',
    cli: { type: 'string' },
    input: 'fail-verdicts',
    value: 'LIST',
    help: `verdicts that fail the job, of ${FAILABLE_VERDICTS.join(', ')} (default ${DEFAULT_FAIL_VERDICTS_TEXT}; none for no verdict)`,
  },
  'allow-throttled': { field: 'allowThrottled', cli: { type: 'boolean' }, input: 'allow-throttled', help: 'compare even when a side was throttled by a thermal or hardware reason, or under power conditions unlike the baseline\'s (otherwise the verdict is invalid)' },
  'allow-environment-mismatch': {
    field: 'allowEnvironmentMismatch',
    cli: { type: 'string' },
    input: 'allow-environment-mismatch',
    value: 'KEYS|all',
    help: `compare although these fingerprint keys differ (${FINGERPRINT_KEYS.join(', ')})`,
  },
  'overlap-check': {
    field: 'overlapCheck',
    cli: { type: 'string' },
    input: 'overlap-check',
    value: 'true|false',
    help: "hold a significant change back (warn) when one side's runs reach the other's median (default true)",
  },
  'drop-outliers': {
    field: 'dropOutliers',
    cli: { type: 'string' },
    input: 'drop-outliers',
    value: 'true|false',
    help: "leave out the runs below a side's fast cluster, e.g. stalls, and compare the fast clusters (default true)",
  },
} as const satisfies Record<string, GateFlagSpec>;

export type GateFlag = keyof typeof GATE_FLAG_SPECS;
export const GATE_FLAGS = Object.keys(GATE_FLAG_SPECS) as GateFlag[];

/** The gate flags as node:util parseArgs options, for every CLI command that gates. */
export const GATE_FLAG_OPTIONS = Object.fromEntries(GATE_FLAGS.map((flag) => [flag, GATE_FLAG_SPECS[flag].cli])) as { [F in GateFlag]: (typeof GATE_FLAG_SPECS)[F]['cli'] };

/** The gate flags that take a value (`--fail-on LIST`), as written on a command line. */
export const GATE_VALUE_FLAGS: readonly string[] = GATE_FLAGS.filter((flag) => GATE_FLAG_SPECS[flag].cli.type === 'string').map((flag) => `--${flag}`);

/** The help lines of the gate flags, descriptions from `column`; a longer flag puts its description on the next line. */
export function gateFlagsHelp(column: number): string {
  return GATE_FLAGS.map((flag) => {
    const spec: GateFlagSpec = GATE_FLAG_SPECS[flag];
    const name = `  --${flag}${spec.value ? ` ${spec.value}` : ''}`;
    return name.length < column ? `${name.padEnd(column)}${spec.help}` : `${name}\n${' '.repeat(column)}${spec.help}`;
  }).join('\n');
}

/** A gate flag's value as a door holds it: CLI text or a switch, or an action input already split into a list. */
export type GateFlagValue = string | boolean | readonly string[] | undefined;

/** The gate text from a door's reader by flag name; what the reader does not give is left out. */
export function gateTextFrom(read: (flag: GateFlag) => GateFlagValue): GateText {
  const text: Record<string, unknown> = {};
  for (const flag of GATE_FLAGS) {
    let value = read(flag);
    const spec: GateFlagSpec = GATE_FLAG_SPECS[flag];
    // A list where the option takes one text (an action input split at commas): joined back.
    if (Array.isArray(value) && !('multiple' in spec.cli)) value = value.join(',');
    else if (typeof value === 'string' && 'multiple' in spec.cli) value = [value];
    if (value === undefined) continue;
    text[spec.field] = value;
  }
  return text as GateText;
}

/** `--threshold` and `input 'thresholds'` name the same option. */
export type GateFlagLabel = (flag: GateFlag) => string;
export const cliGateLabel: GateFlagLabel = (flag) => `--${flag}`;
/** The action input that sets a gate flag's option, as its error messages name it. */
export const actionGateLabel: GateFlagLabel = (flag) => `input '${GATE_FLAG_SPECS[flag].input}'`;

function booleanText(value: boolean | string | undefined, label: string): boolean | undefined {
  if (value === undefined || typeof value === 'boolean') return value;
  const text = value.trim().toLowerCase();
  if (text === '') return undefined;
  if (text === 'true') return true;
  if (text === 'false') return false;
  throw new UsageError(`${label}: expected true or false, got ${JSON.stringify(value)}`);
}

/** Gate options from a door's reader by flag name (CLI flags or action inputs); a bad value names the flag or input. */
export function parseGateFlags(read: (flag: GateFlag) => GateFlagValue, label: GateFlagLabel = cliGateLabel): GateOptionsInput {
  return parseGateText(gateTextFrom(read), label);
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
  let failOn: FindingId[] | undefined;
  if (text.failOn !== undefined) {
    try {
      failOn = parseFailOnArg(text.failOn);
    } catch (error) {
      throw renamed(error, 'fail-on', `--fail-on ${text.failOn}: `);
    }
  }
  let failOnSeverity: FailOnSeverity | undefined;
  if (text.failOnSeverity !== undefined && text.failOnSeverity.trim() !== '') {
    try {
      failOnSeverity = parseFailOnSeverityArg(text.failOnSeverity);
    } catch (error) {
      throw renamed(error, 'fail-on-severity', `--fail-on-severity ${text.failOnSeverity}: `);
    }
  }
  let failVerdicts: FailableVerdict[] | undefined;
  if (text.failVerdicts !== undefined && text.failVerdicts.trim() !== '') {
    try {
      failVerdicts = parseFailVerdictsArg(text.failVerdicts);
    } catch (error) {
      throw renamed(error, 'fail-verdicts', `--fail-verdicts ${text.failVerdicts}: `);
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
    ...(failOnSeverity ? { failOnSeverity } : {}),
    ...(failVerdicts ? { failVerdicts } : {}),
    ...(allowThrottled !== undefined ? { allowThrottled } : {}),
    ...(keys.length ? { allowEnvironmentMismatch: keys.includes('all') ? true : keys } : {}),
    ...(overlapCheck !== undefined ? { overlapCheck } : {}),
    ...(dropOutliers !== undefined ? { dropOutliers } : {}),
  };
}
