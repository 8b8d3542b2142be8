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

describe('the verdict lines name a kernel by its display name', () => {
  it('names the kernel of a time-per-step row by its short name (the real H200 pair)', async () => {
    const { analyze } = await import('../../src/pipeline/analyze.js');
    const { expandInputs } = await import('../../src/io/input-paths.js');
    const { comparisonLines } = await import('../../src/report/verdict-lines.js');
    const samples = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'samples');
    const baseline = await analyze({ inputs: await expandInputs([join(samples, 'baseline')]) });
    const report = await analyze({ inputs: await expandInputs([join(samples, 'current')]), baseline: { report: baseline, origin: 'file', reason: 'test' } });
    // The row keeps the whole name; the sentence names it by its display name.
    const copy = report.comparison!.rows.find((r) => r.kind === 'kernel-time' && r.metric.includes('direct_copy_kernel_cuda'))!;
    expect(copy.metric).toMatch(/^kernel-time:kernel:void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_/);
    const readable = comparisonLines(report).find((r) => r.startsWith('kernel elementwise_kernel<direct_copy_kernel_cuda>'))!;
    // samples/README.md: the unfused head adds the KV-head copies (direct_copy_kernel_cuda), 2,382 µs over 8 steps.
    expect(readable).toMatch(/^kernel elementwise_kernel<direct_copy_kernel_cuda> GPU time per step 0 ns → 298 µs \(\+298 µs\), at or beyond the /);
  });

  it('a report of schema 3 or 2 is read without its sentences: its lines are written from its rows and its decision', async () => {
    const { analyze } = await import('../../src/pipeline/analyze.js');
    const { expandInputs } = await import('../../src/io/input-paths.js');
    const { migrateReport } = await import('../../src/model/migrate.js');
    const { verdictLines } = await import('../../src/report/verdict-lines.js');
    const samples = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'samples');
    const baseline = await analyze({ inputs: await expandInputs([join(samples, 'baseline')]) });
    const report = await analyze({ inputs: await expandInputs([join(samples, 'current')]), baseline: { report: baseline, origin: 'file', reason: 'test' } });
    // As schema 3 wrote it: sentences beside the decision, linked to rows; wording no renderer knows.
    const old = { ...report, schemaVersion: 3, verdictReasons: ['the copy kernel grew by a lot'], comparison: { ...report.comparison!, reasons: ['the copy kernel grew by a lot', 'a note'], reasonRows: [{ row: 'x' }, null] } };
    const read3 = migrateReport(JSON.parse(JSON.stringify(old)) as unknown, 'report.json');
    expect(read3).not.toHaveProperty('verdictReasons');
    expect(read3.comparison).not.toHaveProperty('reasons');
    expect(read3.comparison).not.toHaveProperty('reasonRows');
    expect(verdictLines(read3)).toEqual(verdictLines(report));
    expect(verdictLines(read3).join('\n')).not.toContain('the copy kernel grew by a lot');
    // Schema 2: no decision either; the record comes from its rows' statuses, the policy unknown.
    const { decision: _decision, ...undecided } = old;
    void _decision;
    const read2 = migrateReport(JSON.parse(JSON.stringify({ ...undecided, schemaVersion: 2 })) as unknown, 'report.json');
    const deciding = report.comparison!.rows.filter((r) => r.status === report.verdict).map((r) => r.metric);
    expect(deciding.length).toBeGreaterThan(0);
    expect(read2.decision.causes.map((c) => (c.kind === 'row' ? c.row : c.kind))).toEqual(deciding);
    expect(read2.decision.policy).toBeNull();
    expect(verdictLines(read2)).toEqual(verdictLines(report));
  });

  it("writes a kernel share row's sentence from the row: its display name, its shares and its fail threshold", async () => {
    const { verdictLines } = await import('../../src/report/verdict-lines.js');
    const row = { metric: `kernel:${COPY_FLOAT}`, kind: 'kernel-share' as const, unit: '% of GPU time', baseline: 0, current: 9.9, delta: 9.9, ci: null, threshold: 3, status: 'fail' as const, reading: { kind: 'share' as const, fail: 9 } };
    const report = emptyReport({ verdict: 'fail', comparison: { baseline: { origin: 'file', reason: 'test' }, rows: [row] } });
    expect(verdictLines(report)).toEqual(['kernel elementwise_kernel<direct_copy_kernel_cuda> share of GPU time 0.0% → 9.9% (+9.9 pp), at or beyond the 9 pp fail threshold']);
    // A row of a report from before rows carried their thresholds: its key, status and values.
    const { reading: _reading, ...bare } = row;
    void _reading;
    const older = emptyReport({ verdict: 'fail', comparison: { baseline: { origin: 'file', reason: 'test' }, rows: [bare] } });
    expect(verdictLines(older)).toEqual([expect.stringMatching(/^kernel:void at::native::.{0,70}… failed \(0\.0000 % of GPU time → 9\.90 % of GPU time\)$/)]);
  });
});
