/**
 * Metrics printed by a `command` workload, one JSON object per line, mixed with any other output.
 * Two record shapes are read:
 * - `{"metric": "decode_tok_s", "value": 378.5}`: one sample of a canonical metric (src/model/metrics.ts);
 * - `{"kind": "run", "tok_s": 378.5, "ttft_ms": …}`: one timed run; `tok_s` is a decode_tok_s sample and
 *   any other key that names a canonical metric is a sample of it (python/workloads/llama_decode.py prints these);
 *   its `t_start` / `t_end` (seconds since the epoch), when given, mark a timed window, over which GPU
 *   utilization is then read instead of over the whole process (start-up and prefill left out); its
 *   `batch` (sequences per step, so tokens per decode step), when every run gives the same whole number,
 *   is the environment's batch (time per step is read from tok/s with it).
 * Each record is one sample, so a file with N timed runs gives N samples. Lines that are not JSON objects are
 * the workload's own output (a `{"kind": "summary"}` line repeats the runs) and are counted, not read;
 * a record the file stops inside (its last line, no newline, not whole JSON) is counted as data loss.
 * Limits: metric names outside the catalog are counted and dropped (a gate needs a known direction). A record
 * whose value is not a finite number up to 2^53 − 1 (`null` for a failed measurement, `"n/a"`, 1e300) is
 * dropped alone and counted as data loss (UNREADABLE_METRIC_STAT): the analysis says so in the verdict's
 * first lines, and the file's other records still count.
 */
import { InputError } from '../../errors.js';
import type { CaptureInput, MetricSample, TimedWindow } from '../../model/capture.js';
import { isMetricName } from '../../model/metrics.js';
import { defineImporter, MAX_PLAUSIBLE_VALUE } from '../common/importer.js';

type MetricRecord = { type: 'metric'; metric: string; value: unknown } | { type: 'run'; fields: Record<string, unknown> };

export function asMetricRecord(line: string): MetricRecord | null {
  const body = line.trim();
  if (!body.startsWith('{') || !body.endsWith('}')) return null;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return null;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const record = value as Record<string, unknown>;
  if (typeof record['metric'] === 'string' && 'value' in record) return { type: 'metric', metric: record['metric'], value: record['value'] };
  if (record['kind'] === 'run' && 'tok_s' in record) return { type: 'run', fields: record };
  return null;
}

/** The import stat of metric records dropped for a value that is no number: data loss the verdict names. */
export const UNREADABLE_METRIC_STAT = 'unreadable-metric-value';

function finiteNumber(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= MAX_PLAUSIBLE_VALUE ? value : null;
}

/** A value as the line wrote it, cut short for a sentence. */
function shownValue(value: unknown): string {
  const text = value === undefined ? 'missing' : JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

export default defineImporter({
  lineRecord: asMetricRecord,
  id: 'workload-metrics-jsonl',
  label: 'workload metrics (JSON lines)',
  capabilities: { metrics: true },
  sniff(head) {
    for (const line of head.split(/\r?\n/, 200)) {
      if (asMetricRecord(line)) return true;
    }
    return false;
  },
  async read(file, ctx) {
    const text = await file.text();
    const lines = text.split(/\r?\n/);
    // The file stops inside its last line (no newline after it): a record there was cut off, not printed whole.
    const cutLine = /\n\s*$/.test(text) || lines.at(-1)!.trim() === '' ? -1 : lines.length - 1;
    const metrics: MetricSample[] = [];
    const timedWindows: TimedWindow[] = [];
    const batches = new Set<number>();
    let firstDropped: string | undefined;
    const dropValue = (metric: string, value: unknown, line: number): void => {
      const what = `line ${line}: ${metric} ${shownValue(value)} is not a finite number up to ${MAX_PLAUSIBLE_VALUE}`;
      firstDropped ??= what;
      ctx.count(UNREADABLE_METRIC_STAT, 'data-loss', `first at ${what}`);
    };
    lines.forEach((line, index) => {
      if (line.trim() === '') return;
      const record = asMetricRecord(line);
      if (!record && index === cutLine && /^\s*\{/.test(line)) {
        ctx.count('truncated-last-line', 'data-loss', `line ${index + 1} is cut off (the writer stopped mid-line): a metric record is missing`);
        return;
      }
      if (!record) {
        ctx.count('non-metric-line', 'info', 'workload output that is not a metric record');
        return;
      }
      if (record.type === 'metric') {
        const value = finiteNumber(record.value);
        const name = record.metric;
        if (!isMetricName(name)) {
          ctx.count('unknown-metric', 'data-loss', `${name} (line ${index + 1}) is not a known metric name`);
          return;
        }
        if (value === null) return dropValue(name, record.value, index + 1);
        metrics.push({ name, value });
        return;
      }
      const tokS = finiteNumber(record.fields['tok_s']);
      // A run without its throughput is dropped whole: its other fields describe a run that did not measure.
      if (tokS === null) return dropValue('tok_s', record.fields['tok_s'], index + 1);
      metrics.push({ name: 'decode_tok_s', value: tokS });
      const startS = finiteNumber(record.fields['t_start']);
      const endS = finiteNumber(record.fields['t_end']);
      if (startS !== null && endS !== null && endS > startS) timedWindows.push({ startS, endS });
      const batch = finiteNumber(record.fields['batch']);
      if (batch !== null) batches.add(batch);
      for (const [key, value] of Object.entries(record.fields)) {
        if (key === 'decode_tok_s' || !isMetricName(key)) continue;
        if (finiteNumber(value) !== null) metrics.push({ name: key, value: value as number });
        else dropValue(key, value, index + 1);
      }
    });
    if (metrics.length === 0) {
      const why = firstDropped ? ` (none held a number; first at ${firstDropped})` : '';
      throw new InputError(file.path, `expected at least one metric record ({"metric": NAME, "value": N} or {"kind": "run", "tok_s": N}) with a finite number${why}`);
    }
    const capture: CaptureInput = {
      source: { path: file.path, format: 'workload-metrics-jsonl', parts: ['metrics'], tool: 'workload' },
      metrics,
      timedWindows,
    };
    const [batch] = batches;
    if (batches.size === 1 && Number.isInteger(batch) && batch! >= 1) capture.environment = { batch: String(batch) };
    else if (batches.size > 1) ctx.count('mixed-batch', 'info', `the runs give ${batches.size} different batch sizes; no batch recorded`);
    return capture;
  },
});
