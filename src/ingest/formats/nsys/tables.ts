/**
 * Splits Nsight Systems console output (`nsys stats`, `nsys profile --stats=true`, `nsys analyze`)
 * into its tables. nsys mixes tables with progress and status lines (`Generating SQLite…`,
 * `Processing [x.sqlite] with [.../cuda_gpu_kern_sum.py]...`, `[6/8] Executing '…' stats report`,
 * `SKIPPED: …`, `NOTICE: …`, ` ** Title (report):`), and prints each table either as CSV
 * (`--format csv`) or as fixed-width columns under a dashed underline (the default), with
 * thousands separators. Tables are found by content, never by line number.
 * Lines are pushed one at a time (NsysScanner), each table's rows going to a sink as they are read,
 * so a large table is never held; scanNsysOutput keeps every row, for small outputs.
 */
import { InputError } from '../../../errors.js';
import { CsvRecordReader } from '../../common/csv-records.js';
import { cleanLabel, cutColumns, dashedSpans, MAX_COLUMN_SHIFT, parseNumber, splitCsvLine, splitLines } from '../../common/text-tables.js';

export { findColumns, splitLabel, type Columns, type Scaled } from './columns.js';

export interface NsysRow {
  cells: string[];
  /** 1-based line number. */
  line: number;
}

/** A table as its header announces it; its rows are streamed to the sink its handler returns. */
export interface NsysTableHead {
  /** The report or rule nsys said it was running (`cuda_gpu_kern_sum`), when it said so. */
  report?: string;
  header: string[];
  headerLine: number;
  layout: 'csv' | 'column';
}

export interface NsysTable extends NsysTableHead {
  rows: NsysRow[];
}

export interface NsysMessage {
  report?: string;
  message: string;
  line: number;
}

export interface NsysScan {
  /** Every table found, in order (rows are given to the sinks, not kept). */
  tables: NsysTableHead[];
  skipped: NsysMessage[];
  notices: NsysMessage[];
  /** Plain-text lines nsys printed about a report or rule (e.g. "There were no problems detected…"). */
  prose: NsysMessage[];
  /** Each `Processing [...] with [script](options)...` line: the report or rule run, and its options. */
  processed: NsysMessage[];
  /** Column tables with rows that sat off the dashed underline and were still read (one per table). */
  realigned: NsysMessage[];
  /** Tables cut short by an elision line (`...`, as in a pasted excerpt): their rows end there. */
  elided: NsysMessage[];
  /** Lines where a run may begin: a Markdown heading, or nsys's first status line of a run. */
  runMarks: NsysMessage[];
  toolVersion?: string;
}

export interface NsysOutput extends NsysScan {
  tables: NsysTable[];
}

