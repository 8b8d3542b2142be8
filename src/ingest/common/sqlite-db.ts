/**
 * SQLite capture files (nsys `.sqlite` exports, rocprofv3 rocpd `*_results.db`) opened with sql.js:
 * SQLite compiled to WebAssembly, so nothing is built natively on the runner. Its build with the
 * wasm inlined is loaded at run time, only when a SQLite file is read: from node_modules when
 * running from source, else from the copy the build puts beside each bundle (the bundler cannot
 * take it in: sql.js clears `module` on purpose and checks it with `typeof`, which the bundler
 * folds to a constant). The database is read whole into memory.
 *
 * The file is untrusted: a "table" may be a view whose query never ends (a recursive CTE), and
 * sql.js runs each statement synchronously, so nothing can stop a statement once it runs. So rows
 * are read only from real tables (never views or virtual tables, never virtual generated columns),
 * by rowid in chunks of at most SQLITE_CHUNK_ROWS, each chunk a bounded walk of the table's own
 * b-tree; between chunks the reading yields to the event loop and checks the analysis's signal
 * (the `--timeout` budget), and past SQLITE_MAX_TABLE_ROWS rows the file is refused.
 */
import { createRequire } from 'node:module';
import type { Database, SqlValue } from 'sql.js';
import { InputError } from '../../errors.js';
import type { InputFile } from './input-file.js';

/** The 16 bytes every SQLite 3 database starts with. */
export const SQLITE_MAGIC = 'SQLite format 3\u0000';
/** Larger databases are not loaded into memory: the export command's CSV is read instead. */
export const MAX_SQLITE_BYTES = 512 * 1024 * 1024;
/** Rows read from one table: about 2^22 kernel launches, as many as a 256 MB CSV trace holds. */
export const SQLITE_MAX_TABLE_ROWS = 4 * 1024 * 1024;
/** Rows read by one statement: between two chunks the time budget is checked. */
export const SQLITE_CHUNK_ROWS = 8192;

export function isSqliteHead(head: string): boolean {
  return head.startsWith(SQLITE_MAGIC);
}

type SqlJs = { Database: new (data?: Uint8Array) => Database };
let engine: Promise<SqlJs> | undefined;

/**
 * The one copy of sql.js in dist/ (scripts/finish-dist.mjs): beside the action's bundle, and one
 * folder up from the CLI's (dist/cli/); then the package, when run from source.
 */
const SQL_JS_FILES = ['./sql-wasm-inline.cjs', '../sql-wasm-inline.cjs', 'sql.js/dist/sql-wasm-inline.js'];

async function sqlJs(): Promise<SqlJs> {
  engine ??= (async () => {
    // String(): the bundler would treat `createRequire(import.meta.url)` as its own require.
    const load = createRequire(String(import.meta.url));
    for (const id of SQL_JS_FILES) {
      try {
        return await (load(id) as () => Promise<SqlJs>)();
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw error;
      }
    }
    throw new Error(`the SQLite reader (sql.js) is missing: none of ${SQL_JS_FILES.join(', ')} could be loaded`);
  })();
  return engine;
}

/** A database from bytes already known to be SQLite (scrubbing a file for upload); the caller closes it. */
export async function openDatabaseBytes(bytes: Uint8Array): Promise<Database> {
  const { Database } = await sqlJs();
  return new Database(bytes);
}

/** Opens the file as a database, or says in one line why it cannot be read (and what to run instead). */
async function openSqlite(file: InputFile, exportHint: string): Promise<Database> {
  if (file.sizeBytes > MAX_SQLITE_BYTES) {
    throw new InputError(file.path, `the database is ${file.sizeBytes} bytes; SQLite captures are read up to ${MAX_SQLITE_BYTES} bytes: ${exportHint}`);
  }
  const bytes = file.bytes ? await file.bytes() : Buffer.from(await file.text(), 'latin1');
  if (!Buffer.from(bytes.subarray(0, 16)).toString('latin1').startsWith(SQLITE_MAGIC)) {
    throw new InputError(file.path, `expected an SQLite 3 database (the file does not start with "SQLite format 3"): ${exportHint}`, 'byte 0');
  }
  const { Database } = await sqlJs();
  let db: Database;
  try {
    db = new Database(bytes);
    db.exec('SELECT count(*) FROM sqlite_master');
  } catch (error) {
    throw new InputError(file.path, `expected a readable SQLite database (${(error as Error).message}): ${exportHint}`);
  }
  return db;
}

/**
 * Runs `read` on the opened database and closes it. SQLite finds most damage only when a query
 * reaches it: such errors become one InputError line with the export command to use instead.
 */
export async function withDatabase<T>(file: InputFile, exportHint: string, read: (db: Database) => Promise<T>): Promise<T> {
  const db = await openSqlite(file, exportHint);
  try {
    return await read(db);
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(file.path, `expected a readable SQLite database (${(error as Error).message}): ${exportHint}`);
  } finally {
    db.close();
  }
}

/** Names of the tables and views in the database: what it claims to hold (readTable reads tables only). */
export function schemaNames(db: Database): string[] {
  return queryRows(db, "SELECT name FROM sqlite_master WHERE type IN ('table', 'view')").map((row) => String(row[0]));
}

/** Names of the real tables in the database (views and virtual tables are never read). */
export function tableNames(db: Database): string[] {
  return queryRows(db, "SELECT name FROM sqlite_master WHERE type = 'table' AND coalesce(sql, '') NOT LIKE 'CREATE VIRTUAL%'").map((row) => String(row[0]));
}

