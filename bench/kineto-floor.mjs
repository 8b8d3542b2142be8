#!/usr/bin/env node
/**
 * Kineto ingest against the byte-scan floor: on each trace, the importer
 * (src/ingest/formats/kineto-json.ts, built by kineto-traces.mjs) and the least a reader of the file
 * can do (plain Node: 1 MiB reads into one buffer, `indexOf('"kernel"')` counted over each),
 * alternating in fresh child processes, `--repeat` times each. Prints the side by side: floor and
 * importer wall time (median), their ratio, and each one's peak RSS.
 *
 *   nice node bench/kineto-floor.mjs [--repeat 5] [--kineto-mb 303] [--python-mb 1024]
 *        [--held-out FILE] [--only kineto,python] [--json bench/out/kineto-floor.json]
 *
 * Traces (bench/out/, reused while their size matches):
 *  - kineto: the held-out H200 capture `dense_batch32` (not among the test fixtures; --held-out,
 *    default /work/shared/fixtures/h200/hf-transformers/dense_batch32.trace.json.gz) replicated to
 *    `--kineto-mb`, its events as captured;
 *  - python: the synthetic trace of kineto-ingest.mjs (dense_decode with python_function events
 *    around each cpu_op) at `--python-mb`.
 * Every run is a fresh process (JIT warm-up and module load included on the importer's side).
 */
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildDir, builtImporter, ensureBuilt, ensureTrace, outDir } from './kineto-traces.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const MB = 1e6;

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : fallback;
}

// ---------------------------------------------------------------------------------------------
// Children: one measured reader per process, so peak RSS is its own.

function floor(path) {
  const needle = Buffer.from('"kernel"');
  const buffer = Buffer.allocUnsafe(1 << 20);
  const fd = openSync(path, 'r');
  let count = 0;
  let carry = 0; // bytes of the previous read kept at the front, so a needle across reads is found
  for (;;) {
    const read = readSync(fd, buffer, carry, buffer.length - carry, null);
    if (read === 0) break;
    const end = carry + read;
    let at = buffer.indexOf(needle, 0);
    while (at >= 0 && at + needle.length <= end) {
      count++;
      at = buffer.indexOf(needle, at + needle.length);
    }
    carry = Math.min(needle.length - 1, end);
    buffer.copy(buffer, 0, end - carry, end);
  }
  closeSync(fd);
  return { kernelEvents: count };
}

async function importer(path) {
  const { default: kineto } = await import(pathToFileURL(builtImporter).href);
  const { runImporter } = await import(pathToFileURL(join(buildDir, 'src', 'ingest', 'common', 'importer.js')).href);
  const { openInput } = await import(pathToFileURL(join(buildDir, 'src', 'ingest', 'common', 'input-file.js')).href);
  const capture = await runImporter(kineto, await openInput(path));
  let kernelEvents = 0;
  let kernelNs = 0;
  for (const k of capture.kernels) {
    kernelEvents += k.instances;
    kernelNs += k.totalNs;
  }
  return { kernelEvents, kernelNs };
}

async function child(kind, path) {
  const wall0 = performance.now();
  const cpu0 = process.cpuUsage();
  const result = kind === 'floor' ? floor(path) : await importer(path);
  const cpu = process.cpuUsage(cpu0);
  process.stdout.write(JSON.stringify({ ...result, wallMs: performance.now() - wall0, cpuMs: (cpu.user + cpu.system) / 1e3, maxRssMB: process.resourceUsage().maxRSS / 1024 }));
}

// ---------------------------------------------------------------------------------------------

