/**
 * What to run, as the action inputs and the `profile-gate run` flags name it (kebab-case, one name
 * per option in both doors). Parsed once into RunOptions; an error names the option it is about.
 */
import { z } from 'zod';
import { UsageError } from '../errors.js';
import { flagValue, splitShellWords } from './shell-words.js';

export const ENGINES = ['max', 'command'] as const;
export const MODES = ['generate', 'serve'] as const;
export const PROFILERS = ['auto', 'max', 'nsys', 'rocprofv3', 'torch', 'none'] as const;
export const DEEP_DIVES = ['auto', 'off', 'always'] as const;

/** A/B: the most runs per side, as a multiple of `runs`, when max-runs is not given (5 planned → up to 15). */
export const DEFAULT_MAX_RUNS_FACTOR = 3;

/** Load shape of `max benchmark` when benchmark-args is not given: offline (random data), bounded. */
export const DEFAULT_BENCHMARK_ARGS = '--dataset-name random --random-input-len 512 --num-prompts 1000 --max-concurrency 8';
/** MAX serves its metrics on this port; serving on it breaks the server after "Server ready". */
export const MAX_METRICS_PORT = 8001;

function choice<T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: `expected one of ${values.join(', ')}` });
}

function integer(min: number) {
  return z.number({ error: 'expected a whole number' }).int({ error: 'expected a whole number' }).min(min, { error: `expected a whole number >= ${min}` });
}

function positive() {
  return z.number({ error: 'expected a number' }).positive({ error: 'expected a number > 0' });
}

function words() {
  return z.string().superRefine((value, ctx) => {
    try {
      splitShellWords(value);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: `cannot split into arguments: ${(error as Error).message}` });
    }
  });
}

const list = z.array(z.string().min(1));

/** How an option's text is read before its schema: '' is always unset. */
type TextKind = 'plain' | 'number' | 'list' | 'verbatim';

/**
 * One run option: its value's schema, its default (absent: unset unless given), the default as
 * the docs state it when it is not the value itself, how its text is read, and the engines it
 * applies to (given for another engine, it is told as ignored). options/table.ts gives each its
 * action input, flag and help, and states the default from here.
 */
interface RunOptionSpec {
  readonly value: z.ZodType;
  readonly default?: unknown;
  readonly shown?: string;
  readonly text: TextKind;
  readonly engines?: readonly (typeof ENGINES)[number][];
}

function spec<const S extends RunOptionSpec>(s: S): S {
  return s;
}

/** Every run option, as the action's inputs and the CLI's flags spell it. `model` applies to both engines: it labels a command workload's report. */
export const RUN_OPTION_SPECS = {
  engine: spec({ value: choice(ENGINES), default: 'max' as const, text: 'plain' }),
  model: spec({ value: z.string().min(1), text: 'plain' }),
  'max-mode': spec({ value: choice(MODES), default: 'generate' as const, text: 'plain', engines: ['max'] }),
  'max-args': spec({ value: words(), default: '', text: 'plain', engines: ['max'] }),
  prompt: spec({ value: z.string(), text: 'verbatim', engines: ['max'] }),
  'max-new-tokens': spec({ value: integer(1), default: 100, text: 'number', engines: ['max'] }),
  'custom-architectures': spec({ value: list, default: [] as string[], text: 'list', engines: ['max'] }),
  'benchmark-args': spec({ value: words(), default: DEFAULT_BENCHMARK_ARGS, shown: 'random data, 512-token inputs, 1000 prompts, concurrency 8', text: 'plain', engines: ['max'] }),
  run: spec({ value: z.string().min(1), text: 'plain', engines: ['command'] }),
  'profile-run': spec({ value: z.string().min(1), text: 'plain', engines: ['command'] }),
  captures: spec({ value: list, default: [] as string[], text: 'list', engines: ['command'] }),
  'warmup-runs': spec({ value: integer(0), default: 1, text: 'number' }),
  runs: spec({ value: integer(1), default: 5, text: 'number' }),
  profiler: spec({ value: choice(PROFILERS), default: 'auto' as const, text: 'plain' }),
  'capture-seconds': spec({ value: positive(), default: 10, text: 'number' }),
  'deep-dive': spec({ value: choice(DEEP_DIVES), default: 'auto' as const, text: 'plain' }),
  'timeout-minutes': spec({ value: positive(), default: 30, text: 'number' }),
  'base-workdir': spec({ value: z.string().min(1), shown: 'no A/B run', text: 'plain' }),
  'base-run': spec({ value: z.string().min(1), text: 'plain' }),
  'max-runs': spec({ value: integer(1), shown: `${DEFAULT_MAX_RUNS_FACTOR} x runs`, text: 'number' }),
  'allow-no-gpu': spec({
    value: z.enum(['true', 'false', 'True', 'False', 'TRUE', 'FALSE'], { error: 'expected true or false' }).transform((v) => v.toLowerCase() === 'true'),
    default: false,
    text: 'plain',
  }),
};

