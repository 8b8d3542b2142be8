/**
 * Measurements several rules read from a Profile: family totals, metric values and the MoE mix. Rules stay independent; they only share these readings.
 */
import { LINEAR_FAMILIES, type KernelFamily } from '../model/family-ids.js';
import { kernelStem } from '../classify/kernel-name.js';
import type { PythonSite } from '../model/capture.js';
import type { Kernel, Profile, Rank } from '../model/profile.js';
import { median } from '../model/averages.js';
import { DEEP_DIVE_SECTIONS, deepDiveRequest, renderNcuCommand, steadyLaunchSkip as steadySkip } from './deep-dive-request.js';
import { rocprofComputeCommand, toolVendor } from './vendor-tools.js';
import { timelineThinBecause } from './evidence.js';
import { countSteps } from './step-count.js';
import type { LockstepKernel } from '../model/report.js';

export interface Totals {
  ns: number;
  /** Share of all GPU kernel time, 0..1. */
  share: number;
  instances: number;
}

export function familyTotals(profile: Profile, families: readonly KernelFamily[]): Totals {
  let ns = 0;
  let instances = 0;
  for (const entry of profile.families) {
    if (!families.includes(entry.family)) continue;
    ns += entry.totalNs;
    instances += entry.instances;
  }
  return { ns, instances, share: profile.totalKernelNs > 0 ? ns / profile.totalKernelNs : 0 };
}

export function kernelsMatching(profile: Profile, pattern: RegExp, families?: readonly KernelFamily[]): Totals & { kernels: Kernel[] } {
  const kernels = profile.kernels.filter((k) => pattern.test(k.name) && (!families || families.includes(k.family)));
  const ns = kernels.reduce((sum, k) => sum + k.totalNs, 0);
  const instances = kernels.reduce((sum, k) => sum + k.instances, 0);
  return { kernels, ns, instances, share: profile.totalKernelNs > 0 ? ns / profile.totalKernelNs : 0 };
}

/**
 * Kernels of `families` that keep step with the launches of the `anchor` family: each launched a
 * whole number of times per anchor launch, to within less than one launch per step and device (a
 * one-off, such as a prefill step's launches at the window's start, does not break the step; a second
 * use once per step does), or exactly where the steps are unknown. The anchor must run more than once
 * per step (a per-layer rate): a once-per-step anchor would tie every kernel that runs once per step.
 * A kernel's rows on several devices count together; `leaveOut` drops kernels whose count says nothing.
 */
export function lockstepKernels(profile: Profile, anchor: KernelFamily, families: readonly KernelFamily[], leaveOut: (kernel: Kernel) => boolean = () => false): LockstepKernel[] {
  const anchorLaunches = familyTotals(profile, [anchor]).instances;
  const count = countSteps(profile);
  const per = count.steps !== null ? count.steps * count.devices : null;
  if (anchorLaunches === 0 || (per !== null && anchorLaunches < 2 * per)) return [];
  const byName = new Map<string, { launches: number; totalNs: number }>();
  for (const kernel of profile.kernels) {
    if (!families.includes(kernel.family) || leaveOut(kernel)) continue;
    const seen = byName.get(kernel.name) ?? { launches: 0, totalNs: 0 };
    byName.set(kernel.name, { launches: seen.launches + kernel.instances, totalNs: seen.totalNs + kernel.totalNs });
  }
  const found: LockstepKernel[] = [];
  for (const [name, { launches, totalNs }] of byName) {
    const perLaunch = Math.round(launches / anchorLaunches);
    const off = Math.abs(launches - perLaunch * anchorLaunches);
    if (perLaunch < 1 || (per === null ? off !== 0 : off >= per)) continue;
    found.push({
      name,
      anchor,
      perLaunch,
      launches,
      totalNs,
      launchesPerStep: per === null ? null : round(launches / per, 2),
      nsPerStep: per === null ? null : Math.round(totalNs / per),
    });
  }
  return found.sort((a, b) => b.totalNs - a.totalNs);
}

