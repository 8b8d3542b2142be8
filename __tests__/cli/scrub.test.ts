/**
 * `profile-gate scrub`: a run's folder made ready to upload, on the real H200 files recorded with a
 * marker secret in the profiled process's environment (__tests__/fixtures/h200-secret).
 */
import { cpSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, runCli } from '../helpers/cli.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { serializeReport } from '../../src/report/json.js';
import { makeReport } from '../report/report-factory.js';
import { ProcessGroups } from '../../src/runner/process-group.js';
import { REPO, standInProbe, standInPythonDir, tempDir } from '../runner/stand-ins.js';

const MARK = 'pgmarker7f3c9a1e5b2d4c6a';

describe('profile-gate scrub', () => {
  const secrets = { HF_TOKEN: `hf_${MARK}`, PG_GATE_SECRET: MARK };
  const saved = Object.fromEntries(Object.keys(secrets).map((name) => [name, process.env[name]]));
  beforeAll(() => Object.assign(process.env, secrets));
  afterAll(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it('copies the run folder without the secret, leaving the profilers’ own reports out', async () => {
    const work = mkdtempSync(join(tmpdir(), 'pg-scrub-'));
    cpSync(join(REPO, '__tests__', 'fixtures', 'h200-secret'), join(work, 'run'), { recursive: true });
    const out = join(work, 'upload');
    const r = await cli(['scrub', '--out', out, join(work, 'run')]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(/^scrub: 7 file\(s\) written to .*upload, \d+ secret or environment value\(s\) taken out, 2 left out$/);
    // Outside the working folder, each file left out is named whole, never as ../../tmp/….
    const leftOut = r.stdout.split('\n').filter((line) => line.startsWith('  left out '));
    expect(leftOut).toHaveLength(2);
    for (const line of leftOut) expect(line.startsWith(`  left out ${join(work, 'run')}/`)).toBe(true);
    expect(readdirSync(join(out, 'run'), { recursive: true }).map(String).sort()).toEqual(['PROVENANCE.md', 'marker_counts.txt', 'ncu', 'ncu/secret.ncu.csv', 'secret.gpu_time_util.csv', 'secret.nsys-stats.csv', 'secret.sqlite', 'secret_torch.trace.json.gz']);
    for (const name of ['PROVENANCE.md', 'marker_counts.txt', 'ncu/secret.ncu.csv', 'secret.gpu_time_util.csv', 'secret.nsys-stats.csv', 'secret.sqlite', 'secret_torch.trace.json.gz']) expect(readFileSync(join(out, 'run', name)).includes(MARK)).toBe(false);
    // The provenance note names the marker: it is redacted in the copy, as any occurrence would be.
    expect(readFileSync(join(work, 'run', 'PROVENANCE.md')).includes(MARK)).toBe(true);
  });

  it('refuses an --out that is a file in one line, exit 2, rather than leave every file out and pass', async () => {
    const work = mkdtempSync(join(tmpdir(), 'pg-scrub-'));
    const file = join(work, 'notes.txt');
    writeFileSync(file, 'not a folder');
    const r = await cli(['scrub', '--out', file, join(REPO, 'samples', 'current')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`profile-gate: ${file}: cannot write the scrubbed files there (a file, not a folder); expected a folder, or a path where one can be made\n`);
    expect(r.stdout).toBe('');
  });

  it('refuses a missing path in one line, exit 2', async () => {
    const r = await cli(['scrub', '--out', join(tmpdir(), 'x'), '/nonexistent/run']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('profile-gate: /nonexistent/run: cannot read it (no such file or folder); expected a file or a folder to scrub\n');
  });

  it('profile-gate run: the workload lines on the terminal (a CI job log) lose the secret', async () => {
    const cwd = tempDir('secret-run');
    const r = await runCli(['--engine', 'command', '--run', 'echo logging in with $HF_TOKEN; echo \'{"metric": "decode_tok_s", "value": 1}\'', '--runs', '1', '--warmup-runs', '0', '--profiler', 'none', '--deep-dive', 'off', '--out', 'o'], {
      probe: standInProbe({ vendor: 'none' }),
      pythonDir: standInPythonDir({ snapshot: false }),
      cwd,
      groups: new ProcessGroups({ graceMs: 300 }),
    });
    expect(r.stdout).toContain('  | logging in with ***\n');
    expect(r.stdout.includes(MARK)).toBe(false);
    // The log file on the runner keeps what the workload wrote.
    expect(readFileSync(join(cwd, 'o', 'logs', 'measured-1.log'), 'utf8')).toContain(`logging in with hf_${MARK}`);
  });

  it('profile-gate dashboard: a token in a report (another run, an older version) does not reach the public page', async () => {
    const work = tempDir('secret-dashboard');
    const leaked = 'hf_' + 'Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5h6J7k8';
    for (const night of [1, 2, 3]) {
      const report = makeReport({ workload: 'llama', kernelName: (i) => (i === 0 ? `kernel_${leaked}` : `kernel_${i}`) });
      report.run = { ...report.run, timestamp: `2026-11-0${night}T00:00:00.000Z`, commit: String(night).repeat(40) };
      mkdirSync(join(work, 'reports', `n${night}`), { recursive: true });
      writeFileSync(join(work, 'reports', `n${night}`, 'report.json'), serializeReport(report));
    }
    const r = await cli(['dashboard', '--out', join(work, 'site'), join(work, 'reports')]);
    expect(r.code).toBe(0);
    const data = readFileSync(join(work, 'site', 'data.js'), 'utf8');
    expect(data).toContain('kernel_***');
    expect(data.includes(leaked)).toBe(false);
  });

  it('profile-gate dashboard: a secret value with < > & in a report is redacted before data.js escapes it', async () => {
    const work = tempDir('secret-dashboard-escaped');
    const password = 'Tr0ub4dor&3<x>pw';
    const before = process.env['DB_PASSWORD'];
    process.env['DB_PASSWORD'] = password;
    try {
      for (const night of [1, 2]) {
        const report = makeReport({ workload: 'llama', kernelName: (i) => (i === 0 ? `kernel_${password}` : `kernel_${i}`) });
        report.run = { ...report.run, timestamp: `2026-11-0${night}T00:00:00.000Z`, commit: String(night).repeat(40) };
        mkdirSync(join(work, 'reports', `n${night}`), { recursive: true });
        writeFileSync(join(work, 'reports', `n${night}`, 'report.json'), serializeReport(report));
      }
      const r = await cli(['dashboard', '--out', join(work, 'site'), join(work, 'reports')]);
      expect(r.code).toBe(0);
      const data = readFileSync(join(work, 'site', 'data.js'), 'utf8');
      expect(data).toContain('kernel_***');
      // Neither as written nor as data.js escapes it (\u0026, \u003c).
      expect(data.includes('Tr0ub4dor')).toBe(false);
    } finally {
      if (before === undefined) delete process.env['DB_PASSWORD'];
      else process.env['DB_PASSWORD'] = before;
    }
  });
});
