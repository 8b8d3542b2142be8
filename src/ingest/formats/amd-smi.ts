/**
 * `amd-smi metric` output, the successor of rocm-smi on ROCm 6+ and MI300-class GPUs, in both of its
 * machine-readable forms:
 * - `--csv`: one row per GPU per sample, flat snake_case columns (`timestamp`, `gpu`,
 *   `gfx_activity`, `umc_activity`, `socket_power`, `gfx_0_clk` … `gfx_7_clk` per XCD, `used_vram`);
 *   list-valued cells are Python lists (`"[0, 0, …]"`) and missing values `N/A`.
 * - `--json`: a list of GPUs (or `{"gpu_data": [...]}`), each `{"gpu": 0, "usage": {...},
 *   "power": {...}, "clock": {"gfx_0": {"clk": ...}}, "mem_usage": {...}}`, every value a number,
 *   `{"value": …, "unit": …}` or `"N/A"`; a `--watch` loop writes one document per sample.
 * Mapping: gfx_activity → gpuPercent, umc_activity → memoryPercent, socket_power (W) → powerW, the
 * mean of the gfx_N clocks (MHz) → smClockMhz, used_vram (MB, amd-smi's 2^20 bytes) → bytes,
 * timestamp (epoch s) → t, gpu → device.
 * Limits: amd-smi prints no product name in `metric`, so the GPU is not named; throttle and
 * violation fields are not read.
 */
import { InputError } from '../../errors.js';
import type { CaptureInput, UtilSample } from '../../model/capture.js';
import { defineImporter, type ImportContext } from '../common/importer.js';
import { isRecord, numberFrom, percentFrom, splitJsonValues } from '../common/json-values.js';
import { cleanLabel, splitCsvLine } from '../common/text-tables.js';

const MIB = 1024 * 1024;

/** Flat metric values of one GPU, by amd-smi's snake_case names (gfx_0_clk, used_vram …). */
type Flat = Map<string, unknown>;

/** A JSON value as a number: plain, `{"value": 12, "unit": "%"}`, or a numeric string. */
function valueOf(value: unknown): number | undefined {
  if (isRecord(value)) return numberFrom(value['value']);
  return numberFrom(value);
}

function sampleFrom(flat: Flat, device: number): UtilSample | undefined {
  const gpuPercent = percentFrom(valueOf(flat.get('gfx_activity')));
  if (gpuPercent === undefined) return undefined;
  const sample: UtilSample = { device, gpuPercent, reasons: [] };
  const t = valueOf(flat.get('timestamp'));
  if (t !== undefined && t > 0) sample.t = t > 1e11 ? t / 1000 : t;
  const memoryPercent = percentFrom(valueOf(flat.get('umc_activity')));
  if (memoryPercent !== undefined) sample.memoryPercent = memoryPercent;
  const power = valueOf(flat.get('socket_power')) ?? valueOf(flat.get('current_socket_power')) ?? valueOf(flat.get('average_socket_power'));
  if (power !== undefined) sample.powerW = power;
  const clocks = [...flat.keys()].filter((key) => /^gfx_\d+_clk$/.test(key)).map((key) => valueOf(flat.get(key))).filter((v): v is number => v !== undefined);
  const clock = clocks.length ? clocks.reduce((a, b) => a + b, 0) / clocks.length : valueOf(flat.get('gfx_clk'));
  if (clock !== undefined) sample.smClockMhz = clock;
  const used = valueOf(flat.get('used_vram'));
  if (used !== undefined) sample.memoryUsedBytes = used * MIB;
  return sample;
}

function capture(path: string, format: 'amd-smi-csv' | 'amd-smi-json', samples: UtilSample[], ctx: ImportContext, where: string): CaptureInput {
  if (samples.length === 0) throw new InputError(path, 'expected at least one GPU with a gfx_activity value, found none', where);
  void ctx;
  return {
    source: { path, format, parts: ['metric'], tool: 'amd-smi' },
    utilization: samples,
    environment: { vendor: 'amd', gpuCount: new Set(samples.map((s) => s.device)).size },
  };
}

const CSV_HEADER = /^(?:timestamp,)?gpu,.*\bgfx_activity\b/;

