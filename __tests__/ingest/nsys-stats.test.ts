import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InputError } from '../../src/errors.js';
import { runImporter, runImporterRuns } from '../../src/ingest/common/importer.js';
import { openInput } from '../../src/ingest/common/input-file.js';
import nsysStats from '../../src/ingest/formats/nsys-stats.js';
import nsysGpuTimeUtil from '../../src/ingest/formats/nsys-gpu-time-util.js';
import rocprofCsv from '../../src/ingest/formats/rocprof-csv.js';
import { writeTempFile } from './profiler-temp-file.js';
import { dashedSpans } from '../../src/ingest/common/text-tables.js';

const dir = fileURLToPath(new URL('../fixtures/nsys/', import.meta.url));
const fixture = (name: string) => join(dir, name);
const read = async (path: string) => runImporter(nsysStats, await openInput(path));
const readRuns = async (path: string) => runImporterRuns(nsysStats, await openInput(path));
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const top = <T extends { totalNs: number }>(rows: T[]) => [...rows].sort((a, b) => b.totalNs - a.totalNs)[0]!;

/*
 * Expected numbers below were computed independently of the importer with Python's csv module over
 * the raw files: rows of the CSV table (after the non-CSV status lines), grouped by the last column
 * (Name/Operation), summing "Total Time (ns)" and "Instances"/"Num Calls":
 *   python3 -c "import csv; r=list(csv.reader(open(F).read().splitlines()[k:])); ..."
 */
