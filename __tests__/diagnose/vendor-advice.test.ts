/**
 * Advice for the vendor at hand: a capture from an AMD GPU (rocprof, rocprofv3, rocpd, a ROCm
 * Kineto trace, rocm-smi/amd-smi) is told to run ROCm's tools (rocprofv3, rocprof-compute,
 * rocm-smi), never `nsys profile …`, `ncu …` or nvidia-smi; an NVIDIA capture keeps Nsight's.
 */
import { join } from 'node:path';
import { runRules } from '../../src/diagnose/run-rules.js';
import { rocprofComputeKernelFilter, toolVendor } from '../../src/diagnose/vendor-tools.js';
import type { Finding, Report } from '../../src/model/report.js';
import { K, profileOf, type ProfileSpec } from '../helpers/profile-builder.js';
import { analyzedOnce } from '../helpers/shared-analysis.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures');
const NVIDIA_TOOLS = /\bnsys\b|\bncu\b|nvidia-smi|Nsight/;
const textOf = (findings: readonly Pick<Finding, 'advice' | 'command'>[]) => findings.map((f) => `${f.advice} ${f.command ?? ''}`).join('\n');

describe('toolVendor', () => {
  it.each([
    ['rocprof-csv', {}, 'amd'],
    ['rocpd-sqlite', {}, 'amd'],
    ['kineto-json', { vendor: 'amd' as const }, 'amd'],
    ['kineto-json', { vendor: 'nvidia' as const }, 'nvidia'],
    ['nsys-stats', {}, 'nvidia'],
    ['max-generate', {}, 'nvidia'],
  ] as const)('%s %j → %s', (format, environment, vendor) => {
    expect(toolVendor({ sources: [{ path: 'x', format, parts: [], stats: [] }], environment })).toBe(vendor);
  });
});

describe('rocprof-compute kernel filter', () => {
  it.each([
    ['Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT128x256x32_MI16x16x1_SN_LDSB1', 'Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT128x256x32_MI16x16x1_SN_LDSB1'],
    ['hk_moe_stage2_fp8_kernel_mma(__hip_bfloat16 const*, __hip_fp8_e4m3_fnuz const*, float const*, float*, int const*, int const*, int const*, float const*, int, int, int, int, int, int, int, int, int, int, int, int) [clone .kd]', 'hk_moe_stage2_fp8_kernel_mma'],
    ['void ck_tile::kentry<2, ck_tile::MoeSortingClearWorkspaceKernel<ck_tile::MoeSortingClearWorkspaceProblem<false, 1024, 1> >, ck_tile::MoeSortingClearWorkspaceKernel<ck_tile::MoeSortingClearWorkspaceProblem<false, 1024, 1> >::Kargs>(ck_tile::MoeSortingClearWorkspaceKernel<ck_tile::MoeSortingClearWorkspaceProblem<false, 1024, 1> >::Kargs) [clone .kd]', 'MoeSortingClearWorkspaceKernel'],
  ])('%s → %s', (name, filter) => {
    expect(rocprofComputeKernelFilter(name)).toBe(filter);
    expect(name).toContain(filter);
  });
});

