import { classifyName, createClassifier, familiesInContext } from '../../src/classify/classify.js';
import { CONTEXT_RULES, FAMILY_TABLE, MOE_WHEN_ROUTED, gemmShapeFromTile } from '../../src/classify/families.js';
import { FAMILY_IDS, userFamilyId } from '../../src/model/family-ids.js';
import { kernelStem, normalizeKernelName } from '../../src/classify/kernel-name.js';

const examples = FAMILY_TABLE.flatMap((rule, index) =>
  rule.examples.map((example) => {
    const [name, family] = typeof example === 'string' ? [example, rule.family] : example;
    return { index, name, family };
  }),
);

describe('family table', () => {
  it('uses only known family ids and gives every row an example', () => {
    for (const rule of FAMILY_TABLE) {
      expect(FAMILY_IDS).toContain(rule.family);
      expect(rule.examples.length).toBeGreaterThan(0);
    }
  });

  it.each(examples.map((e) => [e.family, e.name.slice(0, 90), e] as const))('%s ← %s', (_family, _short, example) => {
    expect(classifyName(example.name)).toBe(example.family);
  });

  const counterExamples = FAMILY_TABLE.flatMap((rule) => (rule.counterExamples ?? []).map((name) => ({ family: rule.family, name })));
  it.each(counterExamples.map((e) => [e.family, e.name.slice(0, 90), e] as const))('not %s ← %s', (_family, _short, example) => {
    expect(classifyName(example.name)).not.toBe(example.family);
  });

  it('gives every family of the table a neighbour it must not catch', () => {
    const families = new Set(FAMILY_TABLE.map((rule) => rule.family));
    const guarded = new Set(counterExamples.map((e) => e.family));
    expect([...families].filter((family) => !guarded.has(family))).toEqual([]);
  });

  it('has no pattern that is stateful (global or sticky)', () => {
    for (const rule of FAMILY_TABLE) expect(rule.pattern.flags).not.toMatch(/[gy]/);
  });
});

