import rule from '../../../src/diagnose/rules/quant-prep-heavy.js';
import { K } from '../../helpers/profile-builder.js';
import { testRule } from '../../helpers/rule-tester.js';

// Shaped as ATen and CUTLASS print them; what makes them prep is the op chain each was launched from.
const INT8_GEMM = 'void cutlass::Kernel2<cutlass_80_tensorop_i16832gemm_s8_256x128_64x3_tn_align16>(cutlass_80_tensorop_i16832gemm_s8_256x128_64x3_tn_align16::Params)';
const ABS = 'void at::native::vectorized_elementwise_kernel<4, at::native::abs_kernel_cuda(at::TensorIteratorBase&)::{lambda()#1}::operator()() const::{lambda()#7}::operator()() const::{lambda(c10::BFloat16)#1}, std::array<char*, 2ul> >(int, at::native::abs_kernel_cuda(at::TensorIteratorBase&)::{lambda()#1}::operator()() const::{lambda()#7}::operator()() const::{lambda(c10::BFloat16)#1}, std::array<char*, 2ul>)';
const AMAX = 'void at::native::reduce_kernel<512, 1, at::native::ReduceOp<c10::BFloat16, at::native::func_wrapper_t<c10::BFloat16, at::native::MaxNanFunctor<float> >, unsigned int, c10::BFloat16, 4, 4> >(at::native::ReduceOp<c10::BFloat16, at::native::func_wrapper_t<c10::BFloat16, at::native::MaxNanFunctor<float> >, unsigned int, c10::BFloat16, 4, 4>)';
const DIV = 'void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl_nocast<at::native::BinaryFunctor<float, float, float, at::native::binary_internal::DivFunctor<float> > >(at::TensorIteratorBase&, at::native::BinaryFunctor<float, float, float, at::native::binary_internal::DivFunctor<float> > const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::BinaryFunctor<float, float, float, at::native::binary_internal::DivFunctor<float> > >(at::TensorIteratorBase&, at::native::BinaryFunctor<float, float, float, at::native::binary_internal::DivFunctor<float> > const&)::{lambda(int)#1})';
const ROUND = 'void at::native::vectorized_elementwise_kernel<4, at::native::round_kernel_cuda(at::TensorIteratorBase&)::{lambda()#1}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}, std::array<char*, 2ul> >(int, at::native::round_kernel_cuda(at::TensorIteratorBase&)::{lambda()#1}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}, std::array<char*, 2ul>)';
const CLAMP = 'void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::clamp_scalar_kernel_impl(at::TensorIteratorBase&, c10::Scalar const&, c10::Scalar const&)::{lambda()#1}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}, std::array<char*, 2ul> >(int, at::native::(anonymous namespace)::clamp_scalar_kernel_impl(at::TensorIteratorBase&, c10::Scalar const&, c10::Scalar const&)::{lambda()#1}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}, std::array<char*, 2ul>)';
const MUL = 'void at::native::vectorized_elementwise_kernel<4, at::native::AUnaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> >, std::array<char*, 2ul> >(int, at::native::AUnaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> >, std::array<char*, 2ul>)';
const SOFTMAX = 'void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, float, float, float, at::native::(anonymous namespace)::SoftMaxForwardEpilogue>(float*, float const*, int)';
const DEQUANT_WEIGHT = 'dequantize_fp8_weight_kernel';
/** x.abs().amax(-1) / 127, then (x / scale).round().clamp(-128, 127).to(int8), then torch._int_mm. */
const CAST_CHAIN = 'aten::to > aten::_to_copy > aten::copy_';
const site = (fn: string, share = 1) => [{ function: fn, file: 'llama_decode.py', line: 190, share }];
const PLAIN_INT8_CHAINS = {
  [INT8_GEMM]: 'aten::_int_mm',
  [ABS]: 'aten::abs',
  [AMAX]: 'aten::amax',
  [DIV]: 'aten::div',
  [ROUND]: 'aten::round',
  [CLAMP]: 'aten::clamp',
};

