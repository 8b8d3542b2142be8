/**
 * Faults in the run, with real processes: each has a clear outcome and leaves nothing behind.
 * Covered elsewhere, not repeated here:
 * - a workload that exits non-zero: __tests__/runner/run-command.test.ts ("a measured run that exits non-zero")
 *   and run-max.test.ts ("a warm-up that dies (out of memory)");
 * - a workload past its limit, SIGTERM ignored, escaped children, SIGINT to a runner:
 *   __tests__/runner/process.test.ts;
 * - nsys that captured nothing (SKIPPED): run-command.test.ts ("when nsys captured nothing");
 * - the server dying after /health went green, or never answering: run-max.test.ts;
 * - GitHub answering 403 (fork token), 500 then 200, 429 with Retry-After, 401, an artifact
 *   service 403: __tests__/e2e/action.test.ts ("GitHub faults").
 * Here: a workload killed by SIGKILL (what the kernel's OOM killer does), a profiler that crashes or
 * writes nothing, files that cannot be written (a disk full: paths linked to /dev/full).
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { EXIT_RUN_FAILED, InputError } from '../../src/errors.js';
import { writeOutput } from '../../src/io/input-paths.js';
import { prepareRun, runJob } from '../../src/runner/run-workload.js';
import { createMemoryLogger } from '../../src/runner/logger.js';
import { parseRunOptions } from '../../src/runner/run-options.js';
import { ProcessGroups } from '../../src/runner/process-group.js';
import { isAlive, liveInGroup, PYTHON, RECORDED_NSYS_STATS, standInProbe, standInPythonDir, tempDir, TINY_WORKLOAD, waitFor } from '../runner/stand-ins.js';

const linux = process.platform === 'linux';
const d = linux ? describe : describe.skip;
const pythonDir = standInPythonDir({ snapshot: false });
const groups = () => new ProcessGroups({ graceMs: 300 });

/** A workload that starts a sleeping child in its group, prints a metric line, then dies by SIGKILL. */
function oomWorkload(dir: string): { command: string; pids: string } {
  const script = join(dir, 'oom_workload.py');
  const pids = join(dir, 'oom-pids.json');
  writeFileSync(
    script,
    [
      'import json, os, signal, subprocess, sys',
      'child = subprocess.Popen(["sleep", "1000"])',
      `json.dump({"pid": os.getpid(), "pgid": os.getpgid(0), "child": child.pid}, open(${JSON.stringify(pids)}, "w"))`,
      'print(json.dumps({"metric": "decode_tok_s", "value": 100.0}), flush=True)',
      'os.kill(os.getpid(), signal.SIGKILL)',
    ].join('\n'),
  );
  return { command: `${PYTHON} ${script}`, pids };
}

/** A folder with an `nsys` that misbehaves: `crash` (SIGSEGV, nothing written) or `nothing` (exit 0, no report). */
function brokenNsys(mode: 'crash' | 'nothing'): string {
  const dir = tempDir('broken-nsys');
  const nsys = join(dir, 'nsys');
  const body =
    mode === 'crash'
      ? 'echo "Segmentation fault in nsys (stand-in)" >&2; kill -SEGV $$'
      : // Runs the workload (everything after the last option), writes no .nsys-rep, says it worked.
        'while [ "$#" -gt 0 ] && [ "${1#-}" != "$1" ] || [ "$1" = profile ]; do case "$1" in --output|-o|--trace|-t|--capture-range|--capture-range-end|--cuda-graph-trace|--sample|--cpuctxsw|--force-overwrite|--delay|--duration) shift 2;; *) shift;; esac; done; "$@"; exit 0';
  writeFileSync(nsys, `#!/bin/bash\nif [ "$1" = --version ]; then echo "NVIDIA Nsight Systems version 2025.3.1 (stand-in)"; exit 0; fi\n${body}\n`);
  chmodSync(nsys, 0o755);
  return nsys;
}

const metricsWorkload = `${PYTHON} ${TINY_WORKLOAD} --steps 2 --step-ms 1 --print-metrics`;

