import type { DetectedEnvironment } from '../../src/runner/detect.js';
import { INSTALL } from '../../src/runner/install-lines.js';
import { parseRunOptions } from '../../src/runner/run-options.js';
import { buildPlan, type Plan, type PlanContext } from '../../src/runner/plan.js';
import { renderPlan } from '../../src/runner/plan-text.js';

const NSYS = '/opt/nvidia/nsight-compute/2025.3.1/host/target-linux-x64/nsys';
const context: PlanContext = { outDir: '/work/out', cwd: '/work', pythonDir: '/pg/python', gpuSnapshotAvailable: true };

function nvidiaBox(overrides: Partial<DetectedEnvironment> & { tools?: Partial<DetectedEnvironment['tools']> } = {}): DetectedEnvironment {
  return {
    vendor: 'nvidia',
    gpus: ['NVIDIA H200'],
    driver: '580.159.04',
    cuda: '13.0',
    maxVersion: '26.4.0',
    notes: [],
    ...overrides,
    tools: { python: '/venv/bin/python3', max: '/venv/bin/max', nsys: NSYS, ncu: '/usr/local/cuda/bin/ncu', ...(overrides.tools ?? {}) },
  };
}

function plan(raw: Record<string, string>, detected = nvidiaBox(), ctx: Partial<PlanContext> = {}): Plan {
  return buildPlan(parseRunOptions(raw), detected, { ...context, ...ctx });
}

const ids = (p: Plan) => p.steps.map((s) => s.id);

describe('buildPlan: the output folder', () => {
  it('a file where the output folder goes is a problem before anything runs', () => {
    const isFile = (path: string) => path === '/work/notes.txt';
    expect(plan({ model: 'org/m' }, nvidiaBox(), { outDir: '/work/notes.txt', isFile }).problems).toEqual([
      "out: /work/notes.txt is a file, not a folder; name a folder for the run's logs, captures and report",
    ]);
    expect(plan({ model: 'org/m' }, nvidiaBox(), { isFile }).problems).toEqual([]);
  });
});