// Names that match several rows: the table order decides, and these pin the decision.
describe('precedence between families', () => {
  it.each([
    ['gemv_partial_norm_kernel_bfloat16_bfloat16_4d3c2b1a', 'gemv'], // gemv before norm
    ['rms_norm_fused_fp8_block_bfloat16_float8_e4m3fn_1a2b3c4d', 'norm'], // norm before quantize / lowbit (e4m3)
    ['fused_rope_rmsnorm_bfloat16_1f2e3d4c', 'norm'], // norm before rope
    ['fused_rope_rmsnorm_quantization_bfloat16_7c6b5a49', 'norm'], // norm before quantize
    ['allreduce_rmsnorm_fp8_bfloat16_9a8b7c60', 'collective'], // collective before norm
    ['topk_softmax_sample_bfloat16_0d1e2f3a', 'sampling'], // sampling before softmax
    ['void (anonymous namespace)::softmax_warp_forward<float, float, float, 8, false, false>(float*, float const*, int, int, int, bool const*, int, bool)', 'attention-softmax'],
    ['void vllm::moe::topkGatingSoftmax<8, 8, 4, 16, 32, int, float, (vllm::moe::ScoringFunc)0>(const float *, const bool *, float *, int, int *, int *, int, int, int)', 'moe-routing'],
    ['hipMemcpyAsync', 'memcpy'], // not a collective (HTA's `^hip` pitfall)
    ['hipMemsetAsync', 'memset'],
    ['Memcpy DtoD (Device -> Device)', 'memcpy'],
    ['void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}, std::array<char*, 2ul>, 4, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<1>, at::native::memory::StoreWithCast<1> >(int, at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}, std::array<char*, 2ul>, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<1>, at::native::memory::StoreWithCast<1>)', 'copy'], // a copy kernel is not a memcpy
    ['padded_copy_bfloat16_3f4a5b6c', 'copy'],
    ['void rope_norm<true, false, float, float>(float const*, float*, int, int, int, int, int, int, int, int, int, int, int const*, float, float, float, rope_corr_dims, float, float const*, long const*, int, int, int) [clone .kd]', 'rope'], // llama.cpp RoPE, not a norm
    ['void quantize_mmq_q8_1<(mmq_q8_1_ds_layout)1>(float const*, int const*, void*, long, long, long, long, long, int, int) [clone .kd]', 'quantize'], // quantize before lowbit (mmq)
    ['triton_poi_fused_add_all_reduce_bitwise_and_bitwise_or_embedding_ge_lt_masked_fill_mul_sub_0', 'gather-scatter'], // not a collective
    ['triton_poi_fused_add_cat_mul_neg_slice_0', 'rope'], // one kernel with cat and neg is a fused RoPE
    ['triton_poi_fused_cat_3', 'copy'],
    ['void fbgemm_gpu::permute_2D_data_kernel<false, int, int, decltype(nullptr)>(int, int, int, int const*, decltype(nullptr) const*, int const*, int const*, int const*, int*, decltype(nullptr)*)', 'copy'], // fbgemm is not a GEMM
    ['sm80_xmma_fprop_implicit_gemm_indexed_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x128x16_stage4_warpsize2x2x1_g1_tensor16x8x8_alignc4_execute_kernel_cudnn', 'conv'], // conv before gemm
    ['nvjet_sm90_qqtst_128x128_128x6_1x1_h_bz_coopA_algo2_ovscale_TNT', 'lowbit-gemm'], // FP8 operands; a 128x128 tile is not a prefill shape
    ['QuantDotGemmGroupedKernel<5, float>(T2 *, const unsigned char *, const BlockQ8_K *, const int *, long, long, long, unsigned long, unsigned long, bool)', 'lowbit-gemm'], // a quantized matmul, not a quantize kernel
    [
      '_ZN7cutlass13device_kernelIN5flash16FlashAttnFwdSm90INS1_6TraitsELi4EEEEEvNT_6ParamsE', // mangled names are read by their identifiers
      'attention-fused',
    ],
    ['_ZN2at6native18elementwise_kernelILi128ELi2EZNS0_22gpu_kernel_impl_nocastIZZZNS0_23direct_copy_kernel_cudaERNS_18TensorIteratorBaseEENKUlvE1_clEvENKUlvE5_clEvEUlfE_EEvS4_RKT_EUliE_EEviT1_', 'copy'],
    ['void vllm::reshape_and_cache_flash_kernel<__nv_bfloat16, __nv_bfloat16, (vllm::Fp8KVCacheDataType)0>(const T1 *, const T1 *, T2 *, T2 *, const long *, long, long, long, long, long, int, int, int, const float *, const float *, int)', 'kv-cache'], // says flash, is not attention
    ['mha_bmm0_bfloat16_bfloat16_6b7c8d9e', 'attention-bmm'], // unfused pieces, not fused mha
    ['bmm_sm100_blockwise_scaled_fp8_3e4f5a6b', 'lowbit-gemm'],
    ['grouped_quantize_dynamic_scaled_async_fp4_kernel', 'quantize'], // quantize before moe-gemm
    ['matmul_sm100_grouped_blockwise_scaled_fp8_1d2d_9b8a7f6e', 'moe-gemm'], // moe before lowbit
    ['quantize_dynamic_block_scaled_mxfp4_kernel', 'quantize'], // quantize before lowbit (block_scaled)
    ['void at::native::index_elementwise_kernel<(int)128, (int)4, void at::native::gpu_index_kernel<void at::native::index_kernel_impl<at::native::OpaqueType<(int)2>>(at::TensorIteratorBase &, c10::ArrayRef<long>, c10::ArrayRef<long>)::[lambda(int) (instance 1)]>(at::TensorIteratorBase &, c10::ArrayRef<long>, c10::ArrayRef<long>, const T1 &, bool)::[lambda(int) (instance 1)]>(long, T3)', 'gather-scatter'],
    ['void at::native::sbtopk::gatherTopK<float, unsigned int, 1, false>(at::cuda::detail::TensorInfo<float const, unsigned int>, unsigned int, unsigned int, bool, unsigned int, unsigned int, at::cuda::detail::TensorInfo<float, unsigned int>, unsigned int, at::cuda::detail::TensorInfo<long, unsigned int>, unsigned int, float*)', 'moe-routing'], // before gather
    ['void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::ArgMaxOps<float>, unsigned int, long, 4, 4> >(at::native::ReduceOp<float, at::native::ArgMaxOps<float>, unsigned int, long, 4, 4>)', 'sampling'], // argmax before reduce
    ['void cublasLt::splitKreduce_kernel<32, 16, int, float, __nv_bfloat16, float, __nv_bfloat16, false, float, __nv_bfloat16, __nv_bfloat16, true, false, false, false>(cublasLt::cublasSplitKParams<float>)', 'gemm'], // not a reduction
    ['ncclDevKernel_AllGather_RING_LL', 'collective'], // not gather-scatter
    ['void at::native::(anonymous namespace)::distribution_elementwise_grid_stride_kernel<float, 4, at::native::templates::cuda::normal_and_transform<float, float>(at::TensorIteratorBase&)>(int)', 'elementwise'], // `normal` is not a norm
    ['upsample_bilinear2d_out_frame', 'other'], // `upsample` is not sampling
    // Stacks beyond PyTorch's and vLLM-CUDA's names (issue 26).
    ['_ZN7ck_tile6kentryILi2ENS_38FmhaBatchPrefillWithPagedKVCacheKernelINS_40BlockFmhaBatchPrefillPipelineQRKSVSAsyncINS_36BlockFmhaBatchPrefillPipelineProblemIDF16bDF16bDF16bffDF16bhfDF16bfDF16bNS_13TileFmhaShapeINS_8sequenceIJLi128ELi128ELi32ELi128ELi32ELi128EEEENS5_IJLi4ELi1ELi1EEEENS5_IJLi32ELi32ELi16EEEES7_S8_Lb1EEELb1ENS_17ComposedAttentionILj0ELb1EEENS_30SimplifiedGenericAttentionMaskILb1EEELb0ELi1ENS_26TileFmhaBatchPrefillTraitsILb1ELb1ELb1ELb1ELb0ELNS_22BlockAttentionBiasEnumE0ELb0ELb0ELb0ELNS_28BlockAttentionQuantScaleEnumE0ELin1ELb0ELb0ELi1ELNS_37BlockAttentionKVCacheMemoryLayoutEnumE1ELNS_36BlockAttentionKVCacheLookupTableEnumE1ELNS_33BlockAttentionKVCacheLoadModeEnumE0EEEEENS_53BlockFmhaBatchPrefillPipelineQRKSVSAsyncDefaultPolicyEEENS_17Default2DEpilogueINS_24Default2DEpilogueProblemIfDF16bLb1ELb1ELb1EEEvEEEEJNSS_21FmhaFwdGroupModeKargsEEEEvDpT1_', 'attention-fused'], // its QuantScale template argument is not a quantize kernel
    ['_ZN5aiter24add_rmsnorm_quant_kernelIDF16bDF16bLi64ELi8ELb0ELb0ELb1ELi1EEEvPT0_PT_PfS4_S4_S4_diiiiiiib', 'norm'], // a fused add+RMSNorm that emits a quantized output
    ['_ZN5aiter19topksoftmax_4x256x8E.kd', 'moe-routing'], // not the softmax of unfused attention
    ['_matmul_ogs_NNT_bf16xbf16xmxfp4_16x128x256x1', 'moe-gemm'], // MoE before low-bit (mxfp4) and GEMM
    ['hk_moe_stage2_fp8_kernel_mma(__hip_bfloat16 const*, __hip_fp8_e4m3_fnuz const*, float const*, float*, int const*, int const*, int const*, float const*, int, int, int, int, int, int, int, int, int, int, int, int) [clone .kd]', 'moe-gemm'], // MoE before low-bit (e4m3)
    ['_finalize_matmul_scatter_bf16', 'moe-routing'], // routing before gather-scatter and GEMM (`matmul`)
    ['void at::native::vectorized_elementwise_kernel<4, at::native::float8_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda(float)#3}, std::array<char*, 2ul> >(int, at::native::float8_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda(float)#3}, std::array<char*, 2ul>) [clone .kd]', 'quantize'], // a cast into fp8, before copy
    ['void cutlass::Kernel2<cutlass_80_tensorop_i16832gemm_s8_256x128_64x3_tn_align16>(cutlass_80_tensorop_i16832gemm_s8_256x128_64x3_tn_align16::Params)', 'lowbit-gemm'], // int8 before plain GEMM
    ['bmm_MxE4m3_MxE2m1MxE4m3_Fp32_t128x8x512u2_s3_et128x8_m128x8x32_cga1x1x1_16dp256b_TN_transOut_schedS_bN_swiGlu_dynBatch_sm100a', 'lowbit-gemm'], // alone: not attention-bmm, not yet MoE
    ['gemm_fusion_dot_18', 'gemm'],
    ['loop_add_fusion_1', 'elementwise'],
    ['input_reduce_fusion', 'reduce'],
    ['fusion_330', 'other'], // a bare XLA fusion names nothing
    ['reduce_segments', 'attention-fused'],
  ])('%s → %s', (name, family) => {
    expect(classifyName(name)).toBe(family);
  });
});

