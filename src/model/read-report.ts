/**
 * The one way a report.json's text becomes a Report, for every reader (report files on disk, matrix
 * legs, baseline and dashboard artifacts): read within REPORT_JSON_BOUNDS while it is parsed, then
 * migrated and schema-validated (migrate.ts). Reports may come from a fork's workflow; a report past
 * a bound is refused, naming the field, before it can take the heap.
 */
import { InputError } from '../errors.js';
import { JsonBoundsError, parseBoundedJson, type JsonBounds } from './bounded-json.js';
import { migrateReport } from './migrate.js';
import type { Report } from './report.js';

/**
 * Far above any report profile-gate writes (a report of 10,000 kernels holds about 150,000 values,
 * its longest strings are demangled kernel names of a few kilobytes), far below what takes a heap.
 * The scan of the worst report within them (150,000 rows) takes about a second, so a report that
 * takes 30 s is refused: the reader holds no job for longer, whatever the machine's load.
 */
export const REPORT_JSON_BOUNDS: JsonBounds = {
  maxItems: 200_000,
  maxStringChars: 262_144,
  maxValues: 4_000_000,
  maxDepth: 64,
  maxMillis: 30_000,
};

export function parseReportText(text: string, source: string, bounds: JsonBounds = REPORT_JSON_BOUNDS): Report {
  // An empty file (an upload or a redirect that wrote nothing) is said as such, not as a parser error.
  if (text.trim() === '') throw new InputError(source, `expected a profile-gate report.json, got an empty file`);
  let data: unknown;
  try {
    data = parseBoundedJson(text, bounds);
  } catch (error) {
    if (error instanceof JsonBoundsError) throw new InputError(source, `${error.message}; expected a profile-gate report.json within its read limits (references/steps/limits.md)`);
    throw new InputError(source, `expected JSON, got ${(error as Error).message}`);
  }
  return migrateReport(data, source);
}
