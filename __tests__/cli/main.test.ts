/** The CLI door, in process (main) and as the committed bundle (dist/cli/index.js) that users run. */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from '../helpers/cli.js';
import { ReportSchema } from '../../src/model/report.js';
import { ingestFileRuns } from '../../src/ingest/registry.js';
import { expandInputs } from '../../src/io/input-paths.js';
import { loadReport } from '../../src/io/reports.js';
import { writeDerivedFiles } from '../../src/io/derived-files.js';
import { secretsFromEnv } from '../../src/io/secrets.js';

const ROOT = join(import.meta.dirname, '..', '..');
const FIXTURES = join(ROOT, '__tests__', 'fixtures');
const healthyNsys = join(FIXTURES, 'h200-captures', 'healthy_decode', 'healthy_node.stats_kern_api.csv');


describe('profile-gate analyze', () => {
  it('writes a schema-valid report.json to stdout', async () => {
    const { code, stdout } = await cli(['analyze', '--json', '-', healthyNsys]);
    expect(code).toBe(0);
    const report = ReportSchema.parse(JSON.parse(stdout));
    expect(report.schemaVersion).toBe(8);
    // PROVENANCE.md of healthy_decode: the top kernel of the node-level nsys capture.
    expect(report.kernels[0]!.name).toBe('nvjet_sm90_tst_256x8_64x6_4x1_v_bz_TNT');
    expect(report.sources[0]).toMatchObject({ format: 'nsys-stats', parts: ['cuda_gpu_kern_sum', 'cuda_api_sum'] });
    expect(report.findings.map((f) => f.id)).toContain('healthy-dense-decode');
  });

  it('leads the terminal output with the verdict and the diagnosis', async () => {
    const { code, stdout } = await cli(['analyze', healthyNsys]);
    expect(code).toBe(0);
    const lines = stdout.split('\n');
    // Nothing was compared: a pass never reads as a bare PASS.
    expect(lines[0]).toMatch(/^profile-gate \S+: (PASS \(no baseline: findings only\)|WARN)$/);
    expect(stdout.indexOf('Diagnosis')).toBeLessThan(stdout.indexOf('Top kernels'));
  });

  it('gates against a baseline: a 17% slower head with unfused attention fails with exit code 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pg-cli-'));
    const baseline = join(dir, 'baseline.json');
    expect((await cli(['analyze', '--json', baseline, join(ROOT, 'samples', 'baseline')])).code).toBe(0);
    const head = join(dir, 'head.json');
    const { code } = await cli(['analyze', '--baseline', baseline, '--json', head, join(ROOT, 'samples', 'current')]);
    expect(code).toBe(1);
    const report = ReportSchema.parse(JSON.parse(readFileSync(head, 'utf8')));
    expect(report.verdict).toBe('fail');
    const decode = report.comparison!.rows.find((r) => r.metric === 'decode_tok_s')!;
    // samples/*/…timed.stdout.jsonl medians: 378.506 → 313.883 tok/s = −17.07%
    expect(decode).toMatchObject({ status: 'fail', samples: [expect.any(Number), expect.any(Number)] });
    expect(decode.delta).toBeCloseTo(313.883 / 378.506 - 1, 3);
    expect(report.comparison!.newFindings).toContain('unfused-attention');
  });

  it('reads a file once when it is named twice or beside its folder, so its samples are not counted twice', async () => {
    // samples/current/unfused_timed.stdout.jsonl holds 15 run lines (kind "run", tok_s).
    const folder = join(ROOT, 'samples', 'current');
    const metrics = join(folder, 'unfused_timed.stdout.jsonl');
    for (const args of [[metrics, metrics], [folder, metrics], [metrics, folder], [folder, `${folder}/`]]) {
      const { stdout } = await cli(['analyze', '--json', '-', ...args]);
      const report = ReportSchema.parse(JSON.parse(stdout));
      expect(report.metrics.find((m) => m.name === 'decode_tok_s')!.samples).toHaveLength(15);
      const paths = report.sources.map((s) => s.path);
      expect(paths.filter((p) => p.endsWith('unfused_timed.stdout.jsonl'))).toHaveLength(1);
    }
  });

  it('an nsys kernel summary against a baseline of an AMD GPU is invalid (another vendor), never compared share by share', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pg-cli-'));
    const amd = join(dir, 'amd.json');
    // rocprof stats of llama.cpp on an AMD Radeon AI PRO R9700 (fixtures/rocprof/PROVENANCE.md).
    expect((await cli(['analyze', '--json', amd, join(FIXTURES, 'rocprof', 'llamacpp_r9700_gfx1201_results.stats.csv')])).code).not.toBe(2);
    const { code, stdout } = await cli(['analyze', '--baseline', amd, '--json', '-', join(FIXTURES, 'h200-captures', 'healthy_decode', 'healthy_node.kern_sum.csv')]);
    const report = ReportSchema.parse(JSON.parse(stdout));
    expect(report.environment.vendor).toBe('nvidia');
    expect(report.verdict).toBe('invalid');
    expect(report.comparison!.environmentMismatch).toEqual([{ key: 'vendor', baseline: 'amd', current: 'nvidia' }]);
    expect(code).toBe(1);
  });

  it('reads a copy of a capture under another name once, and says so', async () => {
    // The 15 run lines of samples/current/unfused_timed.stdout.jsonl, and the same bytes again under another name.
    const dir = mkdtempSync(join(tmpdir(), 'pg-copy-'));
    try {
      cpSync(join(ROOT, 'samples', 'current'), dir, { recursive: true });
      cpSync(join(dir, 'unfused_timed.stdout.jsonl'), join(dir, 'again.stdout.jsonl'));
      const { stdout, stderr } = await cli(['analyze', '--json', '-', dir]);
      const report = ReportSchema.parse(JSON.parse(stdout));
      expect(report.metrics.find((m) => m.name === 'decode_tok_s')!.samples).toHaveLength(15);
      expect(report.sources.filter((s) => s.path.endsWith('.stdout.jsonl')).map((s) => s.path.split('/').pop())).toEqual(['again.stdout.jsonl']);
      expect(stderr).toContain(`read once: ${join(dir, 'unfused_timed.stdout.jsonl')} holds the same bytes as ${join(dir, 'again.stdout.jsonl')}`);
      // A file that differs by one byte is another capture, and both count.
      writeFileSync(join(dir, 'again.stdout.jsonl'), `${readFileSync(join(dir, 'again.stdout.jsonl'), 'utf8')}\n`);
      const both = ReportSchema.parse(JSON.parse((await cli(['analyze', '--json', '-', dir])).stdout));
      expect(both.metrics.find((m) => m.name === 'decode_tok_s')!.samples).toHaveLength(30);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('passes the same run against itself', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pg-cli-'));
    const baseline = join(dir, 'baseline.json');
    await cli(['analyze', '--json', baseline, join(ROOT, 'samples', 'baseline')]);
    const { code, stdout } = await cli(['analyze', '--baseline', baseline, '--json', '-', join(ROOT, 'samples', 'baseline')]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).verdict).toBe('pass');
  });
});

