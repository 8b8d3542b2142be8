/** Writes a variant of a fixture to a temporary file, so tests read it through openInput like a real capture. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function writeTempFile(name: string, text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'profile-gate-ingest-')), name);
  writeFileSync(path, text);
  return path;
}
