/**
 * Attention runs as generic matmul/bmm + softmax instead of one fused kernel: the classic wiring
 * mistake of a custom architecture (or eager attention in transformers). Softmax launches that no
 * fused attention kernel accounts for are the signal; a sampling softmax runs once per step and
 * stays far below the per-layer rate.
 */
import { LINEAR_FAMILIES } from '../../model/family-ids.js';
import { defineRule } from '../rule.js';
import type { Kernel } from '../../model/profile.js';
import { familyTotals, lockstepKernels, percent, round } from '../profile-measures.js';

/** llama.cpp's ggml kernels: their fused path is a run flag, not a code change. */
const LLAMA_CPP = /^soft_max_f32|(?:^|[^a-z])mul_mat_(?:vec_)?q|^ggml_|flash_attn_ext/m;

/**
 * Concatenation joins tensors (RoPE's halves, a cache append) per layer whether or not attention is
 * fused: a launch count it shares with the softmax says nothing about attention.
 */
const CONCATENATION = /CatArray|concat|(?:^|[^a-z])cat(?:[^a-z]|$)/i;
const isConcatenation = (kernel: Kernel): boolean => CONCATENATION.test(kernel.name) || /\baten::(?:cat|stack)\b/.test(kernel.launchedBy ?? '');

export default defineRule({
  meta: {
    id: 'unfused-attention',
    severity: 'error',
    title: 'Attention is not fused',
    stage: 'kernels',
    needs: ['kernel-breakdown'],
    description: 'Softmax kernels run at a per-layer rate with no fused attention kernel to account for them: attention is matmul + softmax + elementwise (an error when no fused attention kernel ran at all, a warning when some did).',
    defaults: { minSoftmaxShare: 0.002, minSoftmaxPerLinearLaunch: 0.03 },
    units: { minSoftmaxShare: 'fraction', minSoftmaxPerLinearLaunch: 'ratio' },
  },
  check({ profile, options }) {
    const softmax = familyTotals(profile, ['attention-softmax']);
    const fused = familyTotals(profile, ['attention-fused']);
    const bmm = familyTotals(profile, ['attention-bmm']);
    const linear = familyTotals(profile, LINEAR_FAMILIES);
    const unexplained = softmax.instances - fused.instances;
    if (softmax.share < options.minSoftmaxShare || unexplained <= 0) return [];
    if (unexplained < options.minSoftmaxPerLinearLaunch * linear.instances) return [];
    // Conclusive when no fused attention kernel ran at all: every layer's attention is matmul +
    // softmax. With some fused launches beside the softmax ones the reading is mixed (another
    // softmax user, one path fused and one not): a warning, which does not fail by default.
    const conclusive = fused.instances === 0;
    // The copies and layout changes that keep step with the softmax, layer by layer, are part of this
    // attention (the KV heads repeated for the matmul, the scores cast for the softmax): named as data.
    const lockstep = lockstepKernels(profile, 'attention-softmax', ['copy'], isConcatenation);
    return [
      {
        severity: conclusive ? 'error' : 'warning',
        message: `Attention appears unfused: ${softmax.instances} softmax launches (${percent(softmax.share)} of kernel time) against ${fused.instances} fused attention launches.`,
        evidence: {
          softmaxShare: round(softmax.share),
          softmaxLaunches: softmax.instances,
          fusedAttentionLaunches: fused.instances,
          linearLaunches: linear.instances,
          bmmShare: round(bmm.share),
          fusedAttentionShare: round(fused.share),
        },
        ...(lockstep.length ? { lockstepKernels: lockstep } : {}),
        advice: `${LLAMA_CPP.test(profile.kernels.map((k) => k.name).join('\n')) ? 'llama.cpp: run with flash attention on (-fa / --flash-attn): flash_attn_ext then replaces soft_max_f32 and the KQ/KQV matmuls. ' : ''}Use a fused attention kernel. transformers: from_pretrained(..., attn_implementation="sdpa") or "flash_attention_2" (not "eager"); PyTorch: torch.nn.functional.scaled_dot_product_attention instead of matmul + softmax. MAX custom architecture: build attention from the max.nn attention layers (they lower to the *_mha_* / flash kernels) rather than ops.matmul + ops.softmax. Fused attention shows up as flash/mha/sdpa kernels in the next capture.`,
      },
    ];
  },
});
