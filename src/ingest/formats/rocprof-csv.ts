/**
 * ROCm profiler CSV: rocprofv3 `*_kernel_stats.csv` / `*_hip_api_stats.csv` (8 columns), legacy
 * rocprof `results.stats.csv` (5 columns), rocprofv3 `*_kernel_trace.csv` and legacy `results.csv`
 * (one row per dispatch). Columns are found by name. Stats files whose names are all HIP/HSA API
 * calls (hipLaunchKernel, __hipPushCallConfiguration, hsa_*) become apiCalls; copy stats become
 * memops; domain stats are listed in parts only; anything else is kernels. Traces give per-kernel
 * sums and a timeline (span, busy union per agent, idle gaps between busy intervals, launches,
 * kernel time per tenth of the span). Names lose the ` [clone .kd]` / `.kd` suffix. The file is read
 * line by line from its stream, never whole.
 * Limits: memory-copy traces are not read; a trace's `device` is the agent's rank among the agents
 * seen (only set with more than one); grid is reported in workgroups (Grid_Size / Workgroup_Size);
 * a line break inside a quoted name reads as `\n`, also in a CRLF file.
 */
import { InputError } from '../../errors.js';
import type { ApiStat, CaptureInput, KernelStat, MemopStat } from '../../model/capture.js';
import { defineImporter } from '../common/importer.js';
import { CsvRecordReader, type CsvLineRecord } from '../common/csv-records.js';
import { cleanKernelName, KernelTraceReader } from '../common/kernel-trace.js';
import { lineBatches } from '../common/text-lines.js';
import { cleanLabel, ownString, parseNumber } from '../common/text-tables.js';

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

  text(record: CsvLineRecord, label: string): string {
    return record.fields[this.index.get(label)!] ?? '';
  }

  number(record: CsvLineRecord, label: string): number {
    const text = this.text(record, label);
    const value = parseNumber(text);
    if (value === undefined || value < 0) throw new InputError(this.path, `expected a number in column ${label}, got ${JSON.stringify(text)}`, String(record.line));
    return value;
  }
}

interface StatsRow {
  name: string;
  calls: number;
  totalNs: number;
  minNs: number | undefined;
  maxNs: number | undefined;
}

interface StatsResult {
  kernels: KernelStat[];
  apiCalls: ApiStat[];
  memops: MemopStat[];
  part: string;
  /** The rows' Percentage column added up, when every row has one, and the last row's line. */
  listed?: { percent: number; rows: number; lastLine: number };
}

/**
 * A stats file read record by record. Problems are named in the order a whole-file read finds them:
 * malformed CSV anywhere first, then rows of the wrong width, missing columns, unreadable numbers,
 * and impossible ones (fractional calls, min above max).
 */
class StatsReader {
  private readonly records: CsvRecordReader;
  private header: readonly string[] | undefined;
  private columns: Columns | undefined;
  private readonly rows: StatsRow[] = [];
  /** The Percentage column added up (each row's share of the whole file's time); undefined once a row has none. */
  private listed: { percent: number; rows: number; lastLine: number } | undefined = { percent: 0, rows: 0, lastLine: 0 };
  /** The first problem of each kind above but malformed CSV (which is raised at once). */
  private readonly failed: ({ error: unknown } | undefined)[] = [undefined, undefined, undefined, undefined];

  constructor(private readonly path: string) {
    this.records = new CsvRecordReader(path);
  }

  push(line: string, lineNo: number): void {
    const record = this.records.add(line, lineNo);
    if (!record) return;
    if (!this.header) {
      this.header = record.fields.map(cleanLabel);
      this.attempt(1, () => (this.columns = new Columns(this.path, this.header!, record.line, ['Name', 'Calls', 'TotalDurationNs'])));
      return;
    }
    if (record.fields.length !== this.header.length) {
      this.attempt(0, () => {
        throw new InputError(this.path, `expected ${this.header!.length} fields as in the header, got ${record.fields.length} (a truncated or garbled row)`, String(record.line));
      });
      return;
    }
    const columns = this.columns;
    // Past a short row or an unreadable number only the CSV itself can still fail first.
    if (!columns || this.failed[0] || this.failed[2]) return;
    let row: StatsRow | undefined;
    this.attempt(2, () => {
      row = {
        name: ownString(columns.text(record, 'Name').trim()),
        calls: columns.number(record, 'Calls'),
        totalNs: columns.number(record, 'TotalDurationNs'),
        minNs: columns.has('MinNs') ? columns.number(record, 'MinNs') : undefined,
        maxNs: columns.has('MaxNs') ? columns.number(record, 'MaxNs') : undefined,
      };
    });
    if (!row) return;
    const { calls, minNs, maxNs } = row;
    this.rows.push(row);
    const percent = columns.has('Percentage') ? parseNumber(columns.text(record, 'Percentage')) : undefined;
    if (percent === undefined || percent < 0) this.listed = undefined;
    else if (this.listed) this.listed = { percent: this.listed.percent + percent, rows: this.listed.rows + 1, lastLine: record.line };
    this.attempt(3, () => {
      if (!Number.isInteger(calls)) throw new InputError(this.path, `expected a whole number of calls, got ${calls}`, String(record.line));
      if (minNs !== undefined && maxNs !== undefined && minNs > maxNs) {
        throw new InputError(this.path, `expected MinNs at most MaxNs, got ${minNs} > ${maxNs} (a garbled row)`, String(record.line));
      }
    });
  }

