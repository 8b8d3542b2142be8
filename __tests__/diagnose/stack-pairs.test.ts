/**
 * The same decode written in PyTorch and in JAX, run on one H200 and captured with nsys and with each
 * stack's own profiler (fixtures/h200-pairs/PROVENANCE.md): the same workload gets the same verdict,
 * whichever stack ran it and whichever profiler saw it. The expected readings are those the provenance
 * gives from the data (kernel counts and sums read from the files with sqlite3 and json).
 */
import { join } from 'node:path';
import type { Report } from '../../src/model/report.js';
import { analyzedOnce } from '../helpers/shared-analysis.js';

const PAIRS = join(import.meta.dirname, '..', 'fixtures', 'h200-pairs');
/** nsys exports are kept gzipped; the reader inflates them as it does any gzipped capture. */
const sqlite = (dir: string, stem: string) => join(PAIRS, dir, `${stem}.sqlite.gz`);

const ids = (report: Report) => [...new Set(report.findings.map((f) => f.id))].sort();
const totalNs = (report: Report) => report.kernels.reduce((sum, k) => sum + k.totalNs, 0);
const launches = (report: Report) => report.kernels.reduce((sum, k) => sum + k.instances, 0);

describe('GPU-bound decode, batch 8: PyTorch and JAX, nsys and each own profiler', () => {
  const reports: Record<string, Report> = {};
  beforeAll(async () => {
    const g = (name: string) => join(PAIRS, 'gpu_bound', name);
    reports['torch nsys'] = await analyzedOnce([sqlite('gpu_bound', 'torch_b8_nsys'), g('torch_b8_nsys.stdout.jsonl')]);
    reports['torch profiler'] = await analyzedOnce([g('torch_b8_kineto.trace.json.gz'), g('torch_b8_kineto.stdout.jsonl')]);
    reports['jax nsys'] = await analyzedOnce([sqlite('gpu_bound', 'jax_b8_nsys'), g('jax_b8_nsys.stdout.jsonl')]);
    reports['jax profiler'] = await analyzedOnce([g('jax_b8_jaxprof.perfetto_trace.json.gz'), g('jax_b8_jaxprof.stdout.jsonl')]);
  });

  it('reads each capture to the nanosecond the provenance states', () => {
    expect([totalNs(reports['torch nsys']!), launches(reports['torch nsys']!)]).toEqual([21_264_341, 3_424]);
    expect([totalNs(reports['jax nsys']!), launches(reports['jax nsys']!)]).toEqual([15_374_608, 1_872]);
    expect([totalNs(reports['jax profiler']!), launches(reports['jax profiler']!)]).toEqual([15_346_268, 1_872]);
    expect(reports['jax profiler']!.sources[0]!.format).toBe('jax-trace');
  });

  it.each(['torch nsys', 'torch profiler', 'jax nsys', 'jax profiler'])('%s: a healthy dense decode, not host-bound, nothing failing', (which) => {
    const report = reports[which]!;
    expect(ids(report)).toContain('healthy-dense-decode');
    for (const id of ['host-bound', 'unfused-attention', 're-prefill', 'empty-capture']) expect(ids(report)).not.toContain(id);
    expect(report.findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(report.verdict).not.toBe('fail');
  });

  it('the GEMM share of each stack is the one its kernels give (PyTorch 62.7 %, JAX 78.2 %)', () => {
    const linear = (r: Report) => r.families.filter((f) => ['gemv', 'gemm-decode', 'gemm', 'gemm-prefill'].includes(f.family)).reduce((s, f) => s + f.share, 0);
    expect(linear(reports['torch nsys']!)).toBeCloseTo(0.627, 2);
    expect(linear(reports['jax nsys']!)).toBeCloseTo(0.782, 2);
    expect(linear(reports['jax profiler']!)).toBeCloseTo(0.782, 2);
  });

  it("JAX's GEMM shapes come from the decode window and the stated batch, and the finding says so", () => {
    for (const which of ['jax nsys', 'jax profiler']) {
      const healthy = reports[which]!.findings.find((f) => f.id === 'healthy-dense-decode')!;
      expect(healthy.evidence['shapeBasis']).toMatch(/batch 8/);
    }
    // PyTorch's cuBLAS tiles name their 8 rows; only cuBLAS's split-K reduce (0.46 of 13.3 ms of linear time) has no shape.
    const torch = reports['torch nsys']!.findings.find((f) => f.id === 'healthy-dense-decode')!;
    expect(torch.evidence['unknownShapeShare']).toBeCloseTo(0.035, 2);
  });

  it('the one difference in kind is real: PyTorch runs RoPE as separate kernels, XLA fuses it', () => {
    expect(ids(reports['torch nsys']!)).toContain('unfused-norm-rope');
    expect(ids(reports['torch profiler']!)).toContain('unfused-norm-rope');
    expect(ids(reports['jax nsys']!)).not.toContain('unfused-norm-rope');
    expect(ids(reports['jax profiler']!)).not.toContain('unfused-norm-rope');
  });
});

describe('host-bound decode, batch 1: PyTorch eager and JAX op by op', () => {
  const reports: Record<string, Report> = {};
  beforeAll(async () => {
    const h = (name: string) => join(PAIRS, 'host_bound', name);
    reports['torch nsys'] = await analyzedOnce([sqlite('host_bound', 'torch_eager_nsys'), h('torch_eager_nsys.stdout.jsonl')]);
    reports['torch profiler'] = await analyzedOnce([h('torch_eager_kineto.trace.json.gz'), h('torch_eager_kineto.stdout.jsonl')]);
    reports['jax nsys'] = await analyzedOnce([sqlite('host_bound', 'jax_eager_nsys'), h('jax_eager_nsys.stdout.jsonl')]);
    reports['jax profiler'] = await analyzedOnce([h('jax_eager_jaxprof.perfetto_trace.trimmed.json.gz'), h('jax_eager_jaxprof.stdout.jsonl')]);
  });

  it.each(['torch nsys', 'torch profiler', 'jax nsys', 'jax profiler'])('%s: host-bound', (which) => {
    expect(ids(reports[which]!)).toContain('host-bound');
    expect(reports[which]!.verdict).not.toBe('fail');
  });

  it('reads the kernels the provenance counts, copies left out and counted', () => {
    expect([totalNs(reports['torch nsys']!), launches(reports['torch nsys']!)]).toEqual([1_082_687, 448]);
    expect([totalNs(reports['jax nsys']!), launches(reports['jax nsys']!)]).toEqual([1_645_819, 1_272]);
    const jax = reports['jax profiler']!;
    expect([totalNs(jax), launches(jax)]).toEqual([1_642_643, 1_272]);
    expect(jax.sources[0]!.stats?.find((s) => s.name === 'copy-event')?.count).toBe(1_248);
  });
});

describe('FP8 weights dequantized every step, against its bf16 twin (H200, PyTorch profiler)', () => {
  let dequant: Report;
  let bf16: Report;
  beforeAll(async () => {
    const d = (name: string) => join(PAIRS, 'dequant_ab', name);
    dequant = await analyzedOnce([d('dq_fp8-dequant.trace.json.gz'), d('dq_fp8-dequant.stdout.jsonl')]);
    bf16 = await analyzedOnce([d('dq_bf16.trace.json.gz'), d('dq_bf16.stdout.jsonl')]);
  });

  it('warns that weights are expanded every step, with the shares the trace gives (43.6 % against 35.9 %)', () => {
    const prep = dequant.findings.find((f) => f.id === 'quant-prep-heavy');
    expect(prep?.severity).toBe('warning');
    expect(prep?.message).toMatch(/dequantized/);
    expect(prep?.evidence['dequantizeShare']).toBeCloseTo(0.4359, 3);
    expect(prep?.evidence['matmulShare']).toBeCloseTo(0.3594, 3);
    expect(prep?.evidence['dequantizeLaunches']).toBe(512);
  });

  it('does not call a mix where dequantizing outweighs the matmuls healthy; the bf16 twin is', () => {
    expect(ids(dequant)).not.toContain('healthy-dense-decode');
    expect(ids(bf16)).toContain('healthy-dense-decode');
    expect(ids(bf16)).not.toContain('quant-prep-heavy');
  });
});

/*
 * CUDA and ROCm: the shared captures hold no one workload on both vendors, but they hold one serving stack on
 * both: vLLM on an H100 (TP4 rank 0, CUDA; external-2/SOURCES.md: "a healthy serving trace", attention fused)
 * and vLLM on an MI300X (gpt-oss-20b decode, ROCm; external-3/SOURCES.md: "a healthy MoE decode", busy 99.8 %,
 * attention fused, not host-bound). The same reading of the stack must come out on both vendors.
 */
describe('one serving stack on both vendors: vLLM on H100 (CUDA) and on MI300X (ROCm)', () => {
  const reports: Record<string, Report> = {};
  beforeAll(async () => {
    const fixtures = join(import.meta.dirname, '..', 'fixtures');
    reports['H100'] = await analyzedOnce([join(fixtures, 'external-2', 'kineto', 'vllm_tp4_h100_rank0_1000isl_10osl_32con.pt.trace.json.gz')]);
    reports['MI300X'] = await analyzedOnce([join(fixtures, 'external-3', 'kineto', 'tracelens_gfx942_vllm_gptoss20b_decode_fullgraph_bs32_execution.json.gz')]);
  }, 120_000);

  it.each(['H100', 'MI300X'])('%s: attention read as fused, not host-bound, nothing failing', (which) => {
    const report = reports[which]!;
    expect(report.families.find((f) => f.family === 'attention-fused')?.share ?? 0).toBeGreaterThan(0);
    for (const id of ['host-bound', 'unfused-attention', 're-prefill']) expect(ids(report)).not.toContain(id);
    expect(report.verdict).not.toBe('fail');
  });

  it('the MoE decode on ROCm is read as the healthy MoE decode its reading says (expert GEMMs 65.9 %), no warning on either', () => {
    for (const which of ['H100', 'MI300X']) expect(reports[which]!.findings.filter((f) => f.severity !== 'info')).toEqual([]);
    expect(ids(reports['MI300X']!)).toContain('healthy-moe-decode');
  });
});
