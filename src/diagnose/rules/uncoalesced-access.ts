/**
 * A profiled kernel's memory accesses are uncoalesced: the threads of a warp touch more sectors (or
 * shared-memory wavefronts) than the bytes they use need, so part of every transfer is wasted.
 * Read from the SourceCounters metrics (excessive vs ideal sectors), else from ncu's own rule rows.
 */
import { breakdownEvidence, deepDiveKernels, displayKernel, durationEvidence, shareText, followUp, NCU, ncuSays, ncuValue, percentText } from '../ncu-metrics.js';
import type { NcuResult } from '../../model/capture.js';
import { kernelKind } from '../ncu-advice.js';
import { askDeepDive } from '../deep-dive-request.js';
import { defineRule, type RuleHit } from '../rule.js';
import { round } from '../profile-measures.js';

interface Excess {
  space: 'global' | 'shared';
  share: number;
  excess?: number;
  ideal?: number;
  source: 'metrics' | 'ncu rule';
}

/** ncu's SourceCounters rule text: "… N excessive sectors (78% of the total M sectors)". */
const RULE_SHARE = /\((\d+(?:\.\d+)?)% of the total/;

function excessOf(result: NcuResult, space: Excess['space']): Excess | undefined {
  const [excessRef, idealRef, rule] =
    space === 'global' ? [NCU.globalExcessSectors, NCU.globalIdealSectors, 'UncoalescedGlobalAccess'] : [NCU.sharedExcessWavefronts, NCU.sharedIdealWavefronts, 'UncoalescedSharedAccess'];
  const excess = ncuValue(result, excessRef);
  const ideal = ncuValue(result, idealRef);
  if (excess !== undefined && ideal !== undefined && excess + ideal > 0) return { space, share: excess / (excess + ideal), excess, ideal, source: 'metrics' };
  const fired = result.rules.find((r) => r.name === rule && RULE_SHARE.test(r.description));
  return fired ? { space, share: Number(RULE_SHARE.exec(fired.description)![1]) / 100, source: 'ncu rule' } : undefined;
}

export default defineRule({
  meta: {
    id: 'uncoalesced-access',
    severity: 'warning',
    title: 'Uncoalesced memory accesses',
    stage: 'deep-dive',
    needs: ['kernel-metrics'],
    description: 'A large share of the sectors (global) or wavefronts (shared) the kernel moves is excess over what its accesses need, a sign of strided or scattered accesses across a warp.',
    defaults: { minExcessShare: 0.25, workload: '<workload command>' },
    units: { minExcessShare: 'fraction' },
  },
  check({ profile, options }) {
    const hits: RuleHit[] = [];
    for (const dive of deepDiveKernels(profile.ncu, profile.kernels)) {
      const { kernel, result, launches } = dive;
      const kind = kernelKind(dive.family, kernel);
      // A collective waits on its peers: one GPU's counters do not say why it is slow.
      if (kind === 'collective') continue;
      const worst = (['global', 'shared'] as const)
        .map((space) => excessOf(result, space))
        .filter((e): e is Excess => e !== undefined && e.share >= options.minExcessShare)
        .sort((a, b) => b.share - a.share)[0];
      if (!worst) continue;
      const bytesPerSector = ncuValue(result, NCU.globalLoadBytesPerSector);
      const unit = worst.space === 'global' ? 'sectors' : 'shared-memory wavefronts';
      hits.push({
        message: `${displayKernel(kernel)}${shareText(dive)}: ${percentText(worst.share * 100)} of its ${worst.space} ${unit} are excess over what its accesses need${worst.source === 'ncu rule' ? ' (as Nsight Compute reports it)' : ''}${worst.space === 'global' && bytesPerSector !== undefined ? `; global loads use ${round(bytesPerSector, 1)} of the 32 bytes of each sector` : ''}.`,
        evidence: {
          space: worst.space,
          excessShare: round(worst.share),
          source: worst.source,
          ...(worst.excess !== undefined ? { excess: worst.excess } : {}),
          ...(worst.ideal !== undefined ? { ideal: worst.ideal } : {}),
          ...(bytesPerSector !== undefined ? { globalLoadBytesPerSector: round(bytesPerSector, 2) } : {}),
          ...breakdownEvidence(dive),
          ...durationEvidence(result),
          launches,
          ...ncuSays(result, worst.space === 'global' ? ['UncoalescedGlobalAccess', 'MemoryCacheAccessPattern'] : ['UncoalescedSharedAccess', 'SharedMemoryConflicts']),
        },
        advice:
          worst.space === 'global' && kind === 'copy'
            ? 'A strided copy (a transpose or permute made contiguous) reads across rows, so most of each sector is wasted. The fix is the copy itself: keep the layout the consumer reads, use native GQA instead of repeat_kv, or fuse the permute into the consumer; where the copy must stay, transpose through shared memory so both sides are coalesced. Run the command below; the report\'s source page names the offending loads.'
            : worst.space === 'global'
            ? 'Make consecutive threads touch consecutive addresses: transpose through shared memory, change the data layout, or vectorize along the contiguous dimension. Build with -lineinfo and run the command below; the report\'s source page names the offending loads.'
            : 'Shared-memory bank conflicts: pad or swizzle the shared tile so a warp hits distinct banks. Build with -lineinfo and run the command below; the report\'s source page names the offending instructions.',
        ...askDeepDive(followUp(dive, ['MemoryWorkloadAnalysis_Tables', 'SourceCounters']), options.workload),
        kernel,
      });
    }
    return hits;
  },
});
