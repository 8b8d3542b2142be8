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
    expect(files.length).toBe(19);
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

  // The wide-tile GEMMs of these two runs (128x48 and up) were once read as prefill-shaped. A tile
  // does not give M (cuBLASLt runs a 128x128 tile for M = 16): without recorded shapes they are
  // `gemm`, shape unknown; only the narrow (≤ 16) tiles say decode.
  it('transformers without KV cache: names alone leave the wide-tile GEMMs unknown, not prefill', () => {
    const s = shares(load('hf_reprefill_nocache.kernels.tsv'));
    expect(s.share('gemm-prefill')).toBe(0);
    expect(s.share('gemm')).toBeGreaterThanOrEqual(0.3169);
    expect(s.share('gemm-decode')).toBeCloseTo(0.0934, 3);
    expect(s.instances('gemm-decode')).toBe(1024);
  });

  it('transformers with KV cache: decode-shaped GEMMs by their narrow tiles', () => {
    const s = shares(load('hf_dense_decode.kernels.tsv'));
    expect(s.share('gemm-decode')).toBeCloseTo(0.4453, 3);
    expect(s.share('gemm-prefill')).toBe(0);
    expect(s.instances('gemm-decode')).toBe(3504);
  });

  it('llama.cpp on RDNA4 (rocprof): mul_mat_q is the low-bit GEMM; softmax unfused; rope_norm is RoPE', () => {
    const s = shares(load('llamacpp_r9700.kernels.tsv'));
    expect(s.share('other')).toBe(0);
    expect(s.share('lowbit-gemm')).toBeCloseTo(0.9044, 3); // mul_mat_q + mul_mat_vec_q, summed in python
    expect(s.share('attention-softmax')).toBeCloseTo(0.0142, 3); // soft_max_f32
    expect(s.share('rope')).toBeCloseTo(0.0130, 3); // rope_norm
    expect(s.instances('norm')).toBe(130); // rms_norm_f32 only
    expect(s.instances('kv-cache')).toBe(64); // k_set_rows
  });

  it('AlexNet on A100 (Kineto): cuDNN convolutions are conv, its layout conversion is copy', () => {
    const s = shares(load('hta_a100_alexnet.kernels.tsv'));
    expect(s.share('conv')).toBeCloseTo(0.0672, 3); // scudnn + fprop implicit GEMM + FFT + computeOffsets, summed in python
    expect(s.share('copy')).toBeCloseTo(0.0042, 3); // nchwToNhwcKernel
    expect(s.instances('conv')).toBe(16);
    expect(s.share('other')).toBeLessThan(0.05); // pooling kernels have no family
  });

  it('DDP rank 1 on V100 (Kineto): the NCCL all-reduce is the collective share', () => {
    const s = shares(load('hta_v100_ddp_rank1.kernels.tsv'));
    expect(s.share('collective')).toBeCloseTo(0.3571, 3); // ncclKernel_AllReduce_RING_LL_Sum_float, with memcpy in the total
    expect(s.share('conv')).toBe(0);
  });

  it('vLLM TP=4 on H100 (Kineto): the collectives are NCCL and the custom all-reduce, not the embedding mask', () => {
    const s = shares(load('vllm_tp4_h100_rank0.kernels.tsv'));
    expect(s.share('collective')).toBeCloseTo(0.1036, 3); // ncclDevKernel_* + cross_device_reduce_1stage, summed in python
    expect(s.instances('gather-scatter')).toBeGreaterThanOrEqual(10); // triton_poi_fused_add_all_reduce_…_embedding_…
    expect(s.share('norm')).toBeGreaterThan(0.04); // triton_red_fused_…_mean_…_rsqrt
    expect(s.share('attention-fused')).toBeGreaterThan(0.04); // FA3
    expect(s.share('other')).toBe(0);
  });

  it('transformers eager attention: softmax and no fused attention kernel', () => {
    const s = shares(load('hf_eager_attention.kernels.tsv'));
    expect(s.share('attention-fused')).toBe(0);
    expect(s.share('attention-softmax')).toBeCloseTo(0.0131, 3);
  });

  it('transformers Mixtral-style MoE: top-k routing and gathers', () => {
    const s = shares(load('hf_moe_decode.kernels.tsv'));
    expect(s.share('moe-routing')).toBeCloseTo(0.0643, 3); // gatherTopK + sort + histogram + the grouped GEMM's pointer set-up
    expect(s.share('gather-scatter')).toBeGreaterThanOrEqual(0.1264); // vectorized_gather_kernel alone
    expect(s.share('moe-gemm')).toBeGreaterThan(0); // torch grouped_mm (cutlass GroupProblemShape)
  });

  it('NCCL trainer trace: collectives', () => {
    expect(shares(load('hta_sampled_rank0.kernels.tsv')).share('collective')).toBeGreaterThan(0.8);
  });
});
