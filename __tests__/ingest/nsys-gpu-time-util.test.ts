import { fileURLToPath } from 'node:url';
import { InputError } from '../../src/errors.js';
import { runImporter } from '../../src/ingest/common/importer.js';
import { openInput } from '../../src/ingest/common/input-file.js';
import nsysGpuTimeUtil from '../../src/ingest/formats/nsys-gpu-time-util.js';
import nsysStats from '../../src/ingest/formats/nsys-stats.js';
import { writeTempFile } from './profiler-temp-file.js';

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/nsys/${name}`, import.meta.url));
const read = async (path: string) => runImporter(nsysGpuTimeUtil, await openInput(path));

const PROSE = [
  'Processing [r.sqlite] with [/opt/nvidia/nsight-systems/2025.3.2/host-linux-x64/rules/gpu_time_util.py]... ',
  '',
  ' ** GPU Time Utilization (gpu_time_util):',
  '',
];

describe('nsys-gpu-time-util', () => {
  test('host-bound run: one coalesced region, 2.0% in use (the value nsys reported for the hf run)', async () => {
    const capture = await read(fixture('analyze_gpu_time_util_hostbound.csv'));
    expect(capture.source.format).toBe('nsys-gpu-time-util');
    expect(capture.source.parts).toEqual(['gpu_time_util']);
    expect(capture.gpuTimeUtilPercent).toBe(2.0);
    expect(capture.notices).toEqual([]);
    expect(capture.kernels).toEqual([]);
  });

  test('all rules, column layout: duration-weighted mean of the rows, the gaps at the threshold: a lower bound', async () => {
    const capture = await read(fixture('analyze_all_rules_column.txt'));
    expect(capture.source.parts).toEqual(['cuda_api_sync', 'gpu_time_util']);
    expect(capture.source.toolVersion).toBe('2025.3.2');
    // gaps: 1,271,795,010 − 1,236,674,610 = 35,120,400 and 1,377,157,410 − 1,342,035,810 = 35,121,600,
    // at least 50 % in use (the rule lists only regions below it). By hand:
    // (12.4 × 35,120,400 + 3.1 × 70,240,800 + 41.0 × 35,120,400 + 50 × 70,242,000) / (140,481,600 + 70,242,000)
    // = 5,605,275,840 / 210,723,600 = 26.6001
    expect(capture.gpuTimeUtilPercent).toBeCloseTo(26.6001, 4);
    const partial = capture.notices.find((n) => n.code === 'nsys-gpu-util-partial')!;
    expect(partial.severity).toBe('info');
    expect(partial.message).toContain('below 50%');
    expect(partial.message).toContain('70242000 ns');
    // SKIPPED lines of other rules are not this importer's business
    expect(capture.notices).toHaveLength(1);
  });

  test('other time units in the header are converted', async () => {
    const text = [...PROSE, 'Row#,In-Use (%),Duration (us),Start (us),PID,Device ID,Context ID', '1,10.0,1000,0,7,0,1', '2,40.0,3000,1000,7,0,1'].join('\n');
    const capture = await read(writeTempFile('us.csv', text));
    // (10 × 1000 + 40 × 3000) / 4000 = 32.5; contiguous rows, so no lower-bound notice
    expect(capture.gpuTimeUtilPercent).toBeCloseTo(32.5, 10);
    expect(capture.notices).toEqual([]);
  });

  test('"no problems detected" gives a notice and no percentage', async () => {
    const text = [...PROSE, 'There were no problems detected with GPU utilization.', ''].join('\n');
    const capture = await read(writeTempFile('ok.txt', text));
    expect(capture.gpuTimeUtilPercent).toBeUndefined();
    expect(capture.notices).toEqual([expect.objectContaining({ code: 'nsys-gpu-util-ok', severity: 'info' })]);
  });

  test('CSV with nothing below the threshold: nsys prints only the rule\'s Processing line (real H200 runs)', async () => {
    // fp8_node: a healthy FP8 decode, 93% in use at threshold 100 (its _t100 file); at the default
    // threshold of 50% nsys --format csv wrote the NOTICE lines, the Processing line and nothing else.
    const capture = await read(fileURLToPath(new URL('../fixtures/h200-stacks/fp8_decode/fp8_node.gpu_time_util.csv', import.meta.url)));
    expect(capture.gpuTimeUtilPercent).toBeUndefined();
    expect(capture.notices).toEqual([{ code: 'nsys-gpu-util-ok', severity: 'info', message: 'gpu_time_util: no region below 50% in use (the rule ran and listed none)' }]);
    const sameRun = await read(fileURLToPath(new URL('../fixtures/h200-stacks/fp8_decode/fp8_node.gpu_time_util_t100.csv', import.meta.url)));
    expect(sameRun.gpuTimeUtilPercent).toBeGreaterThan(50);
  });

  test('the threshold of a silent run comes from its Processing line', async () => {
    const text = 'Processing [r.sqlite] with [/opt/nvidia/nsight-systems/2025.3.2/host-linux-x64/rules/gpu_time_util.py](threshold=80)... \n\n';
    const capture = await read(writeTempFile('silent80.csv', text));
    expect(capture.notices.map((n) => n.message)).toEqual(['gpu_time_util: no region below 80% in use (the rule ran and listed none)']);
  });

  test('text after the rule\'s Processing line that is neither a table nor a known line is still an InputError', async () => {
    const path = writeTempFile('odd.txt', 'Processing [r.sqlite] with [/x/rules/gpu_time_util.py]... \nsomething else entirely\n');
    await expect(read(path)).rejects.toThrow(`${path}:1: expected gpu_time_util output`);
  });

  test('a SKIPPED rule is a warning notice', async () => {
    const text = [PROSE[0], 'SKIPPED: r.sqlite could not be analyzed because it does not contain the required CUDA data.'].join('\n');
    const capture = await read(writeTempFile('skipped.txt', text));
    expect(capture.gpuTimeUtilPercent).toBeUndefined();
    expect(capture.notices).toEqual([expect.objectContaining({ code: 'nsys-gpu-util-skipped', severity: 'warning' })]);
  });

  test('a garbled percentage is an InputError naming the line', async () => {
    const text = [...PROSE, 'Row#,In-Use (%),Duration (ns),Start (ns),PID,Device ID,Context ID', '1,2.O,1183664010,1022487554,2231,0,1'].join('\n');
    const path = writeTempFile('garbled.csv', text);
    await expect(read(path)).rejects.toThrow(InputError);
    await expect(read(path)).rejects.toThrow(`${path}:6: expected a number in column "In-Use (%)"`);
  });

  test('a header without rows (truncated) is an InputError', async () => {
    const path = writeTempFile('cut.txt', [...PROSE, ' Row#  In-Use (%)  Duration (ns)', ' ----  ----------  -------------', ''].join('\n'));
    await expect(read(path)).rejects.toThrow(`${path}:5: expected gpu_time_util rows`);
  });

  test('unrelated text is an InputError', async () => {
    const path = writeTempFile('none.txt', 'Processing [r.sqlite] with [/x/rules/gpu_gaps.py]... \nnothing here\n');
    await expect(read(path)).rejects.toThrow(`${path}:1: expected gpu_time_util output`);
  });

  test('sniff: claims analyze output, not nsys stats tables', async () => {
    for (const name of ['analyze_all_rules_column.txt', 'analyze_gpu_time_util_hostbound.csv']) {
      const head = (await openInput(fixture(name))).head;
      expect(nsysGpuTimeUtil.sniff(head)).toBe(true);
      expect(nsysStats.sniff(head)).toBe(false);
    }
    for (const name of ['nsys_healthy_kern_sum.csv', 'mineru_nsys_stats_stdout_no_cuda.csv', 'column_profile_stats.txt']) {
      expect(nsysGpuTimeUtil.sniff((await openInput(fixture(name))).head)).toBe(false);
    }
  });
});
