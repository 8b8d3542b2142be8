/**
 * The renderers format what analysis handed them: a deep dive sits under the row analysis matched it
 * to with the findings analysis named, whatever the names say.
 */
import { join } from 'node:path';
import { analyze } from '../../../src/pipeline/analyze.js';
import { renderSummary } from '../../../src/report/markdown/summary.js';
import { fixturePath } from '../../diagnose/ncu-captures.js';
import { makeReport, row } from '../report-factory.js';

const DURATION = { section: 'GPU Speed Of Light Throughput', name: 'Duration', unit: 'ns', value: 5000 };

describe('deep dives as analysis matched them', () => {
  it('puts a deep dive under the row analysis matched it to, with the findings analysis named', () => {
    const base = makeReport({ kernels: 3, kernelName: (i) => `kernel_${i}` });
    // A name no matcher would tie to kernel_1: only the match says where it goes.
    const report = {
      ...base,
      deepDive: [{ id: 0, kernel: 'ncu spells it otherwise', metrics: [DURATION], rules: [] }],
      deepDives: [{ kernel: 'kernel_1', result: 0, launches: 1, findings: ['grid-too-small'] }],
    };
    const lines = renderSummary(report).replace(/<wbr>/g, '').split('\n');
    const row = lines.findIndex((l) => l.startsWith('|') && l.includes('kernel&#95;1'));
    expect(row).toBeGreaterThan(0);
    expect(lines[row + 1]).toMatch(/deep dive \| ↳ Nsight Compute, 1 launch: 5\\\.00 µs → findings: grid\\-too\\-small \|$/);
    expect(lines.join('\n')).not.toContain('Deep dive (Nsight Compute)');
  });

  it('lists a dive analysis matched to no row below the table', () => {
    const base = makeReport({ kernels: 3, kernelName: (i) => `kernel_${i}` });
    const report = {
      ...base,
      deepDive: [{ id: 0, kernel: 'kernel_1', metrics: [DURATION], rules: [] }],
      deepDives: [{ kernel: 'only_in_ncu', result: 0, launches: 2, findings: [] }],
    };
    const md = renderSummary(report);
    expect(md).toContain('Deep dive (Nsight Compute)');
    expect(md.replace(/<wbr>/g, '')).toMatch(/- <code>only&#95;in&#95;ncu<\/code>: Nsight Compute, 2 launches: 5\\\.00 µs/);
  });

  it('analysis matches the real H200 ncu launch to the nsys row that spells the kernel otherwise', async () => {
    const kernSum = join(import.meta.dirname, '..', '..', 'fixtures', 'h200-captures', 'gqa_repeat_kv', 'gqa_cuda_gpu_kern_sum.csv');
    const report = await analyze({ inputs: [kernSum, fixturePath('gqaCopy')] });
    expect(report.deepDive[0]!.kernel).not.toBe(report.kernels[0]!.name);
    expect(report.deepDives).toEqual([{ kernel: report.kernels[0]!.name, result: 0, launches: 1, findings: ['copy-heavy', 'kernel-compute-bound'] }]);
  });
});

describe('metrics as analysis left them', () => {
  // The metric's line of the metrics table (the comparison table has one of that name too).
  const cell = (md: string): string => {
    const lines = md.split('\n');
    const header = lines.findIndex((l) => l.startsWith('| metric | median |'));
    return lines.slice(header).find((l) => l.startsWith('| Decode throughput |'))!;
  };

  it('shows the interval analysis put on the metric', () => {
    const base = makeReport({ decodeSamples: [101, 99, 100, 102, 98] });
    const report = { ...base, metrics: base.metrics.map((m) => ({ ...m, ci: [97, 103] as [number, number] })) };
    expect(cell(renderSummary(report))).toBe('| Decode throughput | 100 tok/s | 97 … 103 tok/s | 5 |');
  });

  it('takes the runs a comparison left out from its row', () => {
    // The row's word decides, not its count against the samples: one that says it left nothing out shows the metric's own median.
    const base = makeReport({ decodeSamples: [250, 338.5, 338.6, 338.7, 338.8, 338.9], rows: [row({ current: 338.7, samples: [6, 5], leftOut: [0, 0] })] });
    expect(cell(renderSummary(base))).toBe('| Decode throughput | 338.7 tok/s | 250 … 338.9 tok/s | 6 |');
    const dropped = { ...base, comparison: { ...base.comparison!, rows: [row({ current: 338.7, samples: [6, 5], leftOut: [0, 1] })] } };
    expect(cell(renderSummary(dropped))).toBe('| Decode throughput | 338.7 tok/s | — (see the comparison) | 5 of 6 |');
  });

  it('analysis writes the interval of each median and what each metric row left out', async () => {
    const samples = join(import.meta.dirname, '..', '..', '..', 'samples');
    const { expandInputs } = await import('../../../src/io/input-paths.js');
    const baseline = await analyze({ inputs: await expandInputs([join(samples, 'baseline')]) });
    const report = await analyze({ inputs: await expandInputs([join(samples, 'current')]), baseline: { report: baseline, origin: 'file', reason: 'test' } });
    expect(report.metrics.length).toBeGreaterThan(0);
    for (const metric of report.metrics) expect(metric.ci === null || (metric.ci![0] <= metric.value && metric.value <= metric.ci![1])).toBe(true);
    const rows = report.comparison!.rows.filter((r) => r.kind === 'metric' && r.samples);
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      const metric = report.metrics.find((m) => m.name === r.metric)!;
      expect(r.samples![1] + r.leftOut![1]).toBe(metric.samples.length);
    }
  });
});

describe('comparison rows by the subject analysis named', () => {
  it('labels a row by its subject, not by splitting its key', () => {
    // Keys that no longer spell the subject: the label follows the subject.
    const rows = [
      row({ metric: 'share-of-k1', kind: 'kernel-share', unit: '% of GPU time', baseline: 10, current: 30, delta: 20, ci: null, threshold: 5, status: 'fail', subject: { type: 'kernel', id: 'kernel_1' } }),
      row({ metric: 'time-of-gemv', kind: 'kernel-time', unit: 'ms/step', baseline: 1, current: 3, delta: 2, ci: null, threshold: 1, status: 'fail', subject: { type: 'family', id: 'gemv' } }),
    ];
    const md = renderSummary(makeReport({ verdict: 'fail', rows })).replace(/<wbr>/g, '');
    expect(md).toContain('| kernel <code>kernel&#95;1</code> |');
    expect(md).toMatch(/\| time per step, family: [^|]*GEMV[^|]* \|/i);
    expect(md).not.toContain('share-of-k1');
  });

  it('the gate names the subject of each share, time and finding row', async () => {
    const samples = join(import.meta.dirname, '..', '..', '..', 'samples');
    const { expandInputs } = await import('../../../src/io/input-paths.js');
    const baseline = await analyze({ inputs: await expandInputs([join(samples, 'baseline')]) });
    const report = await analyze({ inputs: await expandInputs([join(samples, 'current')]), baseline: { report: baseline, origin: 'file', reason: 'test' } });
    const rows = report.comparison!.rows;
    expect(rows.filter((r) => r.kind !== 'metric').length).toBeGreaterThan(0);
    for (const r of rows) {
      if (r.kind === 'metric') expect(r.subject).toBeUndefined();
      else expect(`${r.kind === 'kernel-time' ? 'kernel-time:' : ''}${r.subject!.type}:${r.subject!.id}`).toBe(r.metric);
    }
  });
});
