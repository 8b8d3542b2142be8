/**
 * The comparison's time per step in words, for the first lines of the comment, the job summary and
 * the terminal: one sentence naming the kernel whose time per step changed most (and where it was
 * launched from, and the finding it is part of), the change of all kernel time, and how much of the
 * measured change it explains.
 * Renders comparison.perStep (src/compare/per-step.ts); computes nothing of its own.
 */
import type { LockstepKernel, MeasuredStep, PerStep, PerStepNote, Report, StepCount, StepRefusal } from '../model/report.js';
import { stepTimeText } from './percent-format.js';

/** Where the measured step time comes from, in words. */
export function measuredBasisText(basis: MeasuredStep['basis']): string {
  switch (basis) {
    case 'decode_tok_s+batch':
      return 'decode_tok_s medians and the batch';
    case 'decode_tok_s':
      return 'decode_tok_s medians (per token: the batch is unknown)';
    case 'profiler_step_ms':
      return "the medians of the profiled steps (profiler_step_ms; under the profiler, whose own cost both sides pay: no run lines give a step time)";
    default:
      return `${basis} medians`;
  }
}

/** A refused comparison per step in words: why the windows differ, what is compared instead, and the capture's fix (the data is perStep.refused). */
export function refusalText(refused: StepRefusal, counts: { current: StepCount; baseline: StepCount }): string {
  const fix = refused.fix === 'cuda-graph-trace-node' ? '; an nsys trace of CUDA graphs at graph level keeps only the kernels launched outside the graphs: capture with --cuda-graph-trace=node' : '';
  const then = 'kernels compared per launch, and nothing fails on them';
  const stepsOf = (count: StepCount) => `${count.steps} steps (${count.basis})`;
  switch (refused.cause) {
    case 'tokens-per-step':
      return `time per step not compared: the steps carry different tokens (${refused.baseline} per step in the baseline, ${refused.current} in the current run), so a step is not the same work; ${then}`;
    case 'kernel-time-exceeds-step': {
      const side = refused.side === 'baseline' ? 'the baseline' : 'the current run';
      const count = refused.side === 'baseline' ? counts.baseline : counts.current;
      return `time per step not compared: ${side}'s kernels take ${stepTimeText(refused.baseline)} per counted step, more than its measured step of ${stepTimeText(refused.current)} allows, so its window holds more work than its ${stepsOf(count)}; ${then}${fix}`;
    }
    case 'step-bases-differ':
      return `time per step not compared: the sides count steps from different evidence (the baseline ${stepsOf(counts.baseline)}, the current run ${stepsOf(counts.current)}) and their kernel time per step differs ${(refused.current / refused.baseline).toFixed(1)}× (${stepTimeText(refused.baseline)} → ${stepTimeText(refused.current)}), more than a change of the code moves it; ${then}${fix}`;
    case 'step-counts-differ':
      return stepCountsText(refused, counts);
  }
}

/** What limits the reading of the time per step, in words (an older report's note as it stored it). */
export function perStepNoteText(note: PerStepNote | string, perStep: Pick<PerStep, 'baseline' | 'current'>): string {
  if (typeof note === 'string') return note;
  switch (note.kind) {
    case 'per-device':
      return 'times are per step per device (kernel time over the devices, divided by them)';
    case 'steps-unknown': {
      const missing = note.sides.map((side) => `${side === 'baseline' ? 'the baseline' : 'the current run'} (${perStep[side].text})`).join(' and ');
      return `steps unknown for ${missing}: kernels compared by time per launch, not per step`;
    }
    case 'per-token':
      return 'tokens per step (the batch) unknown on a side: the measured change is per token (1/tok/s), and kernel time per step is not set against it; state it with "batch": N in the workload\'s {"kind": "run", …} lines (references/formats.md)';
    case 'no-measured-step':
      return 'no measured step time on both sides (decode_tok_s with the batch, tpot_ms or itl_ms)';
  }
}

