/**
 * Clock-event (throttle) reasons. NVML reports gpu_idle and the clock-setting reasons too; only the
 * hardware set below makes numbers unrepresentative (same set as max.profiler.gpu's HARDWARE_THROTTLE_REASONS).
 */
export const NVML_REASON_BITS: ReadonlyArray<readonly [number, string]> = [
  [0x1, 'gpu_idle'],
  [0x2, 'applications_clocks_setting'],
  [0x4, 'sw_power_cap'],
  [0x8, 'hw_slowdown'],
  [0x10, 'sync_boost'],
  [0x20, 'sw_thermal_slowdown'],
  [0x40, 'hw_thermal_slowdown'],
  [0x80, 'hw_power_brake_slowdown'],
  [0x100, 'display_clock_setting'],
];

export const HARDWARE_THROTTLE_REASONS: ReadonlySet<string> = new Set([
  'sw_power_cap',
  'hw_slowdown',
  'sync_boost',
  'sw_thermal_slowdown',
  'hw_thermal_slowdown',
  'hw_power_brake_slowdown',
]);

/** Names of the reasons set in an NVML clocks-event bitmask. Unknown bits are named `bit_0x…`. */
export function reasonsFromMask(mask: number | bigint): string[] {
  const value = BigInt(mask);
  const names: string[] = [];
  let known = 0n;
  for (const [bit, name] of NVML_REASON_BITS) {
    known |= BigInt(bit);
    if (value & BigInt(bit)) names.push(name);
  }
  const unknown = value & ~known;
  if (unknown) names.push(`bit_0x${unknown.toString(16)}`);
  return names;
}

/**
 * Hardware reasons that are a regime, not a fault: the board held at its power limit (a loaded H200
 * hits `sw_power_cap` in a quarter to a third of samples beside a busy neighbour, and a heavy
 * prefill alone in 7.5 %), or clocks held in step with the other GPUs of a sync group. Runs under
 * them are comparable with runs under the same regime. The other hardware reasons (thermal, hardware
 * slowdown, power brake) are protection against a fault.
 */
export const POWER_REGIME_REASONS: ReadonlySet<string> = new Set(['sw_power_cap', 'sync_boost']);
