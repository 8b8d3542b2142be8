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
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildDir, builtImporter, ensureBuilt, ensureTrace, outDir } from './kineto-traces.mjs';
import { peakRssMB } from './peak-rss.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
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
      maxRssMB: peakRssMB(),
      kernelInstances,
      kernelNs,
    }),
  );
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
  ensureTrace(big, sizeMB, shapes, source, { pythonFrames: true });
  ensureTrace(small, compareMB, shapes, source, { pythonFrames: true });

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
