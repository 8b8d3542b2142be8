/**
 * Real captures from other stacks and other people's machines, read through the whole engine, get
 * the reading a GPU performance engineer wrote beside each (fixtures/external-2/SOURCES.md,
 * fixtures/h200-stacks/PROVENANCE.md). Each expectation comes from the data, not from the product:
 * the numbers quoted are the ones the provenance states. No finding that the reading rejects.
 */
import { join } from 'node:path';
import { analyze } from '../../src/pipeline/analyze.js';
import type { Finding, Report } from '../../src/model/report.js';
import { analyzedOnce } from '../helpers/shared-analysis.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures');
const external2 = (dir: string, name: string) => join(FIXTURES, 'external-2', dir, name);
const fixture = (dir: string, name: string) => join(FIXTURES, dir, name);
const stacks = (dir: string, name: string) => join(FIXTURES, 'h200-stacks', dir, name);

const ids = (report: Report, severities: Finding['severity'][] = ['error', 'warning', 'info']) =>
  [...new Set(report.findings.filter((f) => severities.includes(f.severity)).map((f) => f.id))].sort();
const finding = (report: Report, id: string) => report.findings.find((f) => f.id === id);
const familyShare = (report: Report, family: string) => report.families.find((f) => f.family === family)?.share ?? 0;
const familyOf = (report: Report, pattern: RegExp) => report.kernels.find((k) => pattern.test(k.name))?.family;
const allText = (report: Report) => report.findings.map((f) => `${f.message} ${f.advice} ${f.command ?? ''}`).join('\n');

describe('vLLM tensor parallel 4 on H100, rank 0 (a healthy serving trace)', () => {
  let report: Report;
  beforeAll(async () => {
    report = await analyzedOnce([external2('kineto', 'vllm_tp4_h100_rank0_1000isl_10osl_32con.pt.trace.json.gz')]);
  });

  it('raises no problem: the GPU is busy, attention is fused, the all-reduce is a modest share', () => {
    expect(ids(report, ['error', 'warning'])).toEqual([]);
    expect(ids(report)).not.toContain('host-bound');
    expect(ids(report)).not.toContain('unfused-attention');
    expect(familyShare(report, 'attention-fused')).toBeGreaterThan(0);
  });

  it('reports the communication share, about 10 % of kernel time', () => {
    const share = familyShare(report, 'collective');
    expect(share).toBeGreaterThan(0.05);
    expect(share).toBeLessThan(0.15);
  });

  it('does not take the embedding-masking Triton kernel for a collective', () => {
    const masking = report.kernels.find((k) => /^triton_\w+_fused_\w*all_reduce\w*embedding/.test(k.name));
    expect(masking).toBeDefined();
    expect(masking!.family).not.toBe('collective');
  });
});

describe('PyTorch DDP on V100, rank 1 of 2 (communication-bound training)', () => {
  let report: Report;
  beforeAll(async () => {
    report = await analyzedOnce([external2('kineto', 'hta_v100_ddp_rank1_ws2_nccl_allreduce.json.gz')]);
  });

  it('is communication-bound, not host-bound', () => {
    expect(finding(report, 'communication-bound')).toMatchObject({ severity: 'warning' });
    expect(ids(report)).not.toContain('host-bound');
  });

  it('the NCCL all-reduce is about 36.5 % of kernel time', () => {
    expect(familyShare(report, 'collective')).toBeGreaterThan(0.33);
    expect(familyShare(report, 'collective')).toBeLessThan(0.4);
  });

  it('gives no decode CUDA-graph advice and no Nsight Compute run of the NCCL kernel', () => {
    expect(allText(report)).not.toMatch(/decode steps as CUDA graphs|reduce-overhead/);
    expect(report.findings.some((f) => /ncu /.test(f.command ?? '') && /nccl/i.test(f.command ?? ''))).toBe(false);
  });
});

describe('AlexNet benchmark on A100 (mostly idle, transfers outweigh kernels)', () => {
  let report: Report;
  beforeAll(async () => {
    report = await analyzedOnce([external2('kineto', 'hta_a100_alexnet_critical_path.json.gz')]);
  });

  it('says the transfers take about five times the kernel time', () => {
    const transfer = finding(report, 'transfer-bound');
    expect(transfer).toBeDefined();
    expect(transfer!.severity).not.toBe('info');
  });

  it('names the 10 s idle gap and leaves it out of the busy span', () => {
    const excluded = report.timeline?.excludedGaps ?? [];
    expect(excluded.some((gap) => gap.durNs > 9e9)).toBe(true);
  });

  it('classifies the cuDNN convolution as a convolution', () => {
    expect(familyOf(report, /scudnn/)).toBe('conv');
  });
});

