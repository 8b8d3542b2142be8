import rule from '../../../src/diagnose/rules/low-occupancy.js';
import { testRule } from '../../helpers/rule-tester.js';
import { loadCaptures, only, withMetric } from '../ncu-captures.js';

const c = await loadCaptures();

// Expected numbers: read from the CSVs with Python's csv module (see deep-dive.test.ts for how).
testRule(rule, {
  passing: [
    // 14.2% of 18.75%, but at 80.8% of the DRAM roof more warps would not help.
    { name: 'decode GEMV at the DRAM roof', profile: { ncu: c.decodeGemv } },
    { name: 'prefill GEMM at the SM roof', profile: { ncu: c.prefillGemm } },
    // Latency-bound, but 79.6% of 100% and 90.9% of 100% achieved.
    { name: 'clamp and copy with full occupancy', profile: { ncu: only(c.smallMatmul, /clamp|direct_copy/) } },
    { name: 'a lower floor', profile: { ncu: c.rtxGemv }, options: { minAchievedPercent: 10 } },
    { name: 'no achieved occupancy captured', profile: { ncu: withMetric(c.rtxGemv, 'Achieved Occupancy', undefined) } },
  ],
  failing: [
    {
      name: 'H200 decode attention: 6.1% of 12.5%, registers and shared memory',
      profile: { ncu: c.decodeAttention },
      hits: [
        {
          severity: 'info',
          kernel: 'cudnn_generated_fort_native_sdpa_sm80_flash_fprop_wmma_f16_knob_35_16x128x128_1x4x1_cga1x1x1_kernel0_0',
          evidence: {
            achievedOccupancyPercent: 6.13,
            theoreticalOccupancyPercent: 12.5,
            achievedShareOfTheoretical: 0.4904,
            limiter: 'registers and shared memory; achieved below theoretical (load imbalance, a partial last wave, or a grid smaller than the GPU)',
            blocksPerSm: 2,
            blockLimitRegisters: 2,
            blockLimitSharedMem: 2,
            blockLimitWarps: 16,
            registersPerThread: 236,
            ncuRule: 'TheoreticalOccupancy (OPT)',
            ncuEstimatedSpeedupPercent: 87.5,
          },
          command: /--section Occupancy --section LaunchStats --section WarpStateStats /,
          advice: /^A tiled matmul or attention kernel/,
        },
      ],
    },
    {
      name: 'RTX 5090 GEMV: 11.3% of 16.7%, registers (2 blocks per SM)',
      profile: { ncu: c.rtxGemv },
      hits: [{ evidence: { achievedOccupancyPercent: 11.32, theoreticalOccupancyPercent: 16.67, limiter: 'registers', blocksPerSm: 2, blockLimitSharedMem: 4 }, advice: /^Registers cap the resident blocks/ }],
    },
    {
      name: 'RTX 5090 CUTLASS GEMM: 16.7% of 16.7%, registers and shared memory (1 block per SM)',
      profile: { ncu: c.rtxGemm },
      // A CUTLASS tile: register caps are not the fix, the tile or algorithm is.
      hits: [{ evidence: { achievedOccupancyPercent: 16.66, limiter: 'registers and shared memory', blocksPerSm: 1, ncuEstimatedSpeedupPercent: 67.54 }, advice: /^A tiled matmul or attention kernel keeps its tile in registers and shared memory.*max-autotune/ }],
    },
    {
      name: 'achieved far below a high theoretical occupancy',
      profile: { ncu: withMetric(only(c.smallMatmul, /direct_copy/), 'Achieved Occupancy', 40) },
      hits: [{ evidence: { achievedOccupancyPercent: 40, theoreticalOccupancyPercent: 100, achievedShareOfTheoretical: 0.4, limiter: 'achieved below theoretical (load imbalance, a partial last wave, or a grid smaller than the GPU)' } }],
    },
  ],
});
