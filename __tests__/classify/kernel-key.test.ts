/**
 * One kernel, as each tool spells it, gets one key. The spellings are read from real captures
 * (fixtures/kernel-names, fixtures/ncu, fixtures/kineto, fixtures/rocprof) and from real g++ symbols
 * with their c++filt demangling (fixtures/kernel-names/mangled/PROVENANCE.md).
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { demangle } from '../../src/classify/demangle.js';
import { kernelKey, kernelSignature, matchKernel } from '../../src/classify/kernel-name.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures');
const text = (path: string) => readFileSync(join(FIXTURES, path), 'utf8');

/** Every distinct kernel name in a file (CSV cells, Kineto event names, TSV first columns). */
function namesIn(path: string): string[] {
  const raw = path.endsWith('.gz') ? gunzipSync(readFileSync(join(FIXTURES, path))).toString('utf8') : text(path);
  const found = new Set<string>();
  for (const match of raw.matchAll(/"name": "((?:[^"\\]|\\.)*)"/g)) found.add(JSON.parse(`"${match[1]}"`) as string);
  for (const match of raw.matchAll(/"((?:[^"]|"")*)"/g)) found.add(match[1]!.replace(/""/g, '"'));
  return [...found];
}

/** The one name in the file that matches every pattern. */
function spelling(path: string, ...patterns: RegExp[]): string {
  const hits = namesIn(path).filter((n) => patterns.every((p) => p.test(n)));
  if (hits.length !== 1) throw new Error(`${path}: ${hits.length} names match ${patterns.join(' ')}`);
  return hits[0]!;
}

const GXX = text('kernel-names/mangled/gxx_cxxfilt.tsv')
  .trim()
  .split('\n')
  .map((line) => line.split('\t') as [string, string]);
const mangled = (pattern: RegExp) => GXX.find(([symbol, plain]) => symbol.startsWith('_Z') && pattern.test(plain))![0];

describe('demangle: real g++ symbols against c++filt', () => {
  it.each(GXX.filter(([symbol]) => symbol.startsWith('_Z')))('%s', (symbol, plain) => {
    expect(demangle(symbol)).toBe(plain);
  });

  it('leaves names that are not mangled, and gives up on what it cannot read', () => {
    expect(demangle('nvjet_sm90_tst_256x8_64x6_4x1_v_bz_TNT')).toBeUndefined();
    expect(demangle('void at::native::reduce_kernel<512, 1>(int)')).toBeUndefined();
    expect(demangle('_ZN2at6native')).toBeUndefined();
    expect(demangle('_Z16laplacian_kernelIdEvPT_PKS0_id.kd')).toBe('void laplacian_kernel<double>(double*, double const*, int, double)');
  });

  it('reads the CUTLASS grouped GEMM that torch._grouped_mm launches on an H200 (Kineto trace)', () => {
    const name = text('kernel-names/mangled/h200_grouped_mm_cutlass.txt').trim();
    const plain = demangle(name);
    expect(plain).toMatch(/^void cutlass::device_kernel<at::cuda::detail::enable_3x_kernel_for_sm9x<cutlass::gemm::kernel::GemmUniversal<cutlass::gemm::GroupProblemShape<cute::tuple<int, int, int> >, /);
    expect(kernelKey(name)).toBe('device_kernel<enable_3x_kernel_for_sm9x>');
  });
});

