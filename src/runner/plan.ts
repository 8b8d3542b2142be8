/**
 * The plan: from the options and the detected box, the ordered steps with their exact commands,
 * files and time limits. Pure, so `--dry-run` shows exactly what a run would do. What the box lacks
 * becomes a notice with the install line and the fallback; what cannot work at all is a problem,
 * found here, before anything long starts.
 */
import { join, resolve } from 'node:path';
import { environmentFingerprint, type DetectedEnvironment } from './detect.js';
import { INSTALL } from './install-lines.js';
import type { RunOptions } from './run-options.js';
import { commandSteps, createStepBuilder, maxGenerateSteps, maxServeSteps, type StepBuilder } from './plan-steps.js';
import { resolveProfiler } from './profilers.js';
import { hasFlag } from './shell-words.js';

export type { OutputKind, PlannedOutput, StepRole, PlannedStep, ServePlan, DeepDivePlan, PlanNotice, ResolvedProfiler, Plan, BasePlan, PlanContext } from './plan-types.js';
import type { BasePlan, DeepDivePlan, Plan, PlanContext, PlannedStep, PlanNotice } from './plan-types.js';

const MIN_STEP_SECONDS = 30;

export function buildPlan(options: RunOptions, detected: DetectedEnvironment, context: PlanContext): Plan {
  const notices: PlanNotice[] = [];
  const problems: string[] = [];
  if (options.ignored.length) notices.push({ severity: 'info', message: `ignored for engine ${options.engine}${options.engine === 'max' ? ` (${options.mode})` : ''}: ${options.ignored.join(', ')}` });
  if (options.engine === 'max' && !detected.tools.max) problems.push(`engine max: the max command is not on PATH. Install MAX: ${INSTALL.max}`);
  if (options.engine === 'max' && (hasFlag(options.maxArgs, '--model') || hasFlag(options.maxArgs, '--model-path'))) problems.push('max-args: give the model with the model option, not --model/--model-path in max-args');

  if (context.isFile?.(context.outDir)) problems.push(`out: ${context.outDir} is a file, not a folder; name a folder for the run's logs, captures and report`);

  const profiler = resolveProfiler(options, detected, notices);
  const sampling = Boolean(detected.vendor) && context.gpuSnapshotAvailable;
  // A GPU job on a box where no GPU is found (a broken driver, a runner without device access) would
  // measure throughput only and pass: that is a failed plan unless the workflow allows it.
  const needsGpu = [options.profiler !== 'none' ? `profiler ${options.profiler}` : '', context.gpuSnapshotAvailable ? 'GPU sampling' : ''].filter(Boolean);
  if (!detected.vendor && needsGpu.length && !options.allowNoGpu) {
    problems.push(`no GPU found (nvidia-smi and rocm-smi list none), but ${needsGpu.join(' and ')} need${needsGpu.length === 1 ? 's' : ''} one; check the driver and the runner's device access, or allow a throughput-only run with allow-no-gpu (--allow-no-gpu)`);
  }
  if (!detected.vendor) notices.push({ severity: 'warning', message: 'no GPU found (nvidia-smi and rocm-smi list none): GPU utilization is not sampled' });
  else if (!context.gpuSnapshotAvailable) notices.push({ severity: 'warning', message: `${join(context.pythonDir, 'gpu_snapshot.py')} is missing: GPU utilization is not sampled` });

  const stepsFor = (builder: StepBuilder, sideNotices: PlanNotice[], sideProblems: string[]) => {
    const built = options.engine === 'command' ? commandSteps(builder, sideNotices) : options.mode === 'serve' ? maxServeSteps(builder, sideProblems) : maxGenerateSteps(builder);
    return { built, steps: [...builder.preflight(), ...built.steps] };
  };
  const builder = createStepBuilder(options, detected, context, profiler, sampling);
  const head = stepsFor(builder, notices, problems);
  const { built } = head;
  let steps = head.steps;
  let base: BasePlan | undefined;
  const extraPairs: PlannedStep[][] = [];
  if (options.base) {
    const cwd = resolve(context.cwd, options.base.workdir ?? '.');
    base = { cwd, ...(options.base.run ? { run: options.base.run } : {}) };
    if (options.base.workdir !== undefined && context.isDirectory && !context.isDirectory(cwd)) problems.push(`base-workdir: ${cwd} is not a folder (check out the base commit there first, e.g. actions/checkout with path: ${options.base.workdir})`);
    if (!options.base.run && options.base.workdir !== undefined && cwd === context.cwd) problems.push('base-workdir: the base folder is the job\'s own folder, so both sides would run the same build; point it at a checkout of the base commit');
    const { profileRun: _head, ...shared } = options;
    const baseOptions: RunOptions = options.base.run ? { ...shared, run: options.base.run } : options;
    // Notices and problems of the base side repeat the head's; the head's are enough.
    const baseSide = stepsFor(createStepBuilder(baseOptions, detected, context, profiler, sampling, { side: 'base', cwd }), [], []);
    steps = interleaveSides(baseSide.steps, head.steps, options.engine === 'max' && options.mode === 'serve');
    if (options.maxRuns > options.runs) {
      // The same builders with max-runs measured runs; the runs past the planned ones are the reserve.
      const reserve = (stepsOf: PlannedStep[]) => stepsOf.filter((s) => s.role === 'measured').slice(options.runs);
      const headMore = reserve(stepsFor(createStepBuilder({ ...options, runs: options.maxRuns }, detected, context, profiler, sampling), [], []).steps);
      const baseMore = reserve(stepsFor(createStepBuilder({ ...baseOptions, runs: options.maxRuns }, detected, context, profiler, sampling, { side: 'base', cwd }), [], []).steps);
      for (let i = 0; i < headMore.length; i += 2) {
        // ABBA: base, head, head, base; a last odd run is one base/head pair.
        extraPairs.push([baseMore[i], headMore[i], headMore[i + 1], baseMore[i + 1]].filter((x): x is PlannedStep => x !== undefined));
      }
    }
    notices.push({
      severity: 'info',
      message:
        options.engine === 'max' && options.mode === 'serve'
          ? 'A/B: the servers run one at a time in blocks base, head, head, base (ABBA), each restarted with its own warm-up, so a drift over the job falls on both sides; both share the time budget'
          : 'A/B: the measured runs alternate base/head in ABBA order, so a drift of the GPU over the job falls on both sides alike; both share the time budget',
    });
  }

  const deepDive = planDeepDive(options, detected, built.workload, notices, builder.out);
  const budgetSeconds = Math.round(options.timeoutMinutes * 60);
  assignTimeouts(steps, deepDive, budgetSeconds);
  // A reserve run may take as long as a planned measured run of its side.
  const lastMeasured = [...steps].reverse().find((s) => s.role === 'measured');
  for (const pair of extraPairs) for (const s of pair) s.timeoutSeconds = lastMeasured?.timeoutSeconds ?? MIN_STEP_SECONDS;
  const serve = built.serve ? { ...built.serve, readyTimeoutSeconds: steps.find((s) => s.role === 'serve')!.timeoutSeconds } : undefined;

  return {
    options,
    detected,
    environment: environmentFingerprint(detected, options.engine, options.model),
    profiler,
    sampling,
    steps,
    ...(serve ? { serve } : {}),
    deepDive,
    notices,
    problems,
    budgetSeconds,
    outDir: context.outDir,
    cwd: context.cwd,
    ...(base ? { base } : {}),
    extraPairs,
  };
}

