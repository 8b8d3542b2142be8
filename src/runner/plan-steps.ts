/**
 * The steps of each kind of run, with their exact commands and files: `max generate`, `max serve`
 * with benchmark windows, and a command workload. Each run writes its consoles to logs/<step>.log
 * and what the analysis reads to captures/.
 */
import { join } from 'node:path';
import { BASE_SIDE_DIR } from '../model/report.js';
import type { DetectedEnvironment } from './detect.js';
import type { RunOptions } from './run-options.js';
import type { PlanContext, PlanNotice, PlannedOutput, PlannedStep, ResolvedProfiler, ServePlan } from './plan-types.js';
import { nsysGpuUtilArgs, nsysProfileArgs, nsysStatsArgs, rocprofArgs } from './profilers.js';
import { flagValue, hasFlag } from './shell-words.js';

export const SNAPSHOT_INTERVAL_SECONDS = 0.5;

type StepInput = Omit<PlannedStep, 'env' | 'pathPrepend' | 'timeoutSeconds' | 'logFile' | 'outputs'> & Partial<PlannedStep>;

export interface StepBuilder {
  options: RunOptions;
  detected: DetectedEnvironment;
  profiler: ResolvedProfiler;
  out(...parts: string[]): string;
  log(id: string): string;
  step(input: StepInput): PlannedStep;
  /**
   * The command wrapped by gpu_snapshot.py when sampling, else as it is. `jobOnGpu`: a process of the
   * job (the server) is on the GPU outside the command, so the sampler counts the runner's other
   * children as the job's own (--job-parent); otherwise nothing of the job is on the GPU when the
   * command starts, and a process listed then is another's (--gpu-free-before).
   */
  sampled(argv: string[], file: string, jobOnGpu?: boolean): string[];
  snapshotOutput(file: string): PlannedOutput[];
  /** The kernel and API summaries, then the GPU-in-use analysis over the capture range (the steady window). */
  nsysStats(rep: string, hint?: string): PlannedStep[];
  /** Where nsys lives, for commands that call it by name (max generate --profile). */
  nsysDir: string[];
  preflight(): PlannedStep[];
  warmups: number[];
  runs: number[];
  portInUse?: (port: number) => boolean;
}

export interface BuiltSteps {
  steps: PlannedStep[];
  /** The unprofiled workload (what a deep dive runs under ncu). */
  workload: string[];
  serve?: Omit<ServePlan, 'readyTimeoutSeconds'>;
}

/**
 * The base side of an A/B job: its files under <out>/base, its step ids and titles marked, its
 * commands run in the base folder.
 */
export interface SideContext {
  side: 'base';
  cwd: string;
}

export function createStepBuilder(options: RunOptions, detected: DetectedEnvironment, context: PlanContext, profiler: ResolvedProfiler, sampling: boolean, base?: SideContext): StepBuilder {
  const out = (...parts: string[]) => (base ? join(context.outDir, BASE_SIDE_DIR, ...parts) : join(context.outDir, ...parts));
  const log = (id: string) => out('logs', `${id}.log`);
  const python = options.engine === 'max' ? detected.tools.python : 'python3';
  const step = (input: StepInput): PlannedStep => {
    const planned: PlannedStep = { env: {}, pathPrepend: [], timeoutSeconds: 0, logFile: log(input.id), outputs: [], ...input };
    return base ? { ...planned, id: `base-${input.id}`, title: `Base: ${input.title}`, side: 'base', cwd: base.cwd } : planned;
  };
  const count = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
  return {
    options,
    detected,
    profiler,
    out,
    log,
    step,
    sampled: (argv, file, jobOnGpu = false) =>
      sampling ? [python, join(context.pythonDir, 'gpu_snapshot.py'), '--interval', String(SNAPSHOT_INTERVAL_SECONDS), jobOnGpu ? '--job-parent' : '--gpu-free-before', '--out', file, '--run', ...argv] : argv,
    snapshotOutput: (file) => (sampling ? [{ path: file, kind: 'gpu-snapshot-jsonl', analysis: true }] : []),
    nsysStats(rep, hint) {
      const csv = out('captures', 'profile.nsys-stats.csv');
      const util = out('captures', 'profile.gpu-time-util.csv');
      return [
        step({ id: 'profile-stats', role: 'profile-stats', title: 'Kernel summary (nsys stats)', argv: nsysStatsArgs(detected.tools.nsys!, rep), stdoutFile: csv, outputs: [{ path: csv, kind: 'nsys-stats', analysis: true, ...(hint ? { hint } : {}) }, { path: rep.replace(/\.nsys-rep$/, '.sqlite'), kind: 'nsys-sqlite', analysis: false, optional: true }], onFailure: 'continue', weight: 1 }),
        step({ id: 'profile-gpu-util', role: 'profile-stats', title: 'GPU in use over the capture (nsys analyze gpu_time_util)', argv: nsysGpuUtilArgs(detected.tools.nsys!, rep), stdoutFile: util, outputs: [{ path: util, kind: 'nsys-gpu-time-util', analysis: true, optional: true }], onFailure: 'continue', weight: 0.5 }),
      ];
    },
    nsysDir: detected.tools.nsys ? [detected.tools.nsys.slice(0, detected.tools.nsys.lastIndexOf('/')) || '/'] : [],
    preflight() {
      if (options.engine !== 'max' || options.customArchitectures.length === 0) return [];
      const argv = [python, join(context.pythonDir, 'preflight_custom_arch.py'), '--mode', options.mode, '--model', options.model ?? ''];
      for (const spec of options.customArchitectures) argv.push('--spec', spec);
      // One word with '=': argparse would take a lone value like --trust-remote-code for an option.
      if (options.maxArgs.length) argv.push(`--max-args=${options.maxArgs.join(' ')}`);
      return [step({ id: 'preflight', role: 'preflight', title: 'Pre-flight: custom architectures', argv, stdoutFile: out('logs', 'preflight.json'), onFailure: 'stop', weight: 0 })];
    },
    warmups: count(options.warmupRuns),
    runs: count(options.runs),
    ...(context.portInUse ? { portInUse: context.portInUse } : {}),
  };
}

