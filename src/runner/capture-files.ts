/**
 * The files a run leaves: checked before the run claims success (present, non-empty and of the
 * expected shape, a cheap structural check; the importers read them fully later), collected from a
 * command workload's capture globs, found in a profiler's output folder, and derived (a profiled
 * `max generate` console without its timings, which profiling distorts).
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, mkdir, open, readdir, stat, writeFile } from 'node:fs/promises';
import { basename, isAbsolute, join, relative, sep } from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { consoleMetricsPath } from '../io/input-paths.js';
import { CONSOLE_IMPORTERS, IMPORTERS, importerFor, lineImporter } from '../ingest/registry.js';
import { openInput, SNIFF_BYTES } from '../ingest/common/input-file.js';
import { FORMAT_IDS, type FormatId } from '../model/capture.js';
import type { OutputKind } from './plan.js';
import { LineSplitter } from './line-splitter.js';

export type FileCheck = { ok: true; bytes: number } | { ok: false; reason: string };

const HEAD_BYTES = 4 * 1024 * 1024;

async function head(path: string, bytes = HEAD_BYTES): Promise<string> {
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await file.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await file.close();
  }
}

async function tailText(path: string, size: number, bytes = 64): Promise<string> {
  const file = await open(path, 'r');
  try {
    const length = Math.min(bytes, size);
    const buffer = Buffer.alloc(length);
    await file.read(buffer, 0, length, size - length);
    return buffer.toString('utf8');
  } finally {
    await file.close();
  }
}

async function checkJsonLines(path: string): Promise<string | undefined> {
  const lines = createInterface({ input: createReadStream(path), crlfDelay: Infinity });
  let count = 0;
  let number = 0;
  for await (const line of lines) {
    number += 1;
    if (!line.trim()) continue;
    try {
      JSON.parse(line);
    } catch {
      lines.close();
      return `line ${number} is not JSON`;
    }
    count += 1;
  }
  return count === 0 ? 'no samples' : undefined;
}

/** A JSON document: starts with { or [, ends with } or ] (a cut-off trace fails this). */
async function checkJsonShape(path: string, size: number): Promise<string | undefined> {
  const first = (await head(path, 256)).trimStart()[0];
  const last = (await tailText(path, size)).trimEnd().slice(-1);
  if (first !== '{' && first !== '[') return 'does not start with a JSON object';
  if (last !== '}' && last !== ']') return 'is cut off (does not end a JSON document)';
  return undefined;
}

/** A gzip file must decompress whole (its checksum catches a truncated trace). */
async function checkGzipJson(path: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    let first: string | undefined;
    let lastChunk = '';
    createReadStream(path)
      .pipe(createGunzip())
      .on('data', (chunk: Buffer) => {
        const text = chunk.toString('utf8');
        if (first === undefined && text.trim()) first = text.trimStart()[0];
        lastChunk = text.trim() ? text : lastChunk;
      })
      .on('error', (error) => resolve(`does not decompress (${error.message})`))
      .on('end', () => {
        const last = lastChunk.trimEnd().slice(-1);
        if (first !== '{' && first !== '[') resolve('does not hold a JSON document');
        else if (last !== '}' && last !== ']') resolve('is cut off (does not end a JSON document)');
        else resolve(undefined);
      });
  });
}

const isFormat = (kind: OutputKind): kind is FormatId => (FORMAT_IDS as readonly string[]).includes(kind);

/** A capture of a known format: its importer's own sniff on its head, as the analysis will detect it. */
async function checkFormat(path: string, format: FormatId): Promise<string | undefined> {
  const importer = importerFor(format);
  return importer.sniff((await openInput(path)).head) ? undefined : `does not look like ${importer.label}`;
}

