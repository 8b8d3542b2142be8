/**
 * How many decode steps a capture's window covers, from evidence, never assumed: the workload's own
 * count of its profiled window (a `profile_steps` metric line), ranges that mark each step (profiler
 * steps, ranges whose names say decode), CUDA graph replays when every kernel ran inside one (one
 * graph per step), a kernel launched once per step per device (greedy argmax, top-k/top-p sampling),
 * and MAX's own figure: `max generate --profile` profiles the whole generation, one forward pass per
 * output token (the prefill and the decode steps after it). Counts stated by the workload or MAX come
 * before counts read from ranges, and those before the inferred ones (graph replays, a once-per-step
 * kernel). The first that holds decides, unless it is a stated count that the window's own evidence
 * contradicts; the others that are present are named as agreeing or not. Without any, the count is unknown and says why: callers
 * then fall back to time per launch.
 *
 * The one place steps are counted and sampling launches read: the pipeline records `stepCountOf`
 * in the report (`stepCount`), the gate's time per step, the history summary and the dashboard read
 * that record or call `stepCountOf` on what they hold, and the decode-step evidence
 * (decode-steps.ts) reads `samplingLaunches`.
 */
import { capabilitiesOf } from '../ingest/registry.js';
import { FORMAT_IDS, type FormatId } from '../model/capture.js';
import type { KernelFamily } from '../model/family-ids.js';
import type { StepBasis, StepCount } from '../model/report.js';

export type { StepBasis, StepCount };

/** What the count reads; a Profile and a Report fit as they are. */
export interface StepSource {
  kernels: ReadonlyArray<{ name: string; family: KernelFamily; instances?: number; device?: number | undefined }>;
  timeline?: {
    steps?: ReadonlyArray<{ name: string }>;
    graphLaunches?: number;
    kernelLaunches?: number;
    devices?: number;
    phaseRanges?: { decode: number; prefill: number; decodeName?: string | undefined } | undefined;
  } | null;
  /** The workload's metrics (medians): `profile_steps`, and `output_tokens` of a MAX generate. */
  metrics?: ReadonlyArray<{ name: string; value: number }>;
  /** The formats read: MAX's output tokens count steps only where MAX's own console output gave the kernels. */
  sources?: ReadonlyArray<{ format: string }>;
}

/** A format this version reads (a report from elsewhere may name another). */
const knownFormat = (format: string): format is FormatId => (FORMAT_IDS as readonly string[]).includes(format);

function wholeMetric(source: StepSource, name: string): number | undefined {
  const value = source.metrics?.find((m) => m.name === name)?.value;
  return value !== undefined && Number.isInteger(value) && value >= MIN_STEPS ? value : undefined;
}

/** Fewer than this many marks are not a loop of steps (one range may hold a whole generate call). */
export const MIN_STEPS = 2;

interface Candidate {
  basis: StepBasis;
  steps: number;
  text: string;
}

function plural(n: number, word: string): string {
  return `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : /(?:ch|sh|s|x)$/.test(word) ? 'es' : 's'}`;
}

/** The most launches of one kernel on one device among `kernels` (launches summed by device and name). */
function mostLaunchedOnOneDevice(kernels: StepSource['kernels']): { name: string; launches: number } | undefined {
  const byKey = new Map<string, { name: string; launches: number }>();
  for (const kernel of kernels) {
    const key = `${kernel.device ?? ''}|${kernel.name}`;
    byKey.set(key, { name: kernel.name, launches: (byKey.get(key)?.launches ?? 0) + (kernel.instances ?? 0) });
  }
  let most: { name: string; launches: number } | undefined;
  for (const entry of byKey.values()) if (!most || entry.launches > most.launches) most = entry;
  return most;
}

/**
 * The sampling kernel launched most on one device, and its launches: a token is sampled once per
 * step per sequence (greedy argmax, top-k/top-p), so these are the steps the window ran. The one
 * reader of sampling launches; undefined when no sampling kernel was launched.
 */
export function samplingLaunches(kernels: StepSource['kernels']): { name: string; launches: number } | undefined {
  return mostLaunchedOnOneDevice(kernels.filter((kernel) => kernel.family === 'sampling' && kernel.instances));
}

