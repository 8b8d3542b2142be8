/** One kernel takes most of the GPU time: the next step is a deep dive on that kernel alone. */
import { defineRule } from '../rule.js';
import { ms, ncuCommand, percent, round, steadyLaunchSkip } from '../signals.js';

export default defineRule({
  meta: {
    id: 'dominant-kernel',
    severity: 'info',
    title: 'One kernel dominates GPU time',
    stage: 'deep-dive',
    needs: ['kernel-breakdown'],
    description: 'A single kernel takes at least the configured share of GPU kernel time; profile it with Nsight Compute.',
    defaults: { minShare: 0.4, workload: '<workload command>' },
  },
  check({ profile, options }) {
    // Copies are not kernels Nsight Compute can profile.
    const candidates = profile.kernels.filter((k) => k.family !== 'memcpy' && k.family !== 'memset');
    const top = candidates.reduce<(typeof candidates)[number] | undefined>((best, k) => (!best || k.share > best.share ? k : best), undefined);
    if (!top || top.share < options.minShare) return [];
    const launchSkip = steadyLaunchSkip(top.instances);
    return [
      {
        message: `One ${top.family} kernel takes ${percent(top.share)} of GPU kernel time (${top.instances} launches, ${ms(top.totalNs)} ms).`,
        evidence: { share: round(top.share), instances: top.instances, totalMs: ms(top.totalNs), family: top.family, launchSkip },
        advice:
          'Profile one steady-state launch of it with Nsight Compute (clocks left alone): SpeedOfLight says whether it is memory- or compute-bound and how close to peak; Occupancy and LaunchStats say whether the grid fills the GPU.',
        command: ncuCommand(top.name, launchSkip, options.workload),
        kernel: top.name,
      },
    ];
  },
});
