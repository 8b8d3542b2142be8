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
const read = async (path: string) => runImporter(maxBenchmark, await openInput(path));
const metrics = (capture: { metrics: { name: string; value: number }[] }) => Object.fromEntries(capture.metrics.map((m) => [m.name, m.value]));

/* Expected values are the numbers printed in the fixtures; decode_tok_s is Total generated tokens / Benchmark duration. */
describe('max-benchmark console output', () => {
  test('current format (P50 lines, trailing spaces, GPU statistics)', async () => {
    const capture = await read(fixture('benchmark_p50.txt'));
    expect(capture.source).toMatchObject({ format: 'max-benchmark', tool: 'max', parts: ['benchmark-result'] });
    expect(metrics(capture)).toEqual({
      failed_requests: 0,
      request_throughput: 1.97837,
      ttft_ms: 790.18,
      tpot_ms: 36.12,
      itl_ms: 35.94,
      latency_ms: 8874.61,
      decode_tok_s: 11010 / 25.27,
    });
    // the per-request "P50 output token throughput" (27.05) must not be taken for aggregate decode
    expect(metrics(capture).decode_tok_s).toBeCloseTo(435.694, 3);
    expect(capture.utilization).toEqual([{ device: 0, gpuPercent: 87.45, reasons: [] }]);
    expect(capture.notices).toEqual([]);
  });

  test('older format (Median lines), failed requests and a validation failure', async () => {
    const capture = await read(fixture('benchmark_median.txt'));
    expect(metrics(capture)).toMatchObject({ failed_requests: 2, ttft_ms: 790.18, tpot_ms: 36.12, itl_ms: 35.94, decode_tok_s: 11010 / 25.27 });
    expect(capture.utilization).toEqual([]);
    expect(capture.notices).toEqual([{ code: 'max-benchmark-invalid', severity: 'error', message: 'Benchmark result validation failed: 2 requests failed' }]);
  });

  test('vLLM-style summary: decode from the totals, medians from Median lines', async () => {
    const capture = await read(fixture('benchmark_vllm_style.txt'));
    expect(metrics(capture)).toEqual({ request_throughput: 10.75, ttft_ms: 1870.07, tpot_ms: 85.6, itl_ms: 71.93, decode_tok_s: 107101 / 46.53 });
  });

  test('without the totals, the printed Output token throughput is the decode rate', async () => {
    const text = readFileSync(fixture('benchmark_vllm_style.txt'), 'utf8').replace(/^Total generated tokens:.*\n/m, '');
    const capture = await read(writeTempFile('no_totals.txt', text));
    expect(metrics(capture).decode_tok_s).toBe(2301.76);
  });

  test('--profile: the GPU kernel table with its unlisted remainder', async () => {
    const capture = await read(fixture('benchmark_profile.txt'));
    expect(capture.source.parts).toEqual(['gpu-kernel-table', 'benchmark-result']);
    // awk over the table: 5 rows Σ 52,580,000 ns, title 52.82 ms → remainder 240,000 ns
    expect(capture.kernels).toHaveLength(6);
    expect(capture.kernels[5]).toEqual({ name: UNLISTED_KERNELS, totalNs: 240_000, instances: 0 });
    expect(capture.kernels.reduce((a, k) => a + k.totalNs, 0)).toBe(52_820_000);
    expect(capture.notices).toEqual([expect.objectContaining({ code: 'max-profile-saved' })]);
    expect(metrics(capture).ttft_ms).toBe(790.18);
  });

  test('several result blocks (a sweep) are pooled and flagged', async () => {
    const text = readFileSync(fixture('benchmark_p50.txt'), 'utf8') + readFileSync(fixture('benchmark_vllm_style.txt'), 'utf8');
    const capture = await read(writeTempFile('sweep.txt', text));
    expect(capture.metrics.filter((m) => m.name === 'ttft_ms').map((m) => m.value)).toEqual([790.18, 1870.07]);
    expect(capture.notices).toEqual([expect.objectContaining({ code: 'max-benchmark-several-results', severity: 'warning' })]);
  });

  test('CRLF line endings read the same', async () => {
    const path = writeTempFile('crlf.txt', readFileSync(fixture('benchmark_p50.txt'), 'utf8').replace(/\n/g, '\r\n'));
    expect(maxBenchmark.sniff((await openInput(path)).head)).toBe(true);
    expect((await read(path)).metrics).toEqual((await read(fixture('benchmark_p50.txt'))).metrics);
  });

  test('label lines without the banner are read as one block', async () => {
    const text = ['Successful requests:                     100', 'Benchmark duration (s):                  59.45', 'Total generated tokens:                  52444', 'Median TPOT (ms):                        16.47', ''].join('\n');
    const capture = await read(writeTempFile('bare.txt', text));
    expect(metrics(capture)).toEqual({ tpot_ms: 16.47, decode_tok_s: 52444 / 59.45 });
  });
});

describe('max-benchmark bad input', () => {
  const p50 = readFileSync(fixture('benchmark_p50.txt'), 'utf8');
  const lines = p50.split('\n');

  test('a result block cut before its closing line is an InputError naming where it starts', async () => {
    const path = writeTempFile('cut.txt', lines.slice(0, 30).join('\n'));
    const start = lines.findIndex((line) => line.includes('Serving Benchmark Result')) + 1;
    await expect(read(path)).rejects.toThrow(InputError);
    await expect(read(path)).rejects.toThrow(`${path}:${start}: expected the result block to close`);
  });

  test('a garbled value is an InputError naming the line', async () => {
    const path = writeTempFile('garbled.txt', p50.replace(/^(Benchmark duration \(s\):\s+)25\.27/m, '$12x.27'));
    const line = lines.findIndex((l) => l.startsWith('Benchmark duration')) + 1;
    await expect(read(path)).rejects.toThrow(`${path}:${line}: expected a number after "Benchmark duration (s):"`);
  });

  test('a block with no metrics at all is an InputError', async () => {
    const path = writeTempFile('empty.txt', '============ Serving Benchmark Result ============\n==================================================\n');
    await expect(read(path)).rejects.toThrow(InputError);
  });
});

describe('max-benchmark sniffing', () => {
  test.each(['benchmark_p50.txt', 'benchmark_median.txt', 'benchmark_vllm_style.txt', 'benchmark_profile.txt'])('claims %s', async (name) => {
    expect(maxBenchmark.sniff((await openInput(fixture(name))).head)).toBe(true);
  });

  test.each(['generate_profile_gemv.txt', 'generate_na.txt', 'benchmark_result.json'])('rejects %s', async (name) => {
    expect(maxBenchmark.sniff((await openInput(fixture(name))).head)).toBe(false);
    if (name.startsWith('generate')) expect(maxGenerate.sniff((await openInput(fixture(name))).head)).toBe(true);
  });
});
