/**
 * The kernel mix of a healthy dense decode: decode-shaped linear layers dominate, fused attention and
 * norms below. A GEMM's shape comes from its name's tile or its launching op's token count; where
 * neither says (XLA's `gemm_fusion_dot_*`, a CUTLASS kernel), the window decides when it is a decode
 * loop of a batch the workload states: then each GEMM has that batch's rows, decode-shaped up to
 * DECODE_TOKENS_MAX. Not when matmul inputs grow (the window re-runs its prefix), a GEMM is known
 * to be prefill-shaped, or one names a wide tile: a batch counts sequences, and a step that re-runs a
 * whole window (no KV cache) gives each GEMM many rows per sequence.
 */
import { DECODE_TOKENS_MAX } from '../../classify/classify.js';
import { tileHint } from '../../classify/families.js';
import { LINEAR_FAMILIES } from '../../model/family-ids.js';
import type { Profile } from '../../model/profile.js';
import { decodeSteps } from '../decode-steps.js';
import { defineRule } from '../rule.js';
import { batchSize, familyTotals, percent, round } from '../profile-measures.js';

/** Why the GEMMs of unknown shape are decode-shaped here, or undefined when nothing says so. */
function decodeBatchBasis(profile: Profile, minDecodeSteps: number): string | undefined {
  const batch = batchSize(profile);
  if (batch === undefined || batch > DECODE_TOKENS_MAX) return undefined;
  if (familyTotals(profile, ['gemm-prefill']).ns > 0) return undefined;
  if (profile.kernels.some((k) => k.family === 'gemm' && tileHint(k.name) === 'wide')) return undefined;
  const decode = decodeSteps(profile, { minDecodeSteps, minStepGrowth: Number.POSITIVE_INFINITY });
  if (decode.signals.length === 0 || decode.signals.includes('growing-inputs')) return undefined;
  return `a decode window (${decode.text}) of batch ${batch}: ${batch} rows per GEMM`;
}

export default defineRule({
  meta: {
    id: 'healthy-dense-decode',
    severity: 'info',
    title: 'Healthy dense decode kernel mix',
    stage: 'kernels',
    claim: 'healthy',
    needs: ['kernel-breakdown'],
    description: 'Decode-shaped GEMV/GEMM kernels dominate, attention runs fused and no MoE kernels appear: the shape a correct dense decode has.',
    defaults: { minDecodeShare: 0.5, minLinearShare: 0.3, maxMoeShare: 0.01, maxQuantizeToLinear: 0.5, minDecodeSteps: 3 },
    units: { minDecodeShare: 'fraction', minLinearShare: 'fraction', maxMoeShare: 'fraction', maxQuantizeToLinear: 'ratio', minDecodeSteps: 'count' },
  },
  check({ profile, options }) {
    const linear = familyTotals(profile, LINEAR_FAMILIES);
    const shaped = familyTotals(profile, ['gemv', 'gemm-decode']);
    const unknownShape = familyTotals(profile, ['gemm']);
    const basis = unknownShape.ns > 0 ? decodeBatchBasis(profile, options.minDecodeSteps) : undefined;
    const decode = basis ? { ns: shaped.ns + unknownShape.ns } : shaped;
    const fused = familyTotals(profile, ['attention-fused']);
    const moe = familyTotals(profile, ['moe-gemm', 'moe-routing']);
    if (linear.share < options.minLinearShare || linear.ns === 0) return [];
    // Quantize or dequantize work on the scale of the matmuls it feeds is not a healthy mix (quant-prep-heavy says why).
    if (familyTotals(profile, ['quantize']).ns >= options.maxQuantizeToLinear * linear.ns) return [];
    const decodeShare = decode.ns / linear.ns;
    if (decodeShare < options.minDecodeShare || fused.ns === 0 || moe.share >= options.maxMoeShare) return [];
    return [
      {
        message: `Healthy dense decode: decode-shaped linear kernels are ${percent(decodeShare)} of linear time (${percent(linear.share)} of all kernel time), attention is fused.${basis ? ` GEMM shapes from ${basis}.` : ''}`,
        evidence: {
          decodeShare: round(decodeShare),
          linearShare: round(linear.share),
          attentionFusedShare: round(fused.share),
          normShare: round(familyTotals(profile, ['norm']).share),
          ...(basis ? { unknownShapeShare: round(unknownShape.ns / linear.ns), shapeBasis: basis } : {}),
        },
        advice:
          'The kernel mix is right. Decode GEMVs are memory-bound, so speed now comes from bytes moved per token (lower-bit weights, larger batch) or from the host side if utilization is low.',
      },
    ];
  },
});