describe('nsys-stats on real CSV captures', () => {
  test.each([
    // file, kernels, total ns, instances, top kernel, top total ns
    ['nsys_healthy_kern_sum.csv', 22, 42_646_026, 5_536, 'nvjet_sm90_tst_256x8_64x6_4x1_v_bz_NNT', 12_183_455],
    ['nsys_hf_hostbound_kern_sum.csv', 60, 23_957_091, 11_762, 'nvjet_sm90_tst_8x64_64x16_2x1_v_bz_TNN', 3_480_044],
    [
      'dsocr_decode_rtx5090_cuda_gpu_kern_sum.csv',
      46,
      179_072_697,
      78_016,
      'std::enable_if<!T7, void>::type internal::gemvx::kernel<int, int, __nv_bfloat16, __nv_bfloat16, __nv_bfloat16, float, (bool)0, (bool)1, (bool)1, (bool)0, (int)7, (bool)0, cublasGemvParamsEx<int, cublasGemvTensorStridedBatched<const __nv_bfloat16>, cublasGemvTensorStridedBatched<const __nv_bfloat16>, cublasGemvTensorStridedBatched<__nv_bfloat16>, float>>(T13)',
      61_602_133,
    ],
    ['vllm_qwen2.5-7b_cuda_gpu_kern_sum.csv', 65, 2_081_145_534, 39_002, 'ampere_bf16_s16816gemm_bf16_128x64_ldg8_f2f_stages_32x6_tn', 665_015_457],
  ])('%s', async (name, count, totalNs, instances, topName, topNs) => {
    const capture = await read(fixture(name));
    expect(capture.source.format).toBe('nsys-stats');
    expect(capture.source.parts).toEqual(['cuda_gpu_kern_sum']);
    expect(capture.kernels).toHaveLength(count);
    expect(sum(capture.kernels.map((k) => k.totalNs))).toBe(totalNs);
    expect(sum(capture.kernels.map((k) => k.instances))).toBe(instances);
    expect(top(capture.kernels)).toMatchObject({ name: topName, totalNs: topNs });
    expect(capture.memops).toEqual([]);
    expect(capture.notices).toEqual([]);
  });

  test('min/max come from the Min (ns)/Max (ns) columns', async () => {
    const capture = await read(fixture('nsys_healthy_kern_sum.csv'));
    // first data row: ...,Min (ns)=44704,Max (ns)=50784,...,nvjet_sm90_tst_256x8_64x6_4x1_v_bz_NNT
    expect(capture.kernels.find((k) => k.name === 'nvjet_sm90_tst_256x8_64x6_4x1_v_bz_NNT')).toEqual({
      name: 'nvjet_sm90_tst_256x8_64x6_4x1_v_bz_NNT',
      totalNs: 12_183_455,
      instances: 256,
      minNs: 44_704,
      maxNs: 50_784,
    });
  });

  test('cuda_gpu_sum splits CUDA_KERNEL rows into kernels and MEMORY_OPER rows into memops', async () => {
    const capture = await read(fixture('nsys_healthy_multi_cuda_gpu_sum.csv'));
    const kernSum = await read(fixture('nsys_healthy_kern_sum.csv'));
    expect(capture.source.parts).toEqual(['cuda_gpu_sum']);
    // Same run: the 22 CUDA_KERNEL rows sum to the kern_sum total (42,646,026 ns).
    expect(capture.kernels).toHaveLength(22);
    expect(sum(capture.kernels.map((k) => k.totalNs))).toBe(42_646_026);
    expect(capture.kernels.map((k) => k.name).sort()).toEqual(kernSum.kernels.map((k) => k.name).sort());
    expect(capture.memops).toEqual([{ kind: 'memcpy-dtod', name: '[CUDA memcpy Device-to-Device]', totalNs: 12_832, count: 16 }]);
  });

  test('cuda_api_sum becomes apiCalls', async () => {
    const capture = await read(fixture('nsys_hf_hostbound_api_sum.csv'));
    expect(capture.source.parts).toEqual(['cuda_api_sum']);
    expect(capture.kernels).toEqual([]);
    // python: 16 rows, sum Total Time 102,726,127 ns, sum Num Calls 25,940
    expect(capture.apiCalls).toHaveLength(16);
    expect(sum(capture.apiCalls.map((a) => a.totalNs))).toBe(102_726_127);
    expect(sum(capture.apiCalls.map((a) => a.calls))).toBe(25_940);
    expect(capture.apiCalls[0]).toEqual({ name: 'cudaLaunchKernel', totalNs: 55_304_461, calls: 9_394 });
  });

  test('cuda_gpu_mem_size_sum becomes memops with bytes (MB = 10^6 bytes)', async () => {
    const capture = await read(fixture('vllm_qwen2.5-7b_cuda_gpu_mem_size_sum.csv'));
    expect(capture.source.parts).toEqual(['cuda_gpu_mem_size_sum']);
    const byKind = Object.fromEntries(capture.memops.map((m) => [m.kind, m]));
    expect(Object.keys(byKind).sort()).toEqual(['memcpy-dtod', 'memcpy-dtoh', 'memcpy-htod', 'memset']);
    expect(byKind['memcpy-htod']!.bytes).toBeCloseTo(15_231.546e6, 0);
    expect(byKind['memcpy-htod']!.count).toBe(1_256);
    expect(byKind['memcpy-dtod']).toMatchObject({ name: '[CUDA memcpy Device-to-Device]', count: 3_379 });
    expect(byKind['memcpy-dtoh']).toMatchObject({ bytes: 0, count: 118 });
    expect(byKind.memset!.totalNs).toBeUndefined();
  });

  test('stdout with no CUDA data: osrt_sum listed, SKIPPED lines of read reports become notices', async () => {
    const capture = await read(fixture('mineru_nsys_stats_stdout_no_cuda.csv'));
    expect(capture.kernels).toEqual([]);
    expect(capture.apiCalls).toEqual([]);
    expect(capture.source.parts).toEqual(['osrt_sum']);
    // 19 SKIPPED lines (grep -c '^SKIPPED'); 4 are reports this importer reads.
    expect(capture.notices.map((n) => n.message.split(':')[0])).toEqual([
      'cuda_api_sum',
      'cuda_gpu_kern_sum',
      'cuda_gpu_mem_time_sum',
      'cuda_gpu_mem_size_sum',
    ]);
    const kernelNotice = capture.notices.find((n) => n.message.startsWith('cuda_gpu_kern_sum'))!;
    expect(kernelNotice).toMatchObject({ code: 'nsys-report-skipped', severity: 'warning' });
    expect(kernelNotice.message).toContain('does not contain CUDA kernel data');
    expect(capture.notices.filter((n) => n.severity === 'warning')).toHaveLength(1);
    expect(capture.source.stats.find((s) => s.name === 'report-skipped')?.count).toBe(15);
  });
});