/** The notes of the time per step: a refusal first (written from its data), then what limits the reading. */
export function perStepNotes(perStep: PerStep): string[] {
  return [...(perStep.refused ? [refusalText(perStep.refused, perStep)] : []), ...perStep.notes.map((note) => perStepNoteText(note, perStep))];
}

/** Below this share of a slowdown, the sentence says that the rest is host or idle time. */
const MOSTLY_EXPLAINED = 0.8;

export interface HeadlineParts {
  /** Renders a kernel name (a code span in markdown, the plain short name in a terminal). */
  kernel: (name: string) => string;
  /** Renders other outside text (a CPU op chain, a Python line). */
  text: (text: string) => string;
}

function percentText(share: number): string {
  return `${Math.round(share * 100)} %`;
}

/** Where the kernel was launched from: the CPU op chain's innermost op and the Python line, as the trace gives them. */
function origin(kernel: PerStep['kernels'][number], parts: HeadlineParts): string {
  const from = [kernel.launchedBy ? kernel.launchedBy.split(' > ').at(-1)! : '', kernel.site ?? ''].filter(Boolean);
  return from.length ? ` (launched from ${parts.text(from.join(' / '))})` : '';
}

/** An anchor family as the sentence names it (`2 launches per softmax launch`). */
const ANCHOR_WORD: Readonly<Record<string, string>> = { 'attention-softmax': 'softmax' };

/** A kernel a finding names in lockstep with its own, for its evidence lines: `name` (2 per softmax launch, 298 µs/step). */
export function lockstepText(kernel: LockstepKernel, parts: HeadlineParts): string {
  const time = kernel.nsPerStep === null ? `${stepTimeText(kernel.totalNs)} over ${kernel.launches} launches, steps unknown` : `${stepTimeText(kernel.nsPerStep)}/step`;
  return `${parts.kernel(kernel.name)} (${kernel.perLaunch} per ${ANCHOR_WORD[kernel.anchor] ?? kernel.anchor} launch, ${time})`;
}

/**
 * The finding the kernel is part of, where a finding names it among the kernels in lockstep with its
 * own (src/diagnose/profile-measures.ts lockstepKernels): the headline's kernel is then explained.
 */
function partOf(report: Report, name: string, parts: HeadlineParts): string {
  for (const finding of report.findings) {
    const kernel = finding.lockstepKernels?.find((k) => k.name === name);
    if (!kernel) continue;
    const launches = `${kernel.perLaunch} launch${kernel.perLaunch === 1 ? '' : 'es'}`;
    return ` (part of ${parts.text(finding.id)}: ${launches} per ${ANCHOR_WORD[kernel.anchor] ?? kernel.anchor} launch, layer by layer)`;
  }
  return '';
}

/** How much of the measured change kernels explain, for the tables: a share, or that they moved the other way (never a negative share). */
export function explainedText(perStep: Pick<PerStep, 'explainedShare'>, space = ' '): string {
  const share = perStep.explainedShare;
  if (share === null) return '';
  return share < 0 ? ', the other way from the measured change' : `, ${Math.round(share * 100)}${space}% of the measured change`;
}

/** The same work in far fewer, larger steps, and the whole windows where they were compared. */
function stepCountsText(refused: StepRefusal, perStep: { current: StepCount; baseline: StepCount }): string {
  const fewer = refused.current < refused.baseline ? 'the current run' : 'the baseline';
  const factor = Math.max(refused.current, refused.baseline) / Math.min(refused.current, refused.baseline);
  const unstated = [perStep.baseline.tokensPerStep === undefined ? 'the baseline' : '', perStep.current.tokensPerStep === undefined ? 'the current run' : ''].filter(Boolean).join(' and ');
  const steps = `${refused.baseline.toLocaleString('en-US')} steps in the baseline against ${refused.current.toLocaleString('en-US')} in the current run`;
  const head = `time per step not compared: ${steps} (${factor.toFixed(1)}× fewer in ${fewer}), and ${unstated} ${unstated.includes(' and ') ? 'state' : 'states'} no tokens per step, so a step is not the same work (the same requests packed into fewer forwards make each step larger)`;
  const fix = 'state "batch": N in the workload\'s {"kind": "run", …} lines (references/formats.md) to compare per step';
  const window = refused.window;
  if (!window) return `${head}; kernels compared per launch, and nothing fails on them; ${fix}`;
  const change = window.baselineNs > 0 ? ` (${window.currentNs >= window.baselineNs ? '+' : '−'}${Math.round((Math.abs(window.currentNs - window.baselineNs) / window.baselineNs) * 100)} %)` : '';
  return `${head}; over the whole window, kernels take ${stepTimeText(window.baselineNs)} → ${stepTimeText(window.currentNs)} per device${change}, and nothing fails on them; ${fix}`;
}

