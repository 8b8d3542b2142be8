/**
 * The gate flags: rows of the one option table (src/options/table.ts) read by analyze, run and the
 * action's inputs, so every door takes every gate flag; and the fail-on default written once,
 * which action.yml must repeat.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { DEFAULT_FAIL_ON_TEXT, DEFAULT_FAIL_VERDICTS_TEXT, type GateOptionsInput } from '../../src/compare/gate-options.js';
import { actionText, readOptions } from '../../src/options/read.js';
import { GATE_KEYS, gateOf, OPTIONS } from '../../src/options/table.js';
import { DEFAULT_FAIL_ON, DEFAULT_FAIL_ON_SEVERITY, DEFAULT_FAIL_VERDICTS } from '../../src/compare/verdict.js';
import { FINDING_IDS } from '../../src/model/finding-ids.js';
import { ProcessGroups } from '../../src/runner/process-group.js';
import { cli, runCli } from '../helpers/cli.js';
import { emptyReport } from '../helpers/empty-report.js';
import { RECORDED_NSYS_STATS, standInProbe, standInPythonDir, standInToolsDir, tempDir, TINY_WORKLOAD } from '../runner/stand-ins.js';

const ROOT = join(import.meta.dirname, '..', '..');
const healthyNsys = join(ROOT, '__tests__', 'fixtures', 'h200-captures', 'healthy_decode', 'healthy_node.stats_kern_api.csv');
const ACTION = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { inputs: Record<string, { default?: string }> };

/** Every gate flag set to a value that differs from its default. */
const ALL_FLAGS = [
  '--threshold',
  'decode_tok_s=4',
  '--fail-on',
  'unfused-attention',
  '--fail-on-severity',
  'warning',
  '--fail-verdicts',
  'fail,invalid,insufficient-data',
  '--allow-throttled',
  '--allow-environment-mismatch',
  'driver,cuda',
  '--overlap-check',
  'false',
  '--drop-outliers',
  'false',
  '--shared-gpu',
  'ignore',
];
const EXPECTED: GateOptionsInput = {
  thresholds: { decode_tok_s: 4 },
  failOn: ['unfused-attention'],
  failOnSeverity: 'warning',
  failVerdicts: ['fail', 'invalid', 'insufficient-data'],
  allowThrottled: true,
  allowEnvironmentMismatch: ['driver', 'cuda'],
  overlapCheck: false,
  dropOutliers: false,
  sharedGpu: 'ignore',
};

beforeAll(() => {
  process.env.STAND_IN_NSYS_STATS = RECORDED_NSYS_STATS;
});
afterAll(() => {
  delete process.env.STAND_IN_NSYS_STATS;
});

