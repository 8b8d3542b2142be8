/**
 * The kind of work a profiled kernel does decides the advice; names from real captures and their
 * neighbours (fixtures/kernel-names, h200-captures, shared external-2/SOURCES.md).
 */
import { createClassifier } from '../../src/classify/classify.js';
import { boundAdvice, kernelKind } from '../../src/diagnose/ncu-advice.js';

const classify = createClassifier();
const kindOf = (name: string) => kernelKind(classify({ name, totalNs: 1, instances: 1 }), name);

it('tells copies from their neighbours', () => {
  expect(kindOf('void at::native::elementwise_kernel<(int)128, (int)4, void at::native::gpu_kernel_impl_nocast<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase &)::[lambda() (instance 3)]>(at::TensorIteratorBase &, const T1 &)::[lambda(int) (instance 1)]>(int, T3)')).toBe('copy');
  expect(kindOf('void at::native::<unnamed>::CatArrayBatchedCopy<at::native::<unnamed>::OpaqueType<(unsigned int)2>, unsigned int, (int)3, (int)128, (int)1>(T1 *, int, T2)')).toBe('copy');
  // Inductor fuses a cast (`_to_copy`) into its norm: a reduction, not a copy to avoid.
  expect(kindOf('triton_red_fused__to_copy_add_mean_mul_pow_rsqrt_0')).not.toBe('copy');
  // A KV-cache write is needed work.
  expect(kindOf('void vllm::reshape_and_cache_flash_kernel<__nv_bfloat16, __nv_bfloat16, (vllm::Fp8KVCacheDataType)0>(const T1 *, const T1 *, T2 *, T2 *, const long *, long, long, long, long, int, int, int, const float *, const float *)')).not.toBe('copy');
  expect(kindOf('void at::native::vectorized_elementwise_kernel<(int)4, at::native::CUDAFunctor_add<c10::BFloat16>, std::array<char *, (unsigned long)3>>(int, T2, T3)')).toBe('elementwise');
});

it('reads GEMMs, quantized matmuls, attention, reductions and collectives', () => {
  expect(kindOf('nvjet_sm90_tst_256x8_64x6_4x1_v_bz_TNT')).toBe('gemm');
  expect(kindOf('void unnamed>::QuantDotGemmGroupedKernel<5, float>(T2 *, const unsigned char *, const BlockQ8_K *, const int *, long, long, long, unsigned long, unsigned long, bool)')).toBe('gemm');
  expect(kindOf('void mul_mat_q<(ggml_type)2, 128, false>(char const*, int const*, int const*, int const*, float*, float*, int, int, int, int, int, int, int, int, int, int, int, int, int, int, int, int, int) [clone .kd]')).toBe('gemm');
  expect(kindOf('cudnn_generated_fort_native_sdpa_sm80_flash_fprop_wmma_f16_knob_35_16x128x128_1x4x1_cga1x1x1_kernel0_0')).toBe('attention');
  expect(kindOf('void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, unsigned int, float, 4, 4> >(at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, unsigned int, float, 4, 4>)')).toBe('reduction');
  expect(kindOf('ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)')).toBe('collective');
});

it('never gives a copy tensor-core or lower-precision math advice', () => {
  for (const bound of ['memory', 'compute', 'latency'] as const) {
    const advice = boundAdvice(bound, 'copy', 'L2', 'copy');
    expect(advice).toMatch(/native GQA/);
    expect(advice).not.toMatch(/FP8|tensor-core|tensor core/);
  }
  expect(boundAdvice('compute', 'gemm', 'DRAM', 'gemm-prefill')).toMatch(/tensor-core/);
});
