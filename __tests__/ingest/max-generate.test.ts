import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { InputError } from '../../src/errors.js';
import { runImporter } from '../../src/ingest/common/importer.js';
import { openInput } from '../../src/ingest/common/input-file.js';
import maxBenchmark from '../../src/ingest/formats/max-benchmark.js';
import maxGenerate from '../../src/ingest/formats/max-generate.js';
import { UNLISTED_KERNELS } from '../../src/ingest/formats/max/console.js';
import { writeTempFile } from './profiler-temp-file.js';

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/max/${name}`, import.meta.url));
const read = async (path: string) => runImporter(maxGenerate, await openInput(path));
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const metric = (capture: { metrics: { name: string; value: number }[] }, name: string) => capture.metrics.filter((m) => m.name === name).map((m) => m.value);

/*
 * Expected kernel numbers were computed with awk over the fixture text, independently of the importer:
 *   rows between the `=== Top N GPU kernels` title and the next non-row line; value × {ms:1e6, us:1e3, s:1e9, ns:1};
 *   total from the title; remainder = total − Σ rows.
 * generate_profile_gemv.txt: 15 rows, Σ = 65,428,050 ns, title total 66.31 ms → remainder 881,950 ns,
 * Σ calls 9,569, top gemv_split_k_bfloat16_bfloat16_bfloat16_256_f519d2c2 23.96 ms.
 * Metric values are the literal numbers printed in the fixture.
 */
describe('max-generate --profile (healthy GEMV decode)', () => {
  test('GPU table: top 15 rows plus the unlisted remainder, summing to the title total', async () => {
    const capture = await read(fixture('generate_profile_gemv.txt'));
    expect(capture.source).toMatchObject({ format: 'max-generate', tool: 'max', toolVersion: '26.4.0' });
    expect(capture.source.parts).toEqual(['metrics', 'cpu-table', 'gpu-kernel-table']);
    expect(capture.kernels).toHaveLength(16);
    expect(capture.kernels[0]).toEqual({ name: 'gemv_split_k_bfloat16_bfloat16_bfloat16_256_f519d2c2', totalNs: 23_960_000, instances: 672 });
    expect(sum(capture.kernels.slice(0, 15).map((k) => k.totalNs))).toBe(65_428_050);
    expect(capture.kernels[15]).toEqual({ name: UNLISTED_KERNELS, totalNs: 881_950, instances: 0 });
    expect(sum(capture.kernels.map((k) => k.totalNs))).toBe(66_310_000);
    expect(sum(capture.kernels.map((k) => k.instances))).toBe(9_569);
    expect(capture.source.stats).toEqual([expect.objectContaining({ name: 'unlisted-kernels', severity: 'info', count: 1 })]);
  });

  test('a GPU table cut short (8 of its title\'s top 15 rows) is named as data loss, not as kernels the table leaves out', async () => {
    // The first 50 lines of generate_profile_gemv.txt: the title (line 41), the header and 8 rows,
    // 23.96 + 14.52 + 8.02 + 3.38 + 2.70 + 2.47 + 2.15 + 1.85 = 59.05 ms of the title's 66.31 ms.
    const text = readFileSync(fixture('generate_profile_gemv.txt'), 'utf8').split('\n').slice(0, 50).join('\n');
    const capture = await read(writeTempFile('cut_generate.txt', `${text}\n`));
    expect(capture.kernels).toHaveLength(9);
    expect(capture.kernels.at(-1)).toEqual({ name: UNLISTED_KERNELS, totalNs: 7_260_000, instances: 0 });
    expect(capture.source.stats).toEqual([
      {
        name: 'kernel-rows-missing',
        severity: 'data-loss',
        count: 1,
        detail: 'the GPU table (line 41) is titled the top 15 kernels but holds 8 rows: it is cut short, and 7260000 ns of its total are kept as "[other kernels not listed]"',
      },
    ]);
  });

  test('a --profile log cut before its GPU kernel table (after the Python/CPU table) says the kernels are missing', async () => {
    // generate_profile_gemv.txt up to line 35: the metrics and 11 of the CPU table's 15 rows.
    const text = readFileSync(fixture('generate_profile_gemv.txt'), 'utf8').split('\n').slice(0, 35).join('\n');
    const capture = await read(writeTempFile('cut_before_gpu.txt', `${text}\n`));
    expect(capture.kernels).toEqual([]);
    expect(capture.source.stats).toEqual([
      {
        name: 'kernel-table-missing',
        severity: 'data-loss',
        count: 1,
        detail: 'the Python/CPU table of a --profile run is here (line 23), but neither the GPU kernel table that follows it nor a note on why there is none: the log is cut short',
      },
    ]);
    // A run that said why it has no kernels (nsys not found) is whole.
    expect((await read(fixture('generate_profile_no_nsys.txt'))).source.stats.map((s) => s.name)).not.toContain('kernel-table-missing');
  });

  test('metrics report', async () => {
    const capture = await read(fixture('generate_profile_gemv.txt'));
    expect(Object.fromEntries(capture.metrics.map((m) => [m.name, m.value]))).toEqual({
      prompt_tokens: 15,
      output_tokens: 100,
      startup_ms: 753.1200885772705,
      ttft_ms: 24.68914031987879,
      prefill_tok_s: 607.5545687559867,
      tpot_ms: 9.152183532714936,
      decode_tok_s: 109.26354311246602,
      latency_ms: 930.7553100586574,
      request_throughput: 1.074396234104728,
    });
  });

  test('CPU table and the saved-profile path', async () => {
    const capture = await read(fixture('generate_profile_gemv.txt'));
    // awk over the CPU table: 15 rows, Σ = 960,840,000 ns
    expect(capture.cpuFunctions).toHaveLength(15);
    expect(sum(capture.cpuFunctions.map((f) => f.totalNs))).toBe(960_840_000);
    expect(capture.cpuFunctions[0]).toEqual({ name: "{method 'execute' of 'max._core.engine.Model' objects}", totalNs: 612_400_000, calls: '101', percent: 63.7 });
    expect(capture.cpuFunctions.find((f) => f.name === 'copy.py:128(deepcopy)')?.calls).toBe('2020/404');
    expect(capture.notices).toEqual([{ code: 'max-profile-saved', severity: 'info', message: 'Full profile saved to /home/ci/work/max-profile.nsys-rep' }]);
  });

  test('no remainder row when the rows cover the total within rounding', async () => {
    const capture = await read(fixture('generate_profile_all_shown.txt'));
    // awk: Σ rows 1,159,812 ns vs 1.16 ms total: 188 ns, inside the rounding of a 2-decimal ms total
    expect(capture.kernels.map((k) => k.name)).not.toContain(UNLISTED_KERNELS);
    expect(capture.kernels).toHaveLength(4);
    expect(capture.kernels[3]).toEqual({ name: 'elementwise_r1_w8_b256_gs_77aa88bb', totalNs: 712, instances: 2 });
    expect(capture.source.stats).toEqual([]);
  });
});

describe('max-generate fallbacks and errors', () => {
  test('no nsys: a warning notice, metrics and the CPU table only', async () => {
    const capture = await read(fixture('generate_profile_no_nsys.txt'));
    expect(capture.kernels).toEqual([]);
    expect(capture.notices).toEqual([expect.objectContaining({ code: 'max-no-nsys', severity: 'warning' })]);
    expect(capture.notices[0]!.message).toMatch(/^Nsight Systems \(`nsys`\) not found on PATH/);
    // awk: 6 rows, Σ = 897,270,000 ns (blank line between title and header is accepted)
    expect(sum(capture.cpuFunctions.map((f) => f.totalNs))).toBe(897_270_000);
    expect(capture.cpuFunctions).toHaveLength(6);
    expect(metric(capture, 'decode_tok_s')).toEqual([107.30962492964233]);
  });

  test.each([
    ['Note: no NVIDIA GPU detected; only Python/CPU profile will be captured.', 'max-no-gpu'],
    ['Note: libcudart could not be loaded; only Python/CPU profile will be captured.', 'max-no-cudart'],
  ])('%s', async (line, code) => {
    const text = readFileSync(fixture('generate_profile_no_nsys.txt'), 'utf8').replace(/^Note: .*$/m, line);
    const capture = await read(writeTempFile('fallback.txt', text));
    expect(capture.notices).toEqual([{ code, severity: 'warning', message: line.replace('Note: ', '') }]);
  });

  test('n/a values are skipped and counted', async () => {
    const capture = await read(fixture('generate_na.txt'));
    expect(capture.metrics.map((m) => m.name)).toEqual(['prompt_tokens', 'output_tokens', 'ttft_ms', 'prefill_tok_s', 'latency_ms', 'request_throughput']);
    expect(metric(capture, 'ttft_ms')).toEqual([42.817115783691406]);
    expect(capture.source.stats).toEqual([expect.objectContaining({ name: 'metric-not-available', severity: 'info', count: 3 })]);
    expect(capture.source.parts).toEqual(['metrics']);
  });

  test('empty capture window: an error notice, no kernels', async () => {
    const capture = await read(fixture('generate_profile_no_kernels.txt'));
    expect(capture.kernels).toEqual([]);
    expect(capture.notices).toEqual([expect.objectContaining({ code: 'max-no-kernel-data', severity: 'error' })]);
    expect(capture.cpuFunctions).toHaveLength(3);
  });

  test('nsys failure and an empty CPU profile', async () => {
    const capture = await read(fixture('generate_profile_nsys_failed.txt'));
    expect(capture.notices.map((n) => [n.code, n.severity])).toEqual([
      ['max-no-cpu-samples', 'info'],
      ['max-nsys-failed', 'error'],
    ]);
    expect(capture.cpuFunctions).toEqual([]);
    expect(metric(capture, 'output_tokens')).toEqual([32]);
  });
});

test('CRLF line endings (a log saved on Windows) read the same', async () => {
  const crlf = readFileSync(fixture('generate_profile_gemv.txt'), 'utf8').replace(/\n/g, '\r\n');
  const path = writeTempFile('crlf.txt', crlf);
  expect(maxGenerate.sniff((await openInput(path)).head)).toBe(true);
  const capture = await read(path);
  const original = await read(fixture('generate_profile_gemv.txt'));
  expect({ ...capture, source: undefined }).toEqual({ ...original, source: undefined });
});

test('two profiled runs in one log: both tables are kept and a notice says so', async () => {
  const text = readFileSync(fixture('generate_profile_gemv.txt'), 'utf8');
  const capture = await read(writeTempFile('twice.txt', text + text));
  expect(capture.kernels).toHaveLength(32);
  expect(sum(capture.kernels.map((k) => k.totalNs))).toBe(2 * 66_310_000);
  expect(capture.notices.filter((n) => n.code === 'max-several-profiles')).toHaveLength(1);
  expect(metric(capture, 'decode_tok_s')).toHaveLength(2);
});

describe('max-generate bad input', () => {
  const healthy = readFileSync(fixture('generate_profile_gemv.txt'), 'utf8');
  const lines = healthy.split('\n');
  const rowIndex = lines.findIndex((line) => line.includes('sm100_mha_1q_depth128'));

  test('a garbled kernel row is an InputError naming the file and line', async () => {
    const broken = [...lines];
    broken[rowIndex] = '  5.1%    3.38 m';
    const path = writeTempFile('garbled.txt', broken.join('\n'));
    await expect(read(path)).rejects.toThrow(InputError);
    await expect(read(path)).rejects.toThrow(`${path}:${rowIndex + 1}: expected a table row`);
  });

  test('a table cut after its title is an InputError', async () => {
    const titleIndex = lines.findIndex((line) => line.startsWith('=== Top 15 GPU kernels'));
    const path = writeTempFile('cut.txt', lines.slice(0, titleIndex + 1).join('\n'));
    await expect(read(path)).rejects.toThrow(`${path}:${titleIndex + 2}: expected the "%  total  calls  kernel" header`);
  });

  test('rows adding up to more than the title total are an InputError', async () => {
    const path = writeTempFile('over.txt', healthy.replace('66.31 ms total', '50.00 ms total'));
    await expect(read(path)).rejects.toThrow(/expected the kernel rows to add up to at most the title's 50\.00 ms total, got 65\.43 ms/);
  });

  test('a real paste cut off after "Time per Output Token": the complete metrics are read, the missing ones named', async () => {
    const capture = await read(fixture('modular_issue6060_max_generate_olmo2_1b_console_partial.txt'));
    // The literal numbers printed in the paste.
    expect(capture.metrics).toEqual([
      { name: 'prompt_tokens', value: 1 },
      { name: 'output_tokens', value: 100 },
      { name: 'startup_ms', value: 788363.9171123505 },
      { name: 'ttft_ms', value: 115.8907413482666 },
      { name: 'prefill_tok_s', value: 8.628817007864944 },
      { name: 'tpot_ms', value: 12.598991394042969 },
    ]);
    const message =
      'the metrics report is cut off (the file ends after "Time per Output Token"): Eval throughput (token-generation), Total Latency, Total Throughput are missing; the 6 metrics printed in full are read';
    expect(capture.notices).toEqual([{ code: 'max-metrics-cut-off', severity: 'warning', message }]);
    expect(capture.source.stats).toContainEqual({ name: 'metrics-cut-off', severity: 'data-loss', count: 1, detail: message });
  });

  test('a paste cut inside a line: that line is left out, never read as a shorter number', async () => {
    const text = readFileSync(fixture('generate_profile_gemv.txt'), 'utf8');
    // Cut two characters into the value: "Time per Output Token: 1" must not read as 1 ms.
    const cut = text.slice(0, text.indexOf('Time per Output Token: ') + 'Time per Output Token: 1'.length);
    const path = writeTempFile('cut_mid_line.txt', cut);
    const capture = await read(path);
    expect(capture.metrics.map((m) => m.name)).not.toContain('tpot_ms');
    const line = cut.split('\n').length;
    expect(capture.notices[0]!.message).toMatch(new RegExp(`^the metrics report is cut off \\(line ${line} is cut off mid-line\\): Time per Output Token, Eval throughput`));
  });

  test('a garbled metric value is an InputError naming the line', async () => {
    const text = healthy.replace('Time to first token: 24.68914031987879 ms', 'Time to first token: 24.6.8 ms');
    const path = writeTempFile('bad_metric.txt', text);
    const line = lines.findIndex((l) => l.startsWith('Time to first token')) + 1;
    await expect(read(path)).rejects.toThrow(`${path}:${line}: expected a number after "Time to first token:"`);
  });

  test('text with none of the MAX output is an InputError', async () => {
    const path = writeTempFile('none.txt', 'The meaning of life is 42.\n');
    await expect(read(path)).rejects.toThrow(`${path}:1: expected MAX generate output`);
  });
});

describe('max-generate sniffing', () => {
  test.each([
    'generate_profile_gemv.txt',
    'generate_profile_no_nsys.txt',
    'generate_na.txt',
    'generate_profile_no_kernels.txt',
    'generate_profile_nsys_failed.txt',
    'generate_profile_all_shown.txt',
  ])('claims %s; max-benchmark does not', async (name) => {
    const head = (await openInput(fixture(name))).head;
    expect(maxGenerate.sniff(head)).toBe(true);
    expect(maxBenchmark.sniff(head)).toBe(false);
  });

  test.each(['benchmark_p50.txt', 'benchmark_median.txt', 'benchmark_vllm_style.txt', 'benchmark_profile.txt'])(
    'leaves %s (which may hold the same GPU table) to max-benchmark',
    async (name) => {
      expect(maxGenerate.sniff((await openInput(fixture(name))).head)).toBe(false);
    },
  );

  test('rejects plain logs and nsys tables', () => {
    expect(maxGenerate.sniff('INFO: Beginning text generation\nhello\n')).toBe(false);
    expect(maxGenerate.sniff('Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n')).toBe(false);
  });
});
