/**
 * The GPU mostly waits for the host: launch and sync overhead, Python, data loading, or a batch too
 * small to fill it. Only readings from the steady window can say so: the busy fraction of the
 * profiled capture's own timeline (gaps that are not the workload left out), the profiler's
 * GPU-in-use analysis over its capture range, or utilization sampled inside the workload's timed
 * runs. Whole-process samples, start-up and compile included, only hint at it, and say so.
 */
import { ROCPROF_TIMELINE_COMMAND, toolVendor } from '../vendor-tools.js';
import type { Profile } from '../../model/profile.js';
import { defineRule } from '../rule.js';
import { stepsWithoutForwards } from '../decode-steps.js';
import { busyReadings as readings, familyTotals, round, type BusyReading } from '../profile-measures.js';

/** A steady reading at or above this says the GPU was busy; a low reading elsewhere is then an artefact of its window. */
const BUSY_PERCENT = 80;
/** Whole-process samples per device below this many say nothing either way. */
const MIN_WHOLE_PROCESS_SAMPLES = 3;
/** Host-side waits on the GPU above this share of CUDA API time mean the host was waiting, not the GPU. */
const SYNC_API_SHARE = 0.5;
/**
 * Above this share of kernel time in collectives, a low reading without a timeline may be the
 * peers' time, not the host's (communication-bound). A timeline tells them apart: a collective that
 * waits on its peers runs as a kernel, so the GPU is busy; idle time is the host's.
 */
const COLLECTIVE_SHARE = 0.2;

const SYNC_CALL = /^(?:cuda|hip)(?:DeviceSynchronize|StreamSynchronize|EventSynchronize|StreamWaitEvent)/;
const TRAINING_KERNEL = /backward|_bwd|bwd_|dgrad|wgrad|Backward|multi_tensor_apply|adam|sgd_/i;

function syncShare(profile: Profile): number | undefined {
  const total = profile.apiCalls.reduce((sum, call) => sum + call.totalNs, 0);
  if (total <= 0) return undefined;
  const sync = profile.apiCalls.filter((call) => SYNC_CALL.test(call.name)).reduce((sum, call) => sum + call.totalNs, 0);
  return sync / total;
}

function adviceFor(profile: Profile): { advice: string; command: string } {
  const training = profile.kernels.some((k) => TRAINING_KERNEL.test(k.name));
  const decode = familyTotals(profile, ['gemv', 'gemm-decode']).share >= 0.2 || profile.metrics.some((m) => m.name === 'decode_tok_s');
  const memcpy = profile.memops.filter((m) => m.kind.startsWith('memcpy')).reduce((sum, m) => sum + (m.totalNs ?? 0), 0);
  const copies = memcpy > profile.totalKernelNs && memcpy > 0 ? ' Host↔device copies take longer than the kernels here: see transfer-bound.' : '';
  const command = toolVendor(profile) === 'amd' ? ROCPROF_TIMELINE_COMMAND : 'nsys profile --trace=cuda,osrt,nvtx --cuda-graph-trace=node --cpuctxsw=none -o host-gaps <workload>';
  if (training) {
    return {
      advice: `Find what the host does between steps: the input pipeline (DataLoader workers, pinned memory, prefetch), per-step synchronizations (.item(), logging, .cpu()), and optimizer steps launched kernel by kernel (fused/foreach optimizers, CUDA graphs for the step).${copies} To see the host gaps:`,
      command,
    };
  }
  if (decode) {
    return {
      advice: `Cut per-launch host cost before tuning kernels: replay decode steps as CUDA graphs (PyTorch: torch.compile(mode="reduce-overhead") or a static KV cache with CUDA graphs; MAX: keep device-graph capture on, i.e. no --no-device-graph-capture), raise the batch or concurrency, and remove per-step syncs (.item(), .cpu()).${copies} To see the host gaps:`,
      command,
    };
  }
  return {
    advice: `Find what the host does between launches: Python overhead per launch, synchronizations, data preparation, or work too small per launch to fill the GPU (batch more, fuse, or capture the loop as a CUDA graph).${copies} To see the host gaps:`,
    command,
  };
}

