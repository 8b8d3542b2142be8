/**
 * Which op launched each kernel, read from real Kineto traces (__tests__/fixtures/kineto/PROVENANCE.md).
 * Expected chains and shapes were read from the raw JSON with python: the kernel's `External id`
 * names a cpu_op, its enclosing ops by time on the same thread, and (record_shapes) its Input Dims.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClassifier } from '../../src/classify/classify.js';
import { ingestFile } from '../../src/ingest/registry.js';
import { matmulTokens } from '../../src/ingest/formats/kineto/launch-sites.js';
import type { KernelStat } from '../../src/model/capture.js';
import { ingestedOnce } from '../helpers/shared-analysis.js';

const fixture = (name: string): string => join('__tests__', 'fixtures', 'kineto', name);
const byName = (kernels: KernelStat[], start: string): KernelStat => {
  const found = kernels.filter((k) => k.name.startsWith(start));
  expect(found).toHaveLength(1);
  return found[0]!;
};

describe('Kineto launching op and shapes', () => {
  it('MI250 toy training with record_shapes: the addmm GEMM has M = 5 tokens and is decode-shaped', async () => {
    const capture = await ingestFile(fixture('hta_mi250_rocm6.2_minitoy_train_kineto.json'));
    // aten::addmm Input Dims [[128], [5, 128], [128, 128], [], []]: mat1 is 5 x 128.
    const forward = byName(capture.kernels, 'Cijk_Alik_Bljk_SB_Bias_AS_SAV_UserArgs_MT64x16x32');
    expect(forward.launchedBy).toBe('aten::linear > aten::addmm');
    expect(forward.launchedByShare).toBe(1);
    expect(forward.tokens).toBe(5);
    // The weight gradient: aten::mm [[128, 5], [5, 128]] has 128 rows: neither decode nor prefill.
    const backward = byName(capture.kernels, 'Cijk_Ailk_Bjlk_SB_Bias_AS_SAV_UserArgs_MT64x16x16');
    expect(backward.launchedBy).toBe('autograd::engine::evaluate_function: AddmmBackward0 > AddmmBackward0 > aten::mm');
    expect(backward.tokens).toBe(128);
    const classify = createClassifier();
    expect(classify(forward)).toBe('gemm-decode');
    expect(classify(backward)).toBe('gemm');
    expect(capture.notices).toEqual([]);
  });

  it('a trace without shapes still names the op chain (the GQA KV-head expand is a clone under reshape)', async () => {
    const capture = await ingestedOnce(fixture('eager_attention.trace.json.gz'));
    const gemm = byName(capture.kernels, 'nvjet_sm90_tst_64x8_64x16_4x1_v_bz_TNT');
    expect(gemm.launchedBy).toBe('aten::linear > aten::matmul > aten::mm');
    expect(gemm.tokens).toBeUndefined();
    const copies = capture.kernels.filter((k) => k.launchedBy === 'aten::reshape > aten::clone > aten::copy_');
    expect(copies.length).toBeGreaterThan(0);
    expect(copies.every((k) => createClassifier()(k) === 'copy')).toBe(true);
  });

  it('the KV-head expand of a GQA model is a copy launched from aten::repeat_interleave (transformers MoE decode)', async () => {
    const capture = await ingestedOnce(fixture('moe_decode.trace.json.gz'));
    // 248 aten::repeat_interleave ops (python count), each expand + clone: one direct_copy launch each.
    const expand = capture.kernels.filter((k) => k.launchedBy === 'aten::repeat_interleave > aten::clone > aten::copy_');
    expect(expand).toHaveLength(1);
    expect(expand[0]!.instances).toBe(248);
    expect(expand[0]!.launchedByShare).toBe(1);
    expect(createClassifier()(expand[0]!)).toBe('copy');
  });

  it('CUDA graph replays link to no op: said in a notice, not guessed (vLLM TP=4, H100)', async () => {
    const capture = await ingestedOnce(join('__tests__', 'fixtures', 'external-2', 'kineto', 'vllm_tp4_h100_rank0_1000isl_10osl_32con.pt.trace.json.gz'));
    const notice = capture.notices.find((n) => n.code === 'kineto-launch-op-unavailable');
    // 8,667 graph kernels (SOURCES.md) carry no External id; the other 4,841 launches name their op.
    expect(notice?.message).toBe(
      '8667 of 13508 kernel launches could not be tied to the CPU op that launched them (CUDA graph replays: the graph capture is not in the trace); their launching op is not available.',
    );
    const allReduce = byName(capture.kernels, 'ncclDevKernel_AllReduce_Sum_bf16_RING_LL');
    expect(allReduce.launchedBy).toBe('vllm::all_reduce');
    // All of the FA3 combine's launches outside the graphs came from vLLM's attention op.
    expect(byName(capture.kernels, 'void cutlass::device_kernel<flash::FlashAttnFwdCombine').launchedBy).toBe('vllm::unified_attention_with_output > _vllm_fa3_C::fwd');
  });

  it('a trace with no CPU ops gives no attribution and no notice (nothing to link to)', async () => {
    const capture = await ingestFile(fixture('healthy_graph_decode.trace.json.gz'));
    expect(capture.kernels.some((k) => k.launchedBy !== undefined)).toBe(false);
    expect(capture.notices.some((n) => n.code === 'kineto-launch-op-unavailable')).toBe(false);
  });

  it('an old trace whose GPU events carry the correlation as External id is not attributed', async () => {
    const capture = await ingestFile(fixture('hta_sampled_rank0_ws128_trimmed.json'));
    expect(capture.kernels.every((k) => k.launchedBy === undefined)).toBe(true);
  });
});

describe('Kineto launching op, event order', () => {
  const op = '{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 10, "dur": 5, "args": {"External id": 7, "Input Dims": [[16, 64], [64, 64]]}}';
  const kernel = '{"ph": "X", "cat": "kernel", "name": "nvjet_sm90_tst_128x128_64x4_1x2_h_bz_coopA_TNT", "pid": 0, "tid": 7, "ts": 20, "dur": 3, "args": {"External id": 7, "correlation": 99, "device": 0}}';
  const trace = (...events: string[]): string => {
    const path = join(mkdtempSync(join(tmpdir(), 'launch-ops-')), 't.json');
    writeFileSync(path, `{"traceEvents": [${events.join(', ')}]}`);
    return path;
  };

  it('ops before kernels (as PyTorch writes them): the kernel is linked, M = 16 makes it decode-shaped', async () => {
    const capture = await ingestFile(trace(op, kernel), 'kineto-json');
    expect(capture.kernels[0]).toMatchObject({ launchedBy: 'aten::mm', tokens: 16 });
    expect(createClassifier()(capture.kernels[0]!)).toBe('gemm-decode');
    expect(capture.notices).toEqual([]);
  });

  it('a kernel read before its op is not linked, and the notice says so', async () => {
    const capture = await ingestFile(trace(kernel, op), 'kineto-json');
    expect(capture.kernels[0]!.launchedBy).toBeUndefined();
    expect(createClassifier()(capture.kernels[0]!)).toBe('gemm'); // a wide tile alone: shape unknown
    expect(capture.notices.map((n) => n.message)).toEqual(['1 of 1 kernel launches could not be tied to the CPU op that launched them; their launching op is not available.']);
  });
});

describe('matmulTokens', () => {
  it.each([
    ['aten::mm', '[[16, 4096], [4096, 4096]]', 16],
    ['aten::addmm', '[[4096], [32, 4096], [4096, 4096], [], []]', 32], // mat1, not the bias
    ['aten::linear', '[[2, 512, 4096], [11008, 4096], []]', 1024], // batch x sequence
    ['aten::_scaled_mm', '[[16, 4096], [4096, 4096], [], [], [], [], []]', 16],
    ['aten::mm', '[[], []]', undefined],
    ['aten::add', '[[16, 4096], [16, 4096], []]', undefined],
    ['aten::mm', 'not json', undefined],
  ])('%s %s → %s', (op, dims, tokens) => {
    expect(matmulTokens(op, dims)).toBe(tokens);
  });
});

describe('shape from tokens', () => {
  it.each([
    [16, 'gemm-decode'],
    [64, 'gemm-decode'],
    [128, 'gemm'],
    [256, 'gemm-prefill'],
  ])('a wide-tile cuBLASLt GEMM with M = %s is %s', (tokens, family) => {
    expect(createClassifier()({ name: 'nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_TNT', tokens })).toBe(family);
  });

  it('leaves low-bit and grouped GEMMs their family (FP8 at M = 16 stays lowbit-gemm)', () => {
    const classify = createClassifier();
    expect(classify({ name: 'nvjet_sm90_qqtst_128x128_128x6_1x1_h_bz_coopA_algo2_ovscale_TNT', tokens: 16 })).toBe('lowbit-gemm');
    expect(classify({ name: 'nvjet_sm90_qqtst_128x128_128x6_1x1_h_bz_coopA_algo2_ovscale_TNT' })).toBe('lowbit-gemm');
  });
});
