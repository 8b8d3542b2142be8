/**
 * Build a Profile from a compact description, through the same path real inputs take:
 * synthetic Captures (validated by CaptureSchema) merged and classified by buildProfile.
 *
 *   profileOf({ kernels: [[K.decodeGemm, 40, 1000]], util: [5, 6, 4], metrics: { decode_tok_s: 16 } })
 */
import { buildProfile } from '../../src/pipeline/build-profile.js';
import { CaptureSchema, type CaptureInput, type FormatId, type NcuResult, type Notice, type UtilSample } from '../../src/model/capture.js';
import type { Environment, PythonSite, Timeline, TimelineInput } from '../../src/model/capture.js';
import type { Profile } from '../../src/model/profile.js';
import type { MetricName } from '../../src/model/metrics.js';

/** Real kernel names (from the H200 and public fixtures, or MAX's documented templates). */
export const K = {
  decodeGemm: 'nvjet_sm90_tst_64x8_64x16_4x1_v_bz_TNT',
  decodeGemm2: 'nvjet_sm90_tst_8x64_64x16_4x1_v_bz_TNN',
  prefillGemm: 'nvjet_sm90_tst_128x48_64x9_2x1_v_bz_TNT',
  prefillGemm2: 'nvjet_sm90_tst_64x152_64x7_4x1_v_bz_TNT',
  ampereGemm: 'ampere_bf16_s16816gemm_bf16_128x64_ldg8_f2f_stages_32x6_tn',
  maxGemv: 'gemv_split_k_bfloat16_bfloat16_bfloat16_256_f519d2c2',
  maxMatmul: 'sm90_matmul_bfloat16_bfloat16_bfloat16_True_9a0b1c2d',
  maxMha: 'sm100_mha_1q_depth128_bfloat16_bfloat16_nqh32_nkvh8_2a3b4c5d',
  maxRmsNorm: 'rms_norm_gpu_warp_tiling_bfloat16_4_True_1_9f8e7d6c',
  sdpa: 'cudnn_generated_fort_native_sdpa_sm80_flash_fprop_wmma_f16_knob_3_64x64x64_4x1x1_cga1x1x1_kernel0_0',
  flash: 'void flash::flash_fwd_splitkv_kernel<Flash_fwd_kernel_traits<128, 64, 128, 4, false, false, cutlass::bfloat16_t, Flash_kernel_traits<128, 64, 128, 4, cutlass::bfloat16_t> >, false, false, false, false, true, false, true, false>(Flash_fwd_params)',
  layerNorm: 'void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<c10::BFloat16, float, true>(int, float, c10::BFloat16 const*, c10::BFloat16 const*, c10::BFloat16 const*, float*, float*, c10::BFloat16*)',
  rmsNormVllm: 'void vllm::rms_norm_kernel<c10::BFloat16, 8, 2>(c10::BFloat16*, c10::BFloat16 const*, long, long, long, long, long, c10::BFloat16 const*, float, int, int)',
  rotaryVllm: 'void vllm::rotary_embedding_kernel<c10::BFloat16, true>(long const*, c10::BFloat16*, c10::BFloat16*, c10::BFloat16 const*, int, long, long, long, int, int, int)',
  meanReduce: 'void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, unsigned int, float, 4, 4> >(at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, unsigned int, float, 4, 4>)',
  rsqrt: 'void at::native::vectorized_elementwise_kernel<4, at::native::rsqrt_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}, std::array<char*, 2ul> >(int, at::native::rsqrt_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}, std::array<char*, 2ul>)',
  pow: 'void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::pow_tensor_scalar_kernel_impl<float, float>(at::TensorIteratorBase&, float)::{lambda(float)#1}, std::array<char*, 2ul> >(int, at::native::(anonymous namespace)::pow_tensor_scalar_kernel_impl<float, float>(at::TensorIteratorBase&, float)::{lambda(float)#1}, std::array<char*, 2ul>)',
  neg: 'void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::native::neg_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#9}::operator()() const::{lambda(c10::BFloat16)#1}> >(at::TensorIteratorBase&, at::native::neg_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#9}::operator()() const::{lambda(c10::BFloat16)#1} const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::neg_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#9}::operator()() const::{lambda(c10::BFloat16)#1}> >(at::TensorIteratorBase&, at::native::neg_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#9}::operator()() const::{lambda(c10::BFloat16)#1} const&)::{lambda(int)#1})',
  mul: 'void at::native::vectorized_elementwise_kernel<8, at::native::BinaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, at::native::binary_internal::MulFunctor<float> >, std::array<char*, 3ul> >(int, at::native::BinaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, at::native::binary_internal::MulFunctor<float> >, std::array<char*, 3ul>)',
  copy: 'void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}, std::array<char*, 2ul>, 4, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<1>, at::native::memory::StoreWithCast<1> >(int)',
  softmax: 'void (anonymous namespace)::softmax_warp_forward<float, float, float, 8, false, false>(float*, float const*, int, int, int, bool const*, int, bool)',
  samplingSoftmax: 'void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, float, float, float, at::native::(anonymous namespace)::SoftMaxForwardEpilogue>(float*, float const*, int)',
  maxBmm: 'mha_bmm0_bfloat16_bfloat16_6b7c8d9e',
  argmax: 'void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::ArgMaxOps<float>, unsigned int, long, 4, 4> >(at::native::ReduceOp<float, at::native::ArgMaxOps<float>, unsigned int, long, 4, 4>)',
  gatherTopK: 'void at::native::sbtopk::gatherTopK<float, unsigned int, 1, false>(at::cuda::detail::TensorInfo<float const, unsigned int>, unsigned int, unsigned int, bool, unsigned int, unsigned int, at::cuda::detail::TensorInfo<float, unsigned int>, unsigned int, at::cuda::detail::TensorInfo<long, unsigned int>, unsigned int, float*)',
  gather: 'void at::native::vectorized_gather_kernel<16, long>(char*, char*, long*, int, long, long, long, long, bool)',
  maxGroupedMatmul: 'grouped_matmul_kernel_sm100_bfloat16_bfloat16_bfloat16_t128_5d4c3b2a',
  maxMoeIndices: 'moe_create_indices_bucket_group_int32_t128_8b9c0d1e',
  fp8Quant: 'void vllm::scaled_fp8_quant_kernel<c10::BFloat16, c10::Float8_e4m3fn>(c10::Float8_e4m3fn*, c10::BFloat16 const*, float const*, long)',
  hfp8Quant: 'void at::native::vectorized_elementwise_kernel<4, fbgemm_gpu::_float_to_hfp8_gpu(at::Tensor const&, long, long, double)::{lambda(float)#1}, std::array<char*, 2ul> >(int, fbgemm_gpu::_float_to_hfp8_gpu(at::Tensor const&, long, long, double)::{lambda(float)#1}, std::array<char*, 2ul>)',
  maxFp4Quant: 'quantize_dynamic_scaled_async_fp4_kernel',
  maxBlockScaledGemm: 'matmul_sm100_blockwise_scaled_fp8_1d2d_1c2d3e4f',
  memcpyDtoH: '[CUDA memcpy Device-to-Host]',
} as const;

