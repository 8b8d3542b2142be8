/**
 * A real W8A8 decode on the H200 (__tests__/fixtures/h200-w8a8): the activation quantize, written in plain
 * PyTorch ops, costs more than the int8 GEMMs it feeds. Expected values from the trace's own kernel
 * events and the profiler's table (PROVENANCE.md), not from the product.
 */
import { join } from 'node:path';
import { REPO } from '../runner/stand-ins.js';
import { analyzedOnce } from '../helpers/shared-analysis.js';

const DIR = join(REPO, '__tests__', 'fixtures', 'h200-w8a8');

describe('W8A8 decode with a plain-op per-token quantize (H200)', () => {
  it('warns that the quantize outweighs the int8 GEMMs it feeds, naming the ops and the matmul', async () => {
    const report = await analyzedOnce([join(DIR, 'w8a8_int8.trace.json.gz')]);
    const lowbit = report.families.find((f) => f.family === 'lowbit-gemm')!;
    // 631.5 of 3,484.6 µs of kernel time in cutlass_80_tensorop_i16832gemm_s8.
    expect(lowbit.share).toBeCloseTo(631.5 / 3484.6, 3);
    const prep = report.findings.find((f) => f.id === 'quant-prep-heavy')!;
    expect(prep.severity).toBe('warning');
    expect(prep.evidence['fedBy']).toBe('aten::_int_mm');
    expect(prep.evidence['matmulFamily']).toBe('lowbit-gemm');
    expect(prep.evidence['quantizeToMatmulRatio'] as number).toBeGreaterThan(1);
    expect(String(prep.evidence['plainOpChains'])).toMatch(/per_token_quant_int8: aten::amax/);
  });

  it('its bf16 twin has no quantize prep', async () => {
    const report = await analyzedOnce([join(DIR, 'w8a8_bf16.trace.json.gz')]);
    expect(report.findings.map((f) => f.id)).not.toContain('quant-prep-heavy');
    expect(report.families.find((f) => f.family === 'lowbit-gemm')).toBeUndefined();
  });
});
