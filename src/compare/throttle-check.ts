/**
 * Throttling against the baseline: which clock-event reasons make a comparison invalid. A thermal
 * reason, a hardware slowdown or a power brake on either side is a fault: its numbers describe the
 * board's condition. The power cap (and sync boost) is the regime a loaded GPU runs in: in an A/B
 * in one job both sides meet it alike (interleaved, one machine), so they are compared and the
 * clocks reported; against a baseline from another job the two sides' throttled shares and mean SM
 * clocks are compared, and only a material difference makes the comparison invalid. Pure.
 */
import { HARDWARE_THROTTLE_REASONS, POWER_REGIME_REASONS } from '../model/throttle.js';
import type { GateInput } from './gate-input.js';

/**
 * Throttled shares further apart than this are different conditions: over about 100 samples per
 * side (0.5 s sampling, a minute of runs), a 30 % share has a binomial sd of 4.6 points, and the
 * difference of two such shares 6.5; 20 points is three of those.
 */
export const MAX_THROTTLED_SHARE_GAP = 0.2;

/**
 * Mean SM clocks further apart than this are different conditions: a clock difference moves a
 * compute-bound workload's speed by at most as much, and half the 3 % default floor is the most
 * that must not be taken for (or hide) a regression.
 */
export const MAX_CLOCK_GAP = 0.015;

/** A reason the comparison cannot stand: what was seen, and what to do about it. */
export interface ThrottleProblem {
  what: string;
  remedy: string;
}

export interface ThrottleJudgement {
  /** What makes the comparison invalid (unless allowThrottled). */
  problems: ThrottleProblem[];
  /** Lines that say under which conditions the two sides were compared. */
  notes: string[];
}

type Utilization = GateInput['utilization'];

function hardwareReasons(u: Utilization): string[] {
  return [...new Set(u?.throttleReasons ?? [])].filter((r) => HARDWARE_THROTTLE_REASONS.has(r)).sort();
}

/** The share of samples with a hardware reason: as sampled, or 0 when no sample had one; unknown without sampling. */
function throttledShare(u: Utilization): number | undefined {
  if (!u) return undefined;
  return u.throttledFraction ?? (hardwareReasons(u).length ? undefined : 0);
}

const shareText = (u: Utilization) => {
  const value = throttledShare(u);
  return value === undefined ? 'an unknown share' : `${Math.round(value * 100)}%`;
};
const clockText = (u: Utilization) => (u?.meanSmClockMhz !== undefined ? `${Math.round(u.meanSmClockMhz).toLocaleString('en-US')} MHz` : 'unknown');

/** `sw_power_cap in 28% of baseline and 31% of current samples; mean SM clock 1,902 MHz (baseline) vs 1,899 MHz (current)` */
function conditions(baseline: Utilization, current: Utilization, reasons: readonly string[]): string {
  const clocks = baseline?.meanSmClockMhz !== undefined || current?.meanSmClockMhz !== undefined ? `; mean SM clock ${clockText(baseline)} (baseline) vs ${clockText(current)} (current)` : '';
  return `${reasons.join(', ')} in ${shareText(baseline)} of baseline and ${shareText(current)} of current samples${clocks}`;
}

/**
 * The throttling lines of a comparison. `sameJob`: the baseline is the base build of an A/B in this
 * job. Whether allowThrottled turns the problems into notes is the caller's.
 */
export function judgeThrottling(baseline: Utilization, current: Utilization, sameJob: boolean): ThrottleJudgement {
  const problems: ThrottleProblem[] = [];
  const notes: string[] = [];
  for (const [label, side] of [['baseline', baseline], ['current', current]] as const) {
    const faults = hardwareReasons(side).filter((r) => !POWER_REGIME_REASONS.has(r));
    if (faults.length) problems.push({ what: `the ${label} run was throttled (${faults.join(', ')}: thermal or hardware protection)`, remedy: 'its numbers are not representative: rerun on a sound, cool GPU' });
  }
  const regime = [...new Set([...hardwareReasons(baseline), ...hardwareReasons(current)])].filter((r) => POWER_REGIME_REASONS.has(r));
  if (!regime.length) return { problems, notes };
  const text = conditions(baseline, current, regime);
  if (sameJob) {
    notes.push(`power regime: ${text}; an A/B in one job meets it on both sides, so they are compared`);
    return { problems, notes };
  }
  const baseShare = throttledShare(baseline);
  const curShare = throttledShare(current);
  const differs: string[] = [];
  if (baseShare === undefined || curShare === undefined) {
    const [label, side] = baseShare === undefined ? ['baseline', baseline] : ['current run', current];
    differs.push(side ? `the throttled share of the ${label} is unknown` : `the ${label} has no GPU sampling to compare with`);
  }
  else if (Math.abs(baseShare - curShare) > MAX_THROTTLED_SHARE_GAP) differs.push(`the throttled shares differ by ${Math.round(Math.abs(baseShare - curShare) * 100)} points (more than ${Math.round(MAX_THROTTLED_SHARE_GAP * 100)})`);
  const baseClock = baseline?.meanSmClockMhz;
  const curClock = current?.meanSmClockMhz;
  const clockGap = baseClock !== undefined && curClock !== undefined && baseClock > 0 ? Math.abs(curClock / baseClock - 1) : undefined;
  if (clockGap !== undefined && clockGap > MAX_CLOCK_GAP) differs.push(`the mean SM clocks differ by ${(clockGap * 100).toFixed(1)}% (more than ${(MAX_CLOCK_GAP * 100).toFixed(1)}%)`);
  if (differs.length) problems.push({ what: `the sides ran under different power conditions (${text}): ${differs.join(', and ')}`, remedy: 'rerun both under the same load' });
  else notes.push(`power regime: ${text}; alike on both sides (throttled shares within ${Math.round(MAX_THROTTLED_SHARE_GAP * 100)} points${clockGap !== undefined ? `, clocks within ${(MAX_CLOCK_GAP * 100).toFixed(1)}%` : ''}), so they are compared`);
  return { problems, notes };
}