/** tokens: the M a recorded input shape gives the kernel's launching matmul (Kineto record_shapes). */
type KernelRow = readonly [name: string, ms: number, instances?: number, tokens?: number];

export interface ProfileSpec {
  /** [name, total milliseconds, instances (default 100)] */
  kernels?: readonly KernelRow[];
  /** The op that launched a kernel, by kernel name (Kineto attribution). */
  launchedBy?: Record<string, string>;
  /** The Python sites that launched a kernel, by kernel name (Kineto with_stack). */
  pythonSites?: Record<string, PythonSite[]>;
  /** GPU utilization samples: a percent, or a full sample (sample i is at t = i seconds). */
  util?: ReadonlyArray<number | (Partial<UtilSample> & { gpuPercent: number })>;
  /** Timed windows the workload reported, [start, end] in the samples' seconds. */
  timedWindows?: ReadonlyArray<readonly [startS: number, endS: number]>;
  /** Host↔device copies: [kind, total milliseconds, count]. */
  memops?: ReadonlyArray<readonly [kind: string, ms: number, count: number, name?: string]>;
  /** Metric samples by canonical name. */
  metrics?: Partial<Record<MetricName, number | readonly number[]>>;
  timeline?: Partial<Timeline>;
  /** [name, total milliseconds, calls] */
  apiCalls?: ReadonlyArray<readonly [name: string, ms: number, calls: number]>;
  /** Ranks of one job, each its own Kineto capture with `distributedInfo`. */
  ranks?: ReadonlyArray<{ rank: number; worldSize?: number; backend?: string; kernels: readonly KernelRow[]; timeline?: Partial<Timeline> }>;
  notices?: readonly Notice[];
  environment?: Environment;
  gpuTimeUtilPercent?: number;
  /** The format the kernel capture claims to be (default nsys-stats). */
  format?: FormatId;
  /** Nsight Compute results (one per profiled launch), as the ncu-csv importer returns them. */
  ncu?: readonly NcuResult[];
}

