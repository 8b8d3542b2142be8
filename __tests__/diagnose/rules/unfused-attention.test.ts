import rule from '../../../src/diagnose/rules/unfused-attention.js';
import { K } from '../../helpers/profile-builder.js';
import { testRule } from '../../helpers/rule-tester.js';

testRule(rule, {
  passing: [
    { name: 'SDPA, no softmax kernel (transformers default)', profile: { kernels: [[K.decodeGemm, 45, 3500], [K.sdpa, 4, 496], [K.copy, 51, 5000]] } },
    // vLLM Qwen2.5-7B: flash attention plus a sampling softmax (122 launches).
    { name: 'fused attention plus a sampling softmax', profile: { kernels: [[K.ampereGemm, 90, 13000], [K.flash, 1.5, 3314], [K.samplingSoftmax, 0.5, 122], [K.copy, 8, 4000]] } },
    // transformers MoE: the router softmax runs once per layer, like the fused SDPA.
    { name: 'MoE router softmax next to fused attention', profile: { kernels: [[K.decodeGemm, 27, 1792], [K.softmax, 0.7, 256], [K.sdpa, 2.8, 264], [K.copy, 40, 5000]] } },
    { name: 'sampling softmax once per step, no fused attention', profile: { kernels: [[K.decodeGemm, 60, 3500], [K.samplingSoftmax, 0.5, 32], [K.copy, 39.5, 2000]] } },
  ],
  failing: [
    {
      // transformers attn_implementation="eager" on the H200: softmax_warp_forward 512 launches, 1.3%.
      name: 'eager attention',
      profile: { kernels: [[K.decodeGemm, 30, 2000], [K.decodeGemm2, 10, 1000], [K.softmax, 1.3, 512], [K.copy, 58.7, 8000]] },
      // No fused attention kernel at all: conclusive, an error (it fails the job by default).
      hits: [{ severity: 'error', evidence: { softmaxShare: 0.013, softmaxLaunches: 512, fusedAttentionLaunches: 0, linearLaunches: 3000, bmmShare: 0, fusedAttentionShare: 0 } }],
    },
    {
      // Fused attention ran too, but far fewer launches than the per-layer softmax: a mixed reading, a warning.
      name: 'softmax at a per-layer rate beside some fused attention',
      profile: { kernels: [[K.decodeGemm, 30, 2000], [K.decodeGemm2, 10, 1000], [K.softmax, 1.3, 512], [K.flash, 1, 64], [K.copy, 57.7, 8000]] },
      hits: [{ severity: 'warning', evidence: { softmaxLaunches: 512, fusedAttentionLaunches: 64, linearLaunches: 3000 } }],
    },
    {
      name: 'MAX custom architecture wired as matmul + softmax',
      profile: { kernels: [[K.maxMatmul, 40, 900], [K.maxBmm, 10, 200], ['softmax_kernel_bfloat16_6d7e8f9a', 5, 200], [K.copy, 45, 2000]] },
      hits: [{ evidence: { softmaxShare: 0.05, bmmShare: 0.1, softmaxLaunches: 200, linearLaunches: 900 } }],
    },
    {
      name: 'a lower rate catches a per-step softmax',
      profile: { kernels: [[K.decodeGemm, 60, 3500], [K.samplingSoftmax, 0.5, 64], [K.copy, 39.5, 2000]] },
      options: { minSoftmaxPerLinearLaunch: 0.01 },
      hits: [{ evidence: { softmaxLaunches: 64, softmaxShare: 0.005 } }],
    },
  ],
});
