import rule from '../../../src/diagnose/rules/grid-too-small.js';
import { testRule } from '../../helpers/rule-tester.js';
import { loadCaptures, withMetric } from '../ncu-captures.js';

const c = await loadCaptures();

// Expected numbers: read from the CSVs with Python's csv module (see deep-dive.test.ts for how).
testRule(rule, {
  passing: [
    { name: 'prefill GEMM: 132 blocks, exactly one wave', profile: { ncu: c.prefillGemm } },
    { name: 'fp32 kernels: 41, 124 and 3.9 waves', profile: { ncu: c.fp32 } },
    // No LaunchStats and ncu's SOLBottleneck speaks of latency, not of the grid.
    { name: 'RTX 5090 CUTLASS GEMM: no waves, no ncu verdict', profile: { ncu: c.rtxGemm } },
    { name: 'a lower wave threshold', profile: { ncu: c.decodeGemv }, options: { maxWaves: 0.5 } },
  ],
  failing: [
    {
      name: 'H200 decode GEMV: 88 blocks on 132 SMs, at the DRAM roof (info)',
      profile: { ncu: c.decodeGemv },
      hits: [
        {
          severity: 'info',
          kernel: 'nvjet_sm90_tst_256x8_64x6_4x1_v_bz_TNT',
          evidence: { wavesPerSm: 0.67, wavesSource: 'launch-stats', gridBlocks: 88, blockThreads: 384, smCount: 132, idleSms: 44, memoryPercent: 80.77, ncuRule: 'LaunchConfiguration (OPT)', ncuEstimatedSpeedupPercent: 33.33 },
          command: /--section SpeedOfLight --section LaunchStats --section Occupancy --csv --page details <workload command>$/,
        },
      ],
    },
    {
      name: 'H200 decode attention: 32 blocks, 0.12 waves, far from every roof (warning)',
      profile: { ncu: c.decodeAttention },
      hits: [{ severity: 'warning', evidence: { wavesPerSm: 0.12, gridBlocks: 32, smCount: 132, idleSms: 100, ncuRule: 'LaunchConfiguration (OPT)', ncuEstimatedSpeedupPercent: 75.76 } }],
    },
    {
      name: 'waves computed from the grid when Waves Per SM is missing',
      profile: { ncu: withMetric(c.decodeGemv, 'Waves Per SM', undefined) },
      // 88 blocks ÷ (132 SMs × 1 block per SM, the register and shared-memory limit).
      hits: [{ evidence: { wavesPerSm: 0.6667, wavesSource: 'computed', gridBlocks: 88 } }],
    },
    {
      name: 'RTX 5090 GEMV: no LaunchStats, Nsight Compute flags the grid',
      profile: { ncu: c.rtxGemv },
      hits: [{ severity: 'warning', evidence: { wavesSource: 'ncu rule', gridBlocks: 224, ncuRule: 'SOLBottleneck (OPT)' } }],
    },
  ],
});
