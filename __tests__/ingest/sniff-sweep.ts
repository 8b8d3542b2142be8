/**
 * Test helper: the heads of every capture fixture of the repository (gzip included), so each sniffer
 * can be checked to claim exactly its own files. Only the repository's own copies are read: a clone
 * without ../shared runs the same tests.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Importer } from '../../src/ingest/common/importer.js';
import { openInput } from '../../src/ingest/common/input-file.js';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');
export const OWN_FIXTURES = join(REPO_ROOT, '__tests__/fixtures');

function listFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });
}

let cached: Promise<Array<{ path: string; head: string }>> | undefined;

export function fixtureHeads(): Promise<Array<{ path: string; head: string }>> {
  cached ??= readHeads();
  return cached;
}

async function readHeads(): Promise<Array<{ path: string; head: string }>> {
  const files = listFiles(OWN_FIXTURES).filter((path) => !/\.(md|py|sh)$/.test(path));
  return Promise.all(files.map(async (path) => ({ path, head: (await openInput(path)).head })));
}

/** The fixtures `importer` claims, as paths relative to the fixture roots. */
export async function claimedBy(importer: Importer): Promise<string[]> {
  const heads = await fixtureHeads();
  return heads
    .filter(({ head }) => importer.sniff(head))
    .map(({ path }) => path.replace(`${OWN_FIXTURES}/`, 'own/'))
    .sort();
}

/** Fixture paths (same naming) that an importer should claim, by where they live. */
export async function expectedFor(pattern: RegExp): Promise<string[]> {
  const heads = await fixtureHeads();
  return heads
    .map(({ path }) => path.replace(`${OWN_FIXTURES}/`, 'own/'))
    .filter((path) => pattern.test(path))
    .sort();
}
