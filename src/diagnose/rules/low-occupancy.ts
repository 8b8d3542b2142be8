/**
 * A profiled kernel away from every roof keeps few warps resident: too few to hide memory and
 * instruction latency. The Occupancy section's block limits name what caps it.
 */
import { breakdownEvidence, deepDiveKernels, displayKernel, durationEvidence, shareText, followUp, NCU, ncuSays, ncuValue, percentText, roofPercent } from '../ncu-metrics.js';
import { kernelKind } from '../ncu-advice.js';
import { classifyName } from '../../classify/classify.js';
import { askDeepDive } from '../deep-dive-request.js';
import { defineRule, type RuleHit } from '../rule.js';
import { round } from '../profile-measures.js';

const LIMITS = [
  [NCU.limitRegisters, 'blockLimitRegisters', 'registers'],
  [NCU.limitSharedMem, 'blockLimitSharedMem', 'shared memory'],
  [NCU.limitWarps, 'blockLimitWarps', 'warps per block (block size)'],
  [NCU.limitBlocks, 'blockLimitSm', 'blocks per SM (block too small)'],
] as const;
const BELOW_THEORY = 'achieved below theoretical (load imbalance, a partial last wave, or a grid smaller than the GPU)';
/**
 * A tensor-core matmul or fused-attention kernel holds its tile in registers and shared memory: one
 * or two blocks per SM is its design, and the library chose the tile. Capping registers would spill
 * it; the lever is the tile or the algorithm. (A GEMV streams its weights and has no such tile.)
 */
const TILE_KERNEL =
  'A tiled matmul or attention kernel keeps its tile in registers and shared memory, so one or two blocks per SM is its design, not a fault to fix with register caps. The lever is the tile or algorithm: let the library pick another (cuBLASLt heuristics or autotuning, torch.compile mode="max-autotune", another attention backend), or in Triton try smaller BLOCK sizes or more stages; check too that the kernel is built for this GPU\'s architecture. Run the command below for the warp stall reasons of this launch.';

export default defineRule({
  meta: {
    id: 'low-occupancy',
    severity: 'info',
    title: 'Kernel runs at low occupancy',
    stage: 'deep-dive',
    needs: ['kernel-metrics'],
    description: 'A kernel far from every throughput roof keeps few warps resident (achieved occupancy low, or far below theoretical); the Occupancy block limits name the limiter.',
    defaults: { minAchievedPercent: 25, minAchievedShareOfTheoretical: 0.5, maxThroughputPercent: 60, workload: '<workload command>' },
    units: { minAchievedPercent: 'percent', minAchievedShareOfTheoretical: 'fraction', maxThroughputPercent: 'percent' },
  },
  check({ profile, options }) {
    const hits: RuleHit[] = [];
    for (const dive of deepDiveKernels(profile.ncu, profile.kernels)) {
      const { kernel, result, launches } = dive;
      // Without a breakdown row (an ncu file alone), the family comes from the kernel's own name.
      const family = dive.family ?? classifyName(kernel);
      const kind = kernelKind(family, kernel);
      // A collective waits on its peers: one GPU's counters do not say why it is slow.
      if (kind === 'collective') continue;
      const achieved = ncuValue(result, NCU.achievedOccupancy);
      const theoretical = ncuValue(result, NCU.theoreticalOccupancy);
      if (achieved === undefined) continue;
      // At a throughput roof more warps would not help: big-tile GEMMs run at one block per SM by design.
      if (roofPercent(result) >= options.maxThroughputPercent) continue;
      const share = theoretical ? achieved / theoretical : undefined;
      const fewWarps = achieved < options.minAchievedPercent;
      const belowTheory = share !== undefined && share < options.minAchievedShareOfTheoretical;
      if (!fewWarps && !belowTheory) continue;

      const limits = LIMITS.map(([metric, key, name]) => ({ key, name, blocks: ncuValue(result, metric) })).flatMap((l) => (l.blocks === undefined ? [] : [{ ...l, blocks: l.blocks }]));
      const fewest = limits.length ? Math.min(...limits.map((l) => l.blocks)) : undefined;
      // Resources are the cap when even the theoretical occupancy is low; the fewest resident blocks name them.
      const capped = fewWarps && (theoretical === undefined || theoretical < options.minAchievedPercent);
      const resourceLimit = capped ? limits.filter((l) => l.blocks === fewest).map((l) => l.name) : [];
      const limiter = [resourceLimit.join(' and '), belowTheory || (fewWarps && !capped) ? BELOW_THEORY : ''].filter(Boolean).join('; ') || 'not captured (no Occupancy block limits)';
      const registers = ncuValue(result, NCU.registers);

      hits.push({
        message: `${displayKernel(kernel)}${shareText(dive)} runs at ${percentText(achieved)} achieved occupancy${theoretical !== undefined ? ` (theoretical ${percentText(theoretical)})` : ''}; limited by ${limiter}.`,
        evidence: {
          achievedOccupancyPercent: round(achieved, 2),
          ...(theoretical !== undefined ? { theoreticalOccupancyPercent: round(theoretical, 2) } : {}),
          ...(share !== undefined ? { achievedShareOfTheoretical: round(share) } : {}),
          limiter,
          ...(fewest !== undefined ? { blocksPerSm: fewest } : {}),
          ...Object.fromEntries(limits.map((l) => [l.key, l.blocks])),
          ...(registers !== undefined ? { registersPerThread: registers } : {}),
          ...breakdownEvidence(dive),
          ...durationEvidence(result),
          launches,
          ...ncuSays(result, ['TheoreticalOccupancy', 'AchievedOccupancy']),
        },
        advice: ((kind === 'gemm' && family !== 'gemv') || kind === 'attention') && resourceLimit.some((name) => name === 'registers' || name === 'shared memory')
          ? TILE_KERNEL
          : resourceLimit.includes('registers')
          ? 'Registers cap the resident blocks: cap them (__launch_bounds__, -maxrregcount) or pick a kernel variant with smaller tiles, and check that spills stay at zero. Run the command below for the occupancy limits of this launch.'
          : resourceLimit.includes('shared memory')
            ? 'Shared memory per block caps the resident blocks: smaller tiles or fewer pipeline stages free it. Run the command below for the occupancy limits of this launch.'
            : resourceLimit.length
              ? 'The block size caps the resident warps: change the threads per block. Run the command below for the occupancy limits of this launch.'
              : 'Resources would allow more warps than run: look for imbalance between blocks, a partial last wave or a grid too small for the GPU. Run the command below for the occupancy limits of this launch.',
        ...askDeepDive(followUp(dive, ['Occupancy', 'LaunchStats', 'WarpStateStats']), options.workload),
        kernel,
      });
    }
    return hits;
  },
});
