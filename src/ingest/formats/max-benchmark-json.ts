/**
 * The JSON `max benchmark --result-filename` writes (vLLM's `--save-result` JSON has the same keys).
 * decode_tok_s = total_output_tokens / duration (aggregate; `output_throughput` when those are
 * missing); ttft_ms / tpot_ms / itl_ms / latency_ms from the `median_*` keys (per-request medians);
 * request_throughput; failed_requests from `failures`. `gpu_utilization[]` (mean per GPU over the run)
 * becomes one utilization sample per GPU; model_id and backend fill the environment.
 * Python writes NaN/Infinity for empty statistics; those values are dropped and counted.
 */
import { InputError } from '../../errors.js';
import type { CaptureInput, MetricSample, UtilSample } from '../../model/capture.js';
import type { MetricName } from '../../model/metrics.js';
import { defineImporter, type ImportContext } from '../common/importer.js';

/** Replace the bare NaN / Infinity tokens Python's json module writes (outside strings) with null. */
function nullNonFinite(text: string, ctx: ImportContext): string {
  return text.replace(/"(?:[^"\\]|\\.)*"|-?Infinity|NaN/g, (token) => {
    if (token.startsWith('"')) return token;
    ctx.count('non-finite-values', 'info', 'NaN or Infinity values in the JSON are treated as missing');
    return 'null';
  });
}

function parseJsonObject(path: string, text: string, ctx: ImportContext): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(nullNonFinite(text, ctx));
  } catch (error) {
    const position = /position (\d+)/.exec((error as Error).message)?.[1];
    throw new InputError(path, `expected valid JSON (${(error as Error).message})`, position ? `byte ${position}` : undefined);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InputError(path, 'expected a JSON object with benchmark results', 'byte 0');
  }
  return value as Record<string, unknown>;
}

function finite(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

const MEDIAN_KEYS: [string, MetricName][] = [
  ['median_ttft_ms', 'ttft_ms'],
  ['median_tpot_ms', 'tpot_ms'],
  ['median_itl_ms', 'itl_ms'],
  ['median_latency_ms', 'latency_ms'],
];

export default defineImporter({
  id: 'max-benchmark-json',
  label: 'MAX benchmark result JSON',
  capabilities: { metrics: true, utilization: true },
  suite: 'max',
  sniff(head) {
    if (!/^\s*\{/.test(head) || head.includes('"traceEvents"')) return false;
    return /"(request_throughput|median_ttft_ms|total_output_tokens)"\s*:/.test(head);
  },
  async read(file, ctx) {
    const result = parseJsonObject(file.path, await file.text(), ctx);
    const metrics: MetricSample[] = [];
    const push = (name: MetricName, key: string, value: unknown) => {
      const number = finite(value);
      if (number !== undefined) metrics.push({ name, value: number });
      else if (key in result) ctx.count('value-not-available', 'info', `"${key}" is ${JSON.stringify(value)} and is left out`);
    };

    const outputTokens = finite(result.total_output_tokens);
    const duration = finite(result.duration);
    if (outputTokens !== undefined && duration !== undefined && duration > 0) {
      metrics.push({ name: 'decode_tok_s', value: outputTokens / duration });
    } else {
      push('decode_tok_s', 'output_throughput', result.output_throughput);
    }
    for (const [key, name] of MEDIAN_KEYS) push(name, key, result[key]);
    push('request_throughput', 'request_throughput', result.request_throughput);
    push('failed_requests', 'failures', result.failures);
    if (metrics.length === 0) {
      throw new InputError(file.path, 'expected benchmark result keys (total_output_tokens and duration, median_ttft_ms, request_throughput …)', 'byte 0');
    }

    const utilization: UtilSample[] = [];
    const perGpu = result.gpu_utilization;
    if (Array.isArray(perGpu)) {
      perGpu.forEach((value, device) => {
        const percent = finite(value);
        if (percent !== undefined && percent >= 0 && percent <= 100) utilization.push({ device, gpuPercent: percent, reasons: [] });
        else ctx.count('utilization-dropped', 'data-loss', `gpu_utilization[${device}] is ${JSON.stringify(value)}, not a percentage`);
      });
    }

    const model = typeof result.model_id === 'string' ? result.model_id : undefined;
    const engine = typeof result.backend === 'string' ? result.backend : undefined;
    const capture: CaptureInput = {
      source: { path: file.path, format: 'max-benchmark-json', parts: ['benchmark-result'], tool: 'max' },
      metrics,
      utilization,
      environment: { ...(model ? { model } : {}), ...(engine ? { engine } : {}) },
    };
    return capture;
  },
});
