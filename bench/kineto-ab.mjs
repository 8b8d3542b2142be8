#!/usr/bin/env node
/**
 * Two Kineto importers as shipped, side by side with the byte-scan floor, on one trace: rounds of
 * the floor then A and B, A first in one round and B first in the next (so that a host whose speed
 * drifts within a round favours neither), each run a fresh process (bench/kineto-floor.mjs --child). Where
 * kineto-floor.mjs alternates seven kinds of run, this one times only the two importers and the
 * floor, so that many rounds fit: for a host whose runs spread by more than the change measured.
 * Prints per importer the median wall and CPU, the median of its ratios to the floor run at the
 * round's start (and the middle half of them), the same after its modules had loaded (a cost paid
 * once a process, whatever the trace's size), and the median of B's ratio to A within each round
 * (wall and CPU).
 *
 *   node bench/kineto-ab.mjs TRACE A_BUNDLE_DIR B_BUNDLE_DIR [--rounds 15] [--json OUT]
 *
 * A_BUNDLE_DIR, B_BUNDLE_DIR: bundles as bench/kineto-traces.mjs ensureBundled() makes them
 * (DIR/index.js; bench/out/kineto-bundle is the working tree's). TRACE: a plain trace file
 * (bench/out/kineto-heldout-303mb.json, kineto-synthetic-1024mb.json, made by kineto-floor.mjs).
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : fallback;
};
const [trace, a, b] = args;
if (!trace || !a || !b || [trace, a, b].some((arg) => arg.startsWith('--'))) {
  console.error('usage: node bench/kineto-ab.mjs TRACE A_BUNDLE_DIR B_BUNDLE_DIR [--rounds 15] [--json OUT]');
  process.exit(2);
}
const rounds = Number(option('rounds', '15'));
const floorScript = join(here, 'kineto-floor.mjs');

/** One fresh process: the floor, or an importer bundle as shipped ('was' mode of kineto-floor.mjs). */
function run(kind, dir) {
  const out = execFileSync(process.execPath, [floorScript, '--child', kind, trace, dir ?? '.'], { maxBuffer: 1 << 20 });
  return JSON.parse(out.toString());
}

const median = (values) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];
/** The middle half of the values (the 25th and 75th percentiles, nearest rank): how widely the rounds spread. */
const middleHalf = (values) => {
  const sorted = [...values].sort((x, y) => x - y);
  return [sorted[Math.floor((sorted.length - 1) / 4)], sorted[Math.ceil(((sorted.length - 1) * 3) / 4)]];
};
/** An importer run's wall and CPU after its modules had loaded (the child's loadedAtUs and loadCpuMs). */
const afterLoad = (x) => ({ wallMs: x.wallMs - (x.loadedAtUs - x.startedAtUs) / 1e3, cpuMs: x.cpuMs - x.loadCpuMs });
const runs = { floor: [], A: [], B: [] };
console.log(`${cpus()[0]?.model}, Node ${process.version}; ${trace}; A ${a}, B ${b}; ${rounds} rounds; load ${loadavg()[0].toFixed(1)}`);
for (let r = 0; r < rounds; r++) {
  const floor = run('floor');
  const order = r % 2 === 0 ? ['A', 'B'] : ['B', 'A'];
  const got = {};
  for (const side of order) got[side] = run('was', side === 'A' ? a : b);
  runs.floor.push(floor);
  runs.A.push(got.A);
  runs.B.push(got.B);
  if (got.A.kernelNs !== got.B.kernelNs) throw new Error(`kernel ns differ: A ${got.A.kernelNs}, B ${got.B.kernelNs}`);
  console.log(`  round ${r + 1} (${order.join(' then ')}): floor ${floor.wallMs.toFixed(0)} ms (${floor.cpuMs.toFixed(0)}), A ${got.A.wallMs.toFixed(0)} (${got.A.cpuMs.toFixed(0)}), B ${got.B.wallMs.toFixed(0)} (${got.B.cpuMs.toFixed(0)}); peak A ${got.A.maxRssMB.toFixed(0)} MB, B ${got.B.maxRssMB.toFixed(0)} MB`);
}
const summary = {};
for (const side of ['floor', 'A', 'B']) {
  const list = runs[side];
  summary[side] = {
    wallMs: median(list.map((x) => x.wallMs)),
    cpuMs: median(list.map((x) => x.cpuMs)),
    peakRssMB: Math.max(...list.map((x) => x.maxRssMB)),
    ...(side === 'floor'
      ? {}
      : {
          wallToFloor: median(list.map((x, k) => x.wallMs / runs.floor[k].wallMs)),
          cpuToFloor: median(list.map((x, k) => x.cpuMs / runs.floor[k].cpuMs)),
          wallToFloorMiddleHalf: middleHalf(list.map((x, k) => x.wallMs / runs.floor[k].wallMs)),
          // Module loading is paid once a process, whatever the trace's size; the floor loads nothing.
          afterLoad: {
            wallToFloor: median(list.map((x, k) => afterLoad(x).wallMs / runs.floor[k].wallMs)),
            cpuToFloor: median(list.map((x, k) => afterLoad(x).cpuMs / runs.floor[k].cpuMs)),
            loadWallMs: median(list.map((x) => x.wallMs - afterLoad(x).wallMs)),
            loadCpuMs: median(list.map((x) => x.loadCpuMs)),
          },
        }),
  };
}
summary.bToA = { wall: median(runs.B.map((x, k) => x.wallMs / runs.A[k].wallMs)), cpu: median(runs.B.map((x, k) => x.cpuMs / runs.A[k].cpuMs)) };
const s = (ms) => `${(ms / 1e3).toFixed(2)} s`;
console.log(`\nmedians of ${rounds}: floor ${s(summary.floor.wallMs)} (${s(summary.floor.cpuMs)} CPU)`);
for (const side of ['A', 'B']) {
  const x = summary[side];
  const [low, high] = x.wallToFloorMiddleHalf;
  console.log(`  ${side}: ${s(x.wallMs)} (${s(x.cpuMs)} CPU), against the floor of its round ${x.wallToFloor.toFixed(2)}× wall (middle half of rounds ${low.toFixed(2)}–${high.toFixed(2)}×; ${x.cpuToFloor.toFixed(2)}× CPU), peak ${x.peakRssMB.toFixed(0)} MB`);
  console.log(`     after its modules loaded (${x.afterLoad.loadWallMs.toFixed(0)} ms wall, ${x.afterLoad.loadCpuMs.toFixed(0)} ms CPU): ${x.afterLoad.wallToFloor.toFixed(2)}× wall (${x.afterLoad.cpuToFloor.toFixed(2)}× CPU)`);
}
console.log(`  B against A in the same round: ${summary.bToA.wall.toFixed(3)}× wall, ${summary.bToA.cpu.toFixed(3)}× CPU`);
const jsonOut = option('json', undefined);
if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ trace, a, b, rounds, machine: { model: cpus()[0]?.model, node: process.version }, summary, runs }, null, 1));