export async function checkOutput(path: string, kind: OutputKind, options: { sniffOnly?: boolean } = {}): Promise<FileCheck> {
  let size: number;
  try {
    const info = await stat(path);
    if (!info.isFile()) return { ok: false, reason: 'is not a file' };
    size = info.size;
  } catch {
    return { ok: false, reason: 'was not written' };
  }
  if (size === 0) return { ok: false, reason: 'is empty' };
  let problem: string | undefined;
  if (kind === 'workload-console') {
    if (!options.sniffOnly) {
      const file = await openInput(path);
      if (!IMPORTERS.some((importer) => importer.sniff(file.head))) problem = NO_METRIC_LINES;
    }
  } else if (kind === 'workload-capture') {
    if (/\.json\.gz$/i.test(path)) problem = await checkGzipJson(path);
    else if (/\.json$/i.test(path)) problem = await checkJsonShape(path, size);
  } else if (isFormat(kind)) {
    // JSON lines are checked whole (a cut last line), then the head by the importer.
    if (/\.jsonl$/i.test(path)) problem = await checkJsonLines(path);
    problem ??= await checkFormat(path, kind);
  }
  return problem ? { ok: false, reason: problem } : { ok: true, bytes: size };
}

const NO_METRIC_LINES = 'holds no {"metric": …, "value": …} line (print one per result, e.g. {"metric": "decode_tok_s", "value": 123.4}, to compare throughput)';

export { consoleMetricsPath };

/** Copy the metric lines of `from` into `to`, streamed line by line (bounded lines); returns how many. */
export async function extractMetricLines(from: string, to: string): Promise<{ found: number; prose?: string }> {
  const out = createWriteStream(to);
  const reader = lineImporter();
  let found = 0;
  let prose: string | undefined;
  const lines = new LineSplitter((line, dropped) => {
    if (dropped > 0) return;
    if (!reader.lineRecord(line)) {
      if (prose === undefined && THROUGHPUT_IN_WORDS.test(line)) prose = line.trim().slice(0, 120);
      return;
    }
    found += 1;
    out.write(`${line}\n`);
  });
  try {
    for await (const chunk of createReadStream(from)) lines.push(chunk as Buffer);
    lines.end();
  } finally {
    await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  }
  return prose === undefined ? { found } : { found, prose };
}

/** A throughput written for people ("decode throughput: 100 tok/s"): what the metric line should carry instead. */
const THROUGHPUT_IN_WORDS = /\d(?:[\d.,]*)\s*(?:tok(?:en)?s?\s*\/\s*s|tok(?:en)?s?\s+per\s+second)\b/i;

/** The reason a console holds no metric line, quoting the line that reads like one. */
function noMetricLines(prose: string | undefined): string {
  if (prose === undefined) return NO_METRIC_LINES;
  const value = /(\d[\d,]*(?:\.\d+)?)\s*tok/i.exec(prose)?.[1]?.replace(/,/g, '') ?? '123.4';
  return `holds no {"metric": …, "value": …} line: it prints ${JSON.stringify(prose)}, which is for people; print the number as a metric line too, e.g. {"metric": "decode_tok_s", "value": ${value}}`;
}

/**
 * The file the analysis reads for a command workload's console. A console in another known format
 * (its head says so) is read as it is; a short one whose first lines hold metric lines as well.
 * Otherwise the console is read whole, streamed, for its metric lines (a metric printed after a
 * long log still counts):
 * they go to a `.metrics.jsonl` next to the log, which is what the analysis then reads.
 */
export async function consoleAnalysisFile(path: string): Promise<{ ok: true; path: string; bytes: number } | { ok: false; reason: string }> {
  const check = await checkOutput(path, 'workload-console', { sniffOnly: true });
  if (!check.ok) return check;
  const file = await openInput(path);
  const sniffed = CONSOLE_IMPORTERS.find((importer) => importer.sniff(file.head));
  // A format of its own is read as it is; lines among other output are gathered (below) unless the head is all.
  if (sniffed && !sniffed.lineRecord) return { ok: true, path, bytes: check.bytes };
  // Whole, only where the analysis would read it as the same format (not for its tables).
  if (sniffed && file.sizeBytes <= SNIFF_BYTES && IMPORTERS.find((importer) => importer.sniff(file.head)) === sniffed) return { ok: true, path, bytes: check.bytes };
  const metrics = consoleMetricsPath(path);
  const extracted = await extractMetricLines(path, metrics);
  if (extracted.found === 0) return { ok: false, reason: noMetricLines(extracted.prose) };
  return { ok: true, path: metrics, bytes: (await stat(metrics)).size };
}

