#!/usr/bin/env node
/**
 * Kineto ingest benchmark: the streaming importer (src/ingest/formats/kineto-json.ts, compiled with tsc into
 * bench/out/kineto-ingest on first use) on synthetic PyTorch profiler traces built by repeating the
 * real event shapes of __tests__/fixtures/kineto/dense_decode.trace.json.gz with shifted timestamps,
 * plus python_function events around each cpu_op (the with_stack mix: mostly CPU-side events).
 *
 *  1. A ~1 GiB trace (past V8's string limit, so JSON.parse cannot read it): wall time, MB/s and
 *     peak RSS of the importer in a child process.
 *  2. A ~200 MB trace read by JSON.parse(readFileSync) plus a minimal walk over the events (kernel
 *     sums) and by the importer, alternating in child processes, `--repeat` times each.
 *
 *   node bench/kineto-ingest.mjs [--size-mb 1024] [--compare-mb 200] [--repeat 3] [--json bench/out/kineto-ingest.json]
 * The traces are kept in bench/out/ (git-ignored) and reused while their size matches.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const outDir = join(here, 'out');
const buildDir = join(outDir, 'kineto-ingest');
const builtImporter = join(buildDir, 'src', 'ingest', 'formats', 'kineto-json.js');
const source = join(root, '__tests__', 'fixtures', 'kineto', 'dense_decode.trace.json.gz');
const MB = 1e6;

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : fallback;
}

// ---------------------------------------------------------------------------------------------
// Children: one measured reader per process, so peak RSS is its own.

async function child(kind, path) {
  const wall0 = performance.now();
  const cpu0 = process.cpuUsage();
  let kernelInstances = 0;
  let kernelNs = 0;
  if (kind === 'ours') {
    const { default: importer } = await import(pathToFileURL(builtImporter).href);
    const { runImporter } = await import(pathToFileURL(join(buildDir, 'src', 'ingest', 'common', 'importer.js')).href);
    const { openInput } = await import(pathToFileURL(join(buildDir, 'src', 'ingest', 'common', 'input-file.js')).href);
    const capture = await runImporter(importer, await openInput(path));
    for (const k of capture.kernels) {
      kernelInstances += k.instances;
      kernelNs += k.totalNs;
    }
  } else {
    // The baseline: parse everything, then the least walk that yields the same kernel sums.
    const trace = JSON.parse(readFileSync(path, 'utf8'));
    const sums = new Map();
    for (const e of trace.traceEvents) {
      if (e.ph !== 'X' || e.cat !== 'kernel') continue;
      const ns = Math.round(e.dur * 1000);
      const known = sums.get(e.name);
      if (known) {
        known.ns += ns;
        known.n++;
      } else sums.set(e.name, { ns, n: 1 });
    }
    for (const { ns, n } of sums.values()) {
      kernelInstances += n;
      kernelNs += ns;
    }
  }
  const cpu = process.cpuUsage(cpu0);
  process.stdout.write(
    JSON.stringify({
      wallMs: performance.now() - wall0,
      cpuMs: (cpu.user + cpu.system) / 1e3,
      maxRssMB: process.resourceUsage().maxRSS / 1024,
      kernelInstances,
      kernelNs,
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// Synthetic traces

const PYTHON_FUNCTIONS = [
  'torch/nn/modules/module.py(1784): _call_impl',
  'torch/nn/modules/module.py(1773): _wrapped_call_impl',
  'transformers/models/llama/modeling_llama.py(338): forward',
  'torch/nn/modules/linear.py(125): forward',
  'torch/utils/_contextlib.py(120): decorate_context',
];

const round3 = (value) => Math.round(value * 1000) / 1000;

/** One event as PyTorch's exporter lays it out, split around the ts value. */
function template(event, t0) {
  const fields = Object.keys(event)
    .filter((key) => key !== 'args')
    .map((key) => (key === 'ts' ? '"ts": \u0000' : `${JSON.stringify(key)}: ${JSON.stringify(event[key])}`));
  let text = `  {\n    ${fields.join(', ')}`;
  if (event.args) {
    const args = Object.entries(event.args).map(([key, value]) => `${JSON.stringify(key)}: ${JSON.stringify(value)}`);
    text += `,\n    "args": {\n      ${args.join(', ')}\n    }`;
  }
  const [pre, post] = `${text}\n  }`.split('\u0000');
  return { pre, post, offset: event.ts - t0 };
}

