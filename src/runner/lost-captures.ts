/**
 * A capture that was planned and not made is a loss the report shows, never a quiet gap. Two parts:
 * - the fallback: under `--profiler nsys` a command workload is profiled between its own
 *   cudaProfilerStart and cudaProfilerStop; a workload that never calls them leaves nsys exiting 0
 *   with no report. That profiled run is taken once more as a whole process (no capture range), so
 *   the kernel comparison is kept, and the notice says how to mark the window;
 * - the loss: a side whose kernel capture still did not reach the analysis (the profiled run or
 *   its summary failed, or wrote nothing) is named, with why, as a skipped input of the report: the
 *   verdict's first line, the action's `skipped-inputs` output, and `strict` fails on it.
 */
import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import type { SkippedInput } from '../model/report.js';
import type { Plan, PlannedStep } from './plan-types.js';
import { NSYS_CAPTURE_RANGE_ARGS } from './profilers.js';
import type { RunResult } from './run-types.js';

type Side = PlannedStep['side'];

/** How to mark the profiled window, said wherever a capture range did not open. */
export const MARK_THE_WINDOW =
  'mark the steady-state window: call torch.cuda.profiler.start() and torch.cuda.profiler.stop() around it (cudaProfilerStart/cudaProfilerStop), or give a --profile-run that does';

const CAPTURE_STEP_ROLES = new Set<PlannedStep['role']>(['profile', 'profile-stats']);

/** The steps of a side that make its kernel capture: its profiled run and the summaries of it. */
function captureSteps(steps: readonly PlannedStep[], side: Side): PlannedStep[] {
  return steps.filter((step) => CAPTURE_STEP_ROLES.has(step.role) && step.side === side);
}

/**
 * The steps that take a side's profiled run again as a whole process, when its nsys capture range
 * never opened (nsys exited 0 and wrote no report); undefined otherwise. Its summaries follow it.
 */
export function wholeProcessFallback(plan: Plan, run: RunResult, side: Side): PlannedStep[] | undefined {
  const profile = plan.steps.find((step) => step.role === 'profile' && step.side === side && NSYS_CAPTURE_RANGE_ARGS.every((arg) => step.argv.includes(arg)));
  if (!profile) return undefined;
  const record = run.steps.find((r) => r.id === profile.id);
  const report = profile.outputs.find((output) => output.kind === 'nsys-rep');
  // The run itself failed (an exit code, a timeout): the workload's fault, which a second run repeats.
  if (!record || record.status !== 'failed' || record.exitCode !== 0 || !report || existsSync(report.path)) return undefined;
  const whole: PlannedStep = {
    ...profile,
    id: `${profile.id}-whole`,
    title: profile.title.replace('(nsys)', '(nsys, whole process: the capture range never opened)'),
    argv: profile.argv.filter((arg) => !(NSYS_CAPTURE_RANGE_ARGS as readonly string[]).includes(arg)),
    logFile: profile.logFile.replace(/(\.log)?$/, '-whole.log'),
  };
  return [whole, ...captureSteps(plan.steps, side).filter((step) => step.role === 'profile-stats')];
}

/** The notice of a fallback that made the capture: what was lost, what stands in for it, and how to mark the window. */
export function fallbackNotice(side: Side): string {
  const who = side === 'base' ? "the base build's profiled run" : 'the profiled run';
  return `${who} wrote no report: nsys records between cudaProfilerStart and cudaProfilerStop, and the workload never called them, so the capture range never opened. It was taken again as a whole process, so the kernel comparison includes model load and warm-up; ${MARK_THE_WINDOW}`;
}

/** A file of a step counts for the analysis of its side. */
function madeCapture(run: RunResult, ids: ReadonlySet<string>, side: Side): boolean {
  return run.files.some((file) => file.analysis && ids.has(file.step) && file.side === side);
}

/**
 * Without a profiled run (the workload's own profiler, no profile-run), the measured runs collect the
 * kernel capture: when runs finished and none wrote a file matching `captures`, it was not made.
 */
function measuredCaptureMissed(plan: Plan, run: RunResult, side: Side): SkippedInput | undefined {
  const collecting = plan.steps.filter((step) => step.role === 'measured' && step.side === side && step.collect?.analysis);
  if (plan.profiler !== 'torch' || collecting.length === 0) return undefined;
  const ids = new Set(collecting.map((step) => step.id));
  if (run.files.some((file) => file.kind === 'workload-capture' && ids.has(file.step) && file.side === side)) return undefined;
  if (!run.steps.some((record) => ids.has(record.id) && record.status === 'ok')) return undefined;
  const globs = collecting[0]!.collect!.globs.join(', ');
  return { path: globs, reason: `planned capture not made${side === 'base' ? ' (base build)' : ''}, so no kernel comparison, per-step time or kernel findings: no measured run wrote a file matching captures ${globs}` };
}

/**
 * The sides whose planned kernel capture did not reach the analysis, each as a skipped input: the
 * planned file and why (each capture step of the side that failed, in its own words).
 * A fallback that made the capture is no loss.
 */
export function lostCaptures(plan: Plan, run: RunResult, extraSteps: readonly PlannedStep[] = []): SkippedInput[] {
  const lost: SkippedInput[] = [];
  for (const side of [undefined, 'base'] as const) {
    const planned = captureSteps(plan.steps, side);
    const profile = planned.find((step) => step.role === 'profile');
    if (!profile) {
      const missed = measuredCaptureMissed(plan, run, side);
      if (missed) lost.push(missed);
      continue;
    }
    const all = [...planned, ...captureSteps(extraSteps, side)];
    const ids = new Set(all.map((step) => step.id));
    if (madeCapture(run, ids, side)) continue;
    const records = all.map((step) => run.steps.find((r) => r.id === step.id)).filter((r) => r !== undefined);
    // Nothing ran (the run stopped before the profile): the run's own outcome says so.
    if (!records.some((r) => r.status !== 'skipped')) continue;
    // Every try that failed, in order (the profiled run, then its whole-process retake), else what was skipped.
    const failed = records.filter((r) => r.status !== 'ok' && r.status !== 'skipped').map((r) => r.message ?? `${r.title} ${r.status}`);
    const skipped = records.find((r) => r.status === 'skipped');
    const why = failed.length ? failed.join('; then ') : skipped?.message ?? `${profile.title} left no file for the analysis`;
    const where = profile.outputs[0]?.path ?? profile.findOutputs?.dir ?? profile.collect?.into ?? profile.logFile;
    const path = where.startsWith(`${plan.cwd}/`) ? relative(plan.cwd, where) : where;
    lost.push({ path, reason: `planned capture not made${side === 'base' ? ' (base build)' : ''}, so no kernel comparison, per-step time or kernel findings: ${why}` });
  }
  return lost;
}
