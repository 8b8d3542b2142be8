/**
 * Two nsys runs in one console file, as users paste them: Markdown headings, each run's `nsys stats`
 * output in a fence. The runs are real: the stdout of `nsys stats --report cuda_gpu_kern_sum,cuda_api_sum
 * --format csv` of two H200 captures (fixtures/h200-captures: the CUDA-graph decode with a static KV
 * cache, and the no-KV-cache variant), byte-exact; only the headings and fences are added here.
 * Expected totals were summed with Python's csv module over each raw file (and agree with the
 * captures' PROVENANCE.md): healthy_node 23 kernels, 13,696 launches, 79,939,122 ns, cuda_api_sum 4
 * rows, 66 calls; nokv_node 15 kernels, 5,488 launches, 95,479,511 ns, cuda_api_sum 4 rows, 34 calls.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ingestFileRuns } from '../../src/ingest/registry.js';
import { analyze } from '../../src/pipeline/analyze.js';
import { writeTempFile } from '../ingest/profiler-temp-file.js';

const h200 = (path: string) => readFileSync(join(import.meta.dirname, '..', 'fixtures', 'h200-captures', path), 'utf8').trimEnd();
const HEALTHY = h200('healthy_decode/healthy_node.stats_kern_api.csv');
const NOKV = h200('reprefill_nokv/nokv_node.stats_kern_api.csv');
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

const text = ['# static KV cache, CUDA graph', '', '```', HEALTHY, '```', '', '# no KV cache', '', '```', NOKV, '```', ''].join('\n');
const secondHeading = text.split('\n').indexOf('# no KV cache') + 1;

describe('two nsys runs in one Markdown console file', () => {
  let path: string;
  beforeAll(() => {
    path = writeTempFile('two-runs.md', text);
  });

  it('reads each run as its own capture with its own kernel and API totals', async () => {
    const runs = await ingestFileRuns(path);
    expect(runs.map((r) => [r.source.format, r.source.run])).toEqual([
      ['nsys-stats', 1],
      ['nsys-stats', 2],
    ]);
    const [first, second] = runs as [(typeof runs)[0], (typeof runs)[0]];
    expect(first.kernels).toHaveLength(23);
    expect(sum(first.kernels.map((k) => k.totalNs))).toBe(79_939_122);
    expect(sum(first.kernels.map((k) => k.instances))).toBe(13_696);
    expect(sum(first.apiCalls.map((a) => a.calls))).toBe(66);
    expect(second.kernels).toHaveLength(15);
    expect(sum(second.kernels.map((k) => k.totalNs))).toBe(95_479_511);
    expect(sum(second.kernels.map((k) => k.instances))).toBe(5_488);
    expect(sum(second.apiCalls.map((a) => a.calls))).toBe(34);
    expect(first.notices[0]).toMatchObject({ code: 'nsys-runs-in-file', message: expect.stringContaining(`line ${secondHeading} ("# no KV cache")`) });
  });

  it('analyzes the file as two inputs: each run counted once, the report naming both', async () => {
    const report = await analyze({ inputs: [path] });
    expect(report.sources.map((s) => s.run)).toEqual([1, 2]);
    expect(report.totalKernelNs).toBe(79_939_122 + 95_479_511);
    expect(sum(report.kernels.map((k) => k.instances))).toBe(13_696 + 5_488);
    expect(report.notices.find((n) => n.code === 'kernels-summed')?.message).toBe(`kernel times from 2 inputs were summed (${path} run 1, ${path} run 2)`);
  });
});

/**
 * A real CI log of two `nsys profile --stats=true` runs (fixtures/h100-patterns, PROVENANCE.md there):
 * llama_decode.py with 4 layers, batch 1 then batch 8, each after a Markdown heading, with the
 * workload's JSON lines and nsys's progress output as the log holds them. One of the workload's lines
 * was written into a kernel row of run 1 (line 48), whose end follows on line 49. Totals summed with
 * Python over the two column-layout cuda_gpu_kern_sum tables (headers on lines 38 and 117), that row
 * joined: run 1 22 rows, 928 launches, 6,853,657 ns; run 2 21 rows, 928 launches, 7,389,328 ns. The
 * column layout cuts names at 100 characters (`…`): run 1's rows hold 20 distinct printed names, run 2's 18.
 */
describe('a CI log of two nsys profile --stats=true runs (H100)', () => {
  const LOG = join(import.meta.dirname, '..', 'fixtures', 'h100-patterns', 'two_runs_stats.console.md');

  it('reads each run with its own kernel total, the row cut by a workload line joined', async () => {
    const [first, second, ...rest] = await ingestFileRuns(LOG);
    expect(rest).toHaveLength(0);
    expect([first!.kernels.length, sum(first!.kernels.map((k) => k.instances)), sum(first!.kernels.map((k) => k.totalNs))]).toEqual([20, 928, 6_853_657]);
    expect([second!.kernels.length, sum(second!.kernels.map((k) => k.instances)), sum(second!.kernels.map((k) => k.totalNs))]).toEqual([18, 928, 7_389_328]);
    expect(first!.kernels.find((k) => k.name.includes('CUDAFunctor_add'))).toMatchObject({ totalNs: 151_360, instances: 128, minNs: 960, maxNs: 1_664 });
    expect(first!.notices.map((n) => n.code)).toEqual(expect.arrayContaining(['nsys-runs-in-file', 'nsys-columns-realigned', 'workload-lines-not-read']));
    expect(first!.notices.find((n) => n.code === 'nsys-runs-in-file')?.message).toContain('line 80 ("## nsys profile --stats=true, batch 8")');
    expect(first!.notices.find((n) => n.code === 'nsys-columns-realigned')?.message).toContain('line 48 holds another output');
  });

  it('analyzes the log as two runs, never one table of both', async () => {
    const report = await analyze({ inputs: [LOG] });
    expect(report.sources.map((s) => [s.format, s.run])).toEqual([
      ['nsys-stats', 1],
      ['nsys-stats', 2],
    ]);
    expect(report.totalKernelNs).toBe(6_853_657 + 7_389_328);
  });
});
