/**
 * Files made ready for an artifact: each is copied into a staging folder with the job's secrets and
 * the workload's environment taken out, or withheld with the reason. What is done depends on what the
 * file is, read from its bytes (and, for the profilers' own report formats, its name):
 * - text (CSV, JSON, logs, run.json, report.json): every secret, credential-shaped token and
 *   credential assignment replaced (src/io/secrets.ts), streamed, so size does not matter;
 * - gzip (Kineto traces): the same, inside the compression;
 * - SQLite (nsys exports, rocpd): environment rows and blocks emptied, every text cell redacted,
 *   then vacuumed so that no deleted page keeps the old bytes;
 * - the profilers' own reports (.nsys-rep, .ncu-rep, .qdrep, .qdstrm, Perfetto and OTF2 traces):
 *   withheld, since they embed the whole environment in formats that cannot be rewritten here;
 *   uploaded only when the workflow opts in, and then only without a known secret value inside;
 * - other binary files: uploaded only without a known secret value inside.
 * Every staged file is searched once more for the known secret values before it may go.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip, createGzip } from 'node:zlib';
import { isGzip, readPrefix, SNIFF_BYTES } from '../ingest/common/input-file.js';
import { MAX_SQLITE_BYTES, openDatabaseBytes, quoteName, SQLITE_MAGIC } from '../ingest/common/sqlite-db.js';
import { findSecret, isEnvironmentBlock, redactText, REDACTED, stripEnvironmentValues, type SecretSet } from './secrets.js';

/** The profilers' own report formats: they carry the profiled process's whole environment. */
export const RAW_REPORT_SUFFIXES = ['.nsys-rep', '.qdrep', '.qdstrm', '.ncu-rep', '.pftrace', '.perfetto-trace', '.otf2'] as const;

export type Treatment = 'text' | 'gzip-text' | 'sqlite' | 'raw-report' | 'binary';

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
 * profiler's own report without upload-raw-reports); the others are failures to say as warnings.
 */
export type WithheldKind = 'unreadable' | 'raw-report' | 'too-large' | 'secret' | 'unscrubbable';

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

/** Characters kept back between chunks, so a secret or an assignment cut by a chunk's end is still whole. */
const CARRY = 4096;

export async function treatmentOf(file: string): Promise<Treatment> {
  const lower = file.toLowerCase();
  if (RAW_REPORT_SUFFIXES.some((suffix) => lower.endsWith(suffix))) return 'raw-report';
  const start = await readPrefix(file, SNIFF_BYTES);
  if (start.subarray(0, 16).toString('latin1') === SQLITE_MAGIC) return 'sqlite';
  if (isGzip(start)) return 'gzip-text';
  return start.includes(0) ? 'binary' : 'text';
}

/** Redacts a character stream chunk by chunk, keeping CARRY characters back for the next chunk. */
class RedactingStream extends Transform {
  private pending = '';
  private readonly decoder = new StringDecoder('utf8');
  count = 0;
  private binary = false;

  constructor(private readonly secrets: SecretSet) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    if (chunk.includes(0)) this.binary = true;
    if (this.binary) {
      done(new Error('the file holds binary data where text was expected'));
      return;
    }
    const text = this.pending + this.decoder.write(chunk);
    const redacted = redactText(text, this.secrets);
    this.count += redacted.count;
    const cut = Math.max(0, redacted.text.length - CARRY);
    this.pending = redacted.text.slice(cut);
    done(null, redacted.text.slice(0, cut));
  }

  override _flush(done: TransformCallback): void {
    const redacted = redactText(this.pending + this.decoder.end(), this.secrets);
    this.count += redacted.count;
    done(null, redacted.text);
  }
}

async function redactTextFile(file: string, target: string, secrets: SecretSet, gzip: boolean): Promise<number> {
  const redactor = new RedactingStream(secrets);
  const source = createReadStream(file, { highWaterMark: 1 << 20 });
  const sink = createWriteStream(target);
  if (gzip) await pipeline(source, createGunzip(), redactor, createGzip(), sink);
  else await pipeline(source, redactor, sink);
  return redactor.count;
}

/** Whether a known secret value is anywhere in the file (inside the compression for gzip). */
export async function fileHoldsSecret(file: string, secrets: SecretSet, gzip = false): Promise<boolean> {
  if (!secrets.values.length) return false;
  const longest = Math.max(...secrets.values.map((v) => Buffer.byteLength(v)));
  let tail = Buffer.alloc(0);
  let found = false;
  const search = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (!found) {
        const window = Buffer.concat([tail, chunk]);
        if (findSecret(window, secrets) !== undefined) found = true;
        tail = window.subarray(Math.max(0, window.length - longest + 1));
      }
      done();
    },
  });
  const source = createReadStream(file, { highWaterMark: 1 << 20 });
  if (gzip) await pipeline(source, createGunzip(), search);
  else await pipeline(source, search);
  return found;
}

/** Columns that hold a process's environment (rocpd's `environment`, for one). */
const ENVIRONMENT_COLUMN = /^env(ironment)?(_?vars?|_?variables?)?$/i;