/** Lines of the `max generate` metrics report; a profiled run's timings are not measurements. */
const GENERATE_METRIC_LINE =
  /^(Prompt size|Output size|Startup time|Time to first token|Prompt eval throughput \(context-encoding\)|Time per Output Token|Eval throughput \(token-generation\)|Total Latency|Total Throughput|Total tokens per second):/;

export async function deriveProfileConsole(from: string, to: string): Promise<number> {
  const kept: string[] = [];
  let dropped = 0;
  const lines = createInterface({ input: createReadStream(from), crlfDelay: Infinity });
  for await (const line of lines) {
    if (GENERATE_METRIC_LINE.test(line)) dropped += 1;
    else kept.push(line);
  }
  await writeFile(to, `${kept.join('\n')}\n`);
  return dropped;
}

/** A glob of `*`, `?` and `**` (any number of folders) as a RegExp over '/'-separated paths. */
export function globToRegExp(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i += 1) {
    const char = glob[i]!;
    if (char === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/';
      source += slash ? '(?:[^/]*/)*' : '.*';
      i += slash ? 2 : 1;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

const MAX_WALK_ENTRIES = 200_000;

/** Files under `root` (relative paths), skipping .git and node_modules, bounded. */
async function walk(root: string, prefix = '', found: string[] = []): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(join(root, prefix), { withFileTypes: true });
  } catch {
    return found;
  }
  for (const entry of entries) {
    if (found.length >= MAX_WALK_ENTRIES) break;
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (entry.name !== '.git' && entry.name !== 'node_modules') await walk(root, path, found);
    } else if (entry.isFile()) found.push(path);
  }
  return found;
}

/** The fixed folder a glob starts from (`traces/**\/*.json` → `traces`), so the walk stays small. */
function globBase(glob: string): string {
  const parts = glob.split('/');
  const fixed: string[] = [];
  for (const part of parts.slice(0, -1)) {
    if (/[*?]/.test(part)) break;
    fixed.push(part);
  }
  return fixed.join('/');
}

/** Files matching `globs` (relative to `cwd`, or absolute) with their modification times. */
export async function matchCaptures(globs: readonly string[], cwd: string): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  for (const glob of globs) {
    const absolute = isAbsolute(glob);
    const root = absolute ? '/' : cwd;
    const relativeGlob = absolute ? glob.slice(1) : glob.replace(/^\.\//, '');
    const pattern = globToRegExp(relativeGlob);
    for (const file of await walk(root, globBase(relativeGlob))) {
      if (!pattern.test(file)) continue;
      const path = join(root, file);
      try {
        found.set(path, (await stat(path)).mtimeMs);
      } catch {
        // removed meanwhile
      }
    }
  }
  return found;
}

/**
 * Copy the capture files a step wrote (new, or changed since `before` was taken) into `into`,
 * keeping their paths relative to `cwd`. Returns the copies.
 */
export async function collectCaptures(globs: readonly string[], cwd: string, before: ReadonlyMap<string, number>, into: string): Promise<string[]> {
  const copies: string[] = [];
  for (const [source, mtime] of await matchCaptures(globs, cwd)) {
    if (source.startsWith(into + sep) || before.get(source) === mtime) continue;
    const target = join(into, source.startsWith(cwd + sep) ? relative(cwd, source) : basename(source));
    await mkdir(join(target, '..'), { recursive: true });
    await copyFile(source, target);
    copies.push(target);
  }
  return copies;
}

/** Files below `dir` whose names end with `suffix` (rocprofv3 picks host/pid folders itself). */
export async function findBySuffix(dir: string, suffix: string): Promise<string[]> {
  return (await walk(dir)).filter((file) => file.endsWith(suffix)).map((file) => join(dir, file));
}