describe('real AMD captures get ROCm tools only', () => {
  const files: [string, string][] = [
    ['SGLang extend on MI300X (ROCm Kineto)', join(FIXTURES, 'external-3', 'kineto', 'tracelens_mi300x_sglang_qwen3_8b_extend_bs15.json.gz')],
    ['vLLM gpt-oss decode on MI300X (ROCm Kineto)', join(FIXTURES, 'external-3', 'kineto', 'tracelens_gfx942_vllm_gptoss20b_decode_fullgraph_bs32_execution.json.gz')],
    ['aiter MoE test (rocprof --stats)', join(FIXTURES, 'external-3', 'rocprof', 'aiter_mi300_moe_fp8_2stage_test_results.stats.csv')],
    ['llama.cpp on R9700 (rocprof trace)', join(FIXTURES, 'rocprof', 'llamacpp_r9700_gfx1201_results.csv')],
    ['PyTorch training on MI250 (ROCm 6.2 Kineto)', join(FIXTURES, 'kineto', 'hta_mi250_rocm6.2_minitoy_train_kineto.json')],
  ];
  const reports = new Map<string, Report>();
  beforeAll(async () => {
    for (const [name, path] of files) reports.set(name, await analyzedOnce([path]));
  });

  it.each(files.map(([name]) => name))('%s: no nsys, ncu or nvidia-smi in any finding', (name) => {
    const report = reports.get(name)!;
    expect(report.findings.length).toBeGreaterThan(0);
    expect(textOf(report.findings)).not.toMatch(NVIDIA_TOOLS);
  });

  it('the SGLang extend: its dominant hipBLASLt GEMM gets a rocprof-compute command and no ncu deep dive', () => {
    const report = reports.get('SGLang extend on MI300X (ROCm Kineto)')!;
    const dominant = report.findings.find((f) => f.id === 'dominant-kernel')!;
    expect(dominant.command).toMatch(/^rocprof-compute profile -n deep-dive -k Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT128x256x32_\S+ -- <workload command> && rocprof-compute analyze /);
    expect(dominant.advice).toMatch(/ROCm Compute Profiler/);
    expect(dominant.deepDive).toBeUndefined();
  });
});

describe('the same finding, by vendor', () => {
  const amd = { environment: { vendor: 'amd' as const } };
  const nvidia = { environment: { vendor: 'nvidia' as const } };
  const hostBound: ProfileSpec = { kernels: [[K.decodeGemm, 50, 1000]], timeline: { spanNs: 1000e6, busyNs: 70e6, kernelLaunches: 5000 } };
  const tiny: ProfileSpec = { kernels: [[K.decodeGemm, 0.1, 3]] };
  const routingHeavy: ProfileSpec = { kernels: [[K.maxGroupedMatmul, 20, 100], [K.gather, 30, 2000], [K.gatherTopK, 10, 2000]] };
  const throttled: ProfileSpec = { kernels: [[K.decodeGemm, 50, 1000]], util: Array.from({ length: 10 }, (_, i) => ({ gpuPercent: 95, reasons: i < 4 ? ['sw_power_cap'] : [], smClockMhz: 1800, powerW: 700 })) };
  const findings = (spec: ProfileSpec, id: string) => runRules(profileOf(spec)).filter((f) => f.id === id);
  const firstStepSlow: ProfileSpec = {
    kernels: [[K.decodeGemm, 50, 1000]],
    timeline: { spanNs: 1e9, busyNs: 5e8, kernelLaunches: 3500, steps: [50, 10, 10, 10, 10].map((ms, i) => ({ name: `ProfilerStep#${i}`, startNs: i * 1e8, durNs: ms * 1e6, gpuBusyNs: ms * 0.9e6, kernels: 700 })) },
  };

  it.each([
    ['host-bound', hostBound, /^rocprofv3 --runtime-trace/, /^nsys profile/],
    ['empty-capture', tiny, /^rocprofv3 --kernel-trace/, /^nsys profile/],
    ['moe-routing-heavy', routingHeavy, /^rocprof-compute profile/, /^ncu /],
    ['gpu-throttled', throttled, /rocm-smi/, /^nvidia-smi/],
    ['capture-includes-warmup', firstStepSlow, /^rocprofv3 --kernel-trace/, /^nsys profile --capture-range/],
  ] as const)('%s: ROCm tools on AMD, Nsight on NVIDIA', (id, spec, onAmd, onNvidia) => {
    const forAmd = findings({ ...spec, ...amd }, id);
    const forNvidia = findings({ ...spec, ...nvidia }, id);
    expect(forAmd.length).toBeGreaterThan(0);
    expect(forNvidia.length).toBeGreaterThan(0);
    expect(forAmd[0]!.command).toMatch(onAmd);
    expect(textOf(forAmd)).not.toMatch(NVIDIA_TOOLS);
    expect(forNvidia[0]!.command).toMatch(onNvidia);
  });
});
