/**
 * A straggler: one rank of a job computes longer than the others, and at every collective the
 * others wait for it (their extra time shows up as collective time). The comparison is of compute
 * kernel time (collectives left out, since waiting inflates them on the fast ranks) and, where every
 * rank has profiler steps, of the median step.
 */
import { ROCM_SMI_CLOCKS_COMMAND, toolVendor } from '../vendor-tools.js';
import type { Rank } from '../../model/profile.js';
import { defineRule } from '../rule.js';
import { median } from '../../model/averages.js';
import { percent, round, stragglerOf } from '../profile-measures.js';
import type { KernelFamily } from '../../model/family-ids.js';

const labelOf = (rank: Rank) => (rank.rank !== undefined ? `rank ${rank.rank}` : `device ${rank.device ?? 0}`);
const medianStepNs = (rank: Rank): number | undefined => {
  const steps = rank.timeline?.steps ?? [];
  return steps.length ? median(steps.map((s) => s.durNs)) : undefined;
};

/** The family the slow rank spends most extra time on, against the others' median. */
function extraFamily(slow: Rank, others: readonly Rank[]): { family: KernelFamily; extraNs: number } {
  let best: { family: KernelFamily; extraNs: number } = { family: 'other', extraNs: -Infinity };
  for (const entry of slow.families) {
    if (entry.family === 'collective') continue;
    const peer = median(others.map((r) => r.families.find((f) => f.family === entry.family)?.totalNs ?? 0));
    if (entry.totalNs - peer > best.extraNs) best = { family: entry.family, extraNs: entry.totalNs - peer };
  }
  return best;
}

export default defineRule({
  meta: {
    id: 'rank-imbalance',
    severity: 'warning',
    title: 'Rank imbalance: one rank is a straggler',
    stage: 'utilization',
    needs: ['kernel-breakdown'],
    description: "One rank's compute kernel time (or median step) is well above the other ranks' median, so every collective waits for it.",
    defaults: { maxExcess: 0.1 },
    units: { maxExcess: 'ratio' },
  },
  check({ profile, options }) {
    const straggler = stragglerOf(profile);
    if (!straggler) return [];
    const { slow, others, computeExcess, peerComputeNs: peerCompute, slowComputeNs, perStep } = straggler;
    const slowStep = medianStepNs(slow);
    const peerSteps = others.map(medianStepNs);
    const stepExcess = slowStep && peerSteps.every((s) => s !== undefined && s > 0) ? slowStep / median(peerSteps as number[]) - 1 : undefined;
    const excess = Math.max(computeExcess, stepExcess ?? -Infinity);
    if (excess < options.maxExcess) return [];
    const extra = extraFamily(slow, others);
    return [
      {
        message: `Straggler: ${labelOf(slow)} computes ${percent(computeExcess)} longer than the median of the other ${others.length} rank${others.length > 1 ? 's' : ''}${stepExcess !== undefined ? ` (median step ${percent(stepExcess)} longer)` : ''}; most of the extra is ${extra.family} (+${round(extra.extraNs / 1e6, 1)} ms). The other ranks wait for it at every collective.`,
        evidence: {
          slowRank: slow.rank ?? slow.device ?? 0,
          computeExcess: round(computeExcess),
          ...(stepExcess !== undefined ? { stepExcess: round(stepExcess) } : {}),
          slowComputeMs: round(slowComputeNs / 1e6, 3),
          peerComputeMs: round(peerCompute / 1e6, 3),
          extraFamily: extra.family,
          extraMs: round(extra.extraNs / 1e6, 3),
          ranks: others.length + 1,
          perStep,
        },
        advice: `Find why ${labelOf(slow)} does more: uneven data or sequence lengths per rank (balance the sampler or pad/bucket by length), an uneven split of layers or experts, a slower or throttled GPU (compare clocks and temperature per GPU), or another process on that GPU or its CPU cores. Compare the ranks' kernel lists side by side.`,
        command: toolVendor(profile) === 'amd' ? ROCM_SMI_CLOCKS_COMMAND : 'nvidia-smi --query-gpu=index,clocks.sm,temperature.gpu,power.draw,clocks_event_reasons.active --format=csv -l 1',
      },
    ];
  },
});
