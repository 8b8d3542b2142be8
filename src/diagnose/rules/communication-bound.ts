/**
 * Collectives (NCCL/RCCL all-reduce, all-gather, send/recv, custom all-reduce) that no compute
 * overlaps sit on the critical path: every rank waits for the slowest link. The measure is the
 * exposed collective time of a per-launch trace (collective time with no compute kernel running on
 * the same device), as a share of the active span, for each rank. A kernel summary alone (no
 * timeline) shows how much time collectives take but not whether it is hidden: that is info only.
 */
import type { Profile, Rank } from '../../model/profile.js';
import type { RuleHit } from '../rule.js';
import { defineRule } from '../rule.js';
import { percent, round, stragglerOf } from '../profile-measures.js';
import type { KernelFamily } from '../../model/family-ids.js';

/** Kernels that only a backward pass or an optimizer step launches: the run is training. */
const TRAINING_KERNEL = /backward|_bwd|bwd_|dgrad|wgrad|multi_tensor_apply|adam|_sgd_/i;
/** A straggler computing this much longer than its peers explains part of their exposed time. */
const STRAGGLER_EXCESS = 0.1;
/** Below this busy share of the active span, the idle rest is named too. */
const IDLE_NOTE_BUSY = 0.8;
/**
 * Below this busy share of the active span the GPU is idle most of the time, and idle time is the
 * host's (a collective waiting on its peers runs as a kernel: busy, not idle). Where that idle time
 * outweighs the exposed collective time, the hosts set the pace and the collectives wait on them:
 * host-bound, with the communication share as info.
 */
const HOST_LIMITED_BUSY = 0.5;
/** Families only serving and generation have. */
const INFERENCE_FAMILIES: readonly KernelFamily[] = ['kv-cache', 'sampling', 'gemm-decode'];

type Workload = 'training' | 'inference' | 'unknown';

function workloadOf(profile: Profile): Workload {
  if (profile.kernels.some((k) => TRAINING_KERNEL.test(k.name))) return 'training';
  if (profile.families.some((f) => INFERENCE_FAMILIES.includes(f.family)) || (profile.timeline?.graphLaunches ?? 0) > 0) return 'inference';
  return 'unknown';
}

const ADVICE: Record<Workload, string> = {
  training:
    'Training: gradients should be reduced while backward still runs. Check that the all-reduce overlaps backward compute (DDP reduces each bucket as soon as its gradients are ready; an explicit sync, find_unused_parameters=True or a hook that waits serializes it), tune the bucket size (DDP bucket_cap_mb, default 25: larger buckets mean fewer, more efficient collectives, smaller ones start earlier), consider gradient accumulation (no_sync) to reduce less often, and for FSDP enable forward/backward prefetch. Then check the interconnect: NCCL over PCIe or the network instead of NVLink/xGMI multiplies the time.',
  inference:
    'Inference: the tensor-parallel all-reduce after attention and after the MLP is on the critical path of every layer. If the model fits, a lower TP degree (or data-parallel replicas) removes it; keep the custom all-reduce on for small messages (vLLM: do not set disable_custom_all_reduce; CUDA graphs capture it), use a fused all-reduce + norm where the engine has one, and overlap communication with compute (sequence parallel / async TP). Check that the GPUs talk over NVLink/xGMI, not PCIe.',
  unknown:
    'For training, overlap the gradient all-reduce with backward and tune the bucket size (DDP bucket_cap_mb); for tensor-parallel inference, weigh a lower TP degree, the custom all-reduce for small messages and compute/communication overlap. In both, check that the GPUs talk over NVLink/xGMI, not PCIe or the network.',
};

interface Subject {
  label: string;
  rank?: number;
  rankEntry?: Rank;
  totalKernelNs: number;
  collectiveNs: number;
  collectiveLaunches: number;
  timeline: Profile['timeline'];
}

function collectiveOf(families: Profile['families'] | Rank['families']): { ns: number; instances: number } {
  const entry = families.find((f) => f.family === 'collective');
  return { ns: entry?.totalNs ?? 0, instances: entry?.instances ?? 0 };
}

/** Each rank with its own numbers; the whole profile when it has no ranks. */
function subjectsOf(profile: Profile): Subject[] {
  const ranks = profile.ranks.filter((r) => r.totalKernelNs > 0);
  if (ranks.length > 0) {
    return ranks.map((r) => {
      const c = collectiveOf(r.families);
      const label = r.rank !== undefined ? `rank ${r.rank}` : `device ${r.device ?? 0}`;
      return { label, rankEntry: r, ...(r.rank !== undefined ? { rank: r.rank } : {}), totalKernelNs: r.totalKernelNs, collectiveNs: c.ns, collectiveLaunches: c.instances, timeline: r.timeline };
    });
  }
  const c = collectiveOf(profile.families);
  return [{ label: 'the run', totalKernelNs: profile.totalKernelNs, collectiveNs: c.ns, collectiveLaunches: c.instances, timeline: profile.timeline }];
}

