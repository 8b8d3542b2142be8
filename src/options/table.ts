/**
 * Every option a user sets, one row each: its field, the action input (its name in action.yml), the
 * CLI flag and the commands that take it, the default as action.yml writes it, the line the docs
 * show, and the one parser of its text. The action's input reading, the CLI's flags and help, the
 * reference page (references/options.md) and the check of action.yml all come from here; to add
 * an option, add a row (docs/architecture.md, "Options").
 *
 * What a value may be stays with the stage that owns it (gate vocabulary in compare/, rule options
 * in diagnose/, run options in runner/): a row only says which parser reads it.
 */
import { DEFAULT_STEP_TIME_THRESHOLDS, GATE_OPTION_KEYS, GATE_OPTION_SPECS, gateOptionDefaultText, type GateOptionKey, type GateOptionSpec, type GateOptionValue } from '../compare/gate-options.js';
import { FINGERPRINT_KEYS } from '../compare/fingerprint.js';
import { FAILABLE_VERDICTS } from '../compare/verdict.js';
import { DEFAULT_ACCEPT_COMMAND, DEFAULT_ACCEPT_LABEL } from '../compare/acceptance.js';
import { parseRuleOptions } from '../diagnose/rule-options.js';
import { parseSmiColumns } from '../ingest/formats/nvidia-smi-csv.js';
import { DEFAULT_NO_CAPTURE_POLICY, NO_CAPTURE_POLICIES } from '../io/gather-captures.js';
import { FORMAT_IDS } from '../model/capture.js';
import { METRIC_NAMES } from '../model/metrics.js';
import { COMMENT_POLICIES } from '../report/markdown/comment.js';
import { HISTORY_KERNELS } from '../compare/history-summary.js';
import { DEFAULT_DASHBOARD_OPTIONS } from '../report/dashboard/build-data.js';
import { UsageError } from '../errors.js';
import { runOptionDefault, type RunOptionName } from '../runner/run-options.js';
import { booleanText, list, listItems, matching, nonEmpty, oneOf, optional, optionalPositiveInt, optionalPositiveSeconds, positiveInt, text, trimmed, type ValueParser } from './values.js';

/** The action's modes. */
export const MODES = ['analyze', 'report', 'run'] as const;
export type Mode = (typeof MODES)[number];

/** The CLI commands, each of which takes its options from this table. */
export const COMMANDS = ['analyze', 'run', 'demo', 'report', 'dashboard', 'scrub'] as const;
export type Command = (typeof COMMANDS)[number];
const GATE_COMMANDS: readonly Command[] = ['analyze', 'run'];

/** Where an option belongs: its help section and its place on the reference page. */
export type OptionGroup =
  | 'action'
  | 'output'
  | 'analyze'
  | 'run-metadata'
  | 'gate'
  | 'diagnose'
  | 'baseline'
  | 'publish'
  | 'report'
  | 'merge'
  | 'dashboard'
  | 'artifacts'
  | 'run'
  | 'ab'
  | 'run-output';

export interface CliFlag {
  /** The flag without its dashes. */
  readonly name: string;
  readonly commands: readonly Command[];
  /** What the flag takes, in its help line; absent for a switch. */
  readonly value?: string;
  /** `--allow-mixed`, no value. */
  readonly switch?: boolean;
  /** Given more than once, the values are read as one list. */
  readonly repeatable?: boolean;
  readonly help: string;
}

export interface OptionRow<K extends string = string, T = unknown> {
  /** The field of the parsed options. */
  readonly key: K;
  /** The action input, as action.yml names it; absent for an option of the CLI only. */
  readonly input?: string;
  readonly flag?: CliFlag;
  /**
   * The default as action.yml writes it: what an empty input (or an absent flag) means. '' is
   * derived at run time. The flag's help states it (statedDefault): never write it there by hand.
   */
  readonly default: string;
  /**
   * What an empty input or an absent flag means when it is derived at run time (default ''): a run
   * option's default, from the runner's spec, or what the CLI falls back on after the row's
   * environment variables. The flag's help states it, and action.yml's description.
   */
  readonly emptyMeans?: string;
  /** The start of the input's description in action.yml (the flag's help for a CLI-only option), and its line on the reference page. */
  readonly doc: string;
  /** The one parser of the option's text; its message starts with the name it is given. */
  readonly parse: ValueParser<T>;
  readonly group: OptionGroup;
  /** Never quoted in a message. */
  readonly secret?: boolean;
  /**
   * Environment variables the CLI reads, in this order, when the flag is absent or empty (before
   * the default); its help says so. The action has its own context and reads none.
   */
  readonly env?: readonly string[];
}

/**
 * The default as a flag's help and the reference page state it: the row's environment variables,
 * then its default (quoted when it holds a space) or what empty means; undefined when none.
 */
export function statedDefault(row: Pick<OptionRow, 'default' | 'emptyMeans' | 'env'>): string | undefined {
  const fallback = row.default ? (/\s/.test(row.default) ? `'${row.default}'` : row.default) : row.emptyMeans;
  const parts = [...(row.env ?? []).map((name) => `$${name}`), ...(fallback ? [fallback] : [])];
  return parts.length ? parts.join(', else ') : undefined;
}

/** The row with its flag's help ending in the default it states; a switch states none (absent is off). */
function withStatedDefault<R extends Pick<OptionRow, 'default' | 'emptyMeans' | 'env' | 'flag'>>(row: R): R {
  const stated = statedDefault(row);
  if (!row.flag || row.flag.switch || stated === undefined) return row;
  return { ...row, flag: { ...row.flag, help: `${row.flag.help} (default ${stated})` } };
}