/**
 * An SQLite capture with its environment and secrets taken out. nsys keeps the environment in
 * META_DATA_CAPTURE (one row per variable), in TARGET_INFO_SYSTEM_ENV and in StringIds (whole
 * blocks); rocpd in an `environment` column. Rows are kept (ids stay valid); values go.
 */
async function scrubSqlite(file: string, target: string, secrets: SecretSet): Promise<number> {
  const db = await openDatabaseBytes(await readFile(file));
  let count = 0;
  try {
    const tables = db.exec("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")[0]?.values.map((row) => String(row[0])) ?? [];
    for (const table of tables) {
      const t = quoteName(table);
      const columns = db.exec(`PRAGMA table_info(${t})`)[0]?.values.map((row) => String(row[1])) ?? [];
      if (table === 'META_DATA_CAPTURE' && columns.includes('name') && columns.includes('value')) {
        db.run(`UPDATE ${t} SET value = ? WHERE name LIKE '%ENVIRONMENT%' AND value <> ?`, [REDACTED, REDACTED]);
        count += db.getRowsModified();
      }
      for (const column of columns) {
        const c = quoteName(column);
        if (ENVIRONMENT_COLUMN.test(column)) {
          db.run(`UPDATE ${t} SET ${c} = ? WHERE ${c} IS NOT NULL AND ${c} <> ?`, [REDACTED, REDACTED]);
          count += db.getRowsModified();
          continue;
        }
        const statement = db.prepare(`SELECT DISTINCT ${c} FROM ${t} WHERE typeof(${c}) = 'text'`);
        const changes: [string, string][] = [];
        try {
          while (statement.step()) {
            const value = String(statement.get()[0]);
            const redacted = redactText(value, secrets);
            const clean = isEnvironmentBlock(redacted.text) ? stripEnvironmentValues(redacted.text) : redacted.text;
            if (clean !== value) changes.push([value, clean]);
          }
        } finally {
          statement.free();
        }
        for (const [value, clean] of changes) {
          db.run(`UPDATE ${t} SET ${c} = ? WHERE ${c} = ?`, [clean, value]);
          count += db.getRowsModified();
        }
        for (const value of secrets.values) {
          db.run(`UPDATE ${t} SET ${c} = NULL WHERE typeof(${c}) = 'blob' AND instr(${c}, CAST(? AS BLOB)) > 0`, [value]);
          count += db.getRowsModified();
        }
      }
    }
    db.run('VACUUM');
    await writeFile(target, db.export());
  } finally {
    db.close();
  }
  return count;
}

/**
 * Stages each file for upload, or withholds it with the reason. Never throws for one file: a file
 * that cannot be scrubbed is withheld, so the rest still go.
 */
export async function scrubForUpload(files: readonly UploadFile[], options: ScrubOptions): Promise<ScrubResult> {
  const staged: StagedFile[] = [];
  const withheld: WithheldFile[] = [];
  for (const { file, target } of files) {
    let treatment: Treatment;
    try {
      treatment = await treatmentOf(file);
      await mkdir(dirname(target), { recursive: true });
    } catch (error) {
      withheld.push({ file, kind: 'unreadable', reason: `could not be read (${(error as Error).message})` });
      continue;
    }
    try {
      let redactions = 0;
      if (treatment === 'raw-report') {
        if (!options.rawReports) {
          withheld.push({ file, kind: 'raw-report', reason: "a profiler's own report embeds the workload's whole environment; the tables read from it are uploaded instead (set upload-raw-reports: true to upload it as it is)" });
          continue;
        }
        await copyFile(file, target);
      } else if (treatment === 'sqlite') {
        const { size } = await stat(file);
        if (size > MAX_SQLITE_BYTES) {
          withheld.push({ file, kind: 'too-large', reason: `an SQLite file of ${size} bytes is past the ${MAX_SQLITE_BYTES} bytes that can be scrubbed` });
          continue;
        }
        redactions = await scrubSqlite(file, target, options.secrets);
      } else if (treatment === 'text' || treatment === 'gzip-text') {
        try {
          redactions = await redactTextFile(file, target, options.secrets, treatment === 'gzip-text');
        } catch (error) {
          if (!/binary data/.test((error as Error).message)) throw error;
          treatment = 'binary';
          await copyFile(file, target);
        }
      } else await copyFile(file, target);
      // The last word: no known secret value leaves, whatever the file is.
      if (await fileHoldsSecret(target, options.secrets, treatment === 'gzip-text')) {
        withheld.push({ file, kind: 'secret', reason: treatment === 'raw-report' || treatment === 'binary' ? 'it holds the value of a secret variable of this job, and its format cannot be scrubbed' : 'a secret value of this job was still found in it after scrubbing' });
        await rm(target, { force: true });
        continue;
      }
      staged.push({ file, target, treatment, redactions });
    } catch (error) {
      withheld.push({ file, kind: 'unscrubbable', reason: `could not be scrubbed (${(error as Error).message})` });
    }
  }
  return { staged, withheld };
}
