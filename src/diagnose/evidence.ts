/**
 * What a profile really holds, as typed evidence with its coverage. Rules declare the kinds they
 * need (`meta.needs`) and run only when those are present; every finding names the evidence it
 * rests on, and thin evidence (a handful of launches, one sample, a deep dive of one kernel)
 * lowers its severity: it never yields an error.
 */
import type { Profile } from '../model/profile.js';
import type { Timeline } from '../model/capture.js';

export const EVIDENCE_KINDS = ['kernel-breakdown', 'timeline', 'kernel-metrics', 'utilization', 'throughput'] as const;
export type EvidenceKind = (typeof EVIDENCE_KINDS)[number];

export interface EvidenceItem {
  kind: EvidenceKind;
  /** Enough to judge a run by, or too little to carry more than a hint. */
  strength: 'full' | 'thin';
  /** What it covers, for people: "1,963 launches, 662.1 ms of kernel time". */
  coverage: string;
  /** Why it is thin, when it is. */
  thinBecause?: string;
}

export type Evidence = Partial<Record<EvidenceKind, EvidenceItem>>;

/** A requirement in a rule's meta: one kind, or any one of several. */
export type EvidenceNeed = EvidenceKind | readonly EvidenceKind[];

/** Below these a reading is thin: too few to tell a steady state from start-up or noise. */
export const THIN = {
  /** Kernel time in a breakdown; a capture range that closed early holds less. */
  breakdownNs: 1e6,
  /** Launches in a breakdown; a handful cannot describe a workload's mix. */
  breakdownLaunches: 5,
  /** Launches on a timeline (graph-replayed kernels included); fewer cannot show how busy the GPU stays. */
  timelineLaunches: 20,
  /** GPU busy time on a timeline; a graph-capture or start-up trace holds a few microseconds. */
  timelineBusyNs: 1e6,
  /** Utilization samples in the window read; one snapshot says nothing about a run. */
  utilizationSamples: 10,
  /** Throughput samples; a single run cannot tell a change from noise. */
  throughputSamples: 3,
} as const;

const THROUGHPUT_METRICS = new Set(['decode_tok_s', 'output_tok_s', 'total_tok_s', 'request_throughput', 'tpot_ms', 'ttft_ms', 'itl_ms']);

function count(n: number, unit: string): string {
  const plural = /(?:ch|sh|s|x)$/.test(unit) ? `${unit}es` : `${unit}s`;
  return `${n.toLocaleString('en-US')} ${n === 1 ? unit : plural}`;
}

function ms(ns: number): string {
  return `${(ns / 1e6).toFixed(1)} ms`;
}

function item(kind: EvidenceKind, coverage: string, thinBecause: string | undefined): EvidenceItem {
  return thinBecause ? { kind, strength: 'thin', coverage, thinBecause } : { kind, strength: 'full', coverage };
}

function breakdownEvidence(profile: Profile): EvidenceItem | undefined {
  if (profile.kernels.length === 0 || profile.kernelOrigin === 'deep-dive') return undefined;
  const launches = profile.kernels.reduce((sum, k) => sum + k.instances, 0);
  const coverage = `${count(launches, 'launch')} of ${count(profile.kernels.length, 'kernel')}, ${ms(profile.totalKernelNs)} of kernel time`;
  let thin: string | undefined;
  if (profile.totalKernelNs < THIN.breakdownNs) thin = `under ${ms(THIN.breakdownNs)} of kernel time`;
  else if (launches < THIN.breakdownLaunches) thin = `fewer than ${THIN.breakdownLaunches} launches`;
  return item('kernel-breakdown', coverage, thin);
}

/** Why a timeline is too thin to say how busy the GPU stays, or undefined when it is not. */
export function timelineThinBecause(timeline: Timeline): string | undefined {
  if (timeline.busyNs < THIN.timelineBusyNs) return `under ${ms(THIN.timelineBusyNs)} of GPU time on the timeline`;
  // Host launches, or the kernels graph replays ran (a per-device timeline counts them in both).
  if (Math.max(timeline.kernelLaunches, timeline.graphKernels) < THIN.timelineLaunches) return `fewer than ${THIN.timelineLaunches} launches on the timeline`;
  return undefined;
}

