/**
 * `nsys stats` output, CSV or column layout, one table or a whole stdout stream. Tables map as:
 * cuda_gpu_kern_sum / gpukernsum / cuda_gpu_kern_gb_sum → kernels (rows aggregated by name, so the
 * 2022.x GridXYZ/BlockXYZ split rows become one kernel); cuda_gpu_sum / gpusum → kernels
 * (CUDA_KERNEL) and memops (MEMORY_OPER) when no kernel or memop table is present;
 * cuda_api_sum / cudaapisum → apiCalls; cuda_gpu_mem_time_sum / cuda_gpu_mem_size_sum → memops.
 * Other reports (osrt_sum, nvtx_sum, …) are listed in source.parts only. `SKIPPED:` lines become
 * notices. Times are converted from the header's unit (`--timeunit`) to ns; the Time (%) column is
 * never read (shares are recomputed downstream from totals).
 * Limits: when one stream holds several tables of one kind, the first is used and a notice says so.
 */
import { InputError } from '../errors.js';
import type { ApiStat, CaptureInput, KernelStat, MemopStat, Notice } from '../model/capture.js';
import { defineImporter, type ImportContext } from './importer.js';
import { findColumns, scanNsysOutput, type Columns, type NsysRow, type NsysTable, type Scaled } from './nsys-tables.js';
import { parseNumber } from './text-tables.js';

type Kind = 'kernels' | 'gpu' | 'api' | 'mem-time' | 'mem-size';

const REPORT_KINDS: Record<string, Kind> = {
  cuda_gpu_kern_sum: 'kernels',
  cuda_gpu_kern_gb_sum: 'kernels',
  gpukernsum: 'kernels',
  cuda_gpu_sum: 'gpu',
  gpusum: 'gpu',
  cuda_api_sum: 'api',
  cudaapisum: 'api',
  cuda_gpu_mem_time_sum: 'mem-time',
  gpumemtimesum: 'mem-time',
  cuda_gpu_mem_size_sum: 'mem-size',
  gpumemsizesum: 'mem-size',
};
const CANONICAL: Record<Kind, string> = {
  kernels: 'cuda_gpu_kern_sum',
  gpu: 'cuda_gpu_sum',
  api: 'cuda_api_sum',
  'mem-time': 'cuda_gpu_mem_time_sum',
  'mem-size': 'cuda_gpu_mem_size_sum',
};
const CUDA_API = /^cu(da)?[A-Z]/;

/** What a table is: from the report nsys named, else from its columns. Undefined = not read. */
function classify(table: NsysTable, columns: Columns): { kind?: Kind; part: string } {
  const report = table.report;
  if (report && REPORT_KINDS[report]) return { kind: REPORT_KINDS[report], part: report };
  if (report) return { part: report };
  const { total, size, count, countLabel, name, nameLabel, category, style } = columns;
  if (style !== undefined || nameLabel === 'Range') return { part: 'nvtx_sum' };
  if (total && category !== undefined && name !== undefined) return { kind: 'gpu', part: CANONICAL.gpu };
  if (size && nameLabel === 'Operation') return { kind: 'mem-size', part: CANONICAL['mem-size'] };
  if (total && count !== undefined && nameLabel === 'Operation') return { kind: 'mem-time', part: CANONICAL['mem-time'] };
  if (total && countLabel === 'Instances' && nameLabel === 'Name') return { kind: 'kernels', part: CANONICAL.kernels };
  if (total && (countLabel === 'Num Calls' || countLabel === 'Calls') && name !== undefined) {
    const apiLike = table.rows.filter((row) => CUDA_API.test(row.cells[name]!.trim())).length;
    return apiLike * 2 > table.rows.length ? { kind: 'api', part: CANONICAL.api } : { part: 'osrt_sum' };
  }
  return { part: 'unknown-table' };
}

const REQUIRED: Record<Kind, (keyof Columns)[]> = {
  kernels: ['total', 'count', 'name'],
  gpu: ['total', 'count', 'name', 'category'],
  api: ['total', 'count', 'name'],
  'mem-time': ['total', 'count', 'name'],
  'mem-size': ['size', 'count', 'name'],
};

class TableReader {
  constructor(
    readonly path: string,
    private readonly table: NsysTable,
  ) {}

  number(row: NsysRow, index: number, what: string): number {
    const text = row.cells[index]!;
    const value = parseNumber(text, true);
    if (value === undefined || value < 0) {
      throw new InputError(this.path, `expected a number in column "${this.table.header[index]}" (${what}), got ${JSON.stringify(text.trim())}`, String(row.line));
    }
    return value;
  }

