/**
 * The layers of src/: data flows one way, and no module imports, even for a type, a module that
 * imports it back. Each top-level folder has a rank; a module imports its own folder or a lower
 * rank, never a sibling of the same rank. docs/architecture.md draws the same picture.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { ROOT } from '../helpers/fake-github-runner.js';

const SRC = join(ROOT, 'src');

/** Lower ranks come first in the flow; folders of one rank do not import each other. */
const RANK: Record<string, number> = {
  errors: 0,
  version: 0,
  model: 1,
  ingest: 2,
  classify: 2,
  diagnose: 3,
  compare: 4,
  report: 5,
  pipeline: 5,
  github: 6,
  io: 7,
  runner: 8,
  options: 9,
  action: 10,
  cli: 10,
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

const IMPORT = /(?:\bfrom|\bimport\()\s*['"](\.{1,2}\/[^'"]+)['"]/g;

function area(file: string): string {
  const [first] = relative(SRC, file).split('/');
  return first!.replace(/\.ts$/, '');
}

const graph = new Map<string, string[]>();
for (const file of sources(SRC)) {
  const targets = [...readFileSync(file, 'utf8').matchAll(IMPORT)].map((m) => resolve(dirname(file), m[1]!).replace(/\.js$/, '.ts'));
  graph.set(file, targets);
}

/** Tarjan's strongly connected components; every component of more than one module is a circle. */
function circles(edges: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!edges.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(relative(ROOT, member));
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe('the layers of src/', () => {
  it('every top-level folder has a rank', () => {
    const areas = new Set([...graph.keys()].map(area));
    expect([...areas].filter((a) => !(a in RANK))).toEqual([]);
  });

  it('no module imports a later stage or a sibling stage', () => {
    const wrong: string[] = [];
    for (const [file, targets] of graph) {
      for (const target of targets) {
        const [from, to] = [area(file), area(target)];
        if (from !== to && RANK[to]! >= RANK[from]!) wrong.push(`${relative(ROOT, file)} → ${relative(ROOT, target)}`);
      }
    }
    expect(graph.size).toBeGreaterThan(100);
    expect(wrong).toEqual([]);
  });

  it('no circles between modules, type imports included', () => {
    expect(circles(graph)).toEqual([]);
  });

  it('the circle check finds a circle', () => {
    const a = join(SRC, 'a.ts');
    const b = join(SRC, 'b.ts');
    const c = join(SRC, 'c.ts');
    expect(circles(new Map([[a, [b]], [b, [c]], [c, [a]]]))).toEqual([['src/a.ts', 'src/b.ts', 'src/c.ts']]);
  });
});
