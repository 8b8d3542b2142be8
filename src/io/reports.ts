/**
 * Reading report.json files back (matrix legs, downloaded artifacts) for the merged report.
 * They may come from a fork's workflow: size-capped, parsed within the report read bounds
 * (model/read-report.ts) and schema-validated, or refused with an InputError naming the file.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join, relative, sep } from 'node:path';
import { InputError, systemErrorText } from '../errors.js';
import { openInput } from '../ingest/common/input-file.js';
import { detectFormat } from '../ingest/registry.js';
import { DEFAULT_ARTIFACT_LIMITS } from '../github/limits.js';
import { parseReportText } from '../model/read-report.js';
import { REPORT_FILE, type Report } from '../model/report.js';
import { compareText } from '../model/text-order.js';

/** A report of 10,000 kernels is a few MiB; anything far larger is not ours. */
export const MAX_REPORT_BYTES = DEFAULT_ARTIFACT_LIMITS.maxReportBytes;
const MAX_DEPTH = 6;

async function walk(directory: string, depth: number, found: string[]): Promise<void> {
  if (depth > MAX_DEPTH) return;
  const entries = (await readdir(directory, { withFileTypes: true })).sort((a, b) => compareText(a.name, b.name));
  for (const entry of entries) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) await walk(path, depth + 1, found);
    else if (entry.isFile() && entry.name === REPORT_FILE) found.push(path);
  }
}

export interface FoundReport {
  path: string;
  /**
   * The folder right below the directory it was found in, when the report is nested: the artifact
   * of a `gh run download` or of the action's download (`<artifact>/profile-gate/report.json`).
   */
  folder?: string;
}

/** Files are taken as given; directories give every report.json inside them (links are not followed). */
export async function findReportFiles(paths: readonly string[]): Promise<FoundReport[]> {
  const found: FoundReport[] = [];
  for (const path of paths) {
    let info;
    try {
      info = await stat(path);
    } catch (error) {
      throw new InputError(path, `cannot read it (${systemErrorText(error)}); expected a report.json or a directory holding some`);
    }
    if (!info.isDirectory()) {
      found.push({ path });
      continue;
    }
    const inside: string[] = [];
    await walk(path, 0, inside);
    for (const file of inside) {
      const parts = relative(path, file).split(sep);
      found.push(parts.length > 1 ? { path: file, folder: parts[0]! } : { path: file });
    }
  }
  return found;
}

export async function loadReport(path: string): Promise<Report> {
  let info;
  try {
    info = await stat(path);
  } catch (error) {
    throw new InputError(path, `cannot read it (${systemErrorText(error)}); expected a profile-gate report.json`);
  }
  if (info.isDirectory()) {
    const inside = join(path, REPORT_FILE);
    const hasReport = await stat(inside).then((s) => s.isFile(), () => false);
    throw new InputError(path, `a folder; expected one profile-gate ${REPORT_FILE} file${hasReport ? ` (this folder holds ${inside})` : ` (analyze --json FILE and run --out DIR write one)`}`);
  }
  if (info.size > MAX_REPORT_BYTES) throw new InputError(path, `${info.size} bytes; expected a report.json under ${MAX_REPORT_BYTES} bytes`);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new InputError(path, `cannot read it (${systemErrorText(error)}); expected a profile-gate report.json`);
  }
  // Bounded while it is parsed (model/read-report.ts): a small file can hold an array of millions.
  try {
    return parseReportText(text, path);
  } catch (error) {
    const format = await captureFormatOf(path);
    if (format === undefined) throw error;
    throw new InputError(
      path,
      `a capture (${format}), not a report; a baseline is the ${REPORT_FILE} of an earlier analysis: profile-gate analyze --json baseline.json BASELINE_CAPTURES..., then give baseline.json`,
    );
  }
}

/** The capture format of a file that is not a report, when it is one. */
export async function captureFormatOf(path: string): Promise<string | undefined> {
  try {
    return detectFormat(await openInput(path)).id;
  } catch {
    return undefined;
  }
}

/** A label for a found report: its folder less `prefix`, else what the report says, else the file's folder. */
export function labelFor(found: FoundReport, report: Report, prefix = ''): string {
  if (found.folder) return found.folder.startsWith(prefix) && found.folder.length > prefix.length ? found.folder.slice(prefix.length) : found.folder;
  const parts = found.path.split(/[\\/]/).filter(Boolean);
  return report.run.workload ?? report.environment.model ?? (parts.length >= 2 ? parts[parts.length - 2]! : basename(found.path));
}
