/**
 * Three intended optimizations measured on the H200 (fixtures/h200-pairs/opt_ab, PROVENANCE.md), each
 * base against the same optimized head, all captured the same way (PyTorch profiler over 8 steps, 5
 * timed runs of 64 steps at batch 8). Each optimization passes with improved rows and no warning; the
 * same pair the other way round (the optimization undone) fails. Expected changes come from the run
 * lines of the fixtures, read here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyze } from '../../src/pipeline/analyze.js';
import type { Report } from '../../src/model/report.js';

const DIR = join(import.meta.dirname, '..', 'fixtures', 'h200-pairs', 'opt_ab');
const inputs = (name: string) => [join(DIR, `${name}.trace.json.gz`), join(DIR, `${name}.stdout.jsonl`)];

/** The median tok/s of a capture's timed runs, from its own run lines. */
function medianTokS(name: string): number {
  const runs = readFileSync(join(DIR, `${name}.stdout.jsonl`), 'utf8')
    .split('\n')
    .filter((line) => line.includes('"kind": "run"'))
    .map((line) => (JSON.parse(line) as { tok_s: number }).tok_s)
    .sort((a, b) => a - b);
  return runs[(runs.length - 1) >> 1]!;
}

const PAIRS = [
  { name: 'SDPA in place of matmul + softmax with repeated KV heads', base: 'attn_unfused', kernelsFaster: true },
  { name: 'a fused RMSNorm in place of one written in plain ops', base: 'norm_unfused', kernelsFaster: true },
  // The same kernels either way (21,312 µs against 21,340 µs over the 8 steps): the graph saves launch time, not GPU time.
  { name: 'each decode step replayed from one CUDA graph', base: 'graph_off', kernelsFaster: false },
];

describe.each(PAIRS)('$name (H200)', ({ base, kernelsFaster }) => {
  let forward: Report;
  let undone: Report;
  beforeAll(async () => {
    const baseReport = await analyze({ inputs: inputs(base) });
    const optReport = await analyze({ inputs: inputs('opt') });
    forward = await analyze({ inputs: inputs('opt'), baseline: { report: baseReport, origin: 'file', reason: 'test' } });
    undone = await analyze({ inputs: inputs(base), baseline: { report: optReport, origin: 'file', reason: 'test' } });
  }, 120_000);

  it('passes: decode faster by what the run lines say, improved rows, no warning', () => {
    expect(forward.verdict).toBe('pass');
    const rows = forward.comparison!.rows;
    expect(rows.filter((r) => r.status === 'warn' || r.status === 'fail' || r.status === 'insufficient-data')).toEqual([]);
    expect(rows.find((r) => r.metric === 'decode_tok_s')!.status).toBe('improved');
    expect(rows.some((r) => r.kind === 'kernel-time' && r.status === 'improved')).toBe(kernelsFaster);
    // Step time from the medians at batch 8: 8 / tok/s.
    const expected = (8 / medianTokS('opt') - 8 / medianTokS(base)) * 1e9;
    expect(expected).toBeLessThan(0);
    const measured = forward.comparison!.perStep!.measured!;
    expect(measured.per).toBe('step');
    expect(measured.deltaNs / expected).toBeGreaterThan(0.97);
    expect(measured.deltaNs / expected).toBeLessThan(1.03);
  });

  it('the optimization undone fails', () => {
    expect(undone.verdict).toBe('fail');
    expect(undone.comparison!.rows.find((r) => r.metric === 'decode_tok_s')!.status).toBe('fail');
  });
});
