import rule from '../../../src/diagnose/rules/kernel-latency-bound.js';
import { testRule } from '../../helpers/rule-tester.js';
import { loadCaptures, only, withMetric } from '../ncu-captures.js';

const c = await loadCaptures();

// Expected numbers: read from the CSVs with Python's csv module (see deep-dive.test.ts for how).
testRule(rule, {
  passing: [
    { name: 'decode GEMV at the DRAM roof', profile: { ncu: c.decodeGemv } },
    { name: 'prefill GEMM at the SM roof', profile: { ncu: c.prefillGemm } },
    { name: 'fp32 kernels, each at a roof', profile: { ncu: c.fp32 } },
    { name: 'a lower threshold', profile: { ncu: c.decodeAttention }, options: { maxPercent: 5 } },
    { name: 'memory at 60% is not low', profile: { ncu: withMetric(c.decodeAttention, 'Memory Throughput', 60) } },
    { name: 'no compute throughput captured', profile: { ncu: withMetric(c.decodeAttention, 'Compute (SM) Throughput', undefined) } },
  ],
  failing: [
    {
      name: 'H200 decode attention: 3% SM, 6.5% memory, 0.12 waves, details page',
      profile: { ncu: c.decodeAttention },
      hits: [
        {
          severity: 'warning',
          kernel: 'cudnn_generated_fort_native_sdpa_sm80_flash_fprop_wmma_f16_knob_35_16x128x128_1x4x1_cga1x1x1_kernel0_0',
          evidence: {
            computePercent: 3.22,
            memoryUnit: 'DRAM',
            memoryPercent: 6.54,
            achievedOccupancyPercent: 6.13,
            theoreticalOccupancyPercent: 12.5,
            wavesPerSm: 0.12,
            gridBlocks: 32,
            smCount: 132,
            warpCyclesPerIssuedInstruction: 4.57,
            ncuRule: 'SOLBottleneck (OPT)',
          },
          command: /--section WarpStateStats --section SchedulerStats --csv --page details <workload command>$/,
        },
      ],
    },
    {
      name: 'H200 decode attention, raw page: the top warp stall',
      profile: { ncu: c.decodeAttentionRaw },
      // smsp__average_warps_issue_stalled_wait_per_issue_active.ratio 0.86386 tops long_scoreboard 0.731031.
      hits: [{ evidence: { computePercent: 3.22, memoryPercent: 6.54, topStall: 'wait', topStallCycles: 0.86 } }],
    },
    {
      name: 'RTX 5090 cuBLAS GEMV: 9% SM, 20% DRAM, 0.14 eligible warps',
      profile: { ncu: c.rtxGemv },
      hits: [{ evidence: { computePercent: 9.15, memoryUnit: 'DRAM', memoryPercent: 19.66, achievedOccupancyPercent: 11.32, theoreticalOccupancyPercent: 16.67, gridBlocks: 224, eligibleWarpsPerScheduler: 0.14, durationUs: 6.75, ncuRule: 'IssueSlotUtilization (OPT)', ncuEstimatedSpeedupPercent: 80.34 } }],
    },
    {
      name: 'RTX 5090 CUTLASS GEMM: 32% SM, 26% memory (L2)',
      profile: { ncu: c.rtxGemm },
      hits: [{ evidence: { computePercent: 32.46, memoryUnit: 'L2', memoryPercent: 25.75, achievedOccupancyPercent: 16.66, gridBlocks: 304, eligibleWarpsPerScheduler: 0.12, durationUs: 404.7 } }],
    },
    {
      name: 'H200 clamp and contiguous copy, below 60% on both sides',
      profile: { ncu: only(c.smallMatmul, /clamp|direct_copy/) },
      hits: [{ evidence: { computePercent: 39.71, memoryPercent: 57.04, launches: 2 } }, { evidence: { computePercent: 53.25, memoryPercent: 32.95, launches: 1 } }],
    },
  ],
});
