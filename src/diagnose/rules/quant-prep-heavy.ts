/**
 * Low-bit runs quantize activations and lay out scales before their matmuls. That is normal while
 * it stays small; when the prep kernels take as long as the matmuls they feed, the low-bit path
 * loses its point.
 */
import { LINEAR_FAMILIES } from '../../model/family-ids.js';
import { defineRule } from '../rule.js';
import { familyTotals, kernelProfileCommand, percent, round } from '../profile-measures.js';

export default defineRule({
  meta: {
    id: 'quant-prep-heavy',
    severity: 'warning',
    title: 'Quantize / scale kernels dwarf the matmuls they feed',
    stage: 'kernels',
    needs: ['kernel-breakdown'],
    description: 'Quantization and scale-layout kernels are reported; they are a problem when their time reaches the configured fraction of the low-bit matmul time.',
    defaults: { minQuantizeShare: 0.005, maxQuantizeToMatmulRatio: 1, workload: '<workload command>' },
  },
  check({ profile, options }) {
    const quantize = familyTotals(profile, ['quantize']);
    if (quantize.share < options.minQuantizeShare) return [];
    const lowbit = familyTotals(profile, ['lowbit-gemm']);
    // Without named low-bit matmuls (e.g. fp8 cuBLAS kernels with plain names), compare with all linear work.
    const fed = lowbit.ns > 0 ? lowbit : familyTotals(profile, LINEAR_FAMILIES);
    const ratio = fed.ns > 0 ? quantize.ns / fed.ns : Number.POSITIVE_INFINITY;
    const heavy = ratio >= options.maxQuantizeToMatmulRatio;
    const top = profile.kernels.find((k) => k.family === 'quantize')!;
    const evidence = {
      quantizeShare: round(quantize.share),
      matmulShare: round(fed.share),
      quantizeToMatmulRatio: Number.isFinite(ratio) ? round(ratio) : -1,
      matmulFamily: lowbit.ns > 0 ? 'lowbit-gemm' : 'linear',
      quantizeLaunches: quantize.instances,
    };
    if (lowbit.ns === 0 && heavy) {
      // No low-bit matmul in the capture: nothing shows what these kernels feed (fbgemm's
      // _float_to_hfp8 compresses embeddings for an all-to-all, not activations for a GEMM).
      return [
        {
          severity: 'info',
          message: `Quantize/scale kernels take ${percent(quantize.share)} of kernel time, but the capture holds no low-bit matmul for them to feed: they may serve communication or storage rather than the linear layers.`,
          evidence,
          advice: 'If this run should use low-bit matmuls, check that their kernels ran (fp8/fp4 GEMMs are named e4m3, qq, block_scaled …); otherwise these kernels are not linear-layer prep.',
        },
      ];
    }
    if (!heavy) {
      return [
        {
          severity: 'info',
          message: `Low-bit prep: quantize/scale kernels take ${percent(quantize.share)} of kernel time, ${percent(ratio)} of the matmuls they feed (normal).`,
          evidence,
          advice: 'Normal for fp8/fp4 paths. Watch the ratio across changes; a jump means a fused quantize path stopped being used.',
        },
      ];
    }
    return [
      {
        message: `Quantize/scale kernels take ${percent(quantize.share)} of kernel time, ${Number.isFinite(ratio) ? `${round(ratio, 2)}x` : 'more than'} the matmul time they feed.`,
        evidence,
        advice:
          'Fuse activation quantization into the kernel that produces the activation (norm + quant, e.g. rms_norm_fused_fp8 / fused_rope_rmsnorm_quantization in MAX, fused_add_rms_norm with static fp8 scales in vLLM), quantize weights offline rather than per call, and prefer static activation scales. Then profile the heaviest prep kernel:',
        command: kernelProfileCommand(profile, top.name, top.instances, options.workload),
        kernel: top.name,
      },
    ];
  },
});
