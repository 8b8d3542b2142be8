/**
 * Carrying out a plan: the executor (executor.ts) runs each step with the runner of its role
 * (steps/), each in its process group, stopped at its limit or at the run's deadline, its files
 * checked before they count. A failed warm-up, measured run or server stops the run; a failed
 * profile leaves a gap the report tells about. Here: the run's outcome from what the steps left.
 */
import { runSteps, type StepsDone } from './executor.js';
import type { Plan } from './plan-types.js';
import type { ExecuteDeps, RunOutcome, RunResult } from './run-types.js';
import { STEP_RUNNERS } from './steps/index.js';

export type { ExecuteDeps, RunFile, RunOutcome, RunResult, StepRecord, StepStatus } from './run-types.js';

/** The run's outcome: a run that ended ok with nothing to analyze (for either side) failed. */
function outcomeOf(plan: Plan, done: StepsDone, cancelled: boolean, seconds: () => number): RunResult {
  const { records: steps, files, stopReason, stepProblems } = done;
  const notices = done.context.notices;
  const outcome: RunOutcome = cancelled ? 'cancelled' : stopReason?.outcome ?? 'ok';
  const analysisInputs = files.filter((file) => file.analysis && !file.side).map((file) => file.path);
  const baseAnalysisInputs = files.filter((file) => file.analysis && file.side === 'base').map((file) => file.path);
  const missing = analysisInputs.length === 0 ? 'the head' : plan.base && baseAnalysisInputs.length === 0 ? 'the base' : undefined;
  if (outcome === 'ok' && missing) {
    // The failed steps' own messages carry the hint (a capture range that never opened, a tool missing).
    // With no failed step, a command workload's console without metric lines is the likely cause.
    const consoleNotice = stepProblems.length ? undefined : notices.find((notice) => notice.code === 'workload-console-unread');
    const why = stepProblems.length ? `: ${stepProblems.join('; ')}` : consoleNotice ? `: ${consoleNotice.message}` : '';
    const message = `${stepProblems.length ? '' : 'every step finished but '}no capture file was produced for ${plan.base ? `${missing}'s analysis` : 'the analysis'}${why}`;
    return { outcome: 'failed', message, steps, files, analysisInputs, baseAnalysisInputs, notices, seconds: seconds() };
  }
  return {
    outcome,
    ...(outcome !== 'ok' ? { message: stopReason?.message ?? 'the run was cancelled' } : {}),
    steps,
    files,
    analysisInputs,
    baseAnalysisInputs,
    notices,
    seconds: seconds(),
  };
}

export async function executePlan(plan: Plan, deps: ExecuteDeps): Promise<RunResult> {
  const started = Date.now();
  const done = await runSteps(plan, deps, STEP_RUNNERS, started);
  return outcomeOf(plan, done, deps.groups.isCancelled(), () => (Date.now() - started) / 1000);
}
