/**
 * The bundled action (dist/index.js) on a bad day, where only the bundle as the runner starts it
 * can tell (GitHub's faults, a full disk and bad baseline artifacts run in process in
 * __tests__/action/):
 * - the job cancelled mid-run (SIGINT, then SIGTERM, as the runner sends them): no process the
 *   action started is left, checked by process group in /proc, and nothing else is signalled;
 * - the token: never in the logs, the summary, the outputs, the report files, the comment or any
 *   byte of the uploaded artifact, not even when the workload prints its environment.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzeOptions } from '../helpers/action-workspace.js';
import { type FakeGitHub, runtimeToken } from '../helpers/fake-github.js';
import { readZip } from '../helpers/fake-github-zip.js';
import { ACTION_ENTRY, actionDefaults, PR_EVENT, runAction, runnerEnvironment, stepFiles, type RunOptions, useFakeGitHubPerTest } from '../helpers/fake-github-runner.js';
import { isAlive, liveInGroup, PYTHON, TINY_WORKLOAD, waitFor } from '../runner/stand-ins.js';

const linux = process.platform === 'linux';

let fake: FakeGitHub;
useFakeGitHubPerTest((started) => (fake = started));

// ---------------------------------------------------------------------------------------------
// Cancellation

interface ProcInfo {
  pid: number;
  ppid: number;
  pgid: number;
  start: string;
}

function procTable(): ProcInfo[] {
  const table: ProcInfo[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] === 'Z' || fields[0] === 'X') continue;
      table.push({ pid: Number(entry), ppid: Number(fields[1]), pgid: Number(fields[2]), start: fields[19] ?? '' });
    } catch {
      // gone
    }
  }
  return table;
}

/** Every live process below `root` (not root itself). */
function descendants(root: number): ProcInfo[] {
  const table = procTable();
  const found: ProcInfo[] = [];
  const queue = [root];
  while (queue.length) {
    const parent = queue.shift()!;
    for (const entry of table.filter((e) => e.ppid === parent)) {
      found.push(entry);
      queue.push(entry.pid);
    }
  }
  return found;
}

/** The same process (pid and start time) is still alive. */
function stillAlive(entry: ProcInfo): boolean {
  return procTable().some((e) => e.pid === entry.pid && e.start === entry.start);
}

/** The action in run mode, spawned as the runner does (its own process group), without waiting for it. */
function startRunMode(run: string, token = 'ghs_faketoken'): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const ws = mkdtempSync(join(tmpdir(), 'pg-ws-'));
  const options: RunOptions = { fake, event: PR_EVENT, workspace: ws, inputs: {}, env: { PATH: process.env['PATH'] ?? '' } };
  const inputs: Record<string, string> = {
    ...actionDefaults(token),
    mode: 'run',
    engine: 'command',
    run,
    runs: '1',
    'warmup-runs': '0',
    profiler: 'none',
    'deep-dive': 'off',
    'allow-no-gpu': 'true',
    comment: 'off',
    'upload-artifact': 'false',
  };
  const env: Record<string, string> = {
    ...Object.fromEntries(Object.entries(inputs).map(([k, v]) => [`INPUT_${k.replace(/ /g, '_').toUpperCase()}`, v])),
    ...runnerEnvironment(options, stepFiles(options), ws),
  };
  const child = spawn(process.execPath, [ACTION_ENTRY], { cwd: ws, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? -1 : null))));
  return { child, output: () => output, exited };
}

(linux ? describe : describe.skip)('the job cancelled mid-run', () => {
  /** Starts bystanders: one in a group of its own, one in this test's group. Neither may be touched. */
  function bystanders(): ChildProcess[] {
    return [spawn('sleep', ['60'], { detached: true, stdio: 'ignore' }), spawn('sleep', ['60'], { stdio: 'ignore' })];
  }

  async function workloadStarted(actionPid: number, count: number): Promise<ProcInfo[]> {
    // The workload's processes are below the action, in groups other than the action's own.
    expect(await waitFor(() => descendants(actionPid).filter((p) => p.pgid !== actionPid).length >= count, 30_000)).toBe(true);
    return descendants(actionPid);
  }

  it('SIGINT: the workload groups are stopped, the action exits 130, bystanders live', async () => {
    const pids = join(mkdtempSync(join(tmpdir(), 'pg-cancel-')), 'pids.json');
    const others = bystanders();
    const action = startRunMode(`${PYTHON} ${TINY_WORKLOAD} --steps 1 --hang --children 2 --pid-file ${pids}`);
    try {
      const started = await workloadStarted(action.child.pid!, 3);
      expect(await waitFor(() => existsSync(pids), 10_000)).toBe(true);
      const workload = JSON.parse(readFileSync(pids, 'utf8')) as { pgid: number };
      expect(liveInGroup(workload.pgid)).toHaveLength(3);
      const signalled = Date.now();
      process.kill(action.child.pid!, 'SIGINT');
      expect(await action.exited).toBe(130);
      expect(Date.now() - signalled).toBeLessThan(8000);
      expect(started.filter(stillAlive)).toEqual([]);
      for (const pgid of new Set(started.map((p) => p.pgid))) expect(liveInGroup(pgid)).toEqual([]);
      expect(action.output()).toContain("::warning::SIGINT: stopped the workload's process groups");
      for (const other of others) expect(isAlive(other.pid!)).toBe(true);
      expect(isAlive(process.pid)).toBe(true);
    } finally {
      for (const other of others) other.kill('SIGKILL');
      if (action.child.exitCode === null) process.kill(-action.child.pid!, 'SIGKILL');
    }
  }, 60_000);

  it('SIGINT then SIGTERM to a workload that ignores both: the second signal kills its groups at once', async () => {
    const others = bystanders();
    // bash and its two sleeps ignore INT and TERM (ignored dispositions are inherited across exec).
    const action = startRunMode(`bash -c 'trap "" INT TERM; sleep 1000 & sleep 1000 & wait'`);
    try {
      const started = await workloadStarted(action.child.pid!, 3);
      const groups = new Set(started.map((p) => p.pgid).filter((pgid) => pgid !== action.child.pid));
      expect(groups.size).toBe(1);
      const signalled = Date.now();
      process.kill(action.child.pid!, 'SIGINT');
      await new Promise((resolve) => setTimeout(resolve, 50));
      process.kill(action.child.pid!, 'SIGTERM');
      expect(await action.exited).toBe(130);
      // The grace period after the first signal is 3 s; the second one does not wait for it.
      expect(Date.now() - signalled).toBeLessThan(2500);
      expect(started.filter(stillAlive)).toEqual([]);
      for (const pgid of groups) expect(liveInGroup(pgid)).toEqual([]);
      for (const other of others) expect(isAlive(other.pid!)).toBe(true);
    } finally {
      for (const other of others) other.kill('SIGKILL');
      if (action.child.exitCode === null) process.kill(-action.child.pid!, 'SIGKILL');
    }
  }, 60_000);
});

