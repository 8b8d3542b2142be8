import rule from '../../../src/diagnose/rules/gpu-throttled.js';
import { testRule } from '../../helpers/rule-tester.js';

const sample = (reasons: string[], smClockMhz = 1980) => ({ gpuPercent: 95, reasons, smClockMhz, powerW: 650 });

testRule(rule, {
  passing: [
    { name: 'idle reason only', profile: { util: [sample(['gpu_idle']), sample([])] } },
    { name: 'clock-setting reasons do not count', profile: { util: [sample(['applications_clocks_setting', 'display_clock_setting'])] } },
    { name: 'no utilization samples', profile: { metrics: { decode_tok_s: 359 } } },
  ],
  failing: [
    {
      // The H200 no-KV-cache decode showed sw_power_cap part of the time.
      name: 'software power cap in 3 of 10 samples',
      profile: { util: [...Array.from({ length: 3 }, () => sample(['sw_power_cap'], 1755)), ...Array.from({ length: 7 }, () => sample([], 1980))] },
      hits: [{ severity: 'warning', evidence: { reasons: 'sw_power_cap', throttledFraction: 0.3, samples: 10, meanSmClockMhz: 1912.5, peakPowerW: 650 }, command: /clocks_event_reasons\.active/ }],
    },
    {
      name: 'one brief hardware slowdown is info',
      profile: { util: [sample(['hw_slowdown']), ...Array.from({ length: 39 }, () => sample([]))] },
      hits: [{ severity: 'info', evidence: { reasons: 'hw_slowdown', throttledFraction: 0.025, samples: 40 } }],
    },
    {
      name: 'several reasons, listed sorted',
      profile: { util: [sample(['sw_thermal_slowdown', 'hw_power_brake_slowdown']), sample(['gpu_idle'])] },
      hits: [{ evidence: { reasons: 'hw_power_brake_slowdown,sw_thermal_slowdown', throttledFraction: 0.5 } }],
    },
    {
      name: 'a lower bar turns a brief throttle into a warning',
      profile: { util: [sample(['sync_boost']), ...Array.from({ length: 49 }, () => sample([]))] },
      options: { minThrottledFraction: 0.01 },
      hits: [{ severity: 'warning', evidence: { reasons: 'sync_boost', throttledFraction: 0.02 } }],
    },
  ],
});