export function linearTotals(profile: Profile): Totals {
  return familyTotals(profile, LINEAR_FAMILIES);
}

export function totalLaunches(profile: Profile): number {
  return profile.kernels.reduce((sum, k) => sum + k.instances, 0);
}

/** The median value of a canonical metric, when the profile has it. */
export function metricValue(profile: Profile, name: string): number | undefined {
  const value = profile.metrics.find((m) => m.name === name)?.value;
  return value !== undefined && Number.isFinite(value) ? value : undefined;
}

export { batchSize } from './step-count.js';

/** Round for evidence: enough digits to compare, few enough to read. */
export function round(value: number, digits = 4): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

export function percent(share: number): string {
  return `${(share * 100).toFixed(1)}%`;
}

export function ms(ns: number): number {
  return round(ns / 1e6, 3);
}

export interface MoeOptions {
  minMoeShare: number;
  minRoutingPerSamplingLaunch: number;
}

export interface MoeMix {
  isMoe: boolean;
  moeGemmShare: number;
  routingShare: number;
  gatherShare: number;
  /** (routing + gather/scatter time) / linear-layer time, experts included. */
  routingRatio: number;
  routingLaunches: number;
  samplingLaunches: number;
}

/**
 * MoE shows as grouped matmuls, or as top-k routing that runs far more often than sampling (top-k
 * also serves top-k sampling, once per step; routing runs once per MoE layer per step).
 */
export function moeMix(profile: Profile, options: MoeOptions): MoeMix {
  const moeGemm = familyTotals(profile, ['moe-gemm']);
  const routing = familyTotals(profile, ['moe-routing']);
  const gather = familyTotals(profile, ['gather-scatter']);
  const sampling = familyTotals(profile, ['sampling']);
  const linear = linearTotals(profile);
  const routedOften = routing.instances >= options.minRoutingPerSamplingLaunch * Math.max(1, sampling.instances);
  return {
    isMoe: moeGemm.share >= options.minMoeShare || (routing.share >= options.minMoeShare && routedOften),
    moeGemmShare: moeGemm.share,
    routingShare: routing.share,
    gatherShare: gather.share,
    routingRatio: linear.ns > 0 ? (routing.ns + gather.ns) / linear.ns : Number.POSITIVE_INFINITY,
    routingLaunches: routing.instances,
    samplingLaunches: sampling.instances,
  };
}

export { steadyLaunchSkip } from './deep-dive-request.js';

/**
 * The command that profiles one kernel, for rules that only show one: Nsight Compute on NVIDIA
 * (the request is in deep-dive-request.ts), ROCm Compute Profiler on an AMD capture.
 */
export function kernelProfileCommand(profile: Pick<Profile, 'environment' | 'sources'>, kernelName: string, instances: number, workload: string): string {
  return toolVendor(profile) === 'amd' ? rocprofComputeCommand(kernelName, workload) : ncuCommand(kernelName, steadySkip(instances), workload);
}

/** An Nsight Compute command for one kernel, as text, for rules that only show one (the request is in deep-dive-request.ts). */
export function ncuCommand(kernelName: string, launchSkip: number, workload: string, sections: readonly string[] = DEEP_DIVE_SECTIONS): string {
  const stem = kernelStem(kernelName);
  return renderNcuCommand({ ...deepDiveRequest(kernelName, 1, sections), nameRegex: stem.regex, demangled: stem.demangled, launchSkip }, workload);
}

/** A rank's kernel time less its collectives: waiting inside a collective inflates the fast ranks'. */
export function rankComputeNs(rank: Rank): number {
  return rank.totalKernelNs - (rank.families.find((f) => f.family === 'collective')?.totalNs ?? 0);
}

export interface Straggler {
  slow: Rank;
  others: Rank[];
  /** The slow rank's compute time over the others' median, less 1. */
  computeExcess: number;
  /** Compute time of the slow rank and the others' median: per profiler step when `perStep`. */
  slowComputeNs: number;
  peerComputeNs: number;
  /** True when the ranks' traces hold different numbers of steps, so times are per step. */
  perStep: boolean;
}