type Specs = typeof RUN_OPTION_SPECS;
export type RunOptionName = keyof Specs;
/** The option names, in the order of the docs. */
export const RUN_OPTION_NAMES = Object.keys(RUN_OPTION_SPECS) as RunOptionName[];
/** The options that are switches: `--allow-no-gpu` on the command line, `true`/`false` as an input. */
export const BOOLEAN_RUN_OPTIONS: readonly RunOptionName[] = RUN_OPTION_NAMES.filter((name) => (RUN_OPTION_SPECS[name] as RunOptionSpec).default === false);

/** The default as the docs state it (action.yml's "Empty means …", the flag's help); absent when unset means no value. */
export function runOptionDefault(name: RunOptionName): string | undefined {
  const s: RunOptionSpec = RUN_OPTION_SPECS[name];
  if (s.shown !== undefined) return s.shown;
  return typeof s.default === 'string' || typeof s.default === 'number' || typeof s.default === 'boolean' ? (String(s.default) || undefined) : undefined;
}

/** The options parsed, each by its spec: a default or, without one, possibly unset. */
type RawRunOptions = { [K in RunOptionName]: Specs[K] extends { default: unknown } ? z.output<Specs[K]['value']> : z.output<Specs[K]['value']> | undefined };

const RawRunOptionsSchema = z.object(
  Object.fromEntries(
    RUN_OPTION_NAMES.map((name) => {
      const s: RunOptionSpec = RUN_OPTION_SPECS[name];
      return [name, s.default === undefined ? s.value.optional() : s.value.default(s.default as never)];
    }),
  ),
);

/**
 * A/B in one job: the base build runs beside the head build on the same GPU, its measured runs
 * interleaved with the head's, and its report is the baseline. Noise between jobs (another runner,
 * another boot, another clock state) is much larger than within one.
 */
export interface BaseBuild {
  /** Where the base side's commands run (a checkout of the base commit); the job's folder when unset. */
  workdir?: string;
  /** The base side's workload command (engine command); the head's `run` when unset. */
  run?: string;
}

export interface RunOptions {
  engine: (typeof ENGINES)[number];
  model?: string;
  /** `max-mode`: max generate, or max serve with max benchmark windows. */
  mode: (typeof MODES)[number];
  maxArgs: string[];
  prompt?: string;
  maxNewTokens: number;
  customArchitectures: string[];
  benchmarkArgs: string[];
  run?: string;
  profileRun?: string;
  captures: string[];
  warmupRuns: number;
  runs: number;
  profiler: (typeof PROFILERS)[number];
  captureSeconds: number;
  deepDive: (typeof DEEP_DIVES)[number];
  timeoutMinutes: number;
  /** Set when base-workdir or base-run is given: the job runs A/B. */
  base?: BaseBuild;
  /**
   * A/B: the most measured runs per side. While a gated metric is undecided after the planned runs,
   * ABBA pairs are added up to this (and the time budget). Equal to `runs` outside A/B.
   */
  maxRuns: number;
  /**
   * Run although no GPU is found while a GPU profiler (any but none) or GPU sampling is planned:
   * the run then measures throughput only. Otherwise no GPU is a problem of the plan, and nothing runs.
   */
  allowNoGpu: boolean;
  /** Options that were given but do not apply to the chosen engine or mode (told, not fatal). */
  ignored: RunOptionName[];
}

/** How an option is named in messages: `--runs` on the command line, `input 'runs'` in the action. */
export type OptionStyle = 'cli' | 'input';

export function optionLabel(name: string, style: OptionStyle): string {
  return style === 'cli' ? `--${name}` : `input '${name}'`;
}

const kindOf = (name: string): TextKind | undefined => (RUN_OPTION_SPECS as Record<string, RunOptionSpec>)[name]?.text;

/** Action inputs and flags arrive as text: '' means unset, numbers and lists are split here. */
function normalize(raw: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined || value === null) continue;
    if (typeof value === 'string' && value.trim() === '') continue; // the action passes every unset input as ''
    const kind = kindOf(name);
    if (kind === 'number' && typeof value === 'string') out[name] = /^\s*[+-]?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value;
    else if (kind === 'list' && typeof value === 'string') out[name] = value.split(/[\n,]/).map((item) => item.trim()).filter(Boolean);
    else out[name] = typeof value === 'string' && kind !== 'verbatim' ? value.trim() : value;
  }
  return out;
}

const onlyFor = (engine: (typeof ENGINES)[number]): readonly RunOptionName[] =>
  RUN_OPTION_NAMES.filter((name) => {
    const engines = (RUN_OPTION_SPECS[name] as RunOptionSpec).engines;
    return engines?.length === 1 && engines[0] === engine;
  });
