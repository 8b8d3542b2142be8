/**
 * Ground truth for the deep dive: real Nsight Compute captures, read through the ncu-csv importer
 * and the whole engine, get the diagnosis their numbers support. Expected values were read from the
 * CSVs with Python's csv module (never through the project's importer), as written next to each.
 */
import { join } from 'node:path';
import { buildProfile } from '../../src/pipeline/build-profile.js';
import { dramBytesPerSecond } from '../../src/diagnose/ncu-metrics.js';
import { roofline } from '../../src/diagnose/ncu-roofline.js';
import { RULES } from '../../src/diagnose/rules/index.js';
import { runRules } from '../../src/diagnose/run-rules.js';
import { analyze } from '../../src/pipeline/analyze.js';
import { ingestFile } from '../../src/ingest/registry.js';
import type { Finding } from '../../src/model/report.js';
import { renderReportComment } from '../../src/report/markdown/comment.js';
import { renderSummary, SUMMARY_BUDGET_BYTES } from '../../src/report/markdown/summary.js';
import { HOSTILE, makeReport, tableCells } from '../report/report-factory.js';
import { fixturePath, type CaptureName, withMetric } from './ncu-captures.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures');
/** The rules that read Nsight Compute results (dominant-kernel, also a deep-dive stage rule, asks for them). */
const DEEP_DIVE_RULE_IDS: readonly string[] = RULES.filter((r) => r.meta.stage === 'deep-dive' && r.meta.id !== 'dominant-kernel').map((r) => r.meta.id);

it('has the six deep-dive rules', () => {
  expect(DEEP_DIVE_RULE_IDS).toEqual(['grid-too-small', 'kernel-compute-bound', 'kernel-latency-bound', 'kernel-memory-bound', 'low-occupancy', 'uncoalesced-access']);
});

async function deepDive(name: CaptureName): Promise<Finding[]> {
  const profile = buildProfile([await ingestFile(fixturePath(name))]);
  return runRules(profile).filter((f) => DEEP_DIVE_RULE_IDS.includes(f.id));
}

const ids = (findings: Finding[]) => findings.map((f) => f.id).sort();
const one = (findings: Finding[], id: string) => {
  const hits = findings.filter((f) => f.id === id);
  expect(hits).toHaveLength(1);
  return hits[0]!;
};

describe('H200 decode GEMV (ncu_deep_dive/PROVENANCE.md)', () => {
  // Python: DRAM Throughput 80.77 %, Memory Workload Analysis Memory Throughput 3.88 Tbyte/s,
  // Compute (SM) 5.25 %, Grid Size 88, # SMs 132, Waves Per SM 0.67 (raw: 80.767156, 3.884313 Tbyte/s).
  it.each(['decodeGemv', 'decodeGemvRaw'] as const)('%s: memory-bound at ~81%% of DRAM peak (3.88 TB/s), grid of 88 blocks on 132 SMs', async (name) => {
    const findings = await deepDive(name);
    expect(ids(findings)).toEqual(['grid-too-small', 'kernel-memory-bound']);
    const memory = one(findings, 'kernel-memory-bound');
    expect(memory.kernel).toBe('nvjet_sm90_tst_256x8_64x6_4x1_v_bz_TNT');
    expect(memory.evidence).toMatchObject({ memoryUnit: 'DRAM' });
    expect(memory.evidence['dramPercent']).toBeCloseTo(80.77, 1);
    expect(memory.evidence['dramShareOfPeak']).toBeCloseTo(0.8077, 3);
    expect((memory.evidence['dramBytesPerSecond'] as number) / 1e12).toBeCloseTo(3.88, 2);
    expect(memory.message).toContain('3.88 TB/s');
    const grid = one(findings, 'grid-too-small');
    expect(grid.evidence).toMatchObject({ gridBlocks: 88, smCount: 132, wavesPerSm: 0.67, idleSms: 44 });
    // Already at 80.8% of the DRAM roof: healthy for decode, so the small grid is information.
    expect(grid.severity).toBe('info');
  });
});

