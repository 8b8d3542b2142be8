/**
 * CSV records from lines that arrive one at a time, read as csv-parse reads them (RFC 4180 quoting,
 * `""` for a quote): a quoted field may hold a line break, so a record whose quote is still open
 * continues on the next line; a line of whitespace only is no record; malformed quoting is an
 * InputError naming csv-parse's reason and the line. Most lines take splitCsvLine's fast path.
 */
import { InputError } from '../../errors.js';
import { splitCsvLine } from './text-tables.js';

type LineEnd = 'complete' | 'open' | 'Invalid Opening Quote' | 'Invalid Closing Quote';

/** How one line of a record ends, given whether it starts inside a quoted field. */
function lineEnd(line: string, inQuotes: boolean): LineEnd {
  const n = line.length;
  let i = 0;
  for (;;) {
    if (inQuotes) {
      const quote = line.indexOf('"', i);
      if (quote < 0) return 'open';
      if (line.charCodeAt(quote + 1) === 34) {
        i = quote + 2;
        continue;
      }
      if (quote + 1 === n) return 'complete';
      if (line.charCodeAt(quote + 1) !== 44) return 'Invalid Closing Quote';
      inQuotes = false;
      i = quote + 2;
    } else if (line.charCodeAt(i) === 34) {
      inQuotes = true;
      i += 1;
    } else {
      const comma = line.indexOf(',', i);
      const end = comma < 0 ? n : comma;
      if (line.slice(i, end).includes('"')) return 'Invalid Opening Quote';
      if (comma < 0) return 'complete';
      i = comma + 1;
    }
  }
}

export interface CsvLineRecord {
  fields: string[];
  /** 1-based number of the line the record ends on. */
  line: number;
}

export class CsvRecordReader {
  /** Lines of a record whose quoted field runs on past its first line. */
  private pending: string[] | undefined;
  private lastLine = 0;

  constructor(private readonly path: string) {}

  /** The record `line` completes; undefined while a quoted field stays open, or for a blank record. */
  add(line: string, lineNo: number): CsvLineRecord | undefined {
    this.lastLine = lineNo;
    let fields: string[] | undefined;
    if (!this.pending) {
      fields = splitCsvLine(line);
      if (!fields) {
        const end = lineEnd(line, false);
        if (end !== 'open') this.malformed(end, lineNo);
        this.pending = [line];
        return undefined;
      }
    } else {
      this.pending.push(line);
      const end = lineEnd(line, true);
      if (end === 'open') return undefined;
      if (end !== 'complete') this.malformed(end, lineNo);
      fields = splitCsvLine(this.pending.join('\n'));
      this.pending = undefined;
      if (!fields) this.malformed('Invalid Closing Quote', lineNo);
    }
    // csv-parse reads a line of only spaces (or `""`) as one blank field: not a row.
    if (fields.length === 1 && fields[0]!.trim() === '') return undefined;
    return { fields, line: lineNo };
  }

  /** The CSV text ends (a blank line or the end of the file): a quote still open is an error. */
  end(): void {
    if (this.pending) {
      this.pending = undefined;
      this.malformed('Quote Not Closed', this.lastLine);
    }
  }

  private malformed(reason: string, lineNo: number): never {
    throw new InputError(this.path, `expected well-formed CSV (${reason})`, String(lineNo));
  }
}
