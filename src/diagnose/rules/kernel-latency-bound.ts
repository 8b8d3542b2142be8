/**
 * A profiled kernel is far from every roof: compute and ncu's memory throughput both well below peak.
 * Its time goes to waiting (memory latency, dependencies, too few warps or blocks), not to throughput.
 */
import { deepDiveCommand, deepDiveKernels, displayKernel, durationEvidence, gridBlocks, launchesInProfile, memoryThroughput, NCU, ncuSays, ncuValue, percentText, topStall, wavesPerSm } from '../ncu-metrics.js';
import { rooflineEvidence } from '../ncu-roofline.js';
import { defineRule, type RuleHit } from '../rule.js';
import { round } from '../signals.js';

/** Below this achieved occupancy the advice points at the occupancy limiter (as low-occupancy does by default). */
const FEW_WARPS_PERCENT = 25;

export default defineRule({
  meta: {
    id: 'kernel-latency-bound',
    severity: 'warning',
    title: 'Kernel is latency-bound',
    stage: 'deep-dive',
    needs: ['kernel-metrics'],
    description: 'Nsight Compute shows both compute and memory throughput far below peak, so the kernel spends its time waiting; occupancy, grid size and warp stalls say on what.',
    defaults: { maxPercent: 60, workload: '<workload command>' },
  },
  check({ profile, options }) {
    const hits: RuleHit[] = [];
    for (const { kernel, result, launches } of deepDiveKernels(profile.ncu)) {
      const compute = ncuValue(result, NCU.compute);
      const memorySide = memoryThroughput(result);
      if (compute === undefined || !memorySide) continue;
      const memory = memorySide.percent;
      if (compute >= options.maxPercent || memory >= options.maxPercent) continue;

      const achieved = ncuValue(result, NCU.achievedOccupancy);
      const theoretical = ncuValue(result, NCU.theoreticalOccupancy);
      const waves = wavesPerSm(result);
      const stall = topStall(result);
      const warpCycles = ncuValue(result, NCU.warpCycles);
      const eligible = ncuValue(result, NCU.eligibleWarps);
      const grid = gridBlocks(result);
      const sms = ncuValue(result, NCU.smCount);

      const causes: string[] = [];
      if (waves && waves.waves < 1) causes.push(`the grid fills ${round(waves.waves, 2)} waves, leaving SMs idle (see grid-too-small): more blocks through split-K or smaller tiles, or fusing it with its neighbours`);
      if (achieved !== undefined && achieved < FEW_WARPS_PERCENT) causes.push(`only ${percentText(achieved)} of warp slots are occupied, too few to hide latency (see low-occupancy)`);
      if (stall?.reason === 'long_scoreboard') causes.push('warps mostly wait on global-memory loads: keep more loads in flight (wider vectorized loads, more independent work per thread, asynchronous copies)');
      else if (stall) causes.push(`the top warp stall is ${stall.reason.replace(/_/g, ' ')}`);

      hits.push({
        message: `${displayKernel(kernel)} is latency-bound: compute (SM) at ${percentText(compute)} and memory (${memorySide.unit}) at ${percentText(memory)} of peak, both below ${options.maxPercent}%.`,
        evidence: {
          computePercent: round(compute, 2),
          memoryUnit: memorySide.unit,
          memoryPercent: round(memory, 2),
          ...(achieved !== undefined ? { achievedOccupancyPercent: round(achieved, 2) } : {}),
          ...(theoretical !== undefined ? { theoreticalOccupancyPercent: round(theoretical, 2) } : {}),
          ...(waves ? { wavesPerSm: round(waves.waves, 3) } : {}),
          ...(grid !== undefined ? { gridBlocks: grid } : {}),
          ...(sms !== undefined ? { smCount: sms } : {}),
          ...(warpCycles !== undefined ? { warpCyclesPerIssuedInstruction: round(warpCycles, 2) } : {}),
          ...(stall ? { topStall: stall.reason, topStallCycles: round(stall.cycles, 2) } : {}),
          ...(eligible !== undefined ? { eligibleWarpsPerScheduler: round(eligible, 3) } : {}),
          ...durationEvidence(result),
          launches,
          ...rooflineEvidence(result),
          ...ncuSays(result, ['SOLBottleneck', 'CPIStall', 'IssueSlotUtilization']),
        },
        advice: `${causes.length ? `${causes.map((c) => c[0]!.toUpperCase() + c.slice(1)).join('. ')}. ` : ''}Run the command below for the warp stall reasons, the scheduler and the occupancy limits of this launch.`,
        command: deepDiveCommand(kernel, launchesInProfile(profile.kernels, kernel), ['SpeedOfLight', 'Occupancy', 'LaunchStats', 'WarpStateStats', 'SchedulerStats'], options.workload),
        kernel,
      });
    }
    return hits;
  },
});