  finish(): StatsResult {
    this.records.end();
    const first = this.failed.find(Boolean);
    if (first) throw first.error;
    const result = statsFrom(this.rows, this.columns!);
    return this.listed?.rows ? { ...result, listed: this.listed } : result;
  }

  /** Runs `step`; its error is kept (the first of each rank) and raised at the end. */
  private attempt(rank: number, step: () => void): void {
    try {
      step();
    } catch (error) {
      this.failed[rank] ??= { error };
    }
  }
}

function statsFrom(rows: readonly StatsRow[], columns: Columns): StatsResult {
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
  capabilities: { kernels: 'expected', timeline: true },
  vendor: 'amd',
  suite: 'rocprof',
  sniff(head) {
    return layoutOf(headerLabels(head)) !== undefined;
  },
  async read(file, ctx) {
    let lineNo = 0;
    let reader: { push(line: string, lineNo: number): void } | undefined;
    let finish: (() => CaptureInput) | undefined;
    /** The first line decides the layout; the reader of that layout takes every line after it. */
    const start = (firstLine: string) => {
      const layout = layoutOf(headerLabels(firstLine));
      if (!layout) {
        throw new InputError(file.path, `expected a rocprof header (Name,Calls,TotalDurationNs… or Kernel_Name…Start_Timestamp…), got ${JSON.stringify(firstLine.slice(0, 60))}`, '1');
      }
      const tool = layout === 'trace-v1' || (layout === 'stats' && !headerLabels(firstLine).includes('MinNs')) ? 'rocprof' : 'rocprofv3';
      if (layout !== 'stats') {
        const trace = new KernelTraceReader(file.path, firstLine, 1, layout === 'trace-v3', ctx);
        reader = trace;
        finish = () => {
          const read = trace.finish();
          return {
            source: { path: file.path, format: 'rocprof-csv', tool, parts: [layout === 'trace-v3' ? 'kernel_trace' : 'results'] },
            kernels: read.kernels,
            ...(read.timeline ? { timeline: read.timeline } : {}),
            ...(read.trace ? { trace: read.trace } : {}),
            environment: { vendor: 'amd' },
            ...(read.deviceTimelines?.length ? { deviceTimelines: read.deviceTimelines } : {}),
          };
        };
        return;
      }
      const stats = new StatsReader(file.path);
      stats.push(firstLine, 1);
      reader = stats;
      finish = () => {
        const read = stats.finish();
        // A stats file cut at a row boundary reads as whole; its Percentage column says what is missing
        // (printed to 1e-4 or finer: half a point of slack, and a twentieth per row for coarser writers).
        const listed = read.listed;
        if (read.kernels.length && listed && listed.percent < 100 - (0.05 * listed.rows + 0.5)) {
          ctx.count(
            'rows-missing',
            'data-loss',
            `the ${listed.rows} rows add up to ${Math.round(listed.percent * 10) / 10} % in the Percentage column, not 100 %: rows after line ${listed.lastLine} are missing (the file is cut short), so totals and shares cover the listed rows only`,
          );
        }
        return {
          source: { path: file.path, format: 'rocprof-csv', tool, parts: [read.part] },
          kernels: read.kernels,
          apiCalls: read.apiCalls,
          memops: read.memops,
          environment: { vendor: 'amd' },
        };
      };
    };
    for await (const lines of lineBatches(file)) {
      for (const line of lines) {
        lineNo += 1;
        if (reader) reader.push(line, lineNo);
        else start(line.replace(/^\uFEFF/, ''));
      }
    }
    if (!reader) start('');
    return finish!();
  },
});
