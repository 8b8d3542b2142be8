/**
 * A profiled kernel's grid is smaller than one wave: fewer blocks than the GPU can hold at once, so
 * SMs sit idle for the whole launch. Typical for batch-1 decode GEMVs and attention on big GPUs.
 */
import { deepDiveCommand, deepDiveKernels, displayKernel, durationEvidence, gridBlocks, launchesInProfile, memoryThroughput, NCU, ncuSays, ncuValue, percentText, wavesPerSm } from '../ncu-metrics.js';
import { defineRule, type RuleHit } from '../rule.js';
import { round } from '../signals.js';

/** ncu's own verdicts on a small grid (SOLBottleneck, LaunchConfiguration). */
const NCU_SMALL_GRID = /grid is too small|less than the GPU's \d+ multiprocessors/;

export default defineRule({
  meta: {
    id: 'grid-too-small',
    severity: 'warning',
    title: 'Grid too small to fill the GPU',
    stage: 'deep-dive',
    needs: ['kernel-metrics'],
    description: 'The kernel launches fewer blocks than one wave across the SMs (waves per SM below the threshold), so part of the GPU idles for the whole launch.',
    defaults: { maxWaves: 1, roofPercent: 60, workload: '<workload command>' },
  },
  check({ profile, options }) {
    const hits: RuleHit[] = [];
    for (const { kernel, result, launches } of deepDiveKernels(profile.ncu)) {
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
          ? `${displayKernel(kernel)}: ${shape} make ${round(waves.waves, 2)} waves${idleSms !== undefined ? `, so ${idleSms} SMs get no block` : ''}${atRoof ? `; it still reaches ${percentText(Math.max(compute, memory))} of a roof, so the gain is bounded` : ''}.`
          : `${displayKernel(kernel)}: Nsight Compute reports the grid (${shape}) as too small to fill the GPU; the capture has no Launch Statistics to count the waves.`,
        evidence: {
          ...(waves ? { wavesPerSm: round(waves.waves, 3), wavesSource: waves.source } : { wavesSource: 'ncu rule' }),
          ...(grid !== undefined ? { gridBlocks: grid } : {}),
          ...(block !== undefined ? { blockThreads: block } : {}),
          ...(sms !== undefined ? { smCount: sms } : {}),
          ...(idleSms !== undefined ? { idleSms } : {}),
          computePercent: round(compute, 2),
          memoryPercent: round(memory, 2),
          ...durationEvidence(result),
          launches,
          ...ncu,
        },
        severity: atRoof ? 'info' : 'warning',
        advice:
          'Give the GPU more blocks: a split-K or stream-K variant of a GEMV/GEMM, smaller tiles, more tokens per launch (batching), or independent kernels on concurrent streams. Run the command below for the launch shape and the occupancy limits.',
        command: deepDiveCommand(kernel, launchesInProfile(profile.kernels, kernel), ['SpeedOfLight', 'LaunchStats', 'Occupancy'], options.workload),
        kernel,
      });
    }
    return hits;
  },
});
