/**
 * Serving stacks beyond PyTorch's and vLLM-CUDA's kernel names, read through the whole engine:
 * triton_kernels MoE (vLLM gpt-oss on MI300X), aiter/ck_tile MoE (rocprof) and SGLang's ck_tile
 * attention with hipBLASLt GEMMs. Expected numbers were summed with python from the raw files
 * (fixtures/external-3/PROVENANCE.md), never taken from the product; the readings are SOURCES.md's.
 */
import { join } from 'node:path';
import type { Finding, Report } from '../../src/model/report.js';
import { runRules } from '../../src/diagnose/run-rules.js';
import { K, profileOf } from '../helpers/profile-builder.js';
import { analyzedOnce } from '../helpers/shared-analysis.js';

const external3 = (dir: string, name: string) => join(import.meta.dirname, '..', 'fixtures', 'external-3', dir, name);
const ids = (report: Report, severities: Finding['severity'][] = ['error', 'warning', 'info']) =>
  [...new Set(report.findings.filter((f) => severities.includes(f.severity)).map((f) => f.id))].sort();
const share = (report: Report, family: string) => report.families.find((f) => f.family === family)?.share ?? 0;
const familyOf = (report: Report, pattern: RegExp) => [...new Set(report.kernels.filter((k) => pattern.test(k.name)).map((k) => k.family))];

describe('vLLM gpt-oss-20b decode on MI300X (triton_kernels MXFP4 MoE, Triton unified attention)', () => {
  let report: Report;
  beforeAll(async () => {
    report = await analyzedOnce([external3('kineto', 'tracelens_gfx942_vllm_gptoss20b_decode_fullgraph_bs32_execution.json.gz')]);
  });

  it('reads the matmul_ogs kernels as MoE expert GEMMs: 65.9 % of kernel time', () => {
    expect(familyOf(report, /^_matmul_ogs_/)).toEqual(['moe-gemm']);
    expect(share(report, 'moe-gemm')).toBeCloseTo(0.659, 3);
  });

  it('reads the triton_kernels routing as MoE routing: 5.9 % of kernel time, 0.09 of the expert matmuls', () => {
    expect(familyOf(report, /^_(?:combined_routing_|topk_forward|sum_bitmatrix_rows|finalize_matmul_scatter)/)).toEqual(['moe-routing']);
    expect(share(report, 'moe-routing')).toBeCloseTo(0.0592, 3);
    expect(share(report, 'moe-routing') / share(report, 'moe-gemm')).toBeCloseTo(0.0898, 3);
  });

  it('reads unified attention (2D, 3D and its segment reduction) as fused attention: 6.8 %', () => {
    expect(familyOf(report, /^kernel_unified_attention_|^reduce_segments$/)).toEqual(['attention-fused']);
    expect(share(report, 'attention-fused')).toBeCloseTo(0.0679, 3);
  });

  it('is a healthy MoE decode, with nothing to warn about', () => {
    expect(ids(report)).toContain('healthy-moe-decode');
    expect(ids(report, ['error', 'warning'])).toEqual([]);
    expect(ids(report)).not.toContain('moe-routing-heavy');
    expect(ids(report)).not.toContain('host-bound');
    expect(ids(report)).not.toContain('unfused-attention');
    const healthy = report.findings.find((f) => f.id === 'healthy-moe-decode')!;
    expect(healthy.evidence['routingRatio']).toBeLessThan(0.15);
  });

  it('leaves nothing of weight as other', () => {
    expect(share(report, 'other')).toBeLessThan(0.001);
  });
});

describe("aiter's 2-stage FP8 MoE test on MI300 (rocprof --stats)", () => {
  let report: Report;
  beforeAll(async () => {
    report = await analyzedOnce([external3('rocprof', 'aiter_mi300_moe_fp8_2stage_test_results.stats.csv')]);
  });

  it('reads hk_moe_stage1/2 as MoE expert GEMMs: 75.2 % of kernel time', () => {
    expect(familyOf(report, /^hk_moe_stage/)).toEqual(['moe-gemm']);
    expect(share(report, 'moe-gemm')).toBeCloseTo(0.7524, 3);
  });

  it('reads ck_tile MoE sorting and topksoftmax as routing (0.6 %), not attention softmax', () => {
    expect(familyOf(report, /MoeSorting|topksoftmax/)).toEqual(['moe-routing']);
    expect(share(report, 'moe-routing')).toBeCloseTo(0.0061, 3);
    expect(share(report, 'attention-softmax')).toBe(0);
    expect(ids(report)).not.toContain('unfused-attention');
  });

  it('finds the MoE mix in proportion (routing is negligible), but a kernel test is no decode: not claimed healthy', () => {
    expect(ids(report)).not.toContain('moe-routing-heavy');
    expect(ids(report)).not.toContain('healthy-moe-decode');
    expect(report.notices.find((n) => n.message.startsWith('healthy-moe-decode:'))?.message).toMatch(/nothing in the window shows decode steps/);
  });

  it('takes no fp8 cast for a low-bit GEMM', () => {
    expect(familyOf(report, /float8_copy_kernel/)).toEqual(['quantize']);
    expect(share(report, 'lowbit-gemm')).toBe(0);
  });
});

