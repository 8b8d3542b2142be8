/**
 * The first lines of the comment, the job summary and the terminal say where the time went per
 * decode step, in one sentence, from comparison.perStep as given (the renderers compute nothing).
 */
import type { PerStep, Report } from '../../src/model/report.js';
import { renderReportComment } from '../../src/report/markdown/comment.js';
import { renderMergedSummary, renderSummary } from '../../src/report/markdown/summary.js';
import { mergeReports } from '../../src/report/merge-reports.js';
import { renderTerminal } from '../../src/report/terminal.js';
import { makeReport, row } from './report-factory.js';

const DEQUANT = 'void dequantize_fp8_weight_kernel<__nv_bfloat16, 128>(const __nv_fp8_e4m3*, __nv_bfloat16*, int)';
const side = { steps: 8, basis: 'profiler-steps' as const, text: '8 profiler steps (ProfilerStep#1 …)', devices: 1, tokensPerStep: 16 };

function perStep(overrides: Partial<PerStep> = {}): PerStep {
  return {
    unit: 'step',
    baseline: side,
    current: side,
    families: [{ family: 'quantize', baselineNs: 0, currentNs: 1_280_000, deltaNs: 1_280_000 }],
    kernels: [
      { name: DEQUANT, family: 'quantize', baselineNs: 0, currentNs: 1_280_000, deltaNs: 1_280_000, baselineLaunches: 0, currentLaunches: 32, launchedBy: 'aten::linear > fp8::dequantize', site: 'model/quant.py:123 (forward)' },
    ],
    kernelDeltaNs: 1_280_000,
    measured: { basis: 'decode_tok_s+batch', per: 'step', baselineNs: 4_063_000, currentNs: 5_383_000, deltaNs: 1_320_000 },
    explainedShare: 1_280_000 / 1_320_000,
    notes: [],
    ...overrides,
  };
}

function withPerStep(data: PerStep): Report {
  const report = makeReport({ rows: [row({ status: 'fail' })], verdict: 'fail' });
  return { ...report, comparison: { ...report.comparison!, perStep: data } };
}

describe('where the time went, first', () => {
  it('the comment: one sentence under the heading, before the reasons, with the launching op and Python line', () => {
    const comment = renderReportComment(withPerStep(perStep()), { key: 'default' });
    const lines = comment.split('\n');
    const where = lines.findIndex((line) => line.startsWith('**Where the time went:**'));
    expect(where).toBeGreaterThan(0);
    expect(where).toBeLessThan(4);
    // 1.28 / 1.32 = 0.9697 → 97 %
    expect(lines[where]).toBe(
      '**Where the time went:** +1.28 ms/step in <code>dequantize&#95;fp8&#95;weight&#95;kernel</code> (launched from <code>fp8::dequantize / model/quant.py:123 (forward)</code>); all kernels +1.28 ms/step, which explains 97 % of the +1.32 ms/step slowdown.',
    );
    // Copyable: nothing invisible and no <wbr> inside the name.
    expect(lines[where]).not.toMatch(/[\u00ad\u200b-\u200f\u2060-\u2064\ufeff]|<wbr>/u);
  });

  it('a slowdown kernels explain little: the rest is named host or idle time', () => {
    // 0.25 ms of kernels against a 1.6 ms slowdown: 16 %, the other 1.35 ms host or idle.
    const data = perStep({
      kernels: [{ ...perStep().kernels[0]!, currentNs: 250_000, deltaNs: 250_000 }],
      kernelDeltaNs: 250_000,
      measured: { basis: 'decode_tok_s+batch', per: 'step', baselineNs: 4_000_000, currentNs: 5_600_000, deltaNs: 1_600_000 },
      explainedShare: 250_000 / 1_600_000,
    });
    expect(renderSummary(withPerStep(data))).toContain(
      'which explains 16 % of the +1.60 ms/step slowdown: the other +1.35 ms/step is host or idle time (the GPU waiting), not kernels.',
    );
  });

  it('a slowdown names the kernel that grew most, not a larger one that shrank', () => {
    const shrank = { ...perStep().kernels[0]!, name: 'nvjet_sm90_tst_128x32_64x10_4x1_v_bz_TNT', family: 'gemm-decode' as const, baselineNs: 2_000_000, currentNs: 0, deltaNs: -2_000_000, launchedBy: undefined, site: undefined };
    const data = perStep({ kernels: [shrank, ...perStep().kernels] });
    expect(renderTerminal(withPerStep(data)).split('\n')[1]).toMatch(/^ {2}where the time went: \+1\.28 ms\/step in dequantize_fp8_weight_kernel /);
  });

  it('steps unknown on a side: per launch, and it says so', () => {
    const data = perStep({ unit: 'launch', current: { ...side, steps: null, basis: null, text: 'no step evidence' }, families: [], kernelDeltaNs: null, explainedShare: null });
    const text = renderTerminal(withPerStep(data));
    expect(text.split('\n')[1]).toBe('  where the time went: +1.28 ms per launch in dequantize_fp8_weight_kernel (launched from fp8::dequantize / model/quant.py:123 (forward)); decode steps unknown on a side, so kernels are compared per launch.');
  });

  it('the terminal shows the step counts and the table of changes', () => {
    const text = renderTerminal(withPerStep(perStep()));
    expect(text).toContain('Time per step (GPU kernel time)');
    expect(text).toContain('  steps: baseline 8 (8 profiler steps (ProfilerStep#1 …))');
    expect(text).toContain('  kernels: +1.28 ms/step, 97% of the measured change');
  });

  it('no comparison time per step: no line', () => {
    const report = makeReport({ rows: [row()] });
    expect(renderReportComment(report, { key: 'default' })).not.toContain('Where the time went');
    expect(renderTerminal(report)).not.toContain('where the time went');
  });
});

