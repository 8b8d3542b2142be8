/**
 * What to do about a bound depends on what the kernel is. A copy near the SM roof is issue-bound on
 * its index math and is fixed by not copying, never by a lower-precision tensor-core path; a GEMM is
 * fixed by its tile and its precision; attention by its kernel and its KV layout; a reduction by
 * fusing it. A collective waits on its peers: Nsight Compute's view of one GPU does not explain it.
 */
import type { MemoryUnit } from './ncu-metrics.js';
import type { Bound } from './ncu-bound.js';
import { LINEAR_FAMILIES, type FamilyId, type KernelFamily } from '../model/family-ids.js';

export type KernelKind = 'copy' | 'elementwise' | 'gemm' | 'attention' | 'reduction' | 'collective' | 'other';

const GEMM_FAMILIES: ReadonlySet<KernelFamily> = new Set(LINEAR_FAMILIES);
const ATTENTION_FAMILIES: ReadonlySet<KernelFamily> = new Set<FamilyId>(['attention-fused', 'attention-softmax', 'attention-bmm']);
const REDUCTION_FAMILIES: ReadonlySet<KernelFamily> = new Set<FamilyId>(['reduce', 'norm']);
/** Layout work among elementwise kernels: direct copies, transposes and permutes, cat, contiguous, KV-head expands. */
const COPY_NAME = /direct_copy|copy_kernel|CatArray|\bcat_|transpose|permute|contiguous|repeat_interleave|repeat_kv|expand_kv|copyBuffer/i;

const MATMUL_NAME = /gemm|gemv|matmul|mul_mat|QuantDot|dot_?product/i;

/** The kind of work a kernel does, from its family (and its name, for copies filed as elementwise). */
export function kernelKind(family: KernelFamily | undefined, name: string): KernelKind {
  if (family === 'collective') return 'collective';
  if (family === 'copy' || ((family === 'elementwise' || family === undefined || family === 'other') && COPY_NAME.test(name))) return 'copy';
  if (family && GEMM_FAMILIES.has(family)) return 'gemm';
  // A quantized matmul filed as quantize or other by an older table (QuantDot…, mul_mat_q) is a GEMM.
  if ((family === 'quantize' || family === 'other' || family === undefined) && MATMUL_NAME.test(name)) return 'gemm';
  if (family && ATTENTION_FAMILIES.has(family)) return 'attention';
  if (family && REDUCTION_FAMILIES.has(family)) return 'reduction';
  // A KV-cache write is needed work, not a copy to avoid; it is read as elementwise.
  if (family === 'elementwise' || family === 'rope' || family === 'quantize' || family === 'kv-cache') return 'elementwise';
  return 'other';
}

const AVOID_COPY =
  'The fastest copy is the one not made: keep tensors in the layout and type their consumer reads (no .contiguous() after a permute or transpose, no cast there and back), use the attention kernel\'s native GQA instead of repeat_kv/repeat_interleave of the KV heads, and fuse what remains into the consumer (torch.compile, or a kernel that takes strided input).';

