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
 * then fall back to time per launch. The one place steps are counted (the gate's time per step
 * reads it).
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

/** The most-launched once-per-step kernel (sampling family) on one device: its launches are the steps. */
function oncePerStepKernel(source: StepSource): { name: string; launches: number } | undefined {
  const byKey = new Map<string, { name: string; launches: number }>();
  for (const kernel of source.kernels) {
    if (kernel.family !== 'sampling' || !kernel.instances) continue;
    const key = `${kernel.device ?? ''}|${kernel.name}`;
    const seen = byKey.get(key);
    byKey.set(key, { name: kernel.name, launches: (seen?.launches ?? 0) + kernel.instances });
  }
  let best: { name: string; launches: number } | undefined;
  for (const entry of byKey.values()) if (!best || entry.launches > best.launches) best = entry;
  return best;
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
  const sampling = oncePerStepKernel(source);
  if (sampling && sampling.launches >= MIN_STEPS) {
    list.push({ basis: 'once-per-step-kernel', steps: sampling.launches, text: `${plural(sampling.launches, 'launch')} of the sampling kernel ${shortKernel(sampling.name)}` });
  }
  return list;
}

/** Counts stated beside the capture (a metric line, MAX's output size), not read from the window itself. */
const STATED: ReadonlySet<StepBasis> = new Set<StepBasis>(['workload', 'max-output-tokens']);

/** The most launches of one kernel on one device: every step launches each of its kernels at least once. */
function mostLaunches(source: StepSource): { name: string; launches: number } | undefined {
  const byKey = new Map<string, { name: string; launches: number }>();
  for (const kernel of source.kernels) {
    if (kernel.instances === undefined) return undefined;
    const key = `${kernel.device ?? ''}|${kernel.name}`;
    byKey.set(key, { name: kernel.name, launches: (byKey.get(key)?.launches ?? 0) + kernel.instances });
  }
  let most: { name: string; launches: number } | undefined;
  for (const entry of byKey.values()) if (!most || entry.launches > most.launches) most = entry;
  return most;
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
