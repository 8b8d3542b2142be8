/**
 * The option table is the one place an option is declared: action.yml's inputs match its rows
 * exactly (names, defaults, the start of each description), every default reads, each door names
 * the option as its user spells it, and references/options.md is the table rendered.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { UsageError } from '../../src/errors.js';
import { DEFAULT_FAIL_ON_TEXT, DEFAULT_METRIC_FLOORS_PCT, GATE_OPTION_KEYS, GATE_OPTION_SPECS, parseGateOptions, type GateOptionKey, type GateOptionSpec, type GateOptionValue } from '../../src/compare/gate-options.js';
import { DEFAULT_FAIL_ON } from '../../src/compare/verdict.js';
import { actionText, flagOptions, optionName, readFlags, readOptions, runFlagTexts, runOptionTexts } from '../../src/options/read.js';
import { ALL_OPTIONS, COMMANDS, GATE_KEYS, OPTIONS, RUN_OPTIONS, statedDefault, type OptionGroup, type OptionRow } from '../../src/options/table.js';
import { parseRunOptions, RUN_OPTION_NAMES, runOptionDefault } from '../../src/runner/run-options.js';
import { ROOT } from '../helpers/fake-github-runner.js';

type ActionInputs = Record<string, { description: string; default?: string }>;
const ACTION = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { inputs: ActionInputs };
const PAGE = join(ROOT, 'references', 'options.md');

const GROUPS: ReadonlyArray<[OptionGroup, string]> = [
  ['output', 'Output (CLI)'],
  ['action', 'The action'],
  ['analyze', 'Reading the captures (mode analyze, `profile-gate analyze`)'],
  ['run-metadata', 'Run metadata (`profile-gate analyze`)'],
  ['gate', 'The gate'],
  ['diagnose', 'Diagnosis'],
  ['baseline', 'The baseline (action)'],
  ['publish', 'Publishing (action)'],
  ['report', 'Mode report (action)'],
  ['merge', '`profile-gate report` (CLI)'],
  ['dashboard', '`profile-gate dashboard` (CLI)'],
  ['artifacts', '`profile-gate dashboard --from-artifacts` (CLI)'],
  ['run', 'Mode run, `profile-gate run`'],
  ['ab', 'A/B in one job (mode run, `profile-gate run`)'],
  ['run-output', '`profile-gate run` (CLI)'],
];

const cell = (text: string) => text.replace(/\|/g, '\\|');

/** references/options.md: every row, by group. */
function renderPage(): string {
  const lines = [
    '# Options',
    '',
    '<!-- Generated from src/options/table.ts: UPDATE_OPTIONS_PAGE=1 npm test -- __tests__/options/table.test.ts -->',
    '',
    'Every option of the action (its input) and of the CLI (its flag), one row each. An empty input, or',
    'a flag not given, takes the default (a flag with environment variables, `$NAME`, takes the first set',
    'before it); an empty default is derived at run time (the description in `action.yml` or the flag\'s',
    'help says how). A bad value fails with one line naming the input or the flag, exit code 2.',
    '',
  ];
  for (const [group, title] of GROUPS) {
    const rows = ALL_OPTIONS.filter((row) => row.group === group);
    lines.push(`## ${title}`, '', '| input | flag | default | meaning |', '|---|---|---|---|');
    for (const row of rows) {
      const flag = row.flag ? `\`--${row.flag.name}${row.flag.value ? ` ${row.flag.value}` : ''}\` (${row.flag.commands.join(', ')})` : '';
      const given = [...(row.env ?? []).map((name) => `$${name}`), ...(row.default ? [row.default] : [])].map((text) => `\`${text}\``).join(', then ');
      const defaults = row.emptyMeans ? (given ? `${given}, else ${row.emptyMeans}` : row.emptyMeans) : given;
      lines.push(`| ${row.input ? `\`${row.input}\`` : ''} | ${cell(flag)} | ${cell(defaults)} | ${cell(row.doc)} |`);
    }
    lines.push('');
  }
  return lines.join('\n');
}

/**
 * What action.yml says against the rows, one line each: an input without its row or a row without
 * its input, a default other than the row's, a description that does not start with the row's line
 * or does not state what empty means.
 */
function actionYmlProblems(inputs: ActionInputs): string[] {
  const rows = ALL_OPTIONS.filter((row): row is OptionRow & { input: string } => row.input !== undefined);
  const problems = Object.keys(inputs)
    .filter((name) => !rows.some((row) => row.input === name))
    .map((name) => `input '${name}': no row`);
  for (const row of rows) {
    const declared = inputs[row.input];
    if (!declared) {
      problems.push(`input '${row.input}': not in action.yml`);
      continue;
    }
    const fromYml = declared.default === '${{ github.token }}' ? '' : (declared.default ?? '');
    if (fromYml !== row.default) problems.push(`input '${row.input}': default ${JSON.stringify(fromYml)}, the row's ${JSON.stringify(row.default)}`);
    if (!declared.description.startsWith(row.doc)) problems.push(`input '${row.input}': the description does not start with the row's line`);
    if (row.emptyMeans !== undefined && !declared.description.includes(`Empty means ${row.emptyMeans}`)) problems.push(`input '${row.input}': the description does not say Empty means ${row.emptyMeans}`);
    if (row.emptyMeans === undefined && declared.description.includes('Empty means')) problems.push(`input '${row.input}': the description says what empty means, the row does not (emptyMeans)`);
    // `error fails the job (default)`, `error (the default)`: the value its clause starts with.
    for (const match of declared.description.matchAll(/([^.;:,]*)\((?:the )?default\)/g)) {
      const named = match[1]!.trim().split(/\s+/)[0];
      if (named !== row.default) problems.push(`input '${row.input}': the description calls ${JSON.stringify(named)} the default, the row's is ${JSON.stringify(row.default)}`);
    }
  }
  return problems;
}

/** A value of each gate option other than its default, each way it may be written. */
const GATE_VALUES: { [K in GateOptionKey]: ReadonlyArray<GateOptionValue<K>> } = {
  thresholds: [{ decode_tok_s: 4, ttft_ms: 5.5, 'family:copy': 10, 'kernel-time:family:copy': 0.1, 'kernel:rms_norm_kernel(c10::BFloat16 *, float)': 2 }],
  failOn: [[], ['unfused-attention', 're-prefill']],
  failOnSeverity: ['warning'],
  failVerdicts: [[], ['fail', 'invalid', 'insufficient-data']],
  allowThrottled: [true],
  allowEnvironmentMismatch: [true, ['driver', 'cuda']],
  overlapCheck: [false],
  dropOutliers: [false],
  sharedGpu: ['ignore'],
};

describe('the option table', () => {
  it('action.yml agrees with the rows, and a deliberate disagreement is found', () => {
    expect(actionYmlProblems(ACTION.inputs)).toEqual([]);
    const changed = (name: string, input: Partial<ActionInputs[string]>): ActionInputs => ({ ...ACTION.inputs, [name]: { ...ACTION.inputs[name]!, ...input } });
    expect(actionYmlProblems(changed('drop-outliers', { default: 'false' }))).toEqual([`input 'drop-outliers': default "false", the row's "true"`]);
    expect(actionYmlProblems(changed('fail-on', { default: 're-prefill' }))).toEqual([`input 'fail-on': default "re-prefill", the row's "re-prefill,unfused-attention"`]);
    const runs = ACTION.inputs['runs']!.description;
    expect(actionYmlProblems(changed('runs', { description: runs.replace('Empty means 5', 'Empty means 4') }))).toEqual(["input 'runs': the description does not say Empty means 5"]);
    const strict = ACTION.inputs['strict']!.description;
    expect(actionYmlProblems(changed('strict', { description: `${strict} Empty means false.` }))).toEqual(["input 'strict': the description says what empty means, the row does not (emptyMeans)"]);
    expect(actionYmlProblems(changed('overlap-check', { description: 'Compare runs.' }))).toEqual(["input 'overlap-check': the description does not start with the row's line"]);
    const severity = ACTION.inputs['fail-on-severity']!.description;
    expect(severity).toContain('error (the default)');
    expect(actionYmlProblems(changed('fail-on-severity', { description: severity.replace('error (the default)', 'warning (the default)') }))).toEqual([
      `input 'fail-on-severity': the description calls "warning" the default, the row's is "error"`,
    ]);
    const { 'allow-throttled': _dropped, ...without } = ACTION.inputs;
    expect(actionYmlProblems({ ...without, 'allow-throttle': ACTION.inputs['allow-throttled']! })).toEqual(["input 'allow-throttle': no row", "input 'allow-throttled': not in action.yml"]);
  });

  it("the regression-gate reference's table of options gives each gate option's default from its spec", () => {
    const page = readFileSync(join(ROOT, 'references', 'steps', 'regression-gate.md'), 'utf8');
    const section = page.slice(page.indexOf('## Options and defaults'), page.indexOf('\n## ', page.indexOf('## Options and defaults') + 1));
    const cell = (key: string) => section.split('\n').find((line) => line.startsWith('|') && line.split('|')[1]!.includes(`\`${key}\``))?.split('|')[2]!.trim();
    for (const key of GATE_OPTION_KEYS) {
      const value: unknown = GATE_OPTION_SPECS[key].default;
      // The thresholds' cell gives the metrics' floors that apply when none is given.
      const expected = key === 'thresholds' ? Object.entries(DEFAULT_METRIC_FLOORS_PCT).map(([metric, pct]) => `${metric} ${pct}`).join(', ') : Array.isArray(value) ? value.join(', ') : String(value);
      expect([key, cell(key)]).toEqual([key, expected]);
    }
  });

  it("a flag's help states its row's default, once, at its end: none is written by hand", () => {
    const stated = (row: OptionRow) => (row.flag!.switch ? undefined : statedDefault(row));
    const mentions = (help: string) => help.match(/\bdefault\b/g)?.length ?? 0;
    for (const row of ALL_OPTIONS.filter((r) => r.flag)) {
      const shown = stated(row);
      expect([row.key, mentions(row.flag!.help), shown === undefined || row.flag!.help.endsWith(`(default ${shown})`)]).toEqual([row.key, shown === undefined ? 0 : 1, true]);
    }
    // What the help states is the row's: its variables, then its default or what empty means.
    const row = (key: string) => ALL_OPTIONS.find((r) => r.key === key)!;
    expect(row('failOn').flag!.help).toBe('finding ids that fail the gate; none for no id (default re-prefill,unfused-attention)');
    expect(row('commit').flag!.help).toBe('the commit measured (default $GITHUB_SHA, else git rev-parse HEAD)');
    expect(row('dashboardTitle').flag!.help).toBe("the page title (default 'profile-gate dashboard')");
    expect(row('runs').flag!.help).toBe('measured runs (default 5)');
    expect(row('allowThrottled').flag!.help).not.toMatch(/default/);
  });

  it("a gate option's row is the gate's spec: its default written from the spec, read back by the row's parser and the gate's schema", () => {
    expect([...GATE_KEYS]).toEqual(GATE_OPTION_KEYS);
    const gate = parseGateOptions({});
    for (const key of GATE_OPTION_KEYS) {
      const row = OPTIONS.find((r) => r.key === key) as OptionRow;
      const spec: GateOptionSpec = GATE_OPTION_SPECS[key];
      expect([key, row.input !== undefined, row.flag !== undefined, row.group]).toEqual([key, true, true, 'gate']);
      expect([key, row.default]).toEqual([key, spec.write(spec.default)]);
      expect([key, row.parse(row.default, key)]).toEqual([key, gate[key]]);
      for (const value of GATE_VALUES[key] as readonly unknown[]) {
        const text = spec.write(value);
        expect([key, text, row.parse(text, key)]).toEqual([key, text, value]);
        expect([key, parseGateOptions({ [key]: value })[key]]).toEqual([key, value]);
      }
    }
  });

  it('action.yml declares exactly its inputs, with the same defaults and descriptions that start with its lines', () => {
    const inputs = ALL_OPTIONS.filter((row): row is OptionRow & { input: string } => row.input !== undefined);
    expect(Object.keys(ACTION.inputs).sort()).toEqual(inputs.map((row) => row.input).sort());
    for (const row of inputs) {
      const declared = ACTION.inputs[row.input]!;
      const fromYml = declared.default === '${{ github.token }}' ? '' : (declared.default ?? '');
      expect([row.input, fromYml]).toEqual([row.input, row.default]);
      expect([row.input, declared.description.startsWith(row.doc)]).toEqual([row.input, true]);
    }
  });

  it('has a row for each run option of the runner, and one row per input and per flag of a command', () => {
    expect(RUN_OPTIONS.map((row) => row.input).concat('captures').sort()).toEqual([...RUN_OPTION_NAMES].sort());
    const inputs = ALL_OPTIONS.flatMap((row) => (row.input !== undefined ? [row.input] : []));
    expect(new Set(inputs).size).toBe(inputs.length);
    expect(new Set(ALL_OPTIONS.map((row) => row.key)).size).toBe(ALL_OPTIONS.length);
    // Each row reaches a user: through an input, a flag, or both.
    expect(ALL_OPTIONS.filter((row) => row.input === undefined && row.flag === undefined)).toEqual([]);
    for (const command of COMMANDS) {
      const flags = ALL_OPTIONS.filter((row) => row.flag?.commands.includes(command)).map((row) => row.flag!.name);
      expect(new Set(flags).size).toBe(flags.length);
      expect(Object.keys(flagOptions(command))).toEqual(flags);
    }
  });

  it("a run option's default is the runner's spec: the flag's help and action.yml state it, and the runner fills it", () => {
    const filled = parseRunOptions({ model: 'm' });
    for (const row of RUN_OPTIONS) {
      const shown = runOptionDefault(row.key);
      expect([row.input, row.emptyMeans]).toEqual([row.input, shown]);
      if (shown === undefined) continue;
      expect([row.input, ACTION.inputs[row.input!]!.description.includes(`Empty means ${shown}`)]).toEqual([row.input, true]);
      if (!row.flag!.switch) expect([row.input, row.flag!.help.endsWith(`(default ${shown})`)]).toEqual([row.input, true]);
    }
    expect([filled.runs, filled.warmupRuns, filled.maxNewTokens, filled.captureSeconds, filled.timeoutMinutes]).toEqual(
      ['runs', 'warmup-runs', 'max-new-tokens', 'capture-seconds', 'timeout-minutes'].map((name) => Number(runOptionDefault(name as never))),
    );
    expect([filled.engine, filled.mode, filled.profiler, filled.deepDive, String(filled.allowNoGpu)]).toEqual(
      ['engine', 'max-mode', 'profiler', 'deep-dive', 'allow-no-gpu'].map((name) => runOptionDefault(name as never)),
    );
  });

  it("both doors read the runner's options through their rows, by the runner's names", () => {
    const inputs: Record<string, string> = { engine: 'command', run: 'python bench.py', captures: 'traces/*.json', runs: '4', 'allow-no-gpu': 'true' };
    const fromAction = runOptionTexts(actionText((name) => inputs[name] ?? ''));
    expect(Object.keys(fromAction).sort()).toEqual([...RUN_OPTION_NAMES].sort());
    const fromFlags = runFlagTexts({ engine: 'command', run: 'python bench.py', captures: 'traces/*.json', runs: '4', 'allow-no-gpu': true, quiet: true });
    expect(fromFlags).toEqual(inputs);
    expect(parseRunOptions(fromAction, 'input')).toEqual(parseRunOptions(fromFlags, 'cli'));
    expect(runFlagTexts({ 'allow-no-gpu': false })).toEqual({});
  });

  it("a gate option's row default is the gate's own default", () => {
    const { values } = readOptions((row) => row.default, 'action');
    const gate = parseGateOptions({});
    for (const key of GATE_KEYS) expect([key, values[key]]).toEqual([key, gate[key]]);
  });

  it('reads every default, at both doors', () => {
    const { problems } = readOptions((row) => row.default, 'action');
    expect(problems).toEqual([]);
    expect(() => readFlags({}, 'analyze')).not.toThrow();
    expect(readFlags({}, 'run').failOn).toEqual([...DEFAULT_FAIL_ON]);
    expect(OPTIONS.find((row) => row.key === 'failOn')!.default).toBe(DEFAULT_FAIL_ON_TEXT);
  });

  it('names the option as the user spells it at each door, with no rewriting', () => {
    const failOn = OPTIONS.find((row) => row.key === 'failOn') as OptionRow;
    expect(optionName(failOn, 'action')).toBe("input 'fail-on'");
    expect(optionName(failOn, 'cli')).toBe('--fail-on');
    const timeout = OPTIONS.find((row) => row.key === 'analyzeTimeoutSeconds') as OptionRow;
    expect(() => readFlags({ timeout: 'soon' }, 'analyze')).toThrow(new UsageError('--timeout: expected a positive number of seconds, got "soon"'));
    const { problems } = readOptions(actionText((name) => (name === timeout.input ? 'soon' : '')), 'action');
    expect(problems).toEqual([`input 'analyze-timeout-seconds': expected a positive number of seconds, got "soon"`]);
    // An action input read empty is the default, as the runner applies action.yml's.
    expect(readOptions(actionText(() => ''), 'action').values.ifNoCaptures).toBe('error');
  });

  it('a flag absent or empty takes its environment variables, then its default, for the commands that take it', () => {
    const env = { GITHUB_REPOSITORY: 'octo/app', GITHUB_SHA: 'f'.repeat(40) };
    expect(readFlags({}, 'dashboard', env).repo).toBe('octo/app');
    expect(readFlags({ repo: '' }, 'dashboard', env).repo).toBe('octo/app');
    expect(readFlags({ repo: 'a/b' }, 'dashboard', env).repo).toBe('a/b');
    expect(readFlags({}, 'dashboard', { GITHUB_REPOSITORY: '' }).repo).toBeUndefined();
    expect(readFlags({}, 'analyze', env).commit).toBe('f'.repeat(40));
    // A command without the flag reads no variable for it.
    expect(readFlags({}, 'analyze', env).repo).toBeUndefined();
    expect(readFlags({}, 'report', env).commit).toBeUndefined();
  });

  it('an option both doors take is one row, one parser: report, dashboard and scrub check what the action checks', () => {
    expect(() => readFlags({ prefix: 'a/b' }, 'report', {})).toThrow(new UsageError('--prefix: expected an artifact name without " : < > | * ? / \\ or newlines, got "a/b"'));
    expect(() => readFlags({ 'redact-env': 'MODEL_URL,not a name' }, 'scrub', {})).toThrow(new UsageError('--redact-env: expected environment variable names such as MODEL_URL, got "not a name"'));
    expect(readFlags({ 'redact-env': 'MODEL_URL, HF_ENDPOINT', 'raw-reports': true }, 'scrub', {})).toMatchObject({ redactEnv: ['MODEL_URL', 'HF_ENDPOINT'], uploadRawReports: true });
    expect(readFlags({}, 'report', {})).toMatchObject({ artifactPrefix: 'profile-gate-', commentKey: 'report', failVerdicts: ['fail', 'invalid'] });
    expect(readFlags({}, 'dashboard', {})).toMatchObject({ dashboardTop: 10, minChange: 0.02, limit: 60, workflowBranch: 'main', events: ['push', 'schedule'] });
  });

  it('rule options: a flag and an input, checked against the rule\'s declared options', () => {
    expect(readFlags({ 'rule-option': ['copy-heavy.minCopyShare=0.5', 'dominant-kernel.workload=python run.py --a,b'] }, 'analyze').ruleOptions).toEqual({
      'copy-heavy': { minCopyShare: 0.5 },
      'dominant-kernel': { workload: 'python run.py --a,b' },
    });
    const { problems } = readOptions(actionText((name) => (name === 'rule-options' ? 'copy-heavy.minShare=0.5' : '')), 'action');
    expect(problems).toEqual(["input 'rule-options': copy-heavy.minShare=0.5: rule copy-heavy has no option 'minShare' (known: minCopyShare)"]);
  });

  it('references/options.md names every value an input of a closed set accepts, in its row', () => {
    const page = readFileSync(PAGE, 'utf8').split('\n');
    const unnamed: string[] = [];
    for (const row of ALL_OPTIONS.filter((r) => r.input)) {
      let accepted: string[] = [];
      try {
        row.parse('\u0000not-a-value', row.input!);
      } catch (error) {
        accepted = /expected one of ([\w, -]+?), got/.exec((error as Error).message)?.[1]?.split(', ') ?? [];
      }
      if (accepted.length === 0 || accepted.length > 10) continue;
      const line = page.find((l) => l.startsWith(`| \`${row.input}\` |`))!;
      for (const value of accepted) if (!new RegExp(`(^|[^\\w-])${value}([^\\w-]|$)`).test(line)) unnamed.push(`${row.input}: ${value}`);
    }
    expect(unnamed).toEqual([]);
  });

  it('references/options.md is the table rendered', () => {
    const page = renderPage();
    if (process.env['UPDATE_OPTIONS_PAGE'] === '1') writeFileSync(PAGE, page);
    expect(readFileSync(PAGE, 'utf8')).toBe(page);
    for (const row of ALL_OPTIONS) expect(page).toContain(row.input ? `| \`${row.input}\` |` : `\`--${row.flag!.name}`);
  });
});
