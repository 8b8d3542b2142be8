/** Hardware clock-event reasons were active: the numbers describe a slowed GPU, not the code. */
import { ROCM_SMI_CLOCKS_COMMAND, toolVendor } from '../vendor-tools.js';
import { defineRule } from '../rule.js';
import { percent, round } from '../profile-measures.js';

export default defineRule({
  meta: {
    id: 'gpu-throttled',
    severity: 'warning',
    title: 'GPU clocks were throttled',
    stage: 'utilization',
    needs: ['utilization'],
    description: 'Power, thermal or sync-boost clock reasons were active during the run, so its speed is not representative.',
    defaults: { minThrottledFraction: 0.05 },
  },
  check({ profile, options }) {
    const util = profile.utilization;
    if (!util || util.throttleReasons.length === 0) return [];
    const reasons = util.throttleReasons.join(',');
    const representative = util.throttledFraction < options.minThrottledFraction;
    return [
      {
        ...(representative ? { severity: 'info' as const } : {}),
        message: `${reasons} active in ${percent(util.throttledFraction)} of ${util.sampleCount} samples${
          representative ? ' (briefly; numbers still usable)' : '; throughput and latency are not representative'
        }.`,
        evidence: {
          reasons,
          throttledFraction: round(util.throttledFraction),
          samples: util.sampleCount,
          ...(util.meanSmClockMhz !== undefined ? { meanSmClockMhz: round(util.meanSmClockMhz, 1) } : {}),
          ...(util.peakPowerW !== undefined ? { peakPowerW: round(util.peakPowerW, 1) } : {}),
        },
        advice:
          'Do not gate on these numbers. sw_power_cap means the board hit its power limit (heavy sustained load or a lowered limit); thermal reasons mean cooling; hw_slowdown and power brake are hardware protection. Re-run on an idle, cool GPU, and watch the reasons live:',
        command:
          toolVendor(profile) === 'amd'
            ? ROCM_SMI_CLOCKS_COMMAND
            : 'nvidia-smi --query-gpu=timestamp,clocks_event_reasons.active,clocks.sm,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv -lms 500',
      },
    ];
  },
});