  count(row: NsysRow, index: number): number {
    const value = this.number(row, index, 'a count');
    if (!Number.isInteger(value)) {
      throw new InputError(this.path, `expected a whole number in column "${this.table.header[index]}", got ${row.cells[index]!.trim()}`, String(row.line));
    }
    return value;
  }

  ns(row: NsysRow, column: Scaled): number {
    return this.number(row, column.index, 'a time') * column.scale;
  }
}

function dim3(text: string | undefined): [number, number, number] | undefined {
  const parts = (text ?? '').trim().split(/\s+/).map(Number);
  return parts.length === 3 && parts.every((n) => Number.isInteger(n) && n > 0) ? (parts as [number, number, number]) : undefined;
}

function readKernels(reader: TableReader, c: Columns, rows: readonly NsysRow[]): KernelStat[] {
  const byName = new Map<string, KernelStat>();
  // Launch shape of the row that took the most time, per kernel (2022.x splits rows by shape).
  const heaviestNs = new Map<string, number>();
  for (const row of rows) {
    const name = row.cells[c.name!]!.trim();
    const totalNs = reader.ns(row, c.total!);
    const instances = reader.count(row, c.count!);
    const minNs = c.min ? reader.ns(row, c.min) : undefined;
    const maxNs = c.max ? reader.ns(row, c.max) : undefined;
    if (minNs !== undefined && maxNs !== undefined && minNs > maxNs) {
      throw new InputError(reader.path, `expected the minimum at most the maximum, got ${minNs} ns > ${maxNs} ns (a garbled row)`, String(row.line));
    }
    const grid = c.grid !== undefined ? dim3(row.cells[c.grid]) : undefined;
    const block = c.block !== undefined ? dim3(row.cells[c.block]) : undefined;
    const existing = byName.get(name);
    if (!existing) {
      byName.set(name, {
        name,
        totalNs,
        instances,
        ...(minNs !== undefined ? { minNs } : {}),
        ...(maxNs !== undefined ? { maxNs } : {}),
        ...(grid ? { grid } : {}),
        ...(block ? { block } : {}),
      });
      heaviestNs.set(name, totalNs);
      continue;
    }
    existing.totalNs += totalNs;
    existing.instances += instances;
    if (minNs !== undefined) existing.minNs = Math.min(existing.minNs ?? Infinity, minNs);
    if (maxNs !== undefined) existing.maxNs = Math.max(existing.maxNs ?? 0, maxNs);
    if (totalNs > heaviestNs.get(name)!) {
      heaviestNs.set(name, totalNs);
      if (grid) existing.grid = grid;
      if (block) existing.block = block;
    }
  }
  return [...byName.values()];
}

function memopKind(name: string): string {
  const n = name.toLowerCase();
  if (n.includes('memset')) return 'memset';
  if (/host-to-device|htod/.test(n)) return 'memcpy-htod';
  if (/device-to-host|dtoh/.test(n)) return 'memcpy-dtoh';
  if (/device-to-device|dtod/.test(n)) return 'memcpy-dtod';
  return 'memcpy-other';
}

interface Collected {
  kernels?: KernelStat[];
  gpuKernels?: KernelStat[];
  apiCalls?: ApiStat[];
  memTime?: Map<string, { totalNs: number; count: number }>;
  memSize?: Map<string, { bytes: number; count: number }>;
  gpuMem?: Map<string, { totalNs: number; count: number }>;
}

function collectTable(path: string, table: NsysTable, kind: Kind, c: Columns, into: Collected, ctx: ImportContext): boolean {
  const reader = new TableReader(path, table);
  const missing = REQUIRED[kind].filter((key) => c[key] === undefined);
  if (missing.length) {
    throw new InputError(path, `expected ${CANONICAL[kind]} columns (${missing.join(', ')} missing) in header ${JSON.stringify(table.header.join(','))}`, String(table.headerLine));
  }
  const name = (row: NsysRow) => row.cells[c.name!]!.trim();
  if (kind === 'kernels') {
    if (into.kernels) return false;
    into.kernels = readKernels(reader, c, table.rows);
  } else if (kind === 'gpu') {
    if (into.gpuKernels) return false;
    const kernelRows: NsysRow[] = [];
    into.gpuMem = new Map();
    for (const row of table.rows) {
      const category = row.cells[c.category!]!.trim();
      if (category === 'CUDA_KERNEL') kernelRows.push(row);
      else if (category === 'MEMORY_OPER') into.gpuMem.set(name(row), { totalNs: reader.ns(row, c.total!), count: reader.count(row, c.count!) });
      else ctx.count('unknown-category', 'data-loss', `rows of category ${JSON.stringify(category)} in cuda_gpu_sum are left out`);
    }
    into.gpuKernels = readKernels(reader, c, kernelRows);
  } else if (kind === 'api') {
    if (into.apiCalls) return false;
    into.apiCalls = table.rows.map((row) => ({ name: name(row), totalNs: reader.ns(row, c.total!), calls: reader.count(row, c.count!) }));
  } else if (kind === 'mem-time') {
    if (into.memTime) return false;
    into.memTime = new Map(table.rows.map((row) => [name(row), { totalNs: reader.ns(row, c.total!), count: reader.count(row, c.count!) }]));
  } else {
    if (into.memSize) return false;
    into.memSize = new Map(table.rows.map((row) => [name(row), { bytes: reader.number(row, c.size!.index, 'a size') * c.size!.scale, count: reader.count(row, c.count!) }]));
  }
  return true;
}

