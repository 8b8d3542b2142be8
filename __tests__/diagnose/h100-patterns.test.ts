/**
 * Windows that are not a steady decode, captured for real on an H100 (fixtures/h100-patterns,
 * PROVENANCE.md there, with what each window holds). Expected readings come from that data: counts
 * and totals summed with Python's csv module over each kernel summary.
 */
import { join } from 'node:path';
import type { Report } from '../../src/model/report.js';
import { analyze } from '../../src/pipeline/analyze.js';

const f = (name: string) => join(import.meta.dirname, '..', 'fixtures', 'h100-patterns', name);
const ids = (report: Report) => [...new Set(report.findings.map((x) => x.id))].sort();
const finding = (report: Report, id: string) => report.findings.find((x) => x.id === id);

describe('a prefill-only window: one eager forward of 1,024 tokens and its argmax', () => {
  let report: Report;
  beforeAll(async () => {
    report = await analyze({ inputs: [f('prefill_nsys_cuda_gpu_kern_sum.csv'), f('prefill_nsys.gpu_time_util.csv')] });
  }, 60_000);

  it('holds 14 kernels, 374 launches, 11,211,129 ns and no step loop', () => {
    expect([report.kernels.length, report.totalKernelNs]).toEqual([14, 11_211_129]);
    expect(report.kernels.reduce((sum, k) => sum + k.instances, 0)).toBe(374);
    expect(report.stepCount?.steps ?? null).toBeNull();
  });

  it('is not called host-bound: gpu_time_util lists 2.3 ms below 50 % and leaves 11.68 ms busier, at least 44.19 % in use', () => {
    // (0.8 × 1,401,435 + 36.6 × 934,304 + 50 × 11,678,800) / 14,014,539 = 44.19
    expect(report.gpuTimeUtilPercent).toBeCloseTo(44.19, 2);
    expect(report.findings.filter((x) => x.id === 'host-bound' && x.severity !== 'info')).toEqual([]);
  });

  it('is read as neither a healthy decode nor a re-prefill', () => {
    expect(ids(report)).not.toEqual(expect.arrayContaining(['healthy-dense-decode']));
    expect(ids(report).filter((id) => id.startsWith('healthy-') || id === 're-prefill')).toEqual([]);
  });
});

describe('a CUDA-graph decode under graph-level nsys tracing', () => {
  let graphLevel: Report;
  let nodeLevel: Report;
  beforeAll(async () => {
    graphLevel = await analyze({ inputs: [f('graph_decode_graphlevel_cuda_gpu_kern_sum.csv'), f('graph_decode_graphlevel.gpu_time_util.csv')] });
    nodeLevel = await analyze({ inputs: [f('graph_decode_nodelevel_cuda_gpu_kern_sum.csv'), f('graph_decode_nodelevel.gpu_time_util.csv')] });
  }, 60_000);

  it('says the steps come without their forward passes: 65 argmax launches, 65 GEMM launches (the prefill\'s 64 and its LM head)', () => {
    expect(finding(graphLevel, 'graph-level-trace')?.evidence).toMatchObject({ steps: 65, linearLaunches: 65, linearLaunchesPerStep: 1, source: 'steps' });
    expect(finding(graphLevel, 'graph-level-trace')?.command).toMatch(/--cuda-graph-trace=node/);
  });

  it('reads the prefill GEMMs left in the table as neither re-prefill nor a healthy decode, and its idle GPU as no host-bound', () => {
    expect(ids(graphLevel)).not.toContain('re-prefill');
    expect(ids(graphLevel)).not.toContain('host-bound');
    expect(ids(graphLevel).filter((id) => id.startsWith('healthy-'))).toEqual([]);
    expect(graphLevel.notices.find((n) => n.code === 'diagnosis-note' && n.message.startsWith('host-bound'))?.message).toContain('65 decode steps but only 65 linear-layer launches');
  });

  it('reads the node-level twin (27,768 launches, 301,982,001 ns, 4,225 GEMM launches) without the graph-level finding', () => {
    expect(nodeLevel.totalKernelNs).toBe(301_982_001);
    expect(nodeLevel.kernels.reduce((sum, k) => sum + k.instances, 0)).toBe(27_768);
    expect(ids(nodeLevel)).not.toContain('graph-level-trace');
    expect(ids(nodeLevel)).toContain('healthy-dense-decode');
  });
});

