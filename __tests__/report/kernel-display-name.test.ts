/**
 * Short kernel names: the base name plus the functor that says what the kernel does. Names are real
 * ones from __tests__/fixtures/kernel-names (PyTorch eager on an H200, vLLM, cuBLAS, CUTLASS).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { kernelDisplayName, kernelDisplayNames } from '../../src/report/kernel-display-name.js';
import { kernelFixtureFiles, loadKernelRows } from '../helpers/kernel-fixtures.js';
import { emptyReport } from '../helpers/empty-report.js';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'kernel-names');
const realNames = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.tsv'))
  .flatMap((f) => readFileSync(join(FIXTURES, f), 'utf8').split('\n').slice(1).map((line) => line.split('\t')[2] ?? '').filter(Boolean));
const named = (fragment: string): string => {
  const found = realNames.find((n) => n.includes(fragment));
  if (!found) throw new Error(`no fixture kernel name contains ${fragment}`);
  return found;
};

const COPY_FLOAT = named('elementwise_kernel<128, 2, at::native::gpu_kernel_impl_nocast<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}');
const COPY_LONG = named('elementwise_kernel<128, 2, at::native::gpu_kernel_impl_nocast<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#4}::operator()() const::{lambda(long)#1}');
const ADD = named('void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::native::CUDAFunctor_add<c10::BFloat16> >');

describe('kernelDisplayName', () => {
  it.each([
    [COPY_FLOAT, 'elementwise_kernel<direct_copy_kernel_cuda>'],
    [ADD, 'elementwise_kernel<CUDAFunctor_add>'],
    [named('vectorized_elementwise_kernel<8, at::native::CUDAFunctor_add'), 'vectorized_elementwise_kernel<CUDAFunctor_add>'],
    [named('binary_internal::MulFunctor<float> > >(at::TensorIteratorBase&'), 'elementwise_kernel<MulFunctor>'],
    [named('elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::native::(anonymous namespace)::silu_kernel'), 'elementwise_kernel<silu_kernel>'],
    [named('void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps'), 'reduce_kernel<MeanOps>'],
    [named('unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda'), 'unrolled_elementwise_kernel<direct_copy_kernel_cuda>'],
    [named('cutlass::Kernel2<cutlass_80_simt_sgemm_128x32_8x5_tn_align1>'), 'Kernel2<cutlass_80_simt_sgemm_128x32_8x5_tn_align1>'],
    [named('void cublasLt::splitKreduce_kernel<32, 16'), 'splitKreduce_kernel'],
    [named('split_embedding_codegen_forward_unweighted_kernel<'), 'split_embedding_codegen_forward_unweighted_kernel'],
    [named('elementwise_kernel_with_index<int, at::native::arange_cuda_out'), 'elementwise_kernel_with_index<arange_cuda_out>'],
  ])('%s → %s', (name, expected) => {
    expect(kernelDisplayName(name)).toBe(expected);
  });

  const allNames = kernelFixtureFiles().flatMap((f) => loadKernelRows(f).map((row) => row.name));
  const withReturnType = (fragment: string): string => {
    const found = allNames.find((n) => n.includes(fragment));
    if (!found) throw new Error(`no fixture kernel name contains ${fragment}`);
    return found;
  };
  // The short name names the function, never the return type (DeepSeek-OCR decode on an RTX 5090,
  // vLLM Qwen2.5-7B: the cuBLAS gemv was 34 % of the decode and printed as `enable_if<!T7, void> #1`).
  it.each([
    ['std::enable_if<!T7, void>::type internal::gemvx::kernel<int, int, __nv_bfloat16, __nv_bfloat16, __nv_bfloat16, float, (bool)0, (bool)1, (bool)1, (bool)0, (int)7', 'gemvx::kernel'],
    ['std::enable_if<!(false), void>::type internal::gemvx::kernel<', 'gemvx::kernel'],
    ['vllm::fused_add_rms_norm_kernel<c10::BFloat16, (int)8>', 'fused_add_rms_norm_kernel'],
  ])('names the function after an enable_if return type: %s → %s', (fragment, expected) => {
    const name = withReturnType(fragment);
    expect(name).toMatch(/enable_if/);
    expect(kernelDisplayName(name)).toBe(expected);
    expect(kernelDisplayNames([name]).get(name)).toBe(expected);
  });

  it('tells the cuBLAS gemv instantiations apart without falling back to the return type', () => {
    const gemvs = allNames.filter((n) => /enable_if<!T7, void>::type internal::gemvx::kernel</.test(n));
    expect(gemvs.length).toBeGreaterThan(1);
    const shown = kernelDisplayNames(gemvs);
    for (const name of gemvs) expect(shown.get(name)).toMatch(/^gemvx::kernel/);
    expect(new Set(shown.values()).size).toBe(new Set(gemvs).size);
  });

  it.each([
    ['void mini_vllm::cuda::<unnamed>::argmax_kernel(const float *, int *, int)', 'argmax_kernel'],
    ['void at::native::<unnamed>::vectorized_layer_norm_kernel<c10::BFloat16, float, (bool)1>(int, T2, const T1 *, const T1 *, const T1 *, T2 *, T2 *, T1 *)', 'vectorized_layer_norm_kernel'],
    ['void at::native::(anonymous namespace)::RowwiseMomentsCUDAKernel<float, float>(long, float, float const*, float*, float*)', 'RowwiseMomentsCUDAKernel'],
  ])('looks through an anonymous namespace: %s → %s', (name, expected) => {
    expect(kernelDisplayName(name)).toBe(expected);
  });

  it('leaves names without structure alone: cuBLAS nvjet, Triton', () => {
    expect(kernelDisplayName('nvjet_sm90_tst_64x8_64x16_4x1_v_bz_TNT')).toBe('nvjet_sm90_tst_64x8_64x16_4x1_v_bz_TNT');
    expect(kernelDisplayName('triton_poi_fused_add_mul_0')).toBe('triton_poi_fused_add_mul_0');
  });

  // ROCm traces print mangled names (fixtures/external-3: the SGLang extend and aiter's MoE test on MI300).
  it.each([
    ['_ZN5aiter24add_rmsnorm_quant_kernelIDF16bDF16bLi64ELi8ELb0ELb0ELb1ELi1EEEvPT0_PT_PfS4_S4_S4_diiiiiiib', 'add_rmsnorm_quant_kernel'],
    ['_ZN5aiter19topksoftmax_4x256x8E.kd', 'topksoftmax_4x256x8'],
    [named('_ZN7cutlass13device_kernel'), 'device_kernel<CollectiveEpilogue>'],
  ])('reads a mangled name demangled and names its function: %s → %s', (mangled, expected) => {
    expect(kernelDisplayName(mangled)).toBe(expected);
  });

  it('leaves a mangled name the demangler cannot read as it is', () => {
    const unread = '_ZN7sgl_hip10activation18act_and_mul_kernelI14__hip_bfloat16TnPFT_RKS3_EXadL_Z4siluIS2_ES3_S5_EEEEvPS3_PS4_i';
    expect(kernelDisplayName(unread)).toBe(unread);
  });

  it('gives two kernels that share their first 60 characters two different names', () => {
    const a = 'void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#12}::operator()() const::{lambda(c10::BFloat16)#1}>(at::TensorIteratorBase&)';
    expect(a.slice(0, 60)).toBe(ADD.slice(0, 60));
    expect(kernelDisplayName(a)).toBe('elementwise_kernel<direct_copy_kernel_cuda>');
    expect(kernelDisplayName(a)).not.toBe(kernelDisplayName(ADD));
  });
});

describe('kernelDisplayNames', () => {
  it('gives colliding short names their detailed form (sizes, functor type, lambda types), and nothing elsewhere', () => {
    const names = kernelDisplayNames([COPY_FLOAT, COPY_LONG, ADD]);
    expect(names.get(COPY_FLOAT)).toBe('elementwise_kernel<128, 2, direct_copy_kernel_cuda>(float)');
    expect(names.get(COPY_LONG)).toBe('elementwise_kernel<128, 2, direct_copy_kernel_cuda>(long)');
    expect(names.get(ADD)).toBe('elementwise_kernel<CUDAFunctor_add>');
  });

  it('tells dtype and size variants apart by the functor type and the sizes', () => {
    const bf16 = named('vectorized_elementwise_kernel<8, at::native::CUDAFunctor_add<c10::BFloat16>');
    const long = named('vectorized_elementwise_kernel<2, at::native::CUDAFunctor_add<long>');
    const add4 = ADD;
    // The same kernel built with 2 elements per thread (a name from the same PyTorch build, edited).
    const add2 = ADD.replace('elementwise_kernel<128, 4,', 'elementwise_kernel<128, 2,');
    const names = kernelDisplayNames([bf16, long, add4, add2]);
    expect(names.get(bf16)).toBe('vectorized_elementwise_kernel<8, CUDAFunctor_add<BFloat16>>');
    expect(names.get(long)).toBe('vectorized_elementwise_kernel<2, CUDAFunctor_add<long>>');
    expect(names.get(add4)).toBe('elementwise_kernel<128, 4, CUDAFunctor_add<BFloat16>>(int)');
    expect(names.get(add2)).toBe('elementwise_kernel<128, 2, CUDAFunctor_add<BFloat16>>(int)');
  });

  it('names a kernel the same whatever other kernels share the report, never by its position among them', () => {
    const shown = (name: string, others: string[]): string => kernelDisplayNames([...others, name]).get(name)!;
    // Two cub scans of one PyTorch build whose template arguments agree up to where they are cut.
    const scans = realNames.filter((n) => n.startsWith('void cub::DeviceScanKernel<cub::AgentScanPolicy<128, 15, int, (cub::BlockLoadAlgorithm)3'));
    const [a, b] = [...new Set(scans)] as [string, string];
    expect(b).toBeDefined();
    const inOne = shown(a, [b]);
    expect(inOne).toMatch(/^DeviceScanKernel<AgentScanPolicy<128, 15, int, .*> #[0-9a-f]{6}$/);
    expect(shown(a, [b, COPY_FLOAT, COPY_LONG, ADD])).toBe(inOne);
    expect(shown(a, [ADD, b].reverse())).toBe(inOne);
    expect(shown(b, [a])).not.toBe(inOne);
    // The detailed form does not depend on which other kernels collide with it.
    expect(shown(COPY_FLOAT, [COPY_LONG])).toBe(shown(COPY_FLOAT, [ADD, COPY_LONG, a, b]));
    // Alone, it keeps its short name.
    expect(shown(a, [ADD])).toBe(kernelDisplayName(a));
    expect(shown(a, [ADD])).toBe('DeviceScanKernel');
  });

  it('keeps every real kernel of a capture distinct', () => {
    for (const file of readdirSync(FIXTURES).filter((f) => f.endsWith('.tsv'))) {
      const names = readFileSync(join(FIXTURES, file), 'utf8').split('\n').slice(1).map((l) => l.split('\t')[2] ?? '').filter(Boolean);
      const shown = kernelDisplayNames(names);
      expect(new Set(shown.values()).size).toBe(new Set(names).size);
      // Short wherever the name has structure to shorten (plain names such as cuDNN's stay whole).
      for (const [full, short] of shown) if (full.includes('<')) expect(short.length).toBeLessThanOrEqual(100);
    }
  });
});

describe('readableReasons', () => {
  it('names the kernel of a time-per-step reason by its short name (the real H200 pair)', async () => {
    const { analyze } = await import('../../src/pipeline/analyze.js');
    const { expandInputs } = await import('../../src/io/input-paths.js');
    const { readableReasons } = await import('../../src/report/kernel-display-name.js');
    const samples = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'samples');
    const baseline = await analyze({ inputs: await expandInputs([join(samples, 'baseline')]) });
    const report = await analyze({ inputs: await expandInputs([join(samples, 'current')]), baseline: { report: baseline, origin: 'file', reason: 'test' } });
    const raw = report.comparison!.reasons.find((r) => r.startsWith('kernel:'))!;
    // The gate cuts the name where elementwise_kernel<MulFunctor> and the copy kernel still agree.
    expect(raw).toMatch(/^kernel:void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_.*… GPU time per step 0 ns → 298 µs/);
    const readable = readableReasons(report).find((r) => r.startsWith('kernel '))!;
    // samples/README.md: the unfused head adds the KV-head copies (direct_copy_kernel_cuda), 2,382 µs over 8 steps.
    expect(readable).toBe(raw.replace(/^kernel:.*?…/, 'kernel elementwise_kernel<direct_copy_kernel_cuda>'));
  });

  it('a report written before the decision was recorded (schema 2) keeps its reasons as written; its record comes from its rows', async () => {
    const { analyze } = await import('../../src/pipeline/analyze.js');
    const { expandInputs } = await import('../../src/io/input-paths.js');
    const { migrateReport } = await import('../../src/model/migrate.js');
    const { readableReasons } = await import('../../src/report/kernel-display-name.js');
    const samples = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'samples');
    const baseline = await analyze({ inputs: await expandInputs([join(samples, 'baseline')]) });
    const report = await analyze({ inputs: await expandInputs([join(samples, 'current')]), baseline: { report: baseline, origin: 'file', reason: 'test' } });
    // As schema 2 wrote it: no decision, and no links (older still) or links with character offsets.
    const { reasonRows: _links, ...unlinked } = report.comparison!;
    void _links;
    const { decision: _decision, ...undecided } = report;
    void _decision;
    const written = JSON.parse(JSON.stringify({ ...undecided, schemaVersion: 2, comparison: unlinked })) as unknown;
    const read = migrateReport(written, 'report.json');
    expect(read.comparison!.reasonRows).toBeUndefined();
    expect(readableReasons(read)).toEqual(report.comparison!.reasons);
    // The record: the rows whose status decided the verdict, the policy unknown.
    const deciding = report.comparison!.rows.filter((r) => r.status === report.verdict).map((r) => r.metric);
    expect(deciding.length).toBeGreaterThan(0);
    expect(read.decision.causes.map((c) => (c.kind === 'row' ? c.row : c.kind))).toEqual(deciding);
    expect(read.decision.policy).toBeNull();
  });

  it("writes a kernel share row's sentence from the row the reason is linked to, whatever the stored wording", async () => {
    const { readableReasons } = await import('../../src/report/kernel-display-name.js');
    const row = { metric: `kernel:${COPY_FLOAT}`, kind: 'kernel-share' as const, unit: '% of GPU time', baseline: 0, current: 9.9, delta: 9.9, ci: null, threshold: 3, status: 'fail' as const };
    // Wording no renderer knows: no "kernel:" prefix, no "share of GPU time", no shares quoted.
    const reasons = ['the copy kernel grew by a lot', 'a note about no row'];
    const comparisonOf = (reasonRows?: ({ row: string } | null)[]) => ({ baseline: { origin: 'file', reason: 'test' }, rows: [row], reasons, ...(reasonRows ? { reasonRows } : {}) });
    // The row's own threshold: 9 pp fails it (a per-row threshold of the policy that judged it).
    const policy = { failOn: [], failOnSeverity: 'error' as const, failVerdicts: ['fail' as const], thresholds: { [row.metric]: 9 }, shareThresholds: { warn: 3, fail: 20 }, ruleOptions: {} };
    const linked = emptyReport({ verdict: 'fail', comparison: comparisonOf([{ row: row.metric }, null]) });
    const report = { ...linked, decision: { ...linked.decision, policy } };
    expect(readableReasons(report)).toEqual(['kernel elementwise_kernel<direct_copy_kernel_cuda> share of GPU time 0.0% → 9.9% (+9.9 pp), at or beyond the 9 pp fail threshold', 'a note about no row']);
    // Without the policy (a report migrated from before it was recorded) the fail threshold is unknown: as written.
    expect(readableReasons(linked)).toEqual(reasons);
    // Without the link the reasons show as written.
    expect(readableReasons(emptyReport({ verdict: 'fail', comparison: comparisonOf() }))).toEqual(reasons);
  });
});
