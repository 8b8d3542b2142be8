/**
 * Real Nsight Compute captures read through the ncu-csv importer, as data for the deep-dive rule
 * tests, and small edits of them for the edge cases (one metric changed or removed).
 */
import { join } from 'node:path';
import { ingestFile } from '../../src/ingest/registry.js';
import type { NcuResult } from '../../src/model/capture.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures');

/** Provenance: the PROVENANCE.md of each folder. */
export const NCU_FILES = {
  /** H200, batch-1 decode gate/up GEMV (nvjet N=8 tile), details page. */
  decodeGemv: 'h200-captures/ncu_deep_dive/decode_gemv.details.csv',
  decodeGemvRaw: 'h200-captures/ncu_deep_dive/decode_gemv.raw.csv',
  /** H200, 2048-token prefill gate/up GEMM. */
  prefillGemm: 'h200-captures/ncu_deep_dive/prefill_gemm.details.csv',
  prefillGemmRaw: 'h200-captures/ncu_deep_dive/prefill_gemm.raw.csv',
  /** H200, cuDNN SDPA decode attention. */
  decodeAttention: 'h200-captures/ncu_deep_dive/decode_attention.details.csv',
  decodeAttentionRaw: 'h200-captures/ncu_deep_dive/decode_attention.raw.csv',
  /** RTX 5090 (public repository), cuBLAS GEMV and CUTLASS GEMM, SpeedOfLight + Occupancy + MWA + SchedulerStats, no LaunchStats. */
  rtxGemv: 'ncu/dsocr_k0001_gemv_ncu_details.csv',
  rtxGemm: 'ncu/dsocr_k0016_cutlass_gemm_ncu_details.csv',
  /** H200, randn + bf16 matmul + relu/clamp + copy + mean: 8 launches, SpeedOfLight + Occupancy. */
  smallMatmul: 'ncu/h200_small_matmul_ncu_details.csv',
  /** H200, fp32 addcmul, transposing copy and SGEMM with the roofline and source-counter sections. */
  fp32: 'ncu/fp32_roofline/fp32_kernels.details.csv',
  fp32Raw: 'ncu/fp32_roofline/fp32_kernels.raw.csv',
  fp32All: 'ncu/fp32_roofline/fp32_kernels.details_all.csv',
  /** H200, the KV-head copy of a GQA decode step (repeat_kv), ncu names it without namespaces. */
  gqaCopy: 'h200-captures/gqa_repeat_kv/ncu/gqa_copy.ncu.csv',
  gqaCopySources: 'h200-captures/gqa_repeat_kv/ncu/gqa_copy_sources.ncu.csv',
  /** H200 decode step: two nvjet GEMVs, cuDNN SDPA, an nvjet N=8 GEMV; SpeedOfLight + Occupancy only. */
  llamaDecode: 'ncu/llama_decode_ncu_details.csv',
  /** GB10 class (public repository), vllm.cpp's quantized grouped GEMV, one kernel. */
  quantDot: 'ncu/vllmcpp_laguna_grouped_gemv_gb10_ncu_details_id0_trimmed.csv',
} as const;

export type CaptureName = keyof typeof NCU_FILES;

export function fixturePath(name: CaptureName): string {
  return join(FIXTURES, NCU_FILES[name]);
}

/** Every capture above, imported once. */
export async function loadCaptures(): Promise<Record<CaptureName, NcuResult[]>> {
  const entries = await Promise.all(Object.entries(NCU_FILES).map(async ([name, file]) => [name, (await ingestFile(join(FIXTURES, file))).ncu] as const));
  return Object.fromEntries(entries) as Record<CaptureName, NcuResult[]>;
}

/** The results of the kernels whose name matches. */
export function only(results: readonly NcuResult[], pattern: RegExp): NcuResult[] {
  const picked = results.filter((r) => pattern.test(r.kernel));
  if (picked.length === 0) throw new Error(`no result matches ${pattern}`);
  return picked;
}

/** A copy of each result with the metric of that name (any section) set to a value, or removed. */
export function withMetric(results: readonly NcuResult[], name: string, value: number | undefined): NcuResult[] {
  return results.map((r) => ({
    ...r,
    metrics: r.metrics.flatMap((m) => (m.name !== name ? [m] : value === undefined ? [] : [{ ...m, value }])),
  }));
}