/**
 * The rank with the most compute kernel time, against the median of the others; undefined unless
 * there are two or more ranks of one job (no `ranks-of-different-jobs` notice) with kernels.
 */
export function stragglerOf(profile: Profile): Straggler | undefined {
  if (profile.notices.some((n) => n.code === 'ranks-of-different-jobs')) return undefined;
  const ranks = profile.ranks.filter((r) => r.totalKernelNs > 0);
  if (ranks.length < 2) return undefined;
  // Traces that cover different numbers of profiler steps are compared per step.
  const steps = ranks.map((r) => r.timeline?.steps.length ?? 0);
  const perStep = steps.every((n) => n > 0) && new Set(steps).size > 1;
  const compute = ranks.map((r, i) => rankComputeNs(r) / (perStep ? steps[i]! : 1));
  const slowIndex = compute.indexOf(Math.max(...compute));
  const peerComputeNs = median(compute.filter((_, i) => i !== slowIndex));
  return {
    slow: ranks[slowIndex]!,
    others: ranks.filter((_, i) => i !== slowIndex),
    peerComputeNs,
    slowComputeNs: compute[slowIndex]!,
    perStep,
    computeExcess: peerComputeNs > 0 ? compute[slowIndex]! / peerComputeNs - 1 : 0,
  };
}

/** A Python site as a finding names it: `sdpa` (llama_decode.py:142, in LlamaAttention). */
export function pythonSiteText(site: PythonSite): string {
  return `\`${site.function}\` (${site.file}:${site.line}${site.module ? `, in ${site.module}` : ''})`;
}

/**
 * Where a kernel was launched from, as the tail of a finding's sentence: the line of the workload's
 * Python (Kineto with_stack), then the op chain, each only where the trace says. Empty when it says
 * neither. A share under 90 % is given: the kernel also runs from elsewhere. A graph replay tied to
 * its capture is named by the capture's line and op, and said to be replayed.
 */
export function launchOrigin(kernel: Kernel): string {
  const site = kernel.pythonSites?.[0];
  const op = kernel.launchedBy;
  if (!site) return op ? ` launched from ${op}` : '';
  const share = site.share < 0.9 ? ` (${percent(site.share)} of its time)` : '';
  const replayOnly = site.graphReplay && !site.graphCapture;
  const from = replayOnly ? ` replayed by a CUDA graph launched from ${pythonSiteText(site)}` : ` launched from ${pythonSiteText(site)}`;
  const captured = site.graphReplay && site.graphCapture ? ' (captured into a CUDA graph, then replayed)' : '';
  return `${from}${share}${op ? ` via ${op}` : ''}${captured}`;
}

/** One reading of how busy the GPU was: its percent, where it comes from, and whether it covers only the steady window. */
export interface BusyReading {
  percent: number;
  signal: 'timeline' | 'gpu-time-util' | 'utilization';
  steady: boolean;
}

/** Every reading of how busy the GPU was that the profile holds: the timeline, nsys's gpu_time_util, sampled utilization. */
export function busyReadings(profile: Profile): BusyReading[] {
  const found: BusyReading[] = [];
  const timeline = profile.timeline;
  // A timeline with almost no GPU work (a graph capture, a range closed early) cannot say the GPU waits.
  if (timeline && timeline.spanNs > 0 && timelineThinBecause(timeline) === undefined) {
    const span = timeline.activeSpanNs ?? timeline.spanNs;
    if (span > 0) found.push({ percent: (100 * timeline.busyNs) / (span * Math.max(1, timeline.devices)), signal: 'timeline', steady: true });
  }
  if (profile.gpuTimeUtilPercent !== null) found.push({ percent: profile.gpuTimeUtilPercent, signal: 'gpu-time-util', steady: true });
  const util = profile.utilization;
  if (util && util.sampleCount > 0) found.push({ percent: util.meanPercent, signal: 'utilization', steady: util.window === 'timed' });
  return found;
}
