/**
 * `max benchmark` console output (also the vLLM-style summary older MAX builds printed). Each
 * `Serving Benchmark Result` block gives: decode_tok_s = Total generated tokens / Benchmark duration
 * (aggregate; the printed `Output token throughput (tok/s)` when the totals are missing),
 * ttft_ms / tpot_ms / itl_ms / latency_ms from the `Median` or `P50` lines (per-request medians),
 * request_throughput and failed_requests; `GPU N utilization (%)` becomes one utilization sample.
 * With `--profile`, the GPU kernel table is read as for `max generate`.
 * Limits: per-request throughput distributions (`Mean output token throughput`) are not gated;
 * several result blocks (a sweep) are pooled as samples and flagged with a notice.
 */
import { InputError } from '../../errors.js';
import type { CaptureInput, KernelStat, MetricSample, Notice, UtilSample } from '../../model/capture.js';
import type { MetricName } from '../../model/metrics.js';
import { defineImporter, type ImportContext } from '../common/importer.js';
import { GPU_TITLE, maxVersion, profilerNotice, readGpuKernelTable } from './max/console.js';
import { parseNumber, splitLines } from '../common/text-tables.js';

const TITLE = /^=+ Serving Benchmark Result =+\s*$/;
const CLOSING = /^={20,}\s*$/;
/** `label:` padded to 40 columns, the value, and sometimes a unit (`%`). */
const LABELLED = /^(\S.*?):\s+(\S+)(?:\s+%)?\s*$/;

type Field =
  | { kind: 'metric'; name: MetricName }
  | { kind: 'duration' }
  | { kind: 'generated' }
  | { kind: 'printed-decode' }
  | { kind: 'gpu-util'; device: number };

function fieldFor(label: string): Field | undefined {
  const key = label.toLowerCase().replace(/\s+/g, ' ');
  if (key === 'failed requests') return { kind: 'metric', name: 'failed_requests' };
  if (key === 'request throughput (req/s)') return { kind: 'metric', name: 'request_throughput' };
  if (key === 'benchmark duration (s)') return { kind: 'duration' };
  if (key === 'total generated tokens') return { kind: 'generated' };
  if (key === 'output token throughput (tok/s)') return { kind: 'printed-decode' };
  const median = /^(?:median|p50) (ttft|tpot|itl|request latency|e2e latency|e2el) \(ms\)$/.exec(key);
  if (median) {
    const names: Record<string, MetricName> = { ttft: 'ttft_ms', tpot: 'tpot_ms', itl: 'itl_ms' };
    return { kind: 'metric', name: names[median[1]!] ?? 'latency_ms' };
  }
  const gpu = /^gpu (\d+) utilization \(%\)$/.exec(key);
  if (gpu) return { kind: 'gpu-util', device: Number(gpu[1]) };
  return undefined;
}

interface Block {
  metrics: MetricSample[];
  durationS?: number;
  generated?: number;
  printedDecode?: number;
}

function finishBlock(block: Block, ctx: ImportContext): MetricSample[] {
  const metrics = [...block.metrics];
  if (block.generated !== undefined && block.durationS !== undefined && block.durationS > 0) {
    metrics.push({ name: 'decode_tok_s', value: block.generated / block.durationS });
  } else if (block.printedDecode !== undefined) {
    metrics.push({ name: 'decode_tok_s', value: block.printedDecode });
  } else {
    ctx.count('no-decode-throughput', 'info', 'a result block has neither total generated tokens with a duration nor an output token throughput');
  }
  return metrics;
}

export default defineImporter({
  id: 'max-benchmark',
  label: 'MAX benchmark console output',
  capabilities: { kernels: 'optional', metrics: true, utilization: true },
  suite: 'max',
  sniff(head) {
    if (/^=+ Serving Benchmark Result =+\s*$/m.test(head)) return true;
    return /^Successful requests:\s+\d/m.test(head) && /^Benchmark duration \(s\):\s+\d/m.test(head);
  },
  async read(file, ctx) {
    const lines = splitLines(await file.text());
    const metrics: MetricSample[] = [];
    const utilization: UtilSample[] = [];
    const kernels: KernelStat[] = [];
    const notices: Notice[] = [];
    const parts = new Set<string>();
    const titled = lines.some((line) => TITLE.test(line));
    let block: Block | undefined = titled ? undefined : { metrics: [] };
    let blockStart = 0;
    let blocks = 0;
    let toolVersion: string | undefined;

    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      if (TITLE.test(line)) {
        if (block) throw new InputError(file.path, 'expected the result block to close with a "=====" line before the next one', String(i + 1));
        block = { metrics: [] };
        blockStart = i;
        continue;
      }
      if (block && titled && CLOSING.test(line)) {
        metrics.push(...finishBlock(block, ctx));
        blocks++;
        block = undefined;
        continue;
      }
      if (GPU_TITLE.test(line)) {
        const table = readGpuKernelTable(file.path, lines, i, ctx);
        kernels.push(...table.kernels);
        parts.add('gpu-kernel-table');
        i = table.next - 1;
        continue;
      }
      const failure = /(Benchmark result validation failed|Benchmark failed): (.*)$/.exec(line);
      if (failure) {
        const code = failure[1] === 'Benchmark failed' ? 'max-benchmark-failed' : 'max-benchmark-invalid';
        notices.push({ code, severity: 'error', message: `${failure[1]}: ${failure[2]!.trim()}` });
        continue;
      }
      const notice = profilerNotice(line);
      if (notice) notices.push(notice);
      toolVersion ??= maxVersion(line);
      if (!block) continue;

      const labelled = LABELLED.exec(line);
      const field = labelled ? fieldFor(labelled[1]!) : undefined;
      if (!labelled || !field) continue;
      const text = labelled[2]!;
      if (/^(nan|-?inf|n\/a|none)$/i.test(text)) {
        ctx.count('value-not-available', 'info', `"${labelled[1]}:" was printed as ${text} and is left out`);
        continue;
      }
      const value = parseNumber(text);
      if (value === undefined) {
        throw new InputError(file.path, `expected a number after "${labelled[1]}:", got ${JSON.stringify(text)}`, String(i + 1));
      }
      if (field.kind === 'metric') block.metrics.push({ name: field.name, value });
      else if (field.kind === 'duration') block.durationS = value;
      else if (field.kind === 'generated') block.generated = value;
      else if (field.kind === 'printed-decode') block.printedDecode = value;
      else if (value >= 0 && value <= 100) utilization.push({ device: field.device, gpuPercent: value, reasons: [] });
      else ctx.count('utilization-out-of-range', 'data-loss', `GPU ${field.device} utilization ${value}% is outside 0..100`);
    }

    if (block && titled) {
      throw new InputError(file.path, 'expected the result block to close with a "=====" line; the file ends inside it', String(blockStart + 1));
    }
    if (block) {
      metrics.push(...finishBlock(block, ctx));
      blocks++;
    }
    if (metrics.length === 0) throw new InputError(file.path, 'expected a "Serving Benchmark Result" block with benchmark metrics', '1');
    parts.add('benchmark-result');
    if (blocks > 1) {
      notices.push({
        code: 'max-benchmark-several-results',
        severity: 'warning',
        message: `${blocks} benchmark result blocks (a sweep?) are pooled as samples of one run; split the file to gate each load separately`,
      });
    }

    const capture: CaptureInput = {
      source: { path: file.path, format: 'max-benchmark', parts: [...parts], tool: 'max', ...(toolVersion ? { toolVersion } : {}) },
      kernels,
      metrics,
      utilization,
      notices,
    };
    return capture;
  },
});
