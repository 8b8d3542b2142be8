#!/usr/bin/env node
/**
 * Parser fuzzing at volume: __tests__/hardening/fuzz-harness.ts and fuzz-cases.ts (the same cases
 * and oracle as the jest test) compiled with tsc into bench/out/fuzz-parsers/, then `--runs` cases
 * per importer, each importer in a worker thread of its own. A watchdog kills a worker whose case
 * runs past `--hang-ms` (a hang the in-process timer could not interrupt) and keeps its bytes.
 * `--build-only` compiles and exits (bench/fuzz-limits.mjs uses the same build).
 *
 *   node bench/fuzz-parsers.mjs [--runs 10000] [--seed 20261130] [--only kineto-json,ncu-csv]
 *                               [--max-seed-kb 256] [--case-ms 2000] [--hang-ms 20000] [--huge-line-max 1000000]
 *                               [--json FILE]
 *
 * Failing cases are written to bench/out/fuzz-failures/<format>-<n>.bin with a .txt saying why.
 * Exit code 1 when any case failed, hung or took longer than --case-ms.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync, readdirSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const buildDir = join(here, 'out', 'fuzz-parsers');
const builtHarness = join(buildDir, '__tests__', 'hardening', 'fuzz-harness.js');
const failureDir = join(here, 'out', 'fuzz-failures');

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : fallback;
}

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function build() {
  let builtAt = 0;
  try {
    builtAt = statSync(builtHarness).mtimeMs;
  } catch {
    // not built yet
  }
  const sources = Math.max(newestMtime(join(root, 'src')), newestMtime(join(root, '__tests__', 'hardening')), statSync(join(here, 'fuzz-parsers.tsconfig.json')).mtimeMs);
  if (builtAt > sources) return;
  process.stderr.write('compiling the harness and src/ with tsc into bench/out/fuzz-parsers …\n');
  rmSync(buildDir, { recursive: true, force: true });
  try {
    execFileSync(join(root, 'node_modules', '.bin', 'tsc'), ['-p', join(here, 'fuzz-parsers.tsconfig.json')], { stdio: 'inherit' });
  } catch {
    // tsc emits even with type errors elsewhere in src; the import below fails if it did not.
  }
}

// ---------------------------------------------------------------------------------------------
// Worker: one importer, `runs` cases.

async function worker({ format, runs, seed, maxSeedBytes, caseMs, hugeLineMax }) {
  const fc = (await import('fast-check')).default;
  const harness = await import(pathToFileURL(builtHarness).href);
  const seeds = harness.loadSeeds(join(root, '__tests__', 'fixtures'), maxSeedBytes).get(format) ?? [];
  if (!seeds.length) {
    parentPort.postMessage({ type: 'done', format, cases: 0, seeds: 0 });
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), `pg-fuzz-${format}-`));
  const path = join(dir, 'case');
  const originals = new Map();
  for (const s of seeds) originals.set(s.name, await harness.seedOutcome(s, path));
  const times = [];
  const failures = [];
  const slow = [];
  const kinds = { ok: 0, error: 0, preserving: 0, failed: 0 };
  let index = 0;
  const started = performance.now();
  await fc.assert(
    fc.asyncProperty(harness.caseArbitrary(seeds, { hugeLineMax }), async (c) => {
      index += 1;
      parentPort.postMessage({ type: 'case', index, seed: c.seed.name, mutation: c.mutation.slice(0, 120), bytes: c.bytes.length });
      const result = await harness.runCase(c, path, originals.get(c.seed.name));
      times.push(result.ms);
      kinds[result.ok ? 'ok' : 'error'] += 1;
      if (c.preserving) kinds.preserving += 1;
      const problems = [...result.problems];
      if (result.ms > caseMs) {
        slow.push({ seed: c.seed.name, mutation: c.mutation, ms: Math.round(result.ms), bytes: c.bytes.length });
        problems.push(`took ${Math.round(result.ms)} ms (limit ${caseMs})`);
      }
      // One example per kind of problem (numbers and paths blanked out).
      const kind = problems.map((p) => p.replace(/\/tmp\/\S+/g, 'FILE').replace(/\d+/g, 'N').slice(0, 90)).join(' | ');
      if (problems.length) kinds.failed += 1;
      if (problems.length && failures.length < 50 && !failures.some((f) => f.kind === kind)) {
        mkdirSync(failureDir, { recursive: true });
        const base = join(failureDir, `${format}-${failures.length + 1}`);
        writeFileSync(`${base}.bin`, c.bytes);
        writeFileSync(`${base}.txt`, `seed: ${c.seed.name}\nmutation: ${c.mutation}\n${problems.join('\n')}\n`);
        failures.push({ kind, seed: c.seed.name, mutation: c.mutation.slice(0, 200), problems: problems.map((p) => p.slice(0, 400)) });
      }
      return true;
    }),
    { numRuns: runs, seed, endOnFailure: true },
  );
  const wallMs = performance.now() - started;
  rmSync(dir, { recursive: true, force: true });
  times.sort((a, b) => a - b);
  const pick = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  parentPort.postMessage({
    type: 'done',
    format,
    seeds: seeds.length,
    cases: times.length,
    ...kinds,
    wallMs,
    msPerCase: wallMs / times.length,
    medianMs: pick(0.5),
    p99Ms: pick(0.99),
    maxMs: times[times.length - 1],
    slow,
    failures,
  });
}

// ---------------------------------------------------------------------------------------------
// Main: one worker per importer, in turn, under a watchdog.

function runWorker(format, options, hangMs) {
  return new Promise((resolve) => {
    const w = new Worker(fileURLToPath(import.meta.url), { workerData: { format, ...options }, resourceLimits: { maxOldGenerationSizeMb: 2048 } });
    let last = { index: 0 };
    let lastAt = Date.now();
    let settled = false;
    const finish = (result) => {
      if (settled) return;
      settled = true;
      clearInterval(watchdog);
      resolve(result);
    };
    const watchdog = setInterval(() => {
      if (Date.now() - lastAt < hangMs) return;
      void w.terminate();
      finish({ format, hung: { ...last, afterMs: Date.now() - lastAt } });
    }, 250);
    w.on('message', (message) => {
      if (message.type === 'case') {
        last = message;
        lastAt = Date.now();
        if (message.index % 1000 === 0) process.stderr.write(`  ${format}: ${message.index} cases\n`);
      } else finish(message);
    });
    w.on('error', (error) => finish({ format, crashed: String(error?.stack ?? error), last }));
    w.on('exit', (code) => finish({ format, crashed: `worker exited with code ${code}`, last }));
  });
}

async function main() {
  build();
  if (process.argv.includes('--build-only')) return;
  const runs = Number(option('runs', '10000'));
  const seed = Number(option('seed', '20261130'));
  const maxSeedBytes = Number(option('max-seed-kb', '256')) * 1024;
  const caseMs = Number(option('case-ms', '2000'));
  const hangMs = Number(option('hang-ms', '20000'));
  const hugeLineMax = Number(option('huge-line-max', '1000000'));
  const { IMPORTERS } = await import(pathToFileURL(join(buildDir, 'src', 'ingest', 'registry.js')).href);
  const only = option('only', '');
  const formats = IMPORTERS.map((i) => i.id).filter((id) => !only || only.split(',').includes(id));
  rmSync(failureDir, { recursive: true, force: true });
  process.stderr.write(`fuzzing ${formats.length} importers, ${runs} cases each, seed ${seed}\n`);
  const results = [];
  for (const format of formats) {
    const result = await runWorker(format, { runs, seed, maxSeedBytes, caseMs, hugeLineMax }, hangMs);
    results.push(result);
    const line = result.cases !== undefined
      ? `${format.padEnd(24)} ${String(result.cases).padStart(6)} cases  ${String(result.seeds).padStart(3)} seeds  ${(result.wallMs / 1000).toFixed(1).padStart(7)} s  ${result.msPerCase.toFixed(2).padStart(7)} ms/case  median ${result.medianMs.toFixed(2)} ms  p99 ${result.p99Ms.toFixed(1)} ms  max ${result.maxMs.toFixed(0)} ms  ok ${result.ok} / InputError ${result.error} / valid variants ${result.preserving}  failed ${result.failed}`
      : `${format.padEnd(24)} ${result.hung ? `HUNG on case ${result.hung.index} (${result.hung.seed}, ${result.hung.mutation})` : `CRASHED: ${result.crashed}`}`;
    process.stdout.write(`${line}\n`);
    for (const failure of result.failures ?? []) process.stdout.write(`    ${failure.seed} ${failure.mutation}\n      ${failure.problems.join('\n      ')}\n`);
  }
  const summary = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    loadavg: loadavg(),
    runs,
    seed,
    results,
  };
  const json = option('json', join(here, 'out', 'fuzz-parsers.json'));
  mkdirSync(dirname(json), { recursive: true });
  writeFileSync(json, `${JSON.stringify(summary, null, 2)}\n`);
  const bad = results.filter((r) => r.hung || r.crashed || r.failures?.length || r.slow?.length);
  process.stdout.write(`\n${results.reduce((n, r) => n + (r.cases ?? 0), 0)} cases; ${bad.length ? `${bad.length} importer(s) with problems (cases in bench/out/fuzz-failures)` : 'no problems'}\n`);
  process.exitCode = bad.length ? 1 : 0;
}

if (isMainThread) await main();
else await worker(workerData);
