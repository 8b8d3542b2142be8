/** Scratch capture files for parser tests, and the refusal an importer must give for them. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '../../src/errors.js';
import { ingestFile } from '../../src/ingest/registry.js';

/** A folder for one suite's files; `file` writes one there and returns its path. */
export function scratchFiles(prefix: string): { dir: string; file(name: string, content: string | Buffer): string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return {
    dir,
    file(name, content) {
      const path = join(dir, name);
      writeFileSync(path, content);
      return path;
    },
  };
}

/** Reading the file must fail with an InputError (one line naming it), which is returned. */
export async function refusal(path: string, format?: string): Promise<InputError> {
  const error = await ingestFile(path, format).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(InputError);
  return error as InputError;
}