describe('kernelKey: one kernel as each tool writes it', () => {
  it('the KV-head copy of one H200 run: nsys `at::native::elementwise_kernel<(int)128, …>`, ncu `elementwise_kernel<128, …>`', () => {
    const nsys = spelling('h200-captures/gqa_repeat_kv/gqa_cuda_gpu_kern_sum.csv', /direct_copy_kernel_cuda/);
    const ncu = spelling('h200-captures/gqa_repeat_kv/ncu/gqa_copy.ncu.csv', /direct_copy_kernel_cuda/);
    expect(nsys).toMatch(/^void at::native::elementwise_kernel<\(int\)128, \(int\)4, /);
    expect(ncu).toMatch(/^void elementwise_kernel<128, 4, void gpu_kernel_impl_nocast<direct_copy_kernel_cuda/);
    expect(kernelKey(ncu)).toBe('elementwise_kernel<direct_copy_kernel_cuda>');
    expect(kernelKey(nsys)).toBe(kernelKey(ncu));
    // ncu drops `const::[` of the nested lambdas too; the signature still agrees.
    expect(kernelSignature(ncu)).toBe(kernelSignature(nsys));
  });

  it('the ATen bf16/fp32 direct copy (elementwise_kernel): nsys, ncu, Kineto, mangled', () => {
    const spellings = [
      spelling('kernel-names/nsys_healthy_kern_sum.csv', /^void at::native::elementwise_kernel<\(int\)128, \(int\)4, .*direct_copy_kernel_cuda/),
      spelling('ncu/fp32_roofline/fp32_kernels.details.csv', /^void at::elementwise_kernel<128, 2, .*direct_copy_kernel_cuda/),
      spelling('kineto/hta_mi250_rocm6.2_minitoy_train_kineto.json', /^void at::native::elementwise_kernel<128, 2, .*direct_copy_kernel_cuda.*\{lambda\(float\)#1\}/),
      mangled(/elementwise_kernel<128, 4, .*direct_copy/),
    ];
    for (const name of spellings) expect(kernelKey(name)).toBe('elementwise_kernel<direct_copy_kernel_cuda>');
  });

  it('the unrolled direct copy: nsys (RTX 5090), ncu (H200), Kineto (H200)', () => {
    const spellings = [
      spelling('kernel-names/dsocr_decode_rtx5090_cuda_gpu_kern_sum.csv', /^void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda.*lambda\(float\)/),
      spelling('ncu/h200_small_matmul_ncu_details.csv', /unrolled_elementwise_kernel<at::direct_copy_kernel_cuda/),
      spelling('kineto/dense_decode.trace.json.gz', /^void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda.*\{lambda\(float\)#1\}/),
    ];
    for (const name of spellings) expect(kernelKey(name)).toBe('unrolled_elementwise_kernel<direct_copy_kernel_cuda>');
    // Same kernel and value type, spelled by three tools: one signature.
    expect(new Set(spellings.map(kernelSignature)).size).toBe(1);
  });

  it('cuBLAS gemv: nsys `internal::gemvx::kernel<…, (bool)0, (int)7, …>` and ncu `kernel<…, 0, 7, …>(T13)`', () => {
    const nsys = spelling('kernel-names/dsocr_decode_rtx5090_cuda_gpu_kern_sum.csv', /gemvx::kernel<.*\(int\)7, \(bool\)0, cublasGemvParamsEx/);
    const ncu = spelling('ncu/dsocr_k0001_gemv_ncu_details.csv', /kernel<int, int, __nv_bfloat16/);
    expect(kernelKey(nsys)).toBe('kernel<cublasGemvParamsEx>');
    expect(kernelKey(ncu)).toBe('kernel<cublasGemvParamsEx>');
    expect(kernelSignature(ncu)).toBe(kernelSignature(nsys));
    // The (int)6 variant is another kernel of the same key, and another signature.
    const other = spelling('kernel-names/dsocr_decode_rtx5090_cuda_gpu_kern_sum.csv', /gemvx::kernel<.*\(int\)6, \(bool\)0, cublasGemvParamsEx/);
    expect(kernelKey(other)).toBe('kernel<cublasGemvParamsEx>');
    expect(kernelSignature(other)).not.toBe(kernelSignature(ncu));
  });

  it('the mean reduction (unfused RMSNorm): ncu, Kineto, mangled', () => {
    for (const name of [
      spelling('ncu/h200_small_matmul_ncu_details.csv', /reduce_kernel<512, 1, .*MeanOps/),
      spelling('kineto/hta_mi250_rocm6.2_minitoy_train_kineto.json', /^void at::native::reduce_kernel<512, 1, .*MeanOps/),
      mangled(/reduce_kernel<512, 1, .*MeanOps/),
    ]) expect(kernelKey(name)).toBe('reduce_kernel<MeanOps>');
  });

  it('the bf16 add: nsys, Kineto (as PyTorch prints it), mangled', () => {
    for (const name of [
      spelling('kernel-names/nsys_healthy_kern_sum.csv', /^void at::native::vectorized_elementwise_kernel<\(int\)8, at::native::CUDAFunctor_add<c10::BFloat16>/),
      'void at::native::vectorized_elementwise_kernel<8, at::native::CUDAFunctor_add<c10::BFloat16>, std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<c10::BFloat16>, std::array<char*, 3ul>)',
      mangled(/vectorized_elementwise_kernel<8, at::native::CUDAFunctor_add/),
    ]) expect(kernelKey(name)).toBe('vectorized_elementwise_kernel<CUDAFunctor_add>');
  });

  it('anonymous namespaces in every spelling: ncu `unnamed>::`, nsys `<unnamed>::`, c++filt `(anonymous namespace)::`', () => {
    expect(kernelKey(namesIn('external-2/ncu/vllmcpp_laguna_grouped_gemv_gb10_ncu_details_id0_trimmed.csv').find((n) => /QuantDot/.test(n))!)).toBe('QuantDotGemmGroupedKernel');
    expect(kernelKey(mangled(/QuantDotGemmGroupedKernel/))).toBe('QuantDotGemmGroupedKernel');
    expect(kernelKey(spelling('kernel-names/nsys_healthy_kern_sum.csv', /vectorized_layer_norm_kernel/))).toBe('vectorized_layer_norm_kernel');
    expect(kernelKey(mangled(/vectorized_layer_norm_kernel/))).toBe('vectorized_layer_norm_kernel');
  });

  it('rocprof `[clone .kd]` and `.kd`, enum casts, plain C and Triton names', () => {
    expect(kernelKey(spelling('kernel-names/rocprofv1_laplacian_results.stats.csv', /^void laplacian_kernel<double>/))).toBe('laplacian_kernel');
    expect(kernelKey(mangled(/laplacian_kernel/))).toBe('laplacian_kernel');
    expect(kernelKey('void mul_mat_q<(ggml_type)2, 128, false>(char const*, int const*, float*, int) [clone .kd]')).toBe('mul_mat_q');
    expect(kernelKey(mangled(/mul_mat_q/))).toBe('mul_mat_q');
    expect(kernelKey('__amd_rocclr_copyBuffer.kd')).toBe('__amd_rocclr_copyBuffer');
    expect(kernelKey('nvjet_sm90_tst_256x8_64x6_4x1_v_bz_TNT')).toBe('nvjet_sm90_tst_256x8_64x6_4x1_v_bz_TNT');
    expect(kernelKey('triton_red_fused__to_copy_add_mean_mul_pow_rsqrt_0')).toBe('triton_red_fused__to_copy_add_mean_mul_pow_rsqrt_0');
    expect(kernelKey('padded_copy_bfloat16_3f4a5b6c')).toBe('padded_copy_bfloat16');
    expect(kernelKey('divide_kernel(float*, float const*, float const*, unsigned long)')).toBe('divide_kernel');
  });

  it('keeps neighbours apart', () => {
    const nsys = namesIn('kernel-names/nsys_healthy_kern_sum.csv');
    const where = nsys.find((n) => /elementwise_kernel<\(int\)128, \(int\)4, .*where_kernel_impl/.test(n))!;
    expect(kernelKey(where)).toBe('elementwise_kernel<where_kernel_impl>');
    const index = nsys.find((n) => /index_elementwise_kernel/.test(n))!;
    expect(kernelKey(index)).toBe('index_elementwise_kernel<index_copy_kernel_impl>');
    const mul = spelling('kernel-names/dsocr_decode_rtx5090_cuda_gpu_kern_sum.csv', /^void at::native::vectorized_elementwise_kernel<\(int\)4, at::native::BinaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, at::native::binary_internal::MulFunctor/);
    expect(kernelKey(mul)).toBe('vectorized_elementwise_kernel<MulFunctor>');
    const splitK = nsys.find((n) => /splitKreduce_kernel/.test(n))!;
    expect(kernelKey(splitK)).toBe('splitKreduce_kernel');
    // The bf16 and fp32 direct copies share a key; their signatures differ.
    const bf16 = spelling('kernel-names/nsys_healthy_kern_sum.csv', /^void at::native::elementwise_kernel<\(int\)128, \(int\)4, .*direct_copy_kernel_cuda/);
    const fp32 = spelling('ncu/fp32_roofline/fp32_kernels.details.csv', /direct_copy_kernel_cuda/);
    expect(kernelSignature(bf16)).not.toBe(kernelSignature(fp32));
  });
});

describe('matchKernel', () => {
  const kernels = [
    { name: 'void at::native::elementwise_kernel<(int)128, (int)4, void at::native::gpu_kernel_impl_nocast<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase &)::[lambda() (instance 3)]::operator ()() const::[lambda() (instance 7)]::operator ()() const::[lambda(float) (instance 1)]>(at::TensorIteratorBase &, const T1 &)::[lambda(int) (instance 1)]>(int, T3)', totalNs: 900 },
    { name: spelling('h200-captures/gqa_repeat_kv/gqa_cuda_gpu_kern_sum.csv', /direct_copy_kernel_cuda/), totalNs: 100 },
    { name: 'nvjet_sm90_tst_256x8_64x6_4x1_v_bz_TNT', totalNs: 50 },
  ];
  it('takes the same name, else the same key and signature, else the same key with the most time', () => {
    expect(matchKernel('nvjet_sm90_tst_256x8_64x6_4x1_v_bz_TNT', kernels)).toBe(kernels[2]);
    // The bf16 copy, as ncu spells it: its signature picks the smaller bf16 kernel over the float one.
    expect(matchKernel(spelling('h200-captures/gqa_repeat_kv/ncu/gqa_copy.ncu.csv', /direct_copy_kernel_cuda/), kernels)).toBe(kernels[1]);
    // A copy of another value type (half) shares the key only: the kernel with more time.
    expect(matchKernel('void elementwise_kernel<128, 4, void gpu_kernel_impl_nocast<direct_copy_kernel_cuda(TensorIteratorBase &)::[lambda() (instance 3)]::operator ()() lambda() (instance 9)]::operator ()() lambda(Half) (instance 1)]>(TensorIteratorBase &, const T1 &)::[lambda(int) (instance 1)]>(int, T3)', kernels)).toBe(kernels[0]);
    expect(matchKernel('void at::native::reduce_kernel<512, 1>(int)', kernels)).toBeUndefined();
  });
});