d('a workload killed by SIGKILL (the OOM killer)', () => {
  it('stops the run, says it was killed and what usually does that, and leaves no process of its group', async () => {
    const work = tempDir('oom');
    const { command, pids } = oomWorkload(work);
    const plan = await prepareRun(parseRunOptions({ engine: 'command', run: command, runs: '2', 'warmup-runs': '0', profiler: 'none', 'deep-dive': 'off' }), { outDir: 'out', cwd: work, probe: standInProbe({ vendor: 'none' }), pythonDir });
    const result = await runJob(plan, { logger: createMemoryLogger(), groups: groups() });
    expect(result.run.outcome).toBe('failed');
    expect(result.run.message).toMatch(/^Measured run 1\/2 was killed by SIGKILL \(log: out\/logs\/measured-1\.log\)\. A SIGKILL that the run did not send is usually the kernel's out-of-memory killer/);
    expect(result.run.message).toContain('"{\\"metric\\": \\"decode_tok_s\\", \\"value\\": 100.0}"');
    expect(result.run.steps.map((s) => [s.id, s.status])).toEqual([
      ['measured-1', 'failed'],
      ['measured-2', 'skipped'],
    ]);
    expect(result.report).toBeUndefined();
    const info = JSON.parse(readFileSync(pids, 'utf8')) as { pgid: number; child: number };
    expect(await waitFor(() => !isAlive(info.child), 3000)).toBe(true);
    expect(liveInGroup(info.pgid)).toEqual([]);
    // run.json says so too, for the artifact.
    expect(JSON.parse(readFileSync(join(work, 'out', 'run.json'), 'utf8'))).toMatchObject({ outcome: 'failed', steps: [{ id: 'measured-1', status: 'failed', exitCode: null }, { id: 'measured-2', status: 'skipped' }] });
  });

  it('through profile-gate run: exit code 4 and one line on stderr', async () => {
    const work = tempDir('oom-cli');
    const { command } = oomWorkload(work);
    const { code, stdout, stderr: errors } = await runCli(['--engine', 'command', '--run', command, '--runs', '1', '--warmup-runs', '0', '--profiler', 'none', '--out', 'o'], {
      cwd: work,
      probe: standInProbe({ vendor: 'none' }),
      pythonDir,
      groups: groups(),
    });
    expect(code).toBe(EXIT_RUN_FAILED);
    expect(errors.trimEnd().split('\n')).toHaveLength(1);
    expect(errors).toMatch(/^profile-gate: run failed: Measured run 1\/1 was killed by SIGKILL/);
    expect(stdout).toContain('run failed in ');
  });
});

d('a profiler that crashes or writes nothing', () => {
  it.each([
    ['crashes (SIGSEGV, nothing written)', 'crash' as const, /^Profiled run \(nsys\) was killed by SIGSEGV \(log: out\/logs\/profile\.log\)\. Last output: "Segmentation fault in nsys \(stand-in\)"$/],
    ['exits 0 but writes no report', 'nothing' as const, /^Profiled run \(nsys\) exited 0 but out\/captures\/profile\.nsys-rep was not written \(log: out\/logs\/profile\.log\)$/],
  ])('%s: the run goes on with the measured runs, and the report says it has no kernel profile', async (_name, mode, message) => {
    const work = tempDir('nsys-broken');
    const nsys = brokenNsys(mode);
    process.env.STAND_IN_NSYS_STATS = RECORDED_NSYS_STATS;
    const plan = await prepareRun(parseRunOptions({ engine: 'command', run: metricsWorkload, runs: '2', 'warmup-runs': '0', profiler: 'nsys', 'deep-dive': 'off' }), { outDir: 'out', cwd: work, probe: standInProbe({ vendor: 'nvidia', nsys }), pythonDir });
    const { analyze } = await import('../../src/pipeline/analyze.js');
    const result = await runJob(plan, { logger: createMemoryLogger(), groups: groups(), analyze: (inputs) => analyze({ inputs }) });
    expect(result.run.outcome).toBe('ok');
    expect(result.run.steps.map((s) => [s.id, s.status])).toEqual([
      ['measured-1', 'ok'],
      ['measured-2', 'ok'],
      ['profile', 'failed'],
      ['profile-stats', 'skipped'],
      ['profile-gpu-util', 'skipped'],
      // A capture range that wrote nothing is retaken once as a whole process (the stand-in writes nothing again).
      ...(mode === 'nothing'
        ? [
            ['profile-whole', 'failed'],
            ['profile-stats', 'skipped'],
            ['profile-gpu-util', 'skipped'],
          ]
        : []),
    ]);
    expect(result.run.steps[2]!.message).toMatch(message);
    // Two measured consoles, each one throughput sample; no kernels.
    expect(result.report!.metrics.find((m) => m.name === 'decode_tok_s')!.samples).toHaveLength(2);
    expect(result.report!.kernels).toEqual([]);
    expect(result.report!.notices.filter((n) => n.code === 'run').map((n) => n.message)).toContainEqual(expect.stringMatching(/^Profiled run \(nsys\) .* The report has no kernel profile\.$/));
  });
});

d("the action's secrets are not the workload's", () => {
  it('a workload does not inherit the action inputs (the token) or the runner tokens; the rest of the environment it does', async () => {
    const names = ['INPUT_GITHUB-TOKEN', 'INPUT_MODE', 'ACTIONS_RUNTIME_TOKEN', 'ACTIONS_ID_TOKEN_REQUEST_TOKEN', 'ACTIONS_ID_TOKEN_REQUEST_URL', 'PG_VISIBLE'];
    for (const name of names) process.env[name] = `value-of-${name}`;
    try {
      const dir = tempDir('env');
      const out = join(dir, 'env.txt');
      const outcome = await groups().start({ argv: ['env'], logFile: join(dir, 'env.log'), stdoutFile: out, env: { PG_GIVEN: 'given' } }).done;
      expect(outcome.exitCode).toBe(0);
      const seen = readFileSync(out, 'utf8').split('\n').map((line) => line.split('=')[0]);
      expect(names.filter((name) => seen.includes(name))).toEqual(['PG_VISIBLE']);
      expect(seen).toContain('PG_GIVEN');
      expect(seen).toContain('PATH');
    } finally {
      for (const name of names) delete process.env[name];
    }
  });
});

d('files that cannot be written (a full disk)', () => {
  it('writeOutput names the file and the reason in one line', async () => {
    const dir = tempDir('full');
    // /dev/full itself (a link to it is refused before any write: outputs never follow a link).
    const error = await writeOutput('/dev/full', '{}').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toBe('/dev/full: cannot write it (ENOSPC: no space left on device)');
    writeFileSync(join(dir, 'a-file'), '');
    const notDir = await writeOutput(join(dir, 'a-file', 'report.md'), 'x').catch((e: unknown) => e);
    expect((notDir as Error).message).toMatch(/a-file\/report\.md: cannot write it \((ENOTDIR|EEXIST): /);
  });

  it('run.json that cannot be written: the run and its report are kept, with a warning', async () => {
    const work = tempDir('full-run');
    // The workload puts a link to a full disk where run.json goes (a run clears its planned files
    // before it starts); the link is refused, as any output that cannot be written would be.
    const run = `bash -c "ln -sf /dev/full out/run.json && exec ${metricsWorkload}"`;
    const plan = await prepareRun(parseRunOptions({ engine: 'command', run, runs: '1', 'warmup-runs': '0', profiler: 'none', 'deep-dive': 'off' }), { outDir: 'out', cwd: work, probe: standInProbe({ vendor: 'none' }), pythonDir });
    const logger = createMemoryLogger();
    const { analyze } = await import('../../src/pipeline/analyze.js');
    const result = await runJob(plan, { logger, groups: groups(), analyze: (inputs) => analyze({ inputs }) });
    expect(result.run.outcome).toBe('ok');
    expect(result.report!.metrics.find((m) => m.name === 'decode_tok_s')).toBeDefined();
    const warnings = logger.lines.filter((l) => l.kind === 'warning').map((l) => l.text);
    expect(warnings).toContainEqual(`${join(work, 'out', 'run.json')}: is a symbolic link; expected a path that is not one (an output is never written through a link: remove it, or choose another path); the run's record is in this log only`);
    expect(result.report!.notices.map((n) => n.message)).toContainEqual(expect.stringMatching(/run\.json: is a symbolic link; /));
  });

  it('profile-gate run with a report.json that cannot be written: exit 2, one line naming the file; the logs are there', async () => {
    const work = tempDir('full-cli');
    mkdirSync(join(work, 'o'), { recursive: true });
    symlinkSync('/dev/full', join(work, 'o', 'report.json'));
    const { code, stderr: errors } = await runCli(['--engine', 'command', '--run', metricsWorkload, '--runs', '1', '--warmup-runs', '0', '--profiler', 'none', '--out', 'o'], {
      cwd: work,
      probe: standInProbe({ vendor: 'none' }),
      pythonDir,
      groups: groups(),
    });
    expect(code).toBe(2);
    expect(errors).toBe(`profile-gate: ${join(work, 'o', 'report.json')}: is a symbolic link; expected a path that is not one (an output is never written through a link: remove it, or choose another path)\n`);
    expect(existsSync(join(work, 'o', 'run.json'))).toBe(true);
    expect(existsSync(join(work, 'o', 'logs', 'measured-1.log'))).toBe(true);
  });
});
