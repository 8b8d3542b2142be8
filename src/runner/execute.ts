/**
 * Carrying out a plan: the executor (executor.ts) runs each step with the runner of its role
 * (steps/), each in its process group, stopped at its limit or at the run's deadline, its files
 * checked before they count. A failed warm-up, measured run or server stops the run; a failed
 * profile leaves a gap the report tells about. Here: the run's outcome from what the steps left.
 */
import { runSteps, type StepsDone } from './executor.js';
import type { Plan, PlanNotice } from './plan-types.js';
import type { ExecuteDeps, RunOutcome, RunResult } from './run-types.js';
import { STEP_RUNNERS } from './steps/index.js';

export type { ExecuteDeps, RunFile, RunOutcome, RunResult, StepRecord, StepStatus } from './run-types.js';

/**
 * Measured runs whose console gave no metric line while the other measured runs' of their side did:
 * each gave no sample, so the comparison rests on fewer runs than planned. Named, in place of the
 * general note that a console was unread.
 */
function runsWithoutSamples(plan: Plan, done: StepsDone): PlanNotice[] {
  const ok = new Set(done.records.filter((record) => record.status === 'ok').map((record) => record.id));
  const notices: PlanNotice[] = [];
  for (const side of [undefined, 'base'] as const) {
    const measured = plan.steps.filter((step) => step.role === 'measured' && step.side === side && ok.has(step.id) && step.outputs.some((o) => o.kind === 'workload-console'));
    const read = (id: string) => done.files.some((file) => file.step === id && file.kind === 'workload-console');
    const without = measured.filter((step) => !read(step.id));
    if (without.length === 0 || without.length === measured.length) continue;
    const ids = without.map((step) => step.id);
    notices.push({
      code: 'workload-console-unread',
      severity: 'warning',
      message: `${ids.join(', ')} gave no sample: ${ids.length === 1 ? 'its console holds' : 'their consoles hold'} no {"metric": …, "value": …} line, unlike the other measured runs; ${measured.length - without.length} of ${measured.length} measured runs count`,
    });
  }
  return notices;
}

/** The run's outcome: a run that ended ok with nothing to analyze (for either side) failed. */
function outcomeOf(plan: Plan, done: StepsDone, cancelled: boolean, seconds: () => number): RunResult {
  const { records: steps, files, stopReason, stepProblems } = done;
  const partial = runsWithoutSamples(plan, done);
  const notices = partial.length ? [...done.context.notices.filter((notice) => notice.code !== 'workload-console-unread'), ...partial] : done.context.notices;
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