/** The one sentence on where the time went, or undefined when the comparison has no time per step. */
export function perStepHeadline(report: Report, parts: HeadlineParts): string | undefined {
  const perStep = report.comparison?.perStep;
  if (!perStep) return undefined;
  // Windows that do not hold the same kind of step: that is the news, not a kernel's time per launch.
  if (perStep.refused) return `${refusalText(perStep.refused, perStep)}.`;
  // Kernels that moved within the runs' own noise, with no significant change measured: no story.
  if (perStep.noChange) return 'no change in time per step: the measured change is not significant, and kernel time per step moved within its noise.';
  // The kernel that moved most the way the run moved (a slowdown names what grew, not what shrank).
  const way = Math.sign(perStep.measured?.deltaNs ?? perStep.kernelDeltaNs ?? 0);
  const top = perStep.kernels.find((k) => way !== 0 && Math.sign(k.deltaNs) === way) ?? perStep.kernels[0];
  if (!top || top.deltaNs === 0) return undefined;
  if (perStep.unit === 'launch') {
    return `${stepTimeText(top.deltaNs, true)} per launch in ${parts.kernel(top.name)}${origin(top, parts)}${partOf(report, top.name, parts)}; decode steps unknown on a side, so kernels are compared per launch.`;
  }
  const lead = `${stepTimeText(top.deltaNs, true)}/step in ${parts.kernel(top.name)}${origin(top, parts)}${partOf(report, top.name, parts)}`;
  const all = perStep.kernelDeltaNs ?? 0;
  const measured = perStep.measured;
  if (!measured || measured.per !== 'step' || perStep.explainedShare === null) {
    const why = measured?.per === 'token' ? 'the batch is unknown, so the measured change is per token' : 'no measured step time on both sides';
    return `${lead}; all kernels ${stepTimeText(all, true)}/step (${why}).`;
  }
  // Profiled steps carry the profiler's own cost per launch: the change is said to be theirs.
  const change = `${measured.deltaNs > 0 ? 'slowdown' : 'speedup'}${measured.basis === 'profiler_step_ms' ? ' of the profiled steps' : ''}`;
  // Kernels that moved against the measured change explain none of it: said so, never as a negative share.
  // Kernels that moved against the measured change: the time is not in them, and that leads; the kernel follows.
  if (perStep.explainedShare < 0) {
    const where = measured.deltaNs > 0 ? 'the time went to host or idle time (the GPU waiting)' : 'the time saved was host or idle time (the GPU waiting)';
    return `${stepTimeText(measured.deltaNs, true)}/step ${change}, not in kernels: all kernels ${stepTimeText(all, true)}/step, the other way, so ${where}; most moved: ${lead}.`;
  }
  const head = `${lead}; all kernels ${stepTimeText(all, true)}/step, which explains ${percentText(perStep.explainedShare)} of the ${stepTimeText(measured.deltaNs, true)}/step ${change}`;
  if (measured.deltaNs > 0 && perStep.explainedShare < MOSTLY_EXPLAINED) {
    return `${head}: the other ${stepTimeText(measured.deltaNs - all, true)}/step is host or idle time (the GPU waiting), not kernels.`;
  }
  return `${head}.`;
}