export const amdSmiCsv = defineImporter({
  id: 'amd-smi-csv',
  label: 'amd-smi metric --csv',
  capabilities: { utilization: true },
  vendor: 'amd',
  sniff(head) {
    const first = head.replace(/^\uFEFF/, '').trimStart().split(/\r?\n/, 1)[0] ?? '';
    return CSV_HEADER.test(first);
  },
  async read(file, ctx) {
    const lines = (await file.text()).replace(/^\uFEFF/, '').split(/\r?\n/);
    let header: string[] | undefined;
    let headerLine = '';
    const samples: UtilSample[] = [];
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      if (line.trim() === '') continue;
      if (line === headerLine) {
        ctx.count('repeated-header', 'info', 'header lines repeated between samples are skipped');
        continue;
      }
      const fields = splitCsvLine(line);
      if (!fields) throw new InputError(file.path, 'expected well-formed CSV quoting (a truncated or garbled row)', String(i + 1));
      if (!header) {
        if (!CSV_HEADER.test(line)) throw new InputError(file.path, 'expected an amd-smi metric --csv header with gpu and gfx_activity columns', String(i + 1));
        header = fields.map(cleanLabel);
        headerLine = line;
        continue;
      }
      if (fields.length !== header.length) {
        throw new InputError(file.path, `expected ${header.length} fields as in the header, got ${fields.length} (a truncated or garbled row)`, String(i + 1));
      }
      const flat: Flat = new Map(header.map((label, k) => [label, fields[k]!.trim()]));
      const device = numberFrom(flat.get('gpu'));
      if (device === undefined || !Number.isInteger(device) || device < 0) {
        throw new InputError(file.path, `expected a GPU index in column gpu, got ${JSON.stringify(flat.get('gpu'))}`, String(i + 1));
      }
      const sample = sampleFrom(flat, device);
      if (sample) samples.push(sample);
      else ctx.count('row-without-utilization', 'data-loss', 'rows whose gfx_activity is N/A or outside 0..100 are not samples');
    }
    return capture(file.path, 'amd-smi-csv', samples, ctx, '2');
  },
});

/** One GPU entry of `amd-smi metric --json`, its nested groups flattened to amd-smi's CSV names. */
function flatten(entry: Record<string, unknown>): Flat {
  const flat: Flat = new Map();
  for (const [key, value] of Object.entries(entry)) {
    if (!isRecord(value) || 'value' in value) {
      flat.set(key, value);
      continue;
    }
    for (const [inner, innerValue] of Object.entries(value)) {
      // clock: {"gfx_0": {"clk": …, "min_clk": …}} → gfx_0_clk, gfx_0_min_clk
      if (isRecord(innerValue) && !('value' in innerValue)) {
        for (const [leaf, leafValue] of Object.entries(innerValue)) flat.set(`${inner}_${leaf}`, leafValue);
      } else {
        flat.set(inner, innerValue);
      }
    }
  }
  return flat;
}

function gpuEntries(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (isRecord(value) && Array.isArray(value['gpu_data'])) return value['gpu_data'] as unknown[];
  return undefined;
}

export const amdSmiJson = defineImporter({
  id: 'amd-smi-json',
  label: 'amd-smi metric --json',
  capabilities: { utilization: true },
  vendor: 'amd',
  sniff(head) {
    const text = head.replace(/^\uFEFF/, '').trimStart();
    return /^(\[\s*\{|\{\s*"gpu_data"\s*:\s*\[\s*\{)\s*"gpu"\s*:\s*\d+/.test(text) && /"(usage|gfx_activity)"\s*:/.test(text);
  },
  async read(file, ctx) {
    const { values, truncatedAt } = splitJsonValues(file.path, await file.text());
    if (truncatedAt !== undefined) ctx.count('truncated-document', 'data-loss', `the last JSON document (line ${truncatedAt}) is cut off`);
    const samples: UtilSample[] = [];
    for (const { value, line } of values) {
      const entries = gpuEntries(value);
      if (!entries) throw new InputError(file.path, 'expected amd-smi metric JSON: a list of GPUs (or {"gpu_data": [...]})', String(line));
      for (const entry of entries) {
        if (!isRecord(entry)) throw new InputError(file.path, 'expected each GPU to be an object with a "gpu" index', String(line));
        const device = numberFrom(entry['gpu']);
        if (device === undefined || !Number.isInteger(device) || device < 0) throw new InputError(file.path, `expected a GPU index in "gpu", got ${JSON.stringify(entry['gpu'])}`, String(line));
        const flat = flatten(entry);
        const sample = sampleFrom(flat, device);
        if (sample) samples.push(sample);
        else ctx.count('gpu-without-utilization', 'data-loss', 'GPUs whose gfx_activity is N/A or outside 0..100 are not samples');
      }
    }
    return capture(file.path, 'amd-smi-json', samples, ctx, '1');
  },
});
