/**
 * Small helpers shared by the importers of profiler text output (nsys, rocprof, MAX console):
 * line splitting, time units, numbers as tools print them, CSV lines, and fixed-width columns.
 */
import { ownValue } from '../../model/own-key.js';

export function splitLines(text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

const NS_PER_UNIT: Record<string, number> = {
  ns: 1,
  nsec: 1,
  us: 1e3,
  usec: 1e3,
  'µs': 1e3,
  ms: 1e6,
  msec: 1e6,
  s: 1e9,
  sec: 1e9,
};

/** Nanoseconds in one `unit` (ns/us/ms/s and nsys's nsec/usec/msec/sec), or undefined. */
export function nsPerUnit(unit: string): number | undefined {
  return ownValue(NS_PER_UNIT, unit.trim().toLowerCase());
}

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;

/**
 * A number as a profiler prints it: plain, with an exponent (`2.920e-03`), or with thousands
 * separators when `thousands` is set (`1,976,843,072`). Undefined when the text is not a number.
 */
export function parseNumber(text: string, thousands = false): number | undefined {
  let value = text.trim();
  if (thousands && /^[-+]?\d{1,3}(,\d{3})+(\.\d*)?$/.test(value)) value = value.replace(/,/g, '');
  if (!NUMBER.test(value)) return undefined;
  // `1e309` matches the pattern but is Infinity: not a number a profiler printed.
  const number = Number(value);
  return Number.isFinite(number) ? number : undefined;
}

/**
 * A copy of `text` that keeps no larger string alive. A cell cut from a line is a view of the whole
 * line in V8; a kernel name kept for the report should not hold its row's numbers too (about 20 %
 * more memory for 100,000 templated names).
 */
export function ownString(text: string): string {
  const copy = Buffer.from(text, 'utf8').toString('utf8');
  // Text with a lone surrogate does not survive UTF-8; it stays as it is.
  return copy === text ? copy : text;
}

/** Strip a CSV cell of the quotes and padding some writers leave around header labels. */
export function cleanLabel(label: string): string {
  return label.trim().replace(/^"(.*)"$/, '$1').trim();
}

/**
 * Split one CSV record that holds no line break (RFC 4180 quoting, `""` for a quote). Undefined when
 * the quoting is malformed. Per-dispatch traces run to millions of rows, where this is ~10× faster
 * than csv-parse (measured: csv-parse reads an 80 MB rocprofv3 trace at ~4 MB/s).
 */
export function splitCsvLine(line: string): string[] | undefined {
  const fields: string[] = [];
  const n = line.length;
  let i = 0;
  for (;;) {
    if (line.charCodeAt(i) === 34) {
      let value = '';
      let from = i + 1;
      for (;;) {
        const quote = line.indexOf('"', from);
        if (quote < 0) return undefined;
        if (line.charCodeAt(quote + 1) === 34) {
          value += line.slice(from, quote + 1);
          from = quote + 2;
          continue;
        }
        value += line.slice(from, quote);
        i = quote + 1;
        break;
      }
      fields.push(value);
      if (i === n) return fields;
      if (line.charCodeAt(i) !== 44) return undefined;
      i++;
    } else {
      const comma = line.indexOf(',', i);
      const end = comma < 0 ? n : comma;
      const value = line.slice(i, end);
      if (value.includes('"')) return undefined;
      fields.push(value);
      if (comma < 0) return fields;
      i = comma + 1;
    }
  }
}

/** A column of a fixed-width table: the extent of its dashes in the underline. */
export interface ColumnSpan {
  start: number;
  end: number;
}

/** The columns a dashed underline (` --------  ---------  ----`) marks out. */
export function dashedSpans(dashes: string): ColumnSpan[] {
  return [...dashes.matchAll(/-+/g)].map((m) => ({ start: m.index!, end: m.index! + m[0].length }));
}

/**
 * How far a value may sit off its column's dashes and still be read: a row pasted or edited one or
 * two characters off. Columns are two spaces apart, so a value shifted this far still lies inside
 * its own widened span and outside its neighbour's.
 */
export const MAX_COLUMN_SHIFT = 2;

export interface ColumnCut {
  cells: string[];
  /** 0 when every value lies under its own dashes; else the most characters a value sat off them. */
  offBy: number;
}

/**
 * The cells of one fixed-width row, the last column running to the end of the line. A value (a run
 * of non-blank characters) belongs to the column whose dashes hold it; one that sits up to
 * `tolerance` characters off is read from the one column whose widened span holds it. Undefined when
 * a value falls in no column or in two (the row cannot be read without guessing), or when values
 * fall out of column order.
 */
export function cutColumns(line: string, spans: readonly ColumnSpan[], tolerance = MAX_COLUMN_SHIFT): ColumnCut | undefined {
  const lastIndex = spans.length - 1;
  const ranges: Array<{ start: number; end: number } | undefined> = spans.map(() => undefined);
  let offBy = 0;
  let column = 0;
  for (const token of line.matchAll(/\S+/g)) {
    const start = token.index!;
    const end = start + token[0].length;
    // Once the last column has begun, the rest of the line is its value (a name with spaces).
    let found: number | undefined = column === lastIndex && ranges[lastIndex] ? lastIndex : undefined;
    let distance = 0;
    if (found === undefined) {
      const exact = spans.findIndex((span, i) => (i === lastIndex ? start >= span.start : start >= span.start && end <= span.end));
      if (exact >= 0) found = exact;
      else {
        const near = spans
          .map((span, i) => ({ i, off: i === lastIndex ? Math.max(0, span.start - start) : Math.max(0, span.start - start, end - span.end) }))
          .filter((c) => c.off <= tolerance);
        if (near.length !== 1) return undefined;
        found = near[0]!.i;
        distance = near[0]!.off;
      }
    }
    if (found < column) return undefined;
    column = found;
    offBy = Math.max(offBy, distance);
    const range = ranges[found];
    ranges[found] = range ? { start: range.start, end } : { start, end };
  }
  const cells = spans.map((span, i) => {
    if (offBy === 0) return line.slice(span.start, i === lastIndex ? undefined : span.end).trim();
    const range = ranges[i];
    return range ? line.slice(range.start, i === lastIndex ? undefined : range.end).trim() : '';
  });
  return { cells, offBy };
}
