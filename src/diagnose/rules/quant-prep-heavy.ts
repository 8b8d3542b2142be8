/**
 * Low-bit runs quantize activations and lay out scales before their matmuls. That is normal while
 * it stays small; when the prep kernels take as long as the matmuls they feed, the low-bit path
 * loses its point.
 *
 * Prep is seen by name (`*quant*` kernels: the `quantize` family) and, where the trace links kernels
 * to CPU ops, by what it does: a quantize written as plain PyTorch ops (`x.abs().amax(-1)`, then
 * div / round / clamp and a cast) launches ordinary reduce and elementwise kernels, which count as
 * prep when the capture also holds the matmul op that takes low-bit inputs (`aten::_int_mm`,
 * `aten::_scaled_mm`). Weights dequantized at run time to feed bf16 matmuls are a warning of their own.
 */
import type { Kernel, Profile } from '../../model/profile.js';
import { LINEAR_FAMILIES } from '../../model/family-ids.js';
import { defineRule } from '../rule.js';
import { familyTotals, kernelProfileCommand, percent, round } from '../profile-measures.js';

/** The op that finds a quantize's scale: the absolute maximum of a row or tensor. */
const SCALE_OP = /^aten::(?:abs_?|amax|max|aminmax)$/;
/** The ops that apply it: divide (or multiply by the reciprocal), round, saturate. */
const APPLY_OP = /^aten::(?:div_?|reciprocal_?|round_?|clamp_?|clamp_min_?|clamp_max_?|clip_?)$/;
/** Matmul ops whose inputs are low-bit: whatever makes those inputs is quantize prep. */
const LOWBIT_MATMUL_OP = /aten::(?:_int_mm|_scaled_mm|_scaled_grouped_mm)\b/;
/** A quantize or dequantize named by the op chain itself (a record_function, a custom op). */
const NAMED_QUANT_OP = /quant/i;
const DEQUANT = /dequant/i;
/** A dequantized KV cache feeds attention, not the linear layers. */
const KV_CACHE = /kv|cache/i;
/**
 * A low-bit data type in a kernel's name: what makes a quantize kernel evidence of a low-bit path.
 * The word "quant" alone is not (TensorRT-LLM passes `QuantParams` to its bf16 MoE kernels too).
 */
const LOWBIT_DTYPE = /fp8|float8|f8e[45]m|e4m3|e5m2|e2m1|fp4|mxfp|nvfp|int8|int4|(?:^|[^a-z])[su]8(?:[^a-z0-9]|$)|q[48]_|q8_1|hfp8|w[48]a(?:8|16)/i;
/** Share of a kernel's time its quantize function must have launched for the kernel to count. */
const MIN_FUNCTION_SHARE = 0.9;
/** Chains listed in the evidence, most time first. */
const MAX_CHAINS = 6;

/** User families are never linear here: only the built-in matmul families are. */
const LINEAR = new Set<string>(LINEAR_FAMILIES);

/** The innermost op of a chain (`aten::to > aten::_to_copy > aten::copy_` → `aten::copy_`). */
function innermostOp(chain: string): string {
  const ops = chain.split(' > ');
  return ops[ops.length - 1]!.trim();
}

function totalsOf(profile: Profile, kernels: readonly Kernel[]): { ns: number; instances: number; share: number } {
  const ns = kernels.reduce((sum, k) => sum + k.totalNs, 0);
  const instances = kernels.reduce((sum, k) => sum + k.instances, 0);
  return { ns, instances, share: profile.totalKernelNs > 0 ? ns / profile.totalKernelNs : 0 };
}

const namesQuantize = (text: string): boolean => NAMED_QUANT_OP.test(text) && !DEQUANT.test(text);

/**
 * The workload's Python function that launched the kernel (with_stack), when its name says quantize
 * and it launched nearly all of the kernel's time: a cast kernel shared with a norm's `.float()` is
 * not counted whole for the part a quantize ran.
 */
function quantizeFunction(kernel: Kernel): string | undefined {
  const site = kernel.pythonSites?.[0];
  return site !== undefined && site.share >= MIN_FUNCTION_SHARE && namesQuantize(site.function) ? site.function : undefined;
}

/** A kernel's op chain as the evidence gives it, behind the quantize function that ran it, if any. */
function chainLabel(kernel: Kernel): string | undefined {
  if (!kernel.launchedBy) return undefined;
  const fn = quantizeFunction(kernel);
  return fn ? `${fn}: ${kernel.launchedBy}` : kernel.launchedBy;
}

