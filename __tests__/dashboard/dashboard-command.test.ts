import { jest } from '@jest/globals';
import { mkdtemp, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { runDashboardCommand } from '../../src/cli/dashboard-command.js';
import { makeReport } from '../report/report-factory.js';
import { downloadReportArtifacts, type ArtifactQuery } from '../../src/github/dashboard-artifacts.js';
import { buildDashboard, loadDashboardReports } from '../../src/cli/dashboard-site.js';
import { InputError, UsageError } from '../../src/errors.js';
import type { Report } from '../../src/model/report.js';
import { serializeReport } from '../../src/report/json.js';
import type { DashboardData } from '../../src/report/dashboard/data.js';
import { FakeGitHub } from '../helpers/fake-github.js';
import { DEFAULT_FAMILIES, DEFAULT_KERNELS, nightlyReport } from './nightly-factory.js';

const shape = { workload: 'llama-3.1-8b · H200', nights: 10, level: () => 1500, families: () => DEFAULT_FAMILIES, kernels: () => DEFAULT_KERNELS, seed: 5 };
const night = (n: number): Report => nightlyReport(shape, n);

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'profile-gate-dashboard-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function readData(js: string): DashboardData {
  const sandbox: { window: Record<string, unknown> } = { window: {} };
  runInNewContext(js, sandbox);
  return sandbox.window['PROFILE_GATE_DASHBOARD'] as DashboardData;
}