describe('bad input: one line on stderr, exit code 2', () => {
  const cases: Array<[string, string[], RegExp]> = [
    ['a missing file', ['analyze', '/nonexistent/trace.json'], /^profile-gate: no capture files: \/nonexistent\/trace\.json \(missing\); check the path/],
    ['an unknown command', ['frobnicate'], /unknown command "frobnicate"/],
    // An empty $COMMAND in a CI script must not pass as if something ran.
    ['no command', [], /^profile-gate: expected a command: analyze, run, report, dashboard, scrub or demo \(profile-gate --help lists them\)\n$/],
    ['no inputs', ['analyze'], /expected at least one INPUT/],
    ['an unknown flag', ['analyze', '--frob', 'x'], /^profile-gate: analyze: unknown option --frob \(profile-gate analyze --help lists its options\)\n/],
    ['a bad threshold', ['analyze', '--threshold', 'decode_tok_s=fast', healthyNsys], /--threshold: decode_tok_s=fast: 'fast' is not a positive number/],
    ['a missing baseline', ['analyze', '--baseline', '/nonexistent/base.json', healthyNsys], /\/nonexistent\/base\.json: cannot read it \(no such file or folder\); expected/],
  ];
  it.each(cases)('%s', async (_name, args, message) => {
    const { code, stderr } = await cli(args);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('--strict fails on a capture path not found even where --if-no-captures ignore lets an empty capture go on', async () => {
    const { code, stderr } = await cli(['analyze', '--strict', '--if-no-captures', 'ignore', '/nonexistent/trace.json']);
    expect(code).toBe(2);
    expect(stderr).toBe('profile-gate: capture path not found: /nonexistent/trace.json (--strict fails on any input it cannot read)\n');
    // An empty folder is no path that cannot be read: ignore still lets it go on.
    const empty = mkdtempSync(join(tmpdir(), 'pg-cli-empty-'));
    expect((await cli(['analyze', '--strict', '--if-no-captures', 'ignore', '--json', '-', empty])).code).toBe(0);
  });

  it('an empty capture folder fails by default; --if-no-captures warn or ignore lets it go on', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'pg-cli-empty-'));
    const failed = await cli(['analyze', empty]);
    expect(failed.code).toBe(2);
    expect(failed.stderr.trimEnd()).toBe(`profile-gate: no capture files: ${empty} (no capture file inside); check the path and that the profiling step wrote its files (--if-no-captures: warn or ignore lets an empty capture pass)`);
    const warned = await cli(['analyze', '--if-no-captures', 'warn', '--json', '-', empty]);
    expect(warned.stderr).toContain('warning: no capture files:');
    expect(JSON.parse(warned.stdout).verdict).not.toBe('pass');
    const ignored = await cli(['analyze', '--if-no-captures', 'ignore', '--json', '-', empty]);
    expect(ignored.stderr).toBe('');
    const bad = await cli(['analyze', '--if-no-captures', 'maybe', empty]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--if-no-captures: expected one of error, warn, ignore, got "maybe"/);
  });

  it('a run\'s output folder analyzed again: its report.json is no capture (a Kineto sniff on words once claimed it)', async () => {
    // The real folder profile-gate run wrote on the H200 (fixtures/h200-run/graph_capture), report.json included.
    const folder = join(FIXTURES, 'h200-run', 'graph_capture');
    const result = await cli(['analyze', '--json', '-', folder]);
    expect(result.code).not.toBe(2);
    const sources = (JSON.parse(result.stdout) as { sources: Array<{ path: string; format: string }> }).sources;
    expect(sources.some((s) => s.path.endsWith('report.json'))).toBe(false);
    expect(sources.find((s) => s.path.endsWith('graphcap.trace.json.gz'))?.format).toBe('kineto-json');
  });

  it('an output path that is one of the inputs is refused before anything is written, so the capture is never overwritten', async () => {
    // `--json` given no file name takes the first capture as its value: the report would replace it.
    const dir = mkdtempSync(join(tmpdir(), 'pg-cli-out-'));
    const capture = join(dir, 'unfused_timed.stdout.jsonl');
    const original = readFileSync(join(ROOT, 'samples', 'current', 'unfused_timed.stdout.jsonl'), 'utf8');
    writeFileSync(capture, original);
    for (const flag of ['--json', '--markdown']) {
      const named = await cli(['analyze', flag, capture, capture]);
      expect(named.code).toBe(2);
      expect(named.stderr.trimEnd().split('\n')).toEqual([`profile-gate: ${flag} ${capture}: it is one of the inputs; expected a new file to write the report to (the capture would be overwritten)`]);
      // Inside an input folder too.
      const inFolder = await cli(['analyze', flag, capture, dir]);
      expect(inFolder.code).toBe(2);
      expect(inFolder.stderr).toContain(`${flag} ${capture}: it is one of the inputs`);
      // The file name left out: the capture is taken as the flag's value, the next capture as the input.
      const taken = await cli(['analyze', flag, capture, join(ROOT, 'samples', 'current', 'unfused_timed.util.jsonl')]);
      expect(taken.code).toBe(2);
      expect(taken.stderr.trimEnd().split('\n')).toEqual([
        `profile-gate: ${flag} ${capture}: a capture (workload-metrics-jsonl) is there; expected a new file to write the report to, or a report to replace (was the file name left out after ${flag}?)`,
      ]);
    }
    expect(readFileSync(capture, 'utf8')).toBe(original);
    // A report written before is replaced, as a CI job does night after night.
    const report = join(dir, 'report.json');
    expect((await cli(['analyze', '--json', report, capture])).code).toBe(0);
    expect((await cli(['analyze', '--json', report, '--markdown', join(dir, 'report.md'), capture])).code).toBe(0);
    expect((await cli(['analyze', '--json', report, '--markdown', join(dir, 'report.md'), capture])).code).toBe(0);
  });

  it("a run's output folder analyzed again: the files profile-gate wrote there (run.json, profile.json, clean traces) are no capture, and the workload's own trace is read", async () => {
    // The real folder profile-gate run wrote on the H200, with the derived files a run writes beside it.
    const folder = join(mkdtempSync(join(tmpdir(), 'pg-cli-run-')), 'run');
    cpSync(join(FIXTURES, 'h200-run', 'graph_capture'), folder, { recursive: true });
    // The terminal's copy of the run, kept beside it in the fixture: not a file profile-gate writes there.
    rmSync(join(folder, 'graphcap_run.log'));
    const inputs = await expandInputs([folder]);
    const report = await loadReport(join(folder, 'report.json'));
    const captures = (await Promise.all(inputs.map((path) => ingestFileRuns(path).catch(() => [])))).flat();
    const derived = await writeDerivedFiles(folder, report, captures, secretsFromEnv({}));
    expect(derived.traces.length).toBeGreaterThan(0);
    const result = await cli(['analyze', '--strict', '--json', '-', folder]);
    expect(result.code).not.toBe(2);
    const read = ReportSchema.parse(JSON.parse(result.stdout));
    expect(read.skippedInputs).toEqual([]);
    const paths = read.sources.map((s) => s.path.slice(folder.length + 1));
    expect(paths).toContain(join('captures', 'profile', 'graphcap.trace.json.gz'));
    expect(paths.filter((p) => /^(run|profile)\.json$|^traces\//.test(p))).toEqual([]);
    expect(read.notices.map((n) => n.code)).not.toContain('same-run-counted-once');
  });

  it("an A/B run's output folder analyzed again reads the head alone: the base side's files under base/ are not merged into it", async () => {
    // The layout run --out writes for an A/B job: the head's files at the top, the base build's under base/.
    const out = mkdtempSync(join(tmpdir(), 'pg-cli-ab-'));
    cpSync(join(ROOT, 'samples', 'current'), join(out, 'captures'), { recursive: true });
    cpSync(join(ROOT, 'samples', 'baseline'), join(out, 'base', 'captures'), { recursive: true });
    expect((await cli(['analyze', '--json', join(out, 'base', 'baseline-report.json'), join(out, 'base')])).code).toBe(0);
    expect((await cli(['analyze', '--json', join(out, 'report.json'), join(out, 'captures')])).code).toBe(1);
    writeFileSync(join(out, 'run.json'), '{"outcome": "ok"}\n');
    const { stdout } = await cli(['analyze', '--json', '-', out]);
    const report = ReportSchema.parse(JSON.parse(stdout));
    // samples/current: 15 run lines, 313.9 tok/s; the base side's 15 (378.5 tok/s) are not among them.
    expect(report.metrics.find((m) => m.name === 'decode_tok_s')!.samples).toHaveLength(15);
    expect(report.sources.filter((s) => s.path.startsWith(join(out, 'base')))).toEqual([]);
    // Named directly, the base folder is read as any other.
    const base = ReportSchema.parse(JSON.parse((await cli(['analyze', '--json', '-', join(out, 'base')])).stdout));
    expect(base.metrics.find((m) => m.name === 'decode_tok_s')!.samples).toHaveLength(15);
  });

  it("a run's logs folder read again: a long console whose metric lines run gathered beside it is read through that file, not skipped", async () => {
    // What run leaves for a console of more than 200 lines: the log, and its metric lines in .metrics.jsonl.
    const logs = mkdtempSync(join(tmpdir(), 'pg-cli-logs-'));
    const console = [...Array.from({ length: 300 }, (_, i) => `loading shard ${i}`), '{"metric": "decode_tok_s", "value": 301}'].join('\n');
    writeFileSync(join(logs, 'measured-1.log'), `${console}\n`);
    writeFileSync(join(logs, 'measured-1.metrics.jsonl'), '{"metric": "decode_tok_s", "value": 301}\n');
    const result = await cli(['analyze', '--strict', '--json', '-', logs]);
    expect(result.code).toBe(0);
    const report = ReportSchema.parse(JSON.parse(result.stdout));
    expect(report.skippedInputs).toEqual([]);
    expect(report.sources.map((s) => s.path)).toEqual([join(logs, 'measured-1.metrics.jsonl')]);
    expect(report.metrics.find((m) => m.name === 'decode_tok_s')!.samples).toEqual([301]);
  });

  it('a file of another kind names the file and line 1', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'pg-cli-')), 'notes.txt');
    writeFileSync(file, 'hello world\nthis is not a capture\n');
    const { code, stderr } = await cli(['analyze', file]);
    expect(code).toBe(2);
    expect(stderr).toContain(`${file}:1: unrecognized capture format (starts with "hello world")`);
  });
});

describe('the committed bundle dist/cli/index.js', () => {
  it('runs the demo on the bundled samples with plain node', () => {
    const result = spawnSync(process.execPath, [join(ROOT, 'dist', 'cli', 'index.js'), 'demo'], { encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '' } });
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^Demo: /);
    expect(result.stdout).toContain('FAIL              decode_tok_s');
    expect(result.stdout).toContain('[ERROR] unfused-attention');
  });

  it('exits 2 with one line for bad input, never a stack trace', () => {
    const result = spawnSync(process.execPath, [join(ROOT, 'dist', 'cli', 'index.js'), 'analyze', '/nonexistent'], { encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).not.toMatch(/\bat .*\(.*:\d+:\d+\)/);
  });
});
