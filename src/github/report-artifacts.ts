/**
 * Reports out of downloaded artifact zips: untrusted bytes (a fork's workflow may have written them)
 * read within the limits, one report at a time. Each report.json is size-capped, JSON-parsed and
 * migrated or refused (a newer schema says so); the caller reduces it before asking for the next.
 */
import { REPORT_FILE } from '../model/report.js';
import { InputError } from '../errors.js';
import { parseReportText } from '../model/read-report.js';
import type { Report } from '../model/report.js';
import type { ArtifactLimits } from './limits.js';
import { zipEntries, ZipError } from './zip-reader.js';

/** What lets a later workflow find the PR a report belongs to (written beside report.json). */
export const CONTEXT_FILE = 'context.json';
const MAX_CONTEXT_BYTES = 64 * 1024;

const named = (file: string) => (name: string) => name === file || name.endsWith(`/${file}`);

export type ArtifactReport =
  | { path: string; report: Report; context?: unknown }
  /** A report.json that is not a readable report: left out, with why. */
  | { path: string; error: string };

function parseReport(data: Buffer, source: string): Report {
  return parseReportText(data.toString('utf8'), source);
}

function folderOf(path: string): string {
  const at = path.lastIndexOf('/');
  return at < 0 ? '' : path.slice(0, at + 1);
}

/**
 * The reports in one artifact zip, one at a time. A broken archive or a broken cap throws a
 * ZipError (the artifact as a whole is unreadable); a report that does not parse is yielded as an error.
 */
export function* reportsInZip(zip: Buffer, source: string, limits: ArtifactLimits): Generator<ArtifactReport> {
  const caps = { maxEntries: limits.maxEntries, maxEntryBytes: limits.maxReportBytes, maxTotalBytes: limits.maxUnzippedBytes };
  const contexts = new Map<string, unknown>();
  for (const entry of zipEntries(zip, named(CONTEXT_FILE), { ...caps, maxEntryBytes: MAX_CONTEXT_BYTES, maxTotalBytes: MAX_CONTEXT_BYTES * 16 })) {
    try {
      contexts.set(folderOf(entry.name), JSON.parse(entry.data.toString('utf8')));
    } catch {
      // An unreadable context.json only costs the PR lookup; the report is still read.
    }
  }
  for (const entry of zipEntries(zip, named(REPORT_FILE), caps)) {
    const path = `${source}/${entry.name}`;
    try {
      const report = parseReport(entry.data, path);
      const context = contexts.get(folderOf(entry.name));
      yield { path, report, ...(context !== undefined ? { context } : {}) };
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      yield { path, error: error.expected };
    }
  }
}

/** One line for an artifact that could not be read at all. */
export function unreadableReason(error: unknown): string {
  if (error instanceof ZipError) return `not a readable zip: ${error.message}`;
  if (error instanceof InputError) return error.expected;
  return (error as Error).message;
}
