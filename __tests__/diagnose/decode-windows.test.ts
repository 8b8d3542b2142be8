/**
 * re-prefill needs decode: real windows read through the whole engine (ingest → classify →
 * diagnose). A prefill step, one compiled forward pass, one diffusion step and an SGLang extend step
 * hold no decode step and get no re-prefill at any severity; transformers generate without its KV
 * cache shows its linear inputs growing a token per step and gets re-prefill as an error that leads
 * the findings; the same generate with its cache gets none. Expected readings: the fixtures'
 * PROVENANCE.md (Python on the raw traces).
 */
import { join } from 'node:path';
import type { Report } from '../../src/model/report.js';
import { analyzedOnce } from '../helpers/shared-analysis.js';

const fixture = (name: string) =>
  name.startsWith('tracelens_') ? join(import.meta.dirname, '..', 'fixtures', 'external-3', 'kineto', name) : join(import.meta.dirname, '..', 'fixtures', 'decode-windows', name);
const ids = (report: Report) => report.findings.map((f) => f.id);

describe.each([
  ['one prefill forward, batch 15 × 1024 (H200)', 'prefill_bs15_1024.trace.json.gz'],
  ['one torch.compile forward pass (H200)', 'compiled_forward_bs4_256.trace.json.gz'],
  ['one DiT denoising step (H200)', 'dit_step_bs2_64x64.trace.json.gz'],
  ['an SGLang extend step, 15 × 1024 tokens (MI300X)', 'tracelens_mi300x_sglang_qwen3_8b_extend_bs15.json.gz'],
  ['transformers generate with its KV cache, batch 8 (H200)', 'hf_generate_cache_bs8_512.trace.json.gz'],
])('%s', (_name, file) => {
  it('gets no re-prefill at any severity', async () => {
    const report = await analyzedOnce([fixture(file)]);
    expect(report.families.length).toBeGreaterThan(0);
    expect(ids(report)).not.toContain('re-prefill');
  });
});

describe('transformers generate(use_cache=False), batch 8, 512-token prompts, 12 new tokens (H200)', () => {
  let report: Report;
  beforeAll(async () => {
    report = await analyzedOnce([fixture('hf_generate_nocache_bs8_512.trace.json.gz')]);
  });

  it('is re-prefill, an error, and the first finding (above host-bound)', () => {
    expect(report.findings[0]).toMatchObject({ id: 're-prefill', severity: 'error', secondary: false });
    expect(ids(report).filter((id) => id === 're-prefill')).toHaveLength(1);
  });

  it('shows what decided it: the linear inputs grow 8×512 → 8×523 over 12 steps', () => {
    const finding = report.findings.find((f) => f.id === 're-prefill')!;
    expect(finding.evidence).toMatchObject({
      decodeEvidence: 'growing-inputs+sampling',
      growingOp: 'aten::linear',
      inputsFirst: '8×512',
      inputsLast: '8×523',
      growingSteps: 12,
      rowsPerStep: 1,
      samplingLaunches: 12,
      confirmed: true,
    });
    expect(finding.message).toMatch(/aten::linear inputs grow 8×512 → 8×523 over 12 steps/);
  });
});

describe('the SGLang extend step is read as its trace names it', () => {
  it('ranges name prefill only; one sampling launch', async () => {
    const report = await analyzedOnce([fixture('tracelens_mi300x_sglang_qwen3_8b_extend_bs15.json.gz')]);
    expect(report.timeline?.phaseRanges).toEqual({ decode: 0, prefill: 2, prefillName: expect.stringMatching(/^execute_15360_context_15\(/) });
    expect(report.kernels.filter((k) => k.family === 'sampling').map((k) => k.instances)).toEqual([1]);
  });
});