testRule(rule, {
  passing: [
    { name: 'bf16 model, no quantize kernels', profile: { kernels: [[K.maxGemv, 60, 1000], [K.maxMha, 10, 500]] } },
    { name: 'quantize below the floor', profile: { kernels: [[K.maxBlockScaledGemm, 99.9, 1000], [K.fp8Quant, 0.1, 1000]] } },
    {
      // TensorRT-LLM's bf16 MoE: its set-up kernel takes a QuantParams argument (MoE plumbing now, not
      // quantize), and a kernel that says "quant" with no low-bit dtype in a run with no low-bit matmul.
      name: 'a bf16 MoE whose kernels only mention quantization: no low-bit path, no prep',
      profile: {
        kernels: [
          ['void cutlass::Kernel<cutlass::gemm::kernel::MoeFCGemm<cutlass::gemm::threadblock::MmaMultistage<cutlass::gemm::GemmShape<32, 128, 64>, cutlass::bfloat16_t, cutlass::layout::RowMajor, cutlass::bfloat16_t, cutlass::layout::ColumnMajor, float, cutlass::layout::RowMajor, cutlass::arch::OpMultiplyAdd, 4>, cutlass::epilogue::threadblock::Epilogue<cutlass::gemm::GemmShape<32, 128, 64>, cutlass::bfloat16_t>, cutlass::gemm::threadblock::GemmBatchedIdentityThreadblockSwizzle, cutlass::arch::Sm80, (cutlass::gemm::kernel::GroupScheduleMode)0>>(T1::Params)', 60, 960],
          ['void tensorrt_llm::kernels::cutlass_kernels::computeStridesTmaWarpSpecializedKernel<__nv_bfloat16, __nv_bfloat16, __nv_bfloat16, __nv_bfloat16>(const long *, tensorrt_llm::kernels::cutlass_kernels::TmaWarpSpecializedGroupedGemmInput, tensorrt_llm::kernels::cutlass_kernels::TmaWarpSpecializedGroupedGemmInput, long, long, long, long, long, long, int, const __nv_bfloat16 *, const __nv_bfloat16 *, const __nv_bfloat16 *, const __nv_bfloat16 *, tensorrt_llm::kernels::cutlass_kernels::QuantParams, const __nv_bfloat16 *, const __nv_bfloat16 *, __nv_bfloat16 *, __nv_bfloat16 *)', 0.5, 480],
          ['void moe_layout_quant_params_kernel<__nv_bfloat16>(__nv_bfloat16 const*, int)', 0.6, 480],
          [K.maxGemv, 30, 960],
          [K.maxMha, 8.9, 480],
        ],
      },
    },
    {
      name: 'div, round and clamp in a bf16 model with no _int_mm / _scaled_mm are not prep',
      profile: {
        kernels: [[K.ampereGemm, 10, 100], [ABS, 3, 100], [AMAX, 4, 100], [DIV, 3, 100], [ROUND, 3, 100], [CLAMP, 3, 100], [K.copy, 74, 500]],
        launchedBy: { ...PLAIN_INT8_CHAINS, [K.ampereGemm]: 'aten::linear > aten::mm' },
      },
    },
    {
      // A lone div and clamp (no scale taken) beside _int_mm is not a quantize.
      name: 'apply ops with no scale op are not a quantize',
      profile: {
        kernels: [[INT8_GEMM, 10, 100], [DIV, 30, 100], [CLAMP, 30, 100], [K.copy, 30, 500]],
        launchedBy: PLAIN_INT8_CHAINS,
      },
    },
    {
      // A cast is a cast: beside _int_mm, but run by a function that is not a quantize (a norm's .float()).
      name: 'a cast under a function that does not name a quantize is not prep',
      profile: {
        kernels: [[INT8_GEMM, 10, 100], [K.copy, 60, 100], [SOFTMAX, 30, 100]],
        launchedBy: { [INT8_GEMM]: 'aten::_int_mm', [K.copy]: CAST_CHAIN },
        pythonSites: { [K.copy]: site('rms_norm') },
      },
    },
    {
      // The same cast kernel also runs elsewhere: a quantize that launched 80 % of it does not make it all prep.
      name: 'a cast a quantize function launched only part of is not counted whole',
      profile: {
        kernels: [[INT8_GEMM, 10, 100], [K.copy, 60, 100], [SOFTMAX, 30, 100]],
        launchedBy: { [INT8_GEMM]: 'aten::_int_mm', [K.copy]: CAST_CHAIN },
        pythonSites: { [K.copy]: site('per_token_quant_int8', 0.8) },
      },
    },
  ],
  failing: [
    {
      name: 'normal fp8 prep is info',
      profile: { kernels: [[K.maxBlockScaledGemm, 60, 1000], [K.fp8Quant, 6, 1000], [K.copy, 34, 1000]] },
      hits: [{ severity: 'info', evidence: { quantizeShare: 0.06, matmulShare: 0.6, quantizeToMatmulRatio: 0.1, matmulFamily: 'lowbit-gemm', quantizeLaunches: 1000 } }],
    },
    {
      name: 'quantize outweighs the matmuls',
      profile: { kernels: [[K.maxBlockScaledGemm, 10, 1000], [K.fp8Quant, 15, 2000], [K.copy, 75, 1000]] },
      hits: [
        {
          severity: 'warning',
          evidence: { quantizeShare: 0.15, matmulShare: 0.1, quantizeToMatmulRatio: 1.5, matmulFamily: 'lowbit-gemm' },
          command: /regex:'vllm::scaled_fp8_quant_kernel' --kernel-name-base demangled --launch-skip 1000 /,
          kernel: K.fp8Quant,
        },
      ],
    },
    {
      name: 'no named low-bit matmul: compared with all linear work',
      profile: { kernels: [[K.decodeGemm, 40, 1000], [K.maxFp4Quant, 10, 1000], [K.copy, 50, 1000]] },
      hits: [{ severity: 'info', evidence: { quantizeToMatmulRatio: 0.25, matmulFamily: 'linear', matmulShare: 0.4 } }],
    },
    {
      // A 128-rank recsys trainer (HTA sampled trace): fbgemm's _float_to_hfp8 is 1.2 % of kernel
      // time, 2.6x the few dense GEMMs, and no low-bit matmul exists: communication compression.
      name: 'quantize with no low-bit matmul to feed is a note, not a warning',
      profile: { kernels: [[K.ampereGemm, 0.46, 5], [K.hfp8Quant, 1.22, 1], ['ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)', 84.6, 2], [K.copy, 13.7, 30]] },
      hits: [{ severity: 'info', evidence: { matmulFamily: 'linear', quantizeToMatmulRatio: 2.6522 } }],
    },
    {
      name: 'a lower bar makes ordinary prep a warning',
      profile: { kernels: [[K.maxBlockScaledGemm, 50, 1000], [K.maxFp4Quant, 20, 1000], [K.copy, 30, 1000]] },
      options: { maxQuantizeToMatmulRatio: 0.3 },
      hits: [{ severity: 'warning', evidence: { quantizeToMatmulRatio: 0.4 }, kernel: K.maxFp4Quant }],
    },
    {
      // W8A8 decode: the per-token activation quantize written as plain ops (x.abs().amax(-1), div,
      // round, clamp, .to(int8)) costs more than the int8 GEMMs torch._int_mm runs. ATen's kernel
      // names say nothing of quantizing; the op chains do.
      name: 'plain-op quantize feeding _int_mm outweighs the int8 GEMMs',
      profile: {
        kernels: [[INT8_GEMM, 10, 100], [ABS, 3, 100], [AMAX, 4, 100], [DIV, 3, 100], [ROUND, 3, 100], [CLAMP, 3, 100], [K.copy, 74, 500]],
        launchedBy: PLAIN_INT8_CHAINS,
      },
      hits: [
        {
          severity: 'warning',
          evidence: {
            quantizeShare: 0.16,
            plainOpShare: 0.16,
            matmulShare: 0.1,
            quantizeToMatmulRatio: 1.6,
            matmulFamily: 'lowbit-gemm',
            fedBy: 'aten::_int_mm',
            plainOpChains: 'aten::amax (4.0%); aten::abs (3.0%); aten::div (3.0%); aten::clamp (3.0%); aten::round (3.0%)',
          },
          kernel: AMAX,
        },
      ],
    },
    {
      name: 'plain-op quantize well under the matmuls it feeds is info',
      profile: {
        kernels: [[INT8_GEMM, 60, 100], [ABS, 1, 100], [AMAX, 1, 100], [DIV, 1, 100], [ROUND, 1, 100], [CLAMP, 1, 100], [K.copy, 35, 500]],
        launchedBy: PLAIN_INT8_CHAINS,
      },
      hits: [{ severity: 'info', evidence: { plainOpShare: 0.05, quantizeToMatmulRatio: 0.0833, fedBy: 'aten::_int_mm' } }],
    },
    {
      // The quantize is a Python function under a record_function: the chain names it.
      name: 'a chain that names a quantize counts, beside a _scaled_mm on plainly named GEMMs',
      profile: {
        kernels: [[K.decodeGemm, 20, 100], [K.copy, 25, 100], [MUL, 30, 100], [SOFTMAX, 25, 100]],
        launchedBy: { [K.decodeGemm]: 'aten::_scaled_mm', [MUL]: 'quantize_per_token > aten::mul' },
      },
      hits: [{ severity: 'warning', evidence: { plainOpShare: 0.3, matmulShare: 0.2, quantizeToMatmulRatio: 1.5, matmulFamily: 'lowbit-gemm', fedBy: 'aten::_scaled_mm' }, kernel: MUL }],
    },
    {
      // fp8 weights expanded to bf16 on every step by a Triton kernel, then bf16 GEMMs (23.6 % vs 17.3 %).
      name: 'weights dequantized at run time to feed bf16 matmuls is a warning',
      profile: { kernels: [[K.decodeGemm, 17.3, 1000], [DEQUANT_WEIGHT, 23.6, 1000], [K.copy, 59.1, 1000]] },
      hits: [
        {
          severity: 'warning',
          evidence: { dequantizeShare: 0.236, matmulShare: 0.173, dequantizeToMatmulRatio: 1.3642, matmulFamily: 'linear', dequantizeLaunches: 1000 },
          kernel: DEQUANT_WEIGHT,
          command: /regex:'dequantize_fp8_weight_kernel'/,
        },
      ],
    },
    {
      name: 'a plain-op dequantize named by its chain is the same warning, with the chain',
      profile: {
        kernels: [[K.ampereGemm, 30, 100], [MUL, 10, 100], [K.copy, 60, 100]],
        launchedBy: { [K.ampereGemm]: 'aten::linear > aten::mm', [MUL]: 'dequantize_weight > aten::mul' },
      },
      hits: [{ severity: 'warning', evidence: { dequantizeShare: 0.1, dequantizeOps: 'dequantize_weight > aten::mul (10.0%)' }, kernel: MUL }],
    },
    {
      // with_stack: the workload's per_token_quant_int8 ran the cast to int8, so the cast is prep too.
      name: 'kernels run by a function that names a quantize count, casts included, labelled with it',
      profile: {
        kernels: [[INT8_GEMM, 10, 100], [K.copy, 12, 100], [SOFTMAX, 78, 100]],
        launchedBy: { [INT8_GEMM]: 'aten::_int_mm', [K.copy]: CAST_CHAIN },
        pythonSites: { [K.copy]: site('per_token_quant_int8') },
      },
      hits: [
        {
          severity: 'warning',
          evidence: { plainOpShare: 0.12, quantizeToMatmulRatio: 1.2, plainOpChains: 'per_token_quant_int8: aten::to > aten::_to_copy > aten::copy_ (12.0%)' },
          kernel: K.copy,
        },
      ],
    },
  ],
});
