/**
 * The CLI as a user installs it: the files `npm pack` puts in the package, copied alone into an
 * empty folder (no node_modules above it), run with plain node. The bundle inlines everything it
 * runs, so the package declares no runtime dependency; CI runs this file under the oldest Node the
 * package declares (`engines`) as well as under the action's Node 24.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  engines: { node: string };
  dependencies?: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** What the bundle cannot inline and so must be installed beside it. None: ncc takes every module in, and sql.js ships as dist/sql-wasm-inline.cjs. */
const RUNTIME_DEPENDENCIES: string[] = [];

let pkg: string;
let work: string;
let packed: string[];

beforeAll(() => {
  // npm lists the files of the package without writing the tarball.
  const listing = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  packed = (JSON.parse(listing) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map((f) => f.path);
  const base = mkdtempSync(join(tmpdir(), 'pg-packed-'));
  pkg = join(base, 'profile-gate');
  work = join(base, 'work');
  mkdirSync(work);
  for (const path of packed) {
    mkdirSync(dirname(join(pkg, path)), { recursive: true });
    copyFileSync(join(ROOT, path), join(pkg, path));
  }
});
afterAll(() => {
  if (pkg) rmSync(dirname(pkg), { recursive: true, force: true });
});

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [join(pkg, 'dist', 'cli', 'index.js'), ...args], {
    cwd: work,
    encoding: 'utf8',
    env: { PATH: process.env['PATH'] ?? '' },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('the package npm packs', () => {
  it('holds the bundle, its SQLite reader and the samples, and no source or test', () => {
    for (const path of ['dist/cli/index.js', 'dist/sql-wasm-inline.cjs', 'samples/baseline/healthy.trace.json.gz', 'LICENSE', 'package.json']) {
      expect(packed).toContain(path);
    }
    expect(packed.filter((path) => /^(src|__tests__|node_modules)\//.test(path))).toEqual([]);
  });

  it('declares as runtime dependencies only what the bundle cannot inline: none', () => {
    expect(Object.keys(PACKAGE.dependencies ?? {}).sort()).toEqual(RUNTIME_DEPENDENCIES);
    // What the sources import is there for the build (ncc inlines it).
    for (const name of ['zod', 'csv-parse', 'sql.js', '@actions/core', '@actions/artifact']) {
      expect(PACKAGE.devDependencies[name]).toBeDefined();
    }
  });

  it('declares the minimum Node that CI runs this file under, and the README says the same', () => {
    const minimum = /^>=(\d+\.\d+\.\d+)$/.exec(PACKAGE.engines.node)?.[1];
    expect(minimum).toBeDefined();
    const ci = readFileSync(join(ROOT, '.ci', 'run'), 'utf8');
    expect(ci).toContain(`MINIMUM_NODE=node@${minimum}\n`);
    expect(ci).toMatch(/npx -y -p "\$MINIMUM_NODE" .*__tests__\/e2e\/cli-bundle\.test\.ts/);
    const [major, minor] = minimum!.split('.');
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain(`Node ${major}.${minor} or newer`);
  });
});

/** The samples' baseline analyzed once (report.json in the work folder), for the tests that need it. */
let baseline: { status: number | null; stderr: string } | undefined;
function analyzeBaseline(): { status: number | null; stderr: string } {
  if (!baseline) {
    const { status, stderr } = cli(['analyze', '--json', join(work, 'base.json'), join(pkg, 'samples', 'baseline')]);
    baseline = { status, stderr };
  }
  return baseline;
}

describe('the packed CLI, alone in a folder', () => {
  it('starts where the temporary folder is under /proc, where Node (24.21) would spin writing its compile cache', () => {
    // On a Node without the compile cache this holds whatever the CLI does; CI runs it under Node 24 too.
    const result = spawnSync(process.execPath, [join(pkg, 'dist', 'cli', 'index.js'), '--version'], {
      cwd: work,
      encoding: 'utf8',
      env: { PATH: process.env['PATH'] ?? '', TMPDIR: '/proc/self/profile-gate' },
      timeout: 30_000,
    });
    expect({ status: result.status, signal: result.signal, stdout: result.stdout.trim() }).toEqual({ status: 0, signal: null, stdout: PACKAGE.version });
  });

  it('runs the demo on the packed samples', () => {
    const { status, stdout } = cli(['demo']);
    expect(status).toBe(0);
    expect(stdout).toMatch(/^Demo: /);
    expect(stdout).toContain('[ERROR] unfused-attention');
  });

  it('analyzes a PyTorch trace and the SQLite databases (sql.js from the package)', () => {
    expect(analyzeBaseline()).toEqual({ status: 0, stderr: '' });
    const report = JSON.parse(readFileSync(join(work, 'base.json'), 'utf8')) as { sources: Array<{ format: string }> };
    expect(report.sources.map((s) => s.format).sort()).toEqual(['gpu-snapshot-jsonl', 'kineto-json', 'workload-metrics-jsonl']);

    // Kernel totals summed from each database's kernel table with sqlite3.
    for (const [name, format, total] of [
      ['rocpd_llamacpp_r9700_built_results.db', 'rocpd-sqlite', 662_138_329],
      ['nsys_h200_dense_decode_built.sqlite', 'nsys-sqlite', 1_893_526],
    ] as const) {
      const result = cli(['analyze', '--json', '-', join(ROOT, '__tests__/fixtures/sqlite', name)]);
      expect({ name, stderr: result.stderr }).toEqual({ name, stderr: '' });
      const db = JSON.parse(result.stdout) as { totalKernelNs: number; sources: Array<{ format: string }> };
      expect(db.sources.map((s) => s.format)).toEqual([format]);
      expect(db.totalKernelNs).toBe(total);
    }
  });

  it('gates a head run, merges the reports and draws the dashboard', () => {
    expect(analyzeBaseline().status).toBe(0);
    const head = cli(['analyze', '--json', join(work, 'head.json'), '--baseline', join(work, 'base.json'), join(pkg, 'samples', 'current')]);
    expect(head.status).toBe(1);
    expect((JSON.parse(readFileSync(join(work, 'head.json'), 'utf8')) as { verdict: string }).verdict).toBe('fail');

    const merged = cli(['report', '--out', join(work, 'merged'), '--fail-verdicts', 'none', join(work, 'base.json'), join(work, 'head.json')]);
    expect(merged.stderr).toBe('');
    expect(merged.status).toBe(0);
    expect(readFileSync(join(work, 'merged', 'summary.md'), 'utf8')).toContain('unfused-attention');
    expect(existsSync(join(work, 'merged', 'comment.md'))).toBe(true);

    const board = cli(['dashboard', '--out', join(work, 'board'), join(work, 'base.json'), join(work, 'head.json')]);
    expect(board.stderr).toBe('');
    expect(board.status).toBe(0);
    expect(readdirSync(join(work, 'board'))).toContain('index.html');
  });
});