/** The first run of the job compiles the model: it gets the largest share of the time. */
function runWeight(b: StepBuilder, role: 'warmup' | 'measured', i: number): number {
  const first = role === 'warmup' ? i === 1 : b.options.warmupRuns === 0 && i === 1;
  return first ? 3 : 1.5;
}

/**
 * Warm-up runs, then measured runs sampled by gpu_snapshot: the same for `max generate` and a command
 * workload. `measured` gives what each measured run writes (its console as an analysis input, captures).
 */
function warmupAndMeasuredSteps(b: StepBuilder, argv: string[], measured: (i: number) => Pick<StepInput, 'outputs' | 'collect'>): PlannedStep[] {
  const { options } = b;
  const steps: PlannedStep[] = [];
  for (const i of b.warmups) steps.push(b.step({ id: `warmup-${i}`, role: 'warmup', title: `Warm-up run ${i}/${options.warmupRuns}`, argv, onFailure: 'stop', weight: runWeight(b, 'warmup', i) }));
  for (const i of b.runs) {
    const snapshot = b.out('captures', `measured-${i}.gpu.jsonl`);
    const { outputs = [], ...rest } = measured(i);
    steps.push(
      b.step({
        id: `measured-${i}`,
        role: 'measured',
        title: `Measured run ${i}/${options.runs}`,
        argv: b.sampled(argv, snapshot),
        outputs: [...outputs, ...b.snapshotOutput(snapshot)],
        ...rest,
        onFailure: 'stop',
        weight: runWeight(b, 'measured', i),
      }),
    );
  }
  return steps;
}

function archFlags(options: RunOptions): string[] {
  return options.customArchitectures.flatMap((spec) => ['--custom-architectures', spec]);
}

