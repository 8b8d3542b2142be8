/**
 * A workload is untrusted code inside the job: it may print a line without end, start daemons that
 * leave its session and ignore SIGTERM, or write into the runner's file commands. Real processes.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TRACKING_VARIABLE } from '../../src/runner/child-env.js';
import { LineSplitter } from '../../src/runner/line-splitter.js';
import { ProcessGroups } from '../../src/runner/process-group.js';
import { prepareRun, runJob } from '../../src/runner/run-workload.js';
import { createMemoryLogger } from '../../src/runner/logger.js';
import { parseRunOptions } from '../../src/runner/run-options.js';
import { isAlive, PYTHON, REPO, standInProbe, standInPythonDir, tempDir, waitFor } from '../runner/stand-ins.js';

const linux = process.platform === 'linux';
const d = linux ? describe : describe.skip;
const pythonDir = standInPythonDir({ snapshot: false });

d('one line without end', () => {
  it('is cut at the line limit in the log and the callback, the run goes on, and the outcome says how much was cut', async () => {
    const dir = tempDir('long-line');
    const groups = new ProcessGroups({ graceMs: 300 });
    const seen: string[] = [];
    // 24 MiB without a newline, then an ordinary line.
    const script = 'import sys\nfor _ in range(24): sys.stdout.write("x" * (1 << 20))\nsys.stdout.write("\\nafter\\n")\n';
    const run = groups.start({ argv: [PYTHON, '-c', script], logFile: join(dir, 'out.log'), onLine: (line) => seen.push(line) });
    const outcome = await run.done;
    expect(outcome.exitCode).toBe(0);
    expect(outcome.cutLines).toBe(1);
    expect(outcome.cutBytes).toBe(24 * (1 << 20) - (1 << 20));
    expect(seen).toHaveLength(2);
    expect(seen[0]!.length).toBe(1 << 20);
    expect(seen[1]).toBe('after');
    const log = readFileSync(join(dir, 'out.log'), 'utf8').split('\n');
    expect(log[0]).toMatch(/^x{1048576}… \[profile-gate: line cut at 1048576 bytes, 24117248 bytes dropped\]$/);
    expect(log[1]).toBe('after');
    expect(statSync(join(dir, 'out.log')).size).toBeLessThan(2 << 20);
  });

  it('600 MB without a newline (past V8\'s longest string): no crash, the line is cut, the run goes on', async () => {
    const dir = tempDir('huge-line');
    const groups = new ProcessGroups({ graceMs: 300 });
    const seen: number[] = [];
    const script = 'import sys\nblock = "z" * (1 << 20)\nfor _ in range(600): sys.stdout.write(block)\nsys.stdout.write("\\r\\nend\\n")\n';
    const outcome = await groups.start({ argv: [PYTHON, '-c', script], logFile: join(dir, 'out.log'), onLine: (line) => seen.push(line.length) }).done;
    expect(outcome.exitCode).toBe(0);
    expect(outcome.cutBytes).toBe(599 * (1 << 20));
    expect(seen).toEqual([1 << 20, 3]);
  }, 60000);

  it('lines end at \\n, \\r\\n or a lone \\r (a progress bar), also split across chunks', () => {
    const lines: string[] = [];
    const splitter = new LineSplitter((line) => lines.push(line), 8);
    for (const piece of ['a\r', '\nb\rc', '\r', '\n', 'd\n\n', '0123456789ab\ne']) splitter.push(Buffer.from(piece));
    splitter.end();
    expect(lines).toEqual(['a', 'b', 'c', 'd', '', '01234567', 'e']);
    expect([splitter.cutLines, splitter.cutBytes]).toEqual([1, 4]);
  });

  it('through a run: the run ends ok and its notices say what was cut', async () => {
    const work = tempDir('long-line-run');
    const script = join(work, 'long_line.py');
    writeFileSync(script, 'import json, sys\nsys.stdout.write("y" * (3 << 20))\nprint()\nprint(json.dumps({"metric": "decode_tok_s", "value": 50.0}))\n');
    const plan = await prepareRun(parseRunOptions({ engine: 'command', run: `${PYTHON} ${script}`, runs: '1', 'warmup-runs': '0', profiler: 'none', 'deep-dive': 'off' }), { outDir: 'out', cwd: work, probe: standInProbe({ vendor: 'none' }), pythonDir });
    const result = await runJob(plan, { logger: createMemoryLogger(), groups: new ProcessGroups({ graceMs: 300 }) });
    expect(result.run.outcome).toBe('ok');
    expect(result.run.notices.map((n) => n.message)).toContain('measured-1: 1 output line longer than 1048576 bytes was cut (2097152 bytes dropped; log: out/logs/measured-1.log)');
  });
});

/** Starts a daemon that leaves the group and the session (double fork + setsid) and ignores SIGTERM. */
function daemonScript(dir: string): { script: string; pidFile: string } {
  const pidFile = join(dir, 'daemon.pid');
  const script = join(dir, 'daemonize.py');
  writeFileSync(
    script,
    [
      'import json, os, signal, sys, time',
      'if os.fork() == 0:',
      '    os.setsid()',
      '    if os.fork() == 0:',
      '        signal.signal(signal.SIGTERM, signal.SIG_IGN)',
      `        open(${JSON.stringify(pidFile)}, "w").write(str(os.getpid()))`,
      '        os.execvp("sleep", ["sleep", "1000"])',
      '    os._exit(0)',
      'os.wait()',
      `while not os.path.exists(${JSON.stringify(pidFile)}): time.sleep(0.01)`,
      'print(json.dumps({"metric": "decode_tok_s", "value": 50.0}))',
    ].join('\n'),
  );
  return { script, pidFile };
}