function buildMemops(collected: Collected): MemopStat[] {
  const timed = collected.memTime ?? collected.gpuMem ?? new Map<string, { totalNs: number; count: number }>();
  const sized = collected.memSize ?? new Map<string, { bytes: number; count: number }>();
  const names = [...new Set([...timed.keys(), ...sized.keys()])];
  return names.map((name) => {
    const time = timed.get(name);
    const size = sized.get(name);
    return {
      kind: memopKind(name),
      name,
      count: time?.count ?? size!.count,
      ...(time ? { totalNs: time.totalNs } : {}),
      ...(size ? { bytes: size.bytes } : {}),
    };
  });
}

const READ_REPORTS = new Set(Object.keys(REPORT_KINDS));

export default defineImporter({
  id: 'nsys-stats',
  label: 'Nsight Systems stats (nsys stats)',
  sniff(head) {
    return head.split(/\r?\n/, 2000).some(
      (line) =>
        /^\s*"?Time ?\(%\)"?\s*(,|\s{2,})\s*"?Total Time/.test(line) ||
        /^\s*"?Total \((?:[KMG]i?)?B\)"?\s*,\s*"?Count"?\s*,/.test(line) ||
        /^Processing \[.*\] with \[.*[/\\]reports[/\\]\w+\.py\]/.test(line) ||
        /^\[\d+\/\d+\] Executing '\w+(:\w+)?' stats report/.test(line) ||
        /^\s*\*\* .*\((\w+_sum|\w+_trace|gpukernsum|gpusum|cudaapisum|gpumemtimesum|gpumemsizesum)(:[\w-]+)?\):\s*$/.test(line),
    );
  },
  async read(file, ctx) {
    const output = scanNsysOutput(file.path, await file.text());
    const collected: Collected = {};
    const parts: string[] = [];
    const notices: Notice[] = [];
    for (const table of output.tables) {
      const columns = findColumns(table.header);
      const { kind, part } = classify(table, columns);
      if (!parts.includes(part)) parts.push(part);
      if (kind && !collectTable(file.path, table, kind, columns, collected, ctx)) {
        notices.push({
          code: 'nsys-several-tables',
          severity: 'warning',
          message: `a second ${part} table (line ${table.headerLine}) is ignored; the first one is used`,
        });
      }
    }
    for (const skip of output.skipped) {
      const read = skip.report ? READ_REPORTS.has(skip.report) : /CUDA|GPU/.test(skip.message);
      if (!read) {
        ctx.count('report-skipped', 'info', `nsys skipped reports this importer does not read (first: ${skip.message})`);
        continue;
      }
      const kernels = skip.report ? REPORT_KINDS[skip.report] === 'kernels' : /kernel/i.test(skip.message);
      notices.push({
        code: 'nsys-report-skipped',
        severity: kernels ? 'warning' : 'info',
        message: `${skip.report ? `${skip.report}: ` : ''}${skip.message}`,
      });
    }
    for (const notice of output.notices) {
      if (/Existing SQLite export found/i.test(notice.message)) {
        notices.push({
          code: 'nsys-existing-export',
          severity: 'warning',
          message: `${notice.message} (the tables may come from an older export; rerun nsys stats with --force-export=true)`,
        });
      }
    }
    if (output.skipped.length === 0 && parts.every((part) => part === 'unknown-table')) {
      const where = output.tables[0] ? String(output.tables[0].headerLine) : '1';
      throw new InputError(file.path, 'expected nsys stats output: a report table such as "Time (%),Total Time (ns),Instances,…" or SKIPPED lines', where);
    }

    const kernels = collected.kernels ?? collected.gpuKernels ?? [];
    const capture: CaptureInput = {
      source: { path: file.path, format: 'nsys-stats', parts, tool: 'nsys', ...(output.toolVersion ? { toolVersion: output.toolVersion } : {}) },
      kernels,
      memops: buildMemops(collected),
      apiCalls: collected.apiCalls ?? [],
      notices,
    };
    return capture;
  },
});
