#!/usr/bin/env node
/**
 * Many small Kineto traces read one after another in one process (a dashboard over a history, a
 * test suite, the fuzzer): the real traces among the test fixtures up to `--max-kb` (uncompressed
 * size not checked: their files), each read `--rounds` times, round-robin, after `--warm` rounds
 * that are not timed. Per build, in a child process of its own: the median and 90th percentile of
 * one import, the whole run's wall and CPU time, and how many full (mark-compact) collections and
 * how long they took, from the `gc` performance entries.
 *
 * Builds: the current tree (bench/out/kineto-ingest, built as kineto-traces.mjs does), and with
 * `--before DIR` another compiled tree beside it (an earlier commit's src, compiled with
 * bench/kineto-ingest.tsconfig.json), alternated `--repeat` times.
 *
 *   node bench/kineto-many.mjs [--before DIR] [--rounds 100] [--warm 10] [--repeat 3] [--max-kb 1024]
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildDir, ensureBuilt } from './kineto-traces.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const fixtures = join(here, '..', '__tests__', 'fixtures', 'kineto');

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : fallback;
}

async function child(build, rounds, warm, paths) {
  const src = (path) => pathToFileURL(join(build, 'src', ...path.split('/'))).href;
  const { default: importer } = await import(src('ingest/formats/kineto-json.js'));
  const { runImporter } = await import(src('ingest/common/importer.js'));
  const { openInput } = await import(src('ingest/common/input-file.js'));
  const read = async (path) => runImporter(importer, await openInput(path));
  for (let r = 0; r < warm; r++) for (const path of paths) await read(path);

  const collections = { count: 0, ms: 0 };
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.detail?.kind !== constants.NODE_PERFORMANCE_GC_MAJOR) continue;
      collections.count += 1;
      collections.ms += entry.duration;
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  const times = [];
  const cpu0 = process.cpuUsage();
  const wall0 = performance.now();
  for (let r = 0; r < rounds; r++) {
    for (const path of paths) {
      const t = performance.now();
      await read(path);
      times.push(performance.now() - t);
    }
  }
  const wallMs = performance.now() - wall0;
  const cpu = process.cpuUsage(cpu0);
  // Let the last entries arrive.
  await new Promise((resolve) => setImmediate(resolve));
  observer.disconnect();
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  return { imports: times.length, medianMs: at(0.5), p90Ms: at(0.9), wallMs, cpuMs: (cpu.user + cpu.system) / 1e3, fullGcs: collections.count, fullGcMs: collections.ms };
}

if (process.argv[2] === '--child') {
  const [build, rounds, warm, ...paths] = process.argv.slice(3);
  process.stdout.write(JSON.stringify(await child(build, Number(rounds), Number(warm), paths)));
} else {
  const rounds = Number(option('rounds', 100));
  const warm = Number(option('warm', 10));
  const repeat = Number(option('repeat', 3));
  const maxBytes = Number(option('max-kb', 1024)) * 1024;
  const before = option('before', undefined);
  ensureBuilt();
  const paths = readdirSync(fixtures)
    .filter((name) => /\.json(\.gz)?$/.test(name))
    .map((name) => join(fixtures, name))
    .filter((path) => statSync(path).size <= maxBytes)
    .sort();
  console.log(`${paths.length} traces (${paths.map((p) => p.split('/').pop()).join(', ')}), ${rounds} rounds after ${warm}, node ${process.version}`);
  const builds = [...(before ? [['before', before]] : []), ['now', buildDir]];
  const runs = Object.fromEntries(builds.map(([label]) => [label, []]));
  for (let i = 0; i < repeat; i++) {
    for (const [label, build] of builds) {
      const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--child', build, String(rounds), String(warm), ...paths], { maxBuffer: 1 << 20 });
      const run = JSON.parse(out.toString());
      runs[label].push(run);
      const f = (x) => x.toFixed(2);
      console.log(`  ${label.padEnd(6)} ${run.imports} imports: median ${f(run.medianMs)} ms, p90 ${f(run.p90Ms)} ms, wall ${run.wallMs.toFixed(0)} ms, cpu ${run.cpuMs.toFixed(0)} ms, ${run.fullGcs} full GCs (${run.fullGcMs.toFixed(0)} ms)`);
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log('\n| build | one import, median | p90 | wall, all imports | CPU | full GCs | their time |');
  console.log('|---|---|---|---|---|---|---|');
  for (const [label] of builds) {
    const r = runs[label];
    const m = (key) => median(r.map((run) => run[key]));
    console.log(`| ${label} | ${m('medianMs').toFixed(2)} ms | ${m('p90Ms').toFixed(2)} ms | ${m('wallMs').toFixed(0)} ms | ${m('cpuMs').toFixed(0)} ms | ${m('fullGcs')} | ${m('fullGcMs').toFixed(0)} ms |`);
  }
}