/** Where a table's rows go, each once the scanner has checked it against the header; `end` after the last. */
export interface RowSink {
  row(row: NsysRow): void;
  end?(): void;
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
/** A line that only says rows were left out: `...` or `…` (an excerpt pasted from a longer output). */
const ELISION = /^\s*(?:\.{3,}|…)\s*$/;
/** Where a run may begin: a Markdown heading a user put between pasted runs, or nsys's own first lines of a run. */
const RUN_MARK = /^\s{0,3}#{1,6}\s|^Collecting data\.\.\.|^Generating '.*\.qdstrm'|^Generating SQLite file|^\[1\/\d+\] /;
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

/** Markdown a user wraps pasted output in: a code fence or a heading. Never a row of nsys's. */
const MARKDOWN = /^\s{0,3}(?:```|~~~|#{1,6}\s)/;

/** The end of a table body: a blank line, a status line, or the Markdown around pasted output. */
function endsBody(line: string): boolean {
  return line.trim() === '' || isMarker(line) || MARKDOWN.test(line);
}

/** A line's CSV fields as csv-parse reads one line (a blank record has none); undefined when malformed. */
function csvFields(line: string): string[] | undefined {
  const fields = splitCsvLine(line);
  return fields && fields.length === 1 && fields[0]!.trim() === '' ? [] : fields;
}

/** A CSV header: a known nsys header, or ≥3 text labels followed by a row of as many fields with a number. */
function isCsvHeader(line: string, next: string | undefined): boolean {
  // A few hundred characters at most; parsing a megabyte of commas as a candidate takes seconds.
  if (!line.includes(',') || line.length > MAX_HEADER_CHARS) return false;
  if (KNOWN_HEADER.test(line)) return true;
  const fields = csvFields(line);
  if (!fields || fields.length < 3 || fields.some((f) => f.trim() === '' || parseNumber(f, true) !== undefined)) return false;
  if (next === undefined || endsBody(next)) return false;
  const row = csvFields(next);
  return row !== undefined && row.length === fields.length && row.some((f) => parseNumber(f, true) !== undefined);
}

/** The body of the table being read: CSV records, or fixed-width lines cut by the dashed underline. */
interface Body {
  row(line: string, lineNo: number): void;
  end(): void;
}

/**
 * Reads nsys output pushed one line at a time, deciding what a line is with one line of lookahead,
 * as tables are recognized by the line under their header. `onTable` says where a table's rows go
 * (undefined: checked, then dropped).
 */
export class NsysScanner {
  readonly output: NsysScan = { tables: [], skipped: [], notices: [], prose: [], processed: [], realigned: [], elided: [], runMarks: [] };
  private report: string | undefined;
  private lineNo = 0;
  /** The line waiting for the next one to decide what it is. */
  private pending: string | undefined;
  private body: Body | undefined;

  constructor(
    private readonly path: string,
    private readonly onTable: (table: NsysTableHead) => RowSink | undefined,
  ) {}

  push(line: string): void {
    this.lineNo += 1;
    if (RUN_MARK.test(line)) this.output.runMarks.push({ message: line.trim(), line: this.lineNo });
    this.take(line, this.lineNo);
  }

  finish(): NsysScan {
    if (this.body) this.endBody();
    if (this.pending !== undefined) {
      const current = this.pending;
      this.pending = undefined;
      this.decide(current, this.lineNo, undefined);
      // A CSV header on the last line: a table without rows.
      if (this.body) this.endBody();
    }
    return this.output;
  }

  private take(line: string, lineNo: number): void {
    if (this.body) {
      if (ELISION.test(line)) {
        this.output.elided.push({ ...(this.report !== undefined ? { report: this.report } : {}), message: line.trim(), line: lineNo });
        this.endBody();
        return;
      }
      if (!endsBody(line)) {
        this.body.row(line, lineNo);
        return;
      }
      this.endBody();
    }
    if (this.pending === undefined) {
      this.pending = line;
      return;
    }
    const current = this.pending;
    this.pending = undefined;
    this.decide(current, lineNo - 1, line);
  }

  /** What line `lineNo` is, knowing the line after it (`next`, undefined at the end). */
  private decide(line: string, lineNo: number, next: string | undefined): void {
    const output = this.output;
    const processing = PROCESSING.exec(line) ?? RUNNING_OLD.exec(line);
    const executing = processing ? null : (EXECUTING.exec(line) ?? REPORT_TITLE.exec(line));
    const skipped = SKIPPED.exec(line);
    const notice = NOTICE.exec(line);
    if (processing) {
      const script = processing[2] ?? processing[1]!;
      this.report = reportName(script);
      output.processed.push({ report: this.report, message: line.slice(processing[0].length).replace(/\.{3}\s*$/, '').trim(), line: lineNo });
      output.toolVersion ??= VERSION.exec(script)?.[1];
    } else if (executing) {
      this.report = reportName(executing[1]!);
    } else if (skipped || notice) {
      (skipped ? output.skipped : output.notices).push({ report: this.report, message: (skipped ?? notice)![1]!.trim(), line: lineNo });
    } else if (line.trim() !== '' && next !== undefined && DASHES.test(next) && !DASHES.test(line)) {
      this.body = this.columnBody(line, lineNo, next);
      return;
    } else if (isCsvHeader(line, next)) {
      this.body = this.csvBody(line, lineNo);
      if (next !== undefined) this.take(next, lineNo + 1);
      return;
    } else if (this.report && line.trim() !== '' && !/^Generat(ing|ed)\b/.test(line)) {
      output.prose.push({ report: this.report, message: line.trim(), line: lineNo });
    }
    if (next !== undefined) this.pending = next;
  }

  private endBody(): void {
    const body = this.body!;
    this.body = undefined;
    body.end();
  }

  private open(table: NsysTableHead): RowSink | undefined {
    this.output.tables.push(table);
    return this.onTable(table);
  }

  private csvBody(headerLine: string, headerLineNo: number): Body {
    const path = this.path;
    const records = new CsvRecordReader(path);
    const scanner = this;
    const pendingHeader = records.add(headerLine, headerLineNo);
    const start = (header: string[]): Body => {
      const table: NsysTableHead = { report: this.report, header: header.map(cleanLabel), headerLine: headerLineNo, layout: 'csv' };
      const sink = scanner.open(table);
      // A row of the wrong width is named after any malformed quoting in the same table, as csv-parse reads a table whole.
      let shortRow: InputError | undefined;
      return {
        row(line, lineNo) {
          const record = records.add(line, lineNo);
          if (!record || shortRow) return;
          if (record.fields.length !== table.header.length) {
            shortRow = new InputError(
              path,
              `expected ${table.header.length} fields as in the header on line ${headerLineNo}, got ${record.fields.length} (a truncated or garbled row)`,
              String(record.line),
            );
            return;
          }
          sink?.row({ cells: record.fields, line: record.line });
        },
        end() {
          records.end();
          if (shortRow) throw shortRow;
          sink?.end?.();
        },
      };
    };
    if (pendingHeader) return start(pendingHeader.fields);
    // A header whose quoted label runs over several lines: the table opens once it is complete.
    return {
      row(line, lineNo) {
        const record = records.add(line, lineNo);
        if (record) scanner.body = start(record.fields);
      },
      end() {
        records.end();
      },
    };
  }

  /**
   * Fixed-width table: the dashed underline gives each column's extent; the last column runs to the
   * end. A row one or two characters off the underline is read when each value still falls in
   * exactly one column (a notice says which rows); otherwise it is refused.
   */
  private columnBody(headerLine: string, headerLineNo: number, dashes: string): Body {
    const path = this.path;
    const report = this.report;
    const output = this.output;
    const spans = dashedSpans(dashes);
    const header = spans.map((span, i) => headerLine.slice(span.start, i === spans.length - 1 ? undefined : span.end).trim());
    const table: NsysTableHead = { report, header, headerLine: headerLineNo, layout: 'column' };
    const sink = this.open(table);
    const shifted: number[] = [];
    let offBy = 0;
    /** A row cut by another writer's whole line (a console log): its start, waiting for its end on the next line. */
    let held: { text: string; line: number } | undefined;
    return {
      row(text, textLineNo) {
        let line = text;
        let lineNo = textLineNo;
        if (held) {
          line = held.text + text;
          lineNo = held.line;
          output.realigned.push({
            ...(report !== undefined ? { report } : {}),
            line: lineNo,
            message: `line ${lineNo} holds another output's line written into a row (a console log); the row was read with its end from line ${textLineNo}`,
          });
          held = undefined;
        } else {
          const inserted = insertedLineAt(line);
          if (inserted !== undefined) {
            held = { text: line.slice(0, inserted), line: lineNo };
            return;
          }
        }
        const cut = cutColumns(line, spans);
        if (!cut) {
          throw new InputError(
            path,
            `expected the columns to line up with the dashed underline on line ${headerLineNo + 1} (a value falls in no column, or within ${MAX_COLUMN_SHIFT} characters of two)`,
            String(lineNo),
          );
        }
        if (cut.cells[cut.cells.length - 1] === '') {
          throw new InputError(path, `expected ${spans.length} columns as in the header on line ${headerLineNo} (a truncated row)`, String(lineNo));
        }
        if (cut.offBy > 0) {
          shifted.push(lineNo);
          offBy = Math.max(offBy, cut.offBy);
        }
        sink?.row({ cells: cut.cells, line: lineNo });
      },
      end() {
        if (held) throw new InputError(path, `expected the rest of the row after the line written into it (the table ends first)`, String(held.line));
        if (shifted.length > 0) {
          const lines = shifted.length > 5 ? `${shifted.slice(0, 5).join(', ')}, …` : shifted.join(', ');
          output.realigned.push({
            ...(report !== undefined ? { report } : {}),
            line: shifted[0]!,
            message: `${shifted.length} ${shifted.length === 1 ? 'row' : 'rows'} (line ${lines}) sat up to ${offBy} ${offBy === 1 ? 'character' : 'characters'} off the dashed underline on line ${headerLineNo + 1}; each value was read from the one column it falls in`,
          });
        }
        sink?.end?.();
      },
    };
  }
}

/**
 * Where a whole JSON line of another writer starts inside a table row, if one does: a workload and
 * nsys writing to one console can put a line of the workload's into the middle of nsys's row, whose
 * rest then follows on the next line.
 */
function insertedLineAt(line: string): number | undefined {
  const start = line.indexOf('{"');
  if (start <= 0 || line.slice(0, start).trim() === '') return undefined;
  try {
    const value: unknown = JSON.parse(line.slice(start));
    return typeof value === 'object' && value !== null ? start : undefined;
  } catch {
    return undefined;
  }
}

/** Every table of a whole text with its rows (for small outputs such as `nsys analyze` rules). */
export function scanNsysOutput(path: string, text: string): NsysOutput {
  const tables: NsysTable[] = [];
  const scanner = new NsysScanner(path, (head) => {
    const table: NsysTable = { ...head, rows: [] };
    tables.push(table);
    return { row: (row) => table.rows.push(row) };
  });
  for (const line of splitLines(text)) scanner.push(line);
  return { ...scanner.finish(), tables };
}
