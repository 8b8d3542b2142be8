#!/usr/bin/env node
/**
 * What the importer would cost at the least with its summing in WebAssembly: on each trace,
 * alternating in fresh child processes, the byte-scan floor (kineto-floor.mjs's), the tape alone
 * (bench/wasm/tape-summing-min.ts: wasm/kineto-tape.ts unchanged, JavaScript touching nothing of
 * its records) and the tape with sumRecords() after each scan (the lower bound of a summing beside
 * the tape: see that file for what it does and leaves out). Both tape children skip what the tape
 * leaves to JavaScript (a bracket count, as kineto-floor's tape child does). Prints medians of CPU
 * (user + system) and wall, and peak RSS.
 *
 *   nice node bench/kineto-wasm-summing.mjs [--repeat 5] [--only kineto,python]
 */
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { floor, outDir, valueEnd } from './kineto-traces.mjs';
import { peakRssMB } from './peak-rss.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const source = join(here, 'wasm', 'tape-summing-min.ts');
const wasmPath = join(outDir, 'tape-summing-min.wasm');
const traces = { kineto: join(outDir, 'kineto-heldout-303mb.json'), python: join(outDir, 'kineto-synthetic-1024mb.json') };
const CHUNK = 1 << 20;

function build() {
  const sources = [source, join(root, 'wasm', 'kineto-tape.ts')];
  if (existsSync(wasmPath) && sources.every((s) => statSync(wasmPath).mtimeMs >= statSync(s).mtimeMs)) return;
  execFileSync(join(root, 'node_modules', '.bin', 'asc'), [source, '--outFile', wasmPath, '-O3', '--noAssert', '--runtime', 'stub', '--enable', 'simd', '--initialMemory', '17'], { stdio: 'inherit' });
}


function tape(path, summing) {
  const x = new WebAssembly.Instance(new WebAssembly.Module(readFileSync(wasmPath)), {}).exports;
  const memory = x.memory;
  const need = Number(x.sumEnd());
  if (memory.buffer.byteLength < need) memory.grow(Math.ceil((need - memory.buffer.byteLength) / 65536));
  if (summing) x.reset();
  const input = new Uint8Array(memory.buffer, x.inputAt(), CHUNK + 16);
  const fd = openSync(path, 'r');
  let carry = 0;
  let started = false;
  let records = 0;
  for (;;) {
    const read = readSync(fd, input, carry, CHUNK - carry, null);
    if (read === 0) break;
    const n = carry + read;
    const b = Buffer.from(input.buffer, input.byteOffset, n);
    let p = 0;
    if (!started) {
      p = b.indexOf('[', b.indexOf('"traceEvents"')) + 1;
      started = true;
    }
    carry = 0;
    for (;;) {
      while (p < n && (b[p] === 0x20 || b[p] === 0x0a || b[p] === 0x0d || b[p] === 0x09 || b[p] === 0x2c)) p++;
      if (p >= n || b[p] !== 0x7b) break;
      p = x.scan(p, n);
      records += x.recordCount();
      if (summing) x.sumRecords();
      if (x.stoppedAfterEvent() === 1) continue;
      const end = valueEnd(b, p, n);
      if (end < 0) {
        b.copy(b, 0, p, n);
        carry = n - p;
        break;
      }
      p = end;
    }
  }
  closeSync(fd);
  return { result: summing ? x.result() : records };
}

if (process.argv[2] === '--child') {
  const [kind, path] = process.argv.slice(3);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const out = kind === 'floor' ? floor(path) : tape(path, kind === 'tape+summing');
  const cpu = process.cpuUsage(cpu0);
  process.stdout.write(JSON.stringify({ ...out, wallMs: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000, peakRssMB: peakRssMB() }));
} else {
  const at = process.argv.indexOf('--repeat');
  const repeat = at >= 0 ? Number(process.argv[at + 1]) : 5;
  const onlyAt = process.argv.indexOf('--only');
  const only = onlyAt >= 0 ? process.argv[onlyAt + 1].split(',') : Object.keys(traces);
  build();
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(`load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  console.log('| trace | floor cpu (wall) | tape alone cpu (× floor) | tape + summing cpu (× floor) | wall (× floor) | peak RSS: floor, tape, tape + summing |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const name of only) {
    const path = traces[name];
    if (!existsSync(path)) throw new Error(`${path}: make it first with kineto-floor.mjs`);
    const runs = { floor: [], tape: [], 'tape+summing': [] };
    for (let k = 0; k < repeat; k++) {
      for (const kind of Object.keys(runs)) {
        runs[kind].push(JSON.parse(execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--child', kind, path], { maxBuffer: 1 << 20 }).toString()));
      }
    }
    const m = (kind, key) => median(runs[kind].map((r) => r[key]));
    const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
    const x = (a, b) => `${(a / b).toFixed(1)}×`;
    const f = m('floor', 'cpuMs');
    console.log(
      `| ${name} | ${s(f)} (${s(m('floor', 'wallMs'))}) | ${s(m('tape', 'cpuMs'))} (${x(m('tape', 'cpuMs'), f)}) | ${s(m('tape+summing', 'cpuMs'))} (${x(m('tape+summing', 'cpuMs'), f)}) | ${s(m('tape+summing', 'wallMs'))} (${x(m('tape+summing', 'wallMs'), m('floor', 'wallMs'))}) | ${['floor', 'tape', 'tape+summing'].map((k) => Math.round(m(k, 'peakRssMB'))).join(', ')} MB |`,
    );
    for (const kind of Object.keys(runs)) console.log(`    ${kind}: cpu ${runs[kind].map((r) => Math.round(r.cpuMs)).join(' ')}`);
  }
}
