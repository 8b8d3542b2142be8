/**
 * What a Kineto trace says about its forward passes: the activation shapes of its outermost matmul
 * ops (record_shapes) in order of first use, and annotations that name prefill or decode. Expected
 * values: __tests__/fixtures/decode-windows/PROVENANCE.md (Python on the raw traces).
 */
import { join } from 'node:path';
import { ingestFile } from '../../src/ingest/registry.js';
import { GenerationFacts, MAX_SHAPES, phaseOfName } from '../../src/ingest/formats/kineto/generation-facts.js';
import type { Capture } from '../../src/model/capture.js';

const windows = (name: string): string =>
  name.startsWith('tracelens_') ? join('__tests__', 'fixtures', 'external-3', 'kineto', name) : join('__tests__', 'fixtures', 'decode-windows', name);
/** [op, rows as 8x512, ops] in order of first use. */
const shapesOf = (capture: Capture) => capture.timeline!.matmulInputs!.shapes.map((s) => [s.op, s.rows.join('x'), s.ops]);

describe('Kineto matmul input shapes (record_shapes)', () => {
  it('generate(use_cache=False): 12 passes of 28 linears, 8x512 … 8x523, each after the previous one', async () => {
    const capture = await ingestFile(windows('hf_generate_nocache_bs8_512.trace.json.gz'));
    const passes = Array.from({ length: 11 }, (_, i) => ['aten::linear', `8x${513 + i}`, 28]);
    expect(shapesOf(capture)).toEqual([['aten::matmul', '8x32', 12], ['aten::linear', '8x512', 28], ['aten::linear', '8x1', 12], ...passes]);
    const growing = capture.timeline!.matmulInputs!.shapes.filter((s) => s.ops === 28);
    for (let i = 1; i < growing.length; i++) expect(growing[i - 1]!.lastNs).toBeLessThan(growing[i]!.firstNs);
    expect(capture.timeline!.matmulInputs!.otherOps).toBe(0);
  });

  it('generate with its KV cache: the prompt once, then one-token rows', async () => {
    const capture = await ingestFile(windows('hf_generate_cache_bs8_512.trace.json.gz'));
    expect(shapesOf(capture)).toEqual([['aten::matmul', '8x32', 12], ['aten::linear', '8x512', 28], ['aten::linear', '8x1', 320]]);
  });

  it.each([
    ['prefill_bs15_1024.trace.json.gz', [['aten::matmul', '1x64', 1], ['aten::linear', '15x1024', 57]]],
    ['compiled_forward_bs4_256.trace.json.gz', [['aten::mm', '1024', 28], ['aten::mm', '32', 1]]],
    ['dit_step_bs2_64x64.trace.json.gz', [['aten::linear', '2', 14], ['aten::linear', '2x1024', 49]]],
    ['tracelens_mi300x_sglang_qwen3_8b_extend_bs15.json.gz', [['aten::linear', '15360', 144], ['aten::matmul', '15', 1]]],
  ])('%s: one pass, only the outermost op of each matmul', async (file, expected) => {
    expect(shapesOf(await ingestFile(windows(file)))).toEqual(expected);
  });

  it('a trace without record_shapes has none', async () => {
    const capture = await ingestFile(join('__tests__', 'fixtures', 'kineto', 'reprefill_nocache.trace.json.gz'));
    expect(capture.timeline!.matmulInputs).toBeUndefined();
  });

  it(`keeps at most ${MAX_SHAPES} distinct shapes and counts the ops of the rest`, () => {
    const facts = new GenerationFacts();
    for (let step = 0; step < MAX_SHAPES + 100; step++) for (let op = 0; op < 3; op++) facts.matmul('aten::linear', [1, 100 + step], step * 10 + op);
    const inputs = facts.matmulInputs()!;
    expect(inputs.shapes).toHaveLength(MAX_SHAPES);
    expect(inputs.shapes.at(-1)).toEqual({ op: 'aten::linear', rows: [1, 100 + MAX_SHAPES - 1], ops: 3, firstNs: (MAX_SHAPES - 1) * 10, lastNs: (MAX_SHAPES - 1) * 10 + 2 });
    expect(inputs.otherOps).toBe(300);
  });
});

describe('annotations that name a generation phase', () => {
  it.each([
    ['step[EXTEND bs=15 toks=15360]', 'prefill'],
    ['execute_15360_context_15(sq15360sk15360sqsq15728640sqsk15728640)_generation_0(sq0sk0sqsq0sqsk0)', 'prefill'],
    ['execute_32_context_0(sq0sk0sqsq0sqsk0)_generation_32(sq32sk4096sqsq32sqsk131072)', 'decode'],
    ['step[DECODE bs=32]', 'decode'],
    ['prefill', 'prefill'],
    ['vae_decode', undefined], // an image decoder, no token decode
    ['ProfilerStep#3', undefined],
    ['## Call CompiledFxGraph f3yrzjziebey5nyapidah4dse76s7hdb3buwhgadgdp6basx6jyj ##', undefined],
  ])('%s → %s', (name, phase) => {
    expect(phaseOfName(name)).toBe(phase);
  });

  it('SGLang extend step: both of its ranges name prefill, none decode', async () => {
    const capture = await ingestFile(windows('tracelens_mi300x_sglang_qwen3_8b_extend_bs15.json.gz'));
    expect(capture.timeline!.phaseRanges).toEqual({
      decode: 0,
      prefill: 2,
      prefillName: 'execute_15360_context_15(sq15360sk15360sqsq15728640sqsk15728640)_generation_0(sq0sk0sqsq0sqsk0)',
    });
  });

  it('a trace whose annotations name no phase has none', async () => {
    expect((await ingestFile(windows('compiled_forward_bs4_256.trace.json.gz'))).timeline!.phaseRanges).toBeUndefined();
  });
});
