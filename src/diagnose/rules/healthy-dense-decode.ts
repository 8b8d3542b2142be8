/** The kernel mix of a healthy dense decode: decode-shaped linear layers dominate, fused attention and norms below. */
import { LINEAR_FAMILIES } from '../../model/family-ids.js';
import { defineRule } from '../rule.js';
import { familyTotals, percent, round } from '../profile-measures.js';

export default defineRule({
  meta: {
    id: 'healthy-dense-decode',
    severity: 'info',
    title: 'Healthy dense decode kernel mix',
    stage: 'kernels',
    needs: ['kernel-breakdown'],
    description: 'Decode-shaped GEMV/GEMM kernels dominate, attention runs fused and no MoE kernels appear: the shape a correct dense decode has.',
    defaults: { minDecodeShare: 0.5, minLinearShare: 0.3, maxMoeShare: 0.01 },
  },
  check({ profile, options }) {
    const linear = familyTotals(profile, LINEAR_FAMILIES);
    const decode = familyTotals(profile, ['gemv', 'gemm-decode']);
    const fused = familyTotals(profile, ['attention-fused']);
    const moe = familyTotals(profile, ['moe-gemm', 'moe-routing']);
    if (linear.share < options.minLinearShare || linear.ns === 0) return [];
    const decodeShare = decode.ns / linear.ns;
    if (decodeShare < options.minDecodeShare || fused.ns === 0 || moe.share >= options.maxMoeShare) return [];
    return [
      {
        message: `Healthy dense decode: decode-shaped linear kernels are ${percent(decodeShare)} of linear time (${percent(linear.share)} of all kernel time), attention is fused.`,
        evidence: {
          decodeShare: round(decodeShare),
          linearShare: round(linear.share),
          attentionFusedShare: round(fused.share),
          normShare: round(familyTotals(profile, ['norm']).share),
        },
        advice:
          'The kernel mix is right. Decode GEMVs are memory-bound, so speed now comes from bytes moved per token (lower-bit weights, larger batch) or from the host side if utilization is low.',
      },
    ];
  },
});
