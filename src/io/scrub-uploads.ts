/**
 * Files made ready for an artifact when the workflow opts into the workload's own files
 * (upload-raw-captures): each is copied into a staging folder with the job's secrets and the
 * workload's environment taken out, or withheld with the reason and its kind. This is defence in
 * depth: by default only files profile-gate wrote itself are uploaded (io/derived-files.ts). What is
 * done depends on what the file is, read from its bytes (and, for the profilers' own report
 * formats, its name):
 * - text (CSV, JSON, logs, run.json): every secret in each of its forms (encoded-forms in
 *   secrets.ts), credential-shaped token and credential assignment replaced, streamed; text is cut
 *   between chunks only where no token, assignment, secret value or private key block can straddle;
 * - gzip: inflated (every member) and treated as what it holds, recursively, then compressed again;
 * - SQLite (nsys exports, rocpd): opened without ever being written to (no trigger can run), its
 *   tables copied one by one into a new database with every text cell redacted and the environment
 *   emptied; views, triggers, indexes and the schema's text are left behind;
 * - archives (zip, tar) and other compressions: withheld, since their entries cannot be checked here;
 * - the profilers' own reports (.nsys-rep, .ncu-rep, .qdrep, .qdstrm, Perfetto and OTF2 traces, also
 *   gzipped): withheld, since they embed the whole environment in formats that cannot be rewritten
 *   here; uploaded only when the workflow opts in, and then only without a known secret inside;
 * - other binary files: uploaded only without a known secret value inside.
 * Every staged file is searched once more (inflated) for the known secret values, in UTF-8 and
 * UTF-16, before it may go.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Transform, Writable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip, createGzip } from 'node:zlib';
import type { Database, SqlValue } from 'sql.js';
import { systemErrorText, withoutQuotedText } from '../errors.js';
import { isGzip, readPrefix, SNIFF_BYTES } from '../ingest/common/input-file.js';
import { MAX_SQLITE_BYTES, openDatabaseBytes, quoteName, SQLITE_MAGIC } from '../ingest/common/sqlite-db.js';
import {
  findSecret,
  isEnvironmentBlock,
  longestSecretBytes,
  PRIVATE_KEY_END,
  PRIVATE_KEY_START,
  redactText,
  REDACTED,
  secretBytes,
  stripEnvironmentValues,
  type SecretSet,
} from './secrets.js';

/** The profilers' own report formats: they carry the profiled process's whole environment. */
export const RAW_REPORT_SUFFIXES = ['.nsys-rep', '.qdrep', '.qdstrm', '.ncu-rep', '.pftrace', '.perfetto-trace', '.otf2'] as const;

export type Treatment = 'text' | 'gzip-text' | 'gzip' | 'sqlite' | 'raw-report' | 'archive' | 'binary';

export interface UploadFile {
  /** The file on disk. */
  file: string;
  /** Where it goes: the staging folder's file to upload in its place. */
  target: string;
}

export interface StagedFile extends UploadFile {
  treatment: Treatment;
  /** Secrets and environment values taken out. */
  redactions: number;
}

/**
 * Why a file was withheld, for a caller to act on: `raw-report` is the policy working as set (a
 * profiler's own report without upload-raw-reports); the others are files that could not go.
 */
export type WithheldKind = 'unreadable' | 'raw-report' | 'too-large' | 'secret' | 'archive' | 'unscrubbable';

export interface WithheldFile {
  file: string;
  kind: WithheldKind;
  reason: string;
}

export interface ScrubOptions {
  secrets: SecretSet;
  /** The workflow's opt-in to the profilers' own reports (`upload-raw-reports`). */
  rawReports: boolean;
}

export interface ScrubResult {
  staged: StagedFile[];
  withheld: WithheldFile[];
}

/** Text is read in chunks of this size. */
export const TEXT_CHUNK_BYTES = 1 << 20;
/** At least this many characters are held back at each chunk's end (more for a longer secret). */
export const MIN_OVERLAP = 64 * 1024;
/** The longest credential-shaped token kept whole across a cut (JWTs run to a few KiB). */
const SHAPE_REACH = 16 * 1024;
/** An unfinished private key block is held back up to this size; past it, the rest of the block is removed. */
const MAX_KEY_BLOCK = 1 << 20;
/** Inflated gzip content is staged up to this size; a larger one is withheld. */
export const MAX_INFLATED_BYTES = 2 * 1024 * 1024 * 1024;
/** Gzip inside gzip is opened this deep. */
const MAX_GZIP_DEPTH = 4;

