import rule from '../../../src/diagnose/rules/dominant-kernel.js';
import { K } from '../../helpers/profile-builder.js';
import { testRule } from '../../helpers/rule-tester.js';

testRule(rule, {
  passing: [
    // H200 GPU-bound decode: the top kernel is 28.6%.
    { name: 'spread mix', profile: { kernels: [[K.decodeGemm, 28.6, 256], [K.decodeGemm2, 21.2, 512], [K.copy, 13.1, 512], [K.layerNorm, 7.3, 528], [K.sdpa, 4.6, 256], [K.mul, 25.2, 800]] } },
    { name: 'no kernels', profile: { util: [90] } },
    { name: 'a copy record is not a kernel to profile', profile: { kernels: [[K.memcpyDtoH, 70, 10], [K.decodeGemm, 30, 1000]] } },
  ],
  failing: [
    {
      name: 'MAX gemv at 50%',
      profile: { kernels: [[K.maxGemv, 50, 672], [K.maxMha, 30, 672], [K.maxRmsNorm, 20, 1430]] },
      hits: [
        {
          evidence: { share: 0.5, instances: 672, totalMs: 50, family: 'gemv', launchSkip: 336 },
          command:
            /^ncu --clock-control none --kernel-name regex:'gemv_split_k_bfloat16_bfloat16_bfloat16_256' --launch-skip 336 --launch-count 1 --section SpeedOfLight --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis --section WarpStateStats --csv --page details <workload command>$/,
          kernel: K.maxGemv,
        },
      ],
    },
    {
      name: 'a templated ATen kernel uses the demangled name',
      profile: { kernels: [[K.meanReduce, 60, 1056], [K.decodeGemm, 40, 1984]] },
      // Selected by function and functor: ncu prints ATen kernels without `at::native::`.
      hits: [{ evidence: { share: 0.6, family: 'reduce', launchSkip: 528 }, command: /--kernel-name regex:'\(\^\|\[\^A-Za-z0-9_\]\)reduce_kernel<\.\*MeanOps' --kernel-name-base demangled --launch-skip 528 / }],
    },
    {
      name: 'a dominant collective gets communication questions, not a deep dive',
      profile: { kernels: [['ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)', 55, 64], [K.decodeGemm, 45, 1984]] },
      hits: [{ evidence: { share: 0.55, family: 'collective', instances: 64 } }],
    },
    {
      name: 'with Python stacks, the line that launched it is in the evidence',
      profile: {
        kernels: [[K.copy, 58, 64], [K.sdpa, 42, 32]],
        pythonSites: { [K.copy]: [{ function: 'sdpa', file: 'llama_decode.py', line: 142, share: 1 }] },
      },
      hits: [{ evidence: { share: 0.58, family: 'copy', pythonSite: 'sdpa (llama_decode.py:142)', pythonSiteShare: 1 } }],
    },
    {
      name: 'configured share and workload',
      profile: { kernels: [[K.decodeGemm, 30, 9], [K.decodeGemm2, 25, 9], [K.copy, 25, 9], [K.mul, 20, 9]] },
      options: { minShare: 0.25, workload: 'python3 bench.py --steps 64' },
      hits: [{ evidence: { share: 0.3, instances: 9, launchSkip: 4, family: 'gemm-decode' }, command: /python3 bench\.py --steps 64$/ }],
    },
  ],
});
