/**
 * Noise between jobs, from the default branch's recent reports: a baseline from another job (an
 * artifact) differs from this job by another runner, boot and clock state as well as by the change.
 * The spread of recent per-job medians of the same workload says how large that is, and the floor
 * of each metric is widened to cover it. Pure: the reports are handed in (see `HistoryEntry`).
 */
import { MAD_TO_SD, mad } from './statistics.js';

/** What the estimate reads of one past report (a Report fits): its per-metric medians. */
export interface HistoryEntry {
  metrics: readonly { name: string; value: number }[];
}

/** Fewer reports than this give no estimate: a robust spread of four medians is a guess. */
export const MIN_HISTORY_REPORTS = 5;

/**
 * Two jobs' medians differ by about √2 × the between-job sd; 2.33 of that is the one-sided 1% point
 * of a normal difference, so the widened floor is 2.33 × √2 ≈ 3.3 × the spread.
 */
export const BETWEEN_JOB_FLOOR_FACTOR = 2.33 * Math.SQRT2;

export interface BetweenJobSpread {
  metric: string;
  /** Robust sd of the per-job medians, relative (0.018 = ±1.8%). */
  spread: number;
  /** Reports that had the metric. */
  reports: number;
}

/** The per-metric spread of the reports' medians: 1.4826 × MAD of their logarithms. */
export function estimateBetweenJobNoise(history: readonly HistoryEntry[], metrics: readonly string[], minReports = MIN_HISTORY_REPORTS): BetweenJobSpread[] {
  const out: BetweenJobSpread[] = [];
  for (const metric of metrics) {
    const values = history.map((report) => report.metrics.find((m) => m.name === metric)?.value).filter((v): v is number => v !== undefined && Number.isFinite(v) && v > 0);
    if (values.length < minReports) continue;
    const logs = values.map(Math.log);
    // exp(sd of logs) − 1 ≈ the relative sd; the same for higher- and lower-is-better metrics.
    out.push({ metric, spread: Math.expm1(MAD_TO_SD * mad(logs)), reports: values.length });
  }
  return out;
}

/** The floor (a fraction) that covers the between-job noise: never below the metric's own floor. */
export function widenedFloor(floor: number, spread: number): number {
  return Math.max(floor, BETWEEN_JOB_FLOOR_FACTOR * spread);
}