describe('H200 prefill GEMM', () => {
  // Python: Compute (SM) Throughput 92.84 %, DRAM 26.21 %, L2 56.05 %; Memory Throughput 95.10 % is L1/shared staging.
  it.each(['prefillGemm', 'prefillGemmRaw'] as const)('%s: compute-bound at ~93%% of the SM roof, nothing else', async (name) => {
    const findings = await deepDive(name);
    expect(ids(findings)).toEqual(['kernel-compute-bound']);
    expect(findings[0]!.evidence['computePercent']).toBeCloseTo(92.84, 1);
    expect(findings[0]!.kernel).toBe('nvjet_sm90_tst_192x128_64x5_1x2_h_bz_coopB_TNT');
    expect(findings[0]!.advice).toMatch(/tensor-core/);
  });

  // ncu's SOLBottleneck on the details page: "Start by analyzing L1 in the Memory Workload Analysis section";
  // L1/TEX 96.63 % is the shared-memory staging that feeds the tensor cores, DRAM 26.21 %, L2 56.05 %.
  it('says why it reads compute-bound where ncu points at L1', async () => {
    const [finding] = await deepDive('prefillGemm');
    expect(finding!.evidence).toMatchObject({ ncuBottleneck: 'memory (L1/TEX)', boundSource: 'overrules ncu', l1Percent: 96.63, dramPercent: 26.21, l2Percent: 56.05 });
    expect(finding!.evidence['whyNotNcu']).toMatch(/^ncu's SOLBottleneck points at L1\/TEX \(96\.6%\): with SM throughput at 92\.8% that is the on-chip staging that feeds the math pipes, while the off-chip roofs are far \(DRAM 26\.2%, L2 56\.0%\)$/);
    expect(finding!.message).toContain("ncu's SOLBottleneck points at L1/TEX");
  });
});

describe('H200 decode attention', () => {
  // Python: Grid Size 32, Waves Per SM 0.12, DRAM 6.54 %, SM 3.22 %, occupancy 6.13 of 12.50 %,
  // Block Limit Registers 2 = Block Limit Shared Mem 2; rule LaunchConfiguration OPT 75.76.
  it('has a grid too small (as ncu flags it), is latency-bound and runs at low occupancy', async () => {
    const findings = await deepDive('decodeAttention');
    expect(ids(findings)).toEqual(['grid-too-small', 'kernel-latency-bound', 'low-occupancy']);
    const grid = one(findings, 'grid-too-small');
    expect(grid.severity).toBe('warning');
    expect(grid.evidence).toMatchObject({ gridBlocks: 32, wavesPerSm: 0.12, ncuRule: 'LaunchConfiguration (OPT)', ncuEstimatedSpeedupPercent: 75.76 });
    expect(grid.evidence['ncuSays']).toMatch(/^The grid for this launch is configured to execute only 32 blocks, which is less than the GPU's 132 multiprocessors/);
    expect(one(findings, 'low-occupancy').evidence['limiter']).toMatch(/^registers and shared memory/);
  });
});

describe('RTX 5090 captures from a public repository (fixtures/ncu/PROVENANCE.md)', () => {
  // cuBLAS GEMV, by hand from the CSV: Compute (SM) 9.15 % and DRAM 19.66 % (= Memory Throughput) are both
  // under 60 %, so latency-bound. dram__bytes_read.sum 2.33 Mbyte + write 0 in 6.75 us = 345.2 GB/s, which is
  // Memory Workload Analysis' 345.14 Gbyte/s. Achieved occupancy 11.32 % of a theoretical 16.67 %; the block
  // limits are registers 2, shared mem 4, warps 12, SM 24, so registers cap it. Grid (224, 1, 1) = 224 blocks;
  // the capture has no LaunchStats (no SM count, no waves): with the RTX 5090's 170 SMs × 2 blocks, 224 / 340 =
  // 0.66 waves, which ncu's SOLBottleneck rounds to "only 0.7 full waves": the grid finding rests on that rule.
  it('cuBLAS GEMV: latency-bound, registers cap occupancy, grid flagged by ncu', async () => {
    const findings = await deepDive('rtxGemv');
    expect(ids(findings)).toEqual(['grid-too-small', 'kernel-latency-bound', 'low-occupancy']);
    expect(one(findings, 'kernel-latency-bound').evidence).toMatchObject({ computePercent: 9.15, memoryUnit: 'DRAM', memoryPercent: 19.66 });
    expect(one(findings, 'low-occupancy').evidence).toMatchObject({ limiter: 'registers', blocksPerSm: 2 });
    expect(one(findings, 'grid-too-small').evidence).toMatchObject({ wavesSource: 'ncu rule', gridBlocks: 224 });
    expect(one(findings, 'grid-too-small').evidence['ncuSays']).toContain('only 0.7 full waves');
  });

  it('cuBLAS GEMV: DRAM bandwidth from the rate, or from bytes and duration when the rate is missing', async () => {
    const [result] = (await ingestFile(fixturePath('rtxGemv'))).ncu;
    expect(dramBytesPerSecond(result!)).toBeCloseTo(345.14e9, -6);
    const [withoutRate] = withMetric([result!], 'Memory Throughput', undefined).map((r) => ({ ...r, metrics: r.metrics.filter((m) => m.unit !== 'byte/s') }));
    // 2.33e6 bytes / 6.75e-6 s
    expect(dramBytesPerSecond(withoutRate!)! / 1e9).toBeCloseTo(345.19, 1);
  });

  // CUTLASS GEMM, by hand: Compute (SM) 32.46 %, Memory Throughput 25.75 % (= L2), DRAM 8.96 %: latency-bound.
  // Achieved 16.66 % of 16.67 %: registers and shared memory both allow 1 block per SM. Grid (304, 1, 1) at one
  // block per SM on 170 SMs is 1.79 waves, and ncu's rules do not mention the grid: no grid finding. Its
  // sm__ops_path_tensor_src_bf16_dst_fp32 count is tensor-core work, which the roofline does not count.
  it('CUTLASS GEMM: latency-bound with occupancy capped by registers and shared memory, grid fine, no roofline', async () => {
    const findings = await deepDive('rtxGemm');
    expect(ids(findings)).toEqual(['kernel-latency-bound', 'low-occupancy']);
    expect(one(findings, 'kernel-latency-bound').evidence).toMatchObject({ computePercent: 32.46, memoryUnit: 'L2', memoryPercent: 25.75 });
    expect(one(findings, 'low-occupancy').evidence).toMatchObject({ limiter: 'registers and shared memory', blocksPerSm: 1 });
    const [result] = (await ingestFile(fixturePath('rtxGemm'))).ncu;
    expect(roofline(result!)).toBeUndefined();
    // 63.77 Mbyte + 197.38 Kbyte = 63.967 MB over 404.70 us = 158.06 GB/s against the printed 158.07 Gbyte/s.
    expect(dramBytesPerSecond(result!)! / 1e9).toBeCloseTo(158.07, 1);
  });
});

describe('H200 fp32 kernels with the roofline and source counters (fixtures/ncu/fp32_roofline/PROVENANCE.md)', () => {
  it.each(['fp32Raw', 'fp32All'] as const)('%s: addcmul below the ridge, SGEMM above it, the transpose uncoalesced', async (name) => {
    const findings = await deepDive(name);
    const byKernel = (pattern: RegExp) => findings.filter((f) => pattern.test(f.kernel ?? '')).map((f) => f.id).sort();
    expect(byKernel(/addcmul/)).toEqual(['kernel-memory-bound']);
    expect(byKernel(/direct_copy/)).toEqual(['kernel-memory-bound', 'uncoalesced-access']);
    expect(byKernel(/xmma_gemm/)).toEqual(['kernel-compute-bound']);
    const addcmul = findings.find((f) => /addcmul/.test(f.kernel ?? ''))!;
    // One FFMA (2 FLOP) per 16 bytes moved (3 loads + 1 store of fp32): 0.125 FLOP/B; ncu's counts give 0.126.
    expect(addcmul.evidence['arithmeticIntensity']).toBeCloseTo(0.126, 2);
    expect(addcmul.evidence['rooflineSide']).toBe('memory');
    const sgemm = findings.find((f) => /xmma_gemm/.test(f.kernel ?? ''))!;
    // 2 × 4096³ FLOP in 2.67 ms = 51.5 TFLOP/s; ncu's SOLFPRoofline says "77% of this device's FP32 peak".
    expect((sgemm.evidence['flopsPerSecond'] as number) / 1e12).toBeCloseTo(51.4, 0);
    expect(sgemm.evidence['shareOfRoof']).toBeCloseTo(0.77, 2);
    expect(sgemm.evidence['rooflineSide']).toBe('compute');
    expect(findings.find((f) => f.id === 'uncoalesced-access')!.evidence['excessShare']).toBeCloseTo(0.7778, 3);
  });
});

describe('ncu\'s verdict first, every memory level read', () => {
  // The transposing copy: SM 19.66, Memory Throughput 96.56 = L2 96.56, DRAM 23.40, L1 61.82; SOLBottleneck:
  // "Start by analyzing L2 in the Memory Workload Analysis section".
  it('the transposing copy is L2-bound, as ncu says, with copy advice', async () => {
    const findings = (await deepDive('fp32')).filter((f) => /direct_copy/.test(f.kernel ?? ''));
    expect(ids(findings)).toEqual(['kernel-memory-bound', 'uncoalesced-access']);
    const memory = one(findings, 'kernel-memory-bound');
    expect(memory.evidence).toMatchObject({ memoryUnit: 'L2', memoryPercent: 96.56, ncuBottleneck: 'memory (L2)', boundSource: 'agrees', kernelKind: 'copy' });
    expect(memory.advice).toMatch(/^The kernel is a copy, .*L2 being busier than DRAM says its accesses are strided/);
    expect(memory.advice).toMatch(/native GQA instead of repeat_kv/);
    expect(one(findings, 'uncoalesced-access').advice).toMatch(/^A strided copy/);
  });

  // A capture with SM and DRAM only (a --metrics page without the Memory Throughput, L2 and L1 rows) used to
  // read latency-bound from DRAM at 23 %; ncu's SOLBottleneck row of the same result says L2 is the limit.
  it('follows ncu\'s verdict when the capture lacks the memory levels, and says so', async () => {
    const results = (await ingestFile(fixturePath('fp32'))).ncu.filter((r) => /direct_copy/.test(r.kernel));
    const trimmed = results.map((r) => ({ ...r, metrics: r.metrics.filter((m) => !['Memory Throughput', 'L2 Cache Throughput', 'L1/TEX Cache Throughput'].includes(m.name)) }));
    const profile = buildProfile([{ ...(await ingestFile(fixturePath('fp32'))), ncu: trimmed, kernels: [] }]);
    const findings = runRules(profile).filter((f) => DEEP_DIVE_RULE_IDS.includes(f.id));
    expect(findings.map((f) => f.id)).not.toContain('kernel-latency-bound');
    const memory = one(findings, 'kernel-memory-bound');
    expect(memory.evidence).toMatchObject({ memoryUnit: 'L2', ncuBottleneck: 'memory (L2)', boundSource: 'from ncu verdict', dramPercent: 23.4 });
    expect(memory.evidence['memoryPercent']).toBeUndefined();
    expect(memory.message).toMatch(/Nsight Compute names L2 as the limit \(DRAM 23\.4%\).*; the capture has no Memory Throughput row/);
  });
});

describe('the KV-head copy of a GQA decode step (h200-captures/gqa_repeat_kv/PROVENANCE.md)', () => {
  // ncu: SM 77.17 %, Memory 26.79 %, DRAM 20.76 %, L2 34.74 %; SOLBottleneck "Compute is more heavily utilized
  // than Memory"; all 32 bytes of each sector used, no excess sectors. Issue-bound on a strided copy's index math.
  it('is issue-bound on the compute side, with copy advice and no tensor-core advice', async () => {
    const findings = await deepDive('gqaCopy');
    expect(ids(findings)).toEqual(['kernel-compute-bound']);
    const [finding] = findings;
    expect(finding!.evidence).toMatchObject({ computePercent: 77.17, dramPercent: 20.76, l2Percent: 34.74, ncuBottleneck: 'compute', boundSource: 'agrees', kernelKind: 'copy' });
    expect(finding!.message).toMatch(/is issue-bound \(compute side\): SM throughput at 77\.2% of peak, DRAM at 20\.8% and L2 at 34\.7%\.$/);
    expect(finding!.advice).toMatch(/index math/);
    expect(finding!.advice).toMatch(/native GQA instead of repeat_kv/);
    expect(finding!.advice).not.toMatch(/FP8|tensor-core|lower-precision/);
  });

  it('has coalesced accesses: no uncoalesced finding (0 excess of 8,388,608 sectors)', async () => {
    expect(ids(await deepDive('gqaCopySources'))).toEqual(['kernel-compute-bound']);
  });

  const kernSum = join(FIXTURES, 'h200-captures', 'gqa_repeat_kv', 'gqa_cuda_gpu_kern_sum.csv');
  it('attaches the deep dive to the breakdown kernel that nsys spells otherwise, with its share', async () => {
    const report = await analyze({ inputs: [kernSum, fixturePath('gqaCopy')] });
    const nsysName = report.kernels[0]!.name;
    expect(nsysName).toMatch(/^void at::native::elementwise_kernel<\(int\)128, \(int\)4, /);
    const deep = report.findings.filter((f) => DEEP_DIVE_RULE_IDS.includes(f.id));
    expect(ids(deep)).toEqual(['kernel-compute-bound']);
    expect(deep[0]!.kernel).toBe(nsysName);
    // 11,831,460 of 14,637,053 ns.
    expect(deep[0]!.evidence['share']).toBeCloseTo(0.8083, 4);
    expect(deep[0]!.evidence['ncuKernel']).toMatch(/^elementwise_kernel<128, 4, void gpu_kernel_impl_nocast<direct_copy_kernel_cuda/);
    expect(deep[0]!.message).toContain('(80.8% of GPU kernel time)');
    // The follow-up skips to the middle of the 80 launches nsys counted, and selects the kernel by key.
    expect(deep[0]!.deepDive).toMatchObject({ kernel: nsysName, kernelKey: 'elementwise_kernel<direct_copy_kernel_cuda>', launchSkip: 40, demangled: true });
    const md = renderSummary(report);
    const lines = md.split('\n');
    const row = lines.findIndex((l) => l.startsWith('| 80.8% |'));
    expect(lines[row + 1]).toMatch(/^\| \| \| \| deep dive \| ↳ Nsight Compute, 1 launch: .* · SM 77\\.2% .*findings: copy\\-heavy, kernel\\-compute\\-bound \|$/);
    expect(md).not.toContain('### Deep dive (Nsight Compute)');
  });
});

describe('the repeat_interleave copy of another H200 GQA workload (h200-stacks/PROVENANCE.md, repeat_kv)', () => {
  // Python: nsys kern_sum: the direct copy 40,398,429 of 70,307,195 ns (57.5 %, 256 launches); ncu (its own process):
  // SM 76.03 %, Memory Throughput 26.60 %, DRAM 20.70 %, L2 34.44 %; SOLBottleneck "Compute is more heavily utilized".
  it('attaches to the 57.5 % copy of the breakdown, issue-bound with copy advice', async () => {
    const stacks = join(FIXTURES, 'h200-stacks', 'repeat_kv');
    const report = await analyze({ inputs: [join(stacks, 'repeatkv_node.kern_sum.csv'), join(stacks, 'repeatkv_copy.details.csv')] });
    const compute = report.findings.filter((f) => f.id === 'kernel-compute-bound');
    expect(compute).toHaveLength(1);
    expect(compute[0]!.kernel).toBe(report.kernels[0]!.name);
    expect(compute[0]!.evidence).toMatchObject({ computePercent: 76.03, dramPercent: 20.7, l2Percent: 34.44, ncuBottleneck: 'compute', kernelKind: 'copy' });
    expect(compute[0]!.evidence['share']).toBeCloseTo(0.5746, 4);
    expect(compute[0]!.deepDive).toMatchObject({ launchSkip: 128 });
    expect(compute[0]!.advice).toMatch(/native GQA/);
  });
});

describe('a single-kernel capture: vllm.cpp QuantDotGemmGroupedKernel (shared external-2/SOURCES.md)', () => {
  // SM 38.69 %, Memory Throughput 38.69 %, L1/TEX 49.29 %, L2 11.59 %, no DRAM row; SOLBottleneck: low compute
  // and memory ("latency issues"); UncoalescedGlobalAccess: 11,704,320 excessive sectors (75 % of 15,667,200);
  // Waves Per SM 16, achieved occupancy 95.13 % of a theoretical 83.33 %: neither the grid nor occupancy limits it.
  it('is latency-bound with uncoalesced global loads, read as a quantized matmul', async () => {
    const findings = await deepDive('quantDot');
    expect(ids(findings)).toEqual(['kernel-latency-bound', 'uncoalesced-access']);
    const latency = one(findings, 'kernel-latency-bound');
    // ncu's Memory Throughput (38.69 = its Mem Pipes Busy) is no level's headline (L1 49.29, L2 11.59): no unit is named.
    expect(latency.evidence).toMatchObject({ computePercent: 38.69, memoryUnit: 'memory pipes', memoryPercent: 38.69, ncuBottleneck: 'latency', boundSource: 'agrees', kernelKind: 'gemm', wavesPerSm: 16 });
    expect(latency.evidence['dramPercent']).toBeUndefined();
    expect(latency.evidence['share']).toBeUndefined();
    expect(latency.advice).toMatch(/quantized GEMM far from every roof waits on its weight loads/);
    const uncoalesced = one(findings, 'uncoalesced-access');
    expect(uncoalesced.evidence).toMatchObject({ space: 'global', source: 'ncu rule', ncuRule: 'UncoalescedGlobalAccess (OPT)', ncuEstimatedSpeedupPercent: 60.08 });
    expect(uncoalesced.evidence['excessShare']).toBeCloseTo(0.75, 4);
  });
});

describe('H200 decode step, four small kernels (shared h200/README.md)', () => {
  // Python: SM / Memory Throughput 3.67/3.54, 0.55/0.64, 8.40/12.06, 4.60/22.28 %; every SOLBottleneck row speaks of the
  // grid only ("only 0.2 / 0.0 / 1.0 / 0.3 full waves"); no LaunchStats; achieved occupancy 14.5 / 6.2 / 14.4 / 14.2 % of a
  // theoretical 18.75 % (nvjet: registers and shared memory allow 1 block per SM; cuDNN: registers allow 3).
  it('each is latency-bound on the numbers, with a grid ncu calls too small and low occupancy', async () => {
    const findings = await deepDive('llamaDecode');
    const kernels = [...new Set(findings.map((f) => f.kernel))];
    expect(kernels).toHaveLength(4);
    for (const kernel of kernels) expect(ids(findings.filter((f) => f.kernel === kernel))).toEqual(['grid-too-small', 'kernel-latency-bound', 'low-occupancy']);
    for (const f of findings.filter((x) => x.id === 'kernel-latency-bound')) expect(f.evidence).toMatchObject({ boundSource: 'no ncu verdict' });
    for (const f of findings.filter((x) => x.id === 'grid-too-small')) expect(f.evidence).toMatchObject({ wavesSource: 'ncu rule', ncuRule: 'SOLBottleneck (OPT)' });
    const sdpa = findings.filter((f) => /sdpa/.test(f.kernel ?? ''));
    expect(one(sdpa, 'kernel-latency-bound').evidence).toMatchObject({ computePercent: 0.55, memoryPercent: 0.64, kernelKind: 'attention' });
    expect(one(sdpa, 'low-occupancy').evidence).toMatchObject({ achievedOccupancyPercent: 6.24, blockLimitRegisters: 3 });
    expect(one(sdpa, 'kernel-latency-bound').advice).toMatch(/split-KV/);
  });
});

describe('a level ncu\'s headline leaves out', () => {
  // The bf16 clamp, two launches; the one of median duration (ID 5): Memory Throughput 57.04 % (= DRAM), SM 39.71 %,
  // but L2 Cache Throughput 82.62 %; ncu: latency.
  it('stays latency-bound, as ncu says, and names the busy L2', async () => {
    const findings = (await deepDive('smallMatmul')).filter((f) => /clamp/.test(f.kernel ?? ''));
    expect(ids(findings)).toEqual(['kernel-latency-bound']);
    expect(findings[0]!.evidence).toMatchObject({ memoryUnit: 'DRAM', memoryPercent: 57.04, l2Percent: 82.62, ncuBottleneck: 'latency', boundSource: 'agrees', kernelKind: 'elementwise' });
    expect(findings[0]!.message).toContain('both below 60%; L2 at 82.6% is near its own roof, so the memory system is partly busy.');
  });
});

describe('a collective gets no Nsight Compute advice', () => {
  it('skips an NCCL kernel however its counters look', async () => {
    const [result] = (await ingestFile(fixturePath('decodeAttention'))).ncu;
    const nccl = { ...result!, kernel: 'ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<(unsigned long)4096>)' };
    const profile = buildProfile([{ ...(await ingestFile(fixturePath('decodeAttention'))), ncu: [nccl], kernels: [{ name: nccl.kernel, totalNs: 1000, instances: 1 }] }]);
    expect(profile.kernels[0]!.family).toBe('collective');
    expect(runRules(profile).filter((f) => DEEP_DIVE_RULE_IDS.includes(f.id))).toEqual([]);
    // The same counters on the attention kernel do give findings (the test can fail).
    expect(ids(await deepDive('decodeAttention')).length).toBeGreaterThan(0);
  });
});

describe('one finding per profiled kernel and rule', () => {
  it('gives several launches of a kernel one finding, always with its kernel', async () => {
    // h200_small_matmul: 8 launches of 5 kernels (randn ×2, nvjet ×2, clamp ×2, copy, mean).
    const findings = await deepDive('smallMatmul');
    expect(findings.length).toBeGreaterThan(0);
    for (const finding of findings) expect(finding.kernel).toBeTruthy();
    const keys = findings.map((f) => `${f.id}\u0000${f.kernel}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(findings.filter((f) => /nvjet/.test(f.kernel!)).map((f) => [f.id, f.evidence['launches']])).toEqual([['kernel-compute-bound', 2]]);
  });
});

describe('the whole engine on a kernel capture and its ncu CSV', () => {
  const kernSum = join(FIXTURES, 'h200-captures', 'healthy_decode_graph_off', 'healthy_graphoff_node.kern_sum.csv');
  const ncu = fixturePath('decodeGemv');

  it('reports the deep-dive findings on the dominant GEMV, with its kernel', async () => {
    const report = await analyze({ inputs: [kernSum, ncu] });
    const deep = report.findings.filter((f) => DEEP_DIVE_RULE_IDS.includes(f.id));
    expect(ids(deep)).toEqual(['grid-too-small', 'kernel-memory-bound']);
    for (const finding of deep) expect(finding.kernel).toBe('nvjet_sm90_tst_256x8_64x6_4x1_v_bz_TNT');
    // The nsys capture counts 512 launches of it: the follow-up command skips to the middle one.
    expect(deep[0]!.command).toMatch(/--launch-skip 256 --launch-count 1/);
    expect(report.deepDive).toHaveLength(1);
  });

  it('renders the deep dive in the row right under the kernel in the summary and the comment', async () => {
    const report = await analyze({ inputs: [kernSum, ncu] });
    const md = renderSummary(report);
    // Kernel names in tables may wrap at <wbr>.
    const lines = md.replace(/<wbr>/g, '').split('\n');
    const row = lines.findIndex((l) => l.startsWith('| 28.8% |') && l.includes('nvjet&#95;sm90&#95;tst&#95;256x8&#95;64x6&#95;4x1&#95;v&#95;bz&#95;TNT'));
    expect(row).toBeGreaterThan(0);
    const dive = lines[row + 1]!;
    expect(dive).toMatch(/^\| \| \| \| deep dive \| ↳ Nsight Compute, 1 launch: 47\\\.07 µs · SM 5\\\.3% · memory 80\\\.8% \\\(DRAM\\\) · DRAM 3\\\.88 TB\/s · 88 blocks, 0\\\.67 waves/);
    expect(dive).toContain('findings: grid\\-too\\-small, kernel\\-memory\\-bound |');
    // Same number of cells as the table's header row.
    expect(tableCells(dive)).toHaveLength(tableCells(lines[row]!).length);
    expect(renderReportComment(report, { key: 'deep' })).toContain(dive);
  });

  it('lists a deep dive on a kernel the table does not show below the table, escaped', () => {
    const base = makeReport({ kernels: 3 });
    const report = { ...base, deepDive: [{ id: 0, kernel: HOSTILE, metrics: [{ section: 'GPU Speed Of Light Throughput', name: 'Duration', unit: 'ns', value: 5000 }], rules: [] }] };
    const md = renderSummary(report);
    expect(md).toContain('### Deep dive (Nsight Compute)');
    const item = md.split('\n').find((l) => l.startsWith('- <code>evil'))!;
    expect(item).toContain(': Nsight Compute, 1 launch: 5\\.00 µs');
    expect(item).not.toMatch(/<script>|<\/details>|<!--/);
    expect(Buffer.byteLength(renderSummary(report, { budgetBytes: 2000 }), 'utf8')).toBeLessThanOrEqual(2000 + 1);
    expect(Buffer.byteLength(md, 'utf8')).toBeLessThan(SUMMARY_BUDGET_BYTES);
  });
});