describe('gate flags', () => {
  it('run hands every gate flag to the analysis, --drop-outliers and --allow-environment-mismatch included, and --rule-option', async () => {
    const tools = standInToolsDir();
    const seen: unknown[] = [];
    const work = tempDir('gate-flags');
    const argv = ['--engine', 'command', '--run', `python3 ${TINY_WORKLOAD} --steps 1 --step-ms 1`, '--runs', '1', '--warmup-runs', '0', '--deep-dive', 'off', '--out', 'o', '--quiet', ...ALL_FLAGS, '--rule-option', 'copy-heavy.minCopyShare=0.5'];
    const { code, stderr } = await runCli(argv, {
      probe: standInProbe({ vendor: 'nvidia', nsys: tools.nsys, ncu: tools.ncu }),
      pythonDir: standInPythonDir({ snapshot: false }),
      cwd: work,
      groups: new ProcessGroups({ graceMs: 300 }),
      analyze: async (_inputs, _environment, _which, gate) => {
        seen.push(gate);
        return emptyReport();
      },
    });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    // fail-on travels with the other gate options: one value, read once.
    // The report's run block comes along too: a command workload is named by its command.
    expect(seen).toEqual([{ baseline: null, gate: EXPECTED, ruleOptions: { 'copy-heavy': { minCopyShare: 0.5 } }, run: expect.objectContaining({ workload: expect.stringMatching(/^python3 \S/) }) }]);
  });

  it('analyze takes every gate flag, and reads each one (a bad value is refused naming the flag)', async () => {
    const ok = await cli(['analyze', '--json', '-', ...ALL_FLAGS, healthyNsys]);
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    for (const [flag, bad, message] of [
      ['--drop-outliers', 'maybe', '--drop-outliers: expected true or false, got "maybe"'],
      ['--allow-environment-mismatch', 'gpu', "--allow-environment-mismatch: unknown environment key 'gpu'"],
      // Before, a misspelt id was taken and never matched: the gate was off without a word.
      ['--fail-on', 'unfused-atention', `--fail-on: unknown finding id 'unfused-atention' (known: ${FINDING_IDS.join(', ')})`],
      ['--fail-on-severity', 'info', '--fail-on-severity: expected one of error, warning, got "info"'],
      ['--fail-verdicts', 'fail,passed', "--fail-verdicts: unknown verdict 'passed' (known: fail, invalid, insufficient-data, warn, accepted; none for no verdict)"],
    ] as const) {
      const { code, stderr } = await cli(['analyze', '--json', '-', flag, bad, healthyNsys]);
      expect(code).toBe(2);
      expect(stderr).toContain(message);
      expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    }
  });

  it('an empty flag value takes the default, as an empty input does: --fail-on "$UNSET" never turns the gate off', async () => {
    const samples = join(ROOT, 'samples', 'current');
    // samples/current holds unfused attention at error: in the default fail-on, the gate fails.
    const plain = await cli(['analyze', '--json', '-', samples]);
    expect(plain.code).toBe(1);
    for (const [flag, value] of [['--fail-on', ''], ['--fail-on', ' '], ['--fail-verdicts', ''], ['--fail-on-severity', '']]) {
      const empty = await cli(['analyze', '--json', '-', flag!, value!, samples]);
      expect({ flag, code: empty.code, stderr: empty.stderr }).toEqual({ flag, code: 1, stderr: '' });
      expect(JSON.parse(empty.stdout).decision.policy).toEqual(JSON.parse(plain.stdout).decision.policy);
    }
  });

  it.each(['analyze', 'run'])('%s --help has a line for every gate flag', async (command) => {
    const { stdout } = await cli([command, '--help']);
    const flags = OPTIONS.filter((row) => (GATE_KEYS as readonly string[]).includes(row.key)).map((row) => row.flag!.name);
    expect(flags).toHaveLength(GATE_KEYS.length);
    for (const flag of [...flags, 'rule-option']) expect(stdout).toMatch(new RegExp(`^  --${flag}\\b`, 'm'));
  });

  it('the action inputs read through the same table, naming the input in errors', () => {
    const inputs: Record<string, string> = { thresholds: 'decode_tok_s=4', 'fail-on': 'unfused-attention', 'fail-on-severity': 'warning', 'fail-verdicts': 'fail,invalid,insufficient-data', 'allow-throttled': 'true', 'allow-environment-mismatch': 'driver\ncuda', 'overlap-check': 'false', 'drop-outliers': 'false', 'shared-gpu': 'ignore' };
    const { values, problems } = readOptions(actionText((name) => inputs[name] ?? ''), 'action');
    expect(problems).toEqual([]);
    expect(gateOf(values)).toEqual(EXPECTED);
    const bad = readOptions(actionText((name) => (name === 'overlap-check' ? 'maybe' : name === 'fail-on' ? 'unfused-atention' : '')), 'action');
    expect(bad.problems).toEqual([`input 'fail-on': unknown finding id 'unfused-atention' (known: ${FINDING_IDS.join(', ')})`, `input 'overlap-check': expected true or false, got "maybe"`]);
  });

  it("action.yml's fail-on, fail-on-severity and fail-verdicts defaults and the regression-gate reference are the one default", () => {
    expect(ACTION.inputs['fail-on']!.default).toBe(DEFAULT_FAIL_ON_TEXT);
    expect(ACTION.inputs['fail-on-severity']!.default).toBe(DEFAULT_FAIL_ON_SEVERITY);
    expect(ACTION.inputs['fail-verdicts']!.default).toBe(DEFAULT_FAIL_VERDICTS_TEXT);
    expect(DEFAULT_FAIL_VERDICTS_TEXT).toBe(DEFAULT_FAIL_VERDICTS.join(','));
    expect(DEFAULT_FAIL_ON_TEXT).toBe(DEFAULT_FAIL_ON.join(','));
    const reference = readFileSync(join(ROOT, 'references', 'steps', 'regression-gate.md'), 'utf8');
    const row = reference.split('\n').find((line) => line.startsWith('| `failOn` |'));
    expect(row?.split('|')[2]!.split(',').map((id) => id.trim())).toEqual([...DEFAULT_FAIL_ON]);
    const cell = (name: string) => reference.split('\n').find((line) => line.startsWith(`| \`${name}\` |`))?.split('|')[2]!.trim();
    expect(cell('failOnSeverity')).toBe(DEFAULT_FAIL_ON_SEVERITY);
    expect(cell('failVerdicts')!.split(',').map((v) => v.trim())).toEqual([...DEFAULT_FAIL_VERDICTS]);
  });
});