function templates() {
  const trace = JSON.parse(gunzipSync(readFileSync(source)).toString('utf8'));
  const events = trace.traceEvents.filter((e) => typeof e.ts === 'number' && (e.ph === 'X' || e.ph === 'f' || e.ph === 's'));
  const t0 = events.reduce((min, e) => Math.min(min, e.ts), Infinity);
  const span = events.reduce((max, e) => Math.max(max, e.ts + (e.dur ?? 0)), -Infinity) - t0;
  const out = [];
  let pythonId = 1;
  for (const event of events) {
    if (event.cat === 'cpu_op') {
      for (let depth = 0; depth < 2; depth++) {
        const name = PYTHON_FUNCTIONS[(pythonId + depth) % PYTHON_FUNCTIONS.length];
        const python = { ph: 'X', cat: 'python_function', name, pid: event.pid, tid: event.tid, ts: event.ts - 0.4 + depth * 0.2, dur: round3(event.dur + 0.8 - depth * 0.4) };
        python.args = { 'Python parent id': pythonId - 1, 'Python id': pythonId, 'Python thread': 0 };
        pythonId++;
        out.push(template(python, t0));
      }
    }
    out.push(template(event, t0));
  }
  const { traceEvents: _, traceName: __, ...header } = trace;
  return { templates: out, span, t0, header };
}

function generate(path, targetBytes, shapes) {
  const { templates: list, span, t0, header } = shapes;
  const fd = openSync(path, 'w');
  const head = JSON.stringify(header, null, 2).replace(/\n}$/, ',\n  "traceEvents": [\n');
  let written = 0;
  let batch = [head];
  let batchBytes = head.length;
  const flush = () => {
    const bytes = Buffer.from(batch.join(''));
    writeSync(fd, bytes);
    written += bytes.length;
    batch = [];
    batchBytes = 0;
  };
  let first = true;
  for (let rep = 0; written + batchBytes < targetBytes; rep++) {
    const base = t0 + rep * (span + 1000);
    const step = template({ ph: 'X', cat: 'user_annotation', name: `ProfilerStep#${rep}`, pid: 469, tid: 469, ts: base, dur: round3(span), args: { 'External id': rep } }, base);
    for (const t of [step, ...list]) {
      const text = `${first ? '' : ',\n'}${t.pre}${(base + t.offset).toFixed(3)}${t.post}`;
      first = false;
      batch.push(text);
      batchBytes += text.length;
      if (batchBytes > 8 * MB) flush();
      if (written + batchBytes >= targetBytes) break;
    }
  }
  batch.push('\n  ],\n  "traceName": "synthetic"\n}\n');
  flush();
  closeSync(fd);
  return written;
}

function ensureTrace(path, targetMB, shapes) {
  const target = targetMB * MB;
  if (existsSync(path) && Math.abs(statSync(path).size - target) < 0.02 * target) return false;
  const started = performance.now();
  shapes.value ??= templates();
  const bytes = generate(path, target, shapes.value);
  console.log(`generated ${path} (${(bytes / MB).toFixed(0)} MB) in ${((performance.now() - started) / 1e3).toFixed(1)} s`);
  return true;
}

// ---------------------------------------------------------------------------------------------

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