/** Advice for a bound, by kind; the family tells a quantized GEMM (`lowbit-gemm`) from a dense one. */
export function boundAdvice(bound: Bound, kind: KernelKind, unit: MemoryUnit | undefined, family: KernelFamily | undefined): string {
  const lowBit = family === 'lowbit-gemm' || family === 'quantize';
  if (bound === 'memory') {
    switch (kind) {
      case 'copy':
        return `The kernel is a copy, so it is as fast as its bytes allow${unit && unit !== 'DRAM' ? `, and ${unit} being busier than DRAM says its accesses are strided` : ''}. ${AVOID_COPY}`;
      case 'elementwise':
        return 'An elementwise kernel at a memory roof: fuse it with its producer or consumer so the tensor is read and written once (torch.compile, a fused epilogue), and keep activations in the narrowest type the model allows.';
      case 'attention':
        return 'Attention at a memory roof streams its K and V: fewer bytes per token make it faster (a lower-precision KV cache such as FP8, fewer KV heads through GQA or MQA), and a split-KV decode kernel keeps the bandwidth busy.';
      case 'reduction':
        return 'A reduction at a memory roof reads its input once already: fuse it with its neighbours (residual add and RMSNorm in one kernel, the norm into the next matmul\'s prologue) so the activations are not read again.';
      case 'gemm':
        return unit === 'DRAM' || unit === undefined
          ? `The GEMM streams close to the DRAM roof: fewer bytes make it faster (${lowBit ? 'a smaller weight format or larger quantization groups' : 'lower-precision weights such as FP8 or INT4'}, more tokens per weight read through batching, fusing the consumer so the output is written once).`
          : `The ${unit} cache is the busiest unit: the tiles re-read data from it. A tile shape that reuses more per load (a larger tile, or a swizzled layout), or a kernel variant tuned for this shape, cuts that traffic.`;
      default:
        return unit === 'DRAM' || unit === undefined
          ? 'The kernel streams close to the DRAM roof: only fewer bytes make it faster (a narrower data type, fusing its producer or consumer so data is read once).'
          : `The ${unit} cache is the busiest unit: data is re-read from it many times. Better reuse (tiling into shared memory, fewer passes) or coalesced accesses cut that traffic.`;
    }
  }
  if (bound === 'compute') {
    switch (kind) {
      case 'copy':
        return `A copy near the SM roof is issue-bound on its index math: a strided or permuted copy computes a multi-dimensional offset for every element, and those integer instructions are what the SM throughput counts. Cheaper arithmetic does not help. ${AVOID_COPY} Where the copy must stay, a contiguous inner dimension lets it use wide vectorized loads.`;
      case 'elementwise':
        return 'An elementwise kernel near the SM roof is issue-bound on per-element instructions (index math, type conversions, transcendental functions): fuse it into a neighbour, vectorize along the contiguous dimension, or use fast intrinsics where the precision allows.';
      case 'attention':
        return 'Attention near the SM roof: a kernel built for this GPU (FlashAttention 3 or cuDNN on Hopper), an FP8 attention path, and skipping fully masked blocks (causal, sliding window) cut the math.';
      case 'reduction':
        return 'A reduction near the SM roof spends its time in instructions: vectorized loads, warp-shuffle reductions and a single pass (Welford for mean and variance) cut them.';
      case 'gemm':
        return lowBit
          ? 'A quantized GEMM near the SM roof spends its issue slots on dequantization: a kernel that dequantizes into tensor-core fragments (or a native FP8/FP4 tensor-core path on this GPU) instead of scalar unpacking, and larger quantization groups, cut that work.'
          : 'The GEMM is near the SM roof: a lower-precision tensor-core path (FP8 on Hopper, with per-channel scales), skipping padded or masked work, or a library kernel whose tile fits the shape make it faster.';
      default:
        return 'The kernel is near the SM roof: less or cheaper arithmetic makes it faster (a better-suited algorithm, a lower precision where the results allow, skipping padded or masked work).';
    }
  }
  switch (kind) {
    case 'copy':
      return `A copy that reaches no roof waits on its loads. ${AVOID_COPY}`;
    case 'elementwise':
      return 'An elementwise kernel below every roof: fuse it with its neighbours so its tensors are read once (torch.compile); in a short launch much of the time is ramp-up, which fusion or a CUDA graph hides.';
    case 'attention':
      return 'Decode attention far from every roof has too little parallel work per launch: a split-KV (flash-decoding) kernel spreads one sequence over more blocks.';
    case 'reduction':
      return 'A reduction far from every roof has too few rows per block or blocks per SM: more rows per launch, or fusing it with the producer, hides the latency.';
    case 'gemm':
      return lowBit
        ? 'A quantized GEMM far from every roof waits on its weight loads: coalesced, vectorized loads of the packed weights (and of their scales), a layout made for the kernel at load time, and more tokens per weight read.'
        : 'A GEMM far from every roof has too little parallel work for the GPU at this shape: a split-K or stream-K variant, a smaller tile, or more tokens per launch.';
    default:
      return '';
  }
}
