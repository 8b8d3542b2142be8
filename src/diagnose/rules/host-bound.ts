/**
 * The GPU mostly waits for the host: launch and sync overhead, Python, or a batch too small to fill it.
 * Three independent measures can say so: sampled utilization (NVML, rocm-smi, MAX GPU stats), the
 * busy fraction of a per-launch trace, and nsys's gpu_time_util analysis.
 */
import { defineRule } from '../rule.js';
import { round } from '../signals.js';

/** A measure at or above this says the GPU was busy; a low reading elsewhere is then a sampling artefact. */
const BUSY_PERCENT = 80;

export default defineRule({
  meta: {
    id: 'host-bound',
    severity: 'warning',
    title: 'Host-bound: the GPU is mostly idle',
    stage: 'utilization',
    description: 'GPU utilization or trace busy time is low, so the host side (launches, syncs, small batch) limits the run and kernel tuning will not help.',
    defaults: { maxMeanUtilPercent: 40, partialMeanUtilPercent: 70, maxBusyFraction: 0.5, maxGpuTimeUtilPercent: 40 },
  },
  check({ profile, options }) {
    const evidence: Record<string, number | string> = {};
    const low: string[] = [];
    const busyReadings: number[] = [];

    const util = profile.utilization;
    if (util) {
      evidence.meanUtilPercent = round(util.meanPercent, 1);
      evidence.peakUtilPercent = round(util.peakPercent, 1);
      evidence.utilSamples = util.sampleCount;
      busyReadings.push(util.meanPercent);
      if (util.meanPercent < options.maxMeanUtilPercent) low.push('utilization');
    }
    const timeline = profile.timeline;
    if (timeline && timeline.spanNs > 0) {
      const busy = timeline.busyNs / (timeline.spanNs * Math.max(1, timeline.devices));
      evidence.busyFraction = round(busy);
      evidence.spanMs = round(timeline.spanNs / 1e6, 3);
      evidence.launchesPerMs = round(timeline.kernelLaunches / (timeline.spanNs / 1e6), 2);
      if (timeline.idleGaps.count > 0) evidence.longestGapMs = round(timeline.idleGaps.longestNs / 1e6, 3);
      busyReadings.push(busy * 100);
      if (busy < options.maxBusyFraction) low.push('timeline');
    }
    if (profile.gpuTimeUtilPercent !== null) {
      evidence.gpuTimeUtilPercent = round(profile.gpuTimeUtilPercent, 1);
      busyReadings.push(profile.gpuTimeUtilPercent);
      if (profile.gpuTimeUtilPercent < options.maxGpuTimeUtilPercent) low.push('gpu-time-util');
    }
    if (busyReadings.length === 0 || busyReadings.some((v) => v >= BUSY_PERCENT)) return [];

    const advice =
      'Cut per-launch host cost before tuning kernels: replay decode steps as CUDA graphs (PyTorch: torch.compile(mode="reduce-overhead") or a static KV cache with CUDA graphs; MAX: keep device-graph capture on, i.e. no --no-device-graph-capture), raise the batch or concurrency, and remove per-step syncs (.item(), .cpu()). To see the host gaps:';
    const command = 'nsys profile --trace=cuda,osrt,nvtx --cuda-graph-trace=node --cpuctxsw=none -o host-gaps <workload>';
    if (low.length > 0) {
      return [
        {
          message: `The GPU is idle most of the time (${low.join(', ')} below threshold): the host limits this run, so kernel findings are secondary.`,
          evidence: { ...evidence, signals: low.join(',') },
          advice,
          command,
        },
      ];
    }
    if (util && util.meanPercent < options.partialMeanUtilPercent) {
      return [
        {
          severity: 'info',
          message: `Mean GPU utilization is ${round(util.meanPercent, 1)}%: partly host-bound (launch/sync overhead or a small batch).`,
          evidence: { ...evidence, signals: 'utilization-moderate' },
          advice,
          command,
        },
      ];
    }
    return [];
  },
});
