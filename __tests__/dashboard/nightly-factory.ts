/**
 * Synthetic nightly histories for the dashboard tests: one valid report per night (checked against
 * the schema), with seeded noise so every run of the tests sees the same numbers. A workload is a
 * throughput level per night, family shares per night, and the kernels inside each family.
 */
import { mulberry32 } from '../../src/compare/statistics.js';
import type { Finding, Report } from '../../src/model/report.js';
import { emptyReport } from '../helpers/empty-report.js';
import { finding } from '../report/report-factory.js';

export interface KernelSpec {
  name: string;
  family: string;
  /** Fraction of its family's time. */
  part: number;
}

export interface NightlyShape {
  workload: string;
  model?: string;
  gpu?: string;
  repository?: string;
  nights: number;
  /** Midnight UTC of the first night. */
  start?: string;
  /** The decode tok/s level of a night (before noise). */
  level: (night: number) => number;
  /** Relative standard deviation of one sample, and of the night-to-night wobble. */
  sampleNoise?: number;
  nightNoise?: number;
  samples?: number;
  /** Family shares of a night (normalised here). */
  families: (night: number) => Record<string, number>;
  kernels: (night: number) => KernelSpec[];
  findings?: (night: number) => Finding[];
  verdict?: (night: number) => Report['verdict'];
  seed?: number;
}

export const DEFAULT_KERNELS: KernelSpec[] = [
  { name: 'sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas', family: 'gemm', part: 0.62 },
  { name: 'void cutlass::Kernel2<cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_32x32_128x2_tn_align8>(cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_32x32_128x2_tn_align8::Params)', family: 'gemm', part: 0.38 },
  { name: 'cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16_knob_3_64x64x128_4x1x1_kernel0_0', family: 'attention-fused', part: 1 },
  { name: 'void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<c10::BFloat16, float>(int, float, c10::BFloat16 const*, c10::BFloat16 const*, c10::BFloat16 const*, float*, float*, c10::BFloat16*)', family: 'norm', part: 1 },
  { name: 'void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<c10::BFloat16>, at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<c10::BFloat16>, at::detail::Array<char*, 3>)', family: 'elementwise', part: 0.55 },
  { name: 'void at::native::vectorized_elementwise_kernel<4, at::native::silu_kernel(at::TensorIteratorBase&)::{lambda()#1}::operator()() const::{lambda()#8}::operator()() const::{lambda(c10::BFloat16)#1}, at::detail::Array<char*, 2> >', family: 'elementwise', part: 0.45 },
  { name: 'void at::native::(anonymous namespace)::indexSelectLargeIndex<c10::BFloat16, long, unsigned int, 2, 2, -2, true>', family: 'embedding', part: 1 },
  { name: 'Memcpy DtoD (Device -> Device)', family: 'memcpy', part: 1 },
];

/** The kernels of an attention path that lost its fused kernel: matmul + softmax instead. */
export const UNFUSED_KERNELS: KernelSpec[] = [
  ...DEFAULT_KERNELS.filter((k) => k.family !== 'attention-fused'),
  { name: 'void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, c10::BFloat16, float, c10::BFloat16, at::native::(anonymous namespace)::SoftMaxForwardEpilogue>', family: 'softmax', part: 1 },
  { name: 'sm90_xmma_gemm_bf16bf16_bf16f32_f32_nn_n_tilesize64x128x64_batched_bmm_kernel', family: 'attention-unfused', part: 1 },
];

export const DEFAULT_FAMILIES = { gemm: 0.58, 'attention-fused': 0.17, norm: 0.06, elementwise: 0.1, embedding: 0.04, memcpy: 0.05 };