describe('where the time went, in a summary of several reports', () => {
  it('each leg with time per step opens with its own sentence', () => {
    const leg = withPerStep(perStep());
    const text = renderMergedSummary(mergeReports([{ label: 'llama fp8', report: leg }, { label: 'llama bf16', report: makeReport({ rows: [row()] }) }]));
    expect(text.match(/\*\*Where the time went:\*\*/g)).toHaveLength(1);
    // Its section: the heading, then the sentence (before the reasons and the sections).
    const section = text.slice(text.search(/### .* · llama fp8/));
    const lines = section.split('\n').filter(Boolean);
    expect(lines[1]).toMatch(/^\*\*Where the time went:\*\* \+1\.28 ms\/step in /);
  });
});

describe('noise is not narrated', () => {
  it('no change in time per step: the sentence says so and names no kernel', () => {
    // An A/A job: −313 ns/step in one kernel, all kernels +143 ns/step, a −345 ns/step "speedup" the statistics call no change.
    const data = perStep({
      kernels: [{ ...perStep().kernels[0]!, baselineNs: 2_000_313, currentNs: 2_000_000, deltaNs: -313 }],
      kernelDeltaNs: 143,
      measured: { basis: 'decode_tok_s+batch', per: 'step', baselineNs: 4_063_000, currentNs: 4_062_655, deltaNs: -345 },
      explainedShare: 143 / -345,
      noChange: true,
    });
    const line = renderTerminal(withPerStep(data)).split('\n')[1]!;
    expect(line).toBe('  where the time went: no change in time per step: the measured change is not significant, and kernel time per step moved within its noise.');
    const summary = renderSummary(withPerStep(data));
    expect(summary).toContain('**Where the time went:** no change in time per step: the measured change is not significant, and kernel time per step moved within its noise.');
    // The table below still lists what moved, without a negative share.
    expect(summary).not.toMatch(/-\d+ % of the measured change|−\d+ %/);
    expect(summary).toContain('GPU kernel time per step: +143 ns, the other way from the measured change');
  });

  it('kernels that moved against the measured change: no negative share, the sentence says they do not explain it', () => {
    const data = perStep({
      kernels: [{ ...perStep().kernels[0]!, currentNs: 200_000, deltaNs: 200_000 }],
      kernelDeltaNs: 200_000,
      measured: { basis: 'decode_tok_s+batch', per: 'step', baselineNs: 4_000_000, currentNs: 3_500_000, deltaNs: -500_000 },
      explainedShare: 200_000 / -500_000,
    });
    const line = renderTerminal(withPerStep(data)).split('\n')[1]!;
    // Where the time went leads, then the kernel that moved most, never a kernel first.
    expect(line).toBe(
      '  where the time went: −500 µs/step speedup, not in kernels: all kernels +200 µs/step, the other way, so the time saved was host or idle time (the GPU waiting); most moved: +200 µs/step in dequantize_fp8_weight_kernel (launched from fp8::dequantize / model/quant.py:123 (forward)).',
    );
    expect(line).not.toMatch(/−\d+ %/);
  });

  it('a slowdown with kernels the other way (CUDA graphs turned off): the host or idle time leads, not a kernel', () => {
    // The H200 pair opt → graph_off (fixtures/h200-pairs/opt_ab): +3.52 ms/step measured, kernels −3.5 µs/step.
    const data = perStep({
      kernels: [{ ...perStep().kernels[0]!, baselineNs: 184_000, currentNs: 189_000, deltaNs: 5_000 }],
      kernelDeltaNs: -3_500,
      measured: { basis: 'decode_tok_s+batch', per: 'step', baselineNs: 2_818_000, currentNs: 6_334_000, deltaNs: 3_516_000 },
      explainedShare: -3_500 / 3_516_000,
    });
    expect(renderTerminal(withPerStep(data)).split('\n')[1]).toBe(
      '  where the time went: +3.52 ms/step slowdown, not in kernels: all kernels −3.5 µs/step, the other way, so the time went to host or idle time (the GPU waiting); most moved: +5.0 µs/step in dequantize_fp8_weight_kernel (launched from fp8::dequantize / model/quant.py:123 (forward)).',
    );
  });
});
