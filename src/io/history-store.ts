/**
 * The history store: one line of JSON per report (compare/history-summary.ts), appended once when
 * the report is first seen, in one file kept on a branch. Line-delimited JSON because the store is
 * appended to each night and kept in git: a night adds lines (a text diff of a few kilobytes, where
 * a database file would be a new binary copy every night), two branches' appends merge line by line
 * (`merge=union`), and jq, grep or any database's JSON loader read it as it is.
 */
import { createReadStream } from 'node:fs';
import { appendFile, mkdir, open, rm, truncate } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { InputError } from '../errors.js';
import { HISTORY_SUMMARY_VERSION, type HistorySummary } from '../compare/history-summary.js';

export interface HistoryStore<T = HistorySummary> {
  /** The summaries, each as the reader kept it (readHistoryStore's `keep`). */
  summaries: T[];
  /** Report identities in the store. */
  ids: Set<string>;
  /** GitHub artifact ids whose reports are in the store. */
  artifacts: Set<number>;
  /** Lines read (the last one whether or not it ended in a newline): lines appended later are numbered after them. */
  lines: number;
  /** Kernel and family names, each held once, shared with what is read of the store later. */
  names: Map<string, string>;
}

/** A store that holds nothing yet. */
export function emptyHistoryStore<T = HistorySummary>(): HistoryStore<T> {
  return { summaries: [], ids: new Set(), artifacts: new Set(), lines: 0, names: new Map() };
}

/** Where lines appended to a store begin: their byte offset, and the store read before them. */
export interface AppendedLines {
  offset: number;
  after: HistoryStore<unknown>;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** What a line must hold to be drawn; the reason it is not, or undefined. */
function problem(value: unknown): string | undefined {
  if (!isObject(value)) return 'a JSON object';
  if (value['v'] !== HISTORY_SUMMARY_VERSION) return `"v": ${HISTORY_SUMMARY_VERSION} (a history summary of this version)`;
  if (typeof value['id'] !== 'string' || typeof value['generatedAt'] !== 'string' || typeof value['verdict'] !== 'string') return '"id", "generatedAt" and "verdict" strings';
  if (!isObject(value['run']) || !isObject(value['environment']) || !isObject(value['steps']) || !isObject(value['provenance'])) return '"run", "environment", "steps" and "provenance" objects';
  for (const list of ['metrics', 'families', 'kernels', 'findings']) if (!Array.isArray(value[list])) return `a "${list}" array`;
  const kernels = value['kernels'] as unknown[];
  if (!kernels.every((k) => isObject(k) && typeof k['name'] === 'string' && typeof k['family'] === 'string' && typeof k['share'] === 'number')) return 'kernels of a "name", a "family" and a "share"';
  const metrics = value['metrics'] as unknown[];
  if (!metrics.every((m) => isObject(m) && typeof m['name'] === 'string' && Array.isArray(m['samples']) && typeof m['value'] === 'number')) return 'metrics of a "name", "samples" and a "value"';
  const families = value['families'] as unknown[];
  if (!families.every((f) => isObject(f) && typeof f['family'] === 'string' && typeof f['share'] === 'number' && typeof f['totalNs'] === 'number')) return 'families of a "family", a "share" and a "totalNs"';
  return undefined;
}

/**
 * Reads the store (none yet: an empty one), or with `appended` only the lines appended after it was
 * read (appendHistoryLines), numbered after the lines read then. Kernel and family names repeat
 * night after night: each is held once. A line that is not a summary stops the read with its line
 * number: a history read in part would draw a wrong page. Each summary is kept as `keep` makes it,
 * as soon as its line is read (the dashboard keeps the report its page reads: the summary itself
 * is then never held).
 */
export async function readHistoryStore<T = HistorySummary>(path: string, appended?: AppendedLines, keep: (summary: HistorySummary) => T = (summary) => summary as T): Promise<HistoryStore<T>> {
  const store: HistoryStore<T> = { ...emptyHistoryStore<T>(), names: appended?.after.names ?? new Map() };
  const names = store.names;
  const intern = (text: string): string => {
    const known = names.get(text);
    if (known !== undefined) return known;
    names.set(text, text);
    return text;
  };
  let stream;
  try {
    stream = createReadStream(path, { encoding: 'utf8', start: appended?.offset ?? 0 });
    await new Promise<void>((resolve, reject) => stream!.once('open', () => resolve()).once('error', reject));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return store;
    throw new InputError(path, `a readable history store (${(error as Error).message})`);
  }
  let line = appended?.after.lines ?? 0;
  const first = line;
  try {
    for await (const text of createInterface({ input: stream, crlfDelay: Infinity })) {
      line += 1;
      if (!text.trim()) continue;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        throw new InputError(path, 'one JSON object per line (a history summary)', `line ${line}`);
      }
      const why = problem(value);
      if (why) throw new InputError(path, `a history summary: ${why}`, `line ${line}`);
      const summary = value as HistorySummary;
      // A line appended twice (two branches' appends merged) is one report.
      if (store.ids.has(summary.id)) continue;
      for (const k of summary.kernels) {
        k.name = intern(k.name);
        k.family = intern(k.family);
      }
      store.ids.add(summary.id);
      if (summary.provenance.artifact) store.artifacts.add(summary.provenance.artifact.id);
      store.summaries.push(keep(summary));
    }
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(path, `a readable history store (${(error as Error).message})`, line > first ? `line ${line + 1}` : undefined);
  }
  store.lines = line;
  return store;
}