function timelineEvidence(profile: Profile): EvidenceItem | undefined {
  const timeline = profile.timeline;
  if (timeline && timeline.spanNs > 0) {
    const active = timeline.activeSpanNs ?? timeline.spanNs;
    const excluded = timeline.excludedGaps ?? [];
    const steps = timeline.steps.length > 0 ? `, ${count(timeline.steps.length, 'step')}` : '';
    const gaps = excluded.length > 0 ? `, ${count(excluded.length, 'gap')} left out as not the workload (${ms(excluded.reduce((s, g) => s + g.durNs, 0))})` : '';
    const coverage = `${ms(active)} of per-launch timeline over ${count(timeline.devices, 'device')}${steps}${gaps}`;
    return item('timeline', coverage, timelineThinBecause(timeline));
  }
  if (profile.gpuTimeUtilPercent !== null) {
    return item('timeline', 'the profiler\'s GPU-in-use analysis over the capture range', undefined);
  }
  return undefined;
}

function utilizationEvidence(profile: Profile): EvidenceItem | undefined {
  const util = profile.utilization;
  if (!util || util.sampleCount === 0) return undefined;
  const where = util.window === 'timed' ? "inside the workload's timed runs" : 'over each whole recording, idle start and end trimmed';
  const coverage = `${count(util.sampleCount, 'sample')} on ${count(Math.max(1, util.devices), 'device')}, ${where}`;
  const thin = util.sampleCount < THIN.utilizationSamples ? `fewer than ${THIN.utilizationSamples} samples` : undefined;
  return item('utilization', coverage, thin);
}

function throughputEvidence(profile: Profile): EvidenceItem | undefined {
  const metrics = profile.metrics.filter((m) => THROUGHPUT_METRICS.has(m.name) && m.samples.length > 0);
  if (metrics.length === 0) return undefined;
  const samples = Math.max(...metrics.map((m) => m.samples.length));
  const coverage = `${metrics.map((m) => m.name).join(', ')}: up to ${count(samples, 'sample')}`;
  const thin = samples < THIN.throughputSamples ? `fewer than ${THIN.throughputSamples} samples` : undefined;
  return item('throughput', coverage, thin);
}

function kernelMetricsEvidence(profile: Profile): EvidenceItem | undefined {
  if (profile.ncu.length === 0) return undefined;
  const kernels = new Set(profile.ncu.map((r) => r.kernel)).size;
  // A deep dive is exact for the launches it replayed, and says nothing about the rest of the run.
  return item('kernel-metrics', `Nsight Compute: ${count(profile.ncu.length, 'profiled launch')} of ${count(kernels, 'kernel')}`, undefined);
}

export function gatherEvidence(profile: Profile): Evidence {
  const evidence: Evidence = {};
  for (const found of [breakdownEvidence(profile), timelineEvidence(profile), kernelMetricsEvidence(profile), utilizationEvidence(profile), throughputEvidence(profile)]) {
    if (found) evidence[found.kind] = found;
  }
  return evidence;
}

/** The evidence a rule's needs are met by, or null when one need is not met. */
export function evidenceFor(needs: readonly EvidenceNeed[], evidence: Evidence): EvidenceItem[] | null {
  const used: EvidenceItem[] = [];
  for (const need of needs) {
    const options = typeof need === 'string' ? [need] : need;
    const present = options.map((kind) => evidence[kind]).filter((e): e is EvidenceItem => e !== undefined);
    if (present.length === 0) return null;
    used.push(...present);
  }
  return used;
}

/** How a finding's basis reads: "kernel breakdown (thin: fewer than 5 launches): 3 launches …". */
export function describeEvidence(evidence: EvidenceItem): string {
  const label = evidence.kind.replace('-', ' ');
  return evidence.strength === 'thin' ? `${label} (thin: ${evidence.thinBecause}): ${evidence.coverage}` : `${label}: ${evidence.coverage}`;
}
