/**
 * SQLite capture files (nsys `.sqlite` exports, rocprofv3 rocpd `*_results.db`) opened with sql.js:
 * SQLite compiled to WebAssembly, so nothing is built natively on the runner. Its build with the
 * wasm inlined is loaded at run time, only when a SQLite file is read: from node_modules when
 * running from source, else from the copy the build puts beside each bundle (the bundler cannot
 * take it in: sql.js clears `module` on purpose and checks it with `typeof`, which the bundler
 * folds to a constant). The database is read whole into memory.
 */
import { createRequire } from 'node:module';
import type { Database, SqlValue } from 'sql.js';
import { InputError } from '../../errors.js';
import type { InputFile } from './input-file.js';

/** The 16 bytes every SQLite 3 database starts with. */
export const SQLITE_MAGIC = 'SQLite format 3\u0000';
/** Larger databases are not loaded into memory: the export command's CSV is read instead. */
export const MAX_SQLITE_BYTES = 512 * 1024 * 1024;

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
export async function withDatabase<T>(file: InputFile, exportHint: string, read: (db: Database) => T): Promise<T> {
  const db = await openSqlite(file, exportHint);
  try {
    return read(db);
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(file.path, `expected a readable SQLite database (${(error as Error).message}): ${exportHint}`);
  } finally {
    db.close();
  }
}

/** Names of the tables and views in the database. */
export function schemaNames(db: Database): string[] {
  return queryRows(db, "SELECT name FROM sqlite_master WHERE type IN ('table', 'view')").map((row) => String(row[0]));
}

export function columnNames(db: Database, table: string): string[] {
  return queryRows(db, `PRAGMA table_info(${quoteName(table)})`).map((row) => String(row[1]));
}

export function quoteName(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Every row of a query; integers come as BigInt when they pass 2^53 (nanosecond timestamps do). */
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
function narrow(value: SqlValue | bigint): SqlValue {
  if (typeof value !== 'bigint') return value;
  return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= -BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : (value as unknown as SqlValue);
}

/** An integer cell as decimal text (timestamps), or undefined. */
export function integerText(value: unknown): string | undefined {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number' && Number.isInteger(value)) return String(value);
  return undefined;
}
