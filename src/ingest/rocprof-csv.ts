/**
 * ROCm profiler CSV: rocprofv3 `*_kernel_stats.csv` / `*_hip_api_stats.csv` (8 columns), legacy
 * rocprof `results.stats.csv` (5 columns), rocprofv3 `*_kernel_trace.csv` and legacy `results.csv`
 * (one row per dispatch). Columns are found by name. Stats files whose names are all HIP/HSA API
 * calls (hipLaunchKernel, __hipPushCallConfiguration, hsa_*) become apiCalls; copy stats become
 * memops; domain stats are listed in parts only; anything else is kernels. Traces give per-kernel
 * sums and a timeline (span, busy union per agent, idle gaps between busy intervals, launches,
 * kernel time per tenth of the span). Names lose the ` [clone .kd]` / `.kd` suffix.
 * Limits: memory-copy traces are not read; a trace's `device` is the agent's rank among the agents
 * seen (only set with more than one); grid is reported in workgroups (Grid_Size / Workgroup_Size).
 */
import { InputError } from '../errors.js';
import type { ApiStat, CaptureInput, KernelStat, MemopStat } from '../model/capture.js';
import { defineImporter } from './importer.js';
import { cleanKernelName, readKernelTrace } from './rocprof-trace.js';
import { cleanLabel, parseCsv, parseNumber, type CsvRecord } from './text-tables.js';

type Layout = 'stats' | 'trace-v3' | 'trace-v1';

function headerLabels(head: string): string[] {
  const first = head.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  return first.split(',').map(cleanLabel);
}

function layoutOf(labels: readonly string[]): Layout | undefined {
  const has = (label: string) => labels.includes(label);
  if (labels[0] === 'Name' && has('Calls') && has('TotalDurationNs')) return 'stats';
  if (has('Kernel_Name') && has('Start_Timestamp') && has('End_Timestamp')) return 'trace-v3';
  if (has('KernelName') && (has('BeginNs') || has('DurationNs')) && has('Index')) return 'trace-v1';
  return undefined;
}

const API_NAME = /^(_*hip[A-Z]|hsa_)/;
const COPY_NAME = /^(MEMORY_COPY_|Copy(HostToDevice|DeviceToHost|DeviceToDevice|HostToHost))/;
const DOMAIN_NAME = /^[A-Z][A-Z_]*_(API|DISPATCH|COPY|ALLOCATION|MEMORY)$|^KERNEL_DISPATCH$/;

function copyKind(name: string): string {
  if (/HOST_TO_DEVICE|HostToDevice/.test(name)) return 'memcpy-htod';
  if (/DEVICE_TO_HOST|DeviceToHost/.test(name)) return 'memcpy-dtoh';
  if (/DEVICE_TO_DEVICE|DeviceToDevice/.test(name)) return 'memcpy-dtod';
  return 'memcpy-other';
}

class Columns {
  private readonly index = new Map<string, number>();
  constructor(
    private readonly path: string,
    readonly header: readonly string[],
    headerLine: number,
    required: readonly string[],
  ) {
    header.forEach((label, i) => this.index.set(label, i));
    const missing = required.filter((label) => !this.index.has(label));
    if (missing.length) throw new InputError(path, `expected columns ${missing.join(', ')} in the header`, String(headerLine));
  }

  has(label: string): boolean {
    return this.index.has(label);
  }

  text(record: CsvRecord, label: string): string {
    return record.fields[this.index.get(label)!] ?? '';
  }

  number(record: CsvRecord, label: string): number {
    const text = this.text(record, label);
    const value = parseNumber(text);
    if (value === undefined || value < 0) throw new InputError(this.path, `expected a number in column ${label}, got ${JSON.stringify(text)}`, String(record.line));
    return value;
  }
}

function checkWidth(path: string, records: readonly CsvRecord[], width: number): void {
  for (const record of records.slice(1)) {
    if (record.fields.length !== width) {
      throw new InputError(path, `expected ${width} fields as in the header, got ${record.fields.length} (a truncated or garbled row)`, String(record.line));
    }
  }
}

interface StatsResult {
  kernels: KernelStat[];
  apiCalls: ApiStat[];
  memops: MemopStat[];
  part: string;
}

