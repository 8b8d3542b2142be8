/**
 * Top-kernel changes between consecutive points of a workload: kernels entering or leaving the top
 * N, and share moves of at least a floor. Computed from the full kernel lists of the reports, so a
 * kernel that left the top N still has its exact share after.
 */
import type { KernelEvent } from './data.js';
import { SHARE_SCALE } from './data.js';

export interface KernelShares {
  /** Kernel index → share (0..1) at one point. */
  shares: Map<number, number>;
  /** Kernel indexes of the top N at that point, largest first. */
  top: number[];
}

function scaled(share: number | undefined): number {
  return Math.round((share ?? 0) * SHARE_SCALE);
}

/** Events of one pair of points: entries and exits first, then the largest moves. */
export function eventsBetween(before: KernelShares, after: KernelShares, index: number, minShareChange: number): KernelEvent[] {
  const events: KernelEvent[] = [];
  const wasTop = new Set(before.top);
  const isTop = new Set(after.top);
  for (const kernel of after.top) {
    if (!wasTop.has(kernel)) events.push({ index, kernel, kind: 'entered', before: scaled(before.shares.get(kernel)), after: scaled(after.shares.get(kernel)) });
  }
  for (const kernel of before.top) {
    if (!isTop.has(kernel)) events.push({ index, kernel, kind: 'left', before: scaled(before.shares.get(kernel)), after: scaled(after.shares.get(kernel)) });
  }
  const moves: KernelEvent[] = [];
  for (const kernel of new Set([...before.top, ...after.top])) {
    if (!wasTop.has(kernel) || !isTop.has(kernel)) continue;
    const delta = (after.shares.get(kernel) ?? 0) - (before.shares.get(kernel) ?? 0);
    if (Math.abs(delta) >= minShareChange) {
      moves.push({ index, kernel, kind: delta > 0 ? 'up' : 'down', before: scaled(before.shares.get(kernel)), after: scaled(after.shares.get(kernel)) });
    }
  }
  moves.sort((a, b) => Math.abs(b.after - b.before) - Math.abs(a.after - a.before));
  return [...events, ...moves];
}
