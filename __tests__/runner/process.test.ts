/**
 * Process control with real processes: exit codes, timeouts, leftover children, escaped children,
 * and SIGINT to a runner process. Survivors are looked up in /proc by process group.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { ProcessGroups } from '../../src/runner/process-group.js';
import { isAlive, liveInGroup, PYTHON, REPO, tempDir, TINY_WORKLOAD, waitFor } from './stand-ins.js';

const linux = process.platform === 'linux';
const d = linux ? describe : describe.skip;

function pidFile(dir: string, name: string): string {
  return join(dir, `${name}.json`);
}

async function readPids(path: string): Promise<{ pid: number; pgid: number; children: number[] }> {
  await waitFor(() => existsSync(path), 5000);
  return JSON.parse(readFileSync(path, 'utf8'));
}

/**
 * A module of src/runner and the sibling modules it imports, transpiled as they ship into `dir` as
 * .mjs files. An import of anything else but a node built-in would fail to load there.
 */
function transpileWithImports(name: string, dir: string): void {
  const pending = [name];
  const done = new Set<string>();
  const sibling = /from '\.\/([\w-]+)\.js'/g;
  while (pending.length) {
    const next = pending.pop()!;
    if (done.has(next)) continue;
    done.add(next);
    const source = readFileSync(join(REPO, 'src/runner', `${next}.ts`), 'utf8');
    for (const match of source.matchAll(sibling)) pending.push(match[1]!);
    const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 } }).outputText;
    writeFileSync(join(dir, `${next}.mjs`), js.replace(sibling, "from './$1.mjs'"));
  }
}