function gaussian(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

function hex(random: () => number, length: number): string {
  let out = '';
  for (let i = 0; i < length; i += 1) out += Math.floor(random() * 16).toString(16);
  return out;
}

export function nightlyReport(shape: NightlyShape, night: number, random = mulberry32((shape.seed ?? 1) * 1000 + night)): Report {
  // The commit first, so it does not depend on how many other draws a night makes.
  const commit = hex(random, 40);
  const start = Date.parse(shape.start ?? '2025-12-01T03:17:00.000Z');
  const time = new Date(start + night * 86_400_000).toISOString();
  const level = shape.level(night) * (1 + (shape.nightNoise ?? 0.004) * gaussian(random));
  const samples = Array.from({ length: shape.samples ?? 10 }, () => Math.round(level * (1 + (shape.sampleNoise ?? 0.006) * gaussian(random)) * 100) / 100);
  const sorted = [...samples].sort((a, b) => a - b);
  const median = sorted.length % 2 ? sorted[sorted.length >> 1]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
  const raw = shape.families(night);
  const wobble = Object.fromEntries(Object.entries(raw).map(([f, s]) => [f, Math.max(0, s * (1 + 0.02 * gaussian(random)))]));
  const sum = Object.values(wobble).reduce((a, b) => a + b, 0);
  const totalNs = 2_000_000_000;
  const kernels = shape
    .kernels(night)
    .filter((k) => (wobble[k.family] ?? 0) > 0)
    .map((k) => {
      const share = ((wobble[k.family] ?? 0) / sum) * k.part;
      return { name: k.name, family: k.family, totalNs: Math.round(share * totalNs), instances: 4096, share };
    })
    .sort((a, b) => b.totalNs - a.totalNs);
  const families = Object.entries(wobble)
    .filter(([, s]) => s > 0)
    .map(([family, s]) => {
      const inside = kernels.filter((k) => k.family === family);
      return { family, totalNs: Math.round((s / sum) * totalNs), share: s / sum, kernels: inside.length, instances: inside.length * 4096 };
    })
    .sort((a, b) => b.share - a.share);
  return emptyReport({
    generatedAt: time,
    run: {
      workload: shape.workload,
      commit,
      ref: 'refs/heads/main',
      repository: shape.repository ?? 'octo/gpu-app',
      runId: String(9_000_000 + night),
      runUrl: `https://github.com/${shape.repository ?? 'octo/gpu-app'}/actions/runs/${9_000_000 + night}`,
      timestamp: time,
    },
    environment: { gpuName: shape.gpu ?? 'NVIDIA H200', model: shape.model ?? 'llama-3.1-8b', dtype: 'bf16', vendor: 'nvidia' },
    sources: [{ path: 'decode.trace.json', format: 'kineto-json', parts: [], stats: [] }],
    totalKernelNs: totalNs,
    kernels,
    families,
    metrics: [{ name: 'decode_tok_s', unit: 'tok/s', direction: 'higher', samples, value: median }],
    findings: shape.findings?.(night) ?? [],
    verdict: shape.verdict?.(night) ?? 'pass',
  });
}

export function nightlySeries(shape: NightlyShape): Report[] {
  return Array.from({ length: shape.nights }, (_, night) => nightlyReport(shape, night));
}

/**
 * Five workloads over `nights` nights, the shape of a real nightly matrix. The 8B decode loses its
 * fused attention at night `shiftAt` (a matmul + softmax path: −8% tok/s, attention share up) and
 * never recovers; the 70B has a three-week dip that recovers; the others are flat.
 */
export function nightlyMatrix(nights: number, shiftAt = Math.floor(nights * 0.8)): Report[][] {
  const flat = (level: number) => () => level;
  const unfusedFamilies = { gemm: 0.52, 'attention-unfused': 0.16, softmax: 0.09, norm: 0.06, elementwise: 0.09, embedding: 0.03, memcpy: 0.05 };
  const dipFrom = Math.floor(nights * 0.4);
  const dipTo = dipFrom + Math.max(6, Math.floor(nights / 17));
  return [
    nightlySeries({
      workload: 'llama-3.1-8b · H200 · bf16 · bs1',
      nights,
      seed: 11,
      level: (n) => (n < shiftAt ? 1512 : 1391),
      families: (n) => (n < shiftAt ? DEFAULT_FAMILIES : unfusedFamilies),
      kernels: (n) => (n < shiftAt ? DEFAULT_KERNELS : UNFUSED_KERNELS),
      findings: (n) => (n < shiftAt ? [] : [finding({ id: 'unfused-attention', severity: 'error', title: 'Attention runs as matmul + softmax' })]),
      verdict: (n) => (n < shiftAt ? 'pass' : 'fail'),
    }),
    nightlySeries({
      workload: 'llama-3.1-70b · 8×H200 · fp8 · bs32',
      model: 'llama-3.1-70b',
      nights,
      seed: 12,
      level: (n) => (n >= dipFrom && n < dipTo ? 2710 : 2985),
      families: () => DEFAULT_FAMILIES,
      kernels: () => DEFAULT_KERNELS,
      findings: (n) => (n >= dipFrom && n < dipTo ? [finding({ id: 'host-bound', severity: 'warning' })] : []),
      verdict: (n) => (n >= dipFrom && n < dipTo ? 'warn' : 'pass'),
    }),
    nightlySeries({ workload: 'mistral-7b · H200 · bf16 · bs8', model: 'mistral-7b', nights, seed: 13, level: flat(3820), families: () => DEFAULT_FAMILIES, kernels: () => DEFAULT_KERNELS }),
    nightlySeries({ workload: 'qwen2.5-14b · H200 · bf16 · bs4', model: 'qwen2.5-14b', nights, seed: 14, level: flat(1875), families: () => DEFAULT_FAMILIES, kernels: () => DEFAULT_KERNELS }),
    nightlySeries({
      workload: 'gemma-2-9b · MI300X · bf16 · bs1',
      model: 'gemma-2-9b',
      gpu: 'AMD Instinct MI300X',
      nights,
      seed: 15,
      level: flat(1340),
      families: () => DEFAULT_FAMILIES,
      kernels: () => DEFAULT_KERNELS,
      verdict: (n) => (n % 53 === 7 ? 'insufficient-data' : 'pass'),
    }),
  ];
}