/** Zip, tar, 7z, xz, zstd, bzip2: formats whose entries cannot be checked here. */
function archiveKind(start: Buffer): string | undefined {
  if (start.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04])) || start.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x05, 0x06]))) return 'a zip archive';
  if (start.length > 262 && start.subarray(257, 262).toString('latin1') === 'ustar') return 'a tar archive';
  if (start.subarray(0, 6).equals(Buffer.from([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]))) return 'a 7z archive';
  if (start.subarray(0, 6).equals(Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]))) return 'xz-compressed data';
  if (start.subarray(0, 4).equals(Buffer.from([0x28, 0xb5, 0x2f, 0xfd]))) return 'zstd-compressed data';
  if (start.subarray(0, 3).toString('latin1') === 'BZh') return 'bzip2-compressed data';
  return undefined;
}

function isRawReportName(file: string): boolean {
  const lower = file.toLowerCase().replace(/\.gz$/, '');
  return RAW_REPORT_SUFFIXES.some((suffix) => lower.endsWith(suffix));
}

export async function treatmentOf(file: string): Promise<Treatment> {
  if (isRawReportName(file)) return 'raw-report';
  const start = await readPrefix(file, SNIFF_BYTES);
  if (start.subarray(0, 16).toString('latin1') === SQLITE_MAGIC) return 'sqlite';
  if (isGzip(start)) return 'gzip';
  if (archiveKind(start)) return 'archive';
  return start.includes(0) ? 'binary' : 'text';
}