d('daemons that escape', () => {
  it('every process the run starts carries the tracking marker; sweep stops only those, and names them', async () => {
    const dir = tempDir('daemon');
    const groups = new ProcessGroups({ graceMs: 300 });
    const { script, pidFile } = daemonScript(dir);
    const outcome = await groups.start({ argv: [PYTHON, script], logFile: join(dir, 'd.log') }).done;
    expect(outcome.exitCode).toBe(0);
    const daemon = Number(readFileSync(pidFile, 'utf8'));
    // Its parent exited: the group stop cannot reach it any more.
    expect(isAlive(daemon)).toBe(true);
    expect(readFileSync(`/proc/${daemon}/environ`, 'utf8').split('\0')).toContain(`${TRACKING_VARIABLE}=${groups.trackingId}`);
    // A process of another run (another marker) is left alone.
    const other = new ProcessGroups({ graceMs: 300 });
    const otherDir = tempDir('daemon-other');
    const otherDaemon = daemonScript(otherDir);
    await other.start({ argv: [PYTHON, otherDaemon.script], logFile: join(otherDir, 'd.log') }).done;
    const bystander = Number(readFileSync(otherDaemon.pidFile, 'utf8'));

    const swept = await groups.sweepTracked();
    expect(swept).toEqual([{ pid: daemon, command: 'sleep 1000' }]);
    expect(await waitFor(() => !isAlive(daemon), 2000)).toBe(true);
    expect(isAlive(bystander)).toBe(true);
    expect(await other.sweepTracked()).toEqual([{ pid: bystander, command: 'sleep 1000' }]);
    expect(await waitFor(() => !isAlive(bystander), 2000)).toBe(true);
  });

  it('a run stops what its steps left behind and reports it by pid and command', async () => {
    const work = tempDir('daemon-run');
    const { script, pidFile } = daemonScript(work);
    const plan = await prepareRun(parseRunOptions({ engine: 'command', run: `${PYTHON} ${script}`, runs: '1', 'warmup-runs': '0', profiler: 'none', 'deep-dive': 'off' }), { outDir: 'out', cwd: work, probe: standInProbe({ vendor: 'none' }), pythonDir });
    const result = await runJob(plan, { logger: createMemoryLogger(), groups: new ProcessGroups({ graceMs: 300 }) });
    const daemon = Number(readFileSync(pidFile, 'utf8'));
    expect(await waitFor(() => !isAlive(daemon), 2000)).toBe(true);
    const expected = `1 process the run started was still running after its last step and was stopped: pid ${daemon} (sleep 1000)`;
    expect(result.run.notices.map((n) => n.message)).toContain(expected);
    const runJson = JSON.parse(readFileSync(join(work, 'out', 'run.json'), 'utf8')) as { notices: { message: string }[] };
    expect(runJson.notices.map((n) => n.message)).toContain(expected);
  });
});

d("the runner's file commands", () => {
  it('the workload gets throwaway copies of GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_ENV, GITHUB_PATH and GITHUB_STATE', async () => {
    const dir = tempDir('file-commands');
    const names = ['GITHUB_OUTPUT', 'GITHUB_STEP_SUMMARY', 'GITHUB_ENV', 'GITHUB_PATH', 'GITHUB_STATE'];
    const saved = Object.fromEntries(names.map((name) => [name, process.env[name]]));
    const real = Object.fromEntries(names.map((name) => [name, join(dir, `${name}.real`)]));
    for (const name of names) {
      writeFileSync(real[name]!, 'kept\n');
      process.env[name] = real[name];
    }
    try {
      const script = [
        'import os, json',
        `names = ${JSON.stringify(names)}`,
        'seen = {}',
        'for name in names:',
        '    path = os.environ.get(name)',
        '    seen[name] = path',
        '    if path:',
        '        open(path, "a").write("verdict=pass\\n")',
        'print(json.dumps(seen))',
      ].join('\n');
      const lines: string[] = [];
      const groups = new ProcessGroups({ graceMs: 300 });
      const outcome = await groups.start({ argv: [PYTHON, '-c', script], logFile: join(dir, 'w.log'), onLine: (line) => lines.push(line) }).done;
      expect(outcome.exitCode).toBe(0);
      const seen = JSON.parse(lines[0]!) as Record<string, string>;
      for (const name of names) {
        expect(readFileSync(real[name]!, 'utf8')).toBe('kept\n');
        expect(seen[name]).toBeTruthy();
        expect(seen[name]).not.toBe(real[name]);
        // The copies are gone with the process.
        expect(existsSync(seen[name]!)).toBe(false);
      }
    } finally {
      for (const name of names) {
        if (saved[name] === undefined) delete process.env[name];
        else process.env[name] = saved[name];
      }
    }
  });
});

