import rule from '../../../src/diagnose/rules/quant-prep-heavy.js';
import { K } from '../../helpers/profile-builder.js';
import { testRule } from '../../helpers/rule-tester.js';

testRule(rule, {
  passing: [
    { name: 'bf16 model, no quantize kernels', profile: { kernels: [[K.maxGemv, 60, 1000], [K.maxMha, 10, 500]] } },
    { name: 'quantize below the floor', profile: { kernels: [[K.maxBlockScaledGemm, 99.9, 1000], [K.fp8Quant, 0.1, 1000]] } },
  ],
  failing: [
    {
      name: 'normal fp8 prep is info',
      profile: { kernels: [[K.maxBlockScaledGemm, 60, 1000], [K.fp8Quant, 6, 1000], [K.copy, 34, 1000]] },
      hits: [{ severity: 'info', evidence: { quantizeShare: 0.06, matmulShare: 0.6, quantizeToMatmulRatio: 0.1, matmulFamily: 'lowbit-gemm', quantizeLaunches: 1000 } }],
    },
    {
      name: 'quantize outweighs the matmuls',
      profile: { kernels: [[K.maxBlockScaledGemm, 10, 1000], [K.fp8Quant, 15, 2000], [K.copy, 75, 1000]] },
      hits: [
        {
          severity: 'warning',
          evidence: { quantizeShare: 0.15, matmulShare: 0.1, quantizeToMatmulRatio: 1.5, matmulFamily: 'lowbit-gemm' },
          command: /regex:'vllm::scaled_fp8_quant_kernel' --kernel-name-base demangled --launch-skip 1000 /,
          kernel: K.fp8Quant,
        },
      ],
    },
    {
      name: 'no named low-bit matmul: compared with all linear work',
      profile: { kernels: [[K.decodeGemm, 40, 1000], [K.maxFp4Quant, 10, 1000], [K.copy, 50, 1000]] },
      hits: [{ severity: 'info', evidence: { quantizeToMatmulRatio: 0.25, matmulFamily: 'linear', matmulShare: 0.4 } }],
    },
    {
      // A 128-rank recsys trainer (HTA sampled trace): fbgemm's _float_to_hfp8 is 1.2 % of kernel
      // time, 2.6x the few dense GEMMs, and no low-bit matmul exists: communication compression.
      name: 'quantize with no low-bit matmul to feed is a note, not a warning',
      profile: { kernels: [[K.ampereGemm, 0.46, 5], [K.hfp8Quant, 1.22, 1], ['ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)', 84.6, 2], [K.copy, 13.7, 30]] },
      hits: [{ severity: 'info', evidence: { matmulFamily: 'linear', quantizeToMatmulRatio: 2.6522 } }],
    },
    {
      name: 'a lower bar makes ordinary prep a warning',
      profile: { kernels: [[K.maxBlockScaledGemm, 50, 1000], [K.maxFp4Quant, 20, 1000], [K.copy, 30, 1000]] },
      options: { maxQuantizeToMatmulRatio: 0.3 },
      hits: [{ severity: 'warning', evidence: { quantizeToMatmulRatio: 0.4 }, kernel: K.maxFp4Quant }],
    },
  ],
});