/** One summary as its line. */
export function historyLine(summary: HistorySummary): string {
  return `${JSON.stringify(summary)}\n`;
}

/** Lines written to the store at a time: whole lines, about this many bytes. */
const APPEND_BATCH_BYTES = 1 << 20;

/**
 * Appends the lines (already made public: redacted) to the store, creating it, and says where they
 * begin. The lines are made as they are written, a batch of whole lines at a time: a first import
 * of a year of reports is about 100 MB of lines, which held at once (and joined) would double the
 * build's peak memory. When making them fails, the store is cut back to what it held (removed when
 * there was none) before the error goes on: it never holds part of the new lines. A store whose
 * last line has no newline (edited by hand) gets one first, so that line and the first new one
 * stay two lines.
 */
export async function appendHistoryLines(path: string, lines: Iterable<string> | AsyncIterable<string>): Promise<number> {
  let batch: string[] = [];
  let bytes = 0;
  let before: { size: number; newline: boolean; existed: boolean } | undefined;
  let offset = 0;
  const flush = async (): Promise<void> => {
    if (!before) {
      await mkdir(dirname(path), { recursive: true });
      before = await storeEnd(path);
      offset = before.size;
      if (!before.newline) {
        batch.unshift('\n');
        offset += 1;
      }
    }
    await appendFile(path, batch.join(''));
    batch = [];
    bytes = 0;
  };
  try {
    for await (const line of lines) {
      batch.push(line);
      bytes += line.length;
      if (bytes >= APPEND_BATCH_BYTES) await flush();
    }
    if (batch.length) await flush();
  } catch (error) {
    if (before) await (before.existed ? truncate(path, before.size) : rm(path, { force: true }));
    throw error;
  }
  return before ? offset : (await storeEnd(path)).size;
}

/** The store's size in bytes (none: 0), whether it ends in a newline (an empty store does), and whether it is there. */
async function storeEnd(path: string): Promise<{ size: number; newline: boolean; existed: boolean }> {
  let file;
  try {
    file = await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { size: 0, newline: true, existed: false };
    throw error;
  }
  try {
    const { size } = await file.stat();
    if (size === 0) return { size, newline: true, existed: true };
    const last = Buffer.alloc(1);
    await file.read(last, 0, 1, size - 1);
    return { size, newline: last[0] === 0x0a, existed: true };
  } finally {
    await file.close();
  }
}
