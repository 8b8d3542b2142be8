/**
 * Does the window hold decode steps? A prefill-shaped mix says nothing about decode by itself: one
 * prefill step, one forward pass and one diffusion step are all prefill-shaped. This reads what can
 * tell: matmul inputs that grow by a token each step (recorded shapes), tokens sampled several times
 * in the window, the workload's own decode metrics, profiler steps whose GPU work grows, and ranges
 * whose names say decode; and what says the opposite (one output token, one sampling launch, ranges
 * that name prefill only).
 */
import type { MatmulInputs, MatmulInputShape } from '../model/capture.js';
import { median } from '../model/averages.js';
import type { Profile } from '../model/profile.js';
import { familyTotals, metricValue } from './profile-measures.js';
import { countSteps, samplingLaunches } from './step-count.js';
import { LINEAR_FAMILIES } from '../model/family-ids.js';

export interface DecodeStepOptions {
  /** Steps (growing passes, sampling launches, decode ranges) needed to call it a decode loop. */
  minDecodeSteps: number;
  /** Late over early GPU work per profiler step that counts as growth. */
  minStepGrowth: number;
}

/** Matmul inputs that grow step by step: the same linear layers fed a longer sequence each pass. */
export interface GrowingInputs {
  op: string;
  first: readonly number[];
  last: readonly number[];
  /** Passes in the growing run. */
  steps: number;
  /** Ops of each pass. */
  opsPerStep: number;
  /** Rows added per pass (one token per sequence: 1, or the batch when rows are flattened). */
  growth: number;
}

export type DecodeSignal = 'growing-inputs' | 'decode-ranges' | 'sampling' | 'step-growth' | 'decode-metrics';

export interface DecodeSteps {
  /** What shows decode steps, strongest first; empty when nothing does. */
  signals: DecodeSignal[];
  /** Why the window holds no decode step, when something says so (then no signal counts). */
  prefillOnly?: string;
  /**
   * Set when most matmul ops take one token per sequence (`8×1`; the most-used such shape): the
   * steps feed only the new token, so a KV cache is in use, however many rows a batch gives each GEMM.
   */
  oneTokenInputs?: MatmulInputShape;
  growing?: GrowingInputs;
  /** Launches of the most-launched sampling kernel: tokens sampled in the window, per sequence. */
  samplingLaunches: number;
  /** Growth of GPU work over the profiler steps (late quarter over early quarter, first step skipped). */
  profilerStepGrowth?: number;
  /** What decided it, for people: "aten::linear inputs grow 8×512 → 8×523 over 12 steps; …". */
  text: string;
}

/** A shape as people write it: 8×512. */
export function shapeText(rows: readonly number[]): string {
  return rows.join('×');
}

const lengthOf = (shape: MatmulInputShape): number => shape.rows.at(-1)!;
const growthAt = (passes: readonly MatmulInputShape[], index: number): number => lengthOf(passes[index]!) - lengthOf(passes[index - 1]!);

/** True when pass `next` continues the run that starts at `start`: after its last pass in time, longer by the run's step. */
function continues(passes: readonly MatmulInputShape[], start: number, next: number): boolean {
  const step = growthAt(passes, next);
  if (step <= 0 || passes[next - 1]!.lastNs >= passes[next]!.firstNs) return false;
  if (step !== 1 && step * 8 > lengthOf(passes[start]!)) return false;
  return next - start < 2 || step === growthAt(passes, start + 1);
}

/**
 * The longest run of passes whose inputs grow by a constant step, in time order, each pass done
 * before the next starts, with the same number of ops each. A step of more than an eighth of the
 * first length is a sweep of prompt lengths, not generation.
 */
export function growingInputs(shapes: readonly MatmulInputShape[], minSteps: number): GrowingInputs | undefined {
  const groups = new Map<string, MatmulInputShape[]>();
  for (const shape of shapes) {
    if (shape.rows.length === 0) continue;
    const key = `${shape.op}|${shape.rows.slice(0, -1).join(',')}`;
    const list = groups.get(key) ?? [];
    list.push(shape);
    groups.set(key, list);
  }
  let best: GrowingInputs | undefined;
  for (const group of groups.values()) {
    if (group.length < minSteps) continue;
    // The passes are the shapes with the usual op count (a head on the last token has fewer).
    const counts = new Map<number, number>();
    for (const shape of group) counts.set(shape.ops, (counts.get(shape.ops) ?? 0) + 1);
    const opsPerStep = [...counts.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]![0];
    const passes = group.filter((shape) => shape.ops === opsPerStep).sort((a, b) => a.firstNs - b.firstNs);
    let start = 0;
    for (let next = 1; next <= passes.length; next++) {
      if (next < passes.length && continues(passes, start, next)) continue;
      const steps = next - start;
      if (steps >= minSteps && steps > (best?.steps ?? 0)) {
        best = { op: passes[start]!.op, first: passes[start]!.rows, last: passes[next - 1]!.rows, steps, opsPerStep, growth: growthAt(passes, start + 1) };
      }
      // A run broken by a change of step may start a new one at its last pass.
      start = next < passes.length && continues(passes, next - 1, next) ? next - 1 : next;
    }
  }
  return best;
}

/** GPU work late over early in the profiler steps (the first step skipped: it may hold the prompt). */
export function profilerStepGrowth(profile: Profile): number | undefined {
  const steps = profile.timeline?.steps ?? [];
  if (steps.length < 5) return undefined;
  const busy = steps.slice(1).map((s) => s.gpuBusyNs);
  const quarter = Math.max(1, Math.floor(busy.length / 4));
  const early = median(busy.slice(0, quarter));
  return early > 0 ? median(busy.slice(-quarter)) / early : undefined;
}