function option<const K extends string, T>(row: OptionRow<K, T> & { input: string }): OptionRow<K, T> & { input: string } {
  return withStatedDefault(row);
}

/**
 * A gate option: its default and its parser are the gate's own spec (compare/gate-options.ts), as
 * the gate's schema is; the row gives the input, the flag and the words.
 */
function gateOption<const K extends GateOptionKey>(row: Omit<OptionRow<K, GateOptionValue<K>>, 'default' | 'parse' | 'group'> & { input: string }): OptionRow<K, GateOptionValue<K>> & { input: string } {
  const spec: GateOptionSpec = GATE_OPTION_SPECS[row.key];
  // A spec without a parser takes true or false: its schema is a boolean.
  const parse = (spec.parse ?? booleanText) as ValueParser<GateOptionValue<K>>;
  return option({ ...row, default: gateOptionDefaultText(row.key), parse, group: 'gate' });
}

// Artifact names may not hold " : < > | * ? \r \n / \ (the artifact service refuses them).
const artifactName = matching(/^[^":<>|*?\r\n/\\]*$/, 'an artifact name without " : < > | * ? / \\ or newlines');

const smiColumns: ValueParser<string[] | undefined> = (value, name) => {
  const items = listItems(value);
  return items.length ? parseSmiColumns(items.join(','), name) : undefined;
};

/** `none` turns a way of accepting off: '' (an empty input means the default instead). */
function orNone(parser: ValueParser<string>): ValueParser<string> {
  return (value, name) => {
    const parsed = parser(value, name);
    return parsed === 'none' ? '' : parsed;
  };
}

/** A whole number of at least 1, from `min` to `max` (`--limit x: expected a positive integer`). */
function wholeNumber(max = Number.MAX_SAFE_INTEGER, why = ''): ValueParser<number> {
  return (value, name) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1) throw new UsageError(`${name} ${value}: expected a positive integer`);
    if (n > max) throw new UsageError(`${name} ${n}: expected at most ${max}${why}`);
    return n;
  };
}

/** A percentage from 0 to 100, `%` allowed, as a fraction (2 → 0.02). */
const percent: ValueParser<number> = (value, name) => {
  const n = Number(value.replace(/%$/, ''));
  if (!Number.isFinite(n) || n < 0 || n > 100) throw new UsageError(`${name} ${value}: expected a percentage between 0 and 100`);
  return n / 100;
};

/** An ISO 8601 time, as its canonical text (2026-12-01T03:00:00.000Z). */
const isoTime: ValueParser<string> = (value, name) => {
  const time = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(time.getTime())) throw new UsageError(`${name} ${value}: expected an ISO 8601 time such as 2026-12-01T03:00:00Z`);
  return time.toISOString();
};

/** `LOGIN[:REASON]`: who accepts, and why (at most 300 characters). */
export interface AcceptedBy {
  login: string;
  reason?: string;
}
const acceptedBy: ValueParser<AcceptedBy> = (value, name) => {
  const at = value.indexOf(':');
  const login = (at < 0 ? value : value.slice(0, at)).trim();
  const reason = at < 0 ? '' : value.slice(at + 1).trim();
  if (!/^[A-Za-z0-9-]{1,39}$/.test(login)) throw new UsageError(`${name} ${JSON.stringify(value)}: expected a GitHub login, optionally followed by :REASON (e.g. octocat:slower on purpose)`);
  return { login, ...(reason ? { reason: reason.slice(0, 300) } : {}) };
};

/** A CLI-only option: no input; its docs line is its help. */
function flagOnly<const K extends string, T>(row: Omit<OptionRow<K, T>, 'input' | 'doc'> & { flag: CliFlag }): OptionRow<K, T> & { input?: undefined } {
  const stated = withStatedDefault(row);
  return { ...stated, doc: stated.flag.help };
}