/**
 * Kernels of a quantize written as plain ops, read from their op chains: only when a matmul op that
 * takes low-bit inputs ran (the quantized tensors must come from somewhere), and only when the
 * ops found form a quantize (a scale op and an op that applies it), or the chain or the workload's
 * function that launched the kernel names a quantize (then its casts count too).
 */
function plainOpPrep(profile: Profile, fedByOp: boolean): Kernel[] {
  if (!fedByOp) return [];
  const candidates = profile.kernels.filter(
    (k) => k.launchedBy !== undefined && k.family !== 'quantize' && !LINEAR.has(k.family) && !LOWBIT_MATMUL_OP.test(k.launchedBy),
  );
  const named = candidates.filter((k) => namesQuantize(k.launchedBy!) || namesQuantize(quantizeFunction(k) ?? ''));
  const scale = candidates.filter((k) => SCALE_OP.test(innermostOp(k.launchedBy!)));
  const apply = candidates.filter((k) => APPLY_OP.test(innermostOp(k.launchedBy!)));
  const byOps = scale.length > 0 && apply.length > 0 ? [...scale, ...apply] : [];
  return [...new Set([...named, ...byOps])];
}

/** `chain (share)` of each distinct chain, most time first: the ops that show what the kernels do. */
function chainsText(profile: Profile, kernels: readonly Kernel[]): string {
  const byChain = new Map<string, number>();
  for (const k of kernels) {
    const label = chainLabel(k);
    if (label) byChain.set(label, (byChain.get(label) ?? 0) + k.totalNs);
  }
  return [...byChain]
    .sort((a, b) => b[1] - a[1])
    .slice(0, MAX_CHAINS)
    .map(([chain, ns]) => `${chain} (${percent(profile.totalKernelNs > 0 ? ns / profile.totalKernelNs : 0)})`)
    .join('; ');
}

const heaviest = (kernels: readonly Kernel[]): Kernel => [...kernels].sort((a, b) => b.totalNs - a.totalNs)[0]!;

