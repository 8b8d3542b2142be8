/**
 * Command workloads end to end, and `profile-gate run` itself: the tiny CPU-only workload (no GPU,
 * nothing measured) under the stand-in nsys/ncu on a box that nvidia-smi describes as one H200.
 */
import { verdictLines } from '../../src/report/verdict-lines.js';
import { askDeepDive, deepDiveRequest } from '../../src/diagnose/deep-dive-request.js';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXIT_RUN_FAILED } from '../../src/errors.js';
import { runCli } from '../helpers/cli.js';
import { prepareRun, runJob } from '../../src/runner/run-workload.js';
import { createMemoryLogger } from '../../src/runner/logger.js';
import { parseRunOptions, RUN_OPTION_NAMES } from '../../src/runner/run-options.js';
import { ProcessGroups } from '../../src/runner/process-group.js';
import type { Report } from '../../src/model/report.js';
import { PYTHON, REPO, RECORDED_NCU_CSV, RECORDED_NSYS_STATS, standInProbe, standInPythonDir, standInToolsDir, tempDir, TINY_WORKLOAD, useStandInMaxOnPath } from './stand-ins.js';
import { emptyReport } from '../helpers/empty-report.js';

const tools = standInToolsDir();
const pythonDir = standInPythonDir({ snapshot: false });
let restorePath: () => void;
beforeAll(() => {
  restorePath = useStandInMaxOnPath();
  process.env.STAND_IN_NSYS_STATS = RECORDED_NSYS_STATS;
  process.env.STAND_IN_NCU_CSV = RECORDED_NCU_CSV;
});
afterAll(() => {
  restorePath();
  delete process.env.STAND_IN_NSYS_STATS;
  delete process.env.STAND_IN_NCU_CSV;
});

const probe = standInProbe({ vendor: 'nvidia', nsys: tools.nsys, ncu: tools.ncu });
const workload = (extra = '') => `python3 ${TINY_WORKLOAD} --steps 2 --step-ms 1 ${extra}`.trim();

function report(findings: Report['findings'] = []): Report {
  return emptyReport({ findings, verdict: findings.length ? 'fail' : 'pass' });
}

const dominant = {
  id: 'dominant-kernel',
  severity: 'warning' as const,
  title: 'One kernel dominates',
  message: 'nvjet_sm90_tst_256x8 takes 29% of GPU time',
  evidence: {},
  advice: 'look at it',
  docs: 'x',
  secondary: false,
  basis: [],
  kernel: 'nvjet_sm90_tst_256x8_64x6_4x1_v_bz_NNT',
  ...askDeepDive(deepDiveRequest('nvjet_sm90_tst_256x8_64x6_4x1_v_bz_NNT', 40), '<workload command>'),
};

