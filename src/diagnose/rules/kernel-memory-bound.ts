/**
 * A profiled kernel runs near a memory roof (ncu's Memory Throughput: DRAM, L2 or L1/TEX) while its
 * compute is far below it: it is as fast as the bytes it moves allow, and only moving fewer bytes makes it faster.
 */
import { deepDiveCommand, deepDiveKernels, displayKernel, dramBytesPerSecond, durationEvidence, launchesInProfile, memoryThroughput, NCU, ncuSays, ncuValue, percentText, rateText } from '../ncu-metrics.js';
import { dramPeakBytesPerSecond, rooflineEvidence } from '../ncu-roofline.js';
import { defineRule, type RuleHit } from '../rule.js';
import { round } from '../signals.js';

export default defineRule({
  meta: {
    id: 'kernel-memory-bound',
    severity: 'info',
    title: 'Kernel is memory-bound',
    stage: 'deep-dive',
    needs: ['kernel-metrics'],
    description: 'Nsight Compute shows the kernel near a memory throughput roof while compute throughput is far from its own; speed comes from moving fewer bytes.',
    defaults: { minMemoryPercent: 60, minLeadPoints: 20, workload: '<workload command>' },
  },
  check({ profile, options }) {
    const hits: RuleHit[] = [];
    for (const { kernel, result, launches } of deepDiveKernels(profile.ncu)) {
      const memory = memoryThroughput(result);
      const compute = ncuValue(result, NCU.compute);
      if (!memory || compute === undefined) continue;
      if (memory.percent < options.minMemoryPercent || compute > memory.percent - options.minLeadPoints) continue;
      const dram = ncuValue(result, NCU.dram);
      const l2 = ncuValue(result, NCU.l2);
      const rate = dramBytesPerSecond(result);
      const peak = dramPeakBytesPerSecond(result);
      const bandwidth = rate !== undefined ? `; DRAM moves ${rateText(rate)}${peak !== undefined ? ` of its ${rateText(peak)} peak` : ''}` : '';
      hits.push({
        message: `${displayKernel(kernel)} is memory-bound: ${memory.unit} throughput at ${percentText(memory.percent)} of peak${dram !== undefined && memory.unit !== 'DRAM' ? ` (DRAM ${percentText(dram)})` : ''}${bandwidth}, compute (SM) at ${percentText(compute)}.`,
        evidence: {
          memoryUnit: memory.unit,
          memoryPercent: round(memory.percent, 2),
          computePercent: round(compute, 2),
          ...(dram !== undefined ? { dramPercent: round(dram, 2) } : {}),
          ...(l2 !== undefined ? { l2Percent: round(l2, 2) } : {}),
          ...(rate !== undefined ? { dramBytesPerSecond: Number(rate.toPrecision(4)) } : {}),
          ...(peak !== undefined ? { dramPeakBytesPerSecond: Number(peak.toPrecision(4)) } : {}),
          ...(rate !== undefined && peak !== undefined ? { dramShareOfPeak: round(rate / peak) } : {}),
          ...durationEvidence(result),
          launches,
          ...rooflineEvidence(result),
          ...ncuSays(result, ['SOLBottleneck', 'SOLFPRoofline']),
        },
        advice:
          memory.unit === 'DRAM'
            ? 'The kernel already streams close to the DRAM roof: fewer bytes make it faster (lower-precision weights or KV cache, fusing the producer or consumer so the tensor is read once, more tokens per weight read). Run the command below to see which accesses carry the bytes.'
            : `The ${memory.unit} cache is the busiest unit: data is re-read from it many times. Better reuse (tiling into shared memory, fewer passes) or coalesced accesses cut that traffic. Run the command below to see which accesses carry it.`,
        command: deepDiveCommand(kernel, launchesInProfile(profile.kernels, kernel), ['SpeedOfLight', 'MemoryWorkloadAnalysis', 'MemoryWorkloadAnalysis_Tables', 'SpeedOfLight_RooflineChart'], options.workload),
        kernel,
      });
    }
    return hits;
  },
});