export default defineRule({
  meta: {
    id: 'communication-bound',
    severity: 'warning',
    title: 'Communication-bound: collectives no compute overlaps',
    stage: 'utilization',
    explainsRun: true,
    needs: ['kernel-breakdown'],
    description: 'Collective kernels (NCCL/RCCL, custom all-reduce) that no compute overlaps take a large share of the active span on some rank; smaller shares are reported as info.',
    defaults: { minCollectiveShare: 0.05, maxExposedShare: 0.15, minCollectiveLaunches: 10 },
    units: { minCollectiveShare: 'fraction', maxExposedShare: 'fraction', minCollectiveLaunches: 'count' },
  },
  check({ profile, options, note }) {
    const subjects = subjectsOf(profile).filter((s) => s.totalKernelNs > 0 && s.collectiveNs / s.totalKernelNs >= options.minCollectiveShare);
    if (subjects.length === 0) return [];
    const workload = workloadOf(profile);
    const measured = subjects.filter((s) => s.timeline?.communication && s.timeline.activeSpanNs > 0);

    if (measured.length === 0) {
      // No per-launch timeline: the share of kernel time is known, its overlap is not. A note on the
      // evidence (the share is in the family table), not a finding.
      const top = subjects.reduce((a, b) => (b.collectiveNs / b.totalKernelNs > a.collectiveNs / a.totalKernelNs ? b : a));
      const share = top.collectiveNs / top.totalKernelNs;
      note(
        `not established: collectives take ${percent(share)} of kernel time${top.label === 'the run' ? '' : ` on ${top.label}`} (${top.collectiveLaunches} launches), but how much of it compute hides is not in this capture (no per-launch timeline); a PyTorch profiler or rocprofv3 kernel trace shows whether the collectives overlap compute.`,
      );
      return [];
    }

    const read = measured.map((s) => {
      const timeline = s.timeline!;
      const comm = timeline.communication!;
      const exposedShare = comm.exposedNs / (timeline.activeSpanNs * Math.max(1, timeline.devices));
      return { subject: s, exposedShare, comm, timeline };
    });
    const worst = read.reduce((a, b) => (b.exposedShare > a.exposedShare ? b : a));
    const { subject, exposedShare, comm, timeline } = worst;
    const collectiveShare = subject.collectiveNs / subject.totalKernelNs;
    const hiddenFraction = comm.collectiveNs > 0 ? 1 - comm.exposedNs / comm.collectiveNs : 0;
    const busyFraction = timeline.busyNs / (timeline.activeSpanNs * Math.max(1, timeline.devices));
    const evidence: RuleHit['evidence'] = {
      exposedShare: round(exposedShare),
      exposedMs: round(comm.exposedNs / 1e6, 3),
      collectiveShare: round(collectiveShare),
      hiddenFraction: round(hiddenFraction),
      busyFraction: round(busyFraction),
      collectiveLaunches: subject.collectiveLaunches,
      workload,
      ranksMeasured: read.length,
      ...(subject.rank !== undefined ? { rank: subject.rank } : {}),
    };
    const thin = subject.collectiveLaunches < options.minCollectiveLaunches;
    const exposed = exposedShare >= options.maxExposedShare;
    const where = read.length > 1 ? ` (worst of ${read.length} ranks: ${subject.label})` : subject.label === 'the run' ? '' : ` on ${subject.label}`;
    // Fast ranks wait inside the collective for a straggler: their exposed time is its extra compute.
    const straggler = stragglerOf(profile);
    const waiting = straggler && straggler.computeExcess >= STRAGGLER_EXCESS && straggler.slow !== subject.rankEntry ? straggler : undefined;
    if (waiting) {
      evidence.stragglerRank = waiting.slow.rank ?? waiting.slow.device ?? 0;
      evidence.stragglerExcess = round(waiting.computeExcess);
    }
    const idleNote = busyFraction < IDLE_NOTE_BUSY ? ` The GPU is idle a further ${percent(1 - busyFraction)} of the active span (host work, or waiting for the all-reduce to finish before the next step).` : '';
    const waitNote = waiting ? ` Part of it is waiting for ${waiting.slow.rank !== undefined ? `rank ${waiting.slow.rank}` : `device ${waiting.slow.device ?? 0}`}, which computes ${percent(waiting.computeExcess)} longer (see rank-imbalance).` : '';
    const command = profile.environment.vendor === 'amd' ? 'rocm-smi --showtopo' : 'nvidia-smi topo -m';
    const idleShare = 1 - busyFraction;
    const hostLimited = busyFraction < HOST_LIMITED_BUSY && idleShare > exposedShare;
    if (hostLimited) evidence.idleShare = round(idleShare);
    if (!exposed || thin || hostLimited) {
      const hostNote = hostLimited
        ? ` The GPU is idle ${percent(idleShare)} of the active span, more than the exposed collective time: the hosts set the pace, and the collectives wait on them (each rank's collective starts only when the slowest host has launched its own); see host-bound.`
        : '';
      return [
        {
          severity: 'info',
          message: `Communication share${where}: collectives are ${percent(collectiveShare)} of kernel time and ${percent(exposedShare)} of the active span is collective time no compute overlaps${thin ? ` (only ${subject.collectiveLaunches} collective launches)` : ''}.${hostNote}${waitNote}`,
          evidence,
          advice: `Within normal bounds for ${workload === 'unknown' ? 'a multi-GPU run' : `multi-GPU ${workload}`}; watch the share as the degree of parallelism or the interconnect changes. ${ADVICE[workload]}`,
          command,
        },
      ];
    }
    return [
      {
        message: `Communication-bound${where}: ${percent(exposedShare)} of the active span is collective time that no compute overlaps (${round(comm.exposedNs / 1e6, 1)} ms; collectives are ${percent(collectiveShare)} of kernel time, ${hiddenFraction > 0 ? `${percent(hiddenFraction)} of it hidden` : "none of it hidden"}): the GPU spends it waiting on the interconnect and the other ranks, which neither the host side nor kernel tuning changes.${idleNote}${waitNote}`,
        evidence,
        advice: ADVICE[workload],
        command,
      },
    ];
  },
});