/** The options read into values, in the order of action.yml's description of them (the CLI's own first). */
export const OPTIONS = [
  flagOnly({ key: 'json', default: '', parse: optional(text), group: 'output', flag: { name: 'json', commands: ['analyze', 'demo'], value: 'FILE|-', help: 'write report.json (the versioned contract); - for stdout' } }),
  flagOnly({ key: 'markdown', default: '', parse: optional(text), group: 'output', flag: { name: 'markdown', commands: ['analyze', 'demo'], value: 'FILE|-', help: 'write report.md; - for stdout' } }),
  flagOnly({
    key: 'format',
    default: '',
    parse: optional(oneOf(FORMAT_IDS)),
    group: 'output',
    flag: { name: 'format', commands: ['analyze'], value: 'NAME', help: `skip detection and read every input as NAME, one of: ${FORMAT_IDS.join(', ')}` },
  }),
  option({
    key: 'families',
    input: 'families',
    default: '',
    emptyMeans: 'the built-in table alone',
    doc: 'Modes analyze and run. A JSON file of your own kernel-family patterns, tried before the built-in table (the README, "The diagnosis", shows the format).',
    parse: optional(text),
    group: 'analyze',
    flag: { name: 'families', commands: ['analyze', 'run'], value: 'FILE', help: 'extra kernel-family patterns (JSON), tried before the built-in table' },
  }),
  flagOnly({ key: 'top', default: '10', parse: positiveInt, group: 'output', flag: { name: 'top', commands: ['analyze', 'demo'], value: 'N', help: 'kernels shown in the terminal output' } }),
  // The action's input `baseline` says more (artifact, ab, none or a path): a row of its own below.
  flagOnly({
    key: 'baselineFile',
    default: '',
    parse: optional(text),
    group: 'gate',
    flag: { name: 'baseline', commands: GATE_COMMANDS, value: 'FILE', help: 'a previous report.json to compare against (throughput with statistics, kernel shares, findings); run: not with --base-workdir/--base-run' },
  }),
  flagOnly({ key: 'out', default: 'profile-gate-run', parse: nonEmpty('a directory'), group: 'run-output', flag: { name: 'out', commands: ['run'], value: 'DIR', help: 'where logs, captures, run.json and the report go' } }),
  flagOnly({ key: 'dryRun', default: 'false', parse: booleanText, group: 'run-output', flag: { name: 'dry-run', commands: ['run'], switch: true, help: 'print the plan and exit' } }),
  flagOnly({ key: 'quiet', default: 'false', parse: booleanText, group: 'run-output', flag: { name: 'quiet', commands: ['run'], switch: true, help: "do not echo the workload's output (it is still in DIR/logs)" } }),
  flagOnly({ key: 'outDir', default: '', parse: optional(text), group: 'output', flag: { name: 'out', commands: ['report', 'dashboard', 'scrub'], value: 'DIR', help: 'where the files are written (required)' } }),
  flagOnly({ key: 'history', default: '', parse: optional(text), group: 'output', flag: { name: 'history', commands: ['dashboard'], value: 'FILE', help: 'the history store (history.ndjson, one summary per report): read, and appended with the reports it lacks; artifacts it holds are not downloaded again' } }),
  // The run block of analyze's report: the dashboard groups and labels reports by them.
  flagOnly({ key: 'workload', default: '', parse: optional(text), group: 'run-metadata', flag: { name: 'workload', commands: ['analyze', 'run'], value: 'NAME', help: "a stable name of the workload, e.g. 'llama-3.1-8b · H200 · bs1'" } }),
  flagOnly({ key: 'commit', default: '', emptyMeans: 'git rev-parse HEAD', parse: optional(text), group: 'run-metadata', env: ['GITHUB_SHA'], flag: { name: 'commit', commands: ['analyze'], value: 'SHA', help: 'the commit measured' } }),
  flagOnly({ key: 'branch', default: '', emptyMeans: 'the checked-out git branch', parse: optional(text), group: 'run-metadata', env: ['GITHUB_REF_NAME'], flag: { name: 'branch', commands: ['analyze'], value: 'NAME', help: 'its branch' } }),
  flagOnly({ key: 'runAt', default: '', emptyMeans: 'now', parse: optional(isoTime), group: 'run-metadata', flag: { name: 'run-at', commands: ['analyze'], value: 'TIME', help: 'when the captures were made, in ISO 8601' } }),
  // profile-gate report: the merge of mode report, on files.
  flagOnly({ key: 'commentKey', default: 'report', parse: text, group: 'merge', flag: { name: 'key', commands: ['report'], value: 'KEY', help: "the comment's marker key: a later comment with the same key replaces it" } }),
  flagOnly({ key: 'runUrl', default: '', parse: matching(/^(https?:\/\/\S+)?$/, 'an http(s) URL of the workflow run, e.g. https://github.com/OWNER/REPO/actions/runs/ID', true), group: 'merge', flag: { name: 'run-url', commands: ['report'], value: 'URL', help: "the run whose artifacts these are, linked from the summary and the comment" } }),
  flagOnly({
    key: 'acceptedBy',
    default: '',
    parse: optional(acceptedBy),
    group: 'merge',
    flag: { name: 'accepted-by', commands: ['report'], value: 'LOGIN[:REASON]', help: "accept every failing report's failing rows in LOGIN's name (verdict accepted), as a pull request label or comment would: to see locally what an acceptance shows" },
  }),
  // profile-gate dashboard: the page, and the artifacts it may download.
  flagOnly({ key: 'dashboardTitle', default: DEFAULT_DASHBOARD_OPTIONS.title, parse: text, group: 'dashboard', flag: { name: 'title', commands: ['dashboard'], value: 'TEXT', help: 'the page title' } }),
  flagOnly({ key: 'dashboardMetric', default: DEFAULT_DASHBOARD_OPTIONS.metric, parse: oneOf(METRIC_NAMES), group: 'dashboard', flag: { name: 'metric', commands: ['dashboard'], value: 'NAME', help: 'the throughput metric charted and scanned for shifts' } }),
  flagOnly({
    key: 'dashboardTop',
    default: String(DEFAULT_DASHBOARD_OPTIONS.topN),
    // Each report is kept as its top kernels only (report/bounded-report.ts), read from disk or downloaded.
    parse: wholeNumber(HISTORY_KERNELS, ` (each report is kept as its top ${HISTORY_KERNELS} kernels)`),
    group: 'dashboard',
    flag: { name: 'top', commands: ['dashboard'], value: 'N', help: `top kernels tracked per run, at most ${HISTORY_KERNELS}` },
  }),
  flagOnly({ key: 'minChange', default: String(DEFAULT_DASHBOARD_OPTIONS.minChange * 100), parse: percent, group: 'dashboard', flag: { name: 'min-change', commands: ['dashboard'], value: 'PCT', help: 'smallest level shift that counts, in percent' } }),
  flagOnly({ key: 'seed', default: '', parse: optional(wholeNumber()), group: 'dashboard', flag: { name: 'seed', commands: ['dashboard'], value: 'N', help: 'accepted for older workflows; no effect (change points use no random draws)' } }),
  flagOnly({
    key: 'fromArtifacts',
    default: 'false',
    parse: booleanText,
    group: 'artifacts',
    flag: { name: 'from-artifacts', commands: ['dashboard'], switch: true, help: 'also download the report artifacts of recent completed runs, failed ones included (GITHUB_TOKEN, GITHUB_API_URL and GITHUB_SERVER_URL are read from the environment)' },
  }),
  flagOnly({ key: 'repo', default: '', parse: optional(text), group: 'artifacts', env: ['GITHUB_REPOSITORY'], flag: { name: 'repo', commands: ['dashboard'], value: 'OWNER/NAME', help: 'the repository' } }),
  flagOnly({ key: 'workflow', default: '', parse: optional(text), group: 'artifacts', flag: { name: 'workflow', commands: ['dashboard'], value: 'FILE', help: 'the workflow file name that uploads the reports, e.g. nightly.yml' } }),
  flagOnly({ key: 'workflowBranch', default: 'main', parse: text, group: 'artifacts', flag: { name: 'branch', commands: ['dashboard'], value: 'NAME', help: 'the branch its runs built' } }),
  flagOnly({ key: 'limit', default: '60', parse: wholeNumber(), group: 'artifacts', flag: { name: 'limit', commands: ['dashboard'], value: 'N', help: 'completed runs to read, newest first, whatever their conclusion' } }),
  flagOnly({ key: 'events', default: 'push,schedule', parse: list(), group: 'artifacts', flag: { name: 'events', commands: ['dashboard'], value: 'LIST', help: 'run events accepted' } }),
  flagOnly({ key: 'saveReports', default: '', parse: optional(text), group: 'artifacts', flag: { name: 'save-reports', commands: ['dashboard'], value: 'DIR', help: 'keep the downloaded report.json files there (artifacts expire; the files need not)' } }),
  option({
    key: 'mode',
    input: 'mode',
    default: 'analyze',
    doc: 'run: run the workload on this GPU runner (warm-up, measured runs with utilization sampling, one profiled run, a deep dive when one kernel dominates), then analyze and publish. analyze: turn capture files into one report and publish it. report: merge the report artifacts of a run (matrix legs, or the run that triggered a workflow_run) into one summary and one comment.',
    parse: oneOf(MODES),
    group: 'action',
  }),
  option({
    key: 'captures',
    input: 'captures',
    default: '',
    doc: 'Mode analyze: capture files or directories (newline- or comma-separated) to analyze into one report (required).',
    parse: list(),
    group: 'analyze',
    flag: { name: 'captures', commands: ['run'], value: 'GLOBS', help: 'command: capture files the workload writes (comma-separated globs)' },
  }),
  option({
    key: 'reportDir',
    input: 'report-dir',
    default: 'profile-gate',
    doc: 'Directory where report.json, report.md and context.json are written.',
    parse: nonEmpty('a directory'),
    group: 'publish',
  }),
  gateOption({
    key: 'failOn',
    input: 'fail-on',
    doc: 'Finding ids that fail the job (comma-separated; none for no id), when found at fail-on-severity or above (new since the baseline, when there is one).',
    flag: { name: 'fail-on', commands: GATE_COMMANDS, value: 'LIST', help: 'finding ids that fail the gate; none for no id' },
  }),
  gateOption({
    key: 'failOnSeverity',
    input: 'fail-on-severity',
    doc: 'The least severity of a fail-on finding that fails the job.',
    flag: { name: 'fail-on-severity', commands: GATE_COMMANDS, value: 'error|warning', help: 'the least severity of a fail-on finding that fails; one below it (at error, a warning: evidence that is not conclusive) warns' },
  }),
  gateOption({
    key: 'failVerdicts',
    input: 'fail-verdicts',
    doc: `The verdicts that fail the job (comma-separated, of ${FAILABLE_VERDICTS.join(', ')}; none for no verdict).`,
    flag: { name: 'fail-verdicts', commands: [...GATE_COMMANDS, 'report'], value: 'LIST', help: `verdicts that fail the job, of ${FAILABLE_VERDICTS.join(', ')}; none for no verdict` },
  }),
  option({
    key: 'key',
    input: 'key',
    default: '',
    doc: 'What tells this report from the others, e.g. the matrix leg\'s model and GPU.',
    parse: text,
    group: 'publish',
  }),
  option({
    key: 'comment',
    input: 'comment',
    default: 'auto',
    doc: 'auto: comment on pull request events (including a workflow_run triggered by one). always: comment whenever a pull request is known. on-regression: create a comment only when something needs attention (not a pass, new findings, comparison alerts); an existing one is still refreshed. off: never.',
    parse: oneOf(COMMENT_POLICIES),
    group: 'publish',
  }),
  option({
    key: 'commentAuthor',
    input: 'comment-author',
    default: 'github-actions[bot]',
    doc: 'Login the sticky comment is posted as; only a comment by this author is ever updated.',
    parse: matching(/^[A-Za-z0-9-]+(\[bot\])?$/, 'a GitHub login such as github-actions[bot]'),
    group: 'publish',
  }),
  option({
    key: 'dashboardUrl',
    input: 'dashboard-url',
    default: '',
    doc: 'URL of the profile-gate dashboard these reports feed (e.g. the GitHub Pages site of examples/nightly-dashboard.yml); the comment and the summary link it, naming the report\'s series.',
    parse: matching(/^(https?:\/\/\S+)?$/, 'an http(s) URL of the dashboard, e.g. https://OWNER.github.io/REPO/', true),
    group: 'publish',
    flag: { name: 'dashboard-url', commands: ['report'], value: 'URL', help: "the dashboard these reports feed, linked from the summary and the comment with the reports' series on it" },
  }),
  option({
    key: 'acceptLabel',
    input: 'accept-label',
    default: DEFAULT_ACCEPT_LABEL,
    doc: 'The pull request label by which a person with write access accepts an intended regression',
    parse: orNone(matching(/^[^\r\n,]{1,50}$/, 'a label name (up to 50 characters), or none', true)),
    group: 'publish',
  }),
  option({
    key: 'acceptCommand',
    input: 'accept-command',
    default: DEFAULT_ACCEPT_COMMAND,
    doc: 'The pull request comment command by which a person with write access accepts an intended regression',
    parse: orNone(matching(/^(none|\/[\w.-]+( [\w.-]+)*)$/, 'a command such as /profile-gate accept, or none', true)),
    group: 'publish',
  }),
  option({
    key: 'githubToken',
    input: 'github-token',
    default: '',
    doc: 'Token for comments (pull-requests write) and for other runs\' artifacts (actions read).',
    parse: text,
    group: 'action',
    secret: true,
  }),
  option({
    key: 'uploadArtifact',
    input: 'upload-artifact',
    default: 'true',
    doc: 'Upload report.json, report.md and context.json (and the captures) as an artifact of this run.',
    parse: booleanText,
    group: 'publish',
  }),
  option({
    key: 'uploadCaptures',
    input: 'upload-captures',
    default: 'true',
    doc: 'Upload what profile-gate wrote from the captures, in a second artifact named after the report\'s plus -captures: profile.json (kernels, families, steps, utilization, metrics) and, for each capture with a timeline, a clean trace (traces/N-FORMAT.trace.json, for ui.perfetto.dev or chrome://tracing) holding only event names and times, names redacted.',
    parse: booleanText,
    group: 'publish',
  }),
  option({
    key: 'uploadRawCaptures',
    input: 'upload-raw-captures',
    default: 'false',
    doc: 'Also upload the capture files and logs themselves (scrubbed copies) in the -captures artifact. They may expose what the workload or its profiler recorded: its environment, command line, host and file names, user metadata; secrets are searched for and removed, and a file that cannot be checked is withheld, but no search of arbitrary bytes is complete.',
    parse: booleanText,
    group: 'publish',
  }),
  option({
    key: 'uploadRawReports',
    input: 'upload-raw-reports',
    default: 'false',
    doc: 'Also upload the profilers\' own reports (.nsys-rep, .ncu-rep, .qdrep, Perfetto traces) as they are.',
    parse: booleanText,
    group: 'publish',
    flag: { name: 'raw-reports', commands: ['scrub'], switch: true, help: "keep the profilers' own reports (.nsys-rep, .ncu-rep, .qdrep, Perfetto), which embed the workload's whole environment" },
  }),
  option({
    key: 'redactEnv',
    input: 'redact-env',
    default: '',
    doc: 'Names of further environment variables whose values are secrets (comma or newline separated).',
    parse: list(/^[A-Za-z_][A-Za-z0-9_]*$/, 'environment variable names such as MODEL_URL'),
    group: 'action',
    flag: { name: 'redact-env', commands: ['scrub'], value: 'NAMES', help: 'further environment variables whose values are secrets (comma-separated)' },
  }),
  option({
    key: 'artifactName',
    input: 'artifact-name',
    default: '',
    emptyMeans: 'artifact-prefix followed by the key',
    doc: 'Name of the uploaded artifact.',
    parse: artifactName,
    group: 'publish',
  }),
  option({
    key: 'artifactPrefix',
    input: 'artifact-prefix',
    default: 'profile-gate-',
    doc: 'Prefix of report artifact names; mode report merges every artifact of the run whose name starts with it.',
    parse: artifactName,
    group: 'publish',
    flag: { name: 'prefix', commands: ['report', 'dashboard'], value: 'PREFIX', help: "prefix of report artifact names: report labels a report by its folder (the artifact) less it; dashboard downloads the artifacts whose name starts with it" },
  }),
  option({
    key: 'retentionDays',
    input: 'retention-days',
    default: '',
    emptyMeans: "the repository's setting",
    doc: 'Days the artifact is kept (1 to 90).',
    parse: optionalPositiveInt(90, '1 to 90 days'),
    group: 'publish',
  }),
  option({
    key: 'reports',
    input: 'reports',
    default: '',
    doc: 'Mode report only. report.json files or directories to merge instead of the run\'s artifacts.',
    parse: list(),
    group: 'report',
  }),
  option({
    key: 'runId',
    input: 'run-id',
    default: '',
    emptyMeans: 'the run that triggered this workflow_run, else this run',
    doc: 'Mode report only. The workflow run whose artifacts are merged.',
    parse: optionalPositiveInt(),
    group: 'report',
  }),
  option({
    key: 'allowUnreadableReports',
    input: 'allow-unreadable-reports',
    default: 'false',
    doc: 'Mode report. Merge the reports that can be read when some cannot (a newer profile-gate wrote them, a field is misspelt, an artifact is expired or too large); otherwise the job fails, naming them.',
    parse: booleanText,
    group: 'report',
    flag: { name: 'allow-unreadable-reports', commands: ['report'], switch: true, help: 'merge the reports that can be read when some cannot, each named in a warning (otherwise exit 2, naming the first)' },
  }),
  option({
    key: 'prNumber',
    input: 'pr-number',
    default: '',
    doc: 'The pull request to comment on, when the event does not say (e.g. workflow_dispatch).',
    parse: optionalPositiveInt(),
    group: 'publish',
  }),
  option({
    key: 'baseline',
    input: 'baseline',
    default: '',
    doc: "What the run is compared against. Empty or none: no baseline (the findings alone decide). artifact: the newest unexpired report artifact with this job's artifact name made on the default branch by this repository, from any workflow, found through the branch's newest 100 completed runs (needs actions: read; an unreadable one is skipped for the next). ab: the base build run in this job (mode run with base-workdir or base-run; also implied by them). Anything else: the path of a report.json.",
    parse: trimmed,
    group: 'baseline',
  }),
  option({
    key: 'baselineArtifactName',
    input: 'baseline-artifact-name',
    default: '',
    emptyMeans: "this job's own artifact name",
    doc: 'Name of the baseline artifact (baseline artifact).',
    parse: artifactName,
    group: 'baseline',
  }),
  option({
    key: 'baselineWorkflow',
    input: 'baseline-workflow',
    default: '',
    emptyMeans: 'any workflow of the repository',
    doc: 'With baseline artifact: only artifacts of this workflow\'s runs count (its file name, e.g. baseline-main.yml, or its id).',
    parse: matching(/^([\w.-]+\.ya?ml|\d+)?$/, 'a workflow file name such as baseline-main.yml, or a workflow id', true),
    group: 'baseline',
  }),
  option({
    key: 'ifNoCaptures',
    input: 'if-no-captures',
    default: DEFAULT_NO_CAPTURE_POLICY,
    doc: 'Mode analyze, when the capture paths hold no file (a typo, a step that wrote nothing): error fails the job (default), warn goes on with a warning, ignore goes on silently.',
    parse: oneOf(NO_CAPTURE_POLICIES),
    group: 'analyze',
    flag: { name: 'if-no-captures', commands: ['analyze'], value: 'error|warn|ignore', help: 'when the inputs hold no capture file: error fails, warn warns, ignore goes on silently' },
  }),
  gateOption({
    key: 'thresholds',
    input: 'thresholds',
    doc: `Gate thresholds, one per line (or comma-separated where a comma starts the next one, so kernel names keep theirs): METRIC=PCT is the practical floor of a metric in percent (decode_tok_s=3, ttft_ms=5); kernel-time:family:ID=+0.1ms or kernel-time:kernel:NAME=+100us the growth of GPU time per decode step that fails when the step did not get faster (every family and top kernel has such a row, by default ${DEFAULT_STEP_TIME_THRESHOLDS.failPct} % of the baseline's step); family:ID=PP or kernel:NAME=PP a share row whose growth fails, in percentage points; NAME is the full kernel name or the one the report shows.`,
    flag: { name: 'threshold', commands: GATE_COMMANDS, value: 'M=PCT', repeatable: true, help: 'practical floor of a metric in percent (decode_tok_s=3), a share threshold in percentage points (family:attention-fused=10), or a growth of GPU time per decode step (kernel-time:family:copy=+0.1ms, kernel-time:kernel:NAME=+100us, NAME full or as the report shows it); one per flag, repeatable' },
  }),
  gateOption({
    key: 'allowThrottled',
    input: 'allow-throttled',
    doc: 'Compare even when a side was throttled by a thermal or hardware reason, or ran under power conditions unlike the baseline\'s; otherwise the verdict is invalid.',
    flag: { name: 'allow-throttled', commands: GATE_COMMANDS, switch: true, help: "compare even when a side was throttled by a thermal or hardware reason, or under power conditions unlike the baseline's (otherwise the verdict is invalid)" },
  }),
  gateOption({
    key: 'allowEnvironmentMismatch',
    input: 'allow-environment-mismatch',
    doc: `Fingerprint keys allowed to differ from the baseline (${FINGERPRINT_KEYS.join(', ')}), or all.`,
    flag: { name: 'allow-environment-mismatch', commands: GATE_COMMANDS, value: 'KEYS|all', help: `compare although these fingerprint keys differ (${FINGERPRINT_KEYS.join(', ')})` },
  }),
  option({
    key: 'allowForkWorkloads',
    input: 'allow-fork-workloads',
    default: 'false',
    doc: 'Mode run: run the workload of a pull request from a fork.',
    parse: booleanText,
    group: 'action',
  }),
  option({
    key: 'analyzeTimeoutSeconds',
    input: 'analyze-timeout-seconds',
    default: '',
    emptyMeans: 'none',
    doc: 'Modes analyze and run. Time budget of reading the captures into a report; past it the step fails, naming the file it was reading.',
    parse: optionalPositiveSeconds,
    group: 'analyze',
    flag: { name: 'timeout', commands: ['analyze'], value: 'SECONDS', help: 'time budget of the analysis; past it, exit 2 with a line naming the file being read' },
  }),
  option({
    key: 'allowMixed',
    input: 'allow-mixed',
    default: 'false',
    doc: 'Merge captures that record different GPUs, vendors, engines or models (otherwise refused), with a warning in the report.',
    parse: booleanText,
    group: 'analyze',
    flag: { name: 'allow-mixed', commands: ['analyze'], switch: true, help: 'merge captures of different GPUs, vendors, engines or models (otherwise refused)' },
  }),
  option({
    key: 'strict',
    input: 'strict',
    default: 'false',
    doc: 'Fail when an input cannot be read: a file in a captures directory, or a capture path not found (where if-no-captures would let no file go on, too); in mode run, also when a planned kernel capture was not made (the profiled run wrote nothing).',
    parse: booleanText,
    group: 'analyze',
    flag: { name: 'strict', commands: ['analyze', 'run'], switch: true, help: 'fail on any input it cannot read: an unreadable file inside a directory, a path not found; in run, a planned capture the profiled run did not make (otherwise skipped, named in the verdict\'s first line)' },
  }),
  option({
    key: 'smiColumns',
    input: 'smi-columns',
    default: '',
    doc: 'The --query-gpu list of nvidia-smi logs written with --format=csv,noheader (e.g. timestamp,utilization.gpu,memory.used); such logs do not name their columns.',
    parse: smiColumns,
    group: 'analyze',
    flag: { name: 'smi-columns', commands: ['analyze'], value: 'LIST', help: 'the --query-gpu list of an nvidia-smi log written with --format=csv,noheader' },
  }),
  gateOption({
    key: 'overlapCheck',
    input: 'overlap-check',
    doc: 'A significant change past its floor is undecided (insufficient-data) instead of failing when the sides overlap (two clock or power states) or the slower side is noisy (a neighbour); the reason names the runs.',
    flag: { name: 'overlap-check', commands: GATE_COMMANDS, value: 'true|false', help: "hold a significant change back (undecided) when the sides' runs overlap or the slower side is noisy" },
  }),
  gateOption({
    key: 'dropOutliers',
    input: 'drop-outliers',
    doc: 'Leave out the runs below a side\'s fast cluster (stalls: a competing process, a busy neighbour, a page-cache miss), as many of each side and at most 40% of the smaller side, name them in the report, and compare the kept runs.',
    flag: { name: 'drop-outliers', commands: GATE_COMMANDS, value: 'true|false', help: "leave out the runs below a side's fast cluster, e.g. stalls, as many of each side, and compare the kept runs" },
  }),
  gateOption({
    key: 'sharedGpu',
    input: 'shared-gpu',
    doc: 'When the GPU sampler sees another process using the GPU during measured runs: refuse (decide on the runs it left alone when enough remain on both sides, else undecided: insufficient-data naming the process) or ignore (decide on every run and name the sharing).',
    flag: { name: 'shared-gpu', commands: GATE_COMMANDS, value: 'refuse|ignore', help: 'runs another process shared the GPU with: refuse (decide on the other runs, else undecided) or ignore' },
  }),
  option({
    key: 'ruleOptions',
    input: 'rule-options',
    default: '',
    doc: 'Options of the diagnosis rules, RULE.OPTION=VALUE (comma- or newline-separated), e.g. copy-heavy.minCopyShare=0.3; each rule\'s reference page lists its options and defaults.',
    parse: parseRuleOptions,
    group: 'diagnose',
    flag: { name: 'rule-option', commands: GATE_COMMANDS, value: 'R.K=V', repeatable: true, help: "a rule's option, e.g. copy-heavy.minCopyShare=0.3 (the rule's reference page lists them); repeatable" },
  }),
] as const;

