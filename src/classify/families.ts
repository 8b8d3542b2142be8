/**
 * The kernel-family table: one ordered list of data, first match wins. Patterns are tested against
 * the normalized name (kernel-name.ts; Itanium-mangled names are demangled first,
 * demangle.ts), so architecture prefixes and build hashes never matter.
 * The order encodes precedence for names that match several rows; each such pair is in the tests.
 * Examples are real names from profiles (nsys, Kineto, rocprof, ncu) or MAX's documented templates;
 * counter-examples are real neighbours the row must leave to another family.
 */
import type { FamilyId, KernelFamily } from '../model/family-ids.js';

/** A row of the built-in table: its family is a built-in id, so a misspelt one fails to compile. */
export interface FamilyRule {
  family: FamilyId;
  pattern: RegExp;
  /** For GEMM libraries whose name carries the output tile: a weak, one-sided shape hint. */
  shape?: (normalizedName: string) => FamilyId;
  /** Real names this rule must match; a pair gives the expected family when `shape` decides it. */
  examples: readonly (string | readonly [string, FamilyId])[];
  /** Real neighbour names that must NOT end up in this row's family (another row claims them). */
  counterExamples?: readonly string[];
}

/** A row of a user's family config: a built-in id (to claim kernels for it) or a user family. */
export interface UserFamilyRule {
  family: KernelFamily;
  pattern: RegExp;
}

/**
 * A user pattern is tested on at most this many characters of the normalized name: with the shapes
 * user-families.ts refuses, this bounds the backtracking of one test (about a millisecond).
 */
export const USER_PATTERN_NAME_CHARS = 1024;

/**
 * A tile side of at most this many rows only holds a few tokens: cuBLAS and hipBLASLt pick such a
 * narrow tile only when one GEMM dimension is that small, and in a transformer layer the small
 * dimension is the token count (weights are hundreds of rows or more). A wide tile proves nothing:
 * cuBLASLt runs 128x128 tiles for an FP8 GEMM with M = 16.
 */
export const DECODE_TILE_MAX = 16;

const NVJET_TILE = /nvjet_(?:[a-z0-9]+_)*?(\d+)x(\d+)_/i;
const HIPBLASLT_TILE = /_MT(\d+)x(\d+)x\d+/;

/**
 * cuBLAS nvjet (`nvjet_sm90_tst_256x8_…`) and hipBLASLt (`…_MT128x16x64_…`) name their output tile.
 * A narrow side (≤ 16) says decode-shaped; anything wider leaves the shape unknown (`gemm`).
 */
export function gemmShapeFromTile(name: string): FamilyId {
  const tile = NVJET_TILE.exec(name) ?? HIPBLASLT_TILE.exec(name);
  if (!tile) return 'gemm';
  const rows = Math.min(Number(tile[1]), Number(tile[2]));
  return rows <= DECODE_TILE_MAX ? 'gemm-decode' : 'gemm';
}

/** A tile side this wide or wider only comes with many rows at once, most often a prompt; but see below. */
export const WIDE_TILE_MIN = 40;

/**
 * The tile a GEMM library names, as a hint and no more: narrow (≤ 16) says few tokens; wide (≥ 40)
 * is what prompt GEMMs use, but also what cuBLASLt picks for FP8 at M = 16. Only a rule that needs
 * corroboration anyway (re-prefill) may read a wide tile, and it must say the shape came from a name.
 */
export function tileHint(name: string): 'narrow' | 'wide' | undefined {
  const tile = NVJET_TILE.exec(name) ?? HIPBLASLT_TILE.exec(name);
  if (!tile) return undefined;
  const rows = Math.min(Number(tile[1]), Number(tile[2]));
  if (rows <= DECODE_TILE_MAX) return 'narrow';
  return rows >= WIDE_TILE_MIN ? 'wide' : undefined;
}

/**
 * Inductor names a kernel `triton_{poi,red,per,tem}_fused_<aten ops, sorted, joined by _>_<n>`.
 * `tritonOps('cat', 'neg')` matches a Triton kernel whose op list holds every one of the ops, as
 * ops between underscores (an op list can also say `all_reduce` or `embedding`: it is read here
 * before any substring row can take those words for a library kernel).
 */
function tritonOps(...ops: string[]): RegExp {
  const all = ops.map((op) => `(?=\\w*?_(?:${op})(?:_|$))`).join('');
  return new RegExp(`^triton_[a-z]+_fused${all}`);
}

/** Ops that only move or re-lay data: a Triton kernel made of nothing else is a copy. */
const TRITON_LAYOUT_ONLY = /^triton_poi_fused_(?:(?:cat|clone|copy|permute|transpose|expand|view|slice|select|unsqueeze|squeeze|repeat|repeat_interleave|stack|unbind|split|as_strided|alias|constant_pad_nd)_)+\d+$/;

/** TensorRT-LLM's trtllm-gen batched GEMM: `bmm_<out>_<A><B>_<acc>_…`. */
const TRTLLM_BMM = /^bmm_(?:Mx)?(?:E[245]m\d|Bfloat16|Fp16|Fp32)_/;

/**
 * A name that is only a weak hint by itself: it takes `family` when the same capture holds a kernel
 * of `whenPresent` (evidence from the other kernels of the run), and keeps its own family otherwise.
 */
export interface ContextRule {
  family: FamilyId;
  pattern: RegExp;
  /** The families the table gives these names alone; a user family is never re-read. */
  from: readonly FamilyId[];
  whenPresent: FamilyId;
  examples: readonly string[];
}

/**
 * TensorRT-LLM's batched GEMMs are its MoE experts when its MoE routing runs beside them
 * (`moe::dev::routing::…`, `moe::dev::finalize::…`).
 */
export const MOE_WHEN_ROUTED: ContextRule = {
  family: 'moe-gemm',
  pattern: TRTLLM_BMM,
  from: ['lowbit-gemm', 'gemm'],
  whenPresent: 'moe-routing',
  examples: [
    'bmm_MxE4m3_MxE2m1MxE4m3_Fp32_t128x8x512u2_s3_et128x8_m128x8x32_cga1x1x1_16dp256b_TN_transOut_schedS_bN_swiGlu_dynBatch_sm100a',
    'bmm_Bfloat16_MxE2m1Bfloat16_Fp32_t128x8x256u2_s4_et128x8_m128x8x16_cga1x1x1_16dp256b_TN_transOut_schedS_bN_dynBatch_sm100a',
  ],
};

export const CONTEXT_RULES: readonly ContextRule[] = [MOE_WHEN_ROUTED];