export default defineRule({
  meta: {
    id: 'quant-prep-heavy',
    severity: 'warning',
    title: 'Quantize / scale kernels dwarf the matmuls they feed',
    stage: 'kernels',
    needs: ['kernel-breakdown'],
    description:
      'Quantization and scale-layout kernels, and quantizes written as plain ops that feed _int_mm / _scaled_mm, are reported; they are a problem when their time reaches the configured fraction of the low-bit matmul time, or when weights are dequantized at run time to feed bf16 matmuls.',
    defaults: { minQuantizeShare: 0.005, maxQuantizeToMatmulRatio: 1, workload: '<workload command>' },
    units: { minQuantizeShare: 'fraction', maxQuantizeToMatmulRatio: 'ratio' },
  },
  check({ profile, options }) {
    // The matmuls low-bit inputs feed: named low-bit GEMMs, and any kernel an _int_mm / _scaled_mm launched.
    const lowbitKernels = profile.kernels.filter((k) => k.family === 'lowbit-gemm' || (k.launchedBy !== undefined && LOWBIT_MATMUL_OP.test(k.launchedBy)));
    const fedByOp = lowbitKernels.find((k) => k.launchedBy !== undefined && LOWBIT_MATMUL_OP.test(k.launchedBy));
    const lowbit = totalsOf(profile, lowbitKernels);
    const named = profile.kernels.filter((k) => k.family === 'quantize');
    const plain = plainOpPrep(profile, fedByOp !== undefined);
    const prepKernels = [...named, ...plain];
    const quantize = totalsOf(profile, prepKernels);
    const linear = familyTotals(profile, LINEAR_FAMILIES);

    // Weights dequantized at run time with no low-bit matmul: the dequantized copy feeds the bf16 matmuls.
    const dequant = profile.kernels.filter(
      (k) => !LINEAR.has(k.family) && !KV_CACHE.test(k.name) && (DEQUANT.test(k.name) || DEQUANT.test(k.launchedBy ?? '') || DEQUANT.test(k.pythonSites?.[0]?.function ?? '')),
    );
    const dequantTotals = totalsOf(profile, dequant);
    if (lowbit.ns === 0 && linear.ns > 0 && dequantTotals.share >= options.minQuantizeShare) {
      const top = heaviest(dequant);
      const chains = chainsText(profile, dequant);
      return [
        {
          message: `Weights are dequantized at run time to feed bf16 matmuls: dequantize kernels take ${percent(dequantTotals.share)} of kernel time (${dequantTotals.instances} launches), ${round(dequantTotals.ns / linear.ns, 2)}x the bf16 matmul time they feed. The low-bit weights save memory, but every step pays to expand them and the matmuls run at bf16 speed.`,
          evidence: {
            dequantizeShare: round(dequantTotals.share),
            dequantizeLaunches: dequantTotals.instances,
            matmulShare: round(linear.share),
            dequantizeToMatmulRatio: round(dequantTotals.ns / linear.ns),
            matmulFamily: 'linear',
            ...(chains ? { dequantizeOps: chains } : {}),
          },
          advice:
            'Run the matmul on the low-bit weights instead of expanding them each step: an fp8 GEMM with the weight scales (torch._scaled_mm, vLLM/SGLang fp8 linear methods, a weight-only kernel such as Marlin/Machete for int4/fp8), or, if bf16 matmuls are wanted, dequantize once at load and keep the bf16 weights. Then profile the dequantize kernel:',
          command: kernelProfileCommand(profile, top.name, top.instances, options.workload),
          kernel: top.name,
        },
      ];
    }

    if (prepKernels.length === 0 || quantize.share < options.minQuantizeShare) return [];
    // Evidence of a low-bit path first: a low-bit matmul, a quantize written as plain ops feeding
    // one, or a low-bit dtype in a prep kernel's name. Without it these kernels are not prep.
    if (lowbit.ns === 0 && plain.length === 0 && !named.some((k) => LOWBIT_DTYPE.test(k.name))) return [];
    const fed = lowbit.ns > 0 ? lowbit : linear;
    const ratio = fed.ns > 0 ? quantize.ns / fed.ns : Number.POSITIVE_INFINITY;
    const heavy = ratio >= options.maxQuantizeToMatmulRatio;
    const top = heaviest(prepKernels);
    const plainTotals = totalsOf(profile, plain);
    const evidence = {
      quantizeShare: round(quantize.share),
      matmulShare: round(fed.share),
      quantizeToMatmulRatio: Number.isFinite(ratio) ? round(ratio) : -1,
      matmulFamily: lowbit.ns > 0 ? 'lowbit-gemm' : 'linear',
      quantizeLaunches: quantize.instances,
      ...(plain.length > 0
        ? { plainOpShare: round(plainTotals.share), plainOpChains: chainsText(profile, plain), fedBy: innermostOp(fedByOp!.launchedBy!) }
        : {}),
    };
    // Said of a quantize written as plain ops, so the reader sees why ordinary kernels count.
    const plainText =
      plain.length > 0
        ? ` (${percent(plainTotals.share)} of kernel time in a quantize written as plain ops: ${[...new Set(plain.map((k) => innermostOp(k.launchedBy!)))].join(', ')} feeding ${innermostOp(fedByOp!.launchedBy!)})`
        : '';
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
          message: `Low-bit prep: quantize/scale kernels take ${percent(quantize.share)} of kernel time${plainText}, ${percent(ratio)} of the matmuls they feed (normal).`,
          evidence,
          advice: 'Normal for fp8/fp4 paths. Watch the ratio across changes; a jump means a fused quantize path stopped being used.',
        },
      ];
    }
    return [
      {
        message: `Quantize/scale kernels take ${percent(quantize.share)} of kernel time${plainText}, ${Number.isFinite(ratio) ? `${round(ratio, 2)}x` : 'more than'} the matmul time they feed.`,
        evidence,
        advice: [
          plain.length > 0
            ? 'The quantize runs as separate PyTorch ops, each a full pass over the activation: fuse it into one kernel (torch.compile of the quantize function, a Triton per-token quant kernel) or into the norm that produces the activation. '
            : 'Fuse activation quantization into the kernel that produces the activation (norm + quant, e.g. rms_norm_fused_fp8 / fused_rope_rmsnorm_quantization in MAX, fused_add_rms_norm with static fp8 scales in vLLM). ',
          'Quantize weights offline rather than per call, and prefer static activation scales. Then profile the heaviest prep kernel:',
        ].join(''),
        command: kernelProfileCommand(profile, top.name, top.instances, options.workload),
        kernel: top.name,
      },
    ];
  },
});