/**
 * The most-used input of one token per sequence (a batch × 1 shape), when such inputs are most of
 * the matmul ops (a head on the last position alone, one op per step, is not).
 */
function oneTokenInputsOf(inputs: MatmulInputs): MatmulInputShape | undefined {
  let most: MatmulInputShape | undefined;
  let oneTokenOps = 0;
  let allOps = inputs.otherOps;
  for (const shape of inputs.shapes) {
    allOps += shape.ops;
    if (shape.rows.length < 2 || shape.rows.at(-1) !== 1) continue;
    oneTokenOps += shape.ops;
    if (!most || shape.ops > most.ops) most = shape;
  }
  return oneTokenOps * 2 > allOps ? most : undefined;
}

const DECODE_METRICS = ['decode_tok_s', 'tpot_ms', 'itl_ms'] as const;

export function decodeSteps(profile: Profile, options: DecodeStepOptions): DecodeSteps {
  const timeline = profile.timeline;
  const sampled = samplingLaunches(profile.kernels)?.launches ?? 0;
  const growing = timeline?.matmulInputs ? growingInputs(timeline.matmulInputs.shapes, options.minDecodeSteps) : undefined;
  const ranges = timeline?.phaseRanges;
  const outputTokens = metricValue(profile, 'output_tokens');
  const stepGrowth = profilerStepGrowth(profile);
  const oneToken = timeline?.matmulInputs && !growing ? oneTokenInputsOf(timeline.matmulInputs) : undefined;
  const base = {
    samplingLaunches: sampled,
    ...(growing ? { growing } : {}),
    ...(oneToken ? { oneTokenInputs: oneToken } : {}),
    ...(stepGrowth !== undefined ? { profilerStepGrowth: stepGrowth } : {}),
  };

  // What the window itself shows wins over what the workload reports about its whole run.
  let prefillOnly: string | undefined;
  if (!growing) {
    if (outputTokens !== undefined && outputTokens <= 1) prefillOnly = `the workload reports ${outputTokens} output token`;
    else if (ranges && ranges.prefill > 0 && ranges.decode === 0) prefillOnly = `the trace's ranges name prefill only (${ranges.prefill}, e.g. \`${ranges.prefillName ?? ''}\`)`;
    else if (sampled === 1 && (timeline?.steps.length ?? 0) <= 1) prefillOnly = 'one sampling launch: the window generates one token per sequence';
  }
  if (prefillOnly) return { ...base, signals: [], prefillOnly, text: prefillOnly };

  const signals: DecodeSignal[] = [];
  const parts: string[] = [];
  if (growing) {
    signals.push('growing-inputs');
    parts.push(`${growing.op} inputs grow ${shapeText(growing.first)} → ${shapeText(growing.last)} over ${growing.steps} steps`);
  }
  if (ranges && ranges.decode >= options.minDecodeSteps) {
    signals.push('decode-ranges');
    parts.push(`${ranges.decode} ranges name decode (e.g. \`${ranges.decodeName ?? ''}\`)`);
  }
  if (sampled >= options.minDecodeSteps) {
    signals.push('sampling');
    const steps = timeline?.steps.length ?? 0;
    parts.push(`${sampled} sampling launches${steps > 1 ? ` over ${steps} profiler steps` : ''}`);
  }
  if (stepGrowth !== undefined && stepGrowth >= options.minStepGrowth) {
    signals.push('step-growth');
    parts.push(`GPU work per profiler step grows ${Math.round(stepGrowth * 100) / 100}× over ${timeline!.steps.length} steps`);
  }
  const reported = DECODE_METRICS.filter((name) => metricValue(profile, name) !== undefined);
  if (reported.length > 0 || (outputTokens !== undefined && outputTokens > 1)) {
    signals.push('decode-metrics');
    const names = [...reported, ...(outputTokens !== undefined && outputTokens > 1 ? [`output_tokens ${outputTokens}`] : [])];
    parts.push(`the workload reports ${names.join(', ')}`);
  }
  return { ...base, signals, text: parts.join('; ') };
}

/** Steps counted in the window before missing forward passes can be told from a short prompt. */
const MIN_STEPS_FOR_FORWARDS = 8;
/** A decode step runs every linear layer (at least the projections and the head): fewer launches per step than this say its forward is not in the table. */
const MIN_LINEAR_LAUNCHES_PER_STEP = 2;

/** Steps the window counts whose forward passes its kernel table does not hold. */
export interface MissingForwards {
  steps: number;
  /** What counted the steps, for people. */
  stepsText: string;
  linearLaunches: number;
}

/**
 * The window counts decode steps (sampling launches, ranges, the workload's own count) but holds
 * fewer linear-layer launches than its steps need: the steps' forward passes ran where the table
 * cannot see them (CUDA graphs traced at graph level, another process).
 */
export function stepsWithoutForwards(profile: Profile): MissingForwards | undefined {
  const count = countSteps(profile);
  if (count.steps === null || count.steps < MIN_STEPS_FOR_FORWARDS || profile.kernels.length === 0) return undefined;
  const linearLaunches = familyTotals(profile, LINEAR_FAMILIES).instances;
  if (linearLaunches >= MIN_LINEAR_LAUNCHES_PER_STEP * count.steps) return undefined;
  return { steps: count.steps, stepsText: count.text, linearLaunches };
}