async function quietly<T>(run: () => Promise<T>): Promise<{ result: T; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const out = jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((stdout += String(chunk)), true));
  const err = jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true));
  try {
    return { result: await run(), stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

describe('reading reports from disk', () => {
  it('takes every valid report.json under the paths and lists the invalid ones', async () => {
    for (let n = 0; n < 3; n += 1) {
      await mkdir(join(dir, `profile-gate-${n}`), { recursive: true });
      await writeFile(join(dir, `profile-gate-${n}`, 'report.json'), serializeReport(night(n)));
    }
    await mkdir(join(dir, 'broken'));
    await writeFile(join(dir, 'broken', 'report.json'), '{"schemaVersion": 1, "tool": {"name": "other"}}');
    await mkdir(join(dir, 'not-json'));
    await writeFile(join(dir, 'not-json', 'report.json'), '<html>');
    const { inputs, skipped } = await loadDashboardReports([dir]);
    expect(inputs).toHaveLength(3);
    expect(skipped.map((s) => s.source)).toEqual([join(dir, 'broken', 'report.json'), join(dir, 'not-json', 'report.json')]);
    expect(skipped[0]!.reason).toMatch(/expected a profile-gate report.json \(schemaVersion 8\) \(migrated from schemaVersion 1\); at tool.name/);
    expect(skipped[1]!.reason).toMatch(/expected JSON/);
  });

  it('keeps of each report on disk only what the page shows, as it reads them one at a time', async () => {
    for (let n = 0; n < 3; n += 1) {
      await mkdir(join(dir, `big-${n}`), { recursive: true });
      await writeFile(join(dir, `big-${n}`, 'report.json'), serializeReport(makeReport({ kernels: 5000, workload: 'big' })));
    }
    const { inputs } = await loadDashboardReports([dir]);
    expect(inputs).toHaveLength(3);
    for (const input of inputs) {
      expect(input.report.kernels).toHaveLength(200);
      expect(input.report.kernels[0]!.name).toBe('kernel_0');
      expect(input.report.notices.at(-1)!.message).toMatch(/^read back in part: kernels 200 of 5000/);
    }
  });

  it('fails on a path that does not exist, and when nothing valid is left', async () => {
    await expect(loadDashboardReports([join(dir, 'nope')])).rejects.toThrow(InputError);
    await writeFile(join(dir, 'report.json'), '{}');
    await expect(buildDashboard({ out: join(dir, 'site'), inputs: [dir], options: {} })).rejects.toThrow(/no valid report.json found; 1 left out/);
  });
});

describe('profile-gate dashboard (CLI)', () => {
  it('writes the site for a directory of reports', async () => {
    for (let n = 0; n < 10; n += 1) {
      await mkdir(join(dir, 'reports', `n${n}`), { recursive: true });
      await writeFile(join(dir, 'reports', `n${n}`, 'report.json'), serializeReport(night(n)));
    }
    const { result, stdout } = await quietly(() => runDashboardCommand(['--out', join(dir, 'site'), '--title', 'Nightly', join(dir, 'reports')], {}));
    expect(result).toBe(0);
    expect(stdout).toContain('10 reports, 1 workload, 0 open regressions');
    expect((await readdir(join(dir, 'site'))).sort()).toEqual(['dashboard.css', 'dashboard.js', 'data.js', 'index.html']);
    const data = readData(await readFile(join(dir, 'site', 'data.js'), 'utf8'));
    expect(data.title).toBe('Nightly');
    expect(data.workloads[0]!.points.t).toHaveLength(10);
    expect(data.workloads[0]!.points.commit[3]).toBe(night(3).run.commit);
  });

  it('takes --seed from older workflows, says it has no effect, and draws the same page', async () => {
    for (let n = 0; n < 10; n += 1) {
      await mkdir(join(dir, 'reports', `n${n}`), { recursive: true });
      await writeFile(join(dir, 'reports', `n${n}`, 'report.json'), serializeReport(night(n)));
    }
    const pages: string[] = [];
    for (const seed of ['1', '6']) {
      const { result, stderr } = await quietly(() => runDashboardCommand(['--out', join(dir, `site-${seed}`), '--seed', seed, join(dir, 'reports')], {}));
      expect(result).toBe(0);
      expect(stderr).toContain('--seed has no effect: change points are found without random draws');
      pages.push(await readFile(join(dir, `site-${seed}`, 'data.js'), 'utf8'));
    }
    const [one, six] = pages.map((page) => ({ ...readData(page), generatedAt: '' }));
    expect(one).toEqual(six);
    expect(one!.method).toMatch(/deterministic: no seed/);
    await expect(runDashboardCommand(['--out', dir, '--seed', '0', dir], {})).rejects.toThrow(/--seed 0: expected a positive integer/);
  });

  it('refuses a bad command line with a usage error', async () => {
    await expect(runDashboardCommand(['reports'], {})).rejects.toThrow(/expected --out DIR/);
    await expect(runDashboardCommand(['--out', dir], {})).rejects.toThrow(/expected report.json files or directories, --from-artifacts, or --history FILE/);
    await expect(runDashboardCommand(['--out', dir, '--top', '0', dir], {})).rejects.toThrow(/--top 0: expected a positive integer/);
    await expect(runDashboardCommand(['--out', dir, '--top', '51', dir], {})).rejects.toThrow(/--top 51: expected at most 50/);
    await expect(runDashboardCommand(['--out', dir, '--workflow', 'n.yml', dir], {})).rejects.toThrow(/go with --from-artifacts/);
    await expect(runDashboardCommand(['--out', dir, '--from-artifacts', '--repo', 'o/r', '--workflow', 'n.yml'], {})).rejects.toThrow(UsageError);
    await expect(runDashboardCommand(['--out', dir, '--from-artifacts', '--workflow', 'n.yml'], { GITHUB_TOKEN: 't' })).rejects.toThrow(/expected --repo OWNER\/NAME/);
    // A metric no report can hold charts nothing and finds no regression: refused, the known ones listed.
    await expect(runDashboardCommand(['--out', dir, '--metric', 'decode_toks', dir], {})).rejects.toThrow(/^--metric: expected one of decode_tok_s, .*ttft_ms.*, got "decode_toks"$/);
  });

  it('refuses an --out that is a file in one line (exit 2), not as an internal error', async () => {
    const file = join(dir, 'site');
    await writeFile(file, 'not a folder');
    await mkdir(join(dir, 'reports', 'profile-gate-0'), { recursive: true });
    await writeFile(join(dir, 'reports', 'profile-gate-0', 'report.json'), serializeReport(night(0)));
    const refused = runDashboardCommand(['--out', file, join(dir, 'reports')], {});
    await expect(refused).rejects.toThrow(InputError);
    await expect(refused).rejects.toThrow(`${file}: cannot write the site there (a file, not a folder); expected a folder, or a path where one can be made`);
  });
});

describe('--from-artifacts against the loopback GitHub', () => {
  let gh: FakeGitHub;
  const sha = (n: number) => String(n % 10).repeat(40);
  const query: ArtifactQuery = { repository: 'octo/gpu-app', workflow: 'nightly.yml', branch: 'main', limit: 5, prefix: 'profile-gate-', events: ['push', 'schedule'] };

  beforeEach(async () => {
    gh = await new FakeGitHub('octo/gpu-app').start();
    // Six good runs (101–106), a failed one (108: a night the gate failed, whose report is read too),
    // then runs that must be ignored: a pull request, one still running, another branch, and the
    // newest of all from another workflow (the fake filters by workflow and status as GitHub does).
    for (let id = 101; id <= 106; id += 1) {
      gh.runs.push({ id, event: id % 2 ? 'schedule' : 'push', status: 'completed', conclusion: 'success', head_branch: 'main', head_sha: sha(id), workflow: 'nightly.yml' });
      const report = night(id - 101);
      if (id === 103) gh.addArtifact(id, 'profile-gate-llama', { 'report.json': '{"schemaVersion": 1}' });
      else if (id === 105) gh.addArtifact(id, 'profile-gate-llama', { 'profile-gate/report.json': serializeReport(report), 'profile-gate/report.md': '# r' });
      else gh.addArtifact(id, 'profile-gate-llama', { 'report.json': serializeReport(report) });
      gh.addArtifact(id, 'coverage', { 'report.json': serializeReport(report) });
    }
    gh.artifacts.find((a) => a.runBackendId === 'run-104' && a.name === 'profile-gate-llama')!.zip = Buffer.from('this is not a zip archive at all, just bytes');
    gh.runs.push({ id: 107, event: 'pull_request', status: 'completed', conclusion: 'success', head_branch: 'main', head_sha: sha(7), workflow: 'nightly.yml' });
    gh.runs.push({ id: 108, event: 'schedule', status: 'completed', conclusion: 'failure', head_branch: 'main', head_sha: sha(8), workflow: 'nightly.yml' });
    gh.runs.push({ id: 109, event: 'push', status: 'completed', conclusion: 'success', head_branch: 'dev', head_sha: sha(9), workflow: 'nightly.yml' });
    gh.runs.push({ id: 110, event: 'push', status: 'completed', conclusion: 'success', head_branch: 'main', head_sha: sha(0), workflow: 'other.yml' });
    gh.runs.push({ id: 112, event: 'schedule', status: 'in_progress', conclusion: null, head_branch: 'main', head_sha: sha(2), workflow: 'nightly.yml' });
    for (const id of [107, 108, 109, 110, 112]) gh.addArtifact(id, 'profile-gate-llama', { 'report.json': serializeReport(night(id - 101)) });
  });
  afterEach(async () => {
    await gh.stop();
  });

  const access = () => ({ token: 'ghs_test', apiUrl: gh.baseUrl, serverUrl: 'https://github.com', retry: { baseMs: 1, sleep: async () => undefined } });

  it('downloads the newest N completed push/schedule runs on the branch, failed ones included, and leaves bad artifacts out', async () => {
    gh.fail('runs.list', { status: 502 });
    const { inputs, skipped, runs } = await downloadReportArtifacts(query, access());
    expect(runs).toBe(5);
    // 108 (failed), 106 and 105 (nested report): read; 104 (not a zip) and 103 (not a report): listed as left out.
    expect(inputs.map((i) => i.report.run.runId)).toEqual(['108', '106', '105']);
    expect(inputs[2]!.source).toBe('run 105 artifact profile-gate-llama/profile-gate/report.json');
    expect(skipped.map((s) => s.source)).toEqual(['run 104 artifact profile-gate-llama', 'run 103 artifact profile-gate-llama/report.json']);
    expect(skipped[0]!.reason).toMatch(/not a zip archive/);
    expect(skipped[1]!.reason).toMatch(/expected a profile-gate report.json/);
    // What the API says about the run wins: the commit it built, its URL.
    expect(inputs[1]!.report.run).toMatchObject({ commit: sha(106), repository: 'octo/gpu-app', runUrl: 'https://github.com/octo/gpu-app/actions/runs/106' });
    // Retried once after the 502; the token went to the API and never to the storage redirect.
    expect(gh.hits('runs.list').map((r) => r.status)).toEqual([502, 200]);
    const listed = new URL(gh.hits('runs.list')[1]!.url, 'http://x');
    expect(listed.pathname).toBe('/repos/octo/gpu-app/actions/workflows/nightly.yml/runs');
    expect(Object.fromEntries(listed.searchParams)).toMatchObject({ branch: 'main', status: 'completed' });
    expect(gh.hits('artifacts.download').every((r) => r.authorization === 'Bearer ghs_test' && r.status === 302)).toBe(true);
    expect(gh.hits('artifacts.zip').length).toBe(5);
    expect(gh.hits('artifacts.zip').every((r) => r.authorization === undefined)).toBe(true);
    // Only artifacts with the prefix were fetched.
    expect(gh.hits('artifacts.download').length).toBe(5);
  });

  it('stops with one clear line when the token is refused', async () => {
    gh.fail('artifacts.list', { status: 401, body: { message: 'Bad credentials' } });
    await expect(downloadReportArtifacts(query, access())).rejects.toThrow(/GitHub rejected the token \(401: Bad credentials\) on GET .*; check the github-token input or GITHUB_TOKEN/);
    gh.fail('runs.list', { status: 404 });
    await expect(downloadReportArtifacts(query, access())).rejects.toThrow(/not found \(404: .*\) on GET .*; check the repository, the workflow/);
  });

  it('gives up on a server that keeps failing, after the bounded retries', async () => {
    gh.fail('runs.list', { status: 503, times: 10 });
    await expect(downloadReportArtifacts(query, access())).rejects.toThrow(/GitHub kept failing \(503: injected 503\) on GET .* after 4 attempts/);
    expect(gh.hits('runs.list')).toHaveLength(4);
  });

  it('keeps of each downloaded report only what the dashboard shows, one report at a time', async () => {
    // 10 artifacts of a 20,000-kernel report: whole, they would be held 10 times over. (Ten show
    // that each is cut as it is read; more only add time, about 0.6 s of CPU each.)
    const huge = serializeReport(makeReport({ kernels: 20_000, workload: 'huge' }));
    for (let id = 201; id <= 210; id += 1) {
      gh.registerRun({ id, event: 'schedule', status: 'completed', conclusion: 'success', head_branch: 'main', head_sha: sha(id), workflow: 'big.yml' });
      gh.addArtifact(id, 'profile-gate-huge', { 'report.json': huge });
    }
    const { inputs } = await downloadReportArtifacts({ ...query, workflow: 'big.yml', limit: 10 }, access());
    expect(inputs).toHaveLength(10);
    for (const input of inputs) {
      expect(input.report.kernels).toHaveLength(200);
      expect(input.report.notices.at(-1)!.message).toMatch(/^read back in part: kernels 200 of 20000/);
    }
    // The top kernels are the ones kept: the list is sorted by time.
    expect(inputs[0]!.report.kernels[0]!.name).toBe('kernel_0');
  });

  it('refuses an artifact over the size cap without downloading it', async () => {
    const { inputs, skipped } = await downloadReportArtifacts({ ...query, limit: 1 }, { ...access(), artifactLimits: { maxZipBytes: 100 } });
    expect(inputs).toEqual([]);
    expect(skipped[0]!.reason).toMatch(/larger than 100/);
    expect(gh.hits('artifacts.download')).toHaveLength(0);
  });

  it('builds the site from the CLI, and can keep the downloaded reports', async () => {
    const env = { GITHUB_TOKEN: 'ghs_test', GITHUB_API_URL: gh.baseUrl, GITHUB_REPOSITORY: 'octo/gpu-app' };
    const args = ['--out', join(dir, 'site'), '--from-artifacts', '--workflow', 'nightly.yml', '--limit', '4', '--save-reports', join(dir, 'kept')];
    const { result, stdout, stderr } = await quietly(() => runDashboardCommand(args, env));
    expect(result).toBe(0);
    expect(stdout).toContain('3 reports, 1 workload,');
    expect(stderr).toContain('left out run 104 artifact profile-gate-llama');
    const data = readData(await readFile(join(dir, 'site', 'data.js'), 'utf8'));
    expect(data.workloads[0]!.points.commit).toEqual([sha(105), sha(106), sha(108)]);
    expect(data.skipped).toHaveLength(1);
    const kept = await loadDashboardReports([join(dir, 'kept')]);
    expect(kept.inputs.map((i) => i.report.run.runId).sort()).toEqual(['105', '106', '108']);
  });

  it('keeps a history on a branch: saving the same runs again rewrites the same files, and the saved files alone rebuild the page', async () => {
    const env = { GITHUB_TOKEN: 'ghs_test', GITHUB_API_URL: gh.baseUrl, GITHUB_REPOSITORY: 'octo/gpu-app' };
    const history = join(dir, 'history', 'reports');
    // As examples/nightly-dashboard.yml runs it each night: the saved history plus today's artifacts.
    await mkdir(history, { recursive: true });
    const nightly = async (name: string, reports: number) => {
      const args = ['--out', join(dir, name), '--from-artifacts', '--workflow', 'nightly.yml', '--limit', '3', '--save-reports', history, history];
      const { result, stdout } = await quietly(() => runDashboardCommand(args, env));
      expect(result).toBe(0);
      expect(stdout).toContain(`${reports} reports, 1 workload,`);
    };
    await nightly('site-1', 3);
    // The next night one more run of the nightly workflow; the newest three are 111, 108 and 106.
    gh.runs.push({ id: 111, event: 'schedule', status: 'completed', conclusion: 'success', head_branch: 'main', head_sha: sha(111), workflow: 'nightly.yml' });
    gh.addArtifact(111, 'profile-gate-llama', { 'report.json': serializeReport(night(9)) });
    await nightly('site-2', 4);
    await nightly('site-3', 4);
    expect(await readdir(history)).toHaveLength(4);
    // After the artifacts expired: the branch alone.
    const { result } = await quietly(() => runDashboardCommand(['--out', join(dir, 'site-later'), history], {}));
    expect(result).toBe(0);
    const data = readData(await readFile(join(dir, 'site-later', 'data.js'), 'utf8'));
    expect(data.workloads[0]!.points.commit).toEqual([sha(105), sha(106), sha(108), sha(111)]);
  });
});