export const FAMILY_TABLE: readonly FamilyRule[] = [
  // Copies and fills as profilers record them; kernels that copy (ATen direct_copy, CatArrayBatchedCopy) are `copy`.
  {
    family: 'memcpy',
    pattern: /^\[(?:CUDA|HIP) memcpy|^memcpy\b|^hipMemcpy|__amd_rocclr_copy(?:Buffer|Image)/i,
    examples: ['[CUDA memcpy Device-to-Host]', '[CUDA memcpy Device-to-Device]', 'Memcpy DtoD (Device -> Device)', 'Memcpy HtoD (Pageable -> Device)', 'hipMemcpyAsync', '__amd_rocclr_copyBuffer', '__amd_rocclr_copyBuffer.kd'],
    counterExamples: [
      'void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#4}::operator()() const::{lambda(long)#1}, std::array<char*, 2ul>, 4, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<1>, at::native::memory::StoreWithCast<1> >(int, at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#4}::operator()() const::{lambda(long)#1}, std::array<char*, 2ul>, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<1>, at::native::memory::StoreWithCast<1>)',
      'void cpy_scalar<&(void cpy_1_scalar<float, float>(char const*, char*))>(char const*, char*, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long) [clone .kd]',
    ],
  },
  {
    family: 'memset',
    pattern: /^\[(?:CUDA|HIP) memset|^memset\b|^hipMemset|__amd_rocclr_fillBuffer/i,
    examples: ['[CUDA memset]', 'Memset (Device)', '__amd_rocclr_fillBufferAligned.kd', 'hipMemsetAsync'],
    counterExamples: ['void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<long>, std::array<char*, 1ul> >(int, at::native::FillFunctor<long>, std::array<char*, 1ul>)'],
  },
  // Inductor kernels, read by their op list before the substring rows below. A norm fused with
  // RoPE counts as norm (as MAX's fused_rope_rmsnorm does).
  {
    family: 'norm',
    pattern: tritonOps('mean|var_mean', 'rsqrt'),
    examples: ['triton_red_fused__to_copy_add_mean_mul_pow_rsqrt_0', 'triton_red_fused__to_copy_add_mean_mul_pow_rsqrt_2'],
    counterExamples: ['triton_red_fused_sum_1', 'triton_poi_fused_mul_silu_1'],
  },
  // rotate_half is cat(-x2, x1): one kernel holding both is the whole RoPE, fused. (The examples
  // follow Inductor's naming; the shared captures hold no compiled RoPE yet.)
  {
    family: 'rope',
    pattern: tritonOps('cat', 'neg'),
    examples: ['triton_poi_fused_add_cat_mul_neg_slice_0', 'triton_poi_fused_add_cat_index_mul_neg_slice_unsqueeze_1'],
    counterExamples: ['triton_poi_fused_cat_3', 'triton_poi_fused_neg_0'],
  },
  // vLLM's vocab-parallel embedding: masks ids outside this rank's shard; the all_reduce follows as its own kernel.
  {
    family: 'gather-scatter',
    pattern: tritonOps('embedding|index_select|gather|scatter|scatter_add|index_put'),
    examples: ['triton_poi_fused_add_all_reduce_bitwise_and_bitwise_or_embedding_ge_lt_masked_fill_mul_sub_0', 'triton_poi_fused_embedding_0'],
    counterExamples: ['triton_poi_fused_mul_silu_1'],
  },
  {
    family: 'copy',
    pattern: TRITON_LAYOUT_ONLY,
    examples: ['triton_poi_fused_cat_3', 'triton_poi_fused_cat_4', 'triton_poi_fused_clone_0'],
    counterExamples: ['triton_poi_fused__to_copy_0', 'triton_poi_fused_add_cat_mul_neg_slice_0'],
  },
  // XLA names a fused kernel by its kind and its root op: `gemm_fusion_dot_18` is a GEMM (read by
  // the generic GEMM row below), `loop_<op>_fusion` a loop (elementwise) fusion and
  // `input_<op>_fusion` an input fusion, which XLA forms around a reduction. A bare `fusion_330`
  // names nothing and stays other.
  {
    family: 'copy',
    pattern: /^(?:loop|input)_(?:transpose|copy|concatenate)_fusion(?:_\d+)?$/,
    examples: ['loop_transpose_fusion', 'loop_concatenate_fusion_2', 'input_concatenate_fusion', 'input_transpose_fusion_1'],
    counterExamples: ['loop_add_fusion_1', 'fusion_330'],
  },
  {
    family: 'elementwise',
    pattern: /^loop_(?!(?:scatter|gather|dynamic_update_slice)_fusion)\w+_fusion(?:_\d+)?$/,
    examples: ['loop_add_fusion_1', 'loop_multiply_fusion', 'loop_convert_fusion_3'],
    counterExamples: ['input_reduce_fusion', 'fusion_330', 'gemm_fusion_dot_18'],
  },
  {
    family: 'gather-scatter',
    pattern: /^(?:loop|input)_(?:scatter|gather|dynamic_update_slice)_fusion(?:_\d+)?$/,
    examples: ['input_scatter_fusion', 'loop_gather_fusion_3', 'loop_dynamic_update_slice_fusion'],
    counterExamples: ['input_reduce_fusion'],
  },
  {
    family: 'reduce',
    pattern: /^input_\w+_fusion(?:_\d+)?$/,
    examples: ['input_reduce_fusion', 'input_reduce_fusion_2', 'input_multiply_reduce_fusion'],
    counterExamples: ['loop_add_fusion_1', 'fusion_330', 'input_concatenate_fusion', 'input_scatter_fusion'],
  },
  // Before norm (allreduce_rmsnorm) and gather (allgather). No Triton kernel is a collective. The
  // MSCCL++, NVSHMEM and DeepEP names are written from those libraries' sources (namespace::kernel).
  {
    family: 'collective',
    pattern: /^(?!triton_).*?(?:nccl|rccl|mscclpp|nvshmem|deep_ep::|cross_device_reduce|quickreduce|all_?reduce|all_?gather|reduce_?scatter|all_?to_?all|^broadcast_|^ep_(?:fused_)?(?:dispatch|combine))/i,
    examples: [
      'ncclDevKernel_AllReduce_Sum_bf16_RING_LL',
      'ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)',
      'void vllm::cross_device_reduce_1stage<__nv_bfloat16, 8>(vllm::RankData*, vllm::RankSignals, vllm::Signal*, __nv_bfloat16*, int, int)',
      'allreduce_1stage_bfloat16_False_3c1d2e4f',
      'allreduce_rmsnorm_fp8_bfloat16_9a8b7c60',
      'allgather_p2p_tma_bfloat16_0a1b2c3d',
      'ep_dispatch_async_bfloat16_11223344',
      'ep_combine_wait_bfloat16_55667788',
      'ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevComm*, unsigned long, ncclWork*)',
      'ncclDevKernel_AllGather_RING_LL(ncclDevComm*, unsigned long, ncclWork*)',
      'ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)',
      'void vllm::cross_device_reduce_1stage<__nv_bfloat16, 4>(vllm::RankData*, vllm::RankSignals, vllm::Signal*, __nv_bfloat16*, int, int)',
      'void mscclpp::allreduce6<__nv_bfloat16>',
      'void nvshmemi_transfer_rma_nbi_kernel<(nvshmemi_op_t)0>',
      'void deep_ep::intranode::dispatch<8, 768, 8192>',
      'void deep_ep::internode_ll::combine<false, 7168>',
    ],
    counterExamples: [
      'triton_poi_fused_add_all_reduce_bitwise_and_bitwise_or_embedding_ge_lt_masked_fill_mul_sub_0',
      'void cutlass::device_kernel<flash::FlashAttnFwdCombine<cute::tuple<cute::C<8>, cute::C<128> >, 5, 256, 1, false, true, cutlass::bfloat16_t, float, cutlass::arch::Sm90> >(flash::FlashAttnFwdCombine<cute::tuple<cute::C<8>, cute::C<128> >, 5, 256, 1, false, true, cutlass::bfloat16_t, float, cutlass::arch::Sm90>::Params)',
      'void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4> >(at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4>)',
    ],
  },
  // Before attention (`reshape_and_cache_flash` says flash but only writes the cache).
  {
    family: 'kv-cache',
    // CK's FmhaFwdAppendKV writes new K/V (with RoPE) into the cache; FlashInfer's kv_indices kernel lays out page indices.
    pattern: /reshape_and_cache|concat_and_cache|store_kv_?cache|kv_?cache_(?:write|update|store|copy)|copy_blocks|swap_blocks|(?:^|\s)k_set_rows\b|FmhaFwdAppendKV|create_flashinfer_kv_indices/i,
    examples: [
      // llama.cpp writes new K/V rows into its cache with set_rows.
      'void k_set_rows<float, long, __half>(float const*, long const*, __half*, long, long, long, long, long, long, long, long, long, long, long, long, long, long, HIP_vector_type<unsigned int, 3u>, HIP_vector_type<unsigned int, 3u>) [clone .kd]',
      'void vllm::reshape_and_cache_flash_kernel<__nv_bfloat16, __nv_bfloat16, (vllm::Fp8KVCacheDataType)0>(const T1 *, const T1 *, T2 *, T2 *, const long *, long, long, long, long, long, int, int, int, const float *, const float *, int)',
      'void vllm::concat_and_cache_mla_kernel<__nv_bfloat16, __nv_bfloat16, (vllm::Fp8KVCacheDataType)0>(const T1 *, const T1 *, T2 *, const long *, int, int, int, int, int, int, const float *)',
      // SGLang extend on MI300X (fixtures/external-3).
      'create_flashinfer_kv_indices_triton',
      'void (anonymous namespace)::store_kvcache<2048l, 4, false, long>((anonymous namespace)::StoreKVCacheParams)',
    ],
    counterExamples: ['void k_get_rows_float<float, float>(float const*, int const*, float*, long, long, long, unsigned long, unsigned long, unsigned long, unsigned long, unsigned long, unsigned long, unsigned long, unsigned long) [clone .kd]'],
  },
  // Before norm: MAX fuses a partial norm into a GEMV and it is still the decode linear.
  {
    family: 'gemv',
    pattern: /gemv|gevm|gemmk1_kernel|(?:^|\s)mul_mat_vec(?:_f)?</i,
    examples: [
      'gemv_split_k_bfloat16_bfloat16_bfloat16_256_f519d2c2',
      'gemv_split_k_bfloat16_bfloat16_bfloat16_128_e7d08336',
      'gemv_kernel_vector_bfloat16_bfloat16_bfloat16_8_1a2b3c4d',
      'gemv_partial_norm_kernel_bfloat16_bfloat16_4d3c2b1a',
      'linalg_gemv_gpu_gemv_split_k_6A6A6A6A',
      'std::enable_if<!T7, void>::type internal::gemvx::kernel<int, int, __nv_bfloat16, __nv_bfloat16, __nv_bfloat16, float, (bool)0, (bool)1, (bool)1, (bool)0, (int)7, (bool)0, cublasGemvParamsEx<int, cublasGemvTensorStridedBatched<const __nv_bfloat16>, cublasGemvTensorStridedBatched<const __nv_bfloat16>, cublasGemvTensorStridedBatched<__nv_bfloat16>, float>>(T13, T6, T6)',
      'void gemvNSP_kernel<__nv_bfloat16, __nv_bfloat16, __nv_bfloat16, float, 1, 32, 4, 1024, false, cublasGemvParamsEx<int, cublasGemvTensorStridedBatched<__nv_bfloat16 const>, cublasGemvTensorStridedBatched<__nv_bfloat16 const>, cublasGemvTensorStridedBatched<__nv_bfloat16>, float> >(cublasGemvParamsEx<int, cublasGemvTensorStridedBatched<__nv_bfloat16 const>, cublasGemvTensorStridedBatched<__nv_bfloat16 const>, cublasGemvTensorStridedBatched<__nv_bfloat16>, float>)',
      'void gemmk1_kernel<int, float, (int)256, (int)5, (bool)1, (bool)0, (bool)0, (bool)0, cublasGemvTensorStridedBatched<const float>, cublasGemvTensorStridedBatched<const float>, cublasGemvTensorStridedBatched<float>, float, (int)0>(cublasGemmk1Params<T2, T9, T10, T11, T12, biasType<T11::value_type, T12>::type>)',
      // llama.cpp's float GEMV (its quantized one, mul_mat_vec_q, is a low-bit GEMM).
      'void mul_mat_vec_f<__half, float, 1, 256>',
    ],
    counterExamples: [
      'void mul_mat_vec_q<(ggml_type)14, 1, false, false>(void const*, void const*, int const*, ggml_cuda_mm_fusion_args_device, float*, unsigned int, HIP_vector_type<unsigned int, 3u>, unsigned int, unsigned int, unsigned int, HIP_vector_type<unsigned int, 3u>, unsigned int, unsigned int, unsigned int, HIP_vector_type<unsigned int, 3u>, unsigned int, unsigned int, unsigned int, unsigned int) [clone .kd]',
    ],
  },
  // Before quantize: a norm that also emits fp8 is still the norm. Before rope: a fused rope+norm
  // counts as norm, but llama.cpp's `rope_norm` is its plain RoPE (the "normal" rotation, not NeoX).
  {
    family: 'norm',
    pattern: /(?<!rope_)norm(?!al)|RowwiseMoments|(?:^|\s|::)bn_(?:fw|bw)_/i,
    examples: [
      'rms_norm_gpu_warp_tiling_bfloat16_4_True_1_9f8e7d6c',
      'rms_norm_fused_residual_add_gpu_block_bfloat16_5e6f7a8b',
      'rms_norm_fused_fp8_warp_tiling_bfloat16_float8_e4m3fn_2b3c4d5e',
      'fused_rope_rmsnorm_quantization_bfloat16_7c6b5a49',
      'fused_rope_rmsnorm_bfloat16_1f2e3d4c',
      'fused_qk_rms_norm_ragged_paged_gpu_bfloat16_0f1e2d3c',
      'layer_norm_gpu_warp_tiling_bfloat16_6a5b4c3d',
      'std::enable_if<T2>(int)0&&vllm::_typeConvert<T1>::exists, void>::type vllm::fused_add_rms_norm_kernel<c10::BFloat16, (int)8>(T1 *, long, T1 *, const T1 *, float, int, int)',
      'void vllm::rms_norm_kernel<c10::BFloat16, (int)8, (int)2>(T1 *, const T1 *, long, long, long, long, long, const T1 *, float, int, int)',
      'void at::native::<unnamed>::vectorized_layer_norm_kernel<c10::BFloat16, float, (bool)1>(int, T2, const T1 *, const T1 *, const T1 *, T2 *, T2 *, T1 *)',
      'void at::native::(anonymous namespace)::LayerNormForwardCUDAKernel<float, float>(long, float const*, float const*, float const*, float const*, float const*, float*)',
      'void at::native::(anonymous namespace)::RowwiseMomentsCUDAKernel<float, float>(long, float, float const*, float*, float*)',
      'MIOpenBatchNormFwdTrainSpatial',
      'void rms_norm_f32<1024, true, false>(float const*, float*, int, long, long, long, float, float const*, long, long, long, HIP_vector_type<unsigned int, 3u>, HIP_vector_type<unsigned int, 3u>, HIP_vector_type<unsigned int, 3u>, HIP_vector_type<unsigned int, 3u>, float const*, long, long, long, HIP_vector_type<unsigned int, 3u>, HIP_vector_type<unsigned int, 3u>, HIP_vector_type<unsigned int, 3u>, HIP_vector_type<unsigned int, 3u>) [clone .kd]',
      // cuDNN batch norm, forward training and backward.
      'void cudnn::bn_fw_tr_1C11_kernel_NCHW<float, float, int, 512, true, 1>',
      'void cudnn::bn_bw_1C11_kernel_new<float, float, float2, 512, true, 1>',
    ],
    counterExamples: [
      'void rope_norm<true, false, float, __half>(float const*, __half*, int, int, int, int, int, int, int, int, int, int, int const*, float, float, float, rope_corr_dims, float, float const*, long const*, int, int, int) [clone .kd]',
      'void at::native::(anonymous namespace)::distribution_elementwise_grid_stride_kernel<float, 4, at::native::templates::cuda::normal_and_transform<float, float>(at::TensorIteratorBase&)>(int)',
    ],
  },
  {
    family: 'rope',
    pattern: /rope|rotary|rot_emb/i,
    examples: [
      'void vllm::rotary_embedding_kernel<c10::BFloat16, (bool)1>(const long *, T1 *, T1 *, const T1 *, int, long, long, long, int, int, int)',
      'rope_ragged_bfloat16_3a4b5c6d',
      'fused_qk_rope_ragged_bfloat16_8e9f0a1b',
      'void rope_norm<true, false, float, __half>(float const*, __half*, int, int, int, int, int, int, int, int, int, int, int const*, float, float, float, rope_corr_dims, float, float const*, long const*, int, int, int) [clone .kd]',
      'void rope_norm<true, false, float, float>(float const*, float*, int, int, int, int, int, int, int, int, int, int, int const*, float, float, float, rope_corr_dims, float, float const*, long const*, int, int, int) [clone .kd]',
      'void rope_neox<true, false, float, float>',
    ],
    counterExamples: ['fused_rope_rmsnorm_bfloat16_1f2e3d4c', 'void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::native::neg_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#10}::operator()() const::{lambda(c10::BFloat16)#1}>(at::TensorIteratorBase&, at::native::neg_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#10}::operator()() const::{lambda(c10::BFloat16)#1} const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::neg_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#10}::operator()() const::{lambda(c10::BFloat16)#1}>(at::TensorIteratorBase&, at::native::neg_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#10}::operator()() const::{lambda(c10::BFloat16)#1} const&)::{lambda(int)#1})'],
  },
  // Before quantize: fused attention whose template arguments speak of quantization. ck_tile's
  // kernels carry a `BlockAttentionQuantScaleEnum` (an fp8 option, off or on) and SageAttention's a
  // `QuantGranularity`; the kernel type says what they are. CK's append-KV is a cache write (kv-cache, above).
  {
    family: 'attention-fused',
    pattern: /(?:^|[\s:<,])Fmha(?:Fwd|Bwd|BatchPrefill|BatchDecode|Decode|Prefill|Pagedkv|SplitKV)\w*Kernel\b|(?:^|_)sage_?fwd|qk_int_?sv_f\d+_attn/,
    examples: [
      // SGLang extend on MI300X (fixtures/external-3), as the trace writes it: mangled.
      '_ZN7ck_tile6kentryILi2ENS_38FmhaBatchPrefillWithPagedKVCacheKernelINS_40BlockFmhaBatchPrefillPipelineQRKSVSAsyncINS_36BlockFmhaBatchPrefillPipelineProblemIDF16bDF16bDF16bffDF16bhfDF16bfDF16bNS_13TileFmhaShapeINS_8sequenceIJLi128ELi128ELi32ELi128ELi32ELi128EEEENS5_IJLi4ELi1ELi1EEEENS5_IJLi32ELi32ELi16EEEES7_S8_Lb1EEELb1ENS_17ComposedAttentionILj0ELb1EEENS_30SimplifiedGenericAttentionMaskILb1EEELb0ELi1ENS_26TileFmhaBatchPrefillTraitsILb1ELb1ELb1ELb1ELb0ELNS_22BlockAttentionBiasEnumE0ELb0ELb0ELb0ELNS_28BlockAttentionQuantScaleEnumE0ELin1ELb0ELb0ELi1ELNS_37BlockAttentionKVCacheMemoryLayoutEnumE1ELNS_36BlockAttentionKVCacheLookupTableEnumE1ELNS_33BlockAttentionKVCacheLoadModeEnumE0EEEEENS_53BlockFmhaBatchPrefillPipelineQRKSVSAsyncDefaultPolicyEEENS_17Default2DEpilogueINS_24Default2DEpilogueProblemIfDF16bLb1ELb1ELb1EEEvEEEEJNSS_21FmhaFwdGroupModeKargsEEEEvDpT1_',
      // Written from ck_tile's kernel class names (CK's fmha examples): forward and split-KV combine.
      'void ck_tile::kentry<2, ck_tile::FmhaFwdKernel<ck_tile::BlockFmhaPipelineQRKSVSAsync<ck_tile::BlockFmhaPipelineProblem<ck_tile::bf16_t> > > >(ck_tile::FmhaFwdKernel<ck_tile::BlockFmhaPipelineQRKSVSAsync<ck_tile::BlockFmhaPipelineProblem<ck_tile::bf16_t> > >::Kargs)',
      'void ck_tile::kentry<2, ck_tile::FmhaFwdSplitKVCombineKernel<ck_tile::BlockFmhaFwdSplitKVCombinePipeline<ck_tile::bf16_t> > >(ck_tile::FmhaFwdSplitKVCombineKernel<ck_tile::bf16_t>::Kargs)',
      // SageAttention: its fused int8-QK / fp8-PV attention kernels (names from its sources and the issue).
      'sage_fwd',
      'void qk_int_sv_f8_attn_kernel<128, 64, 64, 64, 128, (QuantGranularity)2, (QuantGranularity)2, float, true, __nv_bfloat16, (ComputeUnit)0, (MaskMode)1, false, false>',
    ],
    counterExamples: [
      'void ck_tile::kentry<2, ck_tile::FmhaFwdAppendKVKernel<ck_tile::BlockFmhaFwdAppendKVPipeline<ck_tile::bf16_t> > >(ck_tile::FmhaFwdAppendKVKernel<ck_tile::bf16_t>::Kargs)',
      '_ZN5aiter24add_rmsnorm_quant_kernelIDF16bDF16bLi64ELi8ELb0ELb0ELb1ELi1EEEvPT0_PT_PfS4_S4_S4_diiiiiiib',
    ],
  },
  // Before moe-gemm (its name holds GroupProblemShape-like words): ATen's fill of the grouped GEMM's
  // per-expert pointers and strides before each torch._grouped_mm, one small launch per grouped GEMM.
  {
    family: 'moe-routing',
    pattern: /(?:^|::)prepare_grouped_gemm_data</,
    examples: [
      'void at::cuda::detail::prepare_grouped_gemm_data<cutlass::bfloat16_t, cutlass::bfloat16_t, cutlass::bfloat16_t, float, cute::tuple<int, int, int>, cute::tuple<long, cute::C<1>, cute::C<0> > >(cutlass::bfloat16_t*)',
    ],
  },
  // Before quantize: TensorRT-LLM's MoE kernels take quantization parameters as arguments
  // (`QuantParams`, a `WeightOnlyQuantOp`) whatever the run's dtype, so the word says nothing of a
  // low-bit path. Its grouped GEMM of the older CUTLASS 2 path is `MoeFCGemm`; the per-step set-up
  // of the grouped GEMM's pointers and strides, one small launch per MoE layer, is MoE plumbing.
  {
    family: 'moe-gemm',
    pattern: /(?:^|::)MoeFCGemm</,
    examples: [
      // Names as TensorRT-LLM's MoE GEMM template writes them (moe_gemm_kernels_template.h), bf16 and fp16.
      'void cutlass::Kernel<cutlass::gemm::kernel::MoeFCGemm<cutlass::gemm::threadblock::MmaMultistage<cutlass::gemm::GemmShape<32, 128, 64>, cutlass::bfloat16_t, cutlass::layout::RowMajor, cutlass::bfloat16_t, cutlass::layout::ColumnMajor, float, cutlass::layout::RowMajor, cutlass::arch::OpMultiplyAdd, 4>, cutlass::epilogue::threadblock::Epilogue<cutlass::gemm::GemmShape<32, 128, 64>, cutlass::bfloat16_t>, cutlass::gemm::threadblock::GemmBatchedIdentityThreadblockSwizzle, cutlass::arch::Sm80, (cutlass::gemm::kernel::GroupScheduleMode)0>>(T1::Params)',
      'void cutlass::Kernel<cutlass::gemm::kernel::MoeFCGemm<cutlass::gemm::threadblock::MmaMultistage<cutlass::gemm::GemmShape<16, 128, 64>, cutlass::half_t, cutlass::layout::RowMajor, cutlass::half_t, cutlass::layout::ColumnMajor, float, cutlass::layout::RowMajor, cutlass::arch::OpMultiplyAdd, 3>, cutlass::epilogue::threadblock::Epilogue<cutlass::gemm::GemmShape<16, 128, 64>, cutlass::half_t>, cutlass::gemm::threadblock::GemmBatchedIdentityThreadblockSwizzle, cutlass::arch::Sm80, (cutlass::gemm::kernel::GroupScheduleMode)0>>(T1::Params)',
    ],
  },
  {
    family: 'moe-routing',
    pattern: /(?:^|::)computeStridesTmaWarpSpecializedKernel</,
    examples: [
      'void tensorrt_llm::kernels::cutlass_kernels::computeStridesTmaWarpSpecializedKernel<__nv_bfloat16, __nv_bfloat16, __nv_bfloat16, __nv_bfloat16>(const long *, tensorrt_llm::kernels::cutlass_kernels::TmaWarpSpecializedGroupedGemmInput, tensorrt_llm::kernels::cutlass_kernels::TmaWarpSpecializedGroupedGemmInput, long, long, long, long, long, long, int, const __nv_bfloat16 *, const __nv_bfloat16 *, const __nv_bfloat16 *, const __nv_bfloat16 *, tensorrt_llm::kernels::cutlass_kernels::QuantParams, const __nv_bfloat16 *, const __nv_bfloat16 *, __nv_bfloat16 *, __nv_bfloat16 *)',
      'void tensorrt_llm::kernels::cutlass_kernels::computeStridesTmaWarpSpecializedKernel<__nv_fp4_e2m1, __nv_fp4_e2m1, __nv_bfloat16, __nv_bfloat16>',
    ],
  },
  // Before lowbit-gemm: quantize ops name fp8/fp4/block-scaled too, but they only produce operands.
  {
    family: 'quantize',
    // ATen's float8_copy_kernel is `.to(float8)`: the cast that ends a quantize written as plain ops.
    pattern: /quant(?!ized_?(?:gemm|matmul|mm)|Dot)|block_scales_interleave|_to_h?fp8|fp8_cast|cast_to_fp8|marlin_repack|float8_copy_kernel/i,
    examples: [
      'quantize_dynamic_scaled_async_fp4_kernel',
      'grouped_quantize_dynamic_scaled_async_fp4_kernel',
      'quantize_dynamic_block_scaled_mxfp4_kernel',
      'block_scales_interleave_fp4_bfloat16_16_2c3d4e5f',
      'dequant_mxfp4_to_fp8_bfloat16_4f5e6d7c',
      'void vllm::scaled_fp8_quant_kernel<c10::BFloat16, c10::Float8_e4m3fn>(T2 *, const T1 *, const float *, long)',
      'void vllm::dynamic_per_token_scaled_fp8_quant_kernel<c10::BFloat16, c10::Float8_e4m3fn>(T2 *, float *, const T1 *, const float *, int)',
      '_per_token_group_quant_fp8',
      'void at::native::vectorized_elementwise_kernel<4, fbgemm_gpu::_float_to_hfp8_gpu(at::Tensor const&, long, long, double)::{lambda(float)#1}, at::detail::Array<char*, 2> >(int, fbgemm_gpu::_float_to_hfp8_gpu(at::Tensor const&, long, long, double)::{lambda(float)#1}, at::detail::Array<char*, 2>)',
      // llama.cpp quantizes activations to q8_1 before its quantized matmul.
      'void quantize_mmq_q8_1<(mmq_q8_1_ds_layout)1>(float const*, int const*, void*, long, long, long, long, long, int, int) [clone .kd]',
      'quantize_q8_1(float const*, void*, long, long, long, long, long, unsigned int, HIP_vector_type<unsigned int, 3u>) [clone .kd]',
      // aiter's FP8 MoE test on MI300 (fixtures/external-3): its inputs cast to fp8 with `.to()`.
      'void at::native::elementwise_kernel_manual_unroll<128, 8, at::native::gpu_kernel_impl_nocast<at::native::float8_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda(c10::Float8_e4m3fnuz)#1}>(at::TensorIteratorBase&, at::native::float8_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda(c10::Float8_e4m3fnuz)#1} const&)::{lambda(int, bool)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::float8_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda(c10::Float8_e4m3fnuz)#1}>(at::TensorIteratorBase&, at::native::float8_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda(c10::Float8_e4m3fnuz)#1} const&)::{lambda(int, bool)#1}) [clone .kd]',
    ],
    counterExamples: [
      'QuantDotGemmGroupedKernel<5, float>(T2 *, const unsigned char *, const BlockQ8_K *, const int *, long, long, long, unsigned long, unsigned long, bool)',
      'void mul_mat_q<(ggml_type)2, 128, false>(char const*, int const*, int const*, int const*, float*, float*, int, int, int, int, int, int, int, int, int, int, int, int, int, int, int, int, int) [clone .kd]',
    ],
  },
  // Before lowbit-gemm: grouped block-scaled matmuls are MoE experts first.
  {
    family: 'moe-gemm',
    // triton_kernels' matmul_ogs (gather/scatter matmul: the experts of vLLM's gpt-oss path), aiter's
    // two-stage MoE (`hk_moe_stage1/2`, `ck_moe_stage1`) and its assembly fmoe.
    pattern: /grouped_?(?:matmul|gemm|mm)|matmul_\w*grouped|(?:^|_)gmm_|fused_moe|moe_wna16|mxfp4_grouped|moe_routed|GroupProblemShape|(?:^|_)matmul_ogs|(?:^|_)moe_stage\d|(?:^|[\s:_])fmoe_/i,
    examples: [
      'grouped_matmul_kernel_sm100_bfloat16_bfloat16_bfloat16_t128_5d4c3b2a',
      'grouped_matmul_amd_bfloat16_bfloat16_bfloat16_6e5d4c3b',
      'naive_grouped_matmul_kernel_bfloat16_7f6e5d4c',
      'blackwell_gmm_warp_specialized_blockwise_fp8_8a7f6e5d',
      'matmul_sm100_grouped_blockwise_scaled_fp8_1d2d_9b8a7f6e',
      'grouped_matmul_block_scaled_mxfp4_kernel',
      'fused_moe_kernel',
      '_ZN7cutlass13device_kernelIN2at4cuda6detail25enable_3x_kernel_for_sm9xINS_4gemm6kernel13GemmUniversalINS5_17GroupProblemShapeIN4cute5tupleIJiiiEEEEENS5_10collective13CollectiveMmaEEEvNT_6ParamsE',
      // vLLM gpt-oss-20b decode on MI300X and aiter's FP8 MoE test (fixtures/external-3).
      '_matmul_ogs_NNT_bf16xbf16xmxfp4_16x128x256x1',
      '_matmul_ogs_NNT_bf16xbf16xmxfp4_16x128x256x1_swiglu',
      // The form of aiter's assembly MoE kernels (`aiter::fmoe_…`), as a ROCm trace prints them.
      'aiter::fmoe_bf16_blockscaleFp8_g1u1_vs_silu_1tg_32x256',
      'hk_moe_stage2_fp8_kernel_mma(__hip_bfloat16 const*, __hip_fp8_e4m3_fnuz const*, float const*, float*, int const*, int const*, int const*, float const*, int, int, int, int, int, int, int, int, int, int, int, int) [clone .kd]',
      'hk_moe_stage1_fp8_fused_act_kernel(__hip_bfloat16 const*, __hip_fp8_e4m3_fnuz const*, float const*, __hip_bfloat16*, int const*, int const*, int const*, int, int, int, int, int, int, int, int, int, int) [clone .kd]',
    ],
    counterExamples: [
      '_finalize_matmul_scatter_bf16',
      'triton_poi_fused_constant_pad_nd_moe_forward_0',
      'grouped_quantize_dynamic_scaled_async_fp4_kernel', 'QuantDotGemmGroupedKernel<5, float>(T2 *, const unsigned char *, const BlockQ8_K *, const int *, long, long, long, unsigned long, unsigned long, bool)'],
  },
  // TensorRT-LLM's trtllm-gen batched GEMMs name their types: output, then A and B (`MxE2m1` is
  // MXFP4, `E4m3` FP8). Low-bit when an operand is; the batch is MoE experts only when the same
  // capture holds TensorRT-LLM's MoE routing (MOE_WHEN_ROUTED below), so alone they stay GEMMs.
  {
    family: 'lowbit-gemm',
    pattern: TRTLLM_BMM,
    shape: (name) => (/_(?:Mx)?E[245]m\d/i.test(name) ? 'lowbit-gemm' : 'gemm'),
    examples: [
      // The prefixes the issue quotes (B200), completed after trtllm-gen's naming.
      'bmm_MxE4m3_MxE2m1MxE4m3_Fp32_t128x8x512u2_s3_et128x8_m128x8x32_cga1x1x1_16dp256b_TN_transOut_schedS_bN_swiGlu_dynBatch_sm100a',
      'bmm_Bfloat16_MxE2m1Bfloat16_Fp32_t128x8x256u2_s4_et128x8_m128x8x16_cga1x1x1_16dp256b_TN_transOut_schedS_bN_dynBatch_sm100a',
      ['bmm_Bfloat16_Bfloat16Bfloat16_Fp32_t128x8x64u2_s6_et128x8_m128x8x16_cga1x1x1_16dp256b_TN_transOut_schedS_bN_dynBatch_sm100a', 'gemm'],
    ],
    counterExamples: ['mha_bmm0_bfloat16_bfloat16_6b7c8d9e', 'batched_matmul_bfloat16_bfloat16_8d9e0f1a'],
  },
  {
    family: 'lowbit-gemm',
    // cuBLASLt nvjet spells operand types first: `qq` is FP8 A and B (`tst` is BF16). llama.cpp's
    // mul_mat_q / mul_mat_vec_q run on its quantized blocks; vllm.cpp's QuantDot* is its quantized
    // (grouped) matmul; vLLM's ROCm wvSplitKQ is the FP8 skinny GEMM.
    // CUTLASS names integer tensor-op GEMMs by their MMA shape (`i16832gemm_s8`: int8, torch._int_mm);
    // hipBLASLt puts the operand types after the layouts (`Cijk_Alik_Bljk_F8B8BS_…`: fp8 × bf8).
    pattern: /block(?:wise)?_scaled|blockwise_fp8|scaled_mm|qgemm|marlin|machete|e4m3|e5m2|fp8_?(?:gemm|matmul)|(?:gemm|matmul)_?fp8|nvfp4|mxf[468]|int8_?gemm|i8i8|w4a16|w8a8|awq_gemm|gptq|^nvjet_(?:sm\d+[a-z]?_)?qq|(?:^|\s)mul_mat_(?:vec_)?q(?:\b|_)|QuantDot|wvSplitKQ|f8f8bf16|_i\d{4,5}gemm_[su][48]|^Cijk_A[a-z]+_B[a-z]+_(?:F8|B8|I8)|(?:^|_)(?:Mx)?E2m1/i,
    examples: [
      'nvjet_sm90_qqtst_128x128_128x6_1x1_h_bz_coopA_algo2_ovscale_TNT',
      'void mul_mat_q<(ggml_type)2, 128, false>(char const*, int const*, int const*, int const*, float*, float*, int, int, int, int, int, int, int, int, int, int, int, int, int, int, int, int, int) [clone .kd]',
      'void mul_mat_vec_q<(ggml_type)14, 1, false, false>(void const*, void const*, int const*, ggml_cuda_mm_fusion_args_device, float*, unsigned int, HIP_vector_type<unsigned int, 3u>, unsigned int, unsigned int, unsigned int, HIP_vector_type<unsigned int, 3u>, unsigned int, unsigned int, unsigned int, HIP_vector_type<unsigned int, 3u>, unsigned int, unsigned int, unsigned int, unsigned int) [clone .kd]',
      'void mul_mat_vec_q<(ggml_type)2, 1, true, false>(void const*, void const*, int const*, ggml_cuda_mm_fusion_args_device, float*, unsigned int, HIP_vector_type<unsigned int, 3u>, unsigned int, unsigned int, unsigned int, HIP_vector_type<unsigned int, 3u>, unsigned int, unsigned int, unsigned int, HIP_vector_type<unsigned int, 3u>, unsigned int, unsigned int, unsigned int, unsigned int) [clone .kd]',
      'QuantDotGemmGroupedKernel<5, float>(T2 *, const unsigned char *, const BlockQ8_K *, const int *, long, long, long, unsigned long, unsigned long, bool)',
      'void wvSplitKQ_hf_sml_<__hip_bfloat16, __hip_fp8_e4m3, 64, 2, 16, 8, 2, 1>',
      'matmul_sm100_blockwise_scaled_fp8_1d2d_1c2d3e4f',
      'blackwell_warp_specialized_blockwise_fp8_2d3e4f5a',
      'bmm_sm100_blockwise_scaled_fp8_3e4f5a6b',
      'SM100_block_scaled_ss_mxf4nvf4_4f5a6b7c',
      'multistage_qgemm_bfloat16_5a6b7c8d',
      'void cutlass::device_kernel<vllm::cutlass_3x_gemm<cutlass::float_e4m3_t, cutlass::bfloat16_t, vllm::c3x::ScaledEpilogue, cute::tuple<cute::C<128>, cute::C<128>, cute::C<128> > > >(vllm::cutlass_3x_gemm<cutlass::float_e4m3_t>::GemmKernel::Params)',
      'sm90_xmma_gemm_e4m3bf16_e4m3f32_f32_tn_n_tilesize128x128x128_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas',
      'void marlin::Marlin<__nv_bfloat16, 4, 256, 4, 8, 4, false>(const int4 *, const int4 *, int4 *, const int4 *, int, int, int)',
      '_w8a8_block_fp8_matmul',
      // torch._int_mm (W8A8) as cuBLASLt runs it: the CUTLASS int8 MMA-shape name the issue quotes.
      'void cutlass::Kernel2<cutlass_80_tensorop_i16832gemm_s8_256x128_64x3_tn_align16>(cutlass_80_tensorop_i16832gemm_s8_256x128_64x3_tn_align16::Params)',
      // hipBLASLt FP8 kernels (names from hipBLASLt's own logic files).
      'Cijk_Alik_Bljk_F8B8BS_BH_BiasSB_HAS_SAB_SAV_UserArgs_MT128x128x128_MI16x16x1_SN_ISA942',
      'Cijk_Alik_Bljk_F8BS_BH_BiasSB_HAS_SAB_SAV_UserArgs_MT64x16x128_MI16x16x1_SN_ISA942',
      // TensorRT-LLM's dense trtllm-gen GEMM with MXFP4 weights (its bmm_ naming, as a gemm_).
      'gemm_Bfloat16_MxE2m1Bfloat16_Fp32_t128x8x256u2_s4_et128x8_m128x8x16_cga1x1x1_16dp256b_TN_transOut_schedS_sm100a',
    ],
    counterExamples: [
      'void cutlass::Kernel2<cutlass_80_tensorop_s16816gemm_bf16_128x64_64x6_tn_align8>(cutlass_80_tensorop_s16816gemm_bf16_128x64_64x6_tn_align8::Params)',
      'Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT128x128x64_MI16x16x1_SN_ISA942',
      'nvjet_sm90_tst_64x8_64x16_4x1_v_bz_TNT',
      'void quantize_mmq_q8_1<(mmq_q8_1_ds_layout)1>(float const*, int const*, void*, long, long, long, long, long, int, int) [clone .kd]',
      'void vllm::dynamic_per_token_scaled_fp8_quant_kernel<c10::BFloat16, c10::Float8_e4m3fn>(T2 *, float *, const T1 *, const float *, int)',
    ],
  },
  // Before attention-fused (`mha_bmm0` starts like a MAX attention kernel) and generic GEMM.
  {
    family: 'attention-bmm',
    pattern: /(?:^|[_:\s])bmm\d?(?:_|$)|batched_?matmul|batch_?matmul|baddbmm/i,
    examples: ['mha_bmm0_bfloat16_bfloat16_6b7c8d9e', 'mha_bmm1_bfloat16_bfloat16_7c8d9e0f', 'batched_matmul_bfloat16_bfloat16_8d9e0f1a'],
    counterExamples: ['bmm_sm100_blockwise_scaled_fp8_3e4f5a6b'],
  },
  {
    family: 'attention-fused',
    // `_fwd_kernel` is the Triton prefix-prefill attention of vLLM (anchored: other Triton kernels end in _fwd_kernel too).
    // FlashInfer's sampling and activation kernels live under `flashinfer::` too and are not attention.
    pattern: /flash(?!infer::(?:sampling|activation)::)|fmha|(?:^|_)mha_|(?:^|_)mla_|sdpa|paged_?attention|(?:Batch|Single)(?:Decode|Prefill)With|multihead_?attention|mmha|xqa|attn_fwd|^_fwd_kernel\b|_fwd_(?:grouped_)?kernel_stage|unified_attention|decode_attention|lean_reduction|fused_attn|^reduce_segments$/i,
    examples: [
      // FA3 as vLLM runs it (real name, cut after its first template arguments).
      'void cutlass::device_kernel<flash::enable_sm90_or_later<flash::FlashAttnFwdSm90<flash::CollectiveMainloopFwdSm90<2, cute::tuple<cute::C<1>, cute::C<1>, cute::C<1> >, cute::tuple<cute::C<128>, cute::C<128>, cute::C<128> >, 128, cutlass::bfloat16_t, float, cutlass::arch::Sm90',
      'void cutlass::device_kernel<flash::FlashAttnFwdCombine<cute::tuple<cute::C<8>, cute::C<128> >, 5, 256, 1, false, true, cutlass::bfloat16_t, float, cutlass::arch::Sm90> >(flash::FlashAttnFwdCombine<cute::tuple<cute::C<8>, cute::C<128> >, 5, 256, 1, false, true, cutlass::bfloat16_t, float, cutlass::arch::Sm90>::Params)',
      // From the llama.cpp and vLLM (ROCm) sources.
      'void flash_attn_ext_f16<128, 128, 8, 2, 2, false, false, false>',
      'void paged_attention_ll4mi_QKV_mfma16_kernel<__hip_bfloat16, __hip_bfloat16, (vllm::Fp8KVCacheDataType)0, 16, 128, 256, true, 4>',
      '_fwd_kernel',
      'sm100_mha_1q_depth128_bfloat16_bfloat16_nqh32_nkvh8_2a3b4c5d',
      'sm90_mha_depth128_bfloat16_bfloat16_3b4c5d6e',
      'mha_decoding_depth128_bfloat16_bfloat16_64x64x32_4c5d6e7f',
      'mha_splitk_reduce_bfloat16_5d6e7f8a',
      'mha_prefill_v2_amd_bfloat16_6e7f8a9b',
      'sm100_mla_decode_kv_bf16_7f8a9b0c',
      'cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16_knob_7_64x128x64_4x1x1_cga1x1x1_kernel0_0',
      'cudnn_generated_fort_native_sdpa_sm80_flash_fprop_wmma_f16_knob_35_16x128x128_1x4x1_cga1x1x1_kernel0_0',
      'void cudnn::fusion::lean_reduction_kernel<(bool)0, (bool)0, (bool)0>(void *, float *, float *, float *, float *, const float *, float *, float *, float *, float *, float *, unsigned int, unsigned int, unsigned int, unsigned int, unsigned int)',
      'void flash::flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4, false, false, cutlass::bfloat16_t, Flash_kernel_traits<128, 128, 64, 4, cutlass::bfloat16_t> >, false, true, false, false, true, true, false, false>(Flash_fwd_params)',
      'void flash::flash_fwd_splitkv_kernel<Flash_fwd_kernel_traits<(int)128, (int)64, (int)128, (int)4, (bool)0, (bool)0, cutlass::bfloat16_t, Flash_kernel_traits<(int)128, (int)64, (int)128, (int)4, cutlass::bfloat16_t>>, (bool)0, (bool)0, (bool)0, (bool)0, (bool)1, (bool)0, (bool)1, (bool)0>(Flash_fwd_params)',
      'fmha_cutlassF_bf16_aligned_64x64_rf_sm80(PyTorchMemEffAttention::AttentionKernel<cutlass::bfloat16_t, cutlass::arch::Sm80, true, 64, 64, 64, true, true>::Params)',
      'void flashinfer::BatchDecodeWithPagedKVCacheKernel<(flashinfer::PosEncodingMode)0, 2u, 4u, 8u, 16u, 1u, 8u, __nv_bfloat16, __nv_bfloat16, __nv_bfloat16, int>(__nv_bfloat16*, flashinfer::paged_kv_t<__nv_bfloat16, int>, flashinfer::kv_partition_info_t<int>, __nv_bfloat16*, float*, bool*, float, float, float, float)',
      'void flashinfer::BatchPrefillWithPagedKVCacheKernel<1u, 1u, 8u, (flashinfer::QKVLayout)0, (flashinfer::PosEncodingMode)0, false, (flashinfer::MaskMode)1, __nv_bfloat16, __nv_bfloat16, __nv_bfloat16, int>(int*)',
      'void vllm::paged_attention_v1_kernel<__nv_bfloat16, __nv_bfloat16, 128, 16, 128, (vllm::Fp8KVCacheDataType)0, false>(__nv_bfloat16*, const __nv_bfloat16*, const __nv_bfloat16*, const __nv_bfloat16*, int, float, const int*, const int*, int, const float*, int, int, int, const float*, const float*)',
      'void tensorrt_llm::kernels::mmha::masked_multihead_attention_kernel<__nv_bfloat16, __nv_bfloat16, __nv_bfloat16, 128, 256, false, false, false, false, false, false>(tensorrt_llm::kernels::Multihead_attention_params<__nv_bfloat16, false>)',
      'kernel_unified_attention_2d',
      '_fwd_grouped_kernel_stage1',
      // vLLM's Triton unified attention on MI300X (fixtures/external-3): the 3D (split-KV) kernel and
      // `reduce_segments`, the reduction of its segments (launched once per 3D launch).
      'kernel_unified_attention_3d',
      'reduce_segments',
    ],
    counterExamples: [
      'void vllm::reshape_and_cache_flash_kernel<__nv_bfloat16, __nv_bfloat16, (vllm::Fp8KVCacheDataType)0>(__nv_bfloat16 const*, __nv_bfloat16 const*, __nv_bfloat16*, __nv_bfloat16*, long const*, long, long, long, long, long, int, int, int, float const*, float const*, int)',
      '_layer_norm_fwd_1pass_kernel',
      'create_flashinfer_kv_indices_triton',
      'reduce_segments_bf16',
      'void flashinfer::sampling::TopKTopPSamplingFromProbKernel<1024u, (cub::BlockScanAlgorithm)2, (cub::BlockReduceAlgorithm)0, 4u, true, float, int>(float*, int*, int*, float*, int*, float*, unsigned int, unsigned int, unsigned long, unsigned long)',
      'void flashinfer::activation::act_and_mul_kernel<__nv_bfloat16, &silu<float>>(__nv_bfloat16*, __nv_bfloat16 const*, int)',
      'void soft_max_f32<true, 512, 512, float>(float const*, float const*, float const*, float*, soft_max_params) [clone .kd]',
    ],
  },
  // Before softmax (topkGatingSoftmax), sampling (radixSortKVInPlace) and gather (gatherTopK).
  {
    family: 'moe-routing',
    // triton_kernels' routing (`_combined_routing_*`, `_routing_*`, `_topk_forward`, the bitmatrix
    // sums, `_finalize_matmul_scatter`, which un-permutes and weights the expert outputs), ck_tile's
    // and aiter's MoE sorting and top-k softmax, SGLang's fused gate and EP scatter/gather, and
    // TensorRT-LLM's `moe::dev` routing and finalize.
    pattern: /topk_?gating|moe_align|moe_create_indices|group_limited_router|single_group_router|moe_sum|moe_(?:un)?permute|count_and_sort_expert|expert_?(?:map|count|offsets?)|gatherTopK|sbtopk|mbtopk|(?:bitonic|radix)SortKVInPlace|kernelHistogram|^_(?:combined_)?routing_|^_topk_forward|bitmatrix|^_finalize_matmul_scatter|^_expt_data_|MoeSorting|moe_sorting|(?:^|[\s:_])topksoftmax|moe_fused_gate|(?:^|_)grouped_topk|(?:^|_)ep_(?:scatter|gather)|moe::dev::(?:routing|finalize)::/i,
    examples: [
      'void vllm::moe::topkGatingSoftmax<8, 8, 4, 16, 32, int, float, (vllm::moe::ScoringFunc)0>(const float *, const bool *, float *, int, int *, int *, int, int, int)',
      'void vllm::moe::moe_align_block_size_kernel<int>(const int *, int *, int *, int *, int, int, int, int, unsigned long, int *)',
      'moe_create_indices_bucket_group_int32_t128_8b9c0d1e',
      'group_limited_router_bfloat16_9c0d1e2f',
      'void at::native::sbtopk::gatherTopK<float, unsigned int, (int)1, (bool)0>(at::cuda::detail::TensorInfo<const T1, T2>, T2, T2, bool, T2, T2, at::cuda::detail::TensorInfo<T1, T2>, T2, at::cuda::detail::TensorInfo<long, T2>, T2, T1 *)',
      'void at::native::bitonicSortKVInPlace<-2, -1, 16, 16, float, long, at::native::GTOp<float, true>, unsigned int>(at::cuda::detail::TensorInfo<float, unsigned int>, unsigned int, unsigned int, unsigned int, at::cuda::detail::TensorInfo<long, unsigned int>, unsigned int, at::native::GTOp<float, true>)',
      'void at::native::radixSortKVInPlace<-2, -1, 32, 32, long, long, unsigned int>(at::cuda::detail::TensorInfo<long, unsigned int>, unsigned int, unsigned int, unsigned int, at::cuda::detail::TensorInfo<long, unsigned int>, unsigned int)',
      // vLLM gpt-oss-20b decode on MI300X (triton_kernels) and aiter's FP8 MoE test (fixtures/external-3).
      '_combined_routing_compute',
      '_combined_routing_memset',
      '_topk_forward',
      '_sum_bitmatrix_rows',
      '_finalize_matmul_scatter_bf16',
      'void ck_tile::kentry<2, ck_tile::MoeSortingMultiPhaseKernel_P23<ck_tile::MoeSortingProblemMp<int, float, unsigned char, 16, false, false, true> >, ck_tile::MoeSortingMultiPhaseKernel_P23<ck_tile::MoeSortingProblemMp<int, float, unsigned char, 16, false, false, true> >::Kargs>(ck_tile::MoeSortingMultiPhaseKernel_P23<ck_tile::MoeSortingProblemMp<int, float, unsigned char, 16, false, false, true> >::Kargs) [clone .kd]',
      'void ck_tile::kentry<2, ck_tile::MoeSortingClearWorkspaceKernel<ck_tile::MoeSortingClearWorkspaceProblem<false, 1024, 1> >, ck_tile::MoeSortingClearWorkspaceKernel<ck_tile::MoeSortingClearWorkspaceProblem<false, 1024, 1> >::Kargs>(ck_tile::MoeSortingClearWorkspaceKernel<ck_tile::MoeSortingClearWorkspaceProblem<false, 1024, 1> >::Kargs) [clone .kd]',
      '_ZN5aiter19topksoftmax_4x256x8E.kd',
      // TensorRT-LLM's MoE routing and finalize (namespaces from its sources).
      'void moe::dev::routing::routingRenormalize::routingIndicesClusterKernel<moe::dev::routing::routingRenormalize::KernelParams<__nv_bfloat16, __nv_bfloat16, 128, 4, false> >(moe::dev::routing::routingRenormalize::KernelParams<__nv_bfloat16, __nv_bfloat16, 128, 4, false>)',
      'void moe::dev::finalize::finalizeKernel<moe::dev::finalize::KernelParams<__nv_bfloat16, __nv_bfloat16> >(moe::dev::finalize::KernelParams<__nv_bfloat16, __nv_bfloat16>)',
      // SGLang's fused MoE gate and its expert-parallel scatter.
      'void moe_fused_gate_kernel<float, 8, 256>',
      '_fwd_kernel_ep_scatter_1',
      'void at::cuda::kernelHistogram1D<int, int, long, 1, 2, -1, (at::cuda::CUDAHistogramMemoryType)0, at::cuda::CUDA_tensor_histogram<int, int, false>(at::Tensor, at::Tensor, at::Tensor, long, at::AccumulateType<int, true>::type, at::AccumulateType<int, true>::type, at::cuda::TensorArgType, at::cuda::TensorArgType)::{lambda(at::cuda::detail::TensorInfo<int, unsigned int>, long)#1}>(at::cuda::detail::TensorInfo<int, unsigned int>, at::cuda::detail::TensorInfo<int, unsigned int>, at::cuda::detail::TensorInfo<int, unsigned int>, int, long, long, unsigned int, at::cuda::detail::TensorInfo<int, unsigned int>, long)',
    ],
    counterExamples: [
      'topk_softmax_sample_bfloat16_0d1e2f3a',
      'void at::native::vectorized_gather_kernel<16, long>(char*, char*, long*, int, long, long, long, long, bool)',
      'triton_poi_fused_constant_pad_nd_moe_forward_0',
      '_matmul_ogs_NNT_bf16xbf16xmxfp4_16x128x256x1',
      'ep_dispatch_async_bfloat16_11223344',
    ],
  },
  // Before softmax (`topk_softmax_sample`) and reduce (ArgMaxOps is greedy sampling).
  {
    family: 'sampling',
    pattern: /(?:^|_|::)(?:top_?[kp]_?)?sampl(?:e|ing)|SamplingFrom(?:Prob|Logits)|gumbel|apply_min_p|topp_minp|topk_(?:stage\d|wrapper|mask_logits)|ArgMaxOps|argmax|radix_?sort|RadixSort|penalt|multinomial/i,
    examples: [
      'topk_softmax_sample_bfloat16_0d1e2f3a',
      'topk_sampling_from_prob_bfloat16_1e2f3a4b',
      'topp_minp_sampling_bfloat16_2f3a4b5c',
      'apply_gumbel_noise_bfloat16_3a4b5c6d',
      'topk_stage1_bfloat16_int64_True_4b5c6d7e',
      'radix_sort_pairs_bfloat16_5c6d7e8f',
      // FlashInfer's fused top-k/top-p sampling (name from its sources).
      'void flashinfer::sampling::TopKTopPSamplingFromProbKernel<1024u, (cub::BlockScanAlgorithm)2, (cub::BlockReduceAlgorithm)0, 4u, true, float, int>(float*, int*, int*, float*, int*, float*, unsigned int, unsigned int, unsigned long, unsigned long)',
      'void at::native::reduce_kernel<(int)512, (int)1, at::native::ReduceOp<float, at::native::ArgMaxOps<float>, unsigned int, long, (int)4, (int)4>>(T3)',
      'void at_cuda_detail::cub::DeviceSegmentedRadixSortKernel<at_cuda_detail::cub::DeviceRadixSortPolicy<float, long, int>::Policy900, (bool)1, (bool)0, float, long, at::native::<unnamed>::offset_t, at::native::<unnamed>::offset_t, int>(const T4 *, T4 *, const T5 *, T5 *, T6, T7, int, int, int)',
    ],
    counterExamples: ['upsample_bilinear2d_out_frame', 'void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, unsigned int, float, 4, 4> >(at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, unsigned int, float, 4, 4>)'],
  },
  {
    family: 'attention-softmax',
    pattern: /softmax|soft_max/i,
    examples: [
      'void (anonymous namespace)::softmax_warp_forward<float, float, float, 8, false, false>(float*, float const*, int, int, int, bool const*, int, bool)',
      'void <unnamed>::softmax_warp_forward<float, float, float, (int)6, (bool)0, (bool)0>(T2 *, const T1 *, int, int, int, const bool *, int, bool)',
      'void at::native::<unnamed>::cunn_SoftMaxForward<(int)4, float, float, float, at::native::<unnamed>::SoftMaxForwardEpilogue>(T4 *, const T2 *, int)',
      'softmax_kernel_bfloat16_6d7e8f9a',
      'triton_per_fused__softmax_0',
      'void soft_max_f32<true, 512, 512, float>(float const*, float const*, float const*, float*, soft_max_params) [clone .kd]',
    ],
    counterExamples: ['void vllm::moe::topkGatingSoftmax<8, 8, 4, 16, 32, int, float, (vllm::moe::ScoringFunc)0>(const float *, const bool *, float *, int, int *, int *, int, int, int)', 'topk_softmax_sample_bfloat16_0d1e2f3a'],
  },
  // Before elementwise: ATen index kernels are named `index_elementwise_kernel`. llama.cpp looks up embeddings with get_rows.
  {
    family: 'gather-scatter',
    pattern: /gather|scatter|index_?(?:elementwise|select|put|copy|add)|indexSelect|index_kernel|embedding|take_along|(?:^|\s)k_get_rows/i,
    examples: [
      'void at::native::vectorized_gather_kernel<16, long>(char*, char*, long*, int, long, long, long, long, bool)',
      'void at::native::index_elementwise_kernel<(int)128, (int)4, void at::native::index_copy_kernel_impl<at::native::OpaqueType<(int)2>>(at::TensorIterator &, long, long, long)::[lambda(int) (instance 1)]>(long, T3)',
      'void at::native::_scatter_gather_elementwise_kernel<(int)128, (int)8, void at::native::_cuda_scatter_fill_internal_kernel<at::native::OpaqueType<(int)8>, long>::operator ()<at::native::TensorAssign>(at::TensorIterator &, at::native::OpaqueType<(int)8>, long, long, const at::native::TensorAssign &)::[lambda(int) (instance 1)]>(int, T3)',
      'void at::native::<unnamed>::indexSelectSmallIndex<c10::BFloat16, long, unsigned int, (int)2, (int)2, (int)-2>(at::cuda::detail::TensorInfo<T1, T3>, at::cuda::detail::TensorInfo<const T1, T3>, at::cuda::detail::TensorInfo<const T2, T3>, int, int, T3, long)',
      'void split_embedding_codegen_forward_unweighted_kernel<c10::Half, c10::Half, float, false, long, 2ul, 32ul>(at::GenericPackedTensorAccessor<c10::Half, 1ul, at::RestrictPtrTraits, long>)',
      'void k_get_rows_float<float, float>(float const*, int const*, float*, long, long, long, unsigned long, unsigned long, unsigned long, unsigned long, unsigned long, unsigned long, unsigned long, unsigned long) [clone .kd]',
    ],
    counterExamples: ['ncclDevKernel_AllGather_RING_LL(ncclDevComm*, unsigned long, ncclWork*)', 'void k_set_rows<float, long, __half>(float const*, long const*, __half*, long, long, long, long, long, long, long, long, long, long, long, long, long, long, HIP_vector_type<unsigned int, 3u>, HIP_vector_type<unsigned int, 3u>) [clone .kd]'],
  },
  // Convolutions, before every GEMM row: cuDNN's implicit-GEMM convolutions say `gemm` too.
  {
    family: 'conv',
    pattern: /scudnn|hcudnn|(?:fprop|dgrad|wgrad)_(?:implicit|engine)|dgrad_engine|wgrad_|implicit_convolve|explicit_convolve|precomputed_convolve|(?:^|_|::)conv(?:\d?d|_depthwise|olution)|Convolution|naive_conv|igemm_(?:fwd|bwd|wrw)|MIOpenConv|miopenSp\dAsmConv|fft2d_(?:r2c|c2r)|cask_cudnn::computeOffsets|winograd|im2col|col2im/i,
    examples: [
      'cudnn_ampere_scudnn_128x64_relu_xregs_large_nn_v1',
      'sm80_xmma_fprop_implicit_gemm_indexed_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x128x16_stage4_warpsize2x2x1_g1_tensor16x8x8_alignc4_execute_kernel_cudnn',
      'void fft2d_c2r_32x32<float, false, false, 0u, false, false>(float*, float2 const*, int, int, int, int, int, int, int, int, int, float, float, cudnn::reduced_divisor, bool, float*, float*, int2, int, int)',
      'void fft2d_r2c_32x32<float, false, 5u, true>(float2*, float const*, int, int, int, int, int, int, int, int, int, cudnn::reduced_divisor, bool, int2, int, int)',
      'void cask_cudnn::computeOffsetsKernel<false, false>(cask_cudnn::ComputeOffsetsParams)',
      // Written from cuDNN and MIOpen kernel names as their traces print them.
      'void cudnn::detail::dgrad_engine<float, 128, 6, 7, 3, 3, 5, false>',
      'sm80_xmma_wgrad_implicit_gemm_indexed_tf32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize128x128x16_stage4_warpsize2x2x1_g1_tensor16x8x8_execute_kernel_cudnn',
      'void implicit_convolve_sgemm<float, float, 128, 5, 5, 3, 3, 3, 1, false, false, true>',
      'naive_conv_fwd_nchw_float_double_float',
    ],
    counterExamples: [
      'void convert_unary<float, __half>(void const*, __half*, long, long, long, HIP_vector_type<unsigned int, 3u>, long, long, long) [clone .kd]',
      'ampere_sgemm_32x32_sliced1x4_tn',
      'void cudnn::ops::nchwToNhwcKernel<float, float, float, false, true, (cudnnKernelDataType_t)2>(cudnn::ops::nchw2nhwc_params_t<float>, float const*, float*)',
    ],
  },
  // vLLM's ROCm skinny GEMMs: it sends only a few tokens' rows to them (wvSplitK, LLGemm1 for one row).
  {
    family: 'gemm-decode',
    pattern: /(?:^|\s)(?:wvSplitK(?!Q)|LLGemm1|LLMM1)/,
    examples: ['void wvSplitK_hf_sml_<__hip_bfloat16, 64, 2, 16, 8, 2, 1>', 'void wvSplitK_hf_big_<__hip_bfloat16, 64, 2, 16, 8, 2, 4>', 'void LLGemm1_kernel<__hip_bfloat16, 4>'],
    counterExamples: ['void wvSplitKQ_hf_sml_<__hip_bfloat16, __hip_fp8_e4m3, 64, 2, 16, 8, 2, 1>', 'sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize64x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas'],
  },
  // GEMMs whose name gives the output tile: a narrow tile says decode-shaped, a wide one nothing.
  {
    family: 'gemm',
    pattern: /nvjet_|^Cijk_/i,
    shape: gemmShapeFromTile,
    examples: [
      ['nvjet_sm90_tst_64x8_64x16_4x1_v_bz_TNT', 'gemm-decode'],
      ['nvjet_sm90_tst_8x64_64x16_4x1_v_bz_TNN', 'gemm-decode'],
      ['nvjet_sm90_tst_256x8_64x6_4x1_v_bz_NNT', 'gemm-decode'],
      ['nvjet_sm90_tst_64x16_64x16_4x2_h_bz_TNT', 'gemm-decode'],
      ['nvjet_sm90_tst_64x8_64x16_2x1_v_bz_splitK_NNT', 'gemm-decode'],
      ['nvjet_sm90_tst_64x32_64x16_4x1_v_bz_TNT', 'gemm'],
      ['nvjet_sm90_tst_64x24_64x16_2x4_h_bz_TNT', 'gemm'],
      ['nvjet_sm90_tst_128x48_64x9_2x1_v_bz_TNT', 'gemm'],
      ['nvjet_sm90_tst_64x152_64x7_4x1_v_bz_TNT', 'gemm'],
      ['nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_TNT', 'gemm'],
      ['nvjet_sm90_tst_192x192_64x4_2x1_v_bz_coopB_TNN', 'gemm'],
      ['nvjet_hsh_128x256_64x4_2x1_v_bz_coopA_NNN', 'gemm'],
      ['Cijk_Alik_Bljk_SB_Bias_AS_SAV_UserArgs_MT64x16x32_MI16x16x1_SN_LDSB0_AFC1_AFEM1_AFEM1_ASEM1_CLR1_CADS0_EPS0_GRVWA2_GRVWB2_GSUAMB_ISA90a_IU1_K1', 'gemm-decode'],
      ['Cijk_Alik_Bljk_BBS_BH_MT128x128x64_MI16x16x16x1_SN_1LDSB1_AFC1_AFEM1_ISA942', 'gemm'],
      ['Cijk_Ailk_Bjlk_HHS_BH_MT32x32x64_MI16x16x16x1_SN_ISA90a', 'gemm'],
      ['Cijk_Alik_Bljk_HSS_BH_Bias_HA_S_SAV_UserArgs_MT16x128x32_MI16x16x1_SN_LDSB1_AFC1_AFEM1_AFEM1_ASEM1_CLR1_CADS0_DTLA0_DTLB0_DTVA0_DTVB1_EPS1_FDSI0_GRPM1_GRVWA8_GRVWB8_GSUAMB_GLS0_ISA1201_IU1_K1_LDSTI0_L', 'gemm-decode'],
      ['Cijk_Alik_Bljk_HHS_BH_Bias_HA_S_SAV_UserArgs_MT64x64x32_MI16x16x1_SN_LDSB0_AFC1_AFEM1_AFEM1_ASEM1_CLR1_CADS0_DTLA0_DTLB0_DTVA0_DTVB0_EPS0_FDSI0_GRPM1_GRVWA8_GRVWB8_GSUAMB_GLS0_ISA1201_IU1_K1_LDSTI0_LB', 'gemm'],
      ['Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT192x16x128_MI16x16x1_SN_LDSB1_AFC1_AFEM1_ISA942', 'gemm-decode'],
    ],
    counterExamples: ['nvjet_sm90_qqtst_128x128_128x6_1x1_h_bz_coopA_algo2_ovscale_TNT'],
  },
  // Split-K partial sums belong to the GEMM they finish (before reduce).
  {
    family: 'gemm',
    pattern: /splitKreduce/i,
    examples: [
      'void cublasLt::splitKreduce_kernel<(int)32, (int)16, int, float, __nv_bfloat16, float, __nv_bfloat16, (bool)0, float, __nv_bfloat16, __nv_bfloat16, (bool)1, (bool)0, (bool)0, (bool)0>(cublasLt::cublasSplitKParams<T6>, const T4 *, const T6 *, T6 *, const T5 *, const T5 *, const T7 *, const T4 *, T7 *, void *, long, T5 *, int *, T5 *, T5 *, const T5 *, const T5 *, const T5 *)',
      'void splitKreduce_kernel<float, float, float, float, true, false, false>(cublasSplitKParams<float>, float const*, float const*, float*, float const*, float const*, float const*, float const*, float*, void*, long, float*, int*)',
    ],
    counterExamples: ['void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4> >(at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4>)'],
  },
  // MAX sends single-row products to gemv; its matmul kernels are the multi-row (prompt) path (MAX's
  // documented dispatch, the one name-only prefill reading kept).
  {
    family: 'gemm-prefill',
    pattern: /^(?:multistage_gemm|matmul_kernel_naive|matmul_|linalg_matmul_gpu)/,
    examples: [
      'multistage_gemm_kernel_bfloat16_bfloat16_bfloat16_7e8f9a0b',
      'multistage_gemm_split_k_kernel_bfloat16_8f9a0b1c',
      'sm90_matmul_bfloat16_bfloat16_bfloat16_True_9a0b1c2d',
      'matmul_kernel_naive_bfloat16_0b1c2d3e',
      'linalg_matmul_gpu___init___m6A6A6A6A_09fd2dc3',
      'linalg_matmul_gpu__multistage6A6A6A6A',
    ],
    counterExamples: ['gemv_split_k_bfloat16_bfloat16_bfloat16_256_f519d2c2', 'matmul_sm100_blockwise_scaled_fp8_1d2d_1c2d3e4f'],
  },
  // `fbgemm` is a library name, not a GEMM (fbgemm_gpu::permute_2D_data_kernel is a permute).
  {
    family: 'gemm',
    pattern: /(?<!fb)gemm|matmul|^triton_tem_|xmma|s16816|s1688|s161616|sgemm|hgemm|wgmma|tensorop|GemmUniversal|cutlass::Kernel|kernel_gemm|gcgemm/i,
    examples: [
      'ampere_bf16_s16816gemm_bf16_128x64_ldg8_f2f_stages_32x6_tn',
      'ampere_bf16_s16816gemm_bf16_64x64_sliced1x2_ldg8_f2f_stages_64x6_tn',
      'sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas',
      'sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize32x32x8_stage3_warpsize1x2x1_ffma_aligna4_alignc4_execute_kernel__5x_cublas',
      'void cutlass::Kernel2<cutlass_80_simt_sgemm_128x32_8x5_tn_align1>(cutlass_80_simt_sgemm_128x32_8x5_tn_align1::Params)',
      'void cutlass::Kernel2<cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_16x16_128x1_tn_align8>(T1::Params)',
      'void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_256x128_32x3_tn_align1>(cutlass_80_tensorop_s1688gemm_256x128_32x3_tn_align1::Params)',
      'void ck::kernel_gemm_xdl_cshuffle_v3<ck::GridwiseGemm_xdl_cshuffle_v3<ck::tensor_layout::gemm::RowMajor>, true, 2, 1>(ck::GridwiseGemm_xdl_cshuffle_v3<ck::tensor_layout::gemm::RowMajor>::Argument)',
      'triton_tem_fused_mm_0',
      'ampere_sgemm_32x32_sliced1x4_tn',
      'volta_sgemm_128x32_nt',
      'sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize64x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas',
      'void cutlass::Kernel2<cutlass_80_tensorop_s16816gemm_bf16_128x64_64x6_tn_align8>(cutlass_80_tensorop_s16816gemm_bf16_128x64_64x6_tn_align8::Params)',
      'void magma_sgemmEx_kernel<float, float, float, true, false, 6, 4, 6, 3, 4>(int, int, int, Tensor, int, Tensor, int, Tensor, int, Tensor, int, int, int, float const*, float const*, float, float, int, cublasLtEpilogue_t, int, void const*, int, void*)',
      // XLA's GEMM fusions (a JAX decode).
      'gemm_fusion_dot_18',
      'gemm_fusion_dot_general_97',
    ],
    counterExamples: [
      'void fbgemm_gpu::permute_2D_data_kernel<false, int, int, decltype(nullptr)>(int, int, int, int const*, decltype(nullptr) const*, int const*, int const*, int const*, int*, decltype(nullptr)*)',
      'sm80_xmma_fprop_implicit_gemm_indexed_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x128x16_stage4_warpsize2x2x1_g1_tensor16x8x8_alignc4_execute_kernel_cudnn',
    ],
  },
  {
    family: 'reduce',
    pattern: /reduce_kernel|ReduceOp|DeviceReduce|DeviceScan|scan_innermost|reduction|^triton_(?:red|per)_/i,
    examples: [
      'void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, unsigned int, float, 4, 4> >(at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, unsigned int, float, 4, 4>)',
      'void at::native::reduce_kernel<(int)128, (int)4, at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator ()(at::TensorIterator &)::[lambda(float, float) (instance 1)]>, unsigned int, float, (int)4, (int)4>>(T3)',
      'void at_cuda_detail::cub::DeviceScanKernel<at_cuda_detail::cub::DeviceScanPolicy<long, std::plus<long>>::Policy900, const long *, long *, at_cuda_detail::cub::ScanTileState<long, (bool)1>, std::plus<long>, at_cuda_detail::cub::NullType, int>(T2, T3, T4, int, T5, T6, T7)',
      'void at::native::tensor_kernel_scan_innermost_dim<float, std::plus<float>>(T1 *, const T1 *, unsigned int, unsigned int, unsigned int, T1, T2)',
      'triton_red_fused_sum_1',
    ],
    counterExamples: ['triton_red_fused__to_copy_add_mean_mul_pow_rsqrt_0', 'void vllm::cross_device_reduce_1stage<__nv_bfloat16, 4>(vllm::RankData*, vllm::RankSignals, vllm::Signal*, __nv_bfloat16*, int, int)'],
  },
  // Copies and layout changes (split out of elementwise: they move bytes and compute nothing):
  // ATen's copy_ kernels (contiguous, expand+clone as in repeat_interleave / repeat_kv, and the casts
  // of `.to(dtype)`, which run through the same copy_), cat, transposes and permutes, cuDNN layout
  // conversions, llama.cpp's cpy and convert. The launching op (`launchedBy`) tells a cast from a
  // layout copy where the trace records it.
  {
    family: 'copy',
    pattern: /^(?!triton_).*?(?:direct_copy_kernel|_copy_kernel_cuda|(?:^|\s)convert_unary\b|CatArray|(?:^|\s|::)cpy_|contiguous|transpose|permute|(?:^|_|::)concat|padded_copy|nchwToNhwc|nhwcToNchw|nchw2nhwc|nhwc2nchw|repeat_interleave|repeat_kv)/i,
    examples: [
      'void at::native::elementwise_kernel<(int)128, (int)4, void at::native::gpu_kernel_impl_nocast<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase &)::[lambda() (instance 3)]::operator ()() const::[lambda() (instance 12)]::operator ()() const::[lambda(c10::BFloat16) (instance 1)]>(at::TensorIteratorBase &, const T1 &)::[lambda(int) (instance 1)]>(int, T3)',
      'void at::native::<unnamed>::CatArrayBatchedCopy_vectorized<at::native::<unnamed>::OpaqueType<(unsigned int)2>, unsigned int, (int)3, (int)128, (int)1, (int)16, (int)8>(char *, at::native::<unnamed>::CatArrInputTensorMetadata<T1, T2, T4, T5>, at::native::<unnamed>::TensorSizeStride<T2, (unsigned int)4>, int, T2)',
      'concat_gpu_flat_bfloat16_2e3f4a5b',
      'padded_copy_bfloat16_3f4a5b6c',
      'void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#4}::operator()() const::{lambda(long)#1}, std::array<char*, 2ul>, 4, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<1>, at::native::memory::StoreWithCast<1> >(int, at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#4}::operator()() const::{lambda(long)#1}, std::array<char*, 2ul>, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<1>, at::native::memory::StoreWithCast<1>)',
      'void at::native::(anonymous namespace)::CatArrayBatchedCopy<float, unsigned int, 2, 128, 1>(float*, at::native::(anonymous namespace)::CatArrInputTensorMetadata<float, unsigned int, 128, 1>, at::native::(anonymous namespace)::TensorSizeStride<unsigned int, 4u>, int, unsigned int)',
      'void cudnn::ops::nchwToNhwcKernel<float, float, float, false, true, (cudnnKernelDataType_t)2>(cudnn::ops::nchw2nhwc_params_t<float>, float const*, float*)',
      'void at::native::vectorized_elementwise_kernel<8, at::native::bfloat16_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda(float)#1}, std::array<char*, 2ul> >(int, at::native::bfloat16_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda(float)#1}, std::array<char*, 2ul>)',
      'void convert_unary<float, __half>(void const*, __half*, long, long, long, HIP_vector_type<unsigned int, 3u>, long, long, long) [clone .kd]',
      'void cpy_scalar<&(void cpy_1_scalar<float, float>(char const*, char*))>(char const*, char*, long, long, long, long, long, long, long, long, long, long, long, long, long, long, long) [clone .kd]',
      'void fbgemm_gpu::permute_2D_data_kernel<false, int, int, decltype(nullptr)>(int, int, int, int const*, decltype(nullptr) const*, int const*, int const*, int const*, int*, decltype(nullptr)*)',
    ],
    counterExamples: [
      'void at::native::vectorized_elementwise_kernel<8, at::native::CUDAFunctor_add<c10::BFloat16>, std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<c10::BFloat16>, std::array<char*, 3ul>)',
      'void at::native::index_elementwise_kernel<128, 4, at::native::gpu_index_kernel<at::native::index_kernel_impl<at::native::OpaqueType<2> >(at::TensorIteratorBase&, c10::ArrayRef<long>, c10::ArrayRef<long>)::{lambda(char*, char const*, long)#1}>(at::TensorIteratorBase&, c10::ArrayRef<long>, c10::ArrayRef<long>, at::native::index_kernel_impl<at::native::OpaqueType<2> >(at::TensorIteratorBase&, c10::ArrayRef<long>, c10::ArrayRef<long>)::{lambda(char*, char const*, long)#1} const&)::{lambda(int)#1}>(long, at::native::index_kernel_impl<at::native::OpaqueType<2> >(at::TensorIteratorBase&, c10::ArrayRef<long>, c10::ArrayRef<long>)::{lambda(char*, char const*, long)#1})',
      'void vllm::reshape_and_cache_flash_kernel<__nv_bfloat16, __nv_bfloat16, (vllm::Fp8KVCacheDataType)0>(__nv_bfloat16 const*, __nv_bfloat16 const*, __nv_bfloat16*, __nv_bfloat16*, long const*, long, long, long, long, long, int, int, int, float const*, float const*, int)',
      'triton_poi_fused__to_copy_0',
      '__amd_rocclr_copyBuffer.kd',
    ],
  },
  {
    family: 'elementwise',
    pattern: /elementwise|FillFunctor|fill_|act_and_mul|silu|gelu|swiglu|where_kernel|masked_fill|arange|multi_tensor_apply|clamp|_r\d+_w\d+_b\d+|^triton_poi_|(?:^|\s)(?:k_bin_bcast|unary_gated_op_kernel|unary_op_kernel)\b/i,
    examples: [
      'void at::native::vectorized_elementwise_kernel<8, at::native::CUDAFunctor_add<c10::BFloat16>, std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<c10::BFloat16>, std::array<char*, 3ul>)',
      'void vllm::act_and_mul_kernel<c10::BFloat16, &vllm::silu_kernel<c10::BFloat16>, (bool)1>(T1 *, const T1 *, int)',
      'void (anonymous namespace)::elementwise_kernel_with_index<int, at::native::arange_cuda_out(c10::Scalar const&, c10::Scalar const&, c10::Scalar const&, at::Tensor&)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::{lambda(long)#1}>(int, at::native::arange_cuda_out(c10::Scalar const&, c10::Scalar const&, c10::Scalar const&, at::Tensor&)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::{lambda(long)#1}, function_traits<at::native::arange_cuda_out(c10::Scalar const&, c10::Scalar const&, c10::Scalar const&, at::Tensor&)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::{lambda(long)#1}>::result_type*)',
      'elementwise_View_mo_slice_r3_w8_b256_0c1d2e3f',
      'functional_elementwise_6A6A6A6A_1d2e3f4a',
      'at::native::<unnamed>::fill_reverse_indices_kernel(long *, int, at::cuda::detail::IntDivider<unsigned int>)',
      'triton_poi_fused_add_mul_0',
      'void k_bin_bcast<&(op_add(float, float)), float, float, float, float const*>(float const*, float const*, float*, int, int, int, HIP_vector_type<unsigned int, 3u>, HIP_vector_type<unsigned int, 3u>, HIP_vector_type<unsigned int, 3u>, HIP_vector_type<unsigned int, 3u>, int, int, int, int, int, int, int, int, int, int, int, int) [clone .kd]',
      'void unary_gated_op_kernel<&(op_silu(float)), float>(float const*, float const*, float*, long, long, long, long) [clone .kd]',
      'triton_poi_fused_mul_silu_1',
      'triton_poi_fused__to_copy_0',
    ],
    counterExamples: [
      'void at::native::<unnamed>::CatArrayBatchedCopy_vectorized<at::native::<unnamed>::OpaqueType<(unsigned int)2>, unsigned int, (int)3, (int)128, (int)1, (int)16, (int)8>(char *, at::native::<unnamed>::CatArrInputTensorMetadata<T1, T2, T4, T5>, at::native::<unnamed>::TensorSizeStride<T2, (unsigned int)4>, int, T2)',
      'triton_poi_fused_cat_3',
    ],
  },
];