/** Characters that end a word: a token, a value or a flag never holds one (bar a quoted value). */
const SEPARATOR = /[\s"'\x00,;&|<>`]/;
/** Where a credential-shaped token starts (secrets.ts CREDENTIAL_SHAPES). */
const SHAPE_START = /(?:hf_|gh[pousr]_|github_pat_|glpat-|sk-|AKIA|ASIA|xox[abposr]-|AIza|npm_|eyJ|Bearer|Basic)/g;
/** A word that makes the next word a value: a flag, a joiner, a scheme. */
const INTRODUCER = /^(?:-.*|.*[:=]|Bearer|Basic|Token|Digest)$/i;

function wordEnd(text: string, at: number): number {
  let i = at;
  while (i < text.length && !SEPARATOR.test(text[i]!)) i++;
  return i;
}

function wordStart(text: string, at: number): number {
  let i = at;
  while (i > 0 && !SEPARATOR.test(text[i - 1]!)) i--;
  return i;
}

/**
 * Where text may be cut so that nothing redaction needs whole straddles the cut: at or before
 * `limit`; after a line end where there is one near it, else before the word at the limit and
 * before the word that introduces it (`--token VALUE`, `Bearer VALUE`, `"key": "VALUE"`); never
 * inside a credential-shaped token, a known secret value of any form, or a private key block that
 * has not ended. Returns 0 when no place is safe (the caller keeps reading).
 */
export function safeCut(text: string, limit: number, secrets: SecretSet, overlap: number): number {
  let cut = limit;
  const near = limit - Math.floor(overlap / 2);
  const newline = text.lastIndexOf('\n', limit - 1);
  if (newline >= 0 && newline + 1 >= near) cut = newline + 1;
  else {
    const start = wordStart(text, limit);
    if (start >= near) {
      cut = start;
      // The words before, while one introduces the next (`--token`, `Bearer`, `key:`) or the next is a bare joiner (`=`).
      let current = text.slice(cut, wordEnd(text, cut));
      for (let words = 0; words < 3; words++) {
        let j = cut;
        while (j > 0 && /[ \t"']/.test(text[j - 1]!)) j--;
        const before = wordStart(text, j);
        const word = text.slice(before, j);
        if (!word || before < near || !(INTRODUCER.test(word) || /^[:=]+$/.test(current))) break;
        cut = before;
        current = word;
      }
    }
  }
  // Never inside a credential-shaped token (up to SHAPE_REACH long): before the first one that reaches the cut.
  SHAPE_START.lastIndex = Math.max(0, cut - SHAPE_REACH);
  for (let m = SHAPE_START.exec(text); m && m.index < cut; m = SHAPE_START.exec(text)) {
    let body = m.index + m[0].length;
    if (/^(Bearer|Basic)$/i.test(m[0])) while (body < cut && /[ \t]/.test(text[body]!)) body++;
    if (!SEPARATOR.test(text.slice(body, cut))) {
      cut = m.index;
      break;
    }
  }
  // Never inside a known value of any form: before any that straddles.
  for (let moved = true; moved; ) {
    moved = false;
    for (const value of secrets.values) {
      const at = text.indexOf(value, Math.max(0, cut - value.length + 1));
      if (at >= 0 && at < cut && at + value.length > cut) {
        cut = at;
        moved = true;
      }
    }
  }
  // Never inside a private key block that has not ended before the cut.
  PRIVATE_KEY_START.lastIndex = 0;
  for (let m = PRIVATE_KEY_START.exec(text); m && m.index < cut; m = PRIVATE_KEY_START.exec(text)) {
    PRIVATE_KEY_END.lastIndex = m.index;
    const end = PRIVATE_KEY_END.exec(text);
    if (!end || end.index + end[0].length > cut) {
      cut = m.index;
      break;
    }
    PRIVATE_KEY_START.lastIndex = end.index + end[0].length;
  }
  return cut;
}

/** Redacts a character stream chunk by chunk, cutting only where safeCut allows. */
class RedactingStream extends Transform {
  private pending = '';
  private readonly decoder = new StringDecoder('utf8');
  private readonly overlap: number;
  count = 0;

  constructor(private readonly secrets: SecretSet) {
    super();
    this.overlap = Math.max(MIN_OVERLAP, 2 * Math.max(0, ...secrets.values.map((v) => v.length)) + 256);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    if (chunk.includes(0)) {
      done(new BinaryContent());
      return;
    }
    let text = this.pending + this.decoder.write(chunk);
    let out = '';
    // Cut only with a whole overlap before the cut as well as after it: a cut near the start has no room to step back.
    while (text.length >= 2 * this.overlap) {
      const cut = safeCut(text, text.length - this.overlap, this.secrets, this.overlap);
      if (cut <= 0) {
        // An unfinished private key block longer than any key: remove it to the cut, keep its end marker's chance.
        if (text.length <= MAX_KEY_BLOCK) break;
        PRIVATE_KEY_START.lastIndex = 0;
        const start = PRIVATE_KEY_START.exec(text);
        if (!start || start.index !== 0) break;
        this.count += 1;
        out += REDACTED;
        text = `${start[0]}${text.slice(text.length - this.overlap)}`;
        continue;
      }
      const redacted = redactText(text.slice(0, cut), this.secrets);
      this.count += redacted.count;
      out += redacted.text;
      text = text.slice(cut);
    }
    this.pending = text;
    done(null, out);
  }

  override _flush(done: TransformCallback): void {
    const redacted = redactText(this.pending + this.decoder.end(), this.secrets);
    this.count += redacted.count;
    done(null, redacted.text);
  }
}

class BinaryContent extends Error {
  constructor() {
    super('the file holds binary data where text was expected');
  }
}

async function redactTextFile(file: string, target: string, secrets: SecretSet): Promise<number> {
  const redactor = new RedactingStream(secrets);
  await pipeline(createReadStream(file, { highWaterMark: TEXT_CHUNK_BYTES }), redactor, createWriteStream(target));
  return redactor.count;
}

/** Whether a known secret value, in UTF-8 or UTF-16, is anywhere in the file (inflated, for gzip). */
export async function fileHoldsSecret(file: string, secrets: SecretSet, gzip = false): Promise<boolean> {
  if (!secrets.values.length) return false;
  const keep = longestSecretBytes(secrets) - 1;
  let tail = Buffer.alloc(0);
  let found = false;
  const search = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (!found) {
        const window = Buffer.concat([tail, chunk]);
        if (findSecret(window, secrets) !== undefined) found = true;
        tail = window.subarray(Math.max(0, window.length - keep));
      }
      done();
    },
  });
  const source = createReadStream(file, { highWaterMark: TEXT_CHUNK_BYTES });
  if (gzip) await pipeline(source, createGunzip(), search);
  else await pipeline(source, search);
  return found;
}

/** Gzip content inflated into a file of its own, within MAX_INFLATED_BYTES (every member). */
async function inflate(file: string, target: string): Promise<void> {
  let total = 0;
  const cap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      total += chunk.length;
      if (total > MAX_INFLATED_BYTES) done(new Error(`it inflates past ${MAX_INFLATED_BYTES} bytes`));
      else done(null, chunk);
    },
  });
  await pipeline(createReadStream(file), createGunzip(), cap, createWriteStream(target));
}

async function deflate(file: string, target: string): Promise<void> {
  await pipeline(createReadStream(file), createGzip(), createWriteStream(target));
}

/** Columns that hold a process's environment (rocpd's `environment`, for one). */
const ENVIRONMENT_COLUMN = /^env(ironment)?(_?vars?|_?variables?)?$/i;

