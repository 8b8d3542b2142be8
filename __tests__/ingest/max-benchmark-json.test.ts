import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { InputError } from '../../src/errors.js';
import { runImporter } from '../../src/ingest/common/importer.js';
import { openInput } from '../../src/ingest/common/input-file.js';
import maxBenchmarkJson from '../../src/ingest/formats/max-benchmark-json.js';
import { writeTempFile } from './profiler-temp-file.js';

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/max/${name}`, import.meta.url));
const read = async (path: string) => runImporter(maxBenchmarkJson, await openInput(path));
const metrics = (capture: { metrics: { name: string; value: number }[] }) => Object.fromEntries(capture.metrics.map((m) => [m.name, m.value]));
const original = readFileSync(fixture('benchmark_result.json'), 'utf8');

describe('max-benchmark-json', () => {
  test('result file: aggregate decode, medians, failures, per-GPU utilization, model and backend', async () => {
    const capture = await read(fixture('benchmark_result.json'));
    expect(capture.source).toMatchObject({ format: 'max-benchmark-json', tool: 'max', parts: ['benchmark-result'] });
    // values as written in the fixture; decode = total_output_tokens / duration = 11010 / 25.2713
    expect(metrics(capture)).toEqual({
      decode_tok_s: 11010 / 25.2713,
      ttft_ms: 790.18,
      tpot_ms: 36.12,
      itl_ms: 35.94,
      latency_ms: 8874.61,
      request_throughput: 1.978529,
      failed_requests: 0,
    });
    expect(capture.utilization).toEqual([
      { device: 0, gpuPercent: 87.45, reasons: [] },
      { device: 1, gpuPercent: 85.1, reasons: [] },
    ]);
    expect(capture.environment).toEqual({ model: 'meta-llama/Llama-3.1-8B-Instruct', engine: 'modular' });
    // Python wrote six NaN statistics (step_tpot_ms); they are nulled and counted, not fatal
    expect(capture.source.stats).toEqual([expect.objectContaining({ name: 'non-finite-values', count: 6 })]);
  });

  test('without token totals, output_throughput is used; null medians are counted', async () => {
    const result = JSON.parse(original.replace(/NaN/g, 'null')) as Record<string, unknown>;
    delete result.total_output_tokens;
    result.output_throughput = 435.6;
    result.median_itl_ms = null;
    delete result.gpu_utilization;
    const capture = await read(writeTempFile('r.json', JSON.stringify(result)));
    expect(metrics(capture).decode_tok_s).toBe(435.6);
    expect(metrics(capture).itl_ms).toBeUndefined();
    expect(capture.utilization).toEqual([]);
    expect(capture.source.stats).toEqual([expect.objectContaining({ name: 'value-not-available', count: 1 })]);
  });

  test('an out-of-range utilization entry is dropped and counted', async () => {
    const capture = await read(writeTempFile('u.json', original.replace('"gpu_utilization": [\n    87.45,', '"gpu_utilization": [\n    187.45,')));
    expect(capture.utilization).toEqual([{ device: 1, gpuPercent: 85.1, reasons: [] }]);
    expect(capture.source.stats.find((s) => s.name === 'utilization-dropped')).toMatchObject({ severity: 'data-loss', count: 1 });
  });

  test('truncated JSON is an InputError naming the file and byte offset', async () => {
    const path = writeTempFile('cut.json', original.slice(0, 400));
    await expect(read(path)).rejects.toThrow(InputError);
    await expect(read(path)).rejects.toThrow(new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:byte \\d+: expected valid JSON`));
  });

  test('a JSON array or an object without result keys is an InputError', async () => {
    await expect(read(writeTempFile('a.json', '[1,2]'))).rejects.toThrow('expected a JSON object with benchmark results');
    await expect(read(writeTempFile('o.json', '{"date": "2026-11-28"}'))).rejects.toThrow('expected benchmark result keys');
  });

  test('sniff', async () => {
    expect(maxBenchmarkJson.sniff((await openInput(fixture('benchmark_result.json'))).head)).toBe(true);
    expect(maxBenchmarkJson.sniff('{"schemaVersion":1,"traceEvents":[{"ph":"X","name":"request_throughput"}]}')).toBe(false);
    expect(maxBenchmarkJson.sniff('{"nv0": {"memory": {"total_bytes": 1}, "utilization": {"gpu_usage_percent": 3}}}')).toBe(false);
    expect(maxBenchmarkJson.sniff((await openInput(fixture('benchmark_p50.txt'))).head)).toBe(false);
  });
});
