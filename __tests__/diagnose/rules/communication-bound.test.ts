import rule from '../../../src/diagnose/rules/communication-bound.js';
import { K, profileOf, type ProfileSpec } from '../../helpers/profile-builder.js';
import { checkRule } from '../../../src/diagnose/run-rules.js';
import type { Notice } from '../../../src/model/capture.js';
import { testRule } from '../../helpers/rule-tester.js';

// Real names: the DDP V100 trace's NCCL all-reduce and sgemm, the vLLM TP4 trace's NCCL and custom all-reduce.
const NCCL_DDP = 'ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)';
const NCCL_TP = 'ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevComm*, unsigned long, ncclWork*)';
const CUSTOM_AR = 'void vllm::cross_device_reduce_1stage<__nv_bfloat16, 4>(vllm::RankData*, vllm::RankSignals, vllm::Signal*, __nv_bfloat16*, int, int)';
const SGEMM = 'volta_sgemm_128x32_nt';
const BACKWARD = 'void at::native::vectorized_elementwise_kernel<4, at::native::sigmoid_backward_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#4}::operator()() const::{lambda(float, float)#1}, at::detail::Array<char*, 3> >(int, at::native::sigmoid_backward_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#4}::operator()() const::{lambda(float, float)#1}, at::detail::Array<char*, 3>)';
const KV = 'void vllm::reshape_and_cache_flash_kernel<__nv_bfloat16, __nv_bfloat16, (vllm::Fp8KVCacheDataType)0>(const T1 *, const T1 *, T2 *, T2 *, const long *, long, long, long, long, long, int, int, int, const float *, const float *, int)';
const MS = 1e6;
const summaryOnly: ProfileSpec = { kernels: [[K.decodeGemm, 60], [NCCL_TP, 40, 500]] };
const timeline = (spanMs: number, busyMs: number, collectiveMs: number, exposedMs: number) => ({
  spanNs: spanMs * MS,
  busyNs: busyMs * MS,
  communication: { collectiveNs: collectiveMs * MS, exposedNs: exposedMs * MS },
});