function measure(kind, path) {
  const flags = kind === 'parse' ? ['--max-old-space-size=16384'] : [];
  const out = execFileSync(process.execPath, [...flags, fileURLToPath(import.meta.url), '--child', kind, path], { maxBuffer: 1 << 20 });
  const result = JSON.parse(out.toString());
  const sizeMB = statSync(path).size / MB;
  return { ...result, sizeMB, wallMBs: sizeMB / (result.wallMs / 1e3), cpuMBs: sizeMB / (result.cpuMs / 1e3) };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const fmt = (value, digits = 0) => value.toFixed(digits);

async function main() {
  const sizeMB = Number(option('size-mb', '1024'));
  const compareMB = Number(option('compare-mb', '200'));
  const repeat = Number(option('repeat', '3'));
  const jsonOut = option('json', join(outDir, 'kineto-ingest.json'));
  mkdirSync(outDir, { recursive: true });
  ensureBuilt();
  const shapes = {};
  const big = join(outDir, `kineto-synthetic-${sizeMB}mb.json`);
  const small = join(outDir, `kineto-synthetic-${compareMB}mb.json`);
  ensureTrace(big, sizeMB, shapes);
  ensureTrace(small, compareMB, shapes);

  console.log(`\nload average ${loadavg().map((l) => l.toFixed(1)).join(' ')} on ${availableParallelism()} CPUs (wall times suffer under load; cpu times less)`);
  console.log(`\n1. importer on ${big}`);
  const bigRuns = [];
  for (let r = 0; r < repeat; r++) {
    const run = measure('ours', big);
    bigRuns.push(run);
    console.log(`   run ${r + 1}: wall ${fmt(run.wallMs / 1e3, 2)} s (${fmt(run.wallMBs)} MB/s), cpu ${fmt(run.cpuMs / 1e3, 2)} s (${fmt(run.cpuMBs)} MB/s), peak RSS ${fmt(run.maxRssMB)} MB, ${run.kernelInstances} kernels`);
  }

  console.log(`\n2. JSON.parse + walk vs importer on ${small} (alternating, ${repeat} each)`);
  const runs = { parse: [], ours: [] };
  for (let r = 0; r < repeat; r++) {
    for (const kind of ['parse', 'ours']) {
      const run = measure(kind, small);
      runs[kind].push(run);
      console.log(`   ${kind.padEnd(5)} wall ${fmt(run.wallMs)} ms (${fmt(run.wallMBs)} MB/s), cpu ${fmt(run.cpuMs)} ms (${fmt(run.cpuMBs)} MB/s), peak RSS ${fmt(run.maxRssMB)} MB`);
    }
  }
  const [parseRun, oursRun] = [runs.parse[0], runs.ours[0]];
  if (parseRun.kernelInstances !== oursRun.kernelInstances || parseRun.kernelNs !== oursRun.kernelNs) {
    throw new Error(`kernel sums differ: JSON.parse ${parseRun.kernelInstances}/${parseRun.kernelNs}, importer ${oursRun.kernelInstances}/${oursRun.kernelNs}`);
  }
  const summary = {
    machine: { cpus: availableParallelism(), node: process.version, loadAverageAtEnd: loadavg().map((l) => Number(l.toFixed(1))) },
    big: {
      sizeMB: bigRuns[0].sizeMB,
      medianWallMBs: median(bigRuns.map((r) => r.wallMBs)),
      medianCpuMBs: median(bigRuns.map((r) => r.cpuMBs)),
      peakRssMB: Math.max(...bigRuns.map((r) => r.maxRssMB)),
    },
    compare: {
      sizeMB: oursRun.sizeMB,
      parse: { medianWallMBs: median(runs.parse.map((r) => r.wallMBs)), medianCpuMBs: median(runs.parse.map((r) => r.cpuMBs)), peakRssMB: Math.max(...runs.parse.map((r) => r.maxRssMB)) },
      ours: { medianWallMBs: median(runs.ours.map((r) => r.wallMBs)), medianCpuMBs: median(runs.ours.map((r) => r.cpuMBs)), peakRssMB: Math.max(...runs.ours.map((r) => r.maxRssMB)) },
    },
  };
  console.log(`\nload average ${summary.machine.loadAverageAtEnd.join(' ')}`);
  console.log(`summary: ${fmt(summary.big.sizeMB)} MB trace at ${fmt(summary.big.medianWallMBs)} MB/s wall, peak RSS ${fmt(summary.big.peakRssMB)} MB (goal < 256 MB)`);
  console.log(
    `         ${fmt(summary.compare.sizeMB)} MB: importer ${fmt(summary.compare.ours.medianWallMBs)} MB/s vs JSON.parse ${fmt(summary.compare.parse.medianWallMBs)} MB/s wall ` +
      `(${fmt(summary.compare.ours.medianWallMBs / summary.compare.parse.medianWallMBs, 1)}x; cpu ${fmt(summary.compare.ours.medianCpuMBs / summary.compare.parse.medianCpuMBs, 1)}x)`,
  );
  writeFileSync(jsonOut, `${JSON.stringify({ bigRuns, runs, summary }, null, 2)}\n`);
}

if (process.argv[2] === '--child') await child(process.argv[3], process.argv[4]);
else await main();
