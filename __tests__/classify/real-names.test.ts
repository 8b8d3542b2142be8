/**
 * Real kernel names from real profiles (see __tests__/fixtures/kernel-names/PROVENANCE.md).
 * Expected shares were computed with python on the same files, with its own regexes
 * (nvjet tile `nvjet_sm90_tst_(\d+)x(\d+)_`, min side ≤16 decode / ≥40 prefill; substrings for the rest).
 */
import { classifyName } from '../../src/classify/classify.js';
import { kernelFixtureFiles, loadKernelRows as load, type KernelRow as Row } from '../helpers/kernel-fixtures.js';

function shares(rows: Row[]): { share: (family: string) => number; instances: (family: string) => number } {
  const total = rows.reduce((sum, r) => sum + r.totalNs, 0);
  const ns = new Map<string, number>();
  const count = new Map<string, number>();
  for (const row of rows) {
    const family = classifyName(row.name);
    ns.set(family, (ns.get(family) ?? 0) + row.totalNs);
    count.set(family, (count.get(family) ?? 0) + row.instances);
  }
  return { share: (f) => (ns.get(f) ?? 0) / total, instances: (f) => count.get(f) ?? 0 };
}

const files = kernelFixtureFiles();

describe('real kernel names', () => {
  it('reads every fixture', () => {
    expect(files.length).toBe(15);
    for (const file of files) expect(load(file).length).toBeGreaterThan(0);
  });

  it.each(files.filter((f) => !f.startsWith('rocprofv1_laplacian')))('%s: little time is left as other', (file) => {
    expect(shares(load(file)).share('other')).toBeLessThan(0.02);
  });

  it('leaves a non-ML HIP program as other (nothing is forced into a family)', () => {
    expect(shares(load('rocprofv1_laplacian_results.stats.csv')).share('other')).toBeGreaterThan(0.99);
  });

  it('H200 GPU-bound decode (nsys): decode-shaped GEMMs dominate, fused SDPA present', () => {
    const s = shares(load('nsys_healthy_kern_sum.csv'));
    expect(s.share('other')).toBe(0);
    expect(s.share('gemm-decode')).toBeCloseTo(0.6163, 3);
    expect(s.share('gemm-prefill')).toBe(0);
    expect(s.share('attention-fused')).toBeCloseTo(0.0578, 3); // cuDNN SDPA + its lean_reduction
    expect(s.share('norm')).toBeGreaterThan(0.07); // vectorized_layer_norm_kernel, 7.3%
  });

  it('vLLM Qwen2.5-7B (nsys): Ampere tiles do not tell the shape; attention is fused', () => {
    const s = shares(load('vllm_qwen2.5-7b_cuda_gpu_kern_sum.csv'));
    expect(s.share('other')).toBeLessThan(0.005);
    expect(s.share('gemm')).toBeGreaterThanOrEqual(0.895); // ampere_* kernels are 89.50% alone
    expect(s.share('gemm-decode') + s.share('gemm-prefill')).toBe(0);
    expect(s.share('attention-fused') + s.share('kv-cache')).toBeCloseTo(0.0212, 3); // names with flash
    expect(s.share('norm')).toBeGreaterThan(0);
    expect(s.share('rope')).toBeGreaterThan(0);
  });

  it('transformers without KV cache: prefill-shaped GEMMs run every step', () => {
    const s = shares(load('hf_reprefill_nocache.kernels.tsv'));
    expect(s.share('gemm-prefill')).toBeCloseTo(0.3169, 3);
    expect(s.share('gemm-decode')).toBeCloseTo(0.0934, 3);
    expect(s.instances('gemm-prefill')).toBe(2560);
    expect(s.instances('gemm-decode')).toBe(1024);
  });

  it('transformers with KV cache: decode-shaped GEMMs, prefill only once', () => {
    const s = shares(load('hf_dense_decode.kernels.tsv'));
    expect(s.share('gemm-decode')).toBeCloseTo(0.4453, 3);
    expect(s.share('gemm-prefill')).toBeCloseTo(0.0124, 3);
    expect(s.instances('gemm-prefill')).toBe(80);
    expect(s.instances('gemm-decode')).toBe(3504);
  });

  it('transformers eager attention: softmax and no fused attention kernel', () => {
    const s = shares(load('hf_eager_attention.kernels.tsv'));
    expect(s.share('attention-fused')).toBe(0);
    expect(s.share('attention-softmax')).toBeCloseTo(0.0131, 3);
  });

  it('transformers Mixtral-style MoE: top-k routing and gathers', () => {
    const s = shares(load('hf_moe_decode.kernels.tsv'));
    expect(s.share('moe-routing')).toBeCloseTo(0.0636, 3); // gatherTopK + sort + histogram
    expect(s.share('gather-scatter')).toBeGreaterThanOrEqual(0.1264); // vectorized_gather_kernel alone
    expect(s.share('moe-gemm')).toBeGreaterThan(0); // torch grouped_mm (cutlass GroupProblemShape)
  });

  it('NCCL trainer trace: collectives', () => {
    expect(shares(load('hta_sampled_rank0.kernels.tsv')).share('collective')).toBeGreaterThan(0.8);
  });
});