/** What a table read is bounded by. */
export interface TableReadOptions {
  /** The analysis's time budget: checked between chunks. */
  signal?: AbortSignal | undefined;
  /** A condition on the table's own columns (written by the importer, never taken from the file). */
  where?: string;
  maxRows?: number;
  chunkRows?: number;
}

const ROWID_NAMES = new Set(['rowid', '_rowid_', 'oid']);

/**
 * Reads `columns` (expressions over the table's own columns) of every row of one real table, in
 * rowid order, `each` called per row; returns the number of rows read. Refused in one line: a name
 * that is not a table of the file (a view, a virtual table), a table with a virtual generated
 * column or a column that hides the rowid, more than `maxRows` rows.
 */
export async function readTable(db: Database, path: string, table: string, columns: readonly string[], each: (row: SqlValue[]) => void, options: TableReadOptions = {}): Promise<number> {
  const maxRows = options.maxRows ?? SQLITE_MAX_TABLE_ROWS;
  const chunkRows = options.chunkRows ?? SQLITE_CHUNK_ROWS;
  if (!tableNames(db).includes(table)) {
    throw new InputError(path, `expected ${table} to be a table of the database, got ${schemaType(db, table)} (views and virtual tables are not read)`);
  }
  const info = queryRows(db, `PRAGMA table_xinfo(${quoteName(table)})`);
  if (info.some((row) => row[6] === 2)) throw new InputError(path, `expected the columns of table ${table} to be stored, got a virtual generated column (not read)`);
  if (info.some((row) => ROWID_NAMES.has(String(row[1]).toLowerCase()))) throw new InputError(path, `expected table ${table} to be read by its rowid, got a column named ${String(info.find((row) => ROWID_NAMES.has(String(row[1]).toLowerCase()))![1])}`);
  const statement = db.prepare(`SELECT rowid, ${columns.join(', ')} FROM ${quoteName(table)} WHERE rowid > ?${options.where ? ` AND (${options.where})` : ''} ORDER BY rowid LIMIT ${chunkRows}`);
  const get = statement.get.bind(statement) as unknown as (params: null, config: { useBigInt: boolean }) => Array<SqlValue | bigint>;
  let after = BigInt('-9223372036854775808');
  let read = 0;
  try {
    for (;;) {
      statement.bind([after as unknown as number]);
      let inChunk = 0;
      while (statement.step()) {
        const [rowid, ...values] = get(null, { useBigInt: true });
        after = BigInt(rowid as unknown as bigint);
        inChunk += 1;
        if (++read > maxRows) throw new InputError(path, `table ${table} holds more than ${maxRows} rows; SQLite captures are read up to ${maxRows} rows per table`);
        each(values.map(narrow));
      }
      statement.reset();
      if (inChunk < chunkRows) return read;
      // sql.js never yields on its own: give the time budget's timer its turn between chunks.
      await new Promise<void>((resolve) => setImmediate(resolve));
      options.signal?.throwIfAborted();
    }
  } finally {
    statement.free();
  }
}

/** Every row of `readTable` as an array. */
export async function tableRows(db: Database, path: string, table: string, columns: readonly string[], options: TableReadOptions = {}): Promise<SqlValue[][]> {
  const rows: SqlValue[][] = [];
  await readTable(db, path, table, columns, (row) => rows.push(row), options);
  return rows;
}

function schemaType(db: Database, name: string): string {
  const type = queryRows(db, `SELECT type, coalesce(sql, '') LIKE 'CREATE VIRTUAL%' FROM sqlite_master WHERE name = ${quoteString(name)}`)[0];
  if (!type) return 'nothing of that name';
  return type[1] === 1 ? 'a virtual table' : `a ${String(type[0])}`;
}

function quoteString(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

export function columnNames(db: Database, table: string): string[] {
  return queryRows(db, `PRAGMA table_info(${quoteName(table)})`).map((row) => String(row[1]));
}

export function quoteName(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Every row of a query over the schema (sqlite_master, pragmas): captured tables go through readTable; integers come as BigInt when they pass 2^53 (nanosecond timestamps do). */
export function queryRows(db: Database, sql: string): SqlValue[][] {
  const statement = db.prepare(sql);
  const rows: SqlValue[][] = [];
  try {
    const get = statement.get.bind(statement) as unknown as (params: null, config: { useBigInt: boolean }) => SqlValue[];
    while (statement.step()) rows.push(get(null, { useBigInt: true }).map(narrow));
  } finally {
    statement.free();
  }
  return rows;
}

/** A BigInt that fits a double exactly becomes a number; larger ones stay BigInt. */
export function narrow(value: SqlValue | bigint): SqlValue {
  if (typeof value !== 'bigint') return value;
  return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= -BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : (value as unknown as SqlValue);
}

/** Rows in launch order (integers as number or BigInt; anything else, or no cell, last, as SQLite sorts it). */
export function byStart(a: SqlValue | undefined, b: SqlValue | undefined): number {
  const numeric = (v: SqlValue | undefined) => typeof v === 'number' || typeof v === 'bigint';
  if (!numeric(a) || !numeric(b)) return Number(!numeric(a)) - Number(!numeric(b));
  return a! < b! ? -1 : a! > b! ? 1 : 0;
}

/** An integer cell as decimal text (timestamps), or undefined. */
export function integerText(value: unknown): string | undefined {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number' && Number.isInteger(value)) return String(value);
  return undefined;
}