describe('an autotuning window: triton.autotune benchmarking its candidates inside a 48-step decode', () => {
  it("names the tuner's L2 flushes as tuning: 1,605 FillFunctor<int> launches, 128,449,838 ns of 1,709,798,181 (7.51 %)", async () => {
    const report = await analyze({ inputs: [f('autotune_nsys_cuda_gpu_kern_sum.csv'), f('autotune_nsys.gpu_time_util.csv')] });
    expect(finding(report, 'capture-includes-warmup')?.evidence).toMatchObject({ signals: 'tuning', tunerLaunches: 1_605, tunerMs: 128.45, steps: 48, tuningShare: 0.0751 });
    expect(finding(report, 'capture-includes-warmup')?.message).toMatch(/1605 launches of an autotuner's L2 flush between timed runs/);
  });
});

describe('a bf16 MoE decode with its grouped-GEMM set-up kernels', () => {
  it.each([
    ['nsys', ['moe_bf16_nsys_cuda_gpu_kern_sum.csv', 'moe_bf16_nsys.gpu_time_util.csv']],
    ['PyTorch profiler', ['moe_bf16_kineto.trace.json.gz']],
  ])('%s: MoE read as MoE, prepare_grouped_gemm_data<bfloat16> read as MoE set-up (routing), not quantization', async (_, files) => {
    const report = await analyze({ inputs: files.map(f) });
    expect(ids(report)).not.toContain('quant-prep-heavy');
    // The grouped GEMM: 128 launches (2 per layer per step), 31 % of the kernel time.
    expect(report.kernels.find((k) => k.name.includes('GroupProblemShape') && !k.name.includes('prepare_grouped_gemm_data'))).toMatchObject({ family: 'moe-gemm', instances: 128 });
    expect(report.kernels.find((k) => k.name.includes('prepare_grouped_gemm_data'))?.family).toBe('moe-routing');
  }, 60_000);
});

describe('an ncu details page of 40 launches of an eager decode, most of them small', () => {
  it('is read past the workload lines at its head, and leads with the kernel holding the most time', async () => {
    const report = await analyze({ inputs: [f('ncu_small_kernels.csv')] });
    expect(report.deepDive.length).toBe(40);
    expect(report.findings[0]?.kernel).toBe('nvjet_sm90_tst_192x32_64x7_4x1_v_bz_TNT');
    expect(report.notices.map((n) => n.code)).toContain('workload-lines-not-read');
  }, 60_000);
});

describe('the graph-level capture as its nsys SQLite export', () => {
  it('counts the 64 graph launches traced whole (CUPTI_ACTIVITY_KIND_GRAPH_TRACE) beside 504 kernel launches, and says their kernels are missing', async () => {
    const report = await analyze({ inputs: [f('graph_decode_graphlevel.sqlite')] });
    expect(report.totalKernelNs).toBe(86_224_823);
    expect(report.timeline).toMatchObject({ graphLaunches: 64, graphKernels: 0, kernelLaunches: 504 });
    expect(finding(report, 'graph-level-trace')?.evidence).toMatchObject({ graphLaunches: 64, kernelLaunches: 504, source: 'timeline' });
    expect(ids(report)).not.toContain('re-prefill');
    expect(ids(report)).not.toContain('host-bound');
    expect(ids(report).filter((id) => id.startsWith('healthy-'))).toEqual([]);
  }, 60_000);
});
