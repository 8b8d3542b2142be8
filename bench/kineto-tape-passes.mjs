#!/usr/bin/env node
/**
 * The WebAssembly tape alone, in one process: a trace read once into memory, then scanned pass after
 * pass in 1 MiB chunks (no summing, JavaScript touching only the records; an event the tape leaves
 * is passed over by its brackets, an event cut by a chunk carried to the next). Prints the fastest
 * and the median pass, and what a pass read.
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

const [tree, trace, passesArg] = process.argv.slice(2);
if (!tree || !trace) {
  console.error('usage: node bench/kineto-tape-passes.mjs TREE TRACE [PASSES]');
  process.exit(2);
}
const { EventTape, S_CATEGORY } = await import(pathToFileURL(resolve(tree, 'src/ingest/formats/kineto/tape.js')).href);
const bytes = readFileSync(trace);
const CHUNK = 1 << 20;
const KERNEL = 2;

/** Index after the JSON value opening at p (strings and escapes minded), or -1 when it runs past n. */
function valueEnd(b, p, n) {
  let depth = 0;
  let inString = false;
  for (let i = p; i < n; i++) {
    const c = b[i];
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

function pass(tape) {
  let offset = bytes.indexOf('[', bytes.indexOf('"traceEvents"')) + 1;
  let carried = 0;
  let records = 0;
  let kernels = 0;
  let left = 0;
  for (;;) {
    const take = Math.min(CHUNK - carried, bytes.length - offset);
    if (take <= 0) break;
    bytes.copy(tape.reserve(CHUNK), carried, offset, offset + take);
    offset += take;
    const n = carried + take;
    const b = tape.reserve(n);
    carried = 0;
    let p = 0;
    for (;;) {
      while (p < n && (b[p] === 32 || b[p] === 10 || b[p] === 13 || b[p] === 9 || b[p] === 44)) p++;
      if (p >= n || b[p] !== 123) break;
      p = tape.scan(p);
      const count = tape.count;
      const r = tape.records;
      records += count;
      for (let k = 0; k < count; k++) if (r[k * tape.slots + S_CATEGORY] === KERNEL) kernels++;
      if (tape.stoppedAfterEvent) continue;
      const end = valueEnd(b, p, n);
      if (end < 0) {
        b.copy(b, 0, p, n);
        carried = n - p;
        break;
      }
      left++;
      p = end;
    }
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
