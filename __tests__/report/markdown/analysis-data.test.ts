/**
 * The renderers format what analysis handed them: a deep dive sits under the row analysis matched it
 * to with the findings analysis named, whatever the names say.
 */
import { join } from 'node:path';
import { analyze } from '../../../src/pipeline/analyze.js';
import { renderSummary } from '../../../src/report/markdown/summary.js';
import { fixturePath } from '../../diagnose/ncu-captures.js';
import { makeReport } from '../report-factory.js';

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
    expect(lines[row + 1]).toMatch(/deep dive \| ↳ Nsight Compute, 1 launch: 5\\\.00 us → findings: grid\\-too\\-small \|$/);
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
    expect(md.replace(/<wbr>/g, '')).toMatch(/- <code>only&#95;in&#95;ncu<\/code>: Nsight Compute, 2 launches: 5\\\.00 us/);
  });

  it('analysis matches the real H200 ncu launch to the nsys row that spells the kernel otherwise', async () => {
    const kernSum = join(import.meta.dirname, '..', '..', 'fixtures', 'h200-captures', 'gqa_repeat_kv', 'gqa_cuda_gpu_kern_sum.csv');
    const report = await analyze({ inputs: [kernSum, fixturePath('gqaCopy')] });
    expect(report.deepDive[0]!.kernel).not.toBe(report.kernels[0]!.name);
    expect(report.deepDives).toEqual([{ kernel: report.kernels[0]!.name, result: 0, launches: 1, findings: ['copy-heavy', 'kernel-compute-bound'] }]);
  });
});
