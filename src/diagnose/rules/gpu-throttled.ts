/** Hardware clock-event reasons were active: the numbers describe a slowed GPU, not the code. */
import { ROCM_SMI_CLOCKS_COMMAND, toolVendor } from '../vendor-tools.js';
import { defineRule } from '../rule.js';
import { percent, round } from '../profile-measures.js';
import { POWER_REGIME_REASONS } from '../../model/throttle.js';

export default defineRule({
  meta: {
    id: 'gpu-throttled',
    severity: 'warning',
    title: 'GPU clocks were throttled',
    stage: 'utilization',
    explainsRun: true,
    needs: ['utilization'],
    description: 'Power, thermal or sync-boost clock reasons were active during the run: a thermal or hardware reason makes its speed unrepresentative; the power cap is the regime of a loaded GPU.',
    defaults: { minThrottledFraction: 0.05 },
    units: { minThrottledFraction: 'fraction' },
  },
  check({ profile, options }) {
    const util = profile.utilization;
    if (!util || util.throttleReasons.length === 0) return [];
    const reasons = util.throttleReasons.join(',');
    // The power cap (or sync boost) alone is the regime of a loaded GPU, not a fault: an H200 beside
    // a busy neighbour sits at it in a quarter to a third of samples, a heavy prefill alone in 7.5%.
    const regimeOnly = util.throttleReasons.every((r) => POWER_REGIME_REASONS.has(r));
    const representative = util.throttledFraction < options.minThrottledFraction;
    const clock = util.meanSmClockMhz !== undefined ? `, mean SM clock ${Math.round(util.meanSmClockMhz).toLocaleString('en-US')} MHz` : '';
    let message: string;
    if (representative) message = `${reasons} active in ${percent(util.throttledFraction)} of ${util.sampleCount} samples (briefly; numbers still usable).`;
    else if (regimeOnly) message = `${reasons} active in ${percent(util.throttledFraction)} of ${util.sampleCount} samples${clock}: the board ran at its power limit, the regime of a loaded GPU; compare only with runs under the same load.`;
    else message = `${reasons} active in ${percent(util.throttledFraction)} of ${util.sampleCount} samples; throughput and latency are not representative.`;
    return [
      {
        ...(representative || regimeOnly ? { severity: 'info' as const } : {}),
        message,
        evidence: {
          reasons,
          throttledFraction: round(util.throttledFraction),
          samples: util.sampleCount,
          ...(util.meanSmClockMhz !== undefined ? { meanSmClockMhz: round(util.meanSmClockMhz, 1) } : {}),
          ...(util.peakPowerW !== undefined ? { peakPowerW: round(util.peakPowerW, 1) } : {}),
        },
        advice:
          'sw_power_cap means the board hit its power limit (heavy sustained load, a busy neighbour on the same GPU, or a lowered limit): the gate compares such runs with a baseline under the same regime, and says when the two differ. Thermal reasons mean cooling; hw_slowdown and power brake are hardware protection: do not gate on those numbers, re-run on a sound, cool GPU. Watch the reasons live:',
        command:
          toolVendor(profile) === 'amd'
            ? ROCM_SMI_CLOCKS_COMMAND
            : 'nvidia-smi --query-gpu=timestamp,clocks_event_reasons.active,clocks.sm,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv -lms 500',
      },
    ];
  },
});