describe('buildPlan: max generate', () => {
  it('MAX 26.4 with nsys: warm-up, sampled measured runs, one --profile run with nsys put on PATH', () => {
    const p = plan({ model: 'org/m', runs: '2', 'max-args': '--max-length 512', prompt: 'Hello' });
    expect(p.profiler).toBe('max');
    expect(ids(p)).toEqual(['warmup-1', 'measured-1', 'measured-2', 'profile']);
    const generate = ['max', 'generate', '--model', 'org/m', '--max-new-tokens', '100', '--prompt', 'Hello', '--max-length', '512'];
    expect(p.steps[0]!.argv).toEqual(generate);
    expect(p.steps[1]!.argv).toEqual(['/venv/bin/python3', '/pg/python/gpu_snapshot.py', '--interval', '0.5', '--gpu-free-before', '--out', '/work/out/captures/measured-1.gpu.jsonl', '--run', ...generate]);
    expect(p.steps[1]!.outputs).toEqual([
      { path: '/work/out/logs/measured-1.log', kind: 'max-generate', analysis: true },
      { path: '/work/out/captures/measured-1.gpu.jsonl', kind: 'gpu-snapshot-jsonl', analysis: true },
    ]);
    const profile = p.steps[3]!;
    expect(profile.argv).toEqual([...generate, '--profile', '--profile-output', '/work/out/captures/profile.nsys-rep']);
    expect(profile.pathPrepend).toEqual(['/opt/nvidia/nsight-compute/2025.3.1/host/target-linux-x64']);
    expect(profile.derive).toEqual({ from: '/work/out/logs/profile.log', to: '/work/out/captures/profile.max-generate.txt' });
    expect(profile.onFailure).toBe('continue');
    expect(p.environment).toMatchObject({ gpuName: 'NVIDIA H200', engine: 'max', engineVersion: '26.4.0', model: 'org/m' });
    expect(p.problems).toEqual([]);
  });

  it('MAX 26.3: nsys records the whole run (no capture range: old MAX marks no window), then nsys stats', () => {
    const p = plan({ model: 'org/m', runs: '1', 'warmup-runs': '0' }, nvidiaBox({ maxVersion: '26.3.0' }));
    expect(p.profiler).toBe('nsys');
    expect(ids(p)).toEqual(['measured-1', 'profile', 'profile-stats', 'profile-gpu-util']);
    expect(p.steps[3]!.argv).toEqual([NSYS, 'analyze', '--force-export=true', '--rule', 'gpu_time_util:threshold=100', '--format', 'csv', '/work/out/captures/profile.nsys-rep']);
    expect(p.steps[1]!.argv.slice(0, 10)).toEqual([NSYS, 'profile', '--trace=cuda,nvtx', '--cuda-graph-trace=node', '--sample=none', '--cpuctxsw=none', '--force-overwrite=true', '--output', '/work/out/captures/profile', 'max']);
    expect(p.steps[2]!.argv).toEqual([NSYS, 'stats', '--force-export=true', '--report', 'cuda_gpu_kern_sum,cuda_api_sum', '--format', 'csv', '/work/out/captures/profile.nsys-rep']);
    expect(p.steps[2]!.stdoutFile).toBe('/work/out/captures/profile.nsys-stats.csv');
    expect(p.notices.map((n) => n.message)).toContain('MAX 26.3.0 has no max generate --profile (added in 26.4): nsys records the whole profiled run, model load and warm-up included');
  });

  it('without nsys: no profile step, the install line, utilization and throughput only', () => {
    const p = plan({ model: 'org/m', runs: '1' }, nvidiaBox({ tools: { nsys: undefined } as never }));
    expect(p.profiler).toBe('none');
    expect(ids(p)).toEqual(['warmup-1', 'measured-1']);
    expect(p.notices).toContainEqual({ severity: 'warning', message: 'nsys not found: no kernel profile (max generate --profile needs nsys on PATH); utilization and throughput only', fix: INSTALL.nsys });
  });

  it('without max on PATH the plan cannot start, and says how to install it', () => {
    const p = plan({ model: 'org/m' }, nvidiaBox({ tools: { max: undefined } as never }));
    expect(p.problems).toEqual([`engine max: the max command is not on PATH. Install MAX: ${INSTALL.max}`]);
  });

  const noGpu = { vendor: null, gpus: [], notes: [], tools: { python: 'python3', max: '/bin/max' } };

  // Before: a plan with no GPU ran, measured throughput only and passed, the hint at the bottom.
  it.each(['auto', 'nsys'])('with no GPU and profiler %s: the plan cannot run, unless allowed', (profiler) => {
    const p = plan({ model: 'org/m', runs: '1', profiler }, noGpu);
    expect(p.problems).toEqual([
      `no GPU found (nvidia-smi and rocm-smi list none), but profiler ${profiler} and GPU sampling need one; check the driver and the runner's device access, or allow a throughput-only run with allow-no-gpu (--allow-no-gpu)`,
    ]);
    expect(plan({ model: 'org/m', runs: '1', profiler, 'allow-no-gpu': 'true' }, noGpu).problems).toEqual([]);
  });

  it('with no GPU and profiler none: GPU sampling alone still needs one; with neither planned, no problem', () => {
    expect(plan({ model: 'org/m', runs: '1', profiler: 'none' }, noGpu).problems).toEqual([
      "no GPU found (nvidia-smi and rocm-smi list none), but GPU sampling needs one; check the driver and the runner's device access, or allow a throughput-only run with allow-no-gpu (--allow-no-gpu)",
    ]);
    expect(plan({ model: 'org/m', runs: '1', profiler: 'none' }, noGpu, { gpuSnapshotAvailable: false }).problems).toEqual([]);
  });

  it('with no GPU, allowed: nothing sampled, no profile, no deep dive, and it says so', () => {
    const p = plan({ model: 'org/m', runs: '1', profiler: 'nsys', 'allow-no-gpu': 'true' }, noGpu);
    expect(p.sampling).toBe(false);
    expect(p.steps.find((s) => s.id === 'measured-1')!.argv[0]).toBe('max');
    expect(p.profiler).toBe('none');
    expect(p.deepDive.enabled).toBe(false);
    expect(p.notices.map((n) => n.message)).toEqual(['profiler nsys: no GPU found, so no kernel profile; the run measures throughput only', 'no GPU found (nvidia-smi and rocm-smi list none): GPU utilization is not sampled']);
  });

  it('on AMD with rocprofv3: the profiled run writes CSV under captures/rocprof', () => {
    const p = plan({ model: 'org/m', runs: '1', 'warmup-runs': '0' }, { vendor: 'amd', gpus: ['AMD Instinct MI300X'], notes: [], maxVersion: '26.4.0', tools: { python: 'python3', max: '/bin/max', rocprofv3: '/opt/rocm/bin/rocprofv3' } });
    expect(p.profiler).toBe('rocprofv3');
    expect(p.steps[1]!.argv.slice(0, 10)).toEqual(['/opt/rocm/bin/rocprofv3', '--kernel-trace', '--stats', '--output-format', 'csv', '-d', '/work/out/captures/rocprof', '-o', 'profile', '--']);
    expect(p.steps[1]!.findOutputs).toEqual({ dir: '/work/out/captures/rocprof', suffix: '_kernel_stats.csv', kind: 'rocprof-csv' });
    expect(p.deepDive.enabled).toBe(false);
  });

  it('with custom architectures: the pre-flight check runs first, with the python that runs max', () => {
    const p = plan({ model: 'org/m', 'custom-architectures': 'arch/my_llama,pkgs:other', runs: '1', 'max-args': '--trust-remote-code' });
    expect(p.steps[0]!.argv).toEqual(['/venv/bin/python3', '/pg/python/preflight_custom_arch.py', '--mode', 'generate', '--model', 'org/m', '--spec', 'arch/my_llama', '--spec', 'pkgs:other', '--max-args=--trust-remote-code']);
    expect(p.steps[1]!.argv).toEqual(['max', 'generate', '--model', 'org/m', '--max-new-tokens', '100', '--custom-architectures', 'arch/my_llama', '--custom-architectures', 'pkgs:other', '--trust-remote-code']);
  });

  it('keeps the step limits inside the budget and gives the first warm-up (compile) the most', () => {
    const p = plan({ model: 'org/m', 'timeout-minutes': '10' });
    expect(p.budgetSeconds).toBe(600);
    for (const step of p.steps) expect(step.timeoutSeconds).toBeLessThanOrEqual(600);
    const warmup = p.steps.find((s) => s.id === 'warmup-1')!.timeoutSeconds;
    const measured = p.steps.find((s) => s.id === 'measured-1')!.timeoutSeconds;
    expect(warmup).toBe(2 * measured);
    expect(p.deepDive.enabled).toBe(true);
    expect(p.deepDive.timeoutSeconds).toBeGreaterThan(0);
  });
});

