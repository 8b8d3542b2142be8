/**
 * Splits Nsight Systems console output (`nsys stats`, `nsys profile --stats=true`, `nsys analyze`)
 * into its tables. nsys mixes tables with progress and status lines (`Generating SQLite…`,
 * `Processing [x.sqlite] with [.../cuda_gpu_kern_sum.py]...`, `[6/8] Executing '…' stats report`,
 * `SKIPPED: …`, `NOTICE: …`, ` ** Title (report):`), and prints each table either as CSV
 * (`--format csv`) or as fixed-width columns under a dashed underline (the default), with
 * thousands separators. Tables are found by content, never by line number.
 */
import { InputError } from '../errors.js';
import { cleanLabel, nsPerUnit, parseCsv, parseNumber, splitLines } from './text-tables.js';

export interface NsysRow {
  cells: string[];
  /** 1-based line number. */
  line: number;
}

export interface NsysTable {
  /** The report or rule nsys said it was running (`cuda_gpu_kern_sum`), when it said so. */
  report?: string;
  header: string[];
  headerLine: number;
  rows: NsysRow[];
  layout: 'csv' | 'column';
}

export interface NsysMessage {
  report?: string;
  message: string;
  line: number;
}

export interface NsysOutput {
  tables: NsysTable[];
  skipped: NsysMessage[];
  notices: NsysMessage[];
  /** Plain-text lines nsys printed about a report or rule (e.g. "There were no problems detected…"). */
  prose: NsysMessage[];
  toolVersion?: string;
}

const PROCESSING = /^(?:Processing|Running) \[(.*?)\] with \[(.*?)\]/;
const RUNNING_OLD = /^Running \[(\S+?\.py)\b/;
const EXECUTING = /^\[\d+\/\d+\] Executing '([^']+)'/;
const REPORT_TITLE = /^\s*\*\* .*\(([\w:.-]+)\):\s*$/;
const SKIPPED = /^SKIPPED: (.*)$/;
const NOTICE = /^NOTICE: (.*)$/;
const DASHES = /^\s*-+(\s+-+)*\s*$/;
const VERSION = /nsight-systems[/\\](\d{4}\.\d+(?:\.\d+)*)/i;
const MAX_HEADER_CHARS = 4096;
const KNOWN_HEADER = /^\s*"?(Time ?\(%\)|Total \((?:[KMG]i?)?B\)|Row#)"?\s*,/;

function reportName(script: string): string {
  const base = script.split(/[/\\]/).pop() ?? script;
  return base.replace(/\.py$/, '').replace(/:.*$/, '');
}

function isMarker(line: string): boolean {
  return (
    PROCESSING.test(line) ||
    RUNNING_OLD.test(line) ||
    EXECUTING.test(line) ||
    REPORT_TITLE.test(line) ||
    SKIPPED.test(line) ||
    NOTICE.test(line) ||
    /^Generat(ing|ed)\b/.test(line)
  );
}

function csvFields(path: string, line: string, lineNo: number): string[] {
  return parseCsv(path, line, lineNo)[0]?.fields ?? [];
}

/** A CSV header: a known nsys header, or ≥3 text labels followed by a row of as many fields with a number. */
function isCsvHeader(path: string, lines: readonly string[], index: number): boolean {
  const line = lines[index]!;
  // A few hundred characters at most; parsing a megabyte of commas as a candidate takes seconds.
  if (!line.includes(',') || line.length > MAX_HEADER_CHARS) return false;
  if (KNOWN_HEADER.test(line)) return true;
  let fields: string[];
  try {
    fields = csvFields(path, line, index + 1);
  } catch {
    return false;
  }
  if (fields.length < 3 || fields.some((f) => f.trim() === '' || parseNumber(f, true) !== undefined)) return false;
  const next = lines[index + 1];
  if (next === undefined || next.trim() === '' || isMarker(next)) return false;
  try {
    const row = csvFields(path, next, index + 2);
    return row.length === fields.length && row.some((f) => parseNumber(f, true) !== undefined);
  } catch {
    return false;
  }
}

/** Lines from `start` up to (not including) the first blank or status line. */
function bodyEnd(lines: readonly string[], start: number): number {
  let end = start;
  while (end < lines.length && lines[end]!.trim() !== '' && !isMarker(lines[end]!)) end++;
  return end;
}

function readCsvTable(path: string, lines: readonly string[], index: number, report: string | undefined): { table: NsysTable; next: number } {
  const end = bodyEnd(lines, index + 1);
  const records = parseCsv(path, lines.slice(index, end).join('\n'), index + 1);
  const header = records[0]!.fields.map(cleanLabel);
  const rows = records.slice(1).map((record) => {
    if (record.fields.length !== header.length) {
      throw new InputError(
        path,
        `expected ${header.length} fields as in the header on line ${index + 1}, got ${record.fields.length} (a truncated or garbled row)`,
        String(record.line),
      );
    }
    return { cells: record.fields, line: record.line };
  });
  return { table: { report, header, headerLine: index + 1, rows, layout: 'csv' }, next: end };
}

