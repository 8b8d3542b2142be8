/**
 * A profiled kernel runs near the SM's compute roof while DRAM and L2 are far below theirs: it is as
 * fast as its arithmetic allows, and only less or cheaper arithmetic makes it faster.
 */
import { busiestMemory, deepDiveCommand, deepDiveKernels, displayKernel, durationEvidence, launchesInProfile, memoryThroughput, NCU, ncuSays, ncuValue, percentText } from '../ncu-metrics.js';
import { rooflineEvidence } from '../ncu-roofline.js';
import { defineRule, type RuleHit } from '../rule.js';
import { round } from '../signals.js';

export default defineRule({
  meta: {
    id: 'kernel-compute-bound',
    severity: 'info',
    title: 'Kernel is compute-bound',
    stage: 'deep-dive',
    needs: ['kernel-metrics'],
    description: 'Nsight Compute shows the kernel near the SM compute roof while DRAM and L2 throughput are far from theirs; speed comes from less or cheaper arithmetic.',
    defaults: { minComputePercent: 60, minLeadPoints: 20, workload: '<workload command>' },
  },
  check({ profile, options }) {
    const hits: RuleHit[] = [];
    for (const { kernel, result, launches } of deepDiveKernels(profile.ncu)) {
      const compute = ncuValue(result, NCU.compute);
      // On-chip L1/shared traffic feeds the math units of a compute-bound kernel; the memory roofs are DRAM and L2.
      const memory = busiestMemory(result, ['DRAM', 'L2']);
      if (compute === undefined || !memory) continue;
      if (compute < options.minComputePercent || memory.percent > compute - options.minLeadPoints) continue;
      // Memory far ahead of compute is kernel-memory-bound's case (an L1/shared-bound kernel), not this one.
      const memorySide = memoryThroughput(result);
      if (memorySide && memorySide.percent >= compute + options.minLeadPoints) continue;
      const dram = ncuValue(result, NCU.dram);
      const l2 = ncuValue(result, NCU.l2);
      hits.push({
        message: `${displayKernel(kernel)} is compute-bound: SM throughput at ${percentText(compute)} of peak, ${memory.unit} at ${percentText(memory.percent)}.`,
        evidence: {
          computePercent: round(compute, 2),
          memoryUnit: memory.unit,
          memoryPercent: round(memory.percent, 2),
          ...(dram !== undefined ? { dramPercent: round(dram, 2) } : {}),
          ...(l2 !== undefined ? { l2Percent: round(l2, 2) } : {}),
          ...durationEvidence(result),
          launches,
          ...rooflineEvidence(result),
          ...ncuSays(result, ['SOLBottleneck', 'SOLFPRoofline', 'HighPipeUtilization']),
        },
        advice:
          'The kernel is near the SM roof: less or cheaper arithmetic makes it faster (a lower-precision tensor-core path such as FP8, skipping padded or masked work, a better-suited kernel from the library). Run the command below to see which pipeline is the limit.',
        command: deepDiveCommand(kernel, launchesInProfile(profile.kernels, kernel), ['SpeedOfLight', 'ComputeWorkloadAnalysis', 'InstructionStats', 'SpeedOfLight_RooflineChart'], options.workload),
        kernel,
      });
    }
    return hits;
  },
});