describe('buildPlan: max serve', () => {
  it('server, warm-up and measured benchmark windows of capture-seconds, then stop', () => {
    const p = plan({ model: 'org/m', 'max-mode': 'serve', runs: '2', 'max-args': '--port 8123', 'capture-seconds': '20' });
    expect(ids(p)).toEqual(['serve', 'benchmark-warmup-1', 'benchmark-1', 'benchmark-2', 'serve-stop']);
    expect(p.serve).toEqual({ port: 8123, healthUrl: 'http://127.0.0.1:8123/health', readyTimeoutSeconds: p.steps[0]!.timeoutSeconds });
    expect(p.steps[0]!.argv).toEqual(['max', 'serve', '--model', 'org/m', '--port', '8123']);
    const benchmark = ['max', 'benchmark', '--model', 'org/m', '--host', '127.0.0.1', '--port', '8123', '--dataset-name', 'random', '--random-input-len', '512', '--num-prompts', '1000', '--max-concurrency', '8', '--random-output-len', '100', '--max-benchmark-duration-s', '20'];
    expect(p.steps[1]!.argv).toEqual(benchmark);
    expect(p.steps[2]!.argv.slice(-2)).toEqual(['--result-filename', '/work/out/captures/benchmark-1.json']);
    // The server is the job's own process on the GPU outside the window: the sampler counts the runner's children as the job's.
    expect(p.steps[2]!.argv.slice(2, 6)).toEqual(['--interval', '0.5', '--job-parent', '--out']);
    expect(p.steps[2]!.outputs.map((o) => [o.kind, o.analysis])).toEqual([
      ['max-benchmark-json', true],
      ['max-benchmark', false],
      ['gpu-snapshot-jsonl', true],
    ]);
    expect(p.steps[2]!.timeoutSeconds).toBe(20 * 2 + 120);
    expect(p.profiler).toBe('none');
    expect(p.deepDive.enabled).toBe(false);
  });

  it('a port already taken is a problem before anything starts', () => {
    const p = plan({ model: 'org/m', 'max-mode': 'serve' }, nvidiaBox(), { portInUse: (port) => port === 8000 });
    expect(p.problems).toEqual(['max-args: port 8000 is already in use by another process; stop it or pass --port N in max-args']);
  });

  it('profiler nsys: the server runs under nsys launch and one window is traced', () => {
    const p = plan({ model: 'org/m', 'max-mode': 'serve', runs: '1', 'warmup-runs': '0', profiler: 'nsys' });
    expect(ids(p)).toEqual(['serve', 'benchmark-1', 'profile', 'serve-stop', 'profile-stats', 'profile-gpu-util']);
    expect(p.steps[0]!.argv.slice(0, 6)).toEqual([NSYS, 'launch', '--trace=cuda,nvtx', '--cuda-graph-trace=node', '--trace-fork-before-exec=true', 'max']);
    expect(p.steps[2]!.argv.slice(-3)).toEqual(['--trace', '--trace-file', '/work/out/captures/profile.nsys-rep']);
  });
});

