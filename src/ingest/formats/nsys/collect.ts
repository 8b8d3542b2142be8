/**
 * The rows of the nsys tables the importer reads, collected as the scanner streams them: kernels
 * aggregated by name (with the launch shape of the heaviest row), API calls, memory operations by
 * time and by size. Times and sizes are scaled from the header's unit.
 */
import { InputError } from '../../../errors.js';
import type { ApiStat, KernelStat, MemopStat } from '../../../model/capture.js';
import type { ImportContext } from '../../common/importer.js';
import type { Columns, Scaled } from './columns.js';
import type { NsysRow, NsysTableHead, RowSink } from './tables.js';
import { ownString, parseNumber } from '../../common/text-tables.js';

export type Kind = 'kernels' | 'gpu' | 'api' | 'mem-time' | 'mem-size';

export const CANONICAL: Record<Kind, string> = {
  kernels: 'cuda_gpu_kern_sum',
  gpu: 'cuda_gpu_sum',
  api: 'cuda_api_sum',
  'mem-time': 'cuda_gpu_mem_time_sum',
  'mem-size': 'cuda_gpu_mem_size_sum',
};

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
    private readonly table: NsysTableHead,
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

/** Kernel rows aggregated by name as they come (2022.x splits one kernel's rows by launch shape). */
class KernelRows {
  private readonly byName = new Map<string, KernelStat>();
  // Launch shape of the row that took the most time, per kernel (only kept with GridXYZ/BlockXYZ columns).
  private readonly heaviestNs = new Map<string, number>();
  private readonly shaped: boolean;

  constructor(
    private readonly reader: TableReader,
    private readonly c: Columns,
  ) {
    this.shaped = c.grid !== undefined || c.block !== undefined;
  }

  add(row: NsysRow): void {
    const { reader, c } = this;
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
    const existing = this.byName.get(name);
    if (!existing) {
      const own = ownString(name);
      this.byName.set(own, {
        name: own,
        totalNs,
        instances,
        ...(minNs !== undefined ? { minNs } : {}),
        ...(maxNs !== undefined ? { maxNs } : {}),
        ...(grid ? { grid } : {}),
        ...(block ? { block } : {}),
      });
      if (this.shaped) this.heaviestNs.set(own, totalNs);
      return;
    }
    existing.totalNs += totalNs;
    existing.instances += instances;
    if (minNs !== undefined) existing.minNs = Math.min(existing.minNs ?? Infinity, minNs);
    if (maxNs !== undefined) existing.maxNs = Math.max(existing.maxNs ?? 0, maxNs);
    if (this.shaped && totalNs > this.heaviestNs.get(name)!) {
      this.heaviestNs.set(name, totalNs);
      if (grid) existing.grid = grid;
      if (block) existing.block = block;
    }
  }

  kernels(): KernelStat[] {
    return [...this.byName.values()];
  }
}

function memopKind(name: string): string {
  const n = name.toLowerCase();
  if (n.includes('memset')) return 'memset';
  if (/host-to-device|htod/.test(n)) return 'memcpy-htod';
  if (/device-to-host|dtoh/.test(n)) return 'memcpy-dtoh';
  if (/device-to-device|dtod/.test(n)) return 'memcpy-dtod';
  return 'memcpy-other';
}

/** A kernel table whose rows' Time (%) add up to less than the whole: rows are missing from the file. */
export interface ShortTable {
  part: string;
  headerLine: number;
  lastLine: number;
  rows: number;
  percent: number;
}

/**
 * nsys prints each row's Time (%) to one decimal, so a whole table adds up to 100 within half a
 * tenth per row; a margin of half a point more keeps a complete table from ever being called short.
 */
function isShort(percent: number, rows: number): boolean {
  return percent < 100 - (0.05 * rows + 0.5);
}

/** Adds up a table's Time (%) column as its rows come; undefined when the table has none or a cell is no number. */
class PercentTally {
  private sum = 0;
  private rows = 0;
  private lastLine = 0;
  private readable: boolean;

  constructor(
    private readonly c: Columns,
    private readonly table: NsysTableHead,
    private readonly part: string,
  ) {
    this.readable = c.percent !== undefined;
  }

  add(row: NsysRow): void {
    if (!this.readable) return;
    const value = parseNumber(row.cells[this.c.percent!]!, true);
    if (value === undefined || value < 0) this.readable = false;
    else {
      this.sum += value;
      this.rows++;
      this.lastLine = row.line;
    }
  }

