/**
 * Small helpers shared by the importers of profiler text output (nsys, rocprof, MAX console):
 * line splitting, time units, numbers as tools print them, and CSV lines.
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