describe('nsys-stats layouts and versions (built fixtures)', () => {
  test('column layout of `nsys profile --stats=true` reads the same numbers as the CSV captures', async () => {
    const capture = await read(fixture('column_profile_stats.txt'));
    const kernSum = await read(fixture('nsys_healthy_kern_sum.csv'));
    const apiSum = await read(fixture('nsys_hf_hostbound_api_sum.csv'));
    expect(capture.source.parts).toEqual(['osrt_sum', 'cuda_api_sum', 'cuda_gpu_kern_sum', 'cuda_gpu_mem_time_sum']);
    expect(capture.kernels).toEqual(kernSum.kernels);
    expect(capture.apiCalls).toEqual(apiSum.apiCalls);
    expect(capture.memops).toEqual([{ kind: 'memcpy-dtod', name: '[CUDA memcpy Device-to-Device]', totalNs: 12_832, count: 16 }]);
    // the nvtx_sum SKIPPED line is not a report this importer reads: counted, not a notice
    expect(capture.notices).toEqual([]);
    expect(capture.source.stats.find((s) => s.name === 'report-skipped')?.count).toBe(1);
  });

  test('column layout with a ` ** Title (report):` header and thousands separators', async () => {
    const capture = await read(fixture('column_kern_sum_titled.txt'));
    const csv = await read(fixture('nsys_hf_hostbound_kern_sum.csv'));
    expect(capture.kernels).toEqual(csv.kernels);
    expect(capture.kernels).toHaveLength(60);
    expect(capture.source.toolVersion).toBe('2025.3.1');
  });

  test('2022.x GridXYZ/BlockXYZ rows are aggregated by name, shape of the heaviest row kept', async () => {
    const capture = await read(fixture('gpukernsum_2022_gridxyz.csv'));
    expect(capture.source.parts).toEqual(['gpukernsum']);
    expect(capture.source.toolVersion).toBe('2022.4.2');
    // by hand: 5 rows, 3 names; xmma 2,400,000 + 1,000,000 ns, 300 + 100 launches
    expect(capture.kernels).toHaveLength(3);
    const xmma = capture.kernels.find((k) => k.name.startsWith('sm90_xmma'))!;
    expect(xmma).toMatchObject({ totalNs: 3_400_000, instances: 400, minNs: 7_100, maxNs: 12_000, grid: [132, 1, 1], block: [384, 1, 1] });
    const flash = capture.kernels.find((k) => k.name.startsWith('void flash::'))!;
    expect(flash).toMatchObject({ totalNs: 1_625_000, instances: 350, grid: [66, 1, 1], block: [128, 1, 1] });
    expect(sum(capture.kernels.map((k) => k.totalNs))).toBe(5_825_000);
  });

  test('--timeunit usec headers are converted back to ns', async () => {
    const capture = await read(fixture('kern_sum_timeunit_usec.csv'));
    const ns = await read(fixture('nsys_healthy_kern_sum.csv'));
    expect(capture.kernels).toHaveLength(22);
    expect(sum(capture.kernels.map((k) => k.totalNs))).toBeCloseTo(42_646_026, 3);
    for (const kernel of ns.kernels) {
      const converted = capture.kernels.find((k) => k.name === kernel.name)!;
      expect(converted.totalNs).toBeCloseTo(kernel.totalNs, 3);
      expect(converted.minNs).toBeCloseTo(kernel.minNs!, 3);
      expect(converted.instances).toBe(kernel.instances);
    }
  });

  test('2020.x headers (Time(%), Average/Minimum/Maximum without units, `Running [...]` lines)', async () => {
    const capture = await read(fixture('stats_2020_api_and_kern.csv'));
    expect(capture.source.parts).toEqual(['cudaapisum', 'gpukernsum']);
    expect(capture.source.toolVersion).toBe('2020.3.1');
    expect(sum(capture.apiCalls.map((a) => a.totalNs))).toBe(102_726_127);
    expect(sum(capture.kernels.map((k) => k.totalNs))).toBe(42_646_026);
    expect(capture.kernels[0]).toMatchObject({ minNs: 44_704, maxNs: 50_784 });
  });
});

