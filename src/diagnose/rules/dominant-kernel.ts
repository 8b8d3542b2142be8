/**
 * One kernel takes most of the GPU time: the next step is a deep dive on that kernel alone. The
 * finding carries the request as data (kernel key, launch skip, sections); `profile-gate run` runs
 * it, and its command shows it. A collective gets no deep dive: it waits on its peers.
 */
import { askDeepDive, deepDiveRequest } from '../deep-dive-request.js';
import { defineRule } from '../rule.js';
import { launchOrigin, ms, percent, pythonSiteText, round } from '../profile-measures.js';
import { rocprofComputeCommand, toolVendor } from '../vendor-tools.js';

export default defineRule({
  meta: {
    id: 'dominant-kernel',
    severity: 'info',
    title: 'One kernel dominates GPU time',
    stage: 'deep-dive',
    needs: ['kernel-breakdown'],
    description: 'A single kernel takes at least the configured share of GPU kernel time; profile it with Nsight Compute, or ROCm Compute Profiler on an AMD capture (a collective instead gets the questions communication raises).',
    defaults: { minShare: 0.4, workload: '<workload command>' },
    units: { minShare: 'fraction' },
  },
  check({ profile, options }) {
    // Copies are not kernels Nsight Compute can profile.
    const candidates = profile.kernels.filter((k) => k.family !== 'memcpy' && k.family !== 'memset');
    const top = candidates.reduce<(typeof candidates)[number] | undefined>((best, k) => (!best || k.share > best.share ? k : best), undefined);
    if (!top || top.share < options.minShare) return [];
    const site = top.pythonSites?.[0];
    const evidence = {
      share: round(top.share),
      instances: top.instances,
      totalMs: ms(top.totalNs),
      family: top.family,
      ...(site ? { pythonSite: pythonSiteText(site).replace(/`/g, ''), pythonSiteShare: site.share } : {}),
    };
    // Only where the trace holds Python stacks: the op chain alone was never part of this finding.
    const origin = site ? launchOrigin(top) : '';
    if (top.family === 'collective') {
      return [
        {
          message: `One collective takes ${percent(top.share)} of GPU kernel time (${top.instances} launches, ${ms(top.totalNs)} ms)${origin}.`,
          evidence,
          advice:
            'A collective waits on its peers, so one GPU\'s counters (Nsight Compute) do not say why it is slow. Ask instead whether it overlaps with compute, whether its messages are large enough (bucket sizes), and what the interconnect delivers (nccl-tests on the same GPUs); a timeline of all ranks (Nsight Systems) shows the waiting.',
          kernel: top.name,
        },
      ];
    }
    if (toolVendor(profile) === 'amd') {
      // Nsight Compute does not profile AMD GPUs: ROCm Compute Profiler (rocprof-compute, formerly Omniperf) does.
      return [
        {
          message: `One ${top.family} kernel takes ${percent(top.share)} of GPU kernel time (${top.instances} launches, ${ms(top.totalNs)} ms)${origin}.`,
          evidence,
          advice:
            'Profile it with ROCm Compute Profiler (rocprof-compute, formerly Omniperf): its System Speed-of-Light panel says whether it is memory- or compute-bound and how close to peak, the roofline where it sits, and the wavefront and occupancy panels whether the grid fills the GPU. Add `-d <dispatch>` to keep one steady-state launch.',
          command: rocprofComputeCommand(top.name, options.workload),
          kernel: top.name,
        },
      ];
    }
    const request = deepDiveRequest(top.name, top.instances);
    return [
      {
        message: `One ${top.family} kernel takes ${percent(top.share)} of GPU kernel time (${top.instances} launches, ${ms(top.totalNs)} ms)${origin}.`,
        evidence: { ...evidence, launchSkip: request.launchSkip },
        advice:
          'Profile one steady-state launch of it with Nsight Compute (clocks left alone): SpeedOfLight says whether it is memory- or compute-bound and how close to peak; Occupancy and LaunchStats say whether the grid fills the GPU.',
        ...askDeepDive(request, options.workload),
        kernel: top.name,
      },
    ];
  },
});