// ---------------------------------------------------------------------------------------------
// Secrets

const TOKEN = 'ghs_PGSECRETe2e0123456789abcdefTOKEN';
const RUNTIME_SECRET = 'PGRUNTIMESECRET0123456789signature';

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(path));
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

/** Where a secret shows up: every place the action writes or sends. Empty when nowhere. */
function leaks(secret: string, r: Awaited<ReturnType<typeof runAction>>): string[] {
  const found: string[] = [];
  const check = (where: string, bytes: Buffer | string) => {
    if ((Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes)).includes(secret)) found.push(where);
  };
  // The one allowed mention: the ::add-mask:: command that tells the runner to mask it.
  check('stdout', r.stdout.split('\n').filter((line) => line !== `::add-mask::${secret}`).join('\n'));
  check('stderr', r.stderr);
  check('job summary', r.summary);
  check('outputs', JSON.stringify(r.outputs));
  for (const file of filesUnder(r.workspace)) check(file, readFileSync(file));
  for (const artifact of fake.artifacts) {
    if (!artifact.zip) continue;
    check(`artifact ${artifact.name} (zip bytes)`, artifact.zip);
    for (const [name, bytes] of readZip(artifact.zip)) check(`artifact ${artifact.name}: ${name}`, bytes);
  }
  for (const comment of fake.comments) check(`comment ${comment.id}`, comment.body);
  check('request urls', fake.requests.map((q) => q.url).join('\n'));
  return found;
}

describe('the token never leaves the action', () => {
  const runtime = runtimeToken(4242).replace(/\.sig$/, `.${RUNTIME_SECRET}`);

  it('mode analyze, debug logging on, a retried 500: the token only in the masking command and the Authorization header', async () => {
    fake.fail('comments.list', { status: 500 });
    const r = await runAction(analyzeOptions(fake, { token: TOKEN, env: { RUNNER_DEBUG: '1', ACTIONS_RUNTIME_TOKEN: runtime } }));
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')).toContain(`::add-mask::${TOKEN}`);
    expect(fake.hits('comments.create')[0]!.authorization).toBe(`Bearer ${TOKEN}`);
    expect(fake.artifactsOfRun(4242)).toHaveLength(2);
    expect(leaks(TOKEN, r)).toEqual([]);
    expect(leaks(RUNTIME_SECRET, r)).toEqual([]);
  });

  it('mode run, with a workload that prints its environment into the uploaded logs', async () => {
    const ws = mkdtempSync(join(tmpdir(), 'pg-ws-'));
    const script = join(ws, 'print_env_workload.py');
    writeFileSync(script, ['import json, os', 'for key, value in sorted(os.environ.items()):', '    print(f"{key}={value}")', 'print(json.dumps({"metric": "decode_tok_s", "value": 100.0}))'].join('\n'));
    const r = await runAction({
      fake,
      event: PR_EVENT,
      workspace: ws,
      token: TOKEN,
      env: { RUNNER_DEBUG: '1', ACTIONS_RUNTIME_TOKEN: runtime, PATH: process.env['PATH'] ?? '' },
      // The workload's logs leave the runner only on opt-in.
      inputs: { mode: 'run', engine: 'command', run: `${PYTHON} ${script}`, runs: '2', 'warmup-runs': '0', profiler: 'none', 'deep-dive': 'off', key: 'env-dump', 'allow-no-gpu': 'true', 'upload-raw-captures': 'true' },
    });
    expect(r.code).toBe(0);
    // The logs travel in the captures artifact, beside the report's.
    const artifact = fake.artifactsOfRun(4242).find((a) => a.name.endsWith('-captures'))!;
    const logs = [...readZip(artifact.zip!).keys()].filter((name) => name.endsWith('measured-1.log'));
    expect(logs).toHaveLength(1);
    // The workload ran and its environment is in the artifact, less the action's secrets.
    const log = readZip(artifact.zip!).get(logs[0]!)!.toString();
    expect(log).toContain('GITHUB_REPOSITORY=octo/gpu-app');
    expect(log).not.toMatch(/^INPUT_/m);
    expect(log).not.toMatch(/^ACTIONS_RUNTIME_TOKEN=/m);
    expect(leaks(TOKEN, r)).toEqual([]);
    expect(leaks(RUNTIME_SECRET, r)).toEqual([]);
    expect(statSync(join(ws, 'profile-gate', 'report.json')).size).toBeGreaterThan(64);
  });
});