d('ProcessGroups with real processes', () => {
  const dir = tempDir('process');

  it('streams output line by line to the log file and the callback, and reports a non-zero exit', async () => {
    const groups = new ProcessGroups({ graceMs: 500 });
    const seen: string[] = [];
    const log = join(dir, 'fail.log');
    const run = groups.start({
      argv: [PYTHON, TINY_WORKLOAD, '--steps', '2', '--step-ms', '1', '--exit-code', '3'],
      logFile: log,
      onLine: (line) => seen.push(line),
    });
    const outcome = await run.done;
    expect(outcome.exitCode).toBe(3);
    expect(outcome.timedOut).toBe(false);
    expect(seen).toEqual([expect.stringMatching(/^tiny_command_workload: 2 steps in [\d.]+ ms$/)]);
    expect(readFileSync(log, 'utf8')).toMatch(/^tiny_command_workload: 2 steps/);
    expect(groups.active()).toEqual([]);
  });

  it('sends stdout to its own file when asked (a CSV a tool prints), stderr to the log', async () => {
    const groups = new ProcessGroups();
    const out = join(dir, 'table.csv');
    const log = join(dir, 'table.log');
    const outcome = await groups.start({ argv: ['bash', '-c', 'echo a,b; echo note >&2; echo 1,2'], logFile: log, stdoutFile: out }).done;
    expect(outcome.exitCode).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe('a,b\n1,2\n');
    expect(readFileSync(log, 'utf8')).toBe('note\n');
  });

  it('says a missing program could not start', async () => {
    const groups = new ProcessGroups();
    const outcome = await groups.start({ argv: ['no-such-program-profile-gate'], logFile: join(dir, 'missing.log') }).done;
    expect(outcome.startError).toBe('cannot start no-such-program-profile-gate: not found');
    expect(outcome.exitCode).toBeNull();
  });

  it('kills a workload that hangs past its timeout, with its whole group', async () => {
    const groups = new ProcessGroups({ graceMs: 500 });
    const pids = pidFile(dir, 'hang');
    const started = Date.now();
    const run = groups.start({
      argv: [PYTHON, TINY_WORKLOAD, '--steps', '1', '--hang', '--children', '2', '--pid-file', pids],
      logFile: join(dir, 'hang.log'),
      timeoutMs: 1000,
    });
    const info = await readPids(pids);
    expect(info.pgid).toBe(run.pid);
    expect(liveInGroup(info.pgid).length).toBe(3);
    const outcome = await run.done;
    expect(outcome.timedOut).toBe(true);
    expect(Date.now() - started).toBeLessThan(1000 + 500 + 1500);
    expect(liveInGroup(info.pgid)).toEqual([]);
  });

  it('escalates to SIGKILL when SIGTERM is ignored', async () => {
    const groups = new ProcessGroups({ graceMs: 300 });
    const pids = pidFile(dir, 'stubborn');
    const run = groups.start({ argv: [PYTHON, TINY_WORKLOAD, '--steps', '1', '--hang', '--ignore-sigterm', '--pid-file', pids], logFile: join(dir, 'stubborn.log'), timeoutMs: 1000 });
    const info = await readPids(pids);
    const outcome = await run.done;
    expect(outcome.timedOut).toBe(true);
    expect(outcome.signal).toBe('SIGKILL');
    expect(liveInGroup(info.pgid)).toEqual([]);
  });

  it('stops children the workload left behind in its group when it exits', async () => {
    const groups = new ProcessGroups({ graceMs: 500 });
    const pids = pidFile(dir, 'leftover');
    const outcome = await groups.start({ argv: [PYTHON, TINY_WORKLOAD, '--steps', '1', '--children', '2', '--pid-file', pids], logFile: join(dir, 'leftover.log') }).done;
    const info = await readPids(pids);
    expect(outcome.exitCode).toBe(0);
    expect(outcome.leftovers).toBe(2);
    expect(info.children.filter(isAlive)).toEqual([]);
  });

  it('also kills a child that escaped into its own session, once the grace period is over', async () => {
    const groups = new ProcessGroups({ graceMs: 300 });
    const pids = pidFile(dir, 'escaped');
    const run = groups.start({ argv: [PYTHON, TINY_WORKLOAD, '--steps', '1', '--hang', '--escaped-child', '--pid-file', pids], logFile: join(dir, 'escaped.log'), timeoutMs: 1000 });
    const info = await readPids(pids);
    const escaped = info.children[0]!;
    expect(liveInGroup(info.pgid)).not.toContain(escaped);
    expect(isAlive(escaped)).toBe(true);
    await run.done;
    expect(await waitFor(() => !isAlive(escaped), 2000)).toBe(true);
  });

  it('on SIGINT to the runner: its children groups are gone, nothing else was signalled', async () => {
    // The runner is a separate node process using process-group.ts as it ships (transpiled here).
    transpileWithImports('process-group', dir);
    const pidsA = pidFile(dir, 'runner-a');
    const pidsB = pidFile(dir, 'runner-b');
    writeFileSync(
      join(dir, 'runner.mjs'),
      `import { ProcessGroups } from './process-group.mjs';
const groups = new ProcessGroups({ graceMs: 500 });
groups.forwardSignals({ beforeExit: () => { process.stdout.write('stopped\\n'); } });
for (const file of ${JSON.stringify([pidsA, pidsB])}) {
  groups.start({ argv: [${JSON.stringify(PYTHON)}, ${JSON.stringify(TINY_WORKLOAD)}, '--steps', '1', '--hang', '--children', '1', '--pid-file', file], logFile: file + '.log' });
}
process.stdout.write('started\\n');
setInterval(() => {}, 1000);
`,
    );
    // Bystanders: one in a group of its own, one in the test's own group. Neither may be touched.
    const bystanderOutside = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
    const runner = spawn(process.execPath, [join(dir, 'runner.mjs')], { detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
    const bystanderInside = spawn('bash', ['-c', `exec sleep 30`], { stdio: 'ignore' });
    let output = '';
    runner.stdout!.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => runner.on('exit', (code) => resolve(code)));
    const a = await readPids(pidsA);
    const b = await readPids(pidsB);
    expect(liveInGroup(a.pgid).length).toBe(2);
    expect(liveInGroup(b.pgid).length).toBe(2);
    expect(await waitFor(() => output.includes('started'), 5000)).toBe(true);

    const signalled = Date.now();
    process.kill(runner.pid!, 'SIGINT');
    const code = await exited;
    expect(code).toBe(130);
    expect(Date.now() - signalled).toBeLessThan(4000);
    expect(output).toContain('stopped');
    expect(liveInGroup(a.pgid)).toEqual([]);
    expect(liveInGroup(b.pgid)).toEqual([]);
    expect(isAlive(bystanderOutside.pid!)).toBe(true);
    expect(isAlive(bystanderInside.pid!)).toBe(true);
    expect(isAlive(process.pid)).toBe(true);
    bystanderOutside.kill('SIGKILL');
    bystanderInside.kill('SIGKILL');
  });
});
