/** Number formatting shared by every renderer. */
import { CI_LEVEL } from '../compare/gate-options.js';
import { rangeDigits } from './percent-format.js';
import type { KernelFamily } from '../model/family-ids.js';

/** The confidence level of every interval shown, in percent (the gate's: 1 − 2·alpha). */
export const CI_PERCENT = Math.round(CI_LEVEL * 100);

export function formatNs(ns: number): string {
  if (!Number.isFinite(ns)) return 'n/a';
  const abs = Math.abs(ns);
  if (abs >= 1e9) return `${(ns / 1e9).toFixed(2)} s`;
  if (abs >= 1e6) return `${(ns / 1e6).toFixed(2)} ms`;
  if (abs >= 1e3) return `${(ns / 1e3).toFixed(2)} µs`;
  return `${Math.round(ns)} ns`;
}

export function formatShare(share: number, digits = 1): string {
  return Number.isFinite(share) ? `${(share * 100).toFixed(digits)}%` : 'n/a';
}

/** A count and its noun, singular for one: `1 error`, `2 errors`. */
export function countText(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

export function formatNumber(value: number, digits = 2): string {
  if (!Number.isFinite(value)) return 'n/a';
  if (Number.isInteger(value)) return String(value);
  const abs = Math.abs(value);
  if (abs >= 1000) return value.toFixed(0);
  if (abs >= 100) return value.toFixed(1);
  return value.toFixed(digits);
}

/** An interval as signed numbers, with enough decimals that its two ends differ when they do. */
export function ciText(ci: readonly [number, number], scale: number, unit: string): string {
  const digits = rangeDigits(ci[0] * scale, ci[1] * scale);
  return `${formatSigned(ci[0] * scale, unit, digits)} … ${formatSigned(ci[1] * scale, unit, digits)}`;
}

export function formatSigned(value: number, unit: string, digits = 1): string {
  if (!Number.isFinite(value)) return 'n/a';
  return `${value >= 0 ? '+' : ''}${value.toFixed(digits)}${unit}`;
}

/** Shorten long (templated) kernel names for tables; the full name stays in report.json. */
export function shortenName(name: string, max = 96): string {
  const oneLine = name.replace(/\s+/g, ' ');
  return oneLine.length <= max ? oneLine : `${oneLine.slice(0, max - 1)}…`;
}

interface RankLike {
  rank?: number;
  device?: number;
  worldSize?: number;
  backend?: string;
  totalKernelNs: number;
  families: ReadonlyArray<{ family: KernelFamily; share: number }>;
  timeline: { busyNs: number; activeSpanNs: number; devices: number; communication?: { exposedNs: number } } | null;
}

/** Rank rows are worth showing for a distributed job or several devices, not for one plain capture. */
export function showsRanks(ranks: ReadonlyArray<{ worldSize?: number }>): boolean {
  return ranks.length > 1 || ranks.some((r) => (r.worldSize ?? 1) > 1);
}

/** One line per rank (or device): its kernel time, collective share, exposed communication and busy share. */
export function rankSummary(rank: RankLike): string {
  const who = rank.rank !== undefined ? `rank ${rank.rank}${rank.worldSize ? ` of ${rank.worldSize}` : ''}` : `device ${rank.device ?? 0}`;
  const parts = [`${formatNs(rank.totalKernelNs)} of kernels`];
  const collective = rank.families.find((f) => f.family === 'collective')?.share ?? 0;
  if (collective > 0) parts.push(`collectives ${formatShare(collective)}`);
  const t = rank.timeline;
  if (t && t.activeSpanNs > 0) {
    const span = t.activeSpanNs * Math.max(1, t.devices);
    if (t.communication) parts.push(`exposed communication ${formatShare(t.communication.exposedNs / span)} of the active span`);
    parts.push(`busy ${formatShare(t.busyNs / span)}`);
  }
  return `${who}: ${parts.join(', ')}`;
}

/**
 * The host's launch calls, worded so they cannot be read as a count of kernels that ran: a graph
 * launch replays many kernels with one call.
 */
export function launchCallsText(t: { kernelLaunches: number; graphLaunches: number; graphKernels?: number }): string {
  const count = (n: number): string => n.toLocaleString('en-US');
  const graphs = t.graphLaunches === 1 ? '1 CUDA graph launch' : `${count(t.graphLaunches)} CUDA graph launches`;
  const inside = t.graphLaunches > 0 && t.graphKernels ? ` (replaying ${count(t.graphKernels)} kernels)` : '';
  const single = `${count(t.kernelLaunches)} for single kernels`;
  return t.graphLaunches > 0 ? `host launch calls: ${single}, ${graphs}${inside}` : `host launch calls: ${count(t.kernelLaunches)} kernel launches`;
}

/** The idle gaps left out of the active span, as one clause (empty when none). */
export function excludedGapsText(timeline: { excludedGaps: ReadonlyArray<{ durNs: number; reason: string }>; activeSpanNs: number }): string {
  if (timeline.excludedGaps.length === 0) return '';
  const reasons = [...new Set(timeline.excludedGaps.map((g) => g.reason))].join(', ');
  const total = timeline.excludedGaps.reduce((sum, g) => sum + g.durNs, 0);
  return `; ${timeline.excludedGaps.length} idle gap${timeline.excludedGaps.length > 1 ? 's' : ''} (${formatNs(total)}, ${reasons}) left out: active span ${formatNs(timeline.activeSpanNs)}`;
}
