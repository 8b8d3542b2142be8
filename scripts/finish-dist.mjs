// After ncc: make the CLI bundle executable, so `bin.profile-gate` works when installed or linked.
import { chmodSync, copyFileSync } from 'node:fs';

chmodSync(new URL('../dist/cli/index.js', import.meta.url), 0o755);

// The SQLite reader (sql.js, wasm inlined) is loaded at run time from beside each bundle: the
// bundler cannot take it in (see src/ingest/common/sqlite-db.ts).
for (const dir of ['../dist/', '../dist/cli/']) {
  copyFileSync(new URL('../node_modules/sql.js/dist/sql-wasm-inline.js', import.meta.url), new URL(`${dir}sql-wasm-inline.cjs`, import.meta.url));
  copyFileSync(new URL('../node_modules/sql.js/LICENSE', import.meta.url), new URL(`${dir}sql-wasm-inline.LICENSE`, import.meta.url));
}
