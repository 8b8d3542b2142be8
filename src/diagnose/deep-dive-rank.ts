/**
 * Deep-dive findings in order of what they are worth: a kernel's finding counts as much as the
 * kernel's share of time. With a timing capture that is its share of GPU kernel time; with an ncu
 * page alone, its share of the profiled launches' duration. The same finding on several negligible
 * kernels (each under NEGLIGIBLE_SHARE) is folded into one informational line: a 2 µs norm that is
 * latency-bound is true and worth nothing, and 20 such lines would hide the two that matter.
 */
import type { Finding } from '../model/report.js';
import type { Profile } from '../model/profile.js';
import { deepDiveKernels, NCU, ncuValue } from './ncu-metrics.js';

/** A kernel under this share of the time its deep dive covers is negligible. */
export const NEGLIGIBLE_SHARE = 0.02;

/** Each deep-dive kernel's share of time, keyed by the name its findings carry. */
export function deepDiveShares(profile: Pick<Profile, 'ncu' | 'kernels'>): Map<string, number> {
  const dives = deepDiveKernels(profile.ncu, profile.kernels);
  const shares = new Map<string, number>();
  const durationOf = (ncuKernel: string) => profile.ncu.filter((r) => r.kernel === ncuKernel).reduce((sum, r) => sum + (ncuValue(r, NCU.duration) ?? 0), 0);
  const total = dives.reduce((sum, dive) => sum + durationOf(dive.ncuKernel), 0);
  for (const dive of dives) {
    const share = dive.breakdown ? dive.breakdown.share : total > 0 ? durationOf(dive.ncuKernel) / total : undefined;
    if (share !== undefined) shares.set(dive.kernel, share);
  }
  return shares;
}

function percentText(share: number): string {
  return `${(share * 100).toFixed(share < 0.01 ? 2 : 1)} %`;
}

/**
 * Deep-dive findings ranked by their kernel's share (largest first), the same finding on two or more
 * negligible kernels folded into one info line that names them. Other findings pass through as they are.
 */
export function rankDeepDiveFindings<F extends Finding & { stage: string }>(profile: Pick<Profile, 'ncu' | 'kernels'>, findings: readonly F[]): F[] {
  const shares = deepDiveShares(profile);
  const shareOf = (f: F) => (f.kernel !== undefined ? shares.get(f.kernel) : undefined);
  const dive = findings.filter((f) => f.stage === 'deep-dive' && shareOf(f) !== undefined);
  if (!dive.length) return [...findings];
  const negligible = new Map<string, F[]>();
  for (const f of dive) if (shareOf(f)! < NEGLIGIBLE_SHARE) negligible.set(f.id, [...(negligible.get(f.id) ?? []), f]);
  const folded = new Set<F>();
  const lines: F[] = [];
  for (const [id, group] of negligible) {
    if (group.length < 2) continue;
    group.forEach((f) => folded.add(f));
    const combined = group.reduce((sum, f) => sum + shareOf(f)!, 0);
    const names = group.map((f) => `\`${f.kernel}\` (${percentText(shareOf(f)!)})`);
    const { kernel: _kernel, command: _command, deepDive: _deepDive, ...first } = group[0]!;
    lines.push({
      ...first,
      severity: 'info',
      message: `${id} on ${group.length} small kernels, each under ${percentText(NEGLIGIBLE_SHARE)} of the time and ${percentText(combined)} together: ${names.join(', ')}. Worth little before the larger kernels.`,
      evidence: { kernels: group.length, combinedShare: Math.round(combined * 1e4) / 1e4, largestShare: Math.round(Math.max(...group.map((f) => shareOf(f)!)) * 1e4) / 1e4 },
    } as unknown as F);
  }
  const kept = findings.filter((f) => !folded.has(f)).map((f) => (f.stage === 'deep-dive' && (shareOf(f) ?? 1) < NEGLIGIBLE_SHARE && f.severity !== 'info' ? { ...f, severity: 'info' as const } : f));
  const all = [...kept, ...lines];
  const rank = (f: F) => (f.stage === 'deep-dive' ? (f.kernel !== undefined ? (shares.get(f.kernel) ?? 0) : -1) : 0);
  // Stable: only deep-dive findings move, among themselves, by share.
  const diveSlots = all.map((f, i) => (f.stage === 'deep-dive' ? i : -1)).filter((i) => i >= 0);
  const ordered = diveSlots.map((i) => all[i]!).sort((a, b) => rank(b) - rank(a));
  diveSlots.forEach((slot, k) => (all[slot] = ordered[k]!));
  return all;
}
