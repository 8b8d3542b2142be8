/**
 * The MAX paths end to end, against the stand-in `max` (recorded real-format output, no model, no
 * GPU), the stand-in nsys/ncu/gpu_snapshot.py, and a box that nvidia-smi describes as one H200.
 */
import { askDeepDive, deepDiveRequest } from '../../src/diagnose/deep-dive-request.js';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server as NetServer } from 'node:net';
import { join } from 'node:path';
import { UsageError } from '../../src/errors.js';
import { isPortInUse, prepareRun, runJob, type JobDeps } from '../../src/runner/run-workload.js';
import { createMemoryLogger } from '../../src/runner/logger.js';
import { parseRunOptions } from '../../src/runner/run-options.js';
import { buildPlan, type Plan } from '../../src/runner/plan.js';
import type { DetectedEnvironment } from '../../src/runner/detect.js';
import { ProcessGroups } from '../../src/runner/process-group.js';
import type { Report } from '../../src/model/report.js';
import { liveInGroup, RECORDED_NCU_CSV, readJson, standInProbe, standInPythonDir, standInToolsDir, tempDir, useStandInMaxOnPath } from './stand-ins.js';

const tools = standInToolsDir();
const pythonDir = standInPythonDir();
const pythonDirUnsampled = standInPythonDir({ snapshot: false });
const restoreEnv: Array<() => void> = [];
const KNOBS = ['STAND_IN_MAX_GPU', 'STAND_IN_MAX_GENERATE_FAIL', 'STAND_IN_MAX_GENERATE_SLEEP_S', 'STAND_IN_MAX_SERVE_FAIL', 'STAND_IN_MAX_SERVE_STARTUP_S', 'STAND_IN_MAX_SERVE_HANG_AFTER_FAIL', 'STAND_IN_MAX_SERVE_HARMLESS_TRACEBACK', 'STAND_IN_MAX_SERVE_DIE_AFTER_HEALTH_S', 'STAND_IN_MAX_BENCH_S', 'STAND_IN_MAX_ARGV_LOG', 'STAND_IN_MAX_VERSION', 'STAND_IN_NCU_CSV', 'STAND_IN_TOOLS_ARGV_LOG'];

beforeAll(() => restoreEnv.push(useStandInMaxOnPath()));
afterAll(() => restoreEnv.forEach((restore) => restore()));
afterEach(() => KNOBS.forEach((knob) => delete process.env[knob]));