describe('SGLang Qwen3-8B extend on MI300X (hipBLASLt GEMMs, ck_tile fused attention)', () => {
  let report: Report;
  beforeAll(async () => {
    report = await analyzedOnce([external3('kineto', 'tracelens_mi300x_sglang_qwen3_8b_extend_bs15.json.gz')]);
  });

  it('reads ck_tile FmhaBatchPrefillWithPagedKVCacheKernel as fused attention (4.1 %), not quantize', () => {
    expect(familyOf(report, /FmhaBatchPrefillWithPagedKVCacheKernel/)).toEqual(['attention-fused']);
    expect(share(report, 'attention-fused')).toBeCloseTo(0.0407, 3);
    expect(share(report, 'quantize')).toBe(0);
    expect(ids(report)).not.toContain('quant-prep-heavy');
  });

  it('reads add_rmsnorm_quant as a fused norm (5.3 %) and the hipBLASLt GEMMs as 85.3 %', () => {
    expect(familyOf(report, /add_rmsnorm_quant/)).toEqual(['norm']);
    expect(share(report, 'norm')).toBeCloseTo(0.0533, 3);
    const linear = ['gemm', 'gemm-decode', 'gemm-prefill', 'lowbit-gemm'].reduce((sum, f) => sum + share(report, f), 0);
    expect(linear).toBeCloseTo(0.8529, 3);
  });

  it('raises no problem on a compute-bound, well-fused prefill step', () => {
    expect(ids(report, ['error', 'warning'])).toEqual([]);
  });
});

describe('TensorRT-LLM MXFP4 MoE decode (names as TensorRT-LLM prints them, times made up)', () => {
  // Alone, a trtllm-gen batched GEMM is a low-bit GEMM; beside TensorRT-LLM's MoE routing the
  // same capture shows it is the experts, and the MoE rules can read the mix.
  const bmm = 'bmm_MxE4m3_MxE2m1MxE4m3_Fp32_t128x8x512u2_s3_et128x8_m128x8x32_cga1x1x1_16dp256b_TN_transOut_schedS_bN_swiGlu_dynBatch_sm100a';
  const bmm2 = 'bmm_Bfloat16_MxE2m1Bfloat16_Fp32_t128x8x256u2_s4_et128x8_m128x8x16_cga1x1x1_16dp256b_TN_transOut_schedS_bN_dynBatch_sm100a';
  const routing = 'void moe::dev::routing::routingRenormalize::routingIndicesClusterKernel<moe::dev::routing::routingRenormalize::KernelParams<__nv_bfloat16, __nv_bfloat16, 128, 4, false> >(moe::dev::routing::routingRenormalize::KernelParams<__nv_bfloat16, __nv_bfloat16, 128, 4, false>)';
  const finalize = 'void moe::dev::finalize::finalizeKernel<moe::dev::finalize::KernelParams<__nv_bfloat16, __nv_bfloat16> >(moe::dev::finalize::KernelParams<__nv_bfloat16, __nv_bfloat16>)';

  it('reads the batched GEMMs as MoE experts beside the routing, and the mix as a healthy MoE decode once the window shows decode steps', () => {
    const mix: Parameters<typeof profileOf>[0]['kernels'] = [[bmm, 40, 2400], [bmm2, 30, 2400], [routing, 3, 2400], [finalize, 2, 2400], [K.decodeGemm, 20, 4800]];
    const profile = profileOf({ kernels: mix });
    expect(profile.kernels.filter((k) => k.name.startsWith('bmm_')).map((k) => k.family)).toEqual(['moe-gemm', 'moe-gemm']);
    expect(profile.kernels.filter((k) => k.name.includes('moe::dev::')).map((k) => k.family)).toEqual(['moe-routing', 'moe-routing']);
    // The mix alone is not a decode: nothing in these rows counts steps.
    expect(runRules(profile).map((f) => f.id)).not.toContain('healthy-moe-decode');
    // One greedy argmax per step, 40 steps: now the window is a decode loop.
    const findings = runRules(profileOf({ kernels: [...mix, [K.argmax, 0.1, 40]] })).map((f) => f.id);
    expect(findings).toContain('healthy-moe-decode');
    expect(findings).not.toContain('moe-routing-heavy');
  });

  it('leaves them low-bit GEMMs without the routing', () => {
    const profile = profileOf({ kernels: [[bmm, 40, 2400], [K.decodeGemm, 20, 4800]] });
    expect(profile.kernels.find((k) => k.name === bmm)!.family).toBe('lowbit-gemm');
    expect(runRules(profile).map((f) => f.id)).not.toContain('healthy-moe-decode');
  });
});
