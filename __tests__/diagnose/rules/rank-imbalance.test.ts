import rule from '../../../src/diagnose/rules/rank-imbalance.js';
import { testRule } from '../../helpers/rule-tester.js';

const NCCL = 'ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)';
const SGEMM = 'volta_sgemm_128x32_nt';
const ADD = 'void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3>)';
const MS = 1e6;
const steps = (ms: number) => ({ steps: [1, 2, 3].map((n) => ({ name: `ProfilerStep#${n}`, startNs: n * ms * MS, durNs: ms * MS, gpuBusyNs: 0, kernels: 10 })) });

testRule(rule, {
  passing: [
    { name: 'one rank only', profile: { ranks: [{ rank: 0, worldSize: 2, kernels: [[SGEMM, 100]] }] } },
    {
      name: 'balanced ranks; the fast one waits longer in the all-reduce, which is not compute',
      profile: {
        ranks: [
          { rank: 0, worldSize: 2, kernels: [[SGEMM, 100], [NCCL, 80]] },
          { rank: 1, worldSize: 2, kernels: [[SGEMM, 104], [NCCL, 40]] },
        ],
      },
    },
    {
      name: 'a trace of 10 steps against one of 8: compared per step, balanced',
      profile: {
        ranks: [
          { rank: 0, worldSize: 2, kernels: [[SGEMM, 125]], timeline: { spanNs: 400 * MS, busyNs: 300 * MS, steps: Array.from({ length: 10 }, (_, n) => ({ name: `ProfilerStep#${n}`, startNs: n * 40 * MS, durNs: 40 * MS, gpuBusyNs: 0, kernels: 10 })) } },
          { rank: 1, worldSize: 2, kernels: [[SGEMM, 100]], timeline: { spanNs: 320 * MS, busyNs: 240 * MS, steps: Array.from({ length: 8 }, (_, n) => ({ name: `ProfilerStep#${n}`, startNs: n * 40 * MS, durNs: 40 * MS, gpuBusyNs: 0, kernels: 10 })) } },
        ],
      },
    },
    {
      name: 'ranks of different jobs are not compared',
      profile: {
        ranks: [
          { rank: 0, worldSize: 128, kernels: [[SGEMM, 50]] },
          { rank: 1, worldSize: 2, kernels: [[SGEMM, 100]] },
        ],
      },
    },
  ],
  failing: [
    {
      name: 'rank 1 computes 25% longer, in GEMMs',
      profile: {
        ranks: [
          { rank: 0, worldSize: 2, kernels: [[SGEMM, 100], [ADD, 20], [NCCL, 60]] },
          { rank: 1, worldSize: 2, kernels: [[SGEMM, 128], [ADD, 22], [NCCL, 20]] },
        ],
      },
      hits: [{ severity: 'warning', evidence: { slowRank: 1, computeExcess: 0.25, extraFamily: 'gemm', extraMs: 28, ranks: 2, perStep: false } }],
    },
    {
      name: 'equal kernel time but a longer median step on one of four ranks',
      profile: {
        ranks: [0, 1, 2, 3].map((rank) => ({ rank, worldSize: 4, kernels: [[SGEMM, rank === 2 ? 101 : 100]] as const, timeline: { spanNs: 400 * MS, busyNs: 300 * MS, ...steps(rank === 2 ? 120 : 100) } })),
      },
      hits: [{ evidence: { slowRank: 2, stepExcess: 0.2, computeExcess: 0.01 } }],
    },
    {
      name: 'a 5% bar catches a smaller straggler',
      profile: {
        ranks: [
          { rank: 0, worldSize: 2, kernels: [[SGEMM, 100]] },
          { rank: 1, worldSize: 2, kernels: [[SGEMM, 106]] },
        ],
      },
      options: { maxExcess: 0.05 },
      hits: [{ evidence: { slowRank: 1, computeExcess: 0.06 } }],
    },
  ],
});
