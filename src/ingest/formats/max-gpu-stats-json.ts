/**
 * `max.profiler.gpu` records (`BackgroundRecorder.stats`, or `GPUDiagContext.get_stats()` per tick),
 * serialized as a JSON array of sample dicts, JSON lines, or documents back to back. A sample dict is
 * `{"nv0": {"memory": {...}, "utilization": {...}, "clocks": {...} | null}, "amd0": …}`.
 * Mapping: the key suffix → device, `utilization.gpu_usage_percent` → gpuPercent,
 * `memory_activity_percent` → memoryPercent, `clocks.core_mhz` → smClockMhz, `memory.used_bytes` →
 * memoryUsedBytes, `clocks.throttle_reasons` → reasons as given (gpu_idle included; the model keeps
 * only the hardware ones as throttling). A numeric `t`/`timestamp` key beside the GPUs, where a
 * script added one, becomes the sample time.
 * Limits: the records carry no power draw and, unless a script added it, no time. When NVIDIA and
 * AMD GPUs are both present, AMD devices are numbered after the NVIDIA ones.
 */
import { InputError } from '../../errors.js';
import type { CaptureInput, UtilSample } from '../../model/capture.js';
import { defineImporter } from '../common/importer.js';
import { isRecord, numberFrom, percentFrom, splitJsonValues } from '../common/json-values.js';

const GPU_KEY = /^(nv|amd)(\d+)$/;

function sampleDicts(path: string, text: string): Array<{ dict: Record<string, unknown>; line: number }> {
  const { values, strayLines, truncatedAt } = splitJsonValues(path, text);
  if (strayLines.length) {
    const stray = strayLines[0]!;
    throw new InputError(path, `expected max.profiler.gpu JSON records, got ${JSON.stringify(stray.text.slice(0, 60))}`, String(stray.line));
  }
  if (truncatedAt !== undefined) {
    throw new InputError(path, 'expected complete JSON, the text ends inside a value', String(truncatedAt));
  }
  const dicts: Array<{ dict: Record<string, unknown>; line: number }> = [];
  for (const { value, line } of values) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (!isRecord(item)) throw new InputError(path, 'expected each sample to be an object keyed by nv0, amd0, …', String(line));
      dicts.push({ dict: item, line });
    }
  }
  return dicts;
}

export default defineImporter({
  id: 'max-gpu-stats-json',
  label: 'max.profiler.gpu stats (JSON)',
  capabilities: { utilization: true },
  suite: 'max',
  sniff(head) {
    if (!/^\s*[[{]/.test(head)) return false;
    return /^\s*\[?\s*\{[^{]{0,200}?"(?:nv|amd)\d+"\s*:\s*\{\s*"(?:memory|utilization|clocks)"\s*:/.test(head);
  },
  async read(file, ctx): Promise<CaptureInput> {
    const dicts = sampleDicts(file.path, await file.text());
    const nvDevices = new Set<number>();
    const amdDevices = new Set<number>();
    for (const { dict } of dicts) {
      for (const key of Object.keys(dict)) {
        const match = GPU_KEY.exec(key);
        if (match) (match[1] === 'nv' ? nvDevices : amdDevices).add(Number(match[2]));
      }
    }
    const amdOffset = nvDevices.size ? Math.max(...nvDevices) + 1 : 0;
    if (nvDevices.size && amdDevices.size) ctx.count('mixed-vendors', 'info', `AMD devices are numbered from ${amdOffset}, after the NVIDIA ones`);

    const samples: UtilSample[] = [];
    for (const { dict, line } of dicts) {
      const t = numberFrom(dict['t'] ?? dict['timestamp']);
      let gpus = 0;
      for (const [key, stats] of Object.entries(dict)) {
        const match = GPU_KEY.exec(key);
        if (!match) continue;
        gpus += 1;
        if (!isRecord(stats)) throw new InputError(file.path, `expected "${key}" to be a GPUStats object`, String(line));
        const utilization = isRecord(stats['utilization']) ? stats['utilization'] : {};
        const gpuPercent = percentFrom(utilization['gpu_usage_percent']);
        if (gpuPercent === undefined) {
          ctx.count('gpu-without-utilization', 'data-loss', `utilization.gpu_usage_percent missing or not 0..100 (first: ${key} at line ${line})`);
          continue;
        }
        const device = Number(match[2]) + (match[1] === 'amd' ? amdOffset : 0);
        const sample: UtilSample = { device, gpuPercent, reasons: [] };
        if (t !== undefined) sample.t = t;
        const memoryPercent = percentFrom(utilization['memory_activity_percent']);
        if (memoryPercent !== undefined) sample.memoryPercent = memoryPercent;
        const memory = isRecord(stats['memory']) ? stats['memory'] : {};
        const used = numberFrom(memory['used_bytes']);
        if (used !== undefined) sample.memoryUsedBytes = used;
        const clocks = isRecord(stats['clocks']) ? stats['clocks'] : {};
        const core = numberFrom(clocks['core_mhz']);
        if (core !== undefined) sample.smClockMhz = core;
        const reasons = clocks['throttle_reasons'];
        if (Array.isArray(reasons)) sample.reasons = reasons.filter((r): r is string => typeof r === 'string');
        samples.push(sample);
      }
      if (gpus === 0) throw new InputError(file.path, 'expected a sample keyed by nv0, amd0, …, found no GPU key', String(line));
    }
    if (samples.length === 0) throw new InputError(file.path, 'expected at least one GPU sample with gpu_usage_percent, found none', '1');
    const vendor = nvDevices.size && !amdDevices.size ? 'nvidia' : amdDevices.size && !nvDevices.size ? 'amd' : undefined;
    return {
      source: { path: file.path, format: 'max-gpu-stats-json', parts: ['gpu-stats'], tool: 'max.profiler.gpu' },
      utilization: samples,
      environment: { gpuCount: nvDevices.size + amdDevices.size, ...(vendor ? { vendor } : {}) },
    };
  },
});