describe('nsys-stats edge cases', () => {
  const healthy = readFileSync(fixture('nsys_healthy_kern_sum.csv'), 'utf8');

  test('CRLF line endings read the same', async () => {
    for (const name of ['column_profile_stats.txt', 'mineru_nsys_stats_stdout_no_cuda.csv']) {
      const path = writeTempFile(`crlf_${name}`, readFileSync(fixture(name), 'utf8').replace(/\n/g, '\r\n'));
      expect(nsysStats.sniff((await openInput(path)).head)).toBe(true);
      const capture = await read(path);
      const original = await read(fixture(name));
      expect({ ...capture, source: { ...capture.source, path: '' } }).toEqual({ ...original, source: { ...original.source, path: '' } });
    }
  });

  test('the Time (%) column is never trusted', async () => {
    const lines = healthy.split('\n').map((line, i) => (i >= 3 && line ? line.replace(/^[\d.]+,/, '99.0,') : line));
    const capture = await read(writeTempFile('bad_percent.csv', lines.join('\n')));
    const original = await read(fixture('nsys_healthy_kern_sum.csv'));
    expect(capture.kernels).toEqual(original.kernels);
  });

  test('a kern_sum cut at a row boundary says rows are missing, from its own Time (%) column', async () => {
    // The real H200 unfused-attention kern_sum (28 rows, Time (%) adding up to 100.1), cut after its
    // first five rows: 25.4 + 13.5 + 9.8 + 8.1 + 6.5 = 63.3 % of the kernel time.
    const h200 = join(dir, '..', 'h200-captures', 'unfused_attention', 'unfused_node.kern_sum.csv');
    const lines = readFileSync(h200, 'utf8').split('\n');
    expect(lines[6]).toMatch(/^Time \(%\),Total Time \(ns\)/);
    const cut = await read(writeTempFile('cut_kern_sum.csv', `${lines.slice(0, 12).join('\n')}\n`));
    expect(cut.kernels).toHaveLength(5);
    expect(cut.notices.filter((n) => n.code === 'nsys-table-excerpt')).toEqual([
      {
        code: 'nsys-table-excerpt',
        severity: 'warning',
        message: 'cuda_gpu_kern_sum: the 5 rows of the table at line 7 add up to 63.3 % in its Time (%) column, not 100 %: rows after line 12 are missing (the file is cut short), so totals and shares cover the listed rows only',
      },
    ]);
    // The whole file, and every real capture above, says nothing of the kind.
    const whole = await read(h200);
    expect(whole.kernels).toHaveLength(28);
    expect(whole.notices.filter((n) => n.code === 'nsys-table-excerpt')).toEqual([]);
    // Cut inside cuda_gpu_sum (kernels and memory operations share its Time (%)), the same.
    const gpuSum = readFileSync(fixture('nsys_healthy_multi_cuda_gpu_sum.csv'), 'utf8').split('\n');
    const header = gpuSum.findIndex((line) => /^"?Time \(%\)/.test(line));
    const gpuCut = await read(writeTempFile('cut_gpu_sum.csv', `${gpuSum.slice(0, header + 4).join('\n')}\n`));
    expect(gpuCut.notices.map((n) => n.code)).toContain('nsys-table-excerpt');
    expect((await read(fixture('nsys_healthy_multi_cuda_gpu_sum.csv'))).notices.map((n) => n.code)).not.toContain('nsys-table-excerpt');
  });

  test('fully quoted header and fields (third-party writers) parse the same', async () => {
    const text = [
      '"Time (%)","Total Time (ns)","Instances","Avg (ns)","Med (ns)","Min (ns)","Max (ns)","StdDev (ns)","Name"',
      '"60.0","3000","3","1000.0","1000.0","900","1100","100.0","kernel_a(int, float)"',
      '"40.0","2000","4","500.0","500.0","400","600","50.0","kernel_b"',
    ].join('\n');
    const capture = await read(writeTempFile('quoted.csv', text));
    expect(capture.kernels).toEqual([
      { name: 'kernel_a(int, float)', totalNs: 3000, instances: 3, minNs: 900, maxNs: 1100 },
      { name: 'kernel_b', totalNs: 2000, instances: 4, minNs: 400, maxNs: 600 },
    ]);
  });

  test('tables known by their columns alone: nvtx_sum and osrt_sum are listed, not read', async () => {
    const text = [
      'Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Style,Range',
      '95.0,3481709,1,3481709.0,3481709.0,3481709,3481709,0.0,PushPop,Profile_Loop',
      '',
      'Time (%),Total Time (ns),Num Calls,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name',
      '73.3,300103279,11,27282116.3,9914856.0,269765,199732574,58392509.4,poll',
      '',
      'Time (%),Total Time (ns),Num Calls,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name',
      '84.3,97391992,3,32463997.3,48537.0,46205,97297250,56147243.8,cudaMalloc',
      '',
      'Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name',
      '100.0,2638124,1,2638124.0,2638124.0,2638124,2638124,0.0,"matrixMultiply(float *, float *, float *, int, int, int)"',
    ].join('\n');
    const capture = await read(writeTempFile('no_markers.csv', text));
    expect(capture.source.parts).toEqual(['nvtx_sum', 'osrt_sum', 'cuda_api_sum', 'cuda_gpu_kern_sum']);
    expect(capture.apiCalls).toEqual([{ name: 'cudaMalloc', totalNs: 97_391_992, calls: 3 }]);
    expect(capture.kernels).toEqual([
      { name: 'matrixMultiply(float *, float *, float *, int, int, int)', totalNs: 2_638_124, instances: 1, minNs: 2_638_124, maxNs: 2_638_124 },
    ]);
  });

  test('a file holding the same output twice reads as two runs, each its own capture, neither summed nor cut', async () => {
    const path = writeTempFile('twice.csv', `${healthy}\n${healthy}`);
    const lines = healthy.split('\n');
    // The second run begins with nsys's own first line, "Generating SQLite file …".
    const start = lines.length + 1;
    expect(lines[0]).toMatch(/^Generating SQLite file /);
    const one = await read(fixture('nsys_healthy_kern_sum.csv'));
    const runs = await readRuns(path);
    expect(runs).toHaveLength(2);
    for (const [i, run] of runs.entries()) {
      expect(run.source.run).toBe(i + 1);
      expect(run.kernels).toEqual(one.kernels);
      expect(sum(run.kernels.map((k) => k.totalNs))).toBe(42_646_026);
    }
    expect(runs[0]!.notices).toEqual([
      expect.objectContaining({ code: 'nsys-runs-in-file', message: expect.stringContaining(`from line 1, line ${start} ("Generating SQLite file /tmp/nsys_healthy.sqlite from /tmp/n…")`) }),
    ]);
    // Read as one capture, a file of two runs is refused rather than cut to one.
    await expect(read(path)).rejects.toThrow(`${path}: expected one run in the file, found 2: read each as its own capture`);
  });

  // vLLM's profiling docs: `nsys stats` of a Llama-3.1-8B serve on an H100, an excerpt with `...`
  // before and after the kernel table. Expected values summed by hand over its nine rows.
  test('the console excerpt in vLLM\'s profiling docs is read, and says the table is cut short', async () => {
    const capture = await read(fixture('vllm_docs_llama31_8b_h100_kern_sum_excerpt.txt'));
    expect(capture.kernels).toHaveLength(9);
    expect(sum(capture.kernels.map((k) => k.totalNs))).toBe(21_650_493_023);
    expect(sum(capture.kernels.map((k) => k.instances ?? 0))).toBe(186_697);
    expect(top(capture.kernels)).toMatchObject({ totalNs: 10_327_352_338, instances: 17_505 });
    expect(top(capture.kernels).name).toMatch(/^sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_/);
    // The fourth row's Time (%) sits one character off the underline.
    expect(capture.notices).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: 'nsys-table-excerpt', severity: 'warning', message: expect.stringMatching(/^cuda_gpu_kern_sum: the table is cut short at line 16 /) }),
        expect.objectContaining({ code: 'nsys-columns-realigned' }),
      ]),
    );
  });

  test('one run pasted into Markdown (a heading, a code fence right under the last row) reads as the plain file', async () => {
    // The titled kernel table ends with a row: the fence comes right under it.
    const run = readFileSync(fixture('column_kern_sum_titled.txt'), 'utf8').trimEnd();
    expect(run.split('\n').at(-1)).toMatch(/^\s+0\.0\s+768\s/);
    const plain = await read(fixture('column_kern_sum_titled.txt'));
    const fenced = await read(writeTempFile('one-run.md', ['## nsys stats', '```', run, '```', '', 'Some notes on the run.', ''].join('\n')));
    expect(fenced.kernels).toEqual(plain.kernels);
    expect(fenced.kernels).toHaveLength(60);
  });

  test('two --stats=true runs pasted into one Markdown file are two captures, the second from its heading', async () => {
    const run = readFileSync(fixture('column_profile_stats.txt'), 'utf8').trimEnd();
    const text = ['# batch 1', '', '```', run, '```', '', '## batch 8', '', '```', run, '```', ''].join('\n');
    const plain = await read(fixture('column_profile_stats.txt'));
    const runs = await readRuns(writeTempFile('two-runs.md', text));
    const heading = text.split('\n').indexOf('## batch 8') + 1;
    expect(runs.map((r) => r.source.run)).toEqual([1, 2]);
    for (const r of runs) {
      expect(r.kernels).toEqual(plain.kernels);
      expect(r.apiCalls).toEqual(plain.apiCalls);
      expect(r.memops).toEqual(plain.memops);
      expect(r.source.parts).toEqual(plain.source.parts);
    }
    expect(runs[0]!.notices[0]).toMatchObject({ code: 'nsys-runs-in-file', message: expect.stringContaining(`line ${heading} ("## batch 8")`) });
  });

  test('NOTICE about a reused SQLite export becomes a warning', async () => {
    const text = `NOTICE: Existing SQLite export found: /tmp/nsys_healthy.sqlite\nConsider using --force-export=true if needed.\n${healthy}`;
    const capture = await read(writeTempFile('reuse.csv', text));
    expect(capture.notices).toEqual([expect.objectContaining({ code: 'nsys-existing-export', severity: 'warning' })]);
    expect(capture.kernels).toHaveLength(22);
  });

  test('a truncated row is an InputError naming the file and line', async () => {
    const lines = healthy.split('\n');
    lines[24] = lines[24]!.split(',').slice(0, 3).join(',');
    const path = writeTempFile('truncated.csv', lines.join('\n'));
    await expect(read(path)).rejects.toThrow(InputError);
    await expect(read(path)).rejects.toThrow(`${path}:25: expected 9 fields`);
  });

  test('a garbled number is an InputError naming the column and line', async () => {
    const lines = healthy.split('\n');
    lines[5] = lines[5]!.replace(/^([\d.]+),(\d+),/, '$1,90x51826,');
    const path = writeTempFile('garbled.csv', lines.join('\n'));
    await expect(read(path)).rejects.toThrow(`${path}:6: expected a number in column "Total Time (ns)"`);
  });

  test('a column-layout row that is cut short is an InputError', async () => {
    const lines = readFileSync(fixture('column_kern_sum_titled.txt'), 'utf8').split('\n');
    const rowIndex = lines.findIndex((line) => line.includes('nvjet_sm90_tst_8x64_64x16_2x1_v_bz_TNN'));
    lines[rowIndex] = lines[rowIndex]!.slice(0, 40);
    const path = writeTempFile('cut.txt', lines.join('\n'));
    await expect(read(path)).rejects.toThrow(`${path}:${rowIndex + 1}:`);
  });

  describe('a column-layout row off the dashed underline', () => {
    // column_kern_sum_titled.txt: the underline is line 7; the rows below are real values (PROVENANCE.md).
    const lines = () => readFileSync(fixture('column_kern_sum_titled.txt'), 'utf8').split('\n');
    const rowOf = (all: string[], kernel: string) => all.findIndex((line) => line.includes(kernel));

    test('one space left, as in a pasted table: read, with a notice naming the row', async () => {
      const all = lines();
      const row = rowOf(all, 'nvjet_sm90_tst_64x8_64x16_4x1_v_bz_TNT ');
      all[row] = all[row]!.slice(1);
      const path = writeTempFile('shifted-left.txt', all.join('\n'));
      const capture = await read(path);
      const csv = await read(fixture('nsys_hf_hostbound_kern_sum.csv'));
      expect(capture.kernels).toEqual(csv.kernels);
      // The row's own values (csv row 2): 2,215,190 ns over 496 instances.
      expect(capture.kernels.find((k) => k.name === 'nvjet_sm90_tst_64x8_64x16_4x1_v_bz_TNT')).toMatchObject({ totalNs: 2_215_190, instances: 496 });
      const notice = capture.notices.find((n) => n.code === 'nsys-columns-realigned');
      expect(notice).toMatchObject({ severity: 'info' });
      expect(notice!.message).toBe(`cuda_gpu_kern_sum: 1 row (line ${row + 1}) sat up to 1 character off the dashed underline on line 7; each value was read from the one column it falls in`);
    });

    test('one space right: every value read whole (no digit cut off by the column edge)', async () => {
      const all = lines();
      const row = rowOf(all, 'nvjet_sm90_tst_8x64_64x16_2x1_v_bz_TNN ');
      all[row] = ` ${all[row]!}`;
      const capture = await read(writeTempFile('shifted-right.txt', all.join('\n')));
      const csv = await read(fixture('nsys_hf_hostbound_kern_sum.csv'));
      expect(capture.kernels).toEqual(csv.kernels);
      expect(capture.notices.map((n) => n.code)).toContain('nsys-columns-realigned');
    });

    test('an aligned table gives no notice', async () => {
      const capture = await read(fixture('column_kern_sum_titled.txt'));
      expect(capture.notices.map((n) => n.code)).not.toContain('nsys-columns-realigned');
    });

    test('a value in the gap between two columns is ambiguous: refused, naming the line', async () => {
      const all = lines();
      const spans = dashedSpans(all[6]!);
      const row = all.findIndex((line) => /^\s+0\.6\s+135,199\s+96\s/.test(line));
      const instancesEnd = spans[2]!.end;
      // "96" ends where the Instances dashes end; moved two characters right it lies in the two-space gap.
      expect(all[row]!.slice(instancesEnd - 2, instancesEnd + 3)).toBe('96   ');
      all[row] = `${all[row]!.slice(0, instancesEnd - 2)}  96${all[row]!.slice(instancesEnd + 2)}`;
      const path = writeTempFile('ambiguous.txt', all.join('\n'));
      await expect(read(path)).rejects.toThrow(`${path}:${row + 1}: expected the columns to line up with the dashed underline on line 7`);
    });

    test('a row three characters off is refused', async () => {
      const all = lines();
      const row = rowOf(all, 'nvjet_sm90_tst_64x8_64x16_4x1_v_bz_TNT ');
      all[row] = all[row]!.slice(3);
      const path = writeTempFile('shifted-3.txt', all.join('\n'));
      await expect(read(path)).rejects.toThrow(`${path}:${row + 1}: expected the columns to line up`);
    });
  });

  test('an unclosed quote is an InputError', async () => {
    const path = writeTempFile('quote.csv', 'Time (%),Total Time (ns),Instances,Name\n50.0,100,1,"kernel<a, b>\n');
    await expect(read(path)).rejects.toThrow(InputError);
  });

  test('text without any nsys table is an InputError at line 1', async () => {
    const path = writeTempFile('nothing.txt', 'hello\nworld\n');
    await expect(read(path)).rejects.toThrow(`${path}:1: expected nsys stats output`);
  });

  test('a CSV that is no nsys report (e.g. a per-launch trace passed by --format) is an InputError', async () => {
    const path = writeTempFile('trace.csv', 'Start (ns),Duration (ns),CorrId,Name\n100,20,1,k\n');
    await expect(read(path)).rejects.toThrow(`${path}:1: expected nsys stats output`);
  });

  test('a kernel report whose header lacks the needed columns is an InputError', async () => {
    const text = 'Processing [x.sqlite] with [/opt/nvidia/nsight-systems/2025.3.2/host-linux-x64/reports/cuda_gpu_kern_sum.py]... \nTime (%),Avg (ns),Name,Other\n1.0,2.0,k,z\n';
    const path = writeTempFile('columns.csv', text);
    await expect(read(path)).rejects.toThrow(`${path}:2: expected cuda_gpu_kern_sum columns (total, count missing)`);
  });
});

