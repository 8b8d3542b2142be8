/**
 * The @actions edge: only the action's real host (src/action/actions-host.ts) imports @actions/*,
 * and only it reads process.env for the action; every other module of the action goes through the
 * ActionHost it is handed. Everything that talks to GitHub otherwise goes through the one client in
 * src/github/, which the CLI shares.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from '../helpers/fake-github-runner.js';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

const IMPORT = /^\s*(?:import|export)\b[^'"]*from\s+['"](@actions\/[^'"]+)['"]|import\(\s*['"](@actions\/[^'"]+)['"]\s*\)/gm;

const HOST = 'src/action/actions-host.ts';

describe('the @actions edge', () => {
  const files = sources(join(ROOT, 'src'));
  const importers = files.flatMap((file) => [...readFileSync(file, 'utf8').matchAll(IMPORT)].map((m) => ({ file: relative(ROOT, file), module: m[1] ?? m[2]! })));

  it('holds: @actions/* is imported by the real host only', () => {
    expect(importers.length).toBeGreaterThan(0);
    expect(importers.filter((i) => i.file !== HOST)).toEqual([]);
  });

  it('the action reads process.env in the real host only', () => {
    const readers = files.filter((file) => relative(ROOT, file).startsWith('src/action/') && /\bprocess\.env\b/.test(readFileSync(file, 'utf8').replace(/^\s*(\/\*\*|\*).*$/gm, '')));
    expect(readers.map((file) => relative(ROOT, file))).toEqual([HOST]);
  });

  it('@actions/github is not imported at all: the REST client is src/github/client.ts', () => {
    expect(importers.filter((i) => i.module.startsWith('@actions/github'))).toEqual([]);
  });
});