function knobs(values: Record<string, string>): void {
  Object.assign(process.env, values);
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

// The box is detected once (prepareRun itself is exercised by the first test and the port test).
const detected: Partial<Record<'nvidia' | 'none', DetectedEnvironment>> = {};

async function planFor(raw: Record<string, string>, box: 'nvidia' | 'none' = 'nvidia', sampled = false): Promise<{ plan: Plan; out: string }> {
  const work = tempDir('max');
  const probe = standInProbe({ vendor: box, nsys: tools.nsys, ncu: tools.ncu });
  const options = parseRunOptions(raw);
  const context = { outDir: 'out', cwd: work, probe, pythonDir: sampled ? pythonDir : pythonDirUnsampled };
  if (sampled || !detected[box]) {
    const plan = await prepareRun(options, context);
    detected[box] ??= plan.detected;
    return { plan, out: join(work, 'out') };
  }
  const plan = buildPlan(options, detected[box]!, { outDir: join(work, 'out'), cwd: work, pythonDir: context.pythonDir, gpuSnapshotAvailable: false });
  return { plan, out: join(work, 'out') };
}

function deps(extra: Omit<Partial<JobDeps>, 'logger'> = {}) {
  const logger = createMemoryLogger();
  return { logger, groups: new ProcessGroups({ graceMs: 300 }), serveTiming: { earlyCheckMs: 300, pollMs: 100, progressMs: 60_000 }, ...extra };
}

const argvLog = (path: string): string[][] => (existsSync(path) ? readFileSync(path, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as string[]) : []);

describe('engine max, mode generate', () => {
  it('warm-up, measured runs with sampling, max generate --profile, then the ncu deep dive the analysis asks for', async () => {
    const { plan, out } = await planFor({ model: 'org/model', runs: '2', prompt: 'Hi there' }, 'nvidia', true);
    const maxLog = join(out, '..', 'max-argv.jsonl');
    const toolsLog = join(out, '..', 'tools-argv.jsonl');
    knobs({ STAND_IN_MAX_GPU: '1', STAND_IN_MAX_ARGV_LOG: maxLog, STAND_IN_NCU_CSV: RECORDED_NCU_CSV, STAND_IN_TOOLS_ARGV_LOG: toolsLog });
    expect(plan.profiler).toBe('max');
    expect(plan.environment).toMatchObject({ gpuName: 'NVIDIA H200', engine: 'max', engineVersion: '26.4.0', model: 'org/model' });

    const analyzed: string[][] = [];
    const analyze = async (inputs: readonly string[]) => {
      analyzed.push([...inputs]);
      const request = deepDiveRequest('gemv_split_k_bfloat16_bfloat16_bfloat16_256_f519d2c2', 40);
      return { findings: [{ id: 'dominant-kernel', kernel: request.kernel, ...askDeepDive(request, '<workload command>') }], kernels: [], notices: [], deepDive: [] } as unknown as Report;
    };
    const d = deps({ analyze });
    const result = await runJob(plan, d);

    expect(result.run.outcome).toBe('ok');
    expect(result.run.steps.map((s) => [s.id, s.status])).toEqual([
      ['warmup-1', 'ok'],
      ['measured-1', 'ok'],
      ['measured-2', 'ok'],
      ['profile', 'ok'],
    ]);
    expect(result.deepDive).toMatchObject({ id: 'deep-dive', status: 'ok', why: 'the dominant-kernel finding (gemv_split_k_bfloat16_bfloat16_bfloat16_256_f519d2c2)' });
    const rel = (paths: readonly string[]) => paths.map((p) => p.slice(out.length + 1));
    expect(rel(result.run.analysisInputs)).toEqual(['logs/measured-1.log', 'captures/measured-1.gpu.jsonl', 'logs/measured-2.log', 'captures/measured-2.gpu.jsonl', 'captures/profile.max-generate.txt', 'captures/deep-dive.ncu.csv']);
    expect(result.run.files.find((f) => f.kind === 'nsys-rep')).toMatchObject({ analysis: false, step: 'profile' });
    // Analyzed before the deep dive, then again with its CSV.
    expect(analyzed.map((inputs) => inputs.length)).toEqual([5, 6]);

    // The profiled console keeps the kernel table but not the timings of the slowed-down run.
    const profiled = readFileSync(join(out, 'captures', 'profile.max-generate.txt'), 'utf8');
    expect(profiled).toContain('=== Top 5 GPU kernels (100.0% of GPU time, 52.58 ms total) ===');
    expect(profiled).not.toMatch(/^Eval throughput/m);
    expect(readFileSync(join(out, 'logs', 'profile.log'), 'utf8')).toMatch(/^Eval throughput \(token-generation\): [\d.]+ tokens per second$/m);
    expect(readFileSync(join(out, 'logs', 'measured-1.log'), 'utf8')).toMatch(/^Time per Output Token: 6\.90155029296875 ms$/m);

    // The exact commands the stand-in saw.
    const generate = ['generate', '--model', 'org/model', '--max-new-tokens', '100', '--prompt', 'Hi there'];
    // (`max --version` ran while planning, before the log was switched on.)
    expect(argvLog(maxLog)).toEqual([generate, generate, generate, [...generate, '--profile', '--profile-output', join(out, 'captures', 'profile.nsys-rep')], generate]);
    const ncuCall = argvLog(toolsLog).find((argv) => argv[0] === 'ncu')!;
    // The finding's structured request, as argv: clocks left alone, the kernel filter and launch it asked for.
    expect(ncuCall.slice(1, 11)).toEqual(['--log-file', join(out, 'captures', 'deep-dive.ncu.csv'), '--clock-control', 'none', '--kernel-name', 'regex:gemv_split_k_bfloat16_bfloat16_bfloat16_256', '--launch-skip', '20', '--launch-count', '1']);
    // The workload's own output went to the deep dive's log, not into the CSV.
    expect(readFileSync(join(out, 'logs', 'deep-dive.log'), 'utf8')).toMatch(/^Eval throughput \(token-generation\)/m);
    expect(ncuCall.slice(-8)).toEqual(['max', ...generate]);

    const runJson = readJson<{ outcome: string; steps: unknown[]; environment: { gpuName: string } }>(join(out, 'run.json'));
    expect(runJson.outcome).toBe('ok');
    expect(runJson.environment.gpuName).toBe('NVIDIA H200');
    expect(d.logger.lines.filter((l) => l.kind === 'group').map((l) => l.text)).toEqual(['Warm-up run 1/1', 'Measured run 1/2', 'Measured run 2/2', 'Profiled run (max generate --profile)', 'Deep dive (Nsight Compute)']);

    // The files are what the importers expect: the real analysis reads every one of them.
    const { analyze: realAnalyze } = await import('../../src/pipeline/analyze.js');
    const real = await realAnalyze({ inputs: result.run.analysisInputs });
    expect(real.sources.map((source) => source.format)).toEqual(['max-generate', 'gpu-snapshot-jsonl', 'max-generate', 'gpu-snapshot-jsonl', 'max-generate', 'ncu-csv']);
    // The stand-in prints TPOT 6.90155029296875 ms, so decode is 1000 / 6.90155029296875 tok/s in both measured runs;
    // the profiled run's timings were removed, so they do not count as a third sample.
    expect(real.metrics.find((m) => m.name === 'decode_tok_s')).toMatchObject({ samples: [1000 / 6.90155029296875, 1000 / 6.90155029296875] });
    expect(real.kernels[0]).toMatchObject({ name: 'gemv_split_k_bfloat16_bfloat16_bfloat16_256_f519d2c2', instances: 672 });
  });

  // Before, this ran with no flag and passed; now no GPU with a profiler planned stops the plan unless allowed.
  it('on a box without a GPU: the plan cannot run unless allow-no-gpu; allowed, measured runs only, no sampling, and the analysis gets the console logs', async () => {
    const refused = await planFor({ model: 'org/model', runs: '1', 'warmup-runs': '0' }, 'none');
    expect(refused.plan.problems).toEqual([expect.stringMatching(/^no GPU found \(nvidia-smi and rocm-smi list none\), but profiler auto needs one/)]);
    await expect(runJob(refused.plan, deps())).rejects.toThrow(/^cannot run: no GPU found/);
    const { plan, out } = await planFor({ model: 'org/model', runs: '1', 'warmup-runs': '0', 'allow-no-gpu': 'true' }, 'none');
    expect(plan.sampling).toBe(false);
    const result = await runJob(plan, deps());
    expect(result.run.outcome).toBe('ok');
    expect(result.run.analysisInputs).toEqual([join(out, 'logs', 'measured-1.log')]);
    expect(result.report).toBeUndefined();
  });

  it('a warm-up that dies (out of memory) stops the run with the reason; nothing is analyzed', async () => {
    const { plan } = await planFor({ model: 'org/model', runs: '2' });
    knobs({ STAND_IN_MAX_GENERATE_FAIL: 'oom' });
    let analyzed = false;
    const result = await runJob(plan, deps({ analyze: async () => ((analyzed = true), {} as Report) }));
    expect(result.run.outcome).toBe('failed');
    expect(result.run.message).toMatch(/^Warm-up run 1\/1 exited with code 1 \(log: out\/logs\/warmup-1\.log\)\. Last output: .*CUDA_ERROR_OUT_OF_MEMORY/);
    expect(result.run.steps.map((s) => s.status)).toEqual(['failed', 'skipped', 'skipped', 'skipped']);
    expect(analyzed).toBe(false);
  });

  it('a run that hangs past its limit is stopped and the run says it timed out', async () => {
    const { plan } = await planFor({ model: 'org/model', runs: '1', 'warmup-runs': '0', profiler: 'none', 'deep-dive': 'off' });
    plan.steps[0]!.timeoutSeconds = 1;
    knobs({ STAND_IN_MAX_GENERATE_SLEEP_S: '30' });
    const started = Date.now();
    const result = await runJob(plan, deps());
    expect(result.run.outcome).toBe('timeout');
    expect(result.run.message).toMatch(/^Measured run 1\/1 did not finish within 1 s and was stopped/);
    expect(Date.now() - started).toBeLessThan(6000);
  });

  it('custom architectures are checked before any run; a bad spec stops the run with its fix', async () => {
    const { plan } = await planFor({ model: 'org/model', runs: '1', 'custom-architectures': 'archs/missing_arch' });
    const result = await runJob(plan, deps());
    expect(result.run.outcome).toBe('failed');
    expect(result.run.message).toMatch(/^custom-architecture pre-flight failed: custom-architectures archs\/missing_arch: no directory .*archs\/missing_arch Fix: give the path of the package directory/);
    expect(result.run.steps.map((s) => [s.id, s.status])).toEqual([
      ['preflight', 'failed'],
      ['warmup-1', 'skipped'],
      ['measured-1', 'skipped'],
      ['profile', 'skipped'],
    ]);
  });
});

describe('engine max, mode serve', () => {
  it('starts the server, waits for /health, runs the benchmark windows, stops exactly its group', async () => {
    const port = await freePort();
    const { plan, out } = await planFor({ model: 'org/model', 'max-mode': 'serve', runs: '2', 'max-args': `--port ${port}`, 'capture-seconds': '1' }, 'nvidia', true);
    const maxLog = join(out, '..', 'max-argv.jsonl');
    knobs({ STAND_IN_MAX_ARGV_LOG: maxLog, STAND_IN_MAX_SERVE_STARTUP_S: '0.5' });
    const d = deps();
    const result = await runJob(plan, d);
    expect(result.run.outcome).toBe('ok');
    expect(result.run.steps.map((s) => [s.id, s.status])).toEqual([
      ['serve', 'ok'],
      ['benchmark-warmup-1', 'ok'],
      ['benchmark-1', 'ok'],
      ['benchmark-2', 'ok'],
      ['serve-stop', 'ok'],
    ]);
    const rel = (paths: readonly string[]) => paths.map((p) => p.slice(out.length + 1));
    expect(rel(result.run.analysisInputs)).toEqual(['captures/benchmark-1.json', 'captures/benchmark-1.gpu.jsonl', 'captures/benchmark-2.json', 'captures/benchmark-2.gpu.jsonl']);
    expect(readJson<{ duration: number; completed: number }>(join(out, 'captures', 'benchmark-1.json'))).toMatchObject({ duration: 25.27, completed: 50 });
    expect(readFileSync(join(out, 'logs', 'benchmark-1.log'), 'utf8')).toContain('============ Serving Benchmark Result ============');
    expect(readFileSync(join(out, 'logs', 'serve.log'), 'utf8')).toContain(`🚀 Server ready on http://0.0.0.0:${port} (Press CTRL+C to quit)`);
    expect(d.logger.text()).toContain(`http://127.0.0.1:${port}/health answered 200 after`);

    const pgid = Number(/process group (\d+) stopped/.exec(result.run.steps[4]!.message ?? '')?.[1]);
    expect(pgid).toBeGreaterThan(1);
    expect(liveInGroup(pgid)).toEqual([]);
    expect(await isPortInUse(port)).toBe(false);
    const benchmarkCall = argvLog(maxLog).find((argv) => argv[0] === 'benchmark' && argv.includes('--result-filename'))!;
    expect(benchmarkCall.slice(0, 7)).toEqual(['benchmark', '--model', 'org/model', '--host', '127.0.0.1', '--port', String(port)]);
    expect(benchmarkCall).toEqual(expect.arrayContaining(['--max-benchmark-duration-s', '1']));

    const { analyze: realAnalyze } = await import('../../src/pipeline/analyze.js');
    const real = await realAnalyze({ inputs: result.run.analysisInputs });
    expect(real.sources.map((source) => source.format)).toEqual(['max-benchmark-json', 'gpu-snapshot-jsonl', 'max-benchmark-json', 'gpu-snapshot-jsonl']);
  });

  it.each([
    ['oom', /^max serve exited with code 1 after [\d.]+ s: the GPU ran out of memory while loading the model\. Fix: free the GPU/],
    ['port-in-use', /^max serve exited with code 1 after [\d.]+ s: the port is already in use\. Fix: stop the process holding the port/],
    ['model-not-found', /^max serve exited with code 1 after [\d.]+ s: the model was not found\. Fix: check the model option/],
    ['bad-flag', /^max serve exited with code 2 after [\d.]+ s: max serve rejected a flag\. Fix: fix max-args/],
  ])('an early death (%s) is caught within seconds, with its cause and fix', async (failure, message) => {
    const port = await freePort();
    const { plan } = await planFor({ model: 'org/model', 'max-mode': 'serve', runs: '1', 'max-args': `--port ${port}` });
    knobs({ STAND_IN_MAX_SERVE_FAIL: failure });
    const started = Date.now();
    const result = await runJob(plan, deps());
    expect(result.run.outcome).toBe('failed');
    expect(result.run.message).toMatch(message);
    expect(result.run.steps.map((s) => s.status)).toEqual(['failed', 'skipped', 'skipped', 'skipped']);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('A/B: base and head servers take turns on the same port in blocks base, head, head, base, each stopped before the next starts', async () => {
    const port = await freePort();
    const { plan, out } = await planFor({ model: 'org/model', 'max-mode': 'serve', runs: '3', 'warmup-runs': '0', 'max-args': `--port ${port}`, 'capture-seconds': '1', 'base-workdir': '.' }, 'nvidia', true);
    // The job's own folder as the base is refused by the plan; run it from a subfolder instead.
    expect(plan.problems).toEqual([expect.stringMatching(/^base-workdir: the base folder is the job's own folder/)]);
    const work = join(out, '..');
    mkdirSync(join(work, 'base'));
    const ab = buildPlan(parseRunOptions({ model: 'org/model', 'max-mode': 'serve', runs: '3', 'warmup-runs': '0', 'max-args': `--port ${port}`, 'capture-seconds': '1', 'base-workdir': 'base' }), plan.detected, { outDir: out, cwd: work, pythonDir, gpuSnapshotAvailable: true, isDirectory: existsSync });
    expect(ab.problems).toEqual([]);
    const maxLog = join(work, 'max-argv.jsonl');
    knobs({ STAND_IN_MAX_ARGV_LOG: maxLog, STAND_IN_MAX_SERVE_STARTUP_S: '0.3' });
    const result = await runJob(ab, deps());
    expect(result.run.message).toBeUndefined();
    expect(result.run.steps.map((s) => [s.id, s.status])).toEqual([
      ['base-serve', 'ok'],
      ['base-benchmark-1', 'ok'],
      ['base-benchmark-2', 'ok'],
      ['base-serve-stop', 'ok'],
      ['serve', 'ok'],
      ['benchmark-1', 'ok'],
      ['benchmark-2', 'ok'],
      ['serve-stop', 'ok'],
      ['serve-2', 'ok'],
      ['benchmark-3', 'ok'],
      ['serve-stop-2', 'ok'],
      ['base-serve-2', 'ok'],
      ['base-benchmark-3', 'ok'],
      ['base-serve-stop-2', 'ok'],
    ]);
    // What the turns cost: two more server starts (the stand-in takes 0.3 s to come up).
    const seconds = (id: string) => result.run.steps.find((s) => s.id === id)!.seconds;
    expect(seconds('serve-2')).toBeGreaterThanOrEqual(0.3);
    expect(seconds('base-serve-2')).toBeGreaterThanOrEqual(0.3);
    const rel = (paths: readonly string[]) => paths.map((p) => p.slice(out.length + 1));
    expect(rel(result.run.baseAnalysisInputs)).toEqual([1, 2, 3].flatMap((i) => [`base/captures/benchmark-${i}.json`, `base/captures/benchmark-${i}.gpu.jsonl`]));
    expect(rel(result.run.analysisInputs)).toEqual([1, 2, 3].flatMap((i) => [`captures/benchmark-${i}.json`, `captures/benchmark-${i}.gpu.jsonl`]));
    // Both servers' groups are gone and the port is free again.
    for (const id of ['base-serve-stop', 'serve-stop', 'serve-stop-2', 'base-serve-stop-2']) {
      const pgid = Number(/process group (\d+) stopped/.exec(result.run.steps.find((s) => s.id === id)!.message ?? '')?.[1]);
      expect(liveInGroup(pgid)).toEqual([]);
    }
    expect(await isPortInUse(port)).toBe(false);
    expect(argvLog(maxLog).filter((argv) => argv[0] === 'serve')).toHaveLength(4);
  });

  it('a known error in the log stops a server that stays up; a bare traceback is only reported', async () => {
    const port = await freePort();
    const stuck = await planFor({ model: 'org/model', 'max-mode': 'serve', runs: '1', 'warmup-runs': '0', 'max-args': `--port ${port}` });
    knobs({ STAND_IN_MAX_SERVE_FAIL: 'oom', STAND_IN_MAX_SERVE_HANG_AFTER_FAIL: '1' });
    const stopped = await runJob(stuck.plan, deps());
    expect(stopped.run.message).toMatch(/^max serve logged an error while starting: the GPU ran out of memory while loading the model\. Fix: /);
    expect(stopped.run.steps[0]!.seconds).toBeLessThan(4);

    delete process.env.STAND_IN_MAX_SERVE_FAIL;
    knobs({ STAND_IN_MAX_SERVE_HARMLESS_TRACEBACK: '1', STAND_IN_MAX_SERVE_STARTUP_S: '1' });
    const noisy = await planFor({ model: 'org/model', 'max-mode': 'serve', runs: '1', 'warmup-runs': '0', 'max-args': `--port ${port}` });
    const d = deps();
    const result = await runJob(noisy.plan, d);
    expect(result.run.outcome).toBe('ok');
    expect(d.logger.lines.filter((l) => l.kind === 'warning').map((l) => l.text)).toContainEqual(expect.stringMatching(/^max serve logged an error while starting \(".*ConnectionError: telemetry endpoint unreachable \(ignored\)"\); still waiting/));
  });

  it('a server that dies after /health went green fails the window it was serving, and the benchmark is stopped', async () => {
    const port = await freePort();
    const { plan } = await planFor({ model: 'org/model', 'max-mode': 'serve', runs: '1', 'max-args': `--port ${port}` });
    knobs({ STAND_IN_MAX_SERVE_DIE_AFTER_HEALTH_S: '0.3', STAND_IN_MAX_BENCH_S: '20' });
    const result = await runJob(plan, deps());
    expect(result.run.outcome).toBe('failed');
    expect(result.run.message).toMatch(/^max serve exited \(exited with code 1\) during warm-up benchmark window 1\/1; its last log lines: .*Model worker process terminated unexpectedly/);
    expect(result.run.steps.map((s) => [s.id, s.status])).toEqual([
      ['serve', 'ok'],
      ['benchmark-warmup-1', 'failed'],
      ['benchmark-1', 'skipped'],
      ['serve-stop', 'ok'],
    ]);
    expect(result.run.steps[1]!.seconds).toBeLessThan(5);
  });

  it('a server that never answers /health is given up on at its limit, saying what it waited for', async () => {
    const port = await freePort();
    const { plan } = await planFor({ model: 'org/model', 'max-mode': 'serve', runs: '1', 'max-args': `--port ${port}` });
    plan.steps[0]!.timeoutSeconds = 1.5;
    knobs({ STAND_IN_MAX_SERVE_STARTUP_S: '60' });
    const result = await runJob(plan, deps());
    expect(result.run.outcome).toBe('timeout');
    expect(result.run.message).toMatch(new RegExp(`^max serve did not answer 200 on http://127\\.0\\.0\\.1:${port}/health within 2 s: last log line: .*Building and compiling model`));
  });

  it('a port already taken is refused before anything starts', async () => {
    const busy: NetServer = createServer();
    const port = await new Promise<number>((resolve) => busy.listen(0, '0.0.0.0', () => resolve((busy.address() as { port: number }).port)));
    try {
      const { plan } = await planFor({ model: 'org/model', 'max-mode': 'serve', 'max-args': `--port ${port}` }, 'nvidia', true);
      expect(plan.problems).toEqual([`max-args: port ${port} is already in use by another process; stop it or pass --port N in max-args`]);
      await expect(runJob(plan, deps())).rejects.toThrow(UsageError);
    } finally {
      busy.close();
    }
  });
});
