import rule from '../../../src/diagnose/rules/kernel-memory-bound.js';
import { testRule } from '../../helpers/rule-tester.js';
import { loadCaptures, only, withMetric } from '../ncu-captures.js';

const c = await loadCaptures();

// Expected numbers: read from the CSVs with Python's csv module (see deep-dive.test.ts for how).
testRule(rule, {
  passing: [
    { name: 'prefill GEMM is compute-bound', profile: { ncu: c.prefillGemm } },
    { name: 'decode attention is far from every roof', profile: { ncu: c.decodeAttention } },
    { name: 'RTX 5090 CUTLASS GEMM is latency-bound', profile: { ncu: c.rtxGemm } },
    { name: 'fp32 SGEMM is compute-bound', profile: { ncu: only(c.fp32Raw, /xmma_gemm/) } },
    // Memory Throughput 57.24% < 60 (ncu calls it latency); L2's own headline, 82.6%, is not the memory side.
    { name: 'clamp kernel just under the memory threshold', profile: { ncu: only(c.smallMatmul, /clamp/) } },
    { name: 'a higher threshold', profile: { ncu: c.decodeGemv }, options: { minMemoryPercent: 85 } },
    // The raw page carries no ncu rules: compute at 65% within 20 points of memory at 80.77% is no single roof.
    { name: 'compute not far below memory, no ncu verdict', profile: { ncu: withMetric(c.decodeGemvRaw, 'sm__throughput.avg.pct_of_peak_sustained_elapsed', 65) } },
    { name: 'no compute throughput and no ncu verdict', profile: { ncu: withMetric(c.decodeGemvRaw, 'sm__throughput.avg.pct_of_peak_sustained_elapsed', undefined) } },
  ],
  failing: [
    {
      name: 'H200 decode GEMV, details page: ~81% of DRAM peak at 3.88 TB/s',
      profile: { ncu: c.decodeGemv },
      hits: [
        {
          severity: 'info',
          kernel: 'nvjet_sm90_tst_256x8_64x6_4x1_v_bz_TNT',
          // 3.88e12 B/s ÷ 0.8077 = 4.804e12 B/s implied peak.
          evidence: { memoryUnit: 'DRAM', memoryPercent: 80.77, dramPercent: 80.77, l2Percent: 84.23, computePercent: 5.25, dramBytesPerSecond: 3.88e12, dramPeakBytesPerSecond: 4.804e12, dramShareOfPeak: 0.8077, durationUs: 47.07, launches: 1, ncuRule: 'SOLBottleneck (INF)', ncuBottleneck: 'memory (DRAM)', boundSource: 'agrees', kernelKind: 'other' },
          command: /^ncu --clock-control none --kernel-name regex:'nvjet_sm90_tst_256x8_64x6_4x1_v_bz_TNT' --launch-skip 0 --launch-count 1 --section SpeedOfLight --section MemoryWorkloadAnalysis .*<workload command>$/,
        },
      ],
    },
    {
      name: 'H200 decode GEMV, raw page',
      profile: { ncu: c.decodeGemvRaw },
      // dram__bytes.sum.per_second 3.884313 TB/s ÷ 0.80767156 = 4.8093e12.
      hits: [{ evidence: { memoryUnit: 'DRAM', memoryPercent: 80.7672, dramBytesPerSecond: 3.884e12, dramPeakBytesPerSecond: 4.809e12, durationUs: 47.072 } }],
    },
    {
      name: 'fp32 addcmul (DRAM, below the ridge) and transposing copy (L2)',
      profile: { ncu: c.fp32Raw },
      hits: [
        // (0 + 0 + 2 × 144.257109) FFMA/cycle × 1.933706 GHz = 5.579e11 FLOP/s over 4.413576 TB/s = 0.1264 FLOP/B;
        // ridge 16896 × 2 × 1.933706 GHz ÷ (1504 B/cycle × 3.1989 GHz) = 13.58 FLOP/B.
        { evidence: { memoryUnit: 'DRAM', memoryPercent: 91.7365, rooflinePrecision: 'fp32', flopsPerSecond: 5.579e11, arithmeticIntensity: 0.1264, ridgePoint: 13.58, rooflineSide: 'memory', shareOfRoof: 0.9174 } },
        { evidence: { memoryUnit: 'L2', memoryPercent: 96.5584, dramPercent: 23.4043, computePercent: 19.6605 } },
      ],
    },
    {
      name: 'mean reduction among eight launches: one finding for its kernel',
      profile: { ncu: c.smallMatmul },
      hits: [{ evidence: { memoryUnit: 'DRAM', memoryPercent: 63.53, computePercent: 15.4, launches: 1 } }],
    },
    {
      // SM 65% within 20 points of DRAM 80.77%: the numbers do not decide, ncu's "Start by analyzing DRAM" does.
      name: 'compute not far below memory: ncu\'s verdict decides',
      profile: { ncu: withMetric(c.decodeGemv, 'Compute (SM) Throughput', 65) },
      hits: [{ evidence: { memoryUnit: 'DRAM', memoryPercent: 80.77, computePercent: 65, ncuBottleneck: 'memory (DRAM)', boundSource: 'from ncu verdict' } }],
    },
    {
      name: 'no compute throughput captured: ncu\'s verdict decides',
      profile: { ncu: withMetric(c.decodeGemv, 'Compute (SM) Throughput', undefined) },
      hits: [{ evidence: { memoryUnit: 'DRAM', memoryPercent: 80.77, boundSource: 'from ncu verdict', whyNotNcu: "The capture lacks the SpeedOfLight numbers to check it; ncu's own verdict is followed" } }],
    },
    {
      name: 'a lower lead still separates memory from compute',
      profile: { ncu: withMetric(c.decodeGemv, 'Compute (SM) Throughput', 65) },
      options: { minLeadPoints: 10 },
      hits: [{ evidence: { memoryPercent: 80.77, computePercent: 65 } }],
    },
  ],
});
