/**
 * A profiled kernel's grid is smaller than one wave: fewer blocks than the GPU can hold at once, so
 * SMs sit idle for the whole launch. Typical for batch-1 decode GEMVs and attention on big GPUs.
 */
import { breakdownEvidence, deepDiveKernels, displayKernel, durationEvidence, shareText, gridBlocks, followUp, memoryThroughput, NCU, ncuSays, ncuValue, percentText, wavesPerSm } from '../ncu-metrics.js';
import { kernelKind } from '../ncu-advice.js';
import { askDeepDive } from '../deep-dive-request.js';
import { defineRule, type RuleHit } from '../rule.js';
import { round } from '../profile-measures.js';

/** ncu's own verdicts on a small grid (SOLBottleneck, LaunchConfiguration). */
const NCU_SMALL_GRID = /grid is too small|less than the GPU's \d+ multiprocessors/;

/** How each kind of kernel gets more blocks. */
const GRID_ADVICE: Partial<Record<ReturnType<typeof kernelKind>, string>> = {
  gemm: 'Give the GPU more blocks: a split-K or stream-K variant of the GEMV/GEMM, a smaller tile, or more tokens per launch (batching).',
  attention: 'Give the GPU more blocks: a split-KV (flash-decoding) kernel spreads each sequence over several blocks; more sequences per launch (batching) adds more.',
  copy: 'A copy this small is mostly launch cost: avoid it (the layout its consumer reads, native GQA instead of repeat_kv) or fuse it into its neighbour.',
  elementwise: 'An elementwise kernel this small is mostly launch cost: fuse it with its neighbours (torch.compile) or capture the step in a CUDA graph.',
  reduction: 'Give the GPU more blocks: split each row over several blocks, or fuse the reduction into its producer.',
  other: 'Give the GPU more blocks: smaller work per block, more work per launch (batching), or independent kernels on concurrent streams.',
};

export default defineRule({
  meta: {
    id: 'grid-too-small',
    severity: 'warning',
    title: 'Grid too small to fill the GPU',
    stage: 'deep-dive',
    needs: ['kernel-metrics'],
    description: 'The kernel launches fewer blocks than one wave across the SMs (waves per SM below the threshold), so part of the GPU idles for the whole launch.',
    defaults: { maxWaves: 1, roofPercent: 60, workload: '<workload command>' },
    units: { maxWaves: 'ratio', roofPercent: 'percent' },
  },
  check({ profile, options }) {
    const hits: RuleHit[] = [];
    for (const dive of deepDiveKernels(profile.ncu, profile.kernels)) {
      const { kernel, result, launches } = dive;
      const kind = kernelKind(dive.family, kernel);
      // A collective waits on its peers: one GPU's counters do not say why it is slow.
      if (kind === 'collective') continue;
      const waves = wavesPerSm(result);
      const ncu = ncuSays(result, ['SOLBottleneck', 'LaunchConfiguration'], NCU_SMALL_GRID);
      // Without waves (no LaunchStats section and no SM count) only Nsight Compute's own rule can say so.
      if (waves ? waves.waves >= options.maxWaves : !ncu.ncuRule) continue;
      const grid = gridBlocks(result);
      const sms = ncuValue(result, NCU.smCount);
      const block = ncuValue(result, NCU.block);
      const compute = ncuValue(result, NCU.compute) ?? 0;
      const memory = memoryThroughput(result)?.percent ?? 0;
      const atRoof = Math.max(compute, memory) >= options.roofPercent;
      const idleSms = grid !== undefined && sms !== undefined && grid < sms ? sms - grid : undefined;
      const shape = `${grid !== undefined ? `${grid} blocks` : 'the grid'}${sms !== undefined ? ` on ${sms} SMs` : ''}`;
      hits.push({
        message: waves
          ? `${displayKernel(kernel)}${shareText(dive)}: ${shape} make ${round(waves.waves, 2)} waves${idleSms !== undefined ? `, so ${idleSms} SMs get no block` : ''}${atRoof ? `; it still reaches ${percentText(Math.max(compute, memory))} of a roof, so the gain is bounded` : ''}.`
          : `${displayKernel(kernel)}${shareText(dive)}: Nsight Compute reports the grid (${shape}) as too small to fill the GPU; the capture has no Launch Statistics to count the waves.`,
        evidence: {
          ...(waves ? { wavesPerSm: round(waves.waves, 3), wavesSource: waves.source } : { wavesSource: 'ncu rule' }),
          ...(grid !== undefined ? { gridBlocks: grid } : {}),
          ...(block !== undefined ? { blockThreads: block } : {}),
          ...(sms !== undefined ? { smCount: sms } : {}),
          ...(idleSms !== undefined ? { idleSms } : {}),
          computePercent: round(compute, 2),
          memoryPercent: round(memory, 2),
          ...breakdownEvidence(dive),
          ...durationEvidence(result),
          launches,
          ...ncu,
        },
        severity: atRoof ? 'info' : 'warning',
        advice: `${GRID_ADVICE[kind] ?? GRID_ADVICE['other']} Run the command below for the launch shape and the occupancy limits.`,
        ...askDeepDive(followUp(dive, ['SpeedOfLight', 'LaunchStats', 'Occupancy']), options.workload),
        kernel,
      });
    }
    return hits;
  },
});
