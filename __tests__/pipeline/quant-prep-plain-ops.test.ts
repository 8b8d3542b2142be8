/**
 * A quantize written as plain PyTorch ops, read through the whole engine from a Kineto trace: the
 * kernels' names say nothing of quantizing; the cpu_op each was launched from (its External id)
 * does. The trace is written here, event by event, in the shape the PyTorch profiler writes (ops
 * first, then the kernels with the op's External id): no H200 capture of such a decode exists yet.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyze } from '../../src/pipeline/analyze.js';
import type { Report } from '../../src/model/report.js';

const INT8_GEMM = 'void cutlass::Kernel2<cutlass_80_tensorop_i16832gemm_s8_64x64_64x6_tn_align16>(cutlass_80_tensorop_i16832gemm_s8_64x64_64x6_tn_align16::Params)';
const BF16_GEMM = 'nvjet_sm90_tst_64x8_64x16_4x1_v_bz_TNT';
const elementwise = (functor: string) => `void at::native::vectorized_elementwise_kernel<4, ${functor}, std::array<char*, 2ul> >(int, ${functor}, std::array<char*, 2ul>)`;
const KERNELS: Record<string, string> = {
  'aten::abs': elementwise('at::native::abs_kernel_cuda(at::TensorIteratorBase&)::{lambda()#1}::operator()() const::{lambda()#7}::operator()() const::{lambda(c10::BFloat16)#1}'),
  'aten::amax': 'void at::native::reduce_kernel<512, 1, at::native::ReduceOp<c10::BFloat16, at::native::func_wrapper_t<c10::BFloat16, at::native::MaxNanFunctor<float> >, unsigned int, c10::BFloat16, 4, 4> >(at::native::ReduceOp<c10::BFloat16, at::native::func_wrapper_t<c10::BFloat16, at::native::MaxNanFunctor<float> >, unsigned int, c10::BFloat16, 4, 4>)',
  'aten::div': elementwise('at::native::BinaryFunctor<float, float, float, at::native::binary_internal::DivFunctor<float> >'),
  'aten::round': elementwise('at::native::round_kernel_cuda(at::TensorIteratorBase&)::{lambda()#1}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}'),
  'aten::clamp': elementwise('at::native::(anonymous namespace)::clamp_scalar_kernel_impl(at::TensorIteratorBase&, c10::Scalar const&, c10::Scalar const&)::{lambda()#1}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}'),
  'aten::_int_mm': INT8_GEMM,
  'aten::mul': elementwise('at::native::AUnaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> >'),
};

/**
 * One linear layer per step, W8A8 as llama_decode.py --linear int8 writes it: x.abs().amax(-1),
 * div, round, clamp, torch._int_mm, then the rescale (mul). Kernel µs per op; the quantize's
 * kernels (2 + 3 + 2 + 2 + 2 = 11 µs) outweigh the int8 GEMM (8 µs). Or, with `bf16`, the same
 * elementwise ops around a bf16 matmul (aten::linear > aten::mm).
 */
function trace(steps: number, matmul: 'int8' | 'bf16'): string {
  const events: string[] = [];
  let id = 1;
  let cpu = 0;
  let gpu = 1_000_000;
  const ops: Array<[string, number]> = [['aten::abs', 2], ['aten::amax', 3], ['aten::div', 2], ['aten::round', 2], ['aten::clamp', 2], ['aten::_int_mm', 8], ['aten::mul', 1]];
  for (let step = 0; step < steps; step++) {
    for (const [op, us] of ops) {
      const bf16 = matmul === 'bf16' && op === 'aten::_int_mm';
      const launches: Array<[string, string]> = bf16 ? [['aten::linear', ''], ['aten::mm', BF16_GEMM]] : [[op, KERNELS[op]!]];
      // A parent op encloses its child by time on the thread (aten::linear > aten::mm).
      const start = cpu;
      launches.forEach(([name], depth) => {
        events.push(`{"ph": "X", "cat": "cpu_op", "name": "${name}", "pid": 1, "tid": 1, "ts": ${start + depth}, "dur": ${20 - 2 * depth}, "args": {"External id": ${id + depth}}}`);
      });
      const [, kernel] = launches[launches.length - 1]!;
      const external = id + launches.length - 1;
      events.push(`{"ph": "X", "cat": "kernel", "name": ${JSON.stringify(kernel)}, "pid": 0, "tid": 7, "ts": ${gpu}, "dur": ${us}, "args": {"External id": ${external}, "correlation": ${100_000 + external}, "device": 0, "stream": 7}}`);
      id += launches.length;
      cpu += 25;
      gpu += us + 1;
    }
  }
  const path = join(mkdtempSync(join(tmpdir(), 'quant-prep-')), 'w8a8.trace.json');
  writeFileSync(path, `{"traceEvents": [${events.join(',\n')}]}`);
  return path;
}

describe('W8A8 decode whose per-token quantize is written as plain ops (Kineto, with CPU ops)', () => {
  let report: Report;
  beforeAll(async () => {
    report = await analyze({ inputs: [trace(50, 'int8')] });
  });

  it('reads the CUTLASS int8 GEMM that torch._int_mm launched as a low-bit GEMM', () => {
    const gemm = report.kernels.find((k) => k.name === INT8_GEMM)!;
    expect(gemm.family).toBe('lowbit-gemm');
    expect(gemm.launchedBy).toBe('aten::_int_mm');
  });

  it('warns that the quantize (abs, amax, div, round, clamp: 11 of 20 µs a step) costs 1.375x the int8 GEMMs, naming its op chains', () => {
    const finding = report.findings.find((f) => f.id === 'quant-prep-heavy')!;
    expect(finding).toBeDefined();
    expect(finding.severity).toBe('warning');
    expect(finding.evidence).toMatchObject({ matmulFamily: 'lowbit-gemm', fedBy: 'aten::_int_mm', quantizeLaunches: 250 });
    expect(finding.evidence.quantizeShare).toBeCloseTo(11 / 20, 4);
    expect(finding.evidence.plainOpShare).toBeCloseTo(11 / 20, 4);
    expect(finding.evidence.quantizeToMatmulRatio).toBeCloseTo(11 / 8, 4);
    expect(String(finding.evidence.plainOpChains).split('; ').map((c) => c.replace(/ \(.*\)$/, '')).sort()).toEqual(['aten::abs', 'aten::amax', 'aten::clamp', 'aten::div', 'aten::round']);
    expect(finding.message).toContain('feeding aten::_int_mm');
    expect(finding.kernel).toBe(KERNELS['aten::amax']);
  });
});

describe('the same elementwise ops beside a bf16 matmul', () => {
  it('are not quantize prep: nothing takes low-bit inputs', async () => {
    const report = await analyze({ inputs: [trace(50, 'bf16')] });
    expect(report.kernels.find((k) => k.name === BF16_GEMM)!.launchedBy).toBe('aten::linear > aten::mm');
    expect(report.findings.map((f) => f.id)).not.toContain('quant-prep-heavy');
  });
});
