/**
 * Norms or rotary embeddings run as chains of small kernels: RMSNorm as mean-reduce + pow + rsqrt +
 * mul (ATen's eager RMSNorm), RoPE as neg + cat + mul (rotate_half). Each step re-reads the tensor.
 */
import { defineRule, type RuleHit } from '../rule.js';
import { familyTotals, kernelsMatching, percent, round } from '../profile-measures.js';

const MEAN_REDUCE = /MeanOps|mean_kernel|WelfordOps/;
const NORM_PIECES = /MeanOps|mean_kernel|WelfordOps|rsqrt_kernel|pow_tensor_scalar/;
const ROTATE_HALF = /neg_kernel/;

export default defineRule({
  meta: {
    id: 'unfused-norm-rope',
    severity: 'warning',
    title: 'Norm or RoPE runs as unfused elementwise chains',
    stage: 'kernels',
    needs: ['kernel-breakdown'],
    description: 'Mean-reduce + rsqrt kernels without a norm kernel (RMSNorm), or neg kernels without a rotary kernel (RoPE), take a visible share of GPU time.',
    defaults: { minPiecesShare: 0.01 },
    units: { minPiecesShare: 'fraction' },
  },
  check({ profile, options }) {
    const hits: RuleHit[] = [];
    const norm = familyTotals(profile, ['norm']);
    const mean = kernelsMatching(profile, MEAN_REDUCE, ['reduce']);
    const rsqrt = kernelsMatching(profile, /rsqrt/, ['elementwise']);
    const pieces = kernelsMatching(profile, NORM_PIECES, ['reduce', 'elementwise']);
    if (mean.instances > 0 && rsqrt.instances > 0 && norm.instances < mean.instances && pieces.share >= options.minPiecesShare) {
      hits.push({
        message: `RMSNorm runs unfused: ${mean.instances} mean-reduce and ${rsqrt.instances} rsqrt launches take ${percent(pieces.share)} of kernel time (plus the adds and muls around them).`,
        evidence: {
          part: 'norm',
          piecesShare: round(pieces.share),
          meanReduceLaunches: mean.instances,
          rsqrtLaunches: rsqrt.instances,
          normKernelLaunches: norm.instances,
        },
        advice:
          'Use a fused RMSNorm: torch.nn.RMSNorm under torch.compile (one Triton kernel per norm), a fused kernel (vLLM rms_norm / fused_add_rms_norm, Liger, Apex FusedRMSNorm), or MAX\'s rms_norm op, which also fuses the residual add.',
      });
    }
    const rope = familyTotals(profile, ['rope']);
    const neg = kernelsMatching(profile, ROTATE_HALF, ['elementwise']);
    if (rope.instances === 0 && neg.instances > 0 && neg.share >= options.minPiecesShare) {
      hits.push({
        message: `RoPE runs unfused: ${neg.instances} neg launches (rotate_half) take ${percent(neg.share)} of kernel time, with cat and mul kernels around them.`,
        evidence: { part: 'rope', piecesShare: round(neg.share), negLaunches: neg.instances, ropeKernelLaunches: 0 },
        advice:
          'Apply rotary embeddings in one kernel: torch.compile the attention block, a fused rotary kernel (vLLM rotary_embedding, flash-attn apply_rotary_emb), or MAX\'s fused rope (fused_qk_rope / fused_rope_rmsnorm).',
      });
    }
    return hits;
  },
});
