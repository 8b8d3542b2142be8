/**
 * Test helper: the heads of every capture fixture (the project's own and the shared real captures,
 * gzip included), so each sniffer can be checked to claim exactly its own files.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Importer } from '../../src/ingest/common/importer.js';
import { openInput } from '../../src/ingest/common/input-file.js';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');
export const OWN_FIXTURES = join(REPO_ROOT, '__tests__/fixtures');
/** The shared real captures sit beside the repository (read-only). */
export const SHARED_FIXTURES = resolve(REPO_ROOT, '../shared/fixtures');

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
  const roots = [OWN_FIXTURES, ...(existsSync(SHARED_FIXTURES) ? [SHARED_FIXTURES] : [])];
  const files = roots.flatMap(listFiles).filter((path) => !/\.(md|py|sh)$/.test(path));
  return Promise.all(files.map(async (path) => ({ path, head: (await openInput(path)).head })));
}

/** The fixtures `importer` claims, as paths relative to the fixture roots. */
export async function claimedBy(importer: Importer): Promise<string[]> {
  const heads = await fixtureHeads();
  return heads
    .filter(({ head }) => importer.sniff(head))
    .map(({ path }) => path.replace(`${OWN_FIXTURES}/`, 'own/').replace(`${SHARED_FIXTURES}/`, 'shared/'))
    .sort();
}

/** Fixture paths (same naming) that an importer should claim, by where they live. */
export async function expectedFor(pattern: RegExp): Promise<string[]> {
  const heads = await fixtureHeads();
  return heads
    .map(({ path }) => path.replace(`${OWN_FIXTURES}/`, 'own/').replace(`${SHARED_FIXTURES}/`, 'shared/'))
    .filter((path) => pattern.test(path))
    .sort();
}
