/**
 * The files a command step leaves, checked before they count: the analysis copy of a profiled
 * console, the captures a workload wrote (copied out), and the planned outputs (present, not empty,
 * the expected kind). A missing optional output is a notice; a missing required one fails the step.
 */
import { checkOutput, collectCaptures, consoleAnalysisFile, deriveProfileConsole, findBySuffix } from '../capture-files.js';
import type { PlannedOutput, PlannedStep } from '../plan-types.js';
import type { RunFile } from '../run-types.js';
import type { StepContext } from './types.js';


/** The analysis copy of a profiled `max generate` console (its timings are not a measurement). */
async function deriveConsole(step: PlannedStep, context: StepContext): Promise<PlannedOutput[]> {
  if (!step.derive) return [];
  const dropped = await deriveProfileConsole(step.derive.from, step.derive.to);
  if (dropped) context.logger.info(`${context.display(step.derive.to)}: the profiled run's console without its ${dropped} timing lines (profiling slows the run)`);
  return [{ path: step.derive.to, kind: 'max-generate', analysis: true }];
}

/** The captures the step wrote (new or changed since `before`), copied out and checked. */
async function collectStepCaptures(step: PlannedStep, context: StepContext, cwd: string, before: Map<string, number>): Promise<RunFile[]> {
  if (!step.collect) return [];
  const collected: RunFile[] = [];
  const copies = await collectCaptures(step.collect.globs, cwd, before, step.collect.into);
  // A measured run beside a profile run of its own need not write the profile: only the
  // step whose captures are analyzed is expected to.
  if (copies.length === 0 && step.collect.analysis) context.notices.push({ severity: 'warning', message: `${step.id}: the step wrote no file matching captures ${step.collect.globs.join(', ')}` });
  for (const path of copies) {
    const check = await checkOutput(path, 'workload-capture');
    if (check.ok) collected.push({ path, kind: 'workload-capture', analysis: step.collect.analysis, bytes: check.bytes, step: step.id });
    else context.notices.push({ severity: 'warning', message: `${step.id}: capture ${context.display(path)} ${check.reason}; left out of the analysis` });
  }
  return collected;
}

/** The planned outputs (and those found by suffix), each checked. */
async function verifyOutputs(step: PlannedStep, extra: PlannedOutput[], context: StepContext): Promise<{ files: RunFile[]; problem?: string }> {
  const { display, notices } = context;
  const found: RunFile[] = [];
  const problems: string[] = [];
  const outputs = [...step.outputs, ...extra];
  if (step.findOutputs) {
    const matches = await findBySuffix(step.findOutputs.dir, step.findOutputs.suffix);
    if (matches.length === 0) problems.push(`no *${step.findOutputs.suffix} under ${display(step.findOutputs.dir)}`);
    for (const path of matches) outputs.push({ path, kind: step.findOutputs.kind, analysis: true });
  }
  for (const output of outputs) {
    const check = output.kind === 'workload-console' ? await consoleAnalysisFile(output.path) : { ...(await checkOutput(output.path, output.kind)), path: output.path };
    if (check.ok) found.push({ path: check.path, kind: output.kind, analysis: output.analysis, bytes: check.bytes, step: step.id });
    else if (output.optional) {
      // Said once for all the runs of a workload whose console carries no metrics.
      if (output.kind !== 'workload-console') notices.push({ severity: 'info', message: `${step.id}: ${display(output.path)} ${check.reason}` });
      else if (!notices.some((notice) => notice.code === 'workload-console-unread')) notices.push({ code: 'workload-console-unread', severity: 'info', message: `the workload's console ${check.reason}` });
    } else problems.push(`${display(output.path)} ${check.reason}${output.hint ? ` (${output.hint})` : ''}`);
  }
  return problems.length ? { files: found, problem: problems.join('; ') } : { files: found };
}

/**
 * The files of a command that exited 0, captures first; `problem` says what a required output
 * lacked (the step then failed).
 */
export async function stepOutputs(step: PlannedStep, context: StepContext, cwd: string, capturesBefore: Map<string, number>): Promise<{ files: RunFile[]; problem?: string }> {
  const derived = await deriveConsole(step, context);
  const collected = await collectStepCaptures(step, context, cwd, capturesBefore);
  const verified = await verifyOutputs(step, derived, context);
  const files = [...collected, ...verified.files];
  return verified.problem ? { files, problem: verified.problem } : { files };
}
