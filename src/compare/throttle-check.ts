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
import type { ThrottleReading } from '../model/report.js';

type ThrottleSide = Extract<ThrottleReading, { type: 'power' }>['baseline'];

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

export interface ThrottleJudgement {
  /** What makes the comparison invalid (unless allowThrottled). */
  problems: ThrottleReading[];
  /** Under which conditions the two sides were compared, where they were alike. */
  notes: ThrottleReading[];
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

function sideOf(u: Utilization): ThrottleSide {
  return { sampled: Boolean(u), share: throttledShare(u) ?? null, clockMhz: u?.meanSmClockMhz ?? null };
}

/**
 * What throttling says of a comparison, as data. `sameJob`: the baseline is the base build of an
 * A/B in this job. Whether allowThrottled turns the problems into notes is the caller's.
 */
export function judgeThrottling(baseline: Utilization, current: Utilization, sameJob: boolean): ThrottleJudgement {
  const problems: ThrottleReading[] = [];
  const notes: ThrottleReading[] = [];
  for (const [side, u] of [['baseline', baseline], ['current', current]] as const) {
    const faults = hardwareReasons(u).filter((r) => !POWER_REGIME_REASONS.has(r));
    if (faults.length) problems.push({ type: 'fault', side, reasons: faults });
  }
  const regime = [...new Set([...hardwareReasons(baseline), ...hardwareReasons(current)])].filter((r) => POWER_REGIME_REASONS.has(r));
  if (!regime.length) return { problems, notes };
  const power = { type: 'power' as const, reasons: regime, baseline: sideOf(baseline), current: sideOf(current), sameJob };
  if (sameJob) {
    notes.push({ ...power, differs: [] });
    return { problems, notes };
  }
  const baseShare = throttledShare(baseline);
  const curShare = throttledShare(current);
  const differs: Extract<ThrottleReading, { type: 'power' }>['differs'] = [];
  if (baseShare === undefined || curShare === undefined) {
    const [side, u] = baseShare === undefined ? (['baseline', baseline] as const) : (['current', current] as const);
    differs.push({ what: 'share-unknown', side, sampled: Boolean(u) });
  } else if (Math.abs(baseShare - curShare) > MAX_THROTTLED_SHARE_GAP) differs.push({ what: 'share-gap', points: Math.abs(baseShare - curShare) * 100, maxPoints: MAX_THROTTLED_SHARE_GAP * 100 });
  const baseClock = baseline?.meanSmClockMhz;
  const curClock = current?.meanSmClockMhz;
  const clockGap = baseClock !== undefined && curClock !== undefined && baseClock > 0 ? Math.abs(curClock / baseClock - 1) : undefined;
  if (clockGap !== undefined && clockGap > MAX_CLOCK_GAP) differs.push({ what: 'clock-gap', gap: clockGap, maxGap: MAX_CLOCK_GAP });
  if (differs.length) problems.push({ ...power, differs });
  else notes.push({ ...power, differs, alike: { maxPoints: MAX_THROTTLED_SHARE_GAP * 100, ...(clockGap !== undefined ? { maxGap: MAX_CLOCK_GAP } : {}) } });
  return { problems, notes };
}