/* First lines of other formats' files, copied verbatim from the named fixtures. */
const OTHER_HEADS = {
  rocprofHipApiStats: '"Name","Calls","TotalDurationNs","AverageNs","Percentage","MinNs","MaxNs","StdDev"\n"hipStreamCreateWithFlags",4,262497406,65624351.500000,85.15,3991286,249121840,122332531.343496\n',
  rocprofKernelTrace:
    '"Kind","Agent_Id","Queue_Id","Stream_Id","Thread_Id","Dispatch_Id","Kernel_Id","Kernel_Name","Correlation_Id","Start_Timestamp","End_Timestamp"\n',
  // shared/fixtures/h200/nvidia-smi/h200_idle_query.csv style header (research/formats.md §5.1)
  nvidiaSmi:
    'timestamp, name, index, pci.bus_id, driver_version, pstate, utilization.gpu [%], utilization.memory [%], memory.used [MiB], memory.total [MiB]\n2026/11/30 04:28:32.405, NVIDIA H200, 0, 00000000:00:06.0, 580.159.04, P0, 0 %, 0 %, 0 MiB, 143771 MiB\n',
  ncuDetails:
    '"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"\n',
};

describe('nsys-stats sniffing', () => {
  test.each([
    'nsys_healthy_kern_sum.csv',
    'nsys_healthy_multi_cuda_gpu_sum.csv',
    'nsys_hf_hostbound_api_sum.csv',
    'nsys_hf_hostbound_kern_sum.csv',
    'dsocr_decode_rtx5090_cuda_gpu_kern_sum.csv',
    'mineru_nsys_stats_stdout_no_cuda.csv',
    'vllm_qwen2.5-7b_cuda_gpu_kern_sum.csv',
    'vllm_qwen2.5-7b_cuda_gpu_mem_size_sum.csv',
    'column_profile_stats.txt',
    'column_kern_sum_titled.txt',
    'gpukernsum_2022_gridxyz.csv',
    'kern_sum_timeunit_usec.csv',
    'stats_2020_api_and_kern.csv',
  ])('claims %s', async (name) => {
    expect(nsysStats.sniff((await openInput(fixture(name))).head)).toBe(true);
    expect(rocprofCsv.sniff((await openInput(fixture(name))).head)).toBe(false);
    expect(nsysGpuTimeUtil.sniff((await openInput(fixture(name))).head)).toBe(false);
  });

  test.each(Object.entries(OTHER_HEADS))('rejects %s', (_name, head) => {
    expect(nsysStats.sniff(head)).toBe(false);
  });

  test.each(['analyze_all_rules_column.txt', 'analyze_gpu_time_util_hostbound.csv'])('leaves nsys analyze output (%s) to nsys-gpu-time-util', async (name) => {
    expect(nsysStats.sniff((await openInput(fixture(name))).head)).toBe(false);
  });
});