/** A column's type affinity (SQLite's rules), so the copy keeps how values compare without the schema's text. */
function affinity(declared: string): string {
  const t = declared.toUpperCase();
  if (t.includes('INT')) return 'INTEGER';
  if (/CHAR|CLOB|TEXT/.test(t)) return 'TEXT';
  if (t === '' || t.includes('BLOB')) return 'BLOB';
  if (/REAL|FLOA|DOUB/.test(t)) return 'REAL';
  return 'NUMERIC';
}

/** Rows copied per transaction of the new database. */
const COPY_BATCH = 8192;
/** Distinct text values whose redaction is remembered per column. */
const TEXT_CACHE = 65_536;

/**
 * An SQLite capture copied table by table into a new database with its environment and secrets
 * taken out. The source is only read (query_only): no statement that could fire a trigger is ever
 * run on it, and views, triggers, indexes and the schema's text are not carried. nsys keeps the
 * environment in META_DATA_CAPTURE (one row per variable), in TARGET_INFO_SYSTEM_ENV and in
 * StringIds (whole blocks); rocpd in an `environment` column. Rows are kept (ids stay valid);
 * values go. Table and column names that hold a secret are withheld with the file.
 */
async function scrubSqlite(file: string, target: string, secrets: SecretSet): Promise<number> {
  const source = await openDatabaseBytes(await readFile(file));
  const copy = await openDatabaseBytes(new Uint8Array(0));
  let count = 0;
  try {
    source.run('PRAGMA query_only = 1');
    const tables = source.exec("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")[0]?.values.map((row) => String(row[0])) ?? [];
    for (const table of tables) {
      if (redactText(table, secrets).count || findSecret(Buffer.from(table), secrets)) throw new Error('a table name holds a secret');
      const info = source.exec(`PRAGMA table_info(${quoteName(table)})`)[0]?.values ?? [];
      const columns = info.map((row) => ({ name: String(row[1]), affinity: affinity(String(row[2] ?? '')) }));
      if (!columns.length) continue;
      for (const { name } of columns) if (redactText(name, secrets).count || findSecret(Buffer.from(name), secrets)) throw new Error('a column name holds a secret');
      copy.run(`CREATE TABLE ${quoteName(table)} (${columns.map((c) => `${quoteName(c.name)} ${c.affinity}`).join(', ')})`);
      const envRows = table === 'META_DATA_CAPTURE' && columns.some((c) => c.name === 'name') && columns.some((c) => c.name === 'value');
      const nameAt = columns.findIndex((c) => c.name === 'name');
      const caches = columns.map(() => new Map<string, string>());
      const clean = (value: SqlValue, i: number, row: SqlValue[]): SqlValue => {
        const column = columns[i]!.name;
        if (typeof value === 'string') {
          if (ENVIRONMENT_COLUMN.test(column) || (envRows && column === 'value' && /ENVIRONMENT/i.test(String(row[nameAt] ?? '')))) {
            if (value !== REDACTED) count += 1;
            return REDACTED;
          }
          const cache = caches[i]!;
          let out = cache.get(value);
          if (out === undefined) {
            const redacted = redactText(value, secrets);
            out = isEnvironmentBlock(redacted.text) ? stripEnvironmentValues(redacted.text) : redacted.text;
            if (cache.size < TEXT_CACHE) cache.set(value, out);
          }
          if (out !== value) count += 1;
          return out;
        }
        if (value instanceof Uint8Array) {
          if (ENVIRONMENT_COLUMN.test(column) || findSecret(value, secrets) !== undefined) {
            count += 1;
            return null;
          }
        }
        return value;
      };
      await copyRows(source, copy, table, columns.map((c) => c.name), clean);
    }
    await writeFile(target, copy.export());
  } finally {
    source.close();
    copy.close();
  }
  return count;
}

async function copyRows(source: Database, copy: Database, table: string, columns: readonly string[], clean: (value: SqlValue, i: number, row: SqlValue[]) => SqlValue): Promise<void> {
  const select = source.prepare(`SELECT ${columns.map(quoteName).join(', ')} FROM ${quoteName(table)}`);
  const insert = copy.prepare(`INSERT INTO ${quoteName(table)} VALUES (${columns.map(() => '?').join(', ')})`);
  try {
    let inBatch = 0;
    copy.run('BEGIN');
    while (select.step()) {
      const row = select.get();
      insert.run(row.map((value, i) => clean(value, i, row)));
      if (++inBatch === COPY_BATCH) {
        copy.run('COMMIT');
        // Let the event loop breathe between batches (the action's signals, the analysis budget).
        await new Promise<void>((resolve) => setImmediate(resolve));
        copy.run('BEGIN');
        inBatch = 0;
      }
    }
    copy.run('COMMIT');
  } finally {
    select.free();
    insert.free();
  }
}