export function maxGenerateSteps(b: StepBuilder): BuiltSteps {
  const { options, detected } = b;
  const generate = [
    'max',
    'generate',
    '--model',
    options.model ?? '',
    ...(hasFlag(options.maxArgs, '--max-new-tokens') ? [] : ['--max-new-tokens', String(options.maxNewTokens)]),
    ...(options.prompt !== undefined && !hasFlag(options.maxArgs, '--prompt') ? ['--prompt', options.prompt] : []),
    ...archFlags(options),
    ...options.maxArgs,
  ];
  const steps = warmupAndMeasuredSteps(b, generate, (i) => ({ outputs: [{ path: b.log(`measured-${i}`), kind: 'max-generate', analysis: true }] }));
  const rep = b.out('captures', 'profile.nsys-rep');
  if (b.profiler === 'max') {
    steps.push(
      b.step({
        id: 'profile',
        role: 'profile',
        title: 'Profiled run (max generate --profile)',
        argv: [...generate, '--profile', '--profile-output', rep],
        pathPrepend: b.nsysDir,
        outputs: [{ path: rep, kind: 'nsys-rep', analysis: false, optional: true }],
        derive: { from: b.log('profile'), to: b.out('captures', 'profile.max-generate.txt') },
        onFailure: 'continue',
        weight: 2.5,
      }),
    );
  } else if (b.profiler === 'nsys') {
    const argv = [...nsysProfileArgs(detected.tools.nsys!, rep.replace(/\.nsys-rep$/, ''), false), ...generate];
    steps.push(b.step({ id: 'profile', role: 'profile', title: 'Profiled run (nsys, whole process)', argv, outputs: [{ path: rep, kind: 'nsys-rep', analysis: false }], onFailure: 'continue', weight: 2.5 }));
    steps.push(...b.nsysStats(rep));
  } else if (b.profiler === 'rocprofv3') {
    const dir = b.out('captures', 'rocprof');
    steps.push(b.step({ id: 'profile', role: 'profile', title: 'Profiled run (rocprofv3)', argv: [...rocprofArgs(detected.tools.rocprofv3!, dir), ...generate], findOutputs: { dir, suffix: '_kernel_stats.csv', kind: 'rocprof-csv' }, onFailure: 'continue', weight: 2.5 }));
  }
  return { steps, workload: generate };
}

export function maxServeSteps(b: StepBuilder, problems: string[]): BuiltSteps {
  const { options, detected } = b;
  const model = options.model ?? '';
  const port = Number(flagValue(options.maxArgs, '--port') ?? 8000);
  if (!Number.isInteger(port) || port <= 0 || port > 65535) problems.push(`max-args: --port ${flagValue(options.maxArgs, '--port')} is not a port number`);
  else if (b.portInUse?.(port)) problems.push(`max-args: port ${port} is already in use by another process; stop it or pass --port N in max-args`);
  const steps: PlannedStep[] = [];
  const underNsys = b.profiler === 'nsys' ? [detected.tools.nsys!, 'launch', '--trace=cuda,nvtx', '--cuda-graph-trace=node', '--trace-fork-before-exec=true'] : [];
  const serveArgv = [...underNsys, 'max', 'serve', '--model', model, ...archFlags(options), ...options.maxArgs];
  // A/B: each side's windows in two blocks, each with its own server start and warm-up, so that
  // the job's order is base, head, head, base (ABBA) and a drift over the job falls on both sides.
  const blocks = options.base && options.runs >= 2 ? 2 : 1;
  const suffix = (block: number) => (block === 1 ? '' : `-${block}`);

  const window = Math.ceil(options.captureSeconds);
  const benchmark = [
    'max',
    'benchmark',
    '--model',
    model,
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    ...options.benchmarkArgs,
    ...(flagValue(options.benchmarkArgs, '--dataset-name') === 'random' && !hasFlag(options.benchmarkArgs, '--random-output-len') ? ['--random-output-len', String(options.maxNewTokens)] : []),
    ...(hasFlag(options.benchmarkArgs, '--max-benchmark-duration-s') ? [] : ['--max-benchmark-duration-s', String(window)]),
  ];
  // A window's limit: twice its length plus tokenizer load and the test prompt.
  const windowSeconds = window * 2 + 120;
  const perBlock = Math.ceil(b.runs.length / blocks);
  for (const i of b.runs) {
    const block = Math.floor((i - 1) / perBlock) + 1;
    if ((i - 1) % perBlock === 0) {
      if (block > 1) steps.push(b.step({ id: `serve-stop${suffix(block - 1)}`, role: 'serve-stop', title: 'Stop the server', argv: [], timeoutSeconds: 30, onFailure: 'continue', weight: 0 }));
      const restart = block > 1 ? ` (restart ${block - 1})` : '';
      steps.push(b.step({ id: `serve${suffix(block)}`, role: 'serve', title: `Start max serve on port ${port}${restart}`, argv: serveArgv, onFailure: 'stop', weight: 3 }));
      for (const w of b.warmups) steps.push(b.step({ id: `benchmark-warmup${suffix(block)}-${w}`, role: 'benchmark-warmup', title: `Warm-up benchmark window ${w}/${options.warmupRuns}${restart}`, argv: benchmark, timeoutSeconds: windowSeconds, onFailure: 'stop', weight: 0 }));
    }
    const json = b.out('captures', `benchmark-${i}.json`);
    const snapshot = b.out('captures', `benchmark-${i}.gpu.jsonl`);
    steps.push(
      b.step({
        id: `benchmark-${i}`,
        role: 'benchmark',
        title: `Measured benchmark window ${i}/${options.runs}`,
        argv: b.sampled([...benchmark, '--result-filename', json], snapshot, true),
        timeoutSeconds: windowSeconds,
        outputs: [{ path: json, kind: 'max-benchmark-json', analysis: true }, { path: b.log(`benchmark-${i}`), kind: 'max-benchmark', analysis: false }, ...b.snapshotOutput(snapshot)],
        onFailure: 'stop',
        weight: 0,
      }),
    );
  }
  const rep = b.out('captures', 'profile.nsys-rep');
  if (b.profiler === 'nsys') {
    steps.push(b.step({ id: 'profile', role: 'profile', title: 'Traced benchmark window (nsys)', argv: [...benchmark, '--trace', '--trace-file', rep], pathPrepend: b.nsysDir, timeoutSeconds: windowSeconds + 120, outputs: [{ path: rep, kind: 'nsys-rep', analysis: false }], onFailure: 'continue', weight: 0 }));
  }
  if (!b.runs.length) {
    steps.push(b.step({ id: 'serve', role: 'serve', title: `Start max serve on port ${port}`, argv: serveArgv, onFailure: 'stop', weight: 3 }));
    for (const w of b.warmups) steps.push(b.step({ id: `benchmark-warmup-${w}`, role: 'benchmark-warmup', title: `Warm-up benchmark window ${w}/${options.warmupRuns}`, argv: benchmark, timeoutSeconds: windowSeconds, onFailure: 'stop', weight: 0 }));
  }
  steps.push(b.step({ id: `serve-stop${suffix(blocks)}`, role: 'serve-stop', title: 'Stop the server', argv: [], timeoutSeconds: 30, onFailure: 'continue', weight: 0 }));
  // The summary is made after the server is gone, so the GPU box is free sooner.
  if (b.profiler === 'nsys') steps.push(...b.nsysStats(rep));
  return { steps, workload: [], serve: { port, healthUrl: `http://127.0.0.1:${port}/health` } };
}

