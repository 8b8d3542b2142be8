/**
 * Mode `run`: the whole job on this GPU runner — plan, warm-up, measured runs with utilization sampling,
 * one profiled run, an optional deep dive — then analyze and publish. The orchestration is the engine's
 * (src/runner), shared with `profile-gate run`; this file maps it onto the runner's log, signals and
 * artifact.
 */
import { join } from 'node:path';
import { analyze } from '../../pipeline/analyze.js';
import { baseReportPath, prepareRun, ProcessGroups, renderPlan, runJob, traceInputs, type Logger } from '../../runner/run-workload.js';
import { fencedLogger } from '../../runner/logger.js';
import { oneLine, publishReport, type ModeContext } from '../publish.js';
import { gateOptions, resolveBaseline } from '../baseline.js';
import { runInfo } from './run-info.js';
import type { Capture } from '../../model/capture.js';
import { RUN_FILE } from '../../model/report.js';
import { loadFamilies } from '../../io/families-file.js';
import { UsageError } from '../../errors.js';
import { INPUTS } from '../inputs.js';
import { inertLine, inertLines } from '../../report/inert-text.js';

/** The runner's log; the workload's own lines are fenced so that it cannot issue workflow commands. */
function actionLogger(ctx: ModeContext): Logger {
  const base: Logger = {
    // The run's own lines quote names from outside: inert (no line can be a workflow command).
    info: (text) => ctx.host.info(inertLine(text)),
    warning: (text) => ctx.host.warning(inertLine(text)),
    error: (text) => ctx.host.error(inertLine(text)),
    output: (text) => ctx.host.info(oneLine(text)),
    group: (name, fn) => ctx.host.group(name, fn),
  };
  return fencedLogger(base, (line) => ctx.host.info(oneLine(line)));
}

/**
 * A pull request from a fork brings a stranger's code; mode run would execute it on this
 * self-hosted runner. GitHub advises self-hosted runners only for private repositories for that
 * reason, so it takes an explicit input.
 */
export function forkWorkloadRefusal(ctx: ModeContext): string | undefined {
  if (!ctx.run.fromFork || ctx.inputs.allowForkWorkloads) return undefined;
  return `mode run: pull request #${ctx.run.pullRequest ?? '?'} comes from a fork, and its workload would run on this self-hosted runner; nothing was run. Use the fork-safe pattern (examples/fork-safe-pr.yml and fork-safe-comment.yml: approval for outside collaborators, ephemeral runners, no write token) and set ${INPUTS.allowForkWorkloads}: true there`;
}

export async function runMode(ctx: ModeContext): Promise<void> {
  const refusal = forkWorkloadRefusal(ctx);
  if (refusal) throw new UsageError(refusal);
  const options = ctx.inputs.run;
  if (!options) throw new Error('mode run: the run options were not read with the inputs');
  const gate = gateOptions(ctx);
  const families = ctx.inputs.families ? await loadFamilies(ctx.inputs.families) : [];
  const { baseline, note } = await resolveBaseline(ctx, options.base !== undefined);
  const plan = await prepareRun(options, { outDir: join(ctx.inputs.reportDir, 'run') });
  ctx.host.info(inertLines(renderPlan(plan)));

  const groups = new ProcessGroups();
  // The runner sends SIGINT then SIGTERM on cancel: stop exactly the workload's process groups first.
  let job: Promise<unknown> | undefined;
  const restoreSignals = groups.forwardSignals({ settle: () => job ?? Promise.resolve(), beforeExit: (signal) => ctx.host.warning(`${signal}: stopped the workload's process groups; run.json says what finished`) });
  let result;
  // The captures of the head's last analysis: what the clean traces are written from.
  let read: readonly Capture[] = [];
  try {
    const running = runJob(plan, {
      logger: actionLogger(ctx),
      groups,
      secrets: ctx.secrets,
      analyze: (inputs, which) =>
        analyze({
          inputs,
          onCaptures: (captures) => {
            if (which.side !== 'base') read = captures;
          },
          environment: plan.environment,
                run: runInfo(ctx),
          gate,
          diagnose: { options: ctx.inputs.ruleOptions },
          families,
          ...(ctx.inputs.analyzeTimeoutSeconds ? { timeoutMs: ctx.inputs.analyzeTimeoutSeconds * 1000 } : {}),
          // The base side of an A/B run is a baseline in the making: never compared itself.
          baseline: which.side === 'base' ? null : which.baseline ?? baseline,
          // A planned capture that was not made leads the verdict's reasons and the skipped-inputs output.
          ...(which.side === 'head' && which.skipped?.length ? { skippedInputs: which.skipped } : {}),
        }),
    });
    job = running;
    result = await running;
  } finally {
    restoreSignals();
  }
  const logs = [join(plan.outDir, RUN_FILE), ...(result.baseReport ? [baseReportPath(plan)] : []), ...result.run.files.map((file) => file.path)];
  if (result.run.outcome !== 'ok' || !result.report) {
    ctx.host.setFailed(`profile-gate run ${result.run.outcome}: ${oneLine(result.run.message ?? 'no report was produced')} (logs in ${plan.outDir})`);
    return;
  }
  await publishReport(ctx, { report: result.report, extraFiles: logs, captures: read, traceInputs: traceInputs(result.run), ...(note ? { baselineNote: note } : {}) });
  if (ctx.inputs.strict && result.lost?.length) {
    // A planned capture that was not made fails a strict job (the skipped-inputs output names it).
    ctx.host.setFailed(`profile-gate run: input '${INPUTS.strict}': ${oneLine(result.lost.map((entry) => `${entry.path}: ${entry.reason}`).join('; '))}`);
  }
}