describe('normalization', () => {
  it.each([
    ['sm100_mha_1q_depth128_bfloat16_bfloat16_nqh32_nkvh8_2a3b4c5d', 'mha_1q_depth128_bfloat16_bfloat16_nqh32_nkvh8'],
    ['SM100_block_scaled_ss_mxf4nvf4_4f5a6b7c', 'block_scaled_ss_mxf4nvf4'],
    ['gemv_split_k_bfloat16_bfloat16_bfloat16_256_f519d2c2', 'gemv_split_k_bfloat16_bfloat16_bfloat16_256'],
    ['__amd_rocclr_copyBuffer.kd', '__amd_rocclr_copyBuffer'],
    ['void laplacian_kernel<double>(double*, int) [clone .kd]', 'laplacian_kernel<double>(double*, int)'],
    ['amd_mha_prefill_gfx942_bfloat16', 'mha_prefill_bfloat16'],
    ['rms_norm_gpu_block_bfloat16_deadbeef', 'rms_norm_gpu_block_bfloat16_deadbeef'], // a hex word is not a hash
  ])('%s → %s', (raw, normalized) => {
    expect(normalizeKernelName(raw)).toBe(normalized);
  });

  it('classifies the same kernel alike across architectures and builds', () => {
    expect(classifyName('sm90_mha_depth128_bfloat16_bfloat16_11111111')).toBe('attention-fused');
    expect(classifyName('sm100_mha_depth128_bfloat16_bfloat16_22222222')).toBe('attention-fused');
    expect(classifyName('mha_depth128_bfloat16_bfloat16')).toBe('attention-fused');
  });
});

