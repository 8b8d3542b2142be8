/**
 * Copy and layout kernels take a large share of GPU time: direct copies of strided views,
 * transposes and permutes, `cat`, `.contiguous()`, and above all the KV heads of a GQA cache
 * repeated to every query head on each step. They move bytes and compute nothing, so the fix is to
 * not make the copy (native GQA, a layout the consumer reads as it is), never to tune the kernel.
 */
import type { Kernel } from '../../model/profile.js';
import { defineRule } from '../rule.js';
import { familyTotals, launchOrigin, percent, pythonSiteText, round } from '../profile-measures.js';

/** Ops that repeat KV heads (transformers' repeat_kv is expand + reshape, which copies). */
const KV_REPEAT_OP = /repeat_interleave|repeat_kv|aten::repeat\b|aten::expand/;
/** Ops that only change the dtype (aten::to, .float(), .half()). */
const CAST_OP = /aten::_to_copy|aten::to\b/;
/**
 * What the largest copy does, as a closed id: the advice branches on it, and the English label in
 * the message and the evidence's `pattern` comes from COPY_CAUSE_LABEL alone.
 */
export type CopyCause = 'kv-repeat' | 'dtype-cast' | 'concat' | 'transpose' | 'strided-copy' | 'copy';

const COPY_CAUSE_LABEL: Readonly<Record<CopyCause, string>> = {
  'kv-repeat': 'KV heads repeated (repeat_interleave / repeat_kv)',
  'dtype-cast': 'dtype casts (.to())',
  concat: 'concatenation (cat)',
  transpose: 'transpose / permute',
  'strided-copy': 'strided copies (.contiguous(), reshape of a transposed or expanded view)',
  copy: 'copies',
};

/** Kernel names that tell the cause when the trace does not name the launching op; first match wins. */
const NAME_PATTERNS: ReadonlyArray<readonly [RegExp, CopyCause]> = [
  [/bfloat16_copy_kernel|float16_copy_kernel|convert_unary/i, 'dtype-cast'],
  [/CatArray|concat|\bcat\b/i, 'concat'],
  [/transpose|permute|nchwToNhwc|nhwcToNchw/i, 'transpose'],
  [/direct_copy|copy_kernel|contiguous|copy_/i, 'strided-copy'],
];

function causeOf(kernel: Kernel): CopyCause {
  if (kernel.launchedBy && KV_REPEAT_OP.test(kernel.launchedBy)) return 'kv-repeat';
  if (kernel.launchedBy && CAST_OP.test(kernel.launchedBy)) return 'dtype-cast';
  const found = NAME_PATTERNS.find(([pattern]) => pattern.test(kernel.name));
  return found ? found[1] : 'copy';
}

export default defineRule({
  meta: {
    id: 'copy-heavy',
    severity: 'warning',
    title: 'Copy and layout kernels take a large share of GPU time',
    stage: 'kernels',
    needs: ['kernel-breakdown'],
    description: 'Direct copies, transposes, permutes, cat and KV-head expands take a large share of kernel time: data is moved, not computed on.',
    // A quarter of kernel time moving bytes: well above the few percent a decode spends writing its
    // KV cache and casting, and far below what a repeated GQA cache costs (57 % on an H200).
    defaults: { minCopyShare: 0.25 },
    units: { minCopyShare: 'fraction' },
  },
  check({ profile, options }) {
    const copy = familyTotals(profile, ['copy']);
    if (copy.share < options.minCopyShare) return [];
    const top = profile.kernels.filter((k) => k.family === 'copy').sort((a, b) => b.totalNs - a.totalNs)[0]!;
    const cause = causeOf(top);
    const pattern = COPY_CAUSE_LABEL[cause];
    const attributed = top.launchedBy !== undefined;
    const site = top.pythonSites?.[0];
    const advice = [
      cause === 'dtype-cast'
        ? 'Keep activations in one dtype through the step: cast weights once at load, not per call, and let torch.compile fuse the remaining casts into their neighbours.'
        : cause === 'kv-repeat'
        ? 'Stop repeating the KV heads: pass the grouped K and V to a kernel that reads them as they are (torch: F.scaled_dot_product_attention(..., enable_gqa=True); FlashAttention, FlashInfer and vLLM attention take GQA natively; transformers: attn_implementation="sdpa" or "flash_attention_2").'
        : 'Find the op that makes the copy and remove it: if K/V heads are repeated for GQA (repeat_kv, repeat_interleave, expand(...).reshape), use native GQA (F.scaled_dot_product_attention(..., enable_gqa=True), FlashAttention/FlashInfer); if a .contiguous() or .transpose().reshape() feeds a matmul, keep the layout the consumer reads (or fuse the permute into it, e.g. under torch.compile).',
      attributed || (site && (!site.graphReplay || site.graphCapture))
        ? ''
        : ' This trace does not say which op launched the kernel (no CPU ops for it, as under CUDA-graph replay): profile a few eager steps with torch.profiler(record_shapes=True, with_stack=True) to see it.',
    ].join('');
    return [
      {
        message: `Copy and layout kernels take ${percent(copy.share)} of kernel time. The largest, ${pattern}, is ${percent(top.share)} over ${top.instances} launches${launchOrigin(top)}.`,
        evidence: {
          copyShare: round(copy.share),
          copyLaunches: copy.instances,
          topCopyShare: round(top.share),
          topCopyLaunches: top.instances,
          pattern,
          attributed,
          ...(top.launchedBy ? { launchedBy: top.launchedBy } : {}),
          ...(site ? { pythonSite: pythonSiteText(site).replace(/`/g, ''), pythonSiteShare: site.share } : {}),
          // Last, so the entries a short summary shows (the first few) stay as they were.
          cause,
        },
        advice,
        kernel: top.name,
      },
    ];
  },
});
