#!/usr/bin/env node
/**
 * The importer's summing of kept events (kineto/trace-summary.ts: op chains, Python frames, names,
 * the trace record) alone, as CPU of the main thread: each compiled tree (DIR, compiled as
 * bench/kineto-ingest.tsconfig.json does) imports the trace in a fresh child process, alternating,
 * `--repeat` times each, and the child sums the main thread's run time (/proc/self/task/PID/schedstat,
 * ns) over every call that hands the summary a batch of tape records (TraceSummary.taped). Unlike a
 * sampled profile on a shared machine, time the thread waits for a core is not counted; the
 * compiler's and the garbage collector's helper threads are not either (the whole process's CPU is
 * printed beside it). Linux only. Since the cpu_ops and the trace record are summed in WebAssembly
 * as the tape reads them (wasm/kineto-ops.ts; from e767125 the kernels and API calls too,
 * wasm/kineto-sums.ts), a tree of that kind sums them outside taped(): its figure leaves them out,
 * and only the whole process's CPU compares with a tree before it.
 *
 *   node bench/kineto-summing.mjs [--repeat 5] [--trace bench/out/kineto-heldout-303mb.json] DIR…
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = fileURLToPath(import.meta.url);

async function child(dir, trace) {
  const stat = `/proc/self/task/${process.pid}/schedstat`;
  // The kernel brings a thread's run time up to date at each scheduler tick (4 ms and more), not when
  // schedstat is read; reading the process's stat first brings the reading thread's up to now.
  const threadNs = () => {
    readFileSync('/proc/self/stat', 'latin1');
    return Number(readFileSync(stat, 'latin1').split(' ')[0]);
  };
  const module = (path) => import(pathToFileURL(join(dir, 'src', 'ingest', path)).href);
  const { TraceSummary } = await module('formats/kineto/trace-summary.js');
  const taped = TraceSummary.prototype.taped;
  let summingNs = 0;
  let records = 0;
  TraceSummary.prototype.taped = function (...args) {
    const t0 = threadNs();
    taped.apply(this, args);
    summingNs += threadNs() - t0;
    records += args[1];
  };
  const { default: kineto } = await module('formats/kineto-json.js');
  const { runImporter } = await module('common/importer.js');
  const { openInput } = await module('common/input-file.js');
  const cpu0 = process.cpuUsage();
  const thread0 = threadNs();
  await runImporter(kineto, await openInput(trace));
  const cpu = process.cpuUsage(cpu0);
  process.stdout.write(JSON.stringify({ summingMs: summingNs / 1e6, records, importThreadMs: (threadNs() - thread0) / 1e6, importCpuMs: (cpu.user + cpu.system) / 1e3 }));
}

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : fallback;
}

if (process.argv[2] === '--child') await child(process.argv[3], process.argv[4]);
else {
  const repeat = Number(option('repeat', '5'));
  const trace = resolve(option('trace', join(here, '..', 'out', 'kineto-heldout-303mb.json')));
  const dirs = process.argv.slice(2).filter((arg, i, all) => !arg.startsWith('--') && !all[i - 1]?.startsWith('--'));
  const runs = new Map(dirs.map((dir) => [dir, []]));
  for (let r = 0; r < repeat; r++) {
    for (const dir of dirs) runs.get(dir).push(JSON.parse(execFileSync(process.execPath, [here, '--child', resolve(dir), trace], { maxBuffer: 1 << 20 }).toString()));
  }
  const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  console.log(`${trace}, ${repeat} runs each, medians (ms)\n`);
  console.log('| tree | summing: main-thread cpu, median (least) | runs | records | import: main-thread cpu | import: process cpu |\n|---|---:|---|---:|---:|---:|');
  for (const [dir, list] of runs) {
    const summing = list.map((run) => run.summingMs);
    console.log(`| ${dir} | ${median([...summing]).toFixed(0)} (${Math.min(...summing).toFixed(0)}) | ${summing.map((ms) => ms.toFixed(0)).join(', ')} | ${list[0].records} | ${median(list.map((run) => run.importThreadMs)).toFixed(0)} | ${median(list.map((run) => run.importCpuMs)).toFixed(0)} |`);
  }
}