describe('buildPlan: command workloads', () => {
  it('nsys with the capture range, on profile-run', () => {
    const p = plan({ engine: 'command', run: 'python bench.py', 'profile-run': 'python bench.py --profile', runs: '1', 'warmup-runs': '0' });
    expect(p.profiler).toBe('nsys');
    expect(p.steps[0]!.argv.slice(-3)).toEqual(['bash', '-c', 'python bench.py']);
    expect(p.steps[1]!.argv).toEqual([
      NSYS,
      'profile',
      '--trace=cuda,nvtx',
      '--capture-range=cudaProfilerApi',
      '--capture-range-end=stop',
      '--cuda-graph-trace=node',
      '--sample=none',
      '--cpuctxsw=none',
      '--force-overwrite=true',
      '--output',
      '/work/out/captures/profile',
      'bash',
      '-c',
      'python bench.py --profile',
    ]);
    expect(p.steps[2]!.id).toBe('profile-stats');
    expect(p.deepDive.workload).toEqual(['bash', '-c', 'python bench.py']);
    expect(p.environment.engine).toBe('command');
  });

  it('captures mean the workload profiles itself (torch); measured captures are timings when a profile-run exists', () => {
    const p = plan({ engine: 'command', run: 'python bench.py', 'profile-run': 'python bench.py --trace', captures: 'traces/*.json', runs: '1', 'warmup-runs': '0' });
    expect(p.profiler).toBe('torch');
    expect(p.steps[0]!.collect).toEqual({ globs: ['traces/*.json'], into: '/work/out/captures/measured-1', analysis: false });
    expect(p.steps[1]!.collect).toEqual({ globs: ['traces/*.json'], into: '/work/out/captures/profile', analysis: true });
    const self = plan({ engine: 'command', run: 'python bench.py', captures: 'traces/*.json', runs: '1', 'warmup-runs': '0' });
    expect(ids(self)).toEqual(['measured-1']);
    expect(self.steps[0]!.collect!.analysis).toBe(true);
  });
});