type Row = (typeof OPTIONS)[number];
export type OptionKey = Row['key'];
/** Every option's value, parsed. */
export type OptionValues = { [R in Row as R['key']]: R extends OptionRow<string, infer T> ? T : never };
/** The options the action has an input for. */
export type InputKey = (Row & { input: string })['key'];

/** The gate's options a user sets: their fields are the gate's own (compare/gate-options.ts), each a row. */
export const GATE_KEYS: readonly GateOptionKey[] = GATE_OPTION_KEYS;
export type GateValues = Pick<OptionValues, GateOptionKey>;

/** The gate's options from the values read (the rest of the gate's options keep their defaults). */
export function gateOf(values: GateValues): GateValues {
  const gate = {} as GateValues;
  for (const key of GATE_KEYS) assign(gate, values, key);
  return gate;
}

function assign<T, K extends keyof T>(to: T, from: T, key: K): void {
  to[key] = from[key];
}

/**
 * The options of `run` (mode run, `profile-run`): read as text, and parsed together by the runner
 * (runner/run-options.ts), since one decides what another means. `captures` is the row above.
 * The runner's spec of each gives its value, its default and the engines it applies to; the row
 * gives the input, the flag and the words, and its help states the spec's default.
 */
export type RunRow = OptionRow<RunOptionName, string>;
function runOption(row: Omit<RunRow, 'key' | 'parse' | 'default' | 'emptyMeans'> & { input: RunOptionName }): RunRow {
  const shown = runOptionDefault(row.input);
  return withStatedDefault({ ...row, key: row.input, default: '', parse: text, ...(shown !== undefined ? { emptyMeans: shown } : {}) });
}