function measure(kind, path) {
  const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--child', kind, path], { maxBuffer: 1 << 20 });
  return JSON.parse(out.toString());
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const fmt = (value, digits = 0) => value.toFixed(digits);
const load = () => loadavg().map((l) => l.toFixed(1)).join(' ');

function side(path, repeat) {
  const sizeMB = statSync(path).size / MB;
  console.log(`\n${path} (${fmt(sizeMB)} MB), alternating, ${repeat} each; load average ${load()}`);
  const runs = { floor: [], ours: [] };
  for (let r = 0; r < repeat; r++) {
    for (const kind of ['floor', 'ours']) {
      const run = measure(kind, path);
      runs[kind].push(run);
      console.log(`   ${kind.padEnd(5)} wall ${fmt(run.wallMs)} ms, cpu ${fmt(run.cpuMs)} ms, peak RSS ${fmt(run.maxRssMB)} MB, ${run.kernelEvents} kernel events`);
    }
  }
  // The floor counts the bytes `"kernel"`, which is every kernel event's category in these traces.
  const [f, o] = [runs.floor[0], runs.ours[0]];
  if (f.kernelEvents !== o.kernelEvents) throw new Error(`kernel events differ: byte scan ${f.kernelEvents}, importer ${o.kernelEvents}`);
  const floorMs = median(runs.floor.map((r) => r.wallMs));
  const oursMs = median(runs.ours.map((r) => r.wallMs));
  return {
    path,
    sizeMB,
    floor: { wallMs: floorMs, cpuMs: median(runs.floor.map((r) => r.cpuMs)), peakRssMB: Math.max(...runs.floor.map((r) => r.maxRssMB)) },
    ours: { wallMs: oursMs, cpuMs: median(runs.ours.map((r) => r.cpuMs)), peakRssMB: Math.max(...runs.ours.map((r) => r.maxRssMB)) },
    ratio: oursMs / floorMs,
    runs,
  };
}

async function main() {
  const repeat = Number(option('repeat', '5'));
  const only = option('only', 'kineto,python').split(',');
  const heldOut = option('held-out', '/work/shared/fixtures/h200/hf-transformers/dense_batch32.trace.json.gz');
  const jsonOut = option('json', join(outDir, 'kineto-floor.json'));
  mkdirSync(outDir, { recursive: true });
  ensureBuilt();
  const traces = [];
  if (only.includes('kineto')) {
    const mb = Number(option('kineto-mb', '303'));
    const path = join(outDir, `kineto-heldout-${mb}mb.json`);
    if (!existsSync(path) && !existsSync(heldOut)) throw new Error(`${heldOut}: the held-out trace is not there (--held-out FILE)`);
    ensureTrace(path, mb, {}, heldOut, { pythonFrames: false });
    traces.push(['kineto (held-out H200, replicated)', path]);
  }
  if (only.includes('python')) {
    const mb = Number(option('python-mb', '1024'));
    const path = join(outDir, `kineto-synthetic-${mb}mb.json`);
    ensureTrace(path, mb, {}, join(root, '__tests__', 'fixtures', 'kineto', 'dense_decode.trace.json.gz'), { pythonFrames: true });
    traces.push(['synthetic with Python frames', path]);
  }
  const machine = { cpus: availableParallelism(), model: cpus()[0]?.model, node: process.version, loadAverageAtStart: load() };
  console.log(`${machine.cpus} CPUs (${machine.model}), Node ${machine.node}`);
  const results = traces.map(([label, path]) => ({ label, ...side(path, repeat) }));
  machine.loadAverageAtEnd = load();
  console.log(`\nload average at end ${machine.loadAverageAtEnd}\n`);
  console.log('| trace | size | floor wall | profile-gate wall | ratio | floor peak RSS | profile-gate peak RSS |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const r of results) {
    console.log(`| ${r.label} | ${fmt(r.sizeMB)} MB | ${fmt(r.floor.wallMs / 1e3, 2)} s | ${fmt(r.ours.wallMs / 1e3, 2)} s | **${fmt(r.ratio, 1)}×** | ${fmt(r.floor.peakRssMB)} MB | ${fmt(r.ours.peakRssMB)} MB |`);
  }
  writeFileSync(jsonOut, `${JSON.stringify({ machine, results }, null, 2)}\n`);
}

if (process.argv[2] === '--child') await child(process.argv[3], process.argv[4]);
else await main();
