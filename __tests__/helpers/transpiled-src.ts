/**
 * Our own modules as plain JavaScript, for a child Node process (one run under a heap limit): the
 * import closure of one module of src/, transpiled file by file (no type check) into a temporary
 * folder that keeps src/'s layout, with the repository's node_modules linked beside it.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(import.meta.dirname, '..', '..');
const SRC = join(ROOT, 'src');

/** Transpiles `entry` (a path under src/, e.g. `ingest/formats/jax-trace.ts`) and what it imports; returns the folder. */
export function transpileClosure(...entries: string[]): string {
  const out = mkdtempSync(join(tmpdir(), 'profile-gate-js-'));
  writeFileSync(join(out, 'package.json'), '{"type":"module"}\n');
  symlinkSync(join(ROOT, 'node_modules'), join(out, 'node_modules'), 'dir');
  const done = new Set<string>();
  const queue = entries.map((e) => join(SRC, e));
  while (queue.length) {
    const file = queue.pop()!;
    if (done.has(file)) continue;
    done.add(file);
    const source = readFileSync(file, 'utf8');
    const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 }, fileName: file }).outputText;
    const target = join(out, relative(SRC, file)).replace(/\.ts$/, '.js');
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, js);
    for (const m of js.matchAll(/(?:from\s*|import\s*\(?\s*)'(\.{1,2}\/[^']+)\.js'/g)) {
      const next = resolve(dirname(file), `${m[1]}.ts`);
      if (existsSync(next)) queue.push(next);
    }
  }
  return out;
}