/** A kernel name short enough for a sentence: the function name without templates and arguments. */
function shortKernel(name: string): string {
  // An anonymous namespace (`<unnamed>::`, `(anonymous namespace)::`) is no name and would cut it at its bracket.
  const base = name.replace(/(?:\(anonymous namespace\)|<unnamed>|\{anonymous\})::/g, '').replace(/\(.*$/s, '').replace(/<.*$/s, '').replace(/^void\s+/, '').trim();
  const last = base.split('::').filter(Boolean).at(-1) ?? base;
  return last.length > 60 ? `${last.slice(0, 59)}…` : last || name.slice(0, 60);
}

function candidates(source: StepSource, devices: number): Candidate[] {
  const timeline = source.timeline ?? undefined;
  const list: Candidate[] = [];
  const stated = wholeMetric(source, 'profile_steps');
  if (stated !== undefined) list.push({ basis: 'workload', steps: stated, text: `the workload's own count: ${plural(stated, 'step')} in its profiled window (profile_steps)` });
  const maxTokens = source.sources?.some((s) => knownFormat(s.format) && capabilitiesOf(s.format).tokensCountSteps) && source.kernels.length > 0 ? wholeMetric(source, 'output_tokens') : undefined;
  if (maxTokens !== undefined) {
    list.push({ basis: 'max-output-tokens', steps: maxTokens, text: `MAX's own figure: ${plural(maxTokens, 'output token')} in the profiled generation, one forward pass each (the prefill among them)` });
  }
  const steps = timeline?.steps ?? [];
  if (steps.length >= MIN_STEPS) {
    list.push({ basis: 'profiler-steps', steps: steps.length, text: `${plural(steps.length, 'profiler step')} (${steps[0]!.name} …)` });
  }
  const ranges = timeline?.phaseRanges;
  if (ranges && ranges.decode >= MIN_STEPS && ranges.prefill === 0) {
    const perDevice = ranges.decode / devices;
    if (Number.isInteger(perDevice)) list.push({ basis: 'decode-ranges', steps: perDevice, text: `${plural(ranges.decode, 'range')} naming decode (${ranges.decodeName ?? 'decode'})` });
  }
  const graphs = timeline?.graphLaunches ?? 0;
  if (graphs >= MIN_STEPS * devices && timeline?.kernelLaunches === 0 && Number.isInteger(graphs / devices)) {
    list.push({ basis: 'graph-replays', steps: graphs / devices, text: `${plural(graphs, 'CUDA graph replay')}, every kernel inside one` });
  }
  const sampling = samplingLaunches(source.kernels);
  if (sampling && sampling.launches >= MIN_STEPS) {
    list.push({ basis: 'once-per-step-kernel', steps: sampling.launches, text: `${plural(sampling.launches, 'launch')} of the sampling kernel ${shortKernel(sampling.name)}` });
  }
  return list;
}

/** Counts stated beside the capture (a metric line, MAX's output size), not read from the window itself. */
const STATED: ReadonlySet<StepBasis> = new Set<StepBasis>(['workload', 'max-output-tokens']);

/** The most launches of one kernel on one device: every step launches each of its kernels at least once. */
function mostLaunches(source: StepSource): { name: string; launches: number } | undefined {
  if (source.kernels.some((kernel) => kernel.instances === undefined)) return undefined;
  return mostLaunchedOnOneDevice(source.kernels);
}

/**
 * Why a stated count cannot be the window's, or undefined when it can: more steps than launches of
 * any kernel (a step runs each of its kernels at least once), or another number than the window's own
 * evidence gives (the count may come from another run than the profiled one).
 */
function refusal(candidate: Candidate, read: Candidate | undefined, most: { name: string; launches: number } | undefined): string | undefined {
  if (most && candidate.steps > most.launches) {
    return `more steps than launches of any kernel (the most launched, ${shortKernel(most.name)}, ran ${plural(most.launches, 'time')})`;
  }
  if (read && read.steps !== candidate.steps) return `the window's own evidence gives ${read.steps.toLocaleString('en-US')}`;
  return undefined;
}

/** The decode steps the window covers, per device, and what says so. */
export function countSteps(source: StepSource): StepCount {
  const devices = Math.max(1, source.timeline?.devices ?? 1);
  const all = candidates(source, devices);
  // A stated count is evidence only where the window bears it out: one it contradicts, or one with
  // more steps than launches, is refused and named, and the next basis decides.
  const read = all.find((c) => !STATED.has(c.basis));
  const most = source.kernels.length ? mostLaunches(source) : undefined;
  const refused: string[] = [];
  const found = all.filter((c) => {
    if (!STATED.has(c.basis)) return true;
    const why = refusal(c, read, most);
    if (why) refused.push(`${c.text} is refused: ${why}`);
    return !why;
  });
  const chosen = found[0];
  if (!chosen) {
    const none = 'no step evidence in the capture (no profiler steps or decode ranges, no CUDA graph replays holding every kernel, no sampling kernel launched more than once)';
    return { steps: null, basis: null, devices, text: [none, ...refused].join('; ') };
  }
  const others = found.filter((c) => c !== chosen);
  const agree = others.filter((c) => c.steps === chosen.steps).map((c) => c.text);
  const differ = others.filter((c) => c.steps !== chosen.steps).map((c) => c.text);
  const parts = [chosen.text];
  if (agree.length) parts.push(`${agree.join(' and ')} agree`);
  if (differ.length) parts.push(`${differ.join(' and ')} differ`);
  parts.push(...refused);
  return { steps: chosen.steps, basis: chosen.basis, devices, text: parts.join('; ') };
}

/** A side whose steps are wanted: a Profile, a Report or a gate side fits as it is. */
export interface StepSide extends Omit<StepSource, 'kernels'> {
  kernels: ReadonlyArray<{ name: string; family: KernelFamily; instances?: number | undefined; device?: number | undefined }>;
  environment: { batch?: string | undefined };
  /** The count its report recorded when it was written. */
  stepCount?: StepCount | undefined;
}

/**
 * A side's decode steps: as its report recorded them when it was written (a report read back in part
 * keeps only its first profiler steps), else counted now, with the tokens per step where the side
 * states its batch as a plain number. What every stage that needs steps calls.
 */
export function stepCountOf(side: StepSide): StepCount {
  if (side.stepCount) return side.stepCount;
  const counted = countSteps({
    // A kernel without a launch count counts as never launched: no launches bear out a stated count.
    kernels: side.kernels.map((k) => ({ ...k, instances: k.instances ?? 0 })),
    timeline: side.timeline ?? null,
    ...(side.metrics ? { metrics: side.metrics } : {}),
    ...(side.sources ? { sources: side.sources } : {}),
  });
  const tokens = batchSize(side);
  return { ...counted, ...(tokens !== undefined && tokens > 0 ? { tokensPerStep: tokens } : {}) };
}

/** The batch size from the environment, when it is a plain number (a Profile, a Report or a gate side). */
export function batchSize(profile: { environment: { batch?: string | undefined } }): number | undefined {
  const match = /^\s*(\d+)\s*$/.exec(profile.environment.batch ?? '');
  return match ? Number(match[1]) : undefined;
}