  short(): ShortTable | undefined {
    if (!this.readable || this.rows === 0 || !isShort(this.sum, this.rows)) return undefined;
    return { part: this.part, headerLine: this.table.headerLine, lastLine: this.lastLine, rows: this.rows, percent: Math.round(this.sum * 10) / 10 };
  }
}

export interface Collected {
  /** Set when the table starts (so a second one is noticed), filled when it ends. */
  kernels?: KernelStat[];
  gpuKernels?: KernelStat[];
  apiCalls?: ApiStat[];
  memTime?: Map<string, { totalNs: number; count: number }>;
  memSize?: Map<string, { bytes: number; count: number }>;
  gpuMem?: Map<string, { totalNs: number; count: number }>;
  /** Kernel tables whose Time (%) column says rows are missing. */
  shortTables?: ShortTable[];
}

/**
 * Where the rows of a table of `kind` go; undefined when a table of that kind was already read (the
 * caller adds a notice). The collected values are filled in as the rows come.
 */
export function collectTable(path: string, table: NsysTableHead, kind: Kind, c: Columns, into: Collected, ctx: ImportContext): RowSink | undefined {
  const reader = new TableReader(path, table);
  const missing = REQUIRED[kind].filter((key) => c[key] === undefined);
  if (missing.length) {
    throw new InputError(path, `expected ${CANONICAL[kind]} columns (${missing.join(', ')} missing) in header ${JSON.stringify(table.header.join(','))}`, String(table.headerLine));
  }
  const name = (row: NsysRow) => row.cells[c.name!]!.trim();
  if (kind === 'kernels') {
    if (into.kernels) return undefined;
    const kernels = new KernelRows(reader, c);
    const tally = new PercentTally(c, table, CANONICAL.kernels);
    into.kernels = [];
    return {
      row: (row) => (kernels.add(row), tally.add(row)),
      end() {
        into.kernels = kernels.kernels();
        const short = tally.short();
        if (short) (into.shortTables ??= []).push(short);
      },
    };
  }
  if (kind === 'gpu') {
    if (into.gpuKernels) return undefined;
    const kernels = new KernelRows(reader, c);
    const gpuMem = (into.gpuMem = new Map());
    // Time (%) here is of kernels and memory operations together: every row counts.
    const tally = new PercentTally(c, table, CANONICAL.gpu);
    into.gpuKernels = [];
    // A bad memory-operation row is named before a bad kernel row, wherever they sit.
    let kernelError: { error: unknown } | undefined;
    return {
      row(row) {
        tally.add(row);
        const category = row.cells[c.category!]!.trim();
        if (category === 'CUDA_KERNEL') {
          if (kernelError) return;
          try {
            kernels.add(row);
          } catch (error) {
            kernelError = { error };
          }
        } else if (category === 'MEMORY_OPER') gpuMem.set(name(row), { totalNs: reader.ns(row, c.total!), count: reader.count(row, c.count!) });
        else ctx.count('unknown-category', 'data-loss', `rows of category ${JSON.stringify(category)} in cuda_gpu_sum are left out`);
      },
      end() {
        if (kernelError) throw kernelError.error;
        into.gpuKernels = kernels.kernels();
        const short = tally.short();
        if (short) (into.shortTables ??= []).push(short);
      },
    };
  }
  if (kind === 'api') {
    if (into.apiCalls) return undefined;
    const apiCalls: ApiStat[] = (into.apiCalls = []);
    return { row: (row) => void apiCalls.push({ name: name(row), totalNs: reader.ns(row, c.total!), calls: reader.count(row, c.count!) }) };
  }
  if (kind === 'mem-time') {
    if (into.memTime) return undefined;
    const memTime = (into.memTime = new Map());
    return { row: (row) => void memTime.set(name(row), { totalNs: reader.ns(row, c.total!), count: reader.count(row, c.count!) }) };
  }
  if (into.memSize) return undefined;
  const memSize = (into.memSize = new Map());
  return { row: (row) => void memSize.set(name(row), { bytes: reader.number(row, c.size!.index, 'a size') * c.size!.scale, count: reader.count(row, c.count!) }) };
}

export function buildMemops(collected: Collected): MemopStat[] {
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