function readStats(path: string, records: CsvRecord[], columns: Columns): StatsResult {
  const rows = records.slice(1).map((record) => ({
    name: columns.text(record, 'Name').trim(),
    calls: columns.number(record, 'Calls'),
    totalNs: columns.number(record, 'TotalDurationNs'),
    minNs: columns.has('MinNs') ? columns.number(record, 'MinNs') : undefined,
    maxNs: columns.has('MaxNs') ? columns.number(record, 'MaxNs') : undefined,
    line: record.line,
  }));
  for (const row of rows) {
    if (!Number.isInteger(row.calls)) throw new InputError(path, `expected a whole number of calls, got ${row.calls}`, String(row.line));
    if (row.minNs !== undefined && row.maxNs !== undefined && row.minNs > row.maxNs) {
      throw new InputError(path, `expected MinNs at most MaxNs, got ${row.minNs} > ${row.maxNs} (a garbled row)`, String(row.line));
    }
  }
  const all = (pattern: RegExp) => rows.length > 0 && rows.every((row) => pattern.test(row.name));
  if (all(API_NAME)) {
    return { kernels: [], memops: [], apiCalls: rows.map(({ name, totalNs, calls }) => ({ name, totalNs, calls })), part: 'hip_api_stats' };
  }
  if (all(COPY_NAME)) {
    return { kernels: [], apiCalls: [], memops: rows.map(({ name, totalNs, calls }) => ({ kind: copyKind(name), name, totalNs, count: calls })), part: 'memory_copy_stats' };
  }
  if (all(DOMAIN_NAME)) return { kernels: [], apiCalls: [], memops: [], part: 'domain_stats' };
  const byName = new Map<string, KernelStat>();
  for (const row of rows) {
    const name = cleanKernelName(row.name);
    const existing = byName.get(name);
    if (!existing) {
      byName.set(name, {
        name,
        totalNs: row.totalNs,
        instances: row.calls,
        ...(row.minNs !== undefined ? { minNs: row.minNs } : {}),
        ...(row.maxNs !== undefined ? { maxNs: row.maxNs } : {}),
      });
      continue;
    }
    existing.totalNs += row.totalNs;
    existing.instances += row.calls;
    if (row.minNs !== undefined) existing.minNs = Math.min(existing.minNs ?? Infinity, row.minNs);
    if (row.maxNs !== undefined) existing.maxNs = Math.max(existing.maxNs ?? 0, row.maxNs);
  }
  return { kernels: [...byName.values()], apiCalls: [], memops: [], part: columns.has('MinNs') ? 'kernel_stats' : 'stats' };
}

export default defineImporter({
  id: 'rocprof-csv',
  label: 'ROCm rocprof / rocprofv3 CSV',
  sniff(head) {
    return layoutOf(headerLabels(head)) !== undefined;
  },
  async read(file, ctx) {
    const text = (await file.text()).replace(/^\uFEFF/, '');
    const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
    const layout = layoutOf(headerLabels(text));
    if (!layout) {
      throw new InputError(file.path, `expected a rocprof header (Name,Calls,TotalDurationNs… or Kernel_Name…Start_Timestamp…), got ${JSON.stringify(firstLine.slice(0, 60))}`, '1');
    }
    const tool = layout === 'trace-v1' || (layout === 'stats' && !headerLabels(text).includes('MinNs')) ? 'rocprof' : 'rocprofv3';
    if (layout !== 'stats') {
      const trace = readKernelTrace(file.path, text, layout === 'trace-v3', ctx);
      const capture: CaptureInput = {
        source: { path: file.path, format: 'rocprof-csv', tool, parts: [layout === 'trace-v3' ? 'kernel_trace' : 'results'] },
        kernels: trace.kernels,
        ...(trace.timeline ? { timeline: trace.timeline } : {}),
      };
      return capture;
    }
    const records = parseCsv(file.path, text);
    const header = records[0]!.fields.map(cleanLabel);
    checkWidth(file.path, records, header.length);
    const stats = readStats(file.path, records, new Columns(file.path, header, records[0]!.line, ['Name', 'Calls', 'TotalDurationNs']));
    const capture: CaptureInput = {
      source: { path: file.path, format: 'rocprof-csv', tool, parts: [stats.part] },
      kernels: stats.kernels,
      apiCalls: stats.apiCalls,
      memops: stats.memops,
    };
    return capture;
  },
});