describe('llama.cpp Q4_0 on a Radeon AI PRO R9700, rocprof v1', () => {
  it('results.json: 1,963 kernel events, 662,138,329 ns, the quantized matmul about 90 % as low-bit GEMM', async () => {
    const report = await analyzedOnce([fixture('rocprof', 'llamacpp_r9700_gfx1201_rocprofv1_results.json')]);
    expect(report.totalKernelNs).toBe(662_138_329);
    expect(report.kernels.reduce((sum, k) => sum + k.instances, 0)).toBe(1963);
    expect(familyShare(report, 'lowbit-gemm')).toBeGreaterThan(0.85);
    expect(familyOf(report, /soft_max_f32/)).toBe('attention-softmax');
    expect(familyOf(report, /rope_norm/)).toBe('rope');
    expect(ids(report)).not.toContain('empty-capture');
    // soft_max_f32 is llama.cpp's unfused attention softmax: the fix is its flash-attention flag.
    expect(finding(report, 'unfused-attention')?.advice).toMatch(/^llama\.cpp: run with flash attention on \(-fa/);
  });

  it('results.csv: the same 662 ms; the gaps between repetitions are left out, and it is not host-bound', async () => {
    const report = await analyzedOnce([fixture('rocprof', 'llamacpp_r9700_gfx1201_results.csv')]);
    expect(report.totalKernelNs).toBe(662_138_329);
    const excluded = report.timeline?.excludedGaps ?? [];
    expect(excluded.length).toBeGreaterThanOrEqual(2);
    expect(ids(report, ['error', 'warning'])).not.toContain('host-bound');
    expect(allText(report)).not.toMatch(/CUDA graphs/);
  });

  it('the trace and the per-dispatch CSV of one run, given together, count the run once', async () => {
    const report = await analyzedOnce([fixture('rocprof', 'llamacpp_r9700_gfx1201_rocprofv1_results.json'), fixture('rocprof', 'llamacpp_r9700_gfx1201_results.csv')]);
    expect(report.totalKernelNs).toBe(662_138_329);
  });
});

describe('utilization logs from other fleets', () => {
  it('one rocm-smi snapshot says nothing for or against host-bound', async () => {
    const report = await analyzedOnce([fixture('rocm-smi', 'rocm_smi_csv_rx7900xt_marimo9237.csv')]);
    expect(report.utilization?.sampleCount).toBe(1);
    expect(ids(report)).not.toContain('host-bound');
  });

  it('amd-smi metric CSV: 8 GPUs, one sample each, read and not judged', async () => {
    const report = await analyzedOnce([fixture('amd-smi', 'inferencex_mi355x_amd_smi_metric_csv_first_sample.csv')]);
    expect(report.utilization?.devices).toBe(8);
    expect(ids(report)).not.toContain('host-bound');
  });
});

describe('vllm.cpp grouped quantized GEMV on GB10, Nsight Compute details of one kernel', () => {
  let report: Report;
  beforeAll(async () => {
    report = await analyzedOnce([external2('ncu', 'vllmcpp_laguna_grouped_gemv_gb10_ncu_details_id0_trimmed.csv')]);
  });

  it('is a deep dive: no breakdown findings', () => {
    for (const id of ['empty-capture', 'dominant-kernel', 'quant-prep-heavy', 're-prefill', 'unfused-attention']) expect(ids(report)).not.toContain(id);
  });

  it('is latency-bound with uncoalesced global loads, and is a matmul, not a quantize kernel', () => {
    expect(ids(report)).toEqual(expect.arrayContaining(['kernel-latency-bound', 'uncoalesced-access']));
    expect(familyOf(report, /QuantDotGemmGroupedKernel/)).not.toBe('quantize');
  });
});

describe('H200 captures of other stacks (fixtures/h200-stacks)', () => {
  const decode = (dir: string, name: string) => [stacks(dir, `${name}.trace.json.gz`), stacks(dir, `${name}.stdout.jsonl`), stacks(dir, `${name}.util.jsonl`)];

  it('FP8 decode at batch 16: the qq nvjet GEMM is a low-bit GEMM, no re-prefill, not host-bound, prep is normal', async () => {
    const report = await analyze({ inputs: decode('fp8_decode', 'fp8') });
    expect(familyOf(report, /nvjet_sm90_qqtst_128x128/)).toBe('lowbit-gemm');
    expect(ids(report)).not.toContain('re-prefill');
    expect(ids(report)).not.toContain('host-bound');
    expect(finding(report, 'quant-prep-heavy')?.severity ?? 'info').toBe('info');
    expect(ids(report, ['error'])).toEqual([]);
  });

  it('FP8 decode through nsys: the same reading', async () => {
    const report = await analyzedOnce([stacks('fp8_decode', 'fp8_node.kern_sum.csv'), stacks('fp8_decode', 'fp8_node.gpu_time_util_t100.csv')]);
    expect(report.gpuTimeUtilPercent).toBe(93.3);
    expect(ids(report)).not.toContain('re-prefill');
    expect(ids(report)).not.toContain('host-bound');
  });

  it('torch.compile decode: Inductor fused the norms and the RoPE', async () => {
    const report = await analyze({ inputs: decode('compiled_decode', 'compiled') });
    expect(ids(report)).not.toContain('unfused-norm-rope');
    expect(ids(report)).not.toContain('host-bound');
    expect(familyOf(report, /^triton_poi_fused_\w*cat\w*neg/)).toBe('rope');
    expect(familyOf(report, /^triton_red_fused__fused_rms_norm/)).toBe('norm');
  });

  it('grouped-GEMM MoE decode: the CUTLASS grouped GEMM is the MoE expert matmul', async () => {
    const report = await analyze({ inputs: decode('moe_decode', 'moe') });
    expect(familyOf(report, /GroupProblemShape|_ZN7cutlass13device_kernel/)).toBe('moe-gemm');
    expect(ids(report, ['error'])).toEqual([]);
    expect(ids(report)).not.toContain('host-bound');
  });

  it('repeated KV heads: copy-heavy at about 57 % names the repeat and native GQA', async () => {
    const report = await analyzedOnce([stacks('repeat_kv', 'repeatkv_node.kern_sum.csv'), stacks('repeat_kv', 'repeatkv_node.gpu_time_util_t100.csv')]);
    const copy = finding(report, 'copy-heavy');
    expect(copy).toMatchObject({ severity: 'warning' });
    expect(Number(copy!.evidence['copyShare'])).toBeGreaterThan(0.55);
    expect(copy!.advice).toMatch(/enable_gqa=True/);
  });

  it('repeated KV heads, eager trace with stacks: the copy is attributed to repeat_interleave', async () => {
    const report = await analyzedOnce([stacks('repeat_kv', 'repeatkv_eager_stack.trace.json.gz')]);
    const copy = finding(report, 'copy-heavy');
    expect(copy?.evidence['launchedBy']).toMatch(/repeat_interleave/);
    expect(copy!.message).toMatch(/launched from .*repeat_interleave/);
  });

  it('repeated KV heads, eager trace with stacks: the copy and the dominant kernel name the line of the workload', async () => {
    // python/workloads/llama_decode.py at the capture (commit 77a3e91): `def sdpa` is line 142 and
    // makes both repeat_interleave calls; the trace was recorded with with_stack=True.
    const report = await analyzedOnce([stacks('repeat_kv', 'repeatkv_eager_stack.trace.json.gz')]);
    const copy = finding(report, 'copy-heavy');
    expect(copy!.evidence['pythonSite']).toBe('sdpa (llama_decode.py:142)');
    expect(copy!.message).toContain('launched from `sdpa` (llama_decode.py:142) via aten::repeat_interleave > aten::clone > aten::copy_');
    const dominant = finding(report, 'dominant-kernel');
    expect(dominant!.message).toContain('launched from `sdpa` (llama_decode.py:142)');
    // The copy is launched from the workload itself, so the advice does not ask for a with_stack profile.
    expect(copy!.advice).not.toMatch(/with_stack/);
  });

  it('without stacks the dominant kernel says nothing of where it was launched (nsys summary)', async () => {
    const report = await analyzedOnce([stacks('repeat_kv', 'repeatkv_node.kern_sum.csv')]);
    const dominant = finding(report, 'dominant-kernel');
    expect(dominant!.message).not.toMatch(/launched from/);
    expect(dominant!.evidence['pythonSite']).toBeUndefined();
  });
});
