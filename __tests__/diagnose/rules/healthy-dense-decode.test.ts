import rule from '../../../src/diagnose/rules/healthy-dense-decode.js';
import { K } from '../../helpers/profile-builder.js';
import { testRule } from '../../helpers/rule-tester.js';

const XLA_DECODE: Array<[string, number, number]> = [['gemm_fusion_dot_2', 5.54, 128], ['gemm_fusion_dot_3', 2.89, 128], ['gemm_fusion_dot', 1.85, 128], ['gemm_fusion_dot_1', 1.26, 128], ['gemm_fusion_dot_general_129', 0.48, 8], [K.sdpa, 1.33, 128], ['loop_add_fusion_1', 0.44, 248], ['fusion_458', 0.44, 256]];

testRule(rule, {
  passing: [
    { name: 'eager attention (no fused kernel)', profile: { kernels: [[K.decodeGemm, 60, 2000], [K.softmax, 2, 512], [K.copy, 38, 1000]] } },
    { name: 'MoE model', profile: { kernels: [[K.maxGroupedMatmul, 20, 500], [K.maxGemv, 50, 1000], [K.maxMha, 10, 500], [K.copy, 20, 500]] } },
    { name: 'prefill-shaped mix', profile: { kernels: [[K.prefillGemm, 50, 2500], [K.decodeGemm, 10, 1000], [K.sdpa, 5, 500], [K.copy, 35, 1000]] } },
    { name: 'elementwise-dominated', profile: { kernels: [[K.decodeGemm, 20, 2000], [K.sdpa, 5, 500], [K.copy, 75, 3000]] } },
    // XLA's GEMM fusions name no shape: without a stated batch nothing says they are decode-shaped.
    { name: 'XLA GEMMs, decode metrics but no batch', profile: { kernels: XLA_DECODE, metrics: { decode_tok_s: 4150 } } },
    { name: 'XLA GEMMs, batch 8 but no decode evidence', profile: { kernels: XLA_DECODE, environment: { batch: '8' } } },
    { name: 'XLA GEMMs, a batch too large to be decode-shaped', profile: { kernels: XLA_DECODE, metrics: { decode_tok_s: 4150 }, environment: { batch: '256' } } },
    {
      // The no-KV-cache decode re-runs a 512-token window each step: cuBLAS picks wide tiles. Batch 1 counts sequences.
      name: 'GEMMs with wide tiles, decode metrics and batch 1 (a window re-run every step)',
      profile: { kernels: [[K.prefillGemm, 40, 128], [K.prefillGemm2, 20, 128], [K.sdpa, 5, 128], [K.copy, 35, 1000]], metrics: { decode_tok_s: 164 }, environment: { batch: '1' } },
    },
    {
      // The H200 decode whose FP8 weights are expanded every step (h200-pairs/dequant_ab): dequantize 17.24 ms, matmuls 14.21 ms.
      name: 'a dequantize kernel on the scale of the matmuls it feeds',
      profile: { kernels: [['dequantize_fp8_weight_kernel', 17.24, 512], [K.decodeGemm, 14.21, 512], [K.sdpa, 1.3, 128], [K.copy, 6.8, 2000]] },
    },
    {
      name: 'XLA GEMMs beside a known prefill GEMM',
      profile: { kernels: [...XLA_DECODE, [K.prefillGemm, 0.5, 8, 1024]], metrics: { decode_tok_s: 4150 }, environment: { batch: '8' } },
    },
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
      // The JAX twin of the H200 decode (batch 8, 16 layers): XLA GEMM fusions 78 % of kernel time; the workload
      // reports decode tok/s and batch 8, so each GEMM has 8 rows. Linear 12.02 of 14.23 ms (0.8447); SDPA 1.33 ms (0.0935).
      name: 'XLA GEMMs in a decode window of a stated batch',
      profile: { kernels: XLA_DECODE, metrics: { decode_tok_s: 4150 }, environment: { batch: '8' } },
      hits: [{ severity: 'info', evidence: { decodeShare: 1, linearShare: 0.8447, unknownShapeShare: 1, attentionFusedShare: 0.0935 } }],
    },
    {
      name: 'a looser decode share accepts a mixed linear split',
      profile: { kernels: [[K.decodeGemm, 30, 2000], [K.ampereGemm, 30, 2000], [K.flash, 5, 500], [K.copy, 35, 1000]] },
      options: { minDecodeShare: 0.4 },
      hits: [{ evidence: { decodeShare: 0.5, linearShare: 0.6 } }],
    },
  ],
});