export default defineRule({
  meta: {
    id: 'host-bound',
    severity: 'warning',
    title: 'Host-bound: the GPU is mostly idle',
    stage: 'utilization',
    explainsRun: true,
    needs: [['timeline', 'utilization']],
    description:
      'Over the steady window (the capture\'s own timeline, the profiler\'s GPU-in-use analysis, or samples inside the timed runs) the GPU is mostly idle, so the host side limits the run and kernel tuning will not help.',
    defaults: { maxMeanUtilPercent: 40, partialMeanUtilPercent: 70, maxBusyFraction: 0.5, maxGpuTimeUtilPercent: 40 },
    units: { maxMeanUtilPercent: 'percent', partialMeanUtilPercent: 'percent', maxBusyFraction: 'fraction', maxGpuTimeUtilPercent: 'percent' },
  },
  check({ profile, options, note }) {
    const found = readings(profile);
    const steady = found.filter((r) => r.steady);
    const evidence: Record<string, number | string> = {};
    for (const reading of found) {
      if (reading.signal === 'timeline') evidence.busyFraction = round(reading.percent / 100);
      if (reading.signal === 'gpu-time-util') evidence.gpuTimeUtilPercent = round(reading.percent, 1);
      if (reading.signal === 'utilization') evidence.meanUtilPercent = round(reading.percent, 1);
    }
    const util = profile.utilization;
    if (util) {
      evidence.peakUtilPercent = round(util.peakPercent, 1);
      evidence.utilSamples = util.sampleCount;
      evidence.utilWindow = util.window;
    }
    const timeline = profile.timeline;
    if (timeline && timeline.spanNs > 0) {
      const span = timeline.activeSpanNs ?? timeline.spanNs;
      evidence.spanMs = round(span / 1e6, 3);
      evidence.launchesPerMs = round(timeline.kernelLaunches / Math.max(span / 1e6, 1e-9), 2);
      if (timeline.idleGaps.count > 0) evidence.longestGapMs = round(timeline.idleGaps.longestNs / 1e6, 3);
      const excluded = timeline.excludedGaps ?? [];
      if (excluded.length > 0) {
        evidence.excludedGaps = excluded.length;
        evidence.excludedGapMs = round(excluded.reduce((sum, g) => sum + g.durNs, 0) / 1e6, 3);
      }
    }
    // The GPU was busy in some window: a low reading elsewhere comes from start-up, compile or idle tails.
    if (found.some((r) => r.steady && r.percent >= BUSY_PERCENT)) return [];
    const missing = stepsWithoutForwards(profile);
    if (missing) {
      note(
        `not established: the window holds ${missing.steps} decode steps but only ${missing.linearLaunches} linear-layer launches, so the steps' forward passes are not in the capture (CUDA graphs traced at graph level) and its busy time leaves them out`,
      );
      return [];
    }
    const collectives = familyTotals(profile, ['collective']).share;
    const idleOnTimeline = found.some((r) => r.signal === 'timeline' && r.percent < options.maxBusyFraction * 100);
    if (collectives >= COLLECTIVE_SHARE && !idleOnTimeline) return [];

    const { advice, command } = adviceFor(profile);
    const threshold = (r: BusyReading): number =>
      r.signal === 'timeline' ? options.maxBusyFraction * 100 : r.signal === 'gpu-time-util' ? options.maxGpuTimeUtilPercent : options.maxMeanUtilPercent;
    if (steady.length > 0) {
      const low = steady.filter((r) => r.percent < threshold(r)).map((r) => r.signal);
      if (low.length > 0) {
        return [
          {
            message: `The GPU is idle most of the steady window (${low.join(', ')} below threshold): the host limits this run, so kernel findings are secondary.`,
            evidence: { ...evidence, signals: low.join(',') },
            advice,
            command,
          },
        ];
      }
      const partial = steady.find((r) => r.percent < options.partialMeanUtilPercent);
      if (!partial) return [];
      return [
        {
          severity: 'info',
          message: `The GPU is busy ${round(partial.percent, 1)}% of the steady window (${partial.signal}): partly host-bound (launch or sync overhead, or a small batch).`,
          evidence: { ...evidence, signals: `${partial.signal}-moderate` },
          advice,
          command,
        },
      ];
    }

    // Only whole-process samples: start-up, model load and compile are in them. A hint at most,
    // and none from a snapshot (one sample of each of 8 GPUs is still one moment).
    const perDevice = util ? util.sampleCount / Math.max(1, util.devices) : 0;
    if (!util || perDevice < MIN_WHOLE_PROCESS_SAMPLES || util.meanPercent >= options.partialMeanUtilPercent) return [];
    const sync = syncShare(profile);
    if (sync !== undefined && sync >= SYNC_API_SHARE) return []; // the host spent its time waiting for the GPU
    // A statement about the evidence, not about the run: a note on the report, not a finding.
    note(
      `not established: utilization sampled over whole processes averages ${round(util.meanPercent, 1)}% (${util.sampleCount} samples, start-up included), which does not show the steady loop. To decide, have the workload print {"kind":"run","tok_s":…,"t_start":…,"t_end":…} per timed run (utilization is then read inside those windows), or profile a capture range around steady steps.`,
    );
    return [];
  },
});
