/**
 * A profiled kernel is far from every roof: compute and ncu's memory throughput both well below peak
 * (ncu's SOLBottleneck verdict first, ncu-bound.ts). Its time goes to waiting (memory latency,
 * dependencies, too few warps or blocks), not to throughput.
 */
import { kernelKind, boundAdvice } from '../ncu-advice.js';
import { boundEvidence, levelEvidence, readBound } from '../ncu-bound.js';
import { breakdownEvidence, deepDiveKernels, displayKernel, durationEvidence, followUp, gridBlocks, NCU, ncuSays, ncuValue, percentText, shareText, topStall, wavesPerSm } from '../ncu-metrics.js';
import { rooflineEvidence } from '../ncu-roofline.js';
import { askDeepDive } from '../deep-dive-request.js';
import { defineRule, type RuleHit } from '../rule.js';
import { round } from '../profile-measures.js';

/** Below this achieved occupancy the advice points at the occupancy limiter (as low-occupancy does by default). */
const FEW_WARPS_PERCENT = 25;

export default defineRule({
  meta: {
    id: 'kernel-latency-bound',
    severity: 'warning',
    title: 'Kernel is latency-bound',
    stage: 'deep-dive',
    needs: ['kernel-metrics'],
    description: 'Nsight Compute shows both compute and memory throughput far below peak (ncu\'s SOLBottleneck verdict first), so the kernel spends its time waiting; occupancy, grid size and warp stalls say on what.',
    defaults: { maxPercent: 60, workload: '<workload command>' },
    units: { maxPercent: 'percent' },
  },
  check({ profile, options }) {
    const hits: RuleHit[] = [];
    for (const dive of deepDiveKernels(profile.ncu, profile.kernels)) {
      const { kernel, result, launches } = dive;
      const kind = kernelKind(dive.family, kernel);
      if (kind === 'collective') continue;
      const reading = readBound(result, { roofPercent: options.maxPercent, leadPoints: 20 });
      if (reading?.bound !== 'latency') continue;
      const compute = reading.compute;

      const achieved = ncuValue(result, NCU.achievedOccupancy);
      const theoretical = ncuValue(result, NCU.theoreticalOccupancy);
      const waves = wavesPerSm(result);
      const stall = topStall(result);
      const warpCycles = ncuValue(result, NCU.warpCycles);
      const eligible = ncuValue(result, NCU.eligibleWarps);
      const grid = gridBlocks(result);
      const sms = ncuValue(result, NCU.smCount);

      const causes: string[] = [];
      if (waves && waves.waves < 1) causes.push(`the grid fills ${round(waves.waves, 2)} waves, leaving SMs idle (see grid-too-small)`);
      if (achieved !== undefined && achieved < FEW_WARPS_PERCENT) causes.push(`only ${percentText(achieved)} of warp slots are occupied, too few to hide latency (see low-occupancy)`);
      if (stall?.reason === 'long_scoreboard') causes.push('warps mostly wait on global-memory loads: keep more loads in flight (wider vectorized loads, more independent work per thread, asynchronous copies)');
      else if (stall) causes.push(`the top warp stall is ${stall.reason.replace(/_/g, ' ')}`);

      const memoryText = reading.memoryPercent !== undefined ? ` and memory (${reading.memoryUnit}) at ${percentText(reading.memoryPercent)}` : '';
      // A level near its roof that ncu's Memory Throughput headline leaves out is worth saying (a clamp's L2 at 82%).
      const levels = levelEvidence(result);
      const busyLevels = ([['L2', levels['l2Percent']], ['L1/TEX', levels['l1Percent']]] as const).filter(([, p]) => p !== undefined && p >= options.maxPercent).map(([u, p]) => `${u} at ${percentText(p!)}`);
      const busyText = busyLevels.length ? `; ${busyLevels.join(' and ')} is near its own roof, so the memory system is partly busy` : '';
      const family = boundAdvice('latency', kind, reading.memoryUnit, dive.family);
      hits.push({
        message: `${displayKernel(kernel)}${shareText(dive)} is latency-bound: ${compute !== undefined ? `compute (SM) at ${percentText(compute)}${memoryText} of peak, both below ${options.maxPercent}%${busyText}` : 'Nsight Compute finds compute and memory both far from their peaks'}.${reading.why ? ` ${reading.why}.` : ''}`,
        evidence: {
          ...levels,
          ...boundEvidence(reading),
          kernelKind: kind,
          ...(achieved !== undefined ? { achievedOccupancyPercent: round(achieved, 2) } : {}),
          ...(theoretical !== undefined ? { theoreticalOccupancyPercent: round(theoretical, 2) } : {}),
          ...(waves ? { wavesPerSm: round(waves.waves, 3) } : {}),
          ...(grid !== undefined ? { gridBlocks: grid } : {}),
          ...(sms !== undefined ? { smCount: sms } : {}),
          ...(warpCycles !== undefined ? { warpCyclesPerIssuedInstruction: round(warpCycles, 2) } : {}),
          ...(stall ? { topStall: stall.reason, topStallCycles: round(stall.cycles, 2) } : {}),
          ...(eligible !== undefined ? { eligibleWarpsPerScheduler: round(eligible, 3) } : {}),
          ...breakdownEvidence(dive),
          ...durationEvidence(result),
          launches,
          ...rooflineEvidence(result),
          ...ncuSays(result, ['SOLBottleneck', 'CPIStall', 'IssueSlotUtilization']),
        },
        advice: `${causes.length ? `${causes.map((c) => c[0]!.toUpperCase() + c.slice(1)).join('. ')}. ` : ''}${family ? `${family} ` : ''}Run the command below for the warp stall reasons, the scheduler and the occupancy limits of this launch.`,
        ...askDeepDive(followUp(dive, ['SpeedOfLight', 'Occupancy', 'LaunchStats', 'WarpStateStats', 'SchedulerStats']), options.workload),
        kernel,
      });
    }
    return hits;
  },
});