const MS = 1e6;

function timelineOf(partial: Partial<Timeline>): TimelineInput {
  return {
    spanNs: 0,
    busyNs: 0,
    devices: 1,
    idleGaps: { count: 0, totalNs: 0, longestNs: 0 },
    kernelLaunches: 0,
    graphLaunches: 0,
    graphKernels: 0,
    steps: [],
    busyByDecile: [],
    ...partial,
  };
}

/** The synthetic captures a spec stands for (one per kind of input, as real runs have). */
export function capturesOf(spec: ProfileSpec): CaptureInput[] {
  const captures: CaptureInput[] = [];
  const hasKernelInput = spec.kernels || spec.apiCalls || spec.memops || spec.timeline || spec.notices || spec.gpuTimeUtilPercent !== undefined;
  if (hasKernelInput) {
    captures.push({
      source: { path: 'capture.csv', format: spec.format ?? 'nsys-stats' },
      kernels: (spec.kernels ?? []).map(([name, ms, instances = 100, tokens]) => ({
        name,
        totalNs: ms * MS,
        instances,
        ...(tokens !== undefined ? { tokens } : {}),
        ...(spec.launchedBy?.[name] ? { launchedBy: spec.launchedBy[name] } : {}),
        ...(spec.pythonSites?.[name] ? { pythonSites: spec.pythonSites[name] } : {}),
      })),
      apiCalls: (spec.apiCalls ?? []).map(([name, ms, calls]) => ({ name, totalNs: ms * MS, calls })),
      memops: (spec.memops ?? []).map(([kind, ms, count, name = kind]) => ({ kind, name, totalNs: ms * MS, count })),
      ...(spec.timeline ? { timeline: timelineOf(spec.timeline) } : {}),
      notices: [...(spec.notices ?? [])],
      ...(spec.gpuTimeUtilPercent !== undefined ? { gpuTimeUtilPercent: spec.gpuTimeUtilPercent } : {}),
      environment: spec.environment ?? {},
    });
  }
  for (const r of spec.ranks ?? []) {
    captures.push({
      source: { path: `rank${r.rank}.pt.trace.json`, format: 'kineto-json' },
      distributed: { rank: r.rank, ...(r.worldSize !== undefined ? { worldSize: r.worldSize } : {}), ...(r.backend !== undefined ? { backend: r.backend } : {}) },
      kernels: r.kernels.map(([name, ms, instances = 100]) => ({ name, totalNs: ms * MS, instances })),
      ...(r.timeline ? { timeline: timelineOf(r.timeline) } : {}),
    });
  }
  if (spec.util) {
    captures.push({
      source: { path: 'gpu.csv', format: 'nvidia-smi-csv' },
      utilization: spec.util.map((u, i) => (typeof u === 'number' ? { t: i, gpuPercent: u } : { t: i, ...u })),
      timedWindows: (spec.timedWindows ?? []).map(([startS, endS]) => ({ startS, endS })),
    });
  }
  if (spec.metrics) {
    captures.push({
      source: { path: 'generate.log', format: 'max-generate' },
      metrics: (Object.entries(spec.metrics) as [MetricName, number | readonly number[]][]).flatMap(([name, v]) => (typeof v === 'number' ? [v] : v).map((value) => ({ name, value }))),
      ...(!hasKernelInput && spec.environment ? { environment: spec.environment } : {}),
    });
  }
  if (spec.ncu) captures.push({ source: { path: 'ncu.csv', format: 'ncu-csv' }, ncu: [...spec.ncu] });
  return captures;
}

export function profileOf(spec: ProfileSpec): Profile {
  return buildProfile(capturesOf(spec).map((c) => CaptureSchema.parse(c)));
}
