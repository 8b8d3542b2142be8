/**
 * A profiled kernel runs near a memory roof (DRAM, L2 or L1/TEX) while its compute is far below it:
 * it is as fast as the bytes it moves allow. ncu's SOLBottleneck verdict comes first (ncu-bound.ts);
 * the advice depends on what the kernel is (ncu-advice.ts).
 */
import { kernelKind, boundAdvice } from '../ncu-advice.js';
import { boundEvidence, levelEvidence, readBound } from '../ncu-bound.js';
import { breakdownEvidence, deepDiveKernels, displayKernel, dramBytesPerSecond, durationEvidence, followUp, ncuSays, percentText, rateText, shareText } from '../ncu-metrics.js';
import { dramPeakBytesPerSecond, rooflineEvidence } from '../ncu-roofline.js';
import { askDeepDive } from '../deep-dive-request.js';
import { defineRule, type RuleHit } from '../rule.js';

export default defineRule({
  meta: {
    id: 'kernel-memory-bound',
    severity: 'info',
    title: 'Kernel is memory-bound',
    stage: 'deep-dive',
    needs: ['kernel-metrics'],
    description: 'Nsight Compute shows the kernel near a memory throughput roof while compute throughput is far from its own (ncu\'s SOLBottleneck verdict first); speed comes from moving fewer bytes.',
    defaults: { minMemoryPercent: 60, minLeadPoints: 20, workload: '<workload command>' },
    units: { minMemoryPercent: 'percent', minLeadPoints: 'percent' },
  },
  check({ profile, options }) {
    const hits: RuleHit[] = [];
    for (const dive of deepDiveKernels(profile.ncu, profile.kernels)) {
      const { kernel, result, launches } = dive;
      const kind = kernelKind(dive.family, kernel);
      // A collective waits on its peers: one GPU's counters do not say why it is slow.
      if (kind === 'collective') continue;
      const reading = readBound(result, { roofPercent: options.minMemoryPercent, leadPoints: options.minLeadPoints });
      if (reading?.bound !== 'memory') continue;
      const rate = dramBytesPerSecond(result);
      const peak = dramPeakBytesPerSecond(result);
      const levels = levelEvidence(result);
      const unit = reading.memoryUnit ?? 'DRAM';
      const bandwidth = rate !== undefined ? `; DRAM moves ${rateText(rate)}${peak !== undefined ? ` of its ${rateText(peak)} peak` : ''}` : '';
      const where = reading.memoryPercent !== undefined ? `${unit} throughput at ${percentText(reading.memoryPercent)} of peak` : `Nsight Compute names ${unit} as the limit`;
      const dram = levels['dramPercent'];
      hits.push({
        message: `${displayKernel(kernel)}${shareText(dive)} is memory-bound: ${where}${dram !== undefined && unit !== 'DRAM' ? ` (DRAM ${percentText(dram)})` : ''}${bandwidth}${reading.compute !== undefined ? `, compute (SM) at ${percentText(reading.compute)}` : ''}.${reading.why ? ` ${reading.why}.` : ''}`,
        evidence: {
          ...levels,
          ...boundEvidence(reading),
          kernelKind: kind,
          ...(rate !== undefined ? { dramBytesPerSecond: Number(rate.toPrecision(4)) } : {}),
          ...(peak !== undefined ? { dramPeakBytesPerSecond: Number(peak.toPrecision(4)) } : {}),
          ...(rate !== undefined && peak !== undefined ? { dramShareOfPeak: Math.round((rate / peak) * 1e4) / 1e4 } : {}),
          ...breakdownEvidence(dive),
          ...durationEvidence(result),
          launches,
          ...rooflineEvidence(result),
          ...ncuSays(result, ['SOLBottleneck', 'SOLFPRoofline']),
        },
        advice: `${boundAdvice('memory', kind, unit, dive.family)} Run the command below to see which accesses carry the bytes.`,
        ...askDeepDive(followUp(dive, ['SpeedOfLight', 'MemoryWorkloadAnalysis', 'MemoryWorkloadAnalysis_Tables', 'SpeedOfLight_RooflineChart']), options.workload),
        kernel,
      });
    }
    return hits;
  },
});