/**
 * One order for both sides: pre-flights and warm-ups first, then the measured runs in ABBA pairs
 * (base-1 head-1, head-2 base-2, …), then each side's profiled run. A server holds the GPU's memory,
 * so serve mode runs one server at a time, in blocks: base, head, head, base, each block its own
 * server start and warm-up windows, then half of the side's measured windows.
 */
export function interleaveSides(base: PlannedStep[], head: PlannedStep[], blocks: boolean): PlannedStep[] {
  if (blocks) {
    // Serve blocks end at a server stop; two per side run base, head, head, base.
    const split = (steps: PlannedStep[]) => {
      const out: PlannedStep[][] = [[]];
      for (const s of steps) {
        if (s.role === 'serve' && out[out.length - 1]!.some((x) => x.role === 'serve')) out.push([]);
        out[out.length - 1]!.push(s);
      }
      return out;
    };
    const [b, h] = [split(base), split(head)];
    if (b.length === 2 && h.length === 2) return [...b[0]!, ...h[0]!, ...h[1]!, ...b[1]!];
    return [...base, ...head];
  }
  const before = (steps: PlannedStep[]) => steps.filter((s) => s.role === 'preflight' || s.role === 'warmup');
  const measured = (steps: PlannedStep[]) => steps.filter((s) => s.role === 'measured');
  const after = (steps: PlannedStep[]) => steps.filter((s) => s.role !== 'preflight' && s.role !== 'warmup' && s.role !== 'measured');
  const ordered = [...before(base), ...before(head)];
  const [b, h] = [measured(base), measured(head)];
  for (let i = 0; i < Math.max(b.length, h.length); i++) {
    const pair = [b[i], h[i]].filter((s): s is PlannedStep => s !== undefined);
    ordered.push(...(i % 2 === 0 ? pair : pair.reverse()));
  }
  return [...ordered, ...after(base), ...after(head)];
}

