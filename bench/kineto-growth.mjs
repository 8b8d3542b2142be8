#!/usr/bin/env node
/**
 * Growth benchmark: the Kineto importer's time against input size on two inputs built to defeat a
 * list scan or a sampled fingerprint (src/ingest/formats/kineto/trace-summary.ts addShape and
 * src/ingest/formats/kineto/name-cache.ts), each size in a fresh child process:
 *  - shapes: one kernel launched N times, each launch with its own grid;
 *  - colliding names: N kernels whose 120-byte names differ only in bytes the fingerprint skips;
 *  - random names: N kernels with random 120-byte names (the reference for the line above).
 * Near-linear growth: time ÷ N stays about flat as N doubles.
 *
 *   node bench/kineto-growth.mjs [--sizes 25000,50000,100000,200000] [--json bench/out/kineto-growth.json]
 * Uses the build of bench/kineto-ingest.mjs (tsc into bench/out/kineto-ingest).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const outDir = join(here, 'out');
const buildDir = join(outDir, 'kineto-ingest');
const builtImporter = join(buildDir, 'src', 'ingest', 'formats', 'kineto-json.js');

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : fallback;
}

function kernelEvent(name, i, grid) {
  return `{"ph":"X","cat":"kernel","name":"${name}","pid":0,"tid":7,"ts":${i * 10},"dur":5,"args":{"device":0,"stream":7,"grid":[${grid.join(',')}],"block":[128,1,1]}}`;
}

/** 120 bytes, differing only at bytes 1–4: a 12-sample fingerprint reads bytes 0, 10, 20, … and the last. */
function collidingName(i) {
  const name = Buffer.alloc(120, 'k');
  const digits = i.toString(36).padStart(4, '0');
  name.write(digits, 1, 'latin1');
  return name.toString('latin1');
}

function randomName(i) {
  let text = `k${i.toString(36)}_`;
  while (text.length < 120) text += Math.random().toString(36).slice(2);
  return text.slice(0, 120);
}

function writeTrace(kind, n) {
  const path = join(outDir, `growth-${kind}-${n}.json`);
  if (existsSync(path)) return path;
  const events = [];
  for (let i = 0; i < n; i += 1) {
    if (kind === 'shapes') events.push(kernelEvent('dyn_grid_kernel', i, [i + 1, 1, 1]));
    else events.push(kernelEvent(kind === 'colliding' ? collidingName(i) : randomName(i), i, [1, 1, 1]));
  }
  writeFileSync(path, `{"schemaVersion":1,"traceEvents":[\n${events.join(',\n')}\n]}\n`);
  return path;
}

async function child(path) {
  const { default: importer } = await import(pathToFileURL(builtImporter).href);
  const { runImporter } = await import(pathToFileURL(join(buildDir, 'src', 'ingest', 'common', 'importer.js')).href);
  const { openInput } = await import(pathToFileURL(join(buildDir, 'src', 'ingest', 'common', 'input-file.js')).href);
  const cpu0 = process.cpuUsage();
  const wall0 = performance.now();
  const capture = await runImporter(importer, await openInput(path));
  const cpu = process.cpuUsage(cpu0);
  process.stdout.write(JSON.stringify({ wallMs: performance.now() - wall0, cpuMs: (cpu.user + cpu.system) / 1e3, kernels: capture.kernels.length }));
}

function newestMtime(dir) {
  let newest = 0;
  for (const name of readdirSync(dir, { recursive: true })) if (String(name).endsWith('.ts')) newest = Math.max(newest, statSync(join(dir, String(name))).mtimeMs);
  return newest;
}

function ensureBuilt() {
  const sources = Math.max(newestMtime(join(root, 'src', 'ingest')), newestMtime(join(root, 'src', 'model')));
  if (existsSync(builtImporter) && statSync(builtImporter).mtimeMs >= sources) return;
  execFileSync(join(root, 'node_modules', '.bin', 'tsc'), ['-p', join(here, 'kineto-ingest.tsconfig.json')], { stdio: 'inherit' });
}

async function main() {
  if (process.argv[2] === '--child') return child(process.argv[3]);
  mkdirSync(outDir, { recursive: true });
  ensureBuilt();
  const sizes = option('sizes', '25000,50000,100000,200000').split(',').map(Number);
  const rows = [];
  for (const kind of ['shapes', 'colliding', 'random']) {
    for (const n of sizes) {
      const path = writeTrace(kind, n);
      const result = JSON.parse(execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--child', path], { maxBuffer: 1 << 20 }).toString());
      const expectedKernels = kind === 'shapes' ? 1 : n;
      if (result.kernels !== expectedKernels) throw new Error(`${kind} ${n}: ${result.kernels} kernels, expected ${expectedKernels}`);
      const row = { kind, n, mb: statSync(path).size / 1e6, ...result, usPerEvent: (result.cpuMs * 1e3) / n };
      rows.push(row);
      console.log(`${kind.padEnd(10)} n=${String(n).padStart(7)}  ${row.mb.toFixed(1).padStart(5)} MB  wall ${row.wallMs.toFixed(0).padStart(6)} ms  cpu ${row.cpuMs.toFixed(0).padStart(6)} ms  ${row.usPerEvent.toFixed(2)} us/event`);
    }
  }
  const json = option('json', undefined);
  if (json) writeFileSync(json, `${JSON.stringify(rows, null, 2)}\n`);
}

await main();