describe('engine command', () => {
  it('nsys with the capture range, nsys stats as CSV, then the ncu deep dive', async () => {
    const work = tempDir('cmd');
    const plan = await prepareRun(parseRunOptions({ engine: 'command', run: workload(), runs: '1', 'warmup-runs': '1' }), { outDir: 'out', cwd: work, probe, pythonDir });
    expect(plan.profiler).toBe('nsys');
    const analyzed: number[] = [];
    const result = await runJob(plan, { logger: createMemoryLogger(), groups: new ProcessGroups({ graceMs: 300 }), analyze: async (inputs) => (analyzed.push(inputs.length), report([dominant])) });
    expect(result.run.outcome).toBe('ok');
    expect(result.run.steps.map((s) => [s.id, s.status])).toEqual([
      ['warmup-1', 'ok'],
      ['measured-1', 'ok'],
      ['profile', 'ok'],
      ['profile-stats', 'ok'],
      ['profile-gpu-util', 'ok'],
    ]);
    const out = join(work, 'out');
    expect(result.run.analysisInputs).toEqual([join(out, 'captures', 'profile.nsys-stats.csv'), join(out, 'captures', 'profile.gpu-time-util.csv'), join(out, 'captures', 'deep-dive.ncu.csv')]);
    // The CSV is exactly what nsys stats printed on stdout; its own messages went to the log.
    expect(readFileSync(join(out, 'captures', 'profile.nsys-stats.csv'), 'utf8')).toBe(readFileSync(RECORDED_NSYS_STATS, 'utf8'));
    expect(readFileSync(join(out, 'captures', 'deep-dive.ncu.csv'), 'utf8')).toBe(readFileSync(RECORDED_NCU_CSV, 'utf8'));
    expect(readFileSync(join(out, 'logs', 'measured-1.log'), 'utf8')).toMatch(/^tiny_command_workload: 2 steps in [\d.]+ ms\n$/);
    expect(analyzed).toEqual([2, 3]);
    expect(result.deepDive).toMatchObject({ status: 'ok' });
    expect(result.report!.notices.some((n) => n.code === 'run' && /gpu_snapshot\.py is missing/.test(n.message))).toBe(true);
  });

  it('when nsys captured nothing, the run goes on without a kernel profile and says why', async () => {
    const work = tempDir('cmd');
    const skipped = join(work, 'skipped.txt');
    writeFileSync(skipped, 'Generating SQLite file profile.sqlite from profile.nsys-rep\nSKIPPED: profile.sqlite does not contain CUDA kernel data.\n');
    process.env.STAND_IN_NSYS_STATS = skipped;
    try {
      const plan = await prepareRun(parseRunOptions({ engine: 'command', run: workload(), runs: '1', 'warmup-runs': '0', 'deep-dive': 'off' }), { outDir: 'out', cwd: work, probe, pythonDir });
      const result = await runJob(plan, { logger: createMemoryLogger(), groups: new ProcessGroups({ graceMs: 300 }) });
      expect(result.run.outcome).toBe('failed');
      // The failed steps' own hint ends the run's message too (stderr prints it; before, only run.json held it).
      expect(result.run.message).toMatch(/^no capture file was produced for the analysis: .*profile\.nsys-stats\.csv does not look like Nsight Systems stats \(nsys stats\) .*\(the capture range probably never opened: call torch\.cuda\.profiler\.start\(\)/);
      expect(result.run.steps.map((s) => [s.id, s.status])).toEqual([
        ['measured-1', 'ok'],
        ['profile', 'ok'],
        ['profile-stats', 'failed'],
        ['profile-gpu-util', 'failed'],
      ]);
      expect(result.run.notices.map((n) => n.message)).toContainEqual(expect.stringMatching(/profile\.nsys-stats\.csv does not look like Nsight Systems stats \(nsys stats\) .*\(the capture range probably never opened: call torch\.cuda\.profiler\.start\(\) and stop\(\)/));
    } finally {
      process.env.STAND_IN_NSYS_STATS = RECORDED_NSYS_STATS;
    }
  });

  it('a workload that profiles itself: measured captures are kept as timings, the profile-run trace is analyzed', async () => {
    const work = tempDir('cmd');
    const plan = await prepareRun(
      parseRunOptions({ engine: 'command', run: workload('--trace traces/measured.json'), 'profile-run': workload('--trace traces/profile.json'), captures: 'traces/*.json', runs: '2', 'warmup-runs': '0' }),
      { outDir: 'out', cwd: work, probe, pythonDir },
    );
    expect(plan.profiler).toBe('torch');
    const result = await runJob(plan, { logger: createMemoryLogger(), groups: new ProcessGroups({ graceMs: 300 }) });
    expect(result.run.outcome).toBe('ok');
    const out = join(work, 'out', 'captures');
    expect(result.run.files.map((f) => [f.path.slice(out.length + 1), f.analysis])).toEqual([
      ['measured-1/traces/measured.json', false],
      ['measured-2/traces/measured.json', false],
      ['profile/traces/profile.json', true],
    ]);
    const trace = JSON.parse(readFileSync(join(out, 'profile', 'traces', 'profile.json'), 'utf8')) as { traceEvents: unknown[] };
    expect(trace.traceEvents).toHaveLength(2);
  });

  it('only the profile run writes the trace: the measured runs that write none are not warned about; a profile run that writes none is', async () => {
    // As on the H200 with llama_decode.py --profile torch-capture: the trace comes from the profile run alone.
    const work = tempDir('cmd');
    const plan = await prepareRun(
      parseRunOptions({ engine: 'command', run: workload(), 'profile-run': workload('--trace traces/profile.json'), captures: 'traces/*.json', runs: '2', 'warmup-runs': '0' }),
      { outDir: 'out', cwd: work, probe, pythonDir },
    );
    const result = await runJob(plan, { logger: createMemoryLogger(), groups: new ProcessGroups({ graceMs: 300 }) });
    expect(result.run.outcome).toBe('ok');
    expect(result.run.notices.filter((n) => /wrote no file matching captures/.test(n.message))).toEqual([]);
    const silent = tempDir('cmd');
    const noTrace = await prepareRun(
      parseRunOptions({ engine: 'command', run: workload(), 'profile-run': workload(), captures: 'traces/*.json', runs: '1', 'warmup-runs': '0' }),
      { outDir: 'out', cwd: silent, probe, pythonDir },
    );
    const second = await runJob(noTrace, { logger: createMemoryLogger(), groups: new ProcessGroups({ graceMs: 300 }) });
    expect(second.run.notices.map((n) => n.message)).toContainEqual('profile: the step wrote no file matching captures traces/*.json');
  });

  it('A/B with sampling and nsys: every step of both sides writes into its own folders', async () => {
    const work = tempDir('cmd-ab');
    mkdirSync(join(work, 'base'));
    const sampled = standInPythonDir();
    const plan = await prepareRun(parseRunOptions({ engine: 'command', run: workload(), 'base-workdir': 'base', runs: '3', 'warmup-runs': '0', 'deep-dive': 'off' }), { outDir: 'out', cwd: work, probe, pythonDir: sampled });
    expect(plan.sampling).toBe(true);
    const sides: string[] = [];
    const result = await runJob(plan, { logger: createMemoryLogger(), groups: new ProcessGroups({ graceMs: 300 }), analyze: async (_inputs, which) => (sides.push(which.side), report([])) });
    expect(result.run.message).toBeUndefined();
    expect(result.run.outcome).toBe('ok');
    expect(sides).toEqual(['base', 'head']);
    const rel = (paths: string[]) => paths.map((path) => path.slice(work.length + 1));
    expect(rel(result.run.baseAnalysisInputs)).toEqual([
      'out/base/captures/measured-1.gpu.jsonl',
      'out/base/captures/measured-2.gpu.jsonl',
      'out/base/captures/measured-3.gpu.jsonl',
      'out/base/captures/profile.nsys-stats.csv',
      'out/base/captures/profile.gpu-time-util.csv',
    ]);
    expect(rel(result.run.analysisInputs)).toEqual([
      'out/captures/measured-1.gpu.jsonl',
      'out/captures/measured-2.gpu.jsonl',
      'out/captures/measured-3.gpu.jsonl',
      'out/captures/profile.nsys-stats.csv',
      'out/captures/profile.gpu-time-util.csv',
    ]);
    expect(result.run.files.filter((f) => f.side === 'base').every((f) => f.path.startsWith(join(work, 'out', 'base')))).toBe(true);
    expect(existsSync(join(work, 'out', 'base', 'captures', 'profile.nsys-rep'))).toBe(true);
    expect(existsSync(join(work, 'out', 'base', 'baseline-report.json'))).toBe(true);
  });

  it('a measured run that exits non-zero stops the run, naming the step and its last output', async () => {
    const work = tempDir('cmd');
    const plan = await prepareRun(parseRunOptions({ engine: 'command', run: workload('--exit-code 7'), runs: '3', 'warmup-runs': '0', profiler: 'none' }), { outDir: 'out', cwd: work, probe, pythonDir });
    const result = await runJob(plan, { logger: createMemoryLogger(), groups: new ProcessGroups({ graceMs: 300 }) });
    expect(result.run.outcome).toBe('failed');
    expect(result.run.message).toMatch(/^Measured run 1\/3 exited with code 7 \(log: out\/logs\/measured-1\.log\)\. Last output: "tiny_command_workload: 2 steps in [\d.]+ ms"$/);
    expect(result.run.steps.map((s) => s.status)).toEqual(['failed', 'skipped', 'skipped']);
  });
});

describe('profile-gate run (CLI)', () => {
  function cli(argv: string[], cwd: string, options: { realAnalysis?: boolean } = {}) {
    return runCli(argv, { probe, pythonDir, cwd, groups: new ProcessGroups({ graceMs: 300 }), ...(options.realAnalysis ? {} : { analyze: async () => report([]) }) });
  }

  it('--dry-run prints the plan and runs nothing', async () => {
    const work = tempDir('cli');
    const { code, stdout } = await cli(['--engine', 'command', '--run', workload(), '--runs', '2', '--dry-run', '--out', 'o'], work);
    expect(code).toBe(0);
    expect(stdout).toContain('profile-gate run: plan\n  engine      command\n  GPU         1 x NVIDIA H200, driver 580.159.04, CUDA 13.0');
    expect(stdout).toContain(`  2. Measured run 1/2`);
    expect(stdout).toContain(`     $ bash -c 'python3 ${TINY_WORKLOAD} --steps 2 --step-ms 1'`);
    expect(existsSync(join(work, 'o'))).toBe(false);
  });

  it('--help names every run option and every gate flag', async () => {
    const { code, stdout } = await cli(['--help'], tempDir('cli'));
    expect(code).toBe(0);
    for (const name of RUN_OPTION_NAMES) expect(stdout).toMatch(new RegExp(`^  --${name} `, 'm'));
    for (const flag of ['--baseline', '--threshold', '--fail-on', '--allow-throttled', '--out', '--dry-run', '--quiet']) expect(stdout).toMatch(new RegExp(`^  ${flag} `, 'm'));
  });

  it('no GPU with a profiler planned: the plan cannot run (exit 2, nothing started), unless --allow-no-gpu', async () => {
    const work = tempDir('cli');
    const noGpu = standInProbe({ vendor: 'none' });
    const run = (extra: string[]) => runCli(['--engine', 'command', '--run', workload(), '--runs', '1', '--warmup-runs', '0', '--deep-dive', 'off', '--out', 'o', '--quiet', ...extra], { probe: noGpu, pythonDir, cwd: work, groups: new ProcessGroups({ graceMs: 300 }), analyze: async () => report([]) });
    const refused = await run([]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^profile-gate: the plan cannot run: no GPU found \(nvidia-smi and rocm-smi list none\), but profiler auto needs one; .*allow-no-gpu \(--allow-no-gpu\)/);
    expect(existsSync(join(work, 'o', 'logs'))).toBe(false);
    // A switch: the next word is not its value.
    // Allowed, it runs (the tiny workload writes no capture, so the run then fails for that: exit 4).
    const allowed = await run(['--allow-no-gpu']);
    expect(allowed.stderr).not.toMatch(/no GPU found/);
    expect(allowed.stdout).toMatch(/^run failed in [\d.]+ s; /m);
    expect(allowed.code).toBe(EXIT_RUN_FAILED);
  });

  it('takes flag values that start with a dash (max-args, benchmark-args)', async () => {
    const { code, stdout } = await cli(['--model', 'org/m', '--max-args', '--max-length 2048', '--dry-run'], tempDir('cli'));
    expect(stdout).toContain('     $ max generate --model org/m --max-new-tokens 100 --max-length 2048\n');
    expect(code).toBe(0);
  });

  it('a command after -- points to --run (exit 2, one line)', async () => {
    const { code, stderr } = await cli(['--engine', 'command', '--', 'python', 'serve.py', '--port', '8000'], tempDir('cli'));
    expect(code).toBe(2);
    expect(stderr).toBe('profile-gate: run: the workload command goes in --run, not after --: profile-gate run --engine command --run "python serve.py --port 8000"\n');
  });

  it('bad options exit 2 with one line naming the flag', async () => {
    const { code, stderr } = await cli(['--engine', 'command', '--run', 'x', '--runs', 'many'], tempDir('cli'));
    expect(code).toBe(2);
    expect(stderr).toBe('profile-gate: --runs: expected a whole number, got "many"\n');
    const unknown = await cli(['--bogus'], tempDir('cli'));
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe('profile-gate: run: unknown option --bogus (profile-gate run --help lists its options)\n');
  });

  it('runs, analyzes and writes the report into --out; a failed run exits 4', async () => {
    const work = tempDir('cli');
    const ok = await cli(['--engine', 'command', '--run', workload(), '--runs', '1', '--warmup-runs', '0', '--deep-dive', 'off', '--out', 'o', '--quiet'], work);
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/\nrun ok in [\d.]+ s; 2 capture file\(s\); details in .*\/o\/run\.json\n/);
    // profile.json beside the report: profile-gate's own reading, the file to share (no capture here has a timeline, so no traces/).
    expect(readdirSync(join(work, 'o')).sort()).toEqual(['captures', 'logs', 'profile.json', 'report.json', 'report.md', 'run.json']);
    expect(ok.stdout).toContain('profile.json and 0 clean trace(s) written from the captures');
    expect(ok.stdout).not.toContain('  | tiny_command_workload');
    // Again into the same folder: the files hold this run only.
    expect((await cli(['--engine', 'command', '--run', workload(), '--runs', '1', '--warmup-runs', '0', '--deep-dive', 'off', '--out', 'o', '--quiet'], work)).code).toBe(0);
    expect(readFileSync(join(work, 'o', 'logs', 'measured-1.log'), 'utf8').split('\n').filter(Boolean)).toHaveLength(1);

    const failed = await cli(['--engine', 'command', '--run', workload('--exit-code 3'), '--runs', '1', '--warmup-runs', '0', '--profiler', 'none', '--out', 'o2'], work);
    expect(failed.code).toBe(EXIT_RUN_FAILED);
    expect(failed.stdout).toContain('  | tiny_command_workload: 2 steps');
    expect(failed.stderr).toMatch(/^profile-gate: run failed: Measured run 1\/1 exited with code 3/);
  });

  it('with the real analysis: the nsys stats CSV becomes the report, environment from the box', async () => {
    const work = tempDir('cli');
    const { code, stdout, stderr } = await cli(['--engine', 'command', '--run', workload(), '--model', 'tiny-label', '--runs', '1', '--warmup-runs', '0', '--out', 'o', '--quiet'], work, { realAnalysis: true });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const written = JSON.parse(readFileSync(join(work, 'o', 'report.json'), 'utf8')) as Report;
    // First data row of the recorded nsys_healthy_kern_sum.csv: 28.6,12183455,256,…,nvjet_sm90_tst_256x8_64x6_4x1_v_bz_NNT
    expect(written.kernels[0]).toMatchObject({ name: 'nvjet_sm90_tst_256x8_64x6_4x1_v_bz_NNT', totalNs: 12183455, instances: 256 });
    expect(written.environment).toMatchObject({ gpuName: 'NVIDIA H200', driver: '580.159.04', cuda: '13.0', engine: 'command', model: 'tiny-label' });
    expect(written.sources.map((source) => source.format)).toEqual(['nsys-stats', 'nsys-gpu-time-util']);
    expect(written.gpuTimeUtilPercent).toBe(92.4);
    expect(written.notices).toContainEqual(expect.objectContaining({ code: 'workload-console-unread', message: expect.stringMatching(/^the workload's console holds no \{"metric": …, "value": …\} line/) }));
    expect(stdout).toContain('profile-gate run: plan');
  });

  describe('a workload that never marks its window under nsys', () => {
    // The stand-in nsys writes no report under --capture-range=cudaProfilerApi (as nsys does when the
    // workload never calls cudaProfilerStart, exiting 0); without the range it writes one, or none at all.
    const speed = join(REPO, '__tests__', 'helpers', 'stand-in-speed.py');
    const metricsWorkload = `${PYTHON} ${speed} --tok-s 358 --counter runs.count`;
    const withRange = async (mode: 'never' | 'none', extra: string[] = []) => {
      process.env.STAND_IN_NSYS_RANGE = mode;
      try {
        const work = tempDir('range');
        const result = await cli(['--engine', 'command', '--run', metricsWorkload, '--runs', '3', '--warmup-runs', '0', '--deep-dive', 'off', '--out', 'o', '--quiet', ...extra], work, { realAnalysis: true });
        const run = JSON.parse(readFileSync(join(work, 'o', 'run.json'), 'utf8')) as { steps: { id: string; status: string }[]; notices: { message: string }[]; lostCaptures?: { path: string; reason: string }[] };
        const written = existsSync(join(work, 'o', 'report.json')) ? (JSON.parse(readFileSync(join(work, 'o', 'report.json'), 'utf8')) as Report) : undefined;
        return { ...result, run, report: written };
      } finally {
        delete process.env.STAND_IN_NSYS_RANGE;
      }
    };

    it('falls back once to a whole-process capture, keeps the kernel comparison, and says how to mark the window', async () => {
      const { code, stderr, run, report: written } = await withRange('never');
      expect(stderr).toBe('');
      expect(code).toBe(0);
      expect(run.steps.map((s) => [s.id, s.status])).toEqual([
        ['measured-1', 'ok'],
        ['measured-2', 'ok'],
        ['measured-3', 'ok'],
        ['profile', 'failed'],
        ['profile-stats', 'skipped'],
        ['profile-gpu-util', 'skipped'],
        ['profile-whole', 'ok'],
        ['profile-stats', 'ok'],
        ['profile-gpu-util', 'ok'],
      ]);
      expect(run.lostCaptures).toBeUndefined();
      // The kernels of the recorded nsys stats reach the report.
      expect(written!.kernels[0]).toMatchObject({ name: 'nvjet_sm90_tst_256x8_64x6_4x1_v_bz_NNT', instances: 256 });
      expect(written!.skippedInputs).toEqual([]);
      expect(written!.notices.map((n) => n.message)).toContainEqual(expect.stringMatching(/^the profiled run wrote no report: nsys records between cudaProfilerStart and cudaProfilerStop, .*taken again as a whole process.*torch\.cuda\.profiler\.start\(\) and torch\.cuda\.profiler\.stop\(\)/));
    }, 60_000);

    it('a capture that is still not made leads the verdict, and --strict fails on it', async () => {
      const { code, run, report: written } = await withRange('none');
      expect(code).toBe(0);
      expect(run.lostCaptures).toEqual([{ path: 'o/captures/profile.nsys-rep', reason: expect.stringMatching(/^planned capture not made, so no kernel comparison, per-step time or kernel findings: Profiled run \(nsys\) exited 0 but o\/captures\/profile\.nsys-rep was not written .*; then Profiled run \(nsys, whole process: the capture range never opened\) exited 0 but o\/captures\/profile\.nsys-rep was not written/) }]);
      expect(written!.kernels).toEqual([]);
      expect(written!.skippedInputs).toEqual(run.lostCaptures);
      expect(verdictLines(written!)[0]).toMatch(/^1 input was skipped, the verdict rests on the rest: o\/captures\/profile\.nsys-rep \(planned capture not made, so no kernel comparison/);
      const strict = await withRange('none', ['--strict']);
      expect(strict.code).toBe(EXIT_RUN_FAILED);
      expect(strict.stderr).toMatch(/^profile-gate: --strict: o\/captures\/profile\.nsys-rep: planned capture not made/);
    }, 90_000);
  });

  // Real captures of one GQA workload on an H200 (fixtures/h200-captures/gqa_repeat_kv/PROVENANCE.md): nsys names
  // the KV-head copy `void at::native::elementwise_kernel<(int)128, (int)4, …>`, ncu `void elementwise_kernel<128, 4, …>`.
  it('attaches the automatic deep dive to the breakdown kernel that nsys and ncu spell differently', async () => {
    const work = tempDir('cli');
    const captures = join(import.meta.dirname, '..', 'fixtures', 'h200-captures', 'gqa_repeat_kv');
    const toolsLog = join(work, 'tools.jsonl');
    Object.assign(process.env, { STAND_IN_NSYS_STATS: join(captures, 'gqa_cuda_gpu_kern_sum.csv'), STAND_IN_NCU_CSV: join(captures, 'ncu', 'gqa_copy.ncu.csv'), STAND_IN_TOOLS_ARGV_LOG: toolsLog });
    try {
      const { code, stderr } = await cli(['--engine', 'command', '--run', workload(), '--runs', '1', '--warmup-runs', '0', '--out', 'o', '--quiet'], work, { realAnalysis: true });
      expect(stderr).toBe('');
      expect(code).toBe(0);
      const written = JSON.parse(readFileSync(join(work, 'o', 'report.json'), 'utf8')) as Report;
      const copy = written.kernels[0]!;
      expect(copy).toMatchObject({ totalNs: 11831460, instances: 80 });
      expect(copy.name).toMatch(/^void at::native::elementwise_kernel<\(int\)128, \(int\)4, /);
      // The dominant-kernel finding asked for the deep dive as data; the runner ran exactly that.
      const dominant = written.findings.find((f) => f.id === 'dominant-kernel')!;
      expect(dominant.deepDive).toMatchObject({ kernel: copy.name, kernelKey: 'elementwise_kernel<direct_copy_kernel_cuda>', launchSkip: 40, demangled: true });
      const ncu = readFileSync(toolsLog, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as string[]).find((argv) => argv[0] === 'ncu')!;
      expect(ncu.slice(3, 13)).toEqual(['--clock-control', 'none', '--kernel-name', 'regex:(^|[^A-Za-z0-9_])elementwise_kernel<.*direct_copy_kernel_cuda', '--kernel-name-base', 'demangled', '--launch-skip', '40', '--launch-count', '1']);
      // The deep dive's findings are about the breakdown kernel, with its share, and with copy advice.
      expect(written.deepDive).toHaveLength(1);
      const compute = written.findings.find((f) => f.id === 'kernel-compute-bound')!;
      expect(compute.kernel).toBe(copy.name);
      expect(compute.evidence).toMatchObject({ kernelKind: 'copy', ncuBottleneck: 'compute', computePercent: 77.17 });
      expect(compute.evidence['share']).toBeCloseTo(0.8083, 4);
      expect(compute.advice).not.toMatch(/FP8|tensor-core/);
      expect(written.notices.map((n) => n.message).join('\n')).not.toMatch(/no Nsight Compute section/);
      const md = readFileSync(join(work, 'o', 'report.md'), 'utf8');
      expect(md).toMatch(/\| deep dive \| ↳ Nsight Compute, 1 launch: .*findings: copy\\-heavy, kernel\\-compute\\-bound/);
    } finally {
      Object.assign(process.env, { STAND_IN_NSYS_STATS: RECORDED_NSYS_STATS, STAND_IN_NCU_CSV: RECORDED_NCU_CSV });
      delete process.env.STAND_IN_TOOLS_ARGV_LOG;
    }
  });

  // Found on the H200: in an A/B job ncu exited 0 with a full CSV, and the report said "the deep dive
  // failed: The report has no Nsight Compute section" (the deep-dive step ran as a plan that still had
  // a base side, and the base side had no capture of that step).
  it('attaches the deep dive of an A/B job (--base-run) to the head report', async () => {
    const work = tempDir('cli');
    const captures = join(import.meta.dirname, '..', 'fixtures', 'h200-captures', 'gqa_repeat_kv');
    const toolsLog = join(work, 'tools.jsonl');
    Object.assign(process.env, { STAND_IN_NSYS_STATS: join(captures, 'gqa_cuda_gpu_kern_sum.csv'), STAND_IN_NCU_CSV: join(captures, 'ncu', 'gqa_copy.ncu.csv'), STAND_IN_TOOLS_ARGV_LOG: toolsLog });
    try {
      const { code, stderr } = await cli(['--engine', 'command', '--run', workload(), '--base-run', workload(), '--runs', '3', '--warmup-runs', '0', '--deep-dive', 'auto', '--out', 'o', '--quiet'], work, { realAnalysis: true });
      // The stand-in workload prints no metric and no steps: the one line on stderr says nothing was gated.
      expect(stderr).toMatch(/^(?:profile-gate: warning: verdict insufficient-data, which does not fail this run .*nothing gated: .*\n)?$/);
      expect(code).toBe(0);
      const written = JSON.parse(readFileSync(join(work, 'o', 'report.json'), 'utf8')) as Report;
      expect(written.comparison!.baseline).toMatchObject({ origin: 'a/b' });
      // ncu ran once, for the head only, on the kernel the head's dominant-kernel finding named.
      const ncuCalls = readFileSync(toolsLog, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as string[]).filter((argv) => argv[0] === 'ncu');
      expect(ncuCalls).toHaveLength(1);
      expect(written.deepDive).toHaveLength(1);
      expect(written.sources.map((source) => source.path.slice(work.length + 1))).toContain('o/captures/deep-dive.ncu.csv');
      expect(written.findings.find((f) => f.id === 'kernel-compute-bound')).toMatchObject({ kernel: written.kernels[0]!.name });
      expect(written.notices.map((n) => n.message).join('\n')).not.toMatch(/deep dive|Nsight Compute section/);
      const run = JSON.parse(readFileSync(join(work, 'o', 'run.json'), 'utf8')) as { deepDive: { status: string }; analysisInputs: string[]; base: { analysisInputs: string[] } };
      expect(run.deepDive).toMatchObject({ status: 'ok' });
      expect(run.analysisInputs.map((path) => path.slice(work.length + 1))).toContain('o/captures/deep-dive.ncu.csv');
      expect(run.base.analysisInputs.some((path) => path.includes('deep-dive'))).toBe(false);
    } finally {
      Object.assign(process.env, { STAND_IN_NSYS_STATS: RECORDED_NSYS_STATS, STAND_IN_NCU_CSV: RECORDED_NCU_CSV });
      delete process.env.STAND_IN_TOOLS_ARGV_LOG;
    }
  });

  it('a deep dive that profiled nothing says what ncu was asked for', async () => {
    const work = tempDir('cli');
    const captures = join(import.meta.dirname, '..', 'fixtures', 'h200-captures', 'gqa_repeat_kv');
    const nothing = join(work, 'nothing.txt');
    writeFileSync(nothing, '==PROF== Disconnected from process 1082\n==WARNING== No kernels were profiled.\n');
    Object.assign(process.env, { STAND_IN_NSYS_STATS: join(captures, 'gqa_cuda_gpu_kern_sum.csv'), STAND_IN_NCU_CSV: nothing });
    try {
      const { code } = await cli(['--engine', 'command', '--run', workload(), '--runs', '1', '--warmup-runs', '0', '--out', 'o', '--quiet'], work, { realAnalysis: true });
      expect(code).toBe(0);
      const written = JSON.parse(readFileSync(join(work, 'o', 'report.json'), 'utf8')) as Report;
      expect(written.deepDive).toEqual([]);
      const notice = written.notices.find((n) => /no Nsight Compute section/.test(n.message))!;
      // The ncu importer recognizes ncu's own warning, so the analysis says what ncu printed.
      expect(notice.message).toContain('ncu profiled no kernels (==WARNING== No kernels were profiled)');
      expect(notice.message).toContain('the report has no Nsight Compute section (ncu was asked for launch 41 of the kernels matching (^|[^A-Za-z0-9_])elementwise_kernel<.*direct_copy_kernel_cuda (demangled names)).');
    } finally {
      Object.assign(process.env, { STAND_IN_NSYS_STATS: RECORDED_NSYS_STATS, STAND_IN_NCU_CSV: RECORDED_NCU_CSV });
    }
  });

  it('a deep dive whose CSV profiled another kernel names the file and the kernel it was run for', async () => {
    const work = tempDir('cli');
    const captures = join(import.meta.dirname, '..', 'fixtures', 'h200-captures', 'gqa_repeat_kv');
    // The copy kernel dominates the nsys table; ncu's CSV (a real one) holds an nvjet GEMM launch instead.
    Object.assign(process.env, { STAND_IN_NSYS_STATS: join(captures, 'gqa_cuda_gpu_kern_sum.csv'), STAND_IN_NCU_CSV: RECORDED_NCU_CSV });
    try {
      const { code } = await cli(['--engine', 'command', '--run', workload(), '--runs', '1', '--warmup-runs', '0', '--out', 'o', '--quiet'], work, { realAnalysis: true });
      expect(code).toBe(0);
      const written = JSON.parse(readFileSync(join(work, 'o', 'report.json'), 'utf8')) as Report;
      const notice = written.notices.find((n) => n.message.startsWith("the deep dive's o/captures/deep-dive.ncu.csv holds launches of "))!;
      expect(notice.severity).toBe('warning');
      expect(notice.message).toMatch(/^the deep dive's o\/captures\/deep-dive\.ncu\.csv holds launches of nvjet_sm90_tst_8x64_64x16_4x1_v_bz_TNN; cudnn_generated_fort_native_sdpa_\w+; nvjet_sm90_tst_8x64_64x16_2x1_v_bz_TNN and 1 more, none of them void at::native::elementwise_kernel<\(int\)128, \(int\)4, .{66}… \(key /);
      expect(notice.message).toContain('(key elementwise_kernel<direct_copy_kernel_cuda>), the kernel it was run for (ncu was asked for launch 41 of the kernels matching ');
    } finally {
      Object.assign(process.env, { STAND_IN_NSYS_STATS: RECORDED_NSYS_STATS, STAND_IN_NCU_CSV: RECORDED_NCU_CSV });
    }
  });

  it('a deep dive whose CSV the analysis refuses keeps the report made without it, naming the file and why', async () => {
    const work = tempDir('cli');
    const captures = join(import.meta.dirname, '..', 'fixtures', 'h200-captures', 'gqa_repeat_kv');
    // ncu's header and no result (a run cut short): the file passes the shape check, the analysis refuses it.
    const headerOnly = join(work, 'header-only.csv');
    writeFileSync(headerOnly, `${readFileSync(join(captures, 'ncu', 'gqa_copy.ncu.csv'), 'utf8').split('\n').find((line) => line.startsWith('"ID","Process ID"'))!}\n`);
    Object.assign(process.env, { STAND_IN_NSYS_STATS: join(captures, 'gqa_cuda_gpu_kern_sum.csv'), STAND_IN_NCU_CSV: headerOnly });
    try {
      const { code, stderr } = await cli(['--engine', 'command', '--run', workload(), '--runs', '1', '--warmup-runs', '0', '--out', 'o', '--quiet'], work, { realAnalysis: true });
      expect(stderr).toBe('');
      expect(code).toBe(0);
      const written = JSON.parse(readFileSync(join(work, 'o', 'report.json'), 'utf8')) as Report;
      expect(written.kernels[0]).toMatchObject({ totalNs: 11831460, instances: 80 });
      expect(written.deepDive).toEqual([]);
      const notice = written.notices.find((n) => n.message.startsWith("the deep dive's o/captures/deep-dive.ncu.csv could not be analyzed ("))!;
      expect(notice.message).toContain('deep-dive.ncu.csv:2: expected at least one profiled result after the ncu header, found none); the report has no Nsight Compute section (ncu was asked for launch 41 of the kernels matching ');
    } finally {
      Object.assign(process.env, { STAND_IN_NSYS_STATS: RECORDED_NSYS_STATS, STAND_IN_NCU_CSV: RECORDED_NCU_CSV });
    }
  });

  it('a workload that prints metric lines: each measured console is a throughput sample', async () => {
    const work = tempDir('cli');
    const { code, stderr } = await cli(['--engine', 'command', '--run', workload('--print-metrics'), '--runs', '2', '--warmup-runs', '0', '--profiler', 'none', '--out', 'o', '--quiet'], work, { realAnalysis: true });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const written = JSON.parse(readFileSync(join(work, 'o', 'report.json'), 'utf8')) as Report;
    expect(written.sources.map((source) => [source.format, source.path.slice(work.length + 1)])).toEqual([
      ['workload-metrics-jsonl', 'o/logs/measured-1.log'],
      ['workload-metrics-jsonl', 'o/logs/measured-2.log'],
    ]);
    const logged = [1, 2].map((i) => JSON.parse(readFileSync(join(work, 'o', 'logs', `measured-${i}.log`), 'utf8').split('\n')[1]!).tok_s as number);
    expect(written.metrics.find((m) => m.name === 'decode_tok_s')!.samples).toEqual(logged);
  });

  /** Two checkouts of one project whose builds differ in speed: the head's steps take 3× as long. */
  function twoCheckouts(headStepMs: number, baseStepMs: number): string {
    const work = tempDir('ab');
    for (const [side, ms] of [['head', headStepMs], ['base', baseStepMs]] as const) {
      const dir = join(work, side);
      mkdirSync(dir);
      // Each run notes which checkout it ran in, so the order of the runs can be checked.
      writeFileSync(join(dir, 'work.sh'), `python3 ${TINY_WORKLOAD} --steps 4 --step-ms ${ms} --print-metrics\necho ${side} >> ../order.log\n`);
    }
    return work;
  }

  it('A/B: base and head checkouts interleaved ABBA; the base report is the baseline and a 3x slower head fails', async () => {
    // Steps of 60 and 20 ms: on a loaded machine, steps of a few ms vary by half their length from
    // run to run, and the gate then sees noise, not two builds (it may add runs, which this test does not expect).
    const work = twoCheckouts(60, 20);
    const { code, stdout, stderr } = await cli(
      ['--engine', 'command', '--run', 'bash work.sh', '--base-workdir', '../base', '--runs', '4', '--warmup-runs', '1', '--profiler', 'none', '--out', 'o', '--quiet'],
      join(work, 'head'),
      { realAnalysis: true },
    );
    expect(stderr).toBe('');
    expect(code).toBe(1);
    expect(readFileSync(join(work, 'order.log'), 'utf8').trim().split('\n')).toEqual(['base', 'head', 'base', 'head', 'head', 'base', 'base', 'head', 'head', 'base']);
    const base = JSON.parse(readFileSync(join(work, 'head', 'o', 'base', 'baseline-report.json'), 'utf8')) as Report;
    const head = JSON.parse(readFileSync(join(work, 'head', 'o', 'report.json'), 'utf8')) as Report;
    expect(base.sources.map((source) => source.path.slice(work.length + 1))).toEqual([1, 2, 3, 4].map((i) => `head/o/base/logs/measured-${i}.log`));
    expect(base.comparison).toBeNull();
    // The head's comparison holds exactly the base side's samples, logged by the base runs themselves.
    const logged = [1, 2, 3, 4].map((i) => JSON.parse(readFileSync(join(work, 'head', 'o', 'base', 'logs', `measured-${i}.log`), 'utf8').split('\n')[1]!).tok_s as number);
    expect(base.metrics.find((m) => m.name === 'decode_tok_s')!.samples).toEqual(logged);
    expect(head.comparison!.baseline).toMatchObject({ origin: 'a/b', path: join(work, 'base') });
    expect(head.comparison!.baseline.reason).toMatch(/^base build: the same workload in .*\/base, in this job on the same machine, its measured runs interleaved with the head's \(ABBA\)$/);
    const decode = head.comparison!.rows.find((r) => r.metric === 'decode_tok_s')!;
    expect(decode.status).toBe('fail');
    expect(decode.delta!).toBeLessThan(-0.4);
    expect(head.verdict).toBe('fail');
    expect(stdout).toContain(`the base build's report (the baseline): ${join(work, 'head', 'o', 'base', 'baseline-report.json')}`);
  });

  it('A/B: the same build on both sides passes', async () => {
    const work = twoCheckouts(3, 3);
    const { code, stderr } = await cli(['--engine', 'command', '--run', 'bash work.sh', '--base-workdir', '../base', '--runs', '3', '--warmup-runs', '0', '--profiler', 'none', '--out', 'o', '--quiet', '--threshold', 'decode_tok_s=40'], join(work, 'head'), { realAnalysis: true });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const head = JSON.parse(readFileSync(join(work, 'head', 'o', 'report.json'), 'utf8')) as Report;
    // 3 runs per side of a CPU workload may leave the interval past the floor: the A/B then adds pairs.
    const decode = head.comparison!.rows.find((r) => r.metric === 'decode_tok_s')!;
    expect(decode.threshold).toBe(0.4);
    expect(decode.samples![0] + decode.leftOut![0]).toBeGreaterThanOrEqual(3);
    expect(['pass', 'improved', 'warn']).toContain(head.comparison!.rows.find((r) => r.metric === 'decode_tok_s')!.status);
  });

  it('A/B: --baseline cannot be combined with it, and a base run that fails stops the job', async () => {
    const work = twoCheckouts(1, 1);
    const both = await cli(['--engine', 'command', '--run', 'bash work.sh', '--base-workdir', '../base', '--baseline', 'x.json'], join(work, 'head'));
    expect(both.code).toBe(2);
    expect(both.stderr).toBe('profile-gate: --baseline: an A/B run (--base-workdir/--base-run) compares with its own base build; give one or the other\n');
    writeFileSync(join(work, 'base', 'work.sh'), 'echo broken build >&2; exit 7\n');
    const failed = await cli(['--engine', 'command', '--run', 'bash work.sh', '--base-workdir', '../base', '--runs', '3', '--warmup-runs', '0', '--profiler', 'none', '--out', 'o', '--quiet'], join(work, 'head'), { realAnalysis: true });
    expect(failed.code).toBe(EXIT_RUN_FAILED);
    expect(failed.stderr).toMatch(/^profile-gate: run failed: Base: Measured run 1\/3 exited with code 7 .*broken build/);
    expect(existsSync(join(work, 'head', 'o', 'report.json'))).toBe(false);
  });
});
