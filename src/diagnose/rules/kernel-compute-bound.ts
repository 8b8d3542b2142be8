/**
 * A profiled kernel runs near the SM's compute roof while DRAM and L2 are far below theirs. ncu's
 * SOLBottleneck verdict comes first (ncu-bound.ts). What "compute" means depends on the kernel: for a
 * GEMM it is math, for a copy it is the index arithmetic of a strided access (ncu-advice.ts).
 */
import { kernelKind, boundAdvice } from '../ncu-advice.js';
import { boundEvidence, levelEvidence, readBound } from '../ncu-bound.js';
import { breakdownEvidence, busiestMemory, deepDiveKernels, displayKernel, durationEvidence, followUp, ncuSays, percentText, shareText } from '../ncu-metrics.js';
import { rooflineEvidence } from '../ncu-roofline.js';
import { askDeepDive } from '../deep-dive-request.js';
import { defineRule, type RuleHit } from '../rule.js';

function offChipEvidence(result: Parameters<typeof busiestMemory>[0]): Record<string, number | string> {
  const offChip = busiestMemory(result, ['DRAM', 'L2']);
  return offChip ? { memoryUnit: offChip.unit, memoryPercent: Math.round(offChip.percent * 100) / 100 } : {};
}

export default defineRule({
  meta: {
    id: 'kernel-compute-bound',
    severity: 'info',
    title: 'Kernel is compute-bound',
    stage: 'deep-dive',
    needs: ['kernel-metrics'],
    description: 'Nsight Compute shows the kernel near the SM compute roof while DRAM and L2 throughput are far from theirs (ncu\'s SOLBottleneck verdict first); the advice depends on the kernel\'s family.',
    defaults: { minComputePercent: 60, minLeadPoints: 20, workload: '<workload command>' },
    units: { minComputePercent: 'percent', minLeadPoints: 'percent' },
  },
  check({ profile, options }) {
    const hits: RuleHit[] = [];
    for (const dive of deepDiveKernels(profile.ncu, profile.kernels)) {
      const { kernel, result, launches } = dive;
      const kind = kernelKind(dive.family, kernel);
      if (kind === 'collective') continue;
      const reading = readBound(result, { roofPercent: options.minComputePercent, leadPoints: options.minLeadPoints });
      if (reading?.bound !== 'compute') continue;
      const levels = levelEvidence(result);
      const offChip = [['DRAM', levels['dramPercent']], ['L2', levels['l2Percent']]].filter((e): e is [string, number] => e[1] !== undefined);
      const memoryText = offChip.length ? `, ${offChip.map(([u, p]) => `${u} at ${percentText(p)}`).join(' and ')}` : '';
      const smText = reading.compute !== undefined ? `SM throughput at ${percentText(reading.compute)} of peak` : 'Nsight Compute names compute as the limit';
      hits.push({
        message: `${displayKernel(kernel)}${shareText(dive)} is ${kind === 'copy' ? 'issue-bound (compute side)' : 'compute-bound'}: ${smText}${memoryText}.${reading.why ? ` ${reading.why}.` : ''}`,
        evidence: {
          ...levels,
          ...boundEvidence(reading),
          // The memory side of a compute-bound kernel is off-chip: L1/shared traffic feeds its math.
          ...offChipEvidence(result),
          kernelKind: kind,
          ...breakdownEvidence(dive),
          ...durationEvidence(result),
          launches,
          ...rooflineEvidence(result),
          ...ncuSays(result, ['SOLBottleneck', 'SOLFPRoofline', 'HighPipeUtilization']),
        },
        advice: `${boundAdvice('compute', kind, reading.memoryUnit, dive.family)} Run the command below to see which pipeline and which instructions are the limit.`,
        ...askDeepDive(followUp(dive, ['SpeedOfLight', 'ComputeWorkloadAnalysis', 'InstructionStats', 'SpeedOfLight_RooflineChart']), options.workload),
        kernel,
      });
    }
    return hits;
  },
});