/** Fixed-width table: the dashed underline gives each column's extent; the last column runs to the end. */
function readColumnTable(path: string, lines: readonly string[], index: number, report: string | undefined): { table: NsysTable; next: number } {
  const spans = [...lines[index + 1]!.matchAll(/-+/g)].map((m) => ({ start: m.index!, end: m.index! + m[0].length }));
  const cut = (line: string, lineNo: number, strict: boolean): string[] =>
    spans.map((span, i) => {
      const last = i === spans.length - 1;
      if (strict && i > 0 && (line[span.start - 1] ?? ' ') !== ' ') {
        throw new InputError(path, `expected the columns to line up with the dashed underline on line ${index + 2}`, String(lineNo));
      }
      return line.slice(span.start, last ? undefined : span.end).trim();
    });
  const header = cut(lines[index]!, index + 1, false);
  const end = bodyEnd(lines, index + 2);
  const rows: NsysRow[] = [];
  for (let i = index + 2; i < end; i++) {
    const line = lines[i]!;
    const cells = cut(line, i + 1, true);
    if (line.length <= spans[spans.length - 1]!.start || cells[cells.length - 1] === '') {
      throw new InputError(path, `expected ${spans.length} columns as in the header on line ${index + 1} (a truncated row)`, String(i + 1));
    }
    rows.push({ cells, line: i + 1 });
  }
  return { table: { report, header, headerLine: index + 1, rows, layout: 'column' }, next: end };
}

export function scanNsysOutput(path: string, text: string): NsysOutput {
  const lines = splitLines(text);
  const output: NsysOutput = { tables: [], skipped: [], notices: [], prose: [] };
  let report: string | undefined;
  for (let i = 0; i < lines.length; ) {
    const line = lines[i]!;
    const processing = PROCESSING.exec(line) ?? RUNNING_OLD.exec(line);
    if (processing) {
      const script = processing[2] ?? processing[1]!;
      report = reportName(script);
      output.toolVersion ??= VERSION.exec(script)?.[1];
      i++;
      continue;
    }
    const executing = EXECUTING.exec(line) ?? REPORT_TITLE.exec(line);
    if (executing) {
      report = reportName(executing[1]!);
      i++;
      continue;
    }
    const skipped = SKIPPED.exec(line);
    const notice = NOTICE.exec(line);
    if (skipped || notice) {
      (skipped ? output.skipped : output.notices).push({ report, message: (skipped ?? notice)![1]!.trim(), line: i + 1 });
      i++;
      continue;
    }
    if (line.trim() !== '' && i + 1 < lines.length && DASHES.test(lines[i + 1]!) && !DASHES.test(line)) {
      const { table, next } = readColumnTable(path, lines, i, report);
      output.tables.push(table);
      i = next;
      continue;
    }
    if (isCsvHeader(path, lines, i)) {
      const { table, next } = readCsvTable(path, lines, i, report);
      output.tables.push(table);
      i = next;
      continue;
    }
    if (report && line.trim() !== '' && !/^Generat(ing|ed)\b/.test(line)) {
      output.prose.push({ report, message: line.trim(), line: i + 1 });
    }
    i++;
  }
  return output;
}

/** `Total Time (ns)` → { base: 'Total Time', unit: 'ns' }; `Instances` → { base: 'Instances' }. */
export function splitLabel(label: string): { base: string; unit?: string } {
  const match = /^(.*?)\s*\(([^()]*)\)$/.exec(label.trim());
  return match ? { base: match[1]!, unit: match[2]! } : { base: label.trim() };
}

const BYTES_PER_UNIT: Record<string, number> = { B: 1, KB: 1e3, MB: 1e6, GB: 1e9, KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3 };

export interface Scaled {
  index: number;
  scale: number;
}

/** Where the fields a table needs sit, found by label. */
export interface Columns {
  total?: Scaled;
  size?: Scaled;
  count?: number;
  countLabel?: string;
  min?: Scaled;
  max?: Scaled;
  name?: number;
  nameLabel?: string;
  category?: number;
  grid?: number;
  block?: number;
  style?: number;
}

export function findColumns(header: readonly string[]): Columns {
  const columns: Columns = {};
  let totalUnit = 1;
  header.forEach((label, index) => {
    const { base, unit } = splitLabel(label);
    const timeScale = unit === undefined ? undefined : nsPerUnit(unit);
    if ((base === 'Total Time' || base === 'Sum') && (unit === undefined || timeScale !== undefined)) {
      totalUnit = timeScale ?? 1;
      columns.total = { index, scale: totalUnit };
    } else if (base === 'Total' && unit !== undefined && BYTES_PER_UNIT[unit] !== undefined) {
      columns.size = { index, scale: BYTES_PER_UNIT[unit]! };
    } else if (['Instances', 'Num Calls', 'Calls', 'Count', 'Operations'].includes(base) && unit === undefined) {
      columns.count = index;
      columns.countLabel = base;
    } else if (base === 'Min' || base === 'Minimum') {
      columns.min = { index, scale: timeScale ?? Number.NaN };
    } else if (base === 'Max' || base === 'Maximum') {
      columns.max = { index, scale: timeScale ?? Number.NaN };
    } else if (['Name', 'Kernel Name', 'Operation', 'Range'].includes(base)) {
      columns.name = index;
      columns.nameLabel = base;
    } else if (base === 'Category') columns.category = index;
    else if (base === 'GridXYZ') columns.grid = index;
    else if (base === 'BlockXYZ') columns.block = index;
    else if (base === 'Style') columns.style = index;
  });
  // Old headers print `Minimum`/`Maximum` without a unit: they share the total's unit.
  for (const key of ['min', 'max'] as const) {
    const column = columns[key];
    if (column && Number.isNaN(column.scale)) column.scale = totalUnit;
  }
  return columns;
}