export const RUN_OPTIONS: readonly RunRow[] = [
  runOption({ input: 'engine', group: 'run', doc: 'Mode run: max (Modular MAX: max generate, or max serve + max benchmark) or command (any workload).', flag: { name: 'engine', commands: ['run'], value: 'max|command', help: 'what to run' } }),
  runOption({ input: 'model', group: 'run', doc: 'Mode run, engine max. The model to run (a Hugging Face id or a path).', flag: { name: 'model', commands: ['run'], value: 'ID|PATH', help: 'MAX: the model (required); command: a label for the report' } }),
  runOption({ input: 'max-mode', group: 'run', doc: 'Mode run, engine max: generate or serve.', flag: { name: 'max-mode', commands: ['run'], value: 'generate|serve', help: 'MAX: max generate, or max serve + max benchmark' } }),
  runOption({ input: 'max-args', group: 'run', doc: 'Mode run, engine max. Extra arguments for max generate / max serve (shell words).', flag: { name: 'max-args', commands: ['run'], value: '"ARGS"', help: 'MAX: extra arguments for max generate / max serve' } }),
  runOption({ input: 'prompt', group: 'run', doc: 'Mode run, engine max generate. The prompt.', flag: { name: 'prompt', commands: ['run'], value: 'TEXT', help: 'MAX generate: the prompt' } }),
  runOption({ input: 'max-new-tokens', group: 'run', doc: 'Mode run, engine max generate. Tokens to generate per run.', flag: { name: 'max-new-tokens', commands: ['run'], value: 'N', help: 'MAX: tokens per generation' } }),
  runOption({ input: 'custom-architectures', group: 'run', doc: 'Mode run, engine max. Custom architecture modules (paths or IMPORT_PATH:MODULE), checked in a pre-flight before any run.', flag: { name: 'custom-architectures', commands: ['run'], value: 'LIST', help: 'MAX: --custom-architectures entries (comma-separated), checked first' } }),
  runOption({ input: 'benchmark-args', group: 'run', doc: 'Mode run, max-mode serve. Arguments for max benchmark.', flag: { name: 'benchmark-args', commands: ['run'], value: '"ARGS"', help: 'MAX serve: arguments for max benchmark' } }),
  runOption({ input: 'run', group: 'run', doc: 'Mode run, engine command. The workload command; it prints metric lines ({"metric":"decode_tok_s","value":N}).', flag: { name: 'run', commands: ['run'], value: '"COMMAND"', help: 'command: the workload command line' } }),
  runOption({ input: 'profile-run', group: 'run', doc: 'Mode run, engine command. The command for the profiled run, when it differs from run.', flag: { name: 'profile-run', commands: ['run'], value: '"COMMAND"', help: 'command: the variant to run once for the profile' } }),
  runOption({ input: 'warmup-runs', group: 'run', doc: 'Mode run. Unprofiled warm-up runs before anything is measured.', flag: { name: 'warmup-runs', commands: ['run'], value: 'N', help: 'unmeasured runs first' } }),
  runOption({ input: 'runs', group: 'run', doc: 'Mode run. Measured repeats (samples for the gate).', flag: { name: 'runs', commands: ['run'], value: 'N', help: 'measured runs' } }),
  runOption({ input: 'profiler', group: 'run', doc: 'Mode run: auto, max, nsys, rocprofv3, torch or none.', flag: { name: 'profiler', commands: ['run'], value: 'auto|max|nsys|rocprofv3|torch|none', help: 'the kernel profiler' } }),
  runOption({ input: 'capture-seconds', group: 'run', doc: 'Mode run, max-mode serve. Length in seconds of each max benchmark window, the profiled one included.', flag: { name: 'capture-seconds', commands: ['run'], value: 'S', help: 'MAX serve: length of each benchmark window, the profiled one included' } }),
  runOption({ input: 'deep-dive', group: 'run', doc: 'Mode run: auto (Nsight Compute on the dominant kernel only when one dominates), off or always.', flag: { name: 'deep-dive', commands: ['run'], value: 'auto|off|always', help: 'Nsight Compute on the dominant kernel' } }),
  runOption({ input: 'timeout-minutes', group: 'run', doc: 'Mode run. Time budget of the whole run; steps past it are stopped.', flag: { name: 'timeout-minutes', commands: ['run'], value: 'M', help: 'time budget of the whole run' } }),
  runOption({ input: 'base-workdir', group: 'ab', doc: 'Mode run, A/B. A checkout of the base commit (e.g. actions/checkout with ref the PR\'s base and path base).', flag: { name: 'base-workdir', commands: ['run'], value: 'DIR', help: 'a checkout of the base commit: the same workload runs there, its measured runs interleaved with the head\'s (ABBA)' } }),
  runOption({ input: 'base-run', group: 'ab', doc: 'Mode run, A/B, engine command. The base side\'s workload command, when it differs from run (runs in base-workdir, else here).', flag: { name: 'base-run', commands: ['run'], value: '"COMMAND"', help: 'command: the base side\'s workload command, when it differs' } }),
  runOption({ input: 'max-runs', group: 'ab', doc: 'Mode run, A/B. While a gated metric is undecided after the planned runs (the sides overlap, or too few or not significant runs), ABBA pairs are added up to this many measured runs per side, within timeout-minutes; the test\'s alpha is spent over the looks.', flag: { name: 'max-runs', commands: ['run'], value: 'N', help: 'while a gated metric is undecided, add ABBA pairs up to N measured runs per side, within the time budget' } }),
  runOption({ input: 'allow-no-gpu', group: 'run', doc: 'Mode run. With no GPU found (nvidia-smi and rocm-smi list none), the plan fails and nothing runs (GPU sampling, and any profiler but none, need a GPU); true runs anyway and measures throughput only.', flag: { name: 'allow-no-gpu', commands: ['run'], switch: true, help: 'run although no GPU is found (throughput only); otherwise no GPU with a profiler (any but none) or GPU sampling planned stops the plan, exit 2' } }),
];

/** Every row: the values' and the run options'. */
export const ALL_OPTIONS: readonly OptionRow[] = [...OPTIONS, ...RUN_OPTIONS];