testRule(rule, {
  passing: [
    // Before: an info finding "overlap unknown". Now a note on the evidence (below), no finding.
    { name: 'a kernel summary without a timeline: no finding, a note that the overlap is unknown', profile: summaryOnly },
    { name: 'no collectives', profile: { kernels: [[K.decodeGemm, 90], [K.rmsNormVllm, 10]], timeline: { spanNs: 120 * MS, busyNs: 100 * MS } } },
    { name: 'collectives under 5% of kernel time', profile: { kernels: [[K.decodeGemm, 97], [NCCL_TP, 3]], timeline: timeline(110, 100, 3, 3) } },
  ],
  failing: [
    {
      // The shape of the DDP V100 rank-1 trace: 36.5 % NCCL, none overlapped, 20.6 % of the span.
      name: 'DDP all-reduce with no overlap: warning, training advice',
      profile: { kernels: [[NCCL_DDP, 357.3, 2020], [SGEMM, 500], [BACKWARD, 121]], timeline: timeline(1733, 1000.6, 357.3, 357.3) },
      hits: [{ severity: 'warning', evidence: { exposedShare: 0.2062, collectiveShare: 0.3654, hiddenFraction: 0, workload: 'training' }, command: /nvidia-smi topo -m/ }],
    },
    {
      // The shape of the vLLM TP4 rank-0 trace: about 10 % all-reduce, 9.2 % of the span exposed.
      name: 'healthy tensor-parallel decode: info with the communication share',
      profile: { kernels: [[K.decodeGemm, 200], [NCCL_TP, 16.5, 1200], [CUSTOM_AR, 7.7, 430], [KV, 2]], timeline: timeline(261.9, 233.4, 24.2, 24.2) },
      hits: [{ severity: 'info', evidence: { exposedShare: 0.0924, collectiveShare: 0.107, workload: 'inference' } }],
    },
    {
      // DDP training busy 24 % of the span: the 160 ms of exposed all-reduce is less than the 760 ms
      // the GPU sits idle, which is the hosts' time. The collectives wait on the hosts: info here,
      // the run is host-bound.
      name: 'DDP at 24% busy, idle outweighing the exposed all-reduce: info, the hosts set the pace',
      profile: { kernels: [[NCCL_DDP, 160, 2000], [SGEMM, 60], [BACKWARD, 20]], timeline: timeline(1000, 240, 160, 160) },
      hits: [{ severity: 'info', evidence: { exposedShare: 0.16, busyFraction: 0.24, idleShare: 0.76, workload: 'training' }, message: /idle 76(\.0)?% of the active span.*see host-bound/ }],
    },
    {
      // Half busy: the idle time no longer outweighs it by the host-bound bar; the exposed collectives decide.
      name: 'DDP at 55% busy with 30% exposed all-reduce: still a warning',
      profile: { kernels: [[NCCL_DDP, 300, 2000], [SGEMM, 230], [BACKWARD, 20]], timeline: timeline(1000, 550, 300, 300) },
      hits: [{ severity: 'warning', evidence: { exposedShare: 0.3, busyFraction: 0.55 } }],
    },
    {
      name: 'collectives well hidden behind compute: info',
      profile: { kernels: [[K.ampereGemm, 70], [NCCL_TP, 30, 400]], timeline: timeline(110, 100, 30, 3) },
      hits: [{ severity: 'info', evidence: { exposedShare: 0.0273, hiddenFraction: 0.9, workload: 'unknown' } }],
    },
    {
      name: 'few collective launches are thin evidence: info even when exposed',
      profile: { kernels: [[NCCL_TP, 80, 2], [K.decodeGemm, 20]], timeline: timeline(100, 95, 80, 75) },
      hits: [{ severity: 'info', evidence: { exposedShare: 0.75, collectiveLaunches: 2 } }],
    },
    {
      name: 'excluded gaps leave the active span: the share is of the workload',
      profile: {
        kernels: [[K.decodeGemm, 60], [NCCL_TP, 40, 500]],
        timeline: { ...timeline(1000, 100, 40, 40), excludedGaps: [{ startNs: 10 * MS, durNs: 800 * MS, reason: 'set-up' }] },
      },
      hits: [{ severity: 'warning', evidence: { exposedShare: 0.2, exposedMs: 40 } }],
    },
    {
      name: 'a stricter bar turns the TP share into a warning',
      profile: { kernels: [[K.decodeGemm, 200], [NCCL_TP, 24, 1600]], timeline: timeline(261.9, 233.4, 24, 24) },
      options: { maxExposedShare: 0.05 },
      hits: [{ severity: 'warning', evidence: { exposedShare: 0.0916 } }],
    },
    {
      name: 'per rank: the worst rank is reported',
      profile: {
        ranks: [
          { rank: 0, worldSize: 2, kernels: [[SGEMM, 80], [NCCL_DDP, 20, 200]], timeline: timeline(110, 100, 20, 5) },
          { rank: 1, worldSize: 2, kernels: [[SGEMM, 60], [NCCL_DDP, 40, 200]], timeline: timeline(110, 100, 40, 30) },
        ],
      },
      hits: [{ severity: 'warning', evidence: { rank: 1, ranksMeasured: 2, exposedShare: 0.2727 } }],
    },
    {
      name: 'a rank without its own timeline is not measured on another rank\'s',
      profile: {
        ranks: [
          { rank: 0, worldSize: 2, kernels: [[SGEMM, 90], [NCCL_DDP, 10, 200]], timeline: timeline(110, 100, 10, 2) },
          { rank: 1, worldSize: 2, kernels: [[SGEMM, 91], [NCCL_DDP, 50, 200]] },
        ],
      },
      hits: [{ severity: 'info', evidence: { rank: 0, ranksMeasured: 1, exposedShare: 0.0182 } }],
    },
    {
      name: 'the fast rank waits for a straggler: the straggler is named',
      profile: {
        ranks: [
          { rank: 0, worldSize: 2, kernels: [[SGEMM, 60], [NCCL_DDP, 40, 200]], timeline: timeline(110, 100, 40, 35) },
          { rank: 1, worldSize: 2, kernels: [[SGEMM, 90], [NCCL_DDP, 10, 200]], timeline: timeline(110, 100, 10, 8) },
        ],
      },
      hits: [{ severity: 'warning', evidence: { rank: 0, stragglerRank: 1, stragglerExcess: 0.5 } }],
    },
  ],
});

describe('communication-bound notes', () => {
  it('a kernel summary without a timeline: a notice with the share, no finding', () => {
    const notes: Notice[] = [];
    expect(checkRule(rule, profileOf(summaryOnly), rule.meta.defaults, undefined, notes)).toEqual([]);
    expect(notes.map((n) => [n.code, n.severity])).toEqual([['diagnosis-note', 'info']]);
    expect(notes[0]!.message).toMatch(/^communication-bound: not established: collectives take 40(\.0)?% of kernel time \(500 launches\)/);
  });
});