describe('renderPlan', () => {
  it('shows the box, the exact commands (paths relative to the working directory) and the limits', () => {
    const text = renderPlan(plan({ model: 'org/m', runs: '1', 'timeout-minutes': '10' }));
    expect(text).toContain('  engine      max generate (MAX 26.4.0), model org/m');
    expect(text).toContain('  GPU         1 x NVIDIA H200, driver 580.159.04, CUDA 13.0');
    expect(text).toContain('  profiler    max generate --profile (MAX runs itself under nsys)');
    expect(text).toContain('     $ max generate --model org/m --max-new-tokens 100\n');
    expect(text).toContain('--out out/captures/measured-1.gpu.jsonl --run max generate');
    expect(text).toContain('     -> out/captures/profile.max-generate.txt (max-generate, timings removed)');
    expect(text).toMatch(/1\. Warm-up run 1\/1 {2}\(limit \d+m\d*s?\)/);
    expect(text).toContain('Deep dive, if the analysis asks for one');
    expect(text).not.toContain('Problems');
  });
});

describe('buildPlan: A/B in one job', () => {
  const isDirectory = (path: string) => path === '/work/base';

  it('max generate: warm-ups first, measured runs in ABBA pairs, then each side profiled; base files under out/base', () => {
    const p = plan({ model: 'org/m', runs: '4', 'base-workdir': 'base' }, nvidiaBox(), { isDirectory });
    expect(ids(p)).toEqual([
      'base-warmup-1',
      'warmup-1',
      'base-measured-1',
      'measured-1',
      'measured-2',
      'base-measured-2',
      'base-measured-3',
      'measured-3',
      'measured-4',
      'base-measured-4',
      'base-profile',
      'profile',
    ]);
    expect(p.base).toEqual({ cwd: '/work/base' });
    const baseMeasured = p.steps.find((s) => s.id === 'base-measured-1')!;
    const headMeasured = p.steps.find((s) => s.id === 'measured-1')!;
    // The same command, in the base checkout, writing into out/base.
    expect(baseMeasured.argv.slice(-7)).toEqual(['--run', 'max', 'generate', '--model', 'org/m', '--max-new-tokens', '100']);
    expect(headMeasured.argv.slice(-7)).toEqual(baseMeasured.argv.slice(-7));
    expect(baseMeasured).toMatchObject({ side: 'base', cwd: '/work/base', title: 'Base: Measured run 1/4', logFile: '/work/out/base/logs/measured-1.log' });
    expect(baseMeasured.outputs.map((o) => o.path)).toEqual(['/work/out/base/logs/measured-1.log', '/work/out/base/captures/measured-1.gpu.jsonl']);
    expect(headMeasured.side).toBeUndefined();
    expect(headMeasured.cwd).toBeUndefined();
    expect(p.steps.find((s) => s.id === 'base-profile')!.derive).toEqual({ from: '/work/out/base/logs/profile.log', to: '/work/out/base/captures/profile.max-generate.txt' });
    // The deep dive is the head's.
    expect(p.deepDive.workload).toEqual(['max', 'generate', '--model', 'org/m', '--max-new-tokens', '100']);
    expect(p.notices.map((n) => n.message)).toContain('A/B: the measured runs alternate base/head in ABBA order, so a drift of the GPU over the job falls on both sides alike; both share the time budget');
    expect(p.problems).toEqual([]);
    expect(renderPlan(p)).toContain('  A/B         base build: the same workload in /work/base; measured runs interleaved base/head in ABBA order; its report is the baseline');
    expect(renderPlan(p)).toContain('     (in /work/base) $ /venv/bin/python3 /pg/python/gpu_snapshot.py');
  });

  it('command: base-run replaces the command (and the profile-run) on the base side only', () => {
    const p = plan({ engine: 'command', run: 'python bench.py', 'profile-run': 'python bench.py --profile', runs: '3', 'warmup-runs': '0', 'base-run': 'python bench_old.py', profiler: 'nsys' });
    const base = p.steps.filter((s) => s.side === 'base');
    expect(base.map((s) => s.id)).toEqual(['base-measured-1', 'base-measured-2', 'base-measured-3', 'base-profile', 'base-profile-stats', 'base-profile-gpu-util']);
    expect(base[0]!.argv.slice(-3)).toEqual(['bash', '-c', 'python bench_old.py']);
    expect(base[3]!.argv.slice(-3)).toEqual(['bash', '-c', 'python bench_old.py']);
    expect(p.steps.find((s) => s.id === 'profile')!.argv.slice(-3)).toEqual(['bash', '-c', 'python bench.py --profile']);
    expect(base[4]!.stdoutFile).toBe('/work/out/base/captures/profile.nsys-stats.csv');
    expect(p.base).toEqual({ cwd: '/work', run: 'python bench_old.py' });
  });

  it('max serve: server blocks base, head, head, base (ABBA), each with its own start and warm-up', () => {
    const p = plan({ model: 'org/m', 'max-mode': 'serve', runs: '3', 'base-workdir': 'base' }, nvidiaBox(), { isDirectory });
    expect(ids(p)).toEqual([
      'base-serve',
      'base-benchmark-warmup-1',
      'base-benchmark-1',
      'base-benchmark-2',
      'base-serve-stop',
      'serve',
      'benchmark-warmup-1',
      'benchmark-1',
      'benchmark-2',
      'serve-stop',
      'serve-2',
      'benchmark-warmup-2-1',
      'benchmark-3',
      'serve-stop-2',
      'base-serve-2',
      'base-benchmark-warmup-2-1',
      'base-benchmark-3',
      'base-serve-stop-2',
    ]);
    expect(p.notices.map((n) => n.message)).toContain('A/B: the servers run one at a time in blocks base, head, head, base (ABBA), each restarted with its own warm-up, so a drift over the job falls on both sides; both share the time budget');
    // Without A/B one server serves every window.
    expect(ids(plan({ model: 'org/m', 'max-mode': 'serve', runs: '3' }, nvidiaBox()))).toEqual(['serve', 'benchmark-warmup-1', 'benchmark-1', 'benchmark-2', 'benchmark-3', 'serve-stop']);
  });

  it('a missing base folder, or the job folder itself, is a problem before anything runs', () => {
    expect(plan({ model: 'org/m', runs: '3', 'base-workdir': 'nowhere' }, nvidiaBox(), { isDirectory }).problems).toEqual([
      'base-workdir: /work/nowhere is not a folder (check out the base commit there first, e.g. actions/checkout with path: nowhere)',
    ]);
    expect(plan({ model: 'org/m', runs: '3', 'base-workdir': '.' }, nvidiaBox(), { isDirectory: () => true }).problems).toEqual([
      "base-workdir: the base folder is the job's own folder, so both sides would run the same build; point it at a checkout of the base commit",
    ]);
  });

  it('options: base-run is for command workloads, and A/B needs 3 runs per side', () => {
    expect(() => parseRunOptions({ model: 'org/m', 'base-run': 'x' })).toThrow("input 'base-run': applies to engine command only; with engine max the base side runs the same max command in base-workdir");
    expect(() => parseRunOptions({ engine: 'command', run: 'x', 'base-run': 'y', runs: '2' }, 'cli')).toThrow('--runs: A/B needs at least 3 measured runs per side to compare, got 2');
    expect(parseRunOptions({ engine: 'command', run: 'x' }).base).toBeUndefined();
  });
});