const ONLY_FOR_MAX = onlyFor('max');
const ONLY_FOR_COMMAND = onlyFor('command');

export function parseRunOptions(raw: Readonly<Record<string, unknown>>, style: OptionStyle = 'input'): RunOptions {
  const fail = (name: string, message: string): never => {
    throw new UsageError(`${optionLabel(name, style)}: ${message}`);
  };
  const given = normalize(raw);
  for (const name of Object.keys(given)) {
    if (!(RUN_OPTION_NAMES as readonly string[]).includes(name)) fail(name, `unknown option; expected one of ${RUN_OPTION_NAMES.join(', ')}`);
  }
  const parsed = RawRunOptionsSchema.safeParse(given);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? 'options');
    const value = raw[name];
    fail(name, `${issue.message}${typeof value === 'string' ? `, got ${JSON.stringify(value)}` : ''}`);
  }
  // The schema is built from the specs: its output is the specs' values (RawRunOptions).
  const o = parsed.data as RawRunOptions;
  const ignored: RunOptionName[] = [];
  const isGiven = (name: RunOptionName) => given[name] !== undefined;

  if (o.engine === 'max') {
    if (!o.model) fail('model', 'required with engine max (a Hugging Face id or a local path)');
    ignored.push(...ONLY_FOR_COMMAND.filter(isGiven));
    if (o.profiler === 'torch') fail('profiler', 'torch reads Kineto traces a command workload writes; with engine max use auto, max, nsys, rocprofv3 or none');
    if (o['max-mode'] === 'serve') {
      if (isGiven('prompt')) ignored.push('prompt');
      const port = flagValue(splitShellWords(o['max-args']), '--port');
      if (port !== undefined && Number(port) === MAX_METRICS_PORT) {
        fail('max-args', `--port ${MAX_METRICS_PORT} is the port MAX serves its metrics on; the server would report ready, then shut its workers down. Pick another port, e.g. --port 8000`);
      }
    } else if (isGiven('benchmark-args')) ignored.push('benchmark-args');
  } else {
    if (!o.run) fail('run', 'required with engine command (the workload command line)');
    ignored.push(...ONLY_FOR_MAX.filter(isGiven).filter((name) => name !== 'max-mode' || given['max-mode'] !== 'generate'));
    if (o.profiler === 'max') fail('profiler', 'max is the profiler of max generate; with engine command use auto, nsys, rocprofv3, torch or none');
    if (o.profiler === 'torch' && o.captures.length === 0) fail('captures', 'required with profiler torch: the globs of the Kineto traces the workload writes (e.g. traces/*.json)');
  }
  if (o.engine === 'max' && o['base-run'] !== undefined) fail('base-run', 'applies to engine command only; with engine max the base side runs the same max command in base-workdir');
  const ab = o['base-workdir'] !== undefined || o['base-run'] !== undefined;
  if (ab) {
    if (o.runs < 3) fail('runs', `A/B needs at least 3 measured runs per side to compare, got ${o.runs}`);
    if (o['max-runs'] !== undefined && o['max-runs'] < o.runs) fail('max-runs', `must be at least runs (${o.runs}), got ${o['max-runs']}`);
  } else if (isGiven('max-runs')) ignored.push('max-runs');
  // Serving A/B runs its windows per side: no pairs to add.
  const adaptive = ab && !(o.engine === 'max' && o['max-mode'] === 'serve');

  return {
    engine: o.engine,
    ...(o.model ? { model: o.model } : {}),
    mode: o.engine === 'max' ? o['max-mode'] : 'generate',
    maxArgs: splitShellWords(o['max-args']),
    ...(o.prompt !== undefined && o.engine === 'max' && o['max-mode'] === 'generate' ? { prompt: o.prompt } : {}),
    maxNewTokens: o['max-new-tokens'],
    customArchitectures: o['custom-architectures'],
    benchmarkArgs: splitShellWords(o['benchmark-args']),
    ...(o.engine === 'command' ? { run: o.run, ...(o['profile-run'] ? { profileRun: o['profile-run'] } : {}) } : {}),
    captures: o.engine === 'command' ? o.captures : [],
    warmupRuns: o['warmup-runs'],
    runs: o.runs,
    profiler: o.profiler,
    captureSeconds: o['capture-seconds'],
    deepDive: o['deep-dive'],
    timeoutMinutes: o['timeout-minutes'],
    allowNoGpu: o['allow-no-gpu'],
    maxRuns: adaptive ? (o['max-runs'] ?? DEFAULT_MAX_RUNS_FACTOR * o.runs) : o.runs,
    ...(o['base-workdir'] !== undefined || o['base-run'] !== undefined
      ? { base: { ...(o['base-workdir'] !== undefined ? { workdir: o['base-workdir'] } : {}), ...(o['base-run'] !== undefined ? { run: o['base-run'] } : {}) } }
      : {}),
    ignored,
  };
}