export function commandSteps(b: StepBuilder, notices: PlanNotice[]): BuiltSteps {
  const { options, detected } = b;
  const run = ['bash', '-c', options.run ?? ''];
  const profileRun = ['bash', '-c', options.profileRun ?? options.run ?? ''];
  const collect = (id: string, analysis: boolean) => (options.captures.length ? { collect: { globs: options.captures, into: b.out('captures', id), analysis } } : {});
  const steps = warmupAndMeasuredSteps(b, run, (i) => ({
    outputs: [{ path: b.log(`measured-${i}`), kind: 'workload-console', analysis: true, optional: true }],
    // With a separate profile-run, the measured runs' own captures are timings, not the profile.
    ...collect(`measured-${i}`, !(b.profiler === 'torch' && options.profileRun)),
  }));
  const rep = b.out('captures', 'profile.nsys-rep');
  if (b.profiler === 'nsys') {
    if (!options.profileRun) notices.push({ severity: 'info', message: 'nsys records between cudaProfilerStart and cudaProfilerStop: the workload must call them around its steady-state window (torch.cuda.profiler.start()/stop()), or nothing is captured' });
    steps.push(b.step({ id: 'profile', role: 'profile', title: 'Profiled run (nsys)', argv: [...nsysProfileArgs(detected.tools.nsys!, rep.replace(/\.nsys-rep$/, ''), true), ...profileRun], outputs: [{ path: rep, kind: 'nsys-rep', analysis: false }], onFailure: 'continue', weight: 2.5 }));
    steps.push(...b.nsysStats(rep, 'the capture range probably never opened: call torch.cuda.profiler.start() and stop() (cudaProfilerStart/Stop) around the steady-state window of the workload'));
  } else if (b.profiler === 'rocprofv3') {
    const dir = b.out('captures', 'rocprof');
    steps.push(b.step({ id: 'profile', role: 'profile', title: 'Profiled run (rocprofv3)', argv: [...rocprofArgs(detected.tools.rocprofv3!, dir), ...profileRun], findOutputs: { dir, suffix: '_kernel_stats.csv', kind: 'rocprof-csv' }, onFailure: 'continue', weight: 2.5 }));
  } else if (b.profiler === 'torch' && options.profileRun) {
    steps.push(b.step({ id: 'profile', role: 'profile', title: "Profiled run (the workload's own profiler)", argv: profileRun, ...collect('profile', true), onFailure: 'continue', weight: 2.5 }));
  }
  return { steps, workload: run };
}