describe('gemmShapeFromTile', () => {
  it.each([
    ['nvjet_sm90_tst_64x8_64x16_4x1_v_bz_TNT', 'gemm-decode'],
    ['nvjet_sm90_tst_64x16_64x16_4x2_h_bz_TNT', 'gemm-decode'],
    ['nvjet_sm90_tst_64x24_64x16_2x4_h_bz_TNT', 'gemm'],
    ['nvjet_sm90_tst_64x32_64x16_4x1_v_bz_TNT', 'gemm'],
    ['nvjet_sm90_tst_64x40_64x16_1x2_h_bz_TNT', 'gemm'], // a wide tile says nothing about M
    ['nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_TNT', 'gemm'],
    ['Cijk_Alik_Bljk_BBS_BH_MT16x16x256_MI16x16x16x1_SN', 'gemm-decode'],
    ['Cijk_Alik_Bljk_BBS_BH_MT256x256x64_MI32x32x8x1_SN', 'gemm'],
    ['Cijk_Alik_Bljk_BBS_BH_MT192x16x128_MI16x16x1_SN', 'gemm-decode'], // hipBLASLt's narrow side is the token count
    ['nvjet_no_tile_here', 'gemm'],
  ])('%s → %s', (name, family) => {
    expect(gemmShapeFromTile(name)).toBe(family);
  });
});