type StageOutcome = { treatment: Treatment; redactions: number } | { withheld: WithheldKind; reason: string };

const RAW_REPORT_REASON = "a profiler's own report embeds the workload's whole environment; the tables read from it are uploaded instead (set upload-raw-reports: true to upload it as it is)";

/** One file staged to `target` as what its bytes say it is, gzip opened recursively. */
async function stageOne(file: string, name: string, target: string, options: ScrubOptions, depth: number): Promise<StageOutcome> {
  const treatment = await treatmentOf(file);
  if (treatment === 'raw-report' || (depth > 0 && isRawReportName(name))) {
    if (!options.rawReports) return { withheld: 'raw-report', reason: RAW_REPORT_REASON };
    await copyFile(file, target);
    return { treatment: 'raw-report', redactions: 0 };
  }
  if (treatment === 'archive') {
    const kind = archiveKind(await readPrefix(file, SNIFF_BYTES)) ?? 'an archive';
    return { withheld: 'archive', reason: `it is ${kind}, whose entries cannot be checked for secrets here` };
  }
  if (treatment === 'sqlite') {
    const { size } = await stat(file);
    if (size > MAX_SQLITE_BYTES) return { withheld: 'too-large', reason: `an SQLite file of ${size} bytes is past the ${MAX_SQLITE_BYTES} bytes that can be scrubbed` };
    return { treatment, redactions: await scrubSqlite(file, target, options.secrets) };
  }
  if (treatment === 'gzip') {
    if (depth >= MAX_GZIP_DEPTH) return { withheld: 'unscrubbable', reason: `gzip nested more than ${MAX_GZIP_DEPTH} deep` };
    const inflated = `${target}.inflated`;
    const inner = `${target}.inner`;
    try {
      try {
        await inflate(file, inflated);
      } catch (error) {
        return { withheld: 'unscrubbable', reason: `its gzip content could not be read (${(error as Error).message})` };
      }
      const outcome = await stageOne(inflated, name.replace(/\.gz$/i, ''), inner, options, depth + 1);
      if ('withheld' in outcome) return outcome;
      await deflate(inner, target);
      return { treatment: outcome.treatment === 'text' ? 'gzip-text' : 'gzip', redactions: outcome.redactions };
    } finally {
      await rm(inflated, { force: true });
      await rm(inner, { force: true });
    }
  }
  if (treatment === 'text') {
    try {
      return { treatment, redactions: await redactTextFile(file, target, options.secrets) };
    } catch (error) {
      if (!(error instanceof BinaryContent)) throw error;
    }
  }
  await copyFile(file, target);
  return { treatment: 'binary', redactions: 0 };
}

/**
 * Stages each file for upload, or withholds it with the reason. Never throws for one file: a file
 * that cannot be checked is withheld, so the rest still go.
 */
export async function scrubForUpload(files: readonly UploadFile[], options: ScrubOptions): Promise<ScrubResult> {
  const staged: StagedFile[] = [];
  const withheld: WithheldFile[] = [];
  for (const { file, target } of files) {
    try {
      await mkdir(dirname(target), { recursive: true });
      await readPrefix(file, 1);
    } catch (error) {
      withheld.push({ file, kind: 'unreadable', reason: `could not be read (${systemErrorText(error)})` });
      continue;
    }
    try {
      const outcome = await stageOne(file, file, target, options, 0);
      if ('withheld' in outcome) {
        withheld.push({ file, kind: outcome.withheld, reason: outcome.reason });
        await rm(target, { force: true });
        continue;
      }
      // The last word: no known secret value leaves, in any form, whatever the file is.
      const gzipped = outcome.treatment === 'gzip' || outcome.treatment === 'gzip-text';
      if (await fileHoldsSecret(target, options.secrets, gzipped)) {
        withheld.push({ file, kind: 'secret', reason: outcome.treatment === 'raw-report' || outcome.treatment === 'binary' || outcome.treatment === 'gzip' ? 'it holds the value of a secret variable of this job, and its format cannot be scrubbed' : 'a secret value of this job was still found in it after scrubbing' });
        await rm(target, { force: true });
        continue;
      }
      staged.push({ file, target, treatment: outcome.treatment, redactions: outcome.redactions });
    } catch (error) {
      await rm(target, { force: true });
      // The error's own words, less anything it quoted from the file.
      withheld.push({ file, kind: 'unscrubbable', reason: `could not be scrubbed (${withoutQuotedText((error as Error).message).slice(0, 200)})` });
    }
  }
  return { staged, withheld };
}

/** The secret forms' bytes, for tests and callers that search buffers themselves. */
export { secretBytes };
