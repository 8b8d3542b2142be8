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
      // The H200 beside a neighbour's matmul bursts: sw_power_cap in a quarter to a third of samples.
      // The power cap is the regime of a loaded GPU, not a fault: info, with the clock.
      name: 'software power cap in 3 of 10 samples is the power regime (info)',
      profile: { util: [...Array.from({ length: 3 }, () => sample(['sw_power_cap'], 1755)), ...Array.from({ length: 7 }, () => sample([], 1980))] },
      hits: [
        {
          severity: 'info',
          message: /sw_power_cap active in 30\.0% of 10 samples, mean SM clock 1,913 MHz: the board ran at its power limit/,
          evidence: { reasons: 'sw_power_cap', throttledFraction: 0.3, samples: 10, meanSmClockMhz: 1912.5, peakPowerW: 650 },
          command: /clocks_event_reasons\.active/,
        },
      ],
    },
    {
      name: 'a thermal reason beside the power cap is a warning',
      profile: { util: [...Array.from({ length: 3 }, () => sample(['sw_power_cap', 'sw_thermal_slowdown'], 1700)), ...Array.from({ length: 7 }, () => sample([], 1980))] },
      hits: [{ severity: 'warning', message: /not representative/, evidence: { reasons: 'sw_power_cap,sw_thermal_slowdown', throttledFraction: 0.3 } }],
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
      profile: { util: [sample(['hw_slowdown']), ...Array.from({ length: 49 }, () => sample([]))] },
      options: { minThrottledFraction: 0.01 },
      hits: [{ severity: 'warning', evidence: { reasons: 'hw_slowdown', throttledFraction: 0.02 } }],
    },
    {
      name: 'sync boost alone is a regime too, however long',
      profile: { util: [sample(['sync_boost']), ...Array.from({ length: 49 }, () => sample([]))] },
      options: { minThrottledFraction: 0.01 },
      hits: [{ severity: 'info', evidence: { reasons: 'sync_boost', throttledFraction: 0.02 } }],
    },
  ],
});
