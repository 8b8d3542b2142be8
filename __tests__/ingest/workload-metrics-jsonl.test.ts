import { join } from 'node:path';
import { InputError } from '../../src/errors.js';
import { detectFormat } from '../../src/ingest/registry.js';
import { runImporter } from '../../src/ingest/common/importer.js';
import { inputFromText, openInput } from '../../src/ingest/common/input-file.js';
import workloadMetrics from '../../src/ingest/formats/workload-metrics-jsonl.js';
import { mergeMetrics } from '../../src/pipeline/merge-captures.js';

const timed = join(import.meta.dirname, '..', 'fixtures', 'h200-captures', 'healthy_decode', 'healthy_timed.stdout.jsonl');
const fromText = (text: string) => runImporter(workloadMetrics, inputFromText('workload.out', text));

describe('workload-metrics-jsonl', () => {
  it('reads the 15 timed runs of the real H200 healthy decode as decode_tok_s samples', async () => {
    const capture = await runImporter(workloadMetrics, await openInput(timed));
    // python3: [json.loads(l)['tok_s'] for l in open(f) if '"kind": "run"' in l] → 15 values, median 378.506
    const [decode] = mergeMetrics([capture]);
    expect(decode).toMatchObject({ name: 'decode_tok_s', unit: 'tok/s', direction: 'higher', value: 378.506 });
    expect(decode!.samples).toHaveLength(15);
    expect(decode!.samples[0]).toBe(378.496);
    // Each run record's t_start/t_end is a timed window (first run: 1796016074.711 → 1796016075.387).
    expect(capture.timedWindows).toHaveLength(15);
    expect(capture.timedWindows[0]).toEqual({ startS: 1796016074.711, endS: 1796016075.387 });
    // The closing summary line repeats the runs; it is counted, not read.
    expect(capture.source.stats).toEqual([expect.objectContaining({ name: 'non-metric-line', count: 1 })]);
  });

  it('a real run log cut inside its tenth run line names that line as cut off (data loss), not as workload output', async () => {
    // healthy_timed.stdout.jsonl's first 9 lines are whole run records; the 10th is cut mid-record.
    const { readFileSync } = await import('node:fs');
    const lines = readFileSync(timed, 'utf8').split('\n');
    const text = `${lines.slice(0, 9).join('\n')}\n${lines[9]!.slice(0, 60)}`;
    const capture = await fromText(text);
    expect(mergeMetrics([capture])[0]!.samples).toHaveLength(9);
    expect(capture.source.stats).toEqual([
      { name: 'truncated-last-line', severity: 'data-loss', count: 1, detail: 'line 10 is cut off (the writer stopped mid-line): a metric record is missing' },
    ]);
    // The same line whole, or a stray brace the workload printed and ended, is no data loss.
    expect((await fromText(lines.slice(0, 10).join('\n'))).source.stats).toEqual([]);
    expect((await fromText(`${lines.slice(0, 9).join('\n')}\n{not json\n`)).source.stats.map((s) => s.name)).toEqual(['non-metric-line']);
  });

  it('the runs\' batch (tokens per decode step) is the environment\'s batch when every run gives the same', async () => {
    // Every run line of healthy_timed.stdout.jsonl has "batch": 1 (tok_s = steps × batch / seconds).
    expect((await runImporter(workloadMetrics, await openInput(timed))).environment.batch).toBe('1');
    const mixed = await fromText(['{"kind": "run", "tok_s": 100, "batch": 8}', '{"kind": "run", "tok_s": 190, "batch": 16}'].join('\n'));
    expect(mixed.environment.batch).toBeUndefined();
    expect(mixed.source.stats).toEqual([expect.objectContaining({ name: 'mixed-batch', count: 1 })]);
    expect((await fromText('{"kind": "run", "tok_s": 100, "batch": 2.5}')).environment.batch).toBeUndefined();
  });

  it('is detected from content among the other formats', async () => {
    expect(detectFormat(await openInput(timed)).id).toBe('workload-metrics-jsonl');
  });

  it('takes metric records and canonical keys of run records, skipping other output', async () => {
    const capture = await fromText(
      [
        'loading model…',
        '{"metric": "ttft_ms", "value": 12.5}',
        '{"kind": "run", "tok_s": 100, "tpot_ms": 10, "note": "x"}',
        '{"metric": "my_custom_score", "value": 3}',
      ].join('\n'),
    );
    expect(capture.metrics).toEqual([
      { name: 'ttft_ms', value: 12.5 },
      { name: 'decode_tok_s', value: 100 },
      { name: 'tpot_ms', value: 10 },
    ]);
    expect(capture.source.stats.map((s) => s.name).sort()).toEqual(['non-metric-line', 'unknown-metric']);
  });

  it('drops a record whose value is no number alone, counted as data loss with its line', async () => {
    const capture = await fromText(
      [
        '{"metric": "decode_tok_s", "value": 1}',
        '{"metric": "decode_tok_s", "value": "fast"}',
        '{"metric": "ttft_ms", "value": null}',
        '{"metric": "ttft_ms", "value": 1e300}',
        '{"kind": "run", "tok_s": null, "tpot_ms": 10}',
        '{"kind": "run", "tok_s": 2, "tpot_ms": "n/a"}',
      ].join('\n'),
    );
    // Lines 1 and 6 hold numbers; the run of line 5 is dropped whole (it did not measure), line 6 keeps its tok_s.
    expect(capture.metrics).toEqual([
      { name: 'decode_tok_s', value: 1 },
      { name: 'decode_tok_s', value: 2 },
    ]);
    expect(capture.source.stats).toEqual([
      { name: 'unreadable-metric-value', severity: 'data-loss', count: 5, detail: 'first at line 2: decode_tok_s "fast" is not a finite number up to 9007199254740991' },
    ]);
  });

  it('refuses a file whose every record holds no number, naming the first', async () => {
    await expect(fromText('{"metric": "decode_tok_s", "value": null}')).rejects.toThrow(
      new InputError('workload.out', 'expected at least one metric record ({"metric": NAME, "value": N} or {"kind": "run", "tok_s": N}) with a finite number (none held a number; first at line 1: decode_tok_s null is not a finite number up to 9007199254740991)'),
    );
  });

  it('refuses output with no metric record at all', async () => {
    await expect(fromText('hello\nworld')).rejects.toThrow(/workload\.out: expected at least one metric record/);
  });
});
