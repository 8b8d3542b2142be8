import rule from '../../../src/diagnose/rules/healthy-moe-decode.js';
import { K } from '../../helpers/profile-builder.js';
import { testRule } from '../../helpers/rule-tester.js';

const hfMoe = { kernels: [[K.decodeGemm, 27, 1792], [K.maxGroupedMatmul, 1.3, 16], [K.gatherTopK, 6.4, 500], [K.gather, 12.9, 513], [K.argmax, 0.8, 32], [K.copy, 40, 5000], [K.sdpa, 2.8, 256]] } as const;

testRule(rule, {
  passing: [
    { name: 'dense model', profile: { kernels: [[K.maxGemv, 50, 1000], [K.maxMha, 5, 500], [K.copy, 20, 500]] } },
    { name: 'routing as heavy as the matmuls (transformers MoE on the H200)', profile: hfMoe },
    // Top-k sampling runs once per step, like argmax: not MoE routing.
    { name: 'dense model with top-k sampling', profile: { kernels: [[K.decodeGemm, 60, 2000], [K.gatherTopK, 1, 32], [K.argmax, 0.5, 32], [K.sdpa, 5, 500]] } },
  ],
  failing: [
    {
      name: 'MAX MoE decode',
      profile: { kernels: [[K.maxGroupedMatmul, 50, 1000], [K.maxMoeIndices, 3, 1000], [K.maxGemv, 20, 2000], [K.maxMha, 5, 500]] },
      hits: [{ severity: 'info', evidence: { moeGemmShare: 0.641, routingShare: 0.0385, gatherShare: 0, routingRatio: 0.0429 } }],
    },
    {
      // DeepSeek-OCR decode (HF, MoE decoder) on an RTX 5090: cuBLAS gemv experts, gatherTopK routing per layer.
      name: 'HF MoE with per-layer top-k',
      profile: { kernels: [[K.decodeGemm, 50, 16448], [K.gatherTopK, 1.3, 704], [K.gather, 0.4, 704], [K.argmax, 0.7, 64], [K.flash, 2.4, 768]] },
      hits: [{ evidence: { moeGemmShare: 0, routingShare: 0.0237, gatherShare: 0.0073, routingRatio: 0.034 } }],
    },
    {
      name: 'a looser ratio accepts the transformers MoE',
      profile: hfMoe,
      options: { maxRoutingRatio: 0.8 },
      hits: [{ evidence: { routingRatio: 0.682 } }],
    },
  ],
});