d('metric lines after a long log', () => {
  it.each([
    ['250 log lines', 'for i in range(250): print(f"loading shard {i}")'],
    ['2 MiB of log', 'for i in range(20000): print(f"step {i}: " + "." * 100)'],
  ])('after %s, the metric line is read and the run gives a report', async (_label, body) => {
    const work = tempDir('late-metric');
    const script = join(work, 'late_metric.py');
    writeFileSync(script, `import json\n${body}\nprint(json.dumps({"metric": "decode_tok_s", "value": 321.5}))\n`);
    const plan = await prepareRun(parseRunOptions({ engine: 'command', run: `${PYTHON} ${script}`, runs: '2', 'warmup-runs': '0', profiler: 'none', 'deep-dive': 'off' }), { outDir: 'out', cwd: work, probe: standInProbe({ vendor: 'none' }), pythonDir });
    const { analyze } = await import('../../src/pipeline/analyze.js');
    const result = await runJob(plan, { logger: createMemoryLogger(), groups: new ProcessGroups({ graceMs: 300 }), analyze: (inputs) => analyze({ inputs, environment: plan.environment, baseline: null }) });
    expect(result.run.message).toBeUndefined();
    expect(result.run.outcome).toBe('ok');
    expect(result.run.analysisInputs.map((path) => path.slice(work.length + 1))).toEqual(['out/logs/measured-1.metrics.jsonl', 'out/logs/measured-2.metrics.jsonl']);
    expect(readFileSync(join(work, 'out', 'logs', 'measured-1.metrics.jsonl'), 'utf8')).toBe('{"metric": "decode_tok_s", "value": 321.5}\n');
    const decode = result.report!.metrics.find((metric) => metric.name === 'decode_tok_s');
    expect(decode?.samples).toEqual([321.5, 321.5]);
  });
});

d('a run cancelled by SIGTERM', () => {
  it('writes run.json marked cancelled, with the steps that finished, and exits 128+15', async () => {
    const cliEntry = join(REPO, 'dist', 'cli', 'index.js');
    if (!existsSync(cliEntry)) throw new Error(`${cliEntry} is missing: run 'npm run build' first`);
    const work = tempDir('cancelled');
    const script = join(work, 'second_hangs.py');
    const counter = join(work, 'count');
    writeFileSync(
      script,
      [
        'import json, os, sys, time',
        `path = ${JSON.stringify(counter)}`,
        'n = int(open(path).read()) + 1 if os.path.exists(path) else 1',
        'open(path, "w").write(str(n))',
        'print(json.dumps({"metric": "decode_tok_s", "value": 100.0}), flush=True)',
        'if n >= 2:',
        // A daemon that holds the output pipe open: the step takes its drain time to end.
        '    if os.fork() == 0:',
        '        os.setsid()',
        '        if os.fork() == 0: os.execvp("sleep", ["sleep", "60"])',
        '        os._exit(0)',
        '    os.wait()',
        '    print("hanging now", flush=True)',
        '    time.sleep(60)',
      ].join('\n'),
    );
    const child = spawn(process.execPath, [cliEntry, 'run', '--engine', 'command', '--run', `${PYTHON} ${script}`, '--runs', '3', '--warmup-runs', '0', '--profiler', 'none', '--deep-dive', 'off', '--allow-no-gpu', '--out', 'out'], { cwd: work, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout!.on('data', (chunk) => (stdout += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    expect(await waitFor(() => stdout.includes('hanging now'), 20000)).toBe(true);
    child.kill('SIGTERM');
    expect(await exited).toBe(143);
    const runJson = JSON.parse(readFileSync(join(work, 'out', 'run.json'), 'utf8')) as { outcome: string; message: string; steps: { id: string; status: string }[]; files: { path: string }[]; notices: { message: string }[] };
    expect(runJson.outcome).toBe('cancelled');
    expect(runJson.message).toBe('the run was cancelled');
    expect(runJson.steps.map((step) => [step.id, step.status])).toEqual([
      ['measured-1', 'ok'],
      ['measured-2', 'cancelled'],
      ['measured-3', 'skipped'],
    ]);
    expect(runJson.files.map((file) => file.path.slice(work.length + 1))).toEqual(['out/logs/measured-1.log']);
    expect(runJson.notices.map((notice) => notice.message)).toContainEqual(expect.stringMatching(/^1 process the run started was still running after its last step and was stopped: pid \d+ \(sleep 60\)$/));
  }, 30000);
});
