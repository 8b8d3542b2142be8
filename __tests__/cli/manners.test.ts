/**
 * The CLI's manners: every command's --help, one output on stdout, the run block filled from flags,
 * the environment and git, colour only on a terminal, and Nsight reports passed directly (read
 * through a stand-in nsys / ncu on PATH that prints the real export of the same report).
 */
import { chmodSync, copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from '../helpers/cli.js';
import { wantsColor } from '../../src/cli/program.js';
import { resolveRunMetadata, type Git } from '../../src/cli/run-metadata.js';
import { readFlags } from '../../src/options/read.js';
import { FORMAT_IDS } from '../../src/model/capture.js';
import { ReportSchema } from '../../src/model/report.js';
import { renderTerminal } from '../../src/report/terminal.js';
import { makeReport, row } from '../report/report-factory.js';

const ROOT = join(import.meta.dirname, '..', '..');
const H200 = join(ROOT, '__tests__', 'fixtures', 'h200-captures');
const NSYS_REP = join(H200, 'healthy_decode', 'healthy_node.nsys-rep');
const NSYS_CSV = join(H200, 'healthy_decode', 'healthy_node.stats_kern_api.csv');
const NCU_REP = join(H200, 'ncu_deep_dive', 'decode_attention.ncu-rep');
const NCU_CSV = join(H200, 'ncu_deep_dive', 'decode_attention.details.csv');

describe('--help', () => {
  it.each(['analyze', 'report', 'demo', 'run', 'dashboard', 'scrub'])('%s --help prints its usage and exits 0', async (command) => {
    for (const flag of ['--help', '-h']) {
      const { code, stdout, stderr } = await cli([command, flag]);
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      expect(stdout).toMatch(new RegExp(`^Usage: profile-gate ${command}\\b`));
    }
  });

  it('takes no object property for a command', async () => {
    const { code, stderr } = await cli(['constructor', '--help']);
    expect(code).toBe(2);
    expect(stderr).toBe('profile-gate: unknown command "constructor"; expected analyze, run, report, dashboard, scrub, demo or --help\n');
  });

  it('lists every --format id in analyze --help and in the overview', async () => {
    for (const args of [['analyze', '--help'], ['--help']]) {
      const { stdout } = await cli(args);
      for (const id of FORMAT_IDS) expect(stdout).toMatch(new RegExp(`(^|[\\s,])${id}(,|\\n)`, 'm'));
    }
  });
});

describe('outputs', () => {
  it.each([['analyze', NSYS_CSV], ['demo']])('%s refuses --json - with --markdown - in one line, exit 2', async (...args) => {
    const { code, stdout, stderr } = await cli([...args, '--json', '-', '--markdown', '-']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe('profile-gate: --json - and --markdown - both write to stdout; send one of them to a file\n');
  });
});

describe('run metadata', () => {
  const noGit: Git = () => undefined;
  const now = () => new Date('2026-12-01T06:00:00.000Z');
  /** The run block from the flags as parseArgs gives them, read as analyze reads them. */
  const runOf = (flags: Record<string, string>, env: NodeJS.ProcessEnv, git: Git) => resolveRunMetadata(readFlags(flags, 'analyze', env), env, git, now);

  it('takes the flags first', () => {
    const run = runOf({ workload: 'llama · H200', commit: 'abc', branch: 'feat', 'run-at': '2026-11-30T03:00:00Z' }, { GITHUB_SHA: 'def', GITHUB_REF_NAME: 'main' }, noGit);
    expect(run).toEqual({ workload: 'llama · H200', commit: 'abc', ref: 'feat', timestamp: '2026-11-30T03:00:00.000Z' });
    // A flag given empty is not given: the environment's value.
    expect(runOf({ commit: '', branch: '' }, { GITHUB_SHA: 'def', GITHUB_REF_NAME: 'main' }, noGit)).toMatchObject({ commit: 'def', ref: 'main' });
  });

  it('then GitHub Actions: sha, branch, repository and the run link', () => {
    const env = { GITHUB_SHA: 'f'.repeat(40), GITHUB_REF_NAME: 'main', GITHUB_REPOSITORY: 'octo/app', GITHUB_RUN_ID: '42', GITHUB_SERVER_URL: 'https://github.example/' };
    expect(runOf({}, env, () => 'from-git')).toEqual({
      commit: 'f'.repeat(40),
      ref: 'main',
      repository: 'octo/app',
      runId: '42',
      runUrl: 'https://github.example/octo/app/actions/runs/42',
      timestamp: '2026-12-01T06:00:00.000Z',
    });
  });

  it('then git; a detached HEAD names no branch', () => {
    const git = (head: string): Git => (args) => (args.includes('--abbrev-ref') ? head : '1'.repeat(40));
    expect(runOf({}, {}, git('topic'))).toEqual({ commit: '1'.repeat(40), ref: 'topic', timestamp: '2026-12-01T06:00:00.000Z' });
    expect(runOf({}, {}, git('HEAD'))).toEqual({ commit: '1'.repeat(40), timestamp: '2026-12-01T06:00:00.000Z' });
    expect(runOf({}, { GITHUB_SHA: '' }, git('HEAD'))).toMatchObject({ commit: '1'.repeat(40) });
  });

  it('writes the flags into report.json, and refuses a time that is not one', async () => {
    const { code, stdout } = await cli(['analyze', '--json', '-', '--workload', 'llama-decode · H200', '--commit', 'c0ffee', '--branch', 'main', '--run-at', '2026-11-29T03:00:00Z', NSYS_CSV]);
    expect(code).toBe(0);
    expect(ReportSchema.parse(JSON.parse(stdout)).run).toMatchObject({ workload: 'llama-decode · H200', commit: 'c0ffee', ref: 'main', timestamp: '2026-11-29T03:00:00.000Z' });
    const bad = await cli(['analyze', '--run-at', 'yesterday', NSYS_CSV]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('profile-gate: --run-at yesterday: expected an ISO 8601 time such as 2026-12-01T03:00:00Z\n');
  });
});

describe('colour', () => {
  it('only on a terminal, never with NO_COLOR or TERM=dumb', () => {
    expect(wantsColor({ isTTY: true }, {})).toBe(true);
    expect(wantsColor({ isTTY: false }, {})).toBe(false);
    expect(wantsColor({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(wantsColor({ isTTY: true }, { TERM: 'dumb' })).toBe(false);
    expect(wantsColor({ isTTY: false }, { FORCE_COLOR: '1' })).toBe(true);
  });

  it('paints the verdict and the failing rows, and writes no escape code without it', () => {
    const report = { ...makeReport({ rows: [row({ metric: 'decode_tok_s', status: 'fail' })] }), verdict: 'fail' as const };
    const coloured = renderTerminal(report, { color: true });
    expect(coloured.split('\n')[0]).toContain('\u001b[31mFAIL\u001b[0m');
    expect(coloured).toContain('\u001b[31mFAIL   ');
    expect(renderTerminal(report)).not.toContain('\u001b[');
  });
});

describe('Nsight reports passed directly', () => {
  let saved: string | undefined;
  beforeEach(() => (saved = process.env['PATH']));
  afterEach(() => (process.env['PATH'] = saved));

  /** A stand-in tool on an otherwise empty PATH: records its arguments, prints `csv`. */
  function standIn(name: string, csv: string): { dir: string; args: string } {
    const dir = mkdtempSync(join(tmpdir(), 'pg-standin-'));
    const args = join(dir, 'args.txt');
    writeFileSync(join(dir, name), `#!/bin/sh\nprintf '%s\\n' "$@" > '${args}'\ncat '${csv}'\n`);
    chmodSync(join(dir, name), 0o755);
    process.env['PATH'] = `${dir}:/usr/bin:/bin`;
    return { dir, args };
  }

  it('runs nsys stats on x.nsys-rep, printing the exact command, and analyzes its CSV', async () => {
    const { args } = standIn('nsys', NSYS_CSV);
    const { code, stdout, stderr } = await cli(['analyze', '--json', '-', NSYS_REP]);
    expect(code).toBe(0);
    expect(stderr).toBe(`profile-gate: ${NSYS_REP}: an Nsight Systems report; running nsys stats --force-export=true --report cuda_gpu_kern_sum,cuda_api_sum --format csv ${NSYS_REP}\n`);
    expect(readFileSync(args, 'utf8').trim().split('\n')).toEqual(['stats', '--force-export=true', '--report', 'cuda_gpu_kern_sum,cuda_api_sum', '--format', 'csv', NSYS_REP]);
    const report = ReportSchema.parse(JSON.parse(stdout));
    // The same kernel table as analyzing the export itself (healthy_decode/PROVENANCE.md).
    expect(report.kernels[0]!.name).toBe('nvjet_sm90_tst_256x8_64x6_4x1_v_bz_TNT');
    expect(report.sources[0]).toMatchObject({ format: 'nsys-stats', parts: ['cuda_gpu_kern_sum', 'cuda_api_sum'] });
  });

  it('runs ncu --import … --csv --page details on x.ncu-rep', async () => {
    const { args } = standIn('ncu', NCU_CSV);
    const { code, stdout, stderr } = await cli(['analyze', '--json', '-', NCU_REP]);
    expect(code).toBe(0);
    expect(stderr).toContain(`running ncu --import ${NCU_REP} --csv --page details\n`);
    expect(readFileSync(args, 'utf8').trim().split('\n')).toEqual(['--import', NCU_REP, '--csv', '--page', 'details']);
    const report = ReportSchema.parse(JSON.parse(stdout));
    expect(report.sources[0]!.format).toBe('ncu-csv');
    expect(report.deepDive.length).toBeGreaterThan(0);
  });

  it('names the export command in one line when the tool is not on PATH (exit 2)', async () => {
    process.env['PATH'] = mkdtempSync(join(tmpdir(), 'pg-empty-path-'));
    for (const [rep, command] of [
      [NSYS_REP, `nsys stats --force-export=true --report cuda_gpu_kern_sum,cuda_api_sum --format csv ${NSYS_REP} > healthy_node.nsys-rep.csv`],
      [NCU_REP, `ncu --import ${NCU_REP} --csv --page details > decode_attention.ncu-rep.csv`],
    ] as const) {
      const { code, stderr } = await cli(['analyze', rep]);
      expect(code).toBe(2);
      expect(stderr.split('\n')).toHaveLength(2);
      expect(stderr).toContain(`is not on PATH to read it; export it where`);
      expect(stderr.trim().endsWith(command)).toBe(true);
    }
  });

  it('a report found in a folder without its tool is skipped and named, and the CSV beside it is read (--strict fails)', async () => {
    process.env['PATH'] = mkdtempSync(join(tmpdir(), 'pg-empty-path-'));
    // The folder as nsys left it: the report and its kern_sum export side by side.
    const folder = mkdtempSync(join(tmpdir(), 'pg-nsys-folder-'));
    copyFileSync(NSYS_REP, join(folder, 'healthy_node.nsys-rep'));
    copyFileSync(NSYS_CSV, join(folder, 'healthy_node.kern_sum.csv'));
    const { code, stdout, stderr } = await cli(['analyze', '--json', '-', folder]);
    expect(code).toBe(0);
    const report = ReportSchema.parse(JSON.parse(stdout));
    expect(report.sources.map((s) => s.path)).toEqual([join(folder, 'healthy_node.kern_sum.csv')]);
    expect(report.kernels[0]!.name).toBe('nvjet_sm90_tst_256x8_64x6_4x1_v_bz_TNT');
    expect(report.skippedInputs).toEqual([{ path: join(folder, 'healthy_node.nsys-rep'), reason: expect.stringContaining('nsys is not on PATH to read it') }]);
    expect(stderr).toContain(`warning: left out ${join(folder, 'healthy_node.nsys-rep')}: an Nsight Systems report, and nsys is not on PATH to read it`);
    const strict = await cli(['analyze', '--strict', folder]);
    expect(strict.code).toBe(2);
    expect(strict.stderr).toContain('is not on PATH to read it');
  });

  it('says which command failed and why', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pg-standin-'));
    writeFileSync(join(dir, 'nsys'), "#!/bin/sh\necho 'ERROR: libdw.so.1: cannot open shared object file' >&2\nexit 1\n");
    chmodSync(join(dir, 'nsys'), 0o755);
    process.env['PATH'] = `${dir}:/usr/bin:/bin`;
    const { code, stderr } = await cli(['analyze', NSYS_REP]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/nsys stats --force-export=true .* failed: ERROR: libdw\.so\.1: cannot open shared object file\n$/);
  });
});
