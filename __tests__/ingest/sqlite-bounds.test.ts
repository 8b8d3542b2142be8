/**
 * SQLite captures are untrusted: a view in place of a table, a table too long to read, and a read
 * the time budget must be able to stop although sql.js runs each statement synchronously.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '../../src/errors.js';
import { ingestFile } from '../../src/ingest/registry.js';
import { openDatabaseBytes, readTable } from '../../src/ingest/common/sqlite-db.js';
import { analyze } from '../../src/pipeline/analyze.js';

const dir = mkdtempSync(join(tmpdir(), 'pg-sqlite-bounds-'));

/** An nsys-shaped export: StringIds and META_DATA_EXPORT tables, and the kernel rows `kernels` builds. */
async function nsysExport(name: string, kernels: string): Promise<string> {
  const db = await openDatabaseBytes(new Uint8Array());
  db.run(`CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
    INSERT INTO StringIds VALUES (1, 'gemm_kernel');
    CREATE TABLE META_DATA_EXPORT (name TEXT, value TEXT);
    INSERT INTO META_DATA_EXPORT VALUES ('EXPORT_PRODUCT_VERSION', '2025.3.1.0');
    ${kernels}`);
  const path = join(dir, name);
  writeFileSync(path, db.export());
  db.close();
  return path;
}

const KERNEL_COLUMNS = 'start INTEGER NOT NULL, "end" INTEGER NOT NULL, deviceId INTEGER NOT NULL, shortName INTEGER NOT NULL';

test('a kernel "table" that is a recursive view is refused in one line, before any row is read', async () => {
  // Bounded to 40 rows here so that reading it would end; the hostile file recursed forever.
  const path = await nsysExport(
    'view.sqlite',
    `CREATE VIEW CUPTI_ACTIVITY_KIND_KERNEL AS WITH RECURSIVE r(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM r WHERE n < 39)
       SELECT n * 10 AS start, n * 10 + 5 AS "end", 0 AS deviceId, 1 AS shortName FROM r;`,
  );
  const error = await ingestFile(path).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(InputError);
  expect((error as Error).message.split('\n')).toHaveLength(1);
  expect((error as Error).message).toMatch(new RegExp(`^${path}: .*CUPTI_ACTIVITY_KIND_KERNEL.*a view`));
});

test('a StringIds view is not read either', async () => {
  const path = await nsysExport(
    'names-view.sqlite',
    `CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (${KERNEL_COLUMNS}); INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (0, 5, 0, 1);
     ALTER TABLE StringIds RENAME TO StringIdsReal;
     CREATE VIEW StringIds AS WITH RECURSIVE r(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM r WHERE n < 9) SELECT n AS id, 'x' AS value FROM r;`,
  );
  await expect(ingestFile(path)).rejects.toThrow(/StringIds.*a view/);
});

test('the analysis time budget stops a long kernel table between chunks', async () => {
  const rows = 1_500_000;
  const path = await nsysExport(
    'long.sqlite',
    `CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (${KERNEL_COLUMNS});
     WITH RECURSIVE r(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM r WHERE n < ${rows - 1})
     INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL SELECT n * 10, n * 10 + 5, 0, 1 FROM r;`,
  );
  const started = Date.now();
  const error = await analyze({ inputs: [path], timeoutMs: 300 }).catch((e: unknown) => e);
  const elapsed = Date.now() - started;
  expect(error).toBeInstanceOf(InputError);
  expect((error as Error).message).toBe(`${path}: expected the analysis to finish within 0.3 s (the analyze time budget); it was stopped while reading this file`);
  // Reading all of it takes several seconds; stopped, it ends within a chunk of the budget.
  expect(elapsed).toBeLessThan(2_000);
}, 60_000);

test('a table longer than the row limit is refused, naming the table and the limit', async () => {
  const db = await openDatabaseBytes(new Uint8Array());
  db.run(`CREATE TABLE t (v INTEGER); WITH RECURSIVE r(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM r WHERE n < 99) INSERT INTO t SELECT n FROM r;`);
  const seen: number[] = [];
  await expect(readTable(db, 'x.sqlite', 't', ['v'], ([v]) => void seen.push(Number(v)), { maxRows: 50, chunkRows: 16 })).rejects.toThrow(
    'x.sqlite: table t holds more than 50 rows; SQLite captures are read up to 50 rows per table',
  );
  expect(seen).toHaveLength(50);
  // Within the limit, every row in rowid order across chunk edges.
  const all: number[] = [];
  expect(await readTable(db, 'x.sqlite', 't', ['v'], ([v]) => void all.push(Number(v)), { chunkRows: 16 })).toBe(100);
  expect(all).toEqual(Array.from({ length: 100 }, (_, i) => i));
  db.close();
});

test('a rocpd database whose dispatch table is only a view is refused, naming it', async () => {
  const db = await openDatabaseBytes(new Uint8Array());
  db.run(`CREATE TABLE rocpd_info_kernel_symbol_0a1b (id INTEGER PRIMARY KEY, kernel_name TEXT, display_name TEXT);
    INSERT INTO rocpd_info_kernel_symbol_0a1b VALUES (1, 'k', 'k');
    CREATE VIEW rocpd_kernel_dispatch AS WITH RECURSIVE r(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM r WHERE n < 9)
      SELECT n AS id, 1 AS kernel_id, 0 AS agent_id, n * 10 AS start, n * 10 + 5 AS "end", 1 AS grid_size_x, 1 AS grid_size_y, 1 AS grid_size_z,
        1 AS workgroup_size_x, 1 AS workgroup_size_y, 1 AS workgroup_size_z FROM r;`);
  const path = join(dir, 'view_results.db');
  writeFileSync(path, db.export());
  db.close();
  await expect(ingestFile(path)).rejects.toThrow(`${path}: expected rocpd_kernel_dispatch to be a table of the database, got a view (views and virtual tables are not read)`);
});
