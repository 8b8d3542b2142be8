import rule from '../../../src/diagnose/rules/healthy-dense-decode.js';
import { K } from '../../helpers/profile-builder.js';
import { testRule } from '../../helpers/rule-tester.js';

testRule(rule, {
  passing: [
    { name: 'eager attention (no fused kernel)', profile: { kernels: [[K.decodeGemm, 60, 2000], [K.softmax, 2, 512], [K.copy, 38, 1000]] } },
    { name: 'MoE model', profile: { kernels: [[K.maxGroupedMatmul, 20, 500], [K.maxGemv, 50, 1000], [K.maxMha, 10, 500], [K.copy, 20, 500]] } },
    { name: 'prefill-shaped mix', profile: { kernels: [[K.prefillGemm, 50, 2500], [K.decodeGemm, 10, 1000], [K.sdpa, 5, 500], [K.copy, 35, 1000]] } },
    { name: 'elementwise-dominated', profile: { kernels: [[K.decodeGemm, 20, 2000], [K.sdpa, 5, 500], [K.copy, 75, 3000]] } },
  ],
  failing: [
    {
      // Family split of the H200 GPU-bound decode (nsys): nvjet N=8 tiles 61.6, copy 13.1, layer norm 7.3, SDPA 4.6 (ms, scaled).
      name: 'H200 GPU-bound decode',
      profile: { kernels: [[K.decodeGemm, 28.6, 256], [K.decodeGemm2, 33, 768], [K.copy, 13.1, 512], [K.layerNorm, 7.3, 528], [K.sdpa, 4.6, 256]] },
      hits: [{ severity: 'info', evidence: { decodeShare: 1, linearShare: 0.7113, attentionFusedShare: 0.0531, normShare: 0.0843 } }],
    },
    {
      // MAX docs example (Llama-3.1-8B decode): gemv_split_k dominates, mha and rms_norm below.
      name: 'MAX dense decode',
      profile: { kernels: [[K.maxGemv, 46.5, 1995], [K.maxMha, 3.38, 672], [K.maxRmsNorm, 2.7, 1430], [K.copy, 10, 700]] },
      hits: [{ evidence: { decodeShare: 1, linearShare: 0.7431, attentionFusedShare: 0.054, normShare: 0.0431 } }],
    },
    {
      name: 'a looser decode share accepts a mixed linear split',
      profile: { kernels: [[K.decodeGemm, 30, 2000], [K.ampereGemm, 30, 2000], [K.flash, 5, 500], [K.copy, 35, 1000]] },
      options: { minDecodeShare: 0.4 },
      hits: [{ evidence: { decodeShare: 0.5, linearShare: 0.6 } }],
    },
  ],
});