function planDeepDive(options: RunOptions, detected: DetectedEnvironment, workload: string[], notices: PlanNotice[], out: (...parts: string[]) => string): DeepDivePlan {
  const base = { mode: options.deepDive, workload, timeoutSeconds: 0, logFile: out('logs', 'deep-dive.log'), csvFile: out('captures', 'deep-dive.ncu.csv') };
  if (options.deepDive === 'off') return { ...base, enabled: false, reason: 'deep-dive: off' };
  if (options.engine === 'max' && options.mode === 'serve') return { ...base, enabled: false, reason: 'no deep dive with max-mode serve (ncu replays the kernels of one process; use max-mode generate)' };
  if (detected.vendor !== 'nvidia') return { ...base, enabled: false, reason: 'no deep dive: Nsight Compute needs an NVIDIA GPU' };
  if (!detected.tools.ncu) {
    notices.push({ severity: 'warning', message: 'ncu not found: no kernel deep dive', fix: INSTALL.ncu });
    return { ...base, enabled: false, reason: 'no deep dive: ncu not found' };
  }
  const reason = options.deepDive === 'always' ? 'ncu on the dominant kernel (or the top kernel)' : 'ncu on the dominant kernel, if the analysis finds one';
  return { ...base, enabled: true, reason, ncu: detected.tools.ncu };
}

/**
 * Each step may use twice its weighted share of the budget (a slow step is tolerated, a hung one
 * is not); the runner also stops any step at the overall deadline.
 */
function assignTimeouts(steps: PlannedStep[], deepDive: DeepDivePlan, budgetSeconds: number): void {
  const fixed = steps.reduce((sum, s) => sum + (s.weight === 0 && s.role !== 'preflight' ? s.timeoutSeconds : 0), 0);
  const weights = steps.reduce((sum, s) => sum + s.weight, 0) + (deepDive.enabled ? 2 : 0);
  const flexible = Math.max(budgetSeconds - fixed / 2, budgetSeconds / 4);
  const share = (weight: number) => Math.min(budgetSeconds, Math.max(MIN_STEP_SECONDS, Math.round(((flexible * weight) / Math.max(weights, 1)) * 2)));
  for (const s of steps) {
    if (s.role === 'preflight') s.timeoutSeconds = Math.min(budgetSeconds, 120);
    else if (s.weight > 0) s.timeoutSeconds = share(s.weight);
    else s.timeoutSeconds = Math.min(budgetSeconds, s.timeoutSeconds || MIN_STEP_SECONDS);
  }
  if (deepDive.enabled) deepDive.timeoutSeconds = share(2);
}