describe('createClassifier', () => {
  it('lets user rules claim kernels before the table', () => {
    const classify = createClassifier([{ family: userFamilyId('my-moe'), pattern: /^my_moe_/ }]);
    expect(classify({ name: 'my_moe_gemm_bf16' })).toBe('my-moe');
    expect(classify({ name: 'nvjet_sm90_tst_64x8_64x16_4x1_v_bz_TNT' })).toBe('gemm-decode');
    expect(classify({ name: 'totally_unknown_kernel' })).toBe('other');
  });
});

describe('kernelStem', () => {
  it.each([
    ['nvjet_sm90_tst_256x8_64x6_4x1_v_bz_NNT', 'nvjet_sm90_tst_256x8_64x6_4x1_v_bz_NNT', false],
    ['gemv_split_k_bfloat16_bfloat16_bfloat16_256_f519d2c2', 'gemv_split_k_bfloat16_bfloat16_bfloat16_256', false],
    ['void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, unsigned int, float, 4, 4> >(at::native::ReduceOp<float>)', 'at::native::reduce_kernel', true],
    ['std::enable_if<!T7, void>::type internal::gemvx::kernel<int, int, __nv_bfloat16, float, (bool)0>(T13, T6, T6)', 'internal::gemvx::kernel', true],
    ['void cutlass::Kernel2<cutlass_80_simt_sgemm_128x32_8x5_tn_align1>(cutlass_80_simt_sgemm_128x32_8x5_tn_align1::Params)', 'cutlass::Kernel2<cutlass_80_simt_sgemm_128x32_8x5_tn_align1', true],
    ['void (anonymous namespace)::softmax_warp_forward<float, float, float, 8, false, false>(float*, float const*, int, int, int, bool const*, int, bool)', '::softmax_warp_forward', true],
    ['weird.name+v2', 'weird\\.name\\+v2', false],
    // cuBLAS gemv as Nsight Compute prints it (RTX 5090 fixture): the bare 'kernel' is anchored on a template argument.
    [
      'enable_if<!T7, void>::type kernel<int, int, __nv_bfloat16, __nv_bfloat16, __nv_bfloat16, float, 0, 1, 1, 0, 7, 0, cublasGemvParamsEx<int, cublasGemvTensorStridedBatched<const __nv_bfloat16>, cublasGemvTensorStridedBatched<const __nv_bfloat16>, cublasGemvTensorStridedBatched<__nv_bfloat16>, float>>(T13)',
      'kernel<.*cublasGemvTensorStridedBatched',
      true,
    ],
  ])('%s', (name, regex, demangled) => {
    expect(kernelStem(name)).toEqual({ regex, demangled });
  });
});

describe('families read in context', () => {
  const routing = 'void moe::dev::routing::routingRenormalize::routingIndicesClusterKernel<moe::dev::routing::routingRenormalize::KernelParams<__nv_bfloat16, __nv_bfloat16, 128, 4, false> >(moe::dev::routing::routingRenormalize::KernelParams<__nv_bfloat16, __nv_bfloat16, 128, 4, false>)';
  const dense = 'nvjet_sm90_tst_64x8_64x16_4x1_v_bz_TNT';
  const read = (names: string[]) => familiesInContext(names, names.map((name) => classifyName(name)));

  it.each(MOE_WHEN_ROUTED.examples)('TensorRT-LLM batched GEMM %s is a MoE expert GEMM beside its routing', (bmm) => {
    expect(read([bmm, routing, dense])).toEqual(['moe-gemm', 'moe-routing', 'gemm-decode']);
  });

  it.each(MOE_WHEN_ROUTED.examples)('and stays a GEMM without routing: %s', (bmm) => {
    const alone = classifyName(bmm);
    expect(alone).not.toBe('moe-gemm');
    expect(read([bmm, dense])).toEqual([alone, 'gemm-decode']);
  });

  it('never re-reads a user family', () => {
    const bmm = MOE_WHEN_ROUTED.examples[0]!;
    expect(familiesInContext([bmm, routing], [userFamilyId('my-bmm'), 'moe-routing'])).toEqual(['my-bmm', 'moe-routing']);
  });

  it('has rules whose source families are where the table puts their names', () => {
    for (const rule of CONTEXT_RULES) for (const name of rule.examples) expect(rule.from).toContain(classifyName(name));
  });
});
