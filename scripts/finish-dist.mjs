// After ncc: make the CLI bundle executable, so `bin.profile-gate` works when installed or linked.
import { chmodSync, copyFileSync, existsSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { writeLicenses } from './licenses.mjs';

chmodSync(new URL('../dist/cli/index.js', import.meta.url), 0o755);

// The SQLite reader (sql.js, wasm inlined) is loaded at run time from dist/, which both bundles
// reach (see src/ingest/common/sqlite-db.ts): the bundler cannot take it in, and one copy is enough.
copyFileSync(new URL('../node_modules/sql.js/dist/sql-wasm-inline.js', import.meta.url), new URL('../dist/sql-wasm-inline.cjs', import.meta.url));
copyFileSync(new URL('../node_modules/sql.js/LICENSE', import.meta.url), new URL('../dist/sql-wasm-inline.LICENSE', import.meta.url));

// The licenses of both bundles, one list (see scripts/licenses.mjs); the stats are build scratch.
const stats = ['action', 'cli'].map((name) => fileURLToPath(new URL(`../node_modules/.cache/profile-gate/${name}-stats.json`, import.meta.url)));
for (const file of stats) if (!existsSync(file)) throw new Error(`finish-dist: ${file} is missing (ncc --stats-out)`);
writeLicenses(stats, fileURLToPath(new URL('../dist/licenses.txt', import.meta.url)));
for (const file of stats) rmSync(file);
