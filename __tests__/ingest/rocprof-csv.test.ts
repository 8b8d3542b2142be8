import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { InputError } from '../../src/errors.js';
import { runImporter } from '../../src/ingest/common/importer.js';
import { openInput } from '../../src/ingest/common/input-file.js';
import nsysStats from '../../src/ingest/formats/nsys-stats.js';
import rocprofCsv from '../../src/ingest/formats/rocprof-csv.js';
import { writeTempFile } from './profiler-temp-file.js';

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/rocprof/${name}`, import.meta.url));
const read = async (path: string) => runImporter(rocprofCsv, await openInput(path));
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const top = <T extends { totalNs: number }>(rows: T[]) => [...rows].sort((a, b) => b.totalNs - a.totalNs)[0]!;

/*
 * Expected numbers were computed independently with Python's csv.DictReader over the raw files:
 * stats files: len(rows), sum(TotalDurationNs), sum(Calls), the row with the largest TotalDurationNs;
 * traces: per cleaned name sum(End − Start); span = max(End) − min(Start); busy = length of the union
 * of [Start, End) intervals; gaps = holes between consecutive union intervals.
 */
describe('rocprof-csv stats files', () => {
  test('rocprofv3 kernel_stats (head of a PyTorch/MIOpen run)', async () => {
    const capture = await read(fixture('rocprofv3_pytorch_kernels_kernel_stats_head.csv'));
    expect(capture.source).toMatchObject({ format: 'rocprof-csv', tool: 'rocprofv3', parts: ['kernel_stats'] });
    expect(capture.kernels).toHaveLength(9);
    expect(sum(capture.kernels.map((k) => k.totalNs))).toBe(95_395_329);
    expect(sum(capture.kernels.map((k) => k.instances))).toBe(17_311);
    expect(top(capture.kernels)).toEqual({ name: '__amd_rocclr_copyBuffer', totalNs: 17_229_993, instances: 7_084, minNs: 601, maxNs: 10_656 });
    expect(capture.apiCalls).toEqual([]);
    // Its Percentage column (of the whole run) adds up to 46.39 over these 9 rows: the rest is missing, and said so.
    expect(capture.source.stats).toEqual([
      {
        name: 'rows-missing',
        severity: 'data-loss',
        count: 1,
        detail: 'the 9 rows add up to 46.4 % in the Percentage column, not 100 %: rows after line 10 are missing (the file is cut short), so totals and shares cover the listed rows only',
      },
    ]);
  });

  test('a whole stats file says nothing is missing; the same cut at a row boundary says what is', async () => {
    // llamacpp_r9700_gfx1201_results.stats.csv: 20 rows whose Percentage adds up to 100.0; its first
    // two rows hold 90.3239 + 1.4173 = 91.74 %.
    const whole = await read(fixture('llamacpp_r9700_gfx1201_results.stats.csv'));
    expect(whole.source.stats).toEqual([]);
    const lines = readFileSync(fixture('llamacpp_r9700_gfx1201_results.stats.csv'), 'utf8').split('\n');
    const cut = await read(writeTempFile('cut.stats.csv', `${lines.slice(0, 3).join('\n')}\n`));
    expect(cut.kernels).toHaveLength(2);
    expect(cut.source.stats).toEqual([expect.objectContaining({ name: 'rows-missing', severity: 'data-loss', detail: expect.stringMatching(/^the 2 rows add up to 91\.7 % .* rows after line 3 are missing/) })]);
    // Every other whole stats file here too.
    for (const name of ['rocprofv1_laplacian_results.stats.csv', 'rocprofv3_docs_hip_api_stats.csv']) expect((await read(fixture(name))).source.stats).toEqual([]);
  });

  test('hip_api_stats (same 8 columns, scientific notation) becomes apiCalls, not kernels', async () => {
    const capture = await read(fixture('rocprofv3_docs_hip_api_stats.csv'));
    expect(capture.source.parts).toEqual(['hip_api_stats']);
    expect(capture.kernels).toEqual([]);
    expect(capture.apiCalls).toHaveLength(17);
    expect(sum(capture.apiCalls.map((a) => a.totalNs))).toBe(308_269_675);
    expect(sum(capture.apiCalls.map((a) => a.calls))).toBe(155);
    expect(capture.apiCalls[0]).toEqual({ name: 'hipStreamCreateWithFlags', totalNs: 262_497_406, calls: 4 });
    expect(capture.apiCalls.find((a) => a.name === 'hipLaunchKernel')).toEqual({ name: 'hipLaunchKernel', totalNs: 692_734, calls: 16 });
  });

  test('legacy rocprof results.stats.csv (5 columns), `[clone .kd]` and `.kd` stripped', async () => {
    const capture = await read(fixture('rocprofv1_laplacian_results.stats.csv'));
    expect(capture.source).toMatchObject({ tool: 'rocprof', parts: ['stats'] });
    expect(capture.kernels).toHaveLength(4);
    expect(sum(capture.kernels.map((k) => k.totalNs))).toBe(2_610_787_312);
    expect(sum(capture.kernels.map((k) => k.instances))).toBe(1_004);
    expect(top(capture.kernels)).toEqual({
      name: 'void laplacian_kernel<double>(double*, double const*, int, int, int, double, double, double, double)',
      totalNs: 2_608_618_986,
      instances: 1_001,
    });
    expect(capture.kernels.map((k) => k.name)).toContain('__amd_rocclr_fillBufferAligned');
    expect(capture.kernels.every((k) => !k.name.endsWith('.kd') && !k.name.includes('[clone'))).toBe(true);
  });

  test('copy stats become memops; domain stats are listed only', async () => {
    const copies = await read(
      writeTempFile('copy_stats.csv', '"Name","Calls","TotalDurationNs","AverageNs","Percentage"\n"CopyHostToDevice",3,3000,1000,75.0\n"CopyDeviceToHost",1,1000,1000,25.0\n'),
    );
    expect(copies.memops).toEqual([
      { kind: 'memcpy-htod', name: 'CopyHostToDevice', totalNs: 3000, count: 3 },
      { kind: 'memcpy-dtoh', name: 'CopyDeviceToHost', totalNs: 1000, count: 1 },
    ]);
    const domains = await read(
      writeTempFile(
        'domain_stats.csv',
        '"Name","Calls","TotalDurationNs","AverageNs","Percentage","MinNs","MaxNs","StdDev"\n"HIP_API",155,308269675,1988836.6,76.0,50,249121840,1.0e+07\n"KERNEL_DISPATCH",8,93334,11666.7,24.0,10103,16157,2.1e+03\n',
      ),
    );
    expect(domains.source.parts).toEqual(['domain_stats']);
    expect(domains.kernels).toEqual([]);
    expect(domains.apiCalls).toEqual([]);
  });
});

describe('rocprof-csv traces', () => {
  test('rocprofv3 kernel_trace: per-kernel sums and a timeline', async () => {
    const capture = await read(fixture('rocprofv3_docs_kernel_trace_with_stream_id.csv'));
    expect(capture.source).toMatchObject({ tool: 'rocprofv3', parts: ['kernel_trace'] });
    // python: 8 dispatches, 4 names, Σ(End − Start) = 93,334 ns; addition_kernel 28,987 ns over 2
    expect(capture.kernels).toHaveLength(4);
    expect(sum(capture.kernels.map((k) => k.totalNs))).toBe(93_334);
    expect(top(capture.kernels)).toMatchObject({
      name: 'void addition_kernel<float>(float*, float const*, float const*, int, int)',
      totalNs: 28_987,
      instances: 2,
      minNs: 12_830,
      maxNs: 16_157,
      // Grid_Size 1024×1024×1 work-items / Workgroup_Size 64×1×1 = 16×1024×1 workgroups
      grid: [16, 1024, 1],
      block: [64, 1, 1],
    });
    expect(top(capture.kernels).device).toBeUndefined();
    const timeline = capture.timeline!;
    expect(timeline.spanNs).toBe(431_632);
    expect(timeline.busyNs).toBe(93_334);
    expect(timeline.devices).toBe(1);
    expect(timeline.kernelLaunches).toBe(8);
    expect(timeline.idleGaps).toEqual({ count: 7, totalNs: 338_298, longestNs: 55_368 });
    expect(timeline.busyByDecile).toHaveLength(10);
    expect(sum(timeline.busyByDecile)).toBeCloseTo(timeline.busyNs, 6);
    expect(timeline.busyNs + timeline.idleGaps.totalNs).toBe(timeline.spanNs);
  });

  test('legacy rocprof results.csv: kernels and timeline from BeginNs/EndNs', async () => {
    const capture = await read(fixture('rocprofv1_laplacian_results_trimmed.csv'));
    expect(capture.source).toMatchObject({ tool: 'rocprof', parts: ['results'] });
    // python: 40 dispatches, 4 names, Σ = 98,590,866 ns; laplacian 96,422,540 ns over 37
    expect(capture.kernels).toHaveLength(4);
    expect(sum(capture.kernels.map((k) => k.totalNs))).toBe(98_590_866);
    expect(top(capture.kernels)).toMatchObject({
      name: 'void laplacian_kernel<double>(double*, double const*, int, int, int, double, double, double, double)',
      totalNs: 96_422_540,
      instances: 37,
      grid: [524_288, 1, 1],
      block: [256, 1, 1],
    });
    expect(capture.timeline).toMatchObject({ spanNs: 101_806_183, busyNs: 98_590_866, devices: 1, kernelLaunches: 40 });
    expect(capture.timeline!.idleGaps).toEqual({ count: 36, totalNs: 3_215_317, longestNs: 1_835_686 });
  });

  test('several agents: busy time is a union per agent, kernels carry a device index', async () => {
    const header = '"Kind","Agent_Id","Queue_Id","Kernel_Name","Start_Timestamp","End_Timestamp"';
    const rows = [
      // agent 4: [0,100) and [50,150) overlap, then a gap of 50, then [200,300) → busy 250
      '"KERNEL_DISPATCH","Agent 4",1,"gemm.kd",9007199254740993000,9007199254740993100',
      '"KERNEL_DISPATCH","Agent 4",2,"norm",9007199254740993050,9007199254740993150',
      '"KERNEL_DISPATCH","Agent 4",1,"gemm.kd",9007199254740993200,9007199254740993300',
      // agent 5: [10,60)
      '"KERNEL_DISPATCH","Agent 5",1,"gemm.kd",9007199254740993010,9007199254740993060',
    ];
    const capture = await read(writeTempFile('multi_kernel_trace.csv', [header, ...rows].join('\n')));
    // raw timestamps are above 2^53: differences stay exact
    // busy is summed over agents: 250 + 50
    expect(capture.timeline).toMatchObject({ spanNs: 300, busyNs: 300, devices: 2, kernelLaunches: 4 });
    expect(capture.timeline!.idleGaps).toEqual({ count: 1, totalNs: 50, longestNs: 50 });
    expect(capture.kernels).toEqual(
      expect.arrayContaining([
        { name: 'gemm', totalNs: 200, instances: 2, minNs: 100, maxNs: 100, device: 0 },
        { name: 'gemm', totalNs: 50, instances: 1, minNs: 50, maxNs: 50, device: 1 },
        { name: 'norm', totalNs: 100, instances: 1, minNs: 100, maxNs: 100, device: 0 },
      ]),
    );
  });
});

test('CRLF line endings read the same', async () => {
  for (const name of ['rocprofv3_docs_kernel_trace_with_stream_id.csv', 'rocprofv3_docs_hip_api_stats.csv']) {
    const path = writeTempFile(`crlf_${name}`, readFileSync(fixture(name), 'utf8').replace(/\n/g, '\r\n'));
    const capture = await read(path);
    const original = await read(fixture(name));
    expect({ ...capture, source: { ...capture.source, path: '' } }).toEqual({ ...original, source: { ...original.source, path: '' } });
  }
});

describe('rocprof-csv bad input', () => {
  const trace = readFileSync(fixture('rocprofv3_docs_kernel_trace_with_stream_id.csv'), 'utf8');

  test('a truncated row is an InputError naming the file and line', async () => {
    const lines = trace.split('\n');
    lines[8] = lines[8]!.split(',').slice(0, -3).join(',');
    const path = writeTempFile('cut_kernel_trace.csv', lines.join('\n'));
    await expect(read(path)).rejects.toThrow(InputError);
    await expect(read(path)).rejects.toThrow(`${path}:9: expected 19 fields`);
  });

  test('a row cut inside a quoted name is an InputError naming the line', async () => {
    const lines = trace.split('\n');
    lines[8] = lines[8]!.slice(0, 60);
    const path = writeTempFile('cut_in_quote.csv', lines.join('\n'));
    await expect(read(path)).rejects.toThrow(`${path}:9: expected well-formed CSV`);
  });

  test('a garbled timestamp is an InputError naming the column and line', async () => {
    const path = writeTempFile('bad_ts.csv', trace.replace('2414192765424862', '24141927654x4862'));
    await expect(read(path)).rejects.toThrow(`${path}:3: expected an integer timestamp in column Start_Timestamp`);
  });

  test('End before Start is an InputError', async () => {
    const path = writeTempFile('backwards.csv', trace.replace('2414192765369494', '2414192765353000'));
    await expect(read(path)).rejects.toThrow(`${path}:2: expected End_Timestamp at or after Start_Timestamp`);
  });

  test('a garbled stats number is an InputError', async () => {
    const stats = readFileSync(fixture('rocprofv3_docs_hip_api_stats.csv'), 'utf8').replace('262497406', '2624974O6');
    const path = writeTempFile('bad_stats.csv', stats);
    await expect(read(path)).rejects.toThrow(`${path}:2: expected a number in column TotalDurationNs`);
  });

  test('a header that is not rocprof is an InputError', async () => {
    const path = writeTempFile('other.csv', 'a,b,c\n1,2,3\n');
    await expect(read(path)).rejects.toThrow(`${path}:1: expected a rocprof header`);
  });
});

describe('rocprof-csv sniffing', () => {
  test.each([
    'rocprofv1_laplacian_results.stats.csv',
    'rocprofv1_laplacian_results_trimmed.csv',
    'rocprofv3_docs_hip_api_stats.csv',
    'rocprofv3_docs_kernel_trace_with_stream_id.csv',
    'rocprofv3_pytorch_kernels_kernel_stats_head.csv',
  ])('claims %s and nsys-stats does not', async (name) => {
    const head = (await openInput(fixture(name))).head;
    expect(rocprofCsv.sniff(head)).toBe(true);
    expect(nsysStats.sniff(head)).toBe(false);
  });

  test.each([
    // shared/fixtures/h200/nsys/nsys_hf_hostbound_api_sum.csv, first 3 lines: the nsys cousin of hip_api_stats
    ['nsys cuda_api_sum', 'Generating SQLite file /tmp/nsys_hf.sqlite from /tmp/nsys_hf.nsys-rep\nTime (%),Total Time (ns),Num Calls,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n53.8,55304461,9394,5887.2,5503.0,3131,42585,1991.7,cudaLaunchKernel\n'],
    ['nsys cuda_gpu_kern_sum', 'Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n'],
    ['nvidia-smi', 'timestamp, name, index, utilization.gpu [%], memory.used [MiB]\n'],
    ['ncu', '"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream"\n'],
    ['rocm-smi csv', 'device,GPU use (%),GFX Activity,VRAM Total Memory (B),VRAM Total Used Memory (B)\ncard0,0,203885505,68702699520,10977280\n'],
  ])('rejects %s', (_name, head) => {
    expect(rocprofCsv.sniff(head)).toBe(false);
  });
});
