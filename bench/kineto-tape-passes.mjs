#!/usr/bin/env node
/**
 * The WebAssembly tape alone, in one process: a trace read once into memory, then scanned pass after
 * pass in 1 MiB chunks (no summing, JavaScript touching only the records; kineto-traces.mjs
 * tapeChunk(): an event the tape leaves is passed over by its brackets, one cut by a chunk carried
 * to the next). Prints the fastest and the median pass, and what a pass read.
 *
 *   node bench/kineto-tape-passes.mjs TREE TRACE [PASSES]
 *
 * TREE: a compiled tree (bench/kineto-ingest.tsconfig.json's output, e.g. bench/out/kineto-ingest).
 * Instructions per pass, the same on every run: run it under callgrind with 1 pass and with 4, and
 * take a third of the difference (module compilation and the file read fall out):
 *
 *   valgrind --tool=callgrind --callgrind-out-file=/dev/null --smc-check=all-non-file \
 *     node --no-liftoff --single-threaded bench/kineto-tape-passes.mjs TREE TRACE 4
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tapeChunk } from './kineto-traces.mjs';

const [tree, trace, passesArg] = process.argv.slice(2);
if (!tree || !trace) {
  console.error('usage: node bench/kineto-tape-passes.mjs TREE TRACE [PASSES]');
  process.exit(2);
}
const { EventTape, S_CATEGORY } = await import(pathToFileURL(resolve(tree, 'src/ingest/formats/kineto/tape.js')).href);
const bytes = readFileSync(trace);
const CHUNK = 1 << 20;
const KERNEL = 2;

function pass(tape) {
  let offset = bytes.indexOf('[', bytes.indexOf('"traceEvents"')) + 1;
  let carried = 0;
  let records = 0;
  let kernels = 0;
  let left = 0;
  const slots = tape.slots;
  const counted = (r, count) => {
    records += count;
    for (let k = 0; k < count; k++) if (r[k * slots + S_CATEGORY] === KERNEL) kernels++;
  };
  for (;;) {
    const take = Math.min(CHUNK - carried, bytes.length - offset);
    if (take <= 0) break;
    bytes.copy(tape.reserve(CHUNK), carried, offset, offset + take);
    offset += take;
    const n = carried + take;
    const b = tape.reserve(n);
    const cut = tapeChunk(tape, b, 0, n, counted, () => left++);
    if (cut >= 0) b.copy(b, 0, cut, n);
    carried = cut < 0 ? 0 : n - cut;
  }
  return { records, kernels, left };
}

const tape = new EventTape();
const walls = [];
let read;
for (let i = 0; i < Number(passesArg ?? 7); i++) {
  const started = performance.now();
  read = pass(tape);
  walls.push(performance.now() - started);
}
walls.sort((a, b) => a - b);
console.log(`${walls.length} passes: fastest ${walls[0].toFixed(1)} ms, median ${walls[walls.length >> 1].toFixed(1)} ms; records ${read.records}, kernels ${read.kernels}, events left to JavaScript ${read.left}`);
