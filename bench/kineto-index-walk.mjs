#!/usr/bin/env node
/**
 * The WebAssembly event tape against a walk over a JSON structural index, at the least: what
 * reading events from simdjson-style positions would save over the tape's member loop.
 * Alternating in fresh child processes, `--repeat` times each, over the same 1 MiB reads into
 * WebAssembly memory:
 *  - read:  the reads alone (what every reader pays);
 *  - masks: stage 1 of a structural index, its bit masks only (bench/wasm/json-walk-min.ts);
 *  - index: stage 1 with every position written out (as bench/wasm/json-stage1.ts);
 *  - walk:  index, then the positions walked once with the least a member reader does (see
 *           json-walk-min.ts: no key told, nothing checked or written; a lower bound);
 *  - tape LABEL: the tape alone from a compiled tree (kineto-floor.mjs's `tape` child), per --tape.
 * Prints each one's median CPU (user + system) and its CPU beyond the reads.
 *
 *   nice node bench/kineto-index-walk.mjs [--repeat 5] [--trace bench/out/kineto-heldout-303mb.json]
 *        [--tape LABEL=DIR]…   (default: this tree, compiled by kineto-traces.mjs, as `tape`)
 */
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildDir, ensureBuilt, outDir } from './kineto-traces.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const walkSource = join(here, 'wasm', 'json-walk-min.ts');
const walkWasm = join(outDir, 'json-walk-min.wasm');
const CHUNK = 1 << 20;

function walkModule() {
  const sources = [walkSource, join(here, 'wasm', 'stage1-blocks.ts')];
  if (existsSync(walkWasm) && sources.every((source) => statSync(walkWasm).mtimeMs >= statSync(source).mtimeMs)) return;
  const asc = join(root, 'node_modules', '.bin', 'asc');
  execFileSync(asc, [walkSource, '--outFile', walkWasm, '-O3', '--noAssert', '--runtime', 'stub', '--enable', 'simd', '--initialMemory', '129'], { stdio: 'inherit' });
}

/** One child: the reads, and per read the stage `kind` asks for. */
function child(kind, path) {
  const cpu0 = process.cpuUsage();
  const exports = new WebAssembly.Instance(new WebAssembly.Module(readFileSync(walkWasm)), {}).exports;
  const at = exports.inputAt();
  const memory = exports.memory;
  if (at + CHUNK + 64 > memory.buffer.byteLength) memory.grow(Math.ceil((at + CHUNK + 64 - memory.buffer.byteLength) / 65536));
  const input = Buffer.from(memory.buffer, at, CHUNK + 64);
  const fd = openSync(path, 'r');
  for (;;) {
    const read = readSync(fd, input, 0, CHUNK, null);
    if (read === 0) break;
    if (kind === 'read') continue;
    const padded = Math.ceil(read / 64) * 64;
    input.fill(0x20, read, padded);
    if (kind === 'masks') exports.masks(padded);
    else {
      const count = exports.index(padded);
      if (kind === 'walk') exports.walk(count);
    }
  }
  closeSync(fd);
  const cpu = process.cpuUsage(cpu0);
  return { cpuMs: (cpu.user + cpu.system) / 1e3, positions: exports.positionCount(), members: exports.memberCount(), sum: exports.result() };
}

if (process.argv[2] === '--child') {
  process.stdout.write(JSON.stringify(child(process.argv[3], process.argv[4])));
} else {
  const option = (name, fallback) => {
    const i = process.argv.indexOf(`--${name}`);
    return i >= 0 ? process.argv[i + 1] : fallback;
  };
  const repeat = Number(option('repeat', '5'));
  const trace = option('trace', join(outDir, 'kineto-heldout-303mb.json'));
  const tapes = process.argv.flatMap((arg, i) => (process.argv[i - 1] === '--tape' ? [arg.split('=')] : []));
  if (tapes.length === 0) {
    ensureBuilt();
    tapes.push(['tape', buildDir]);
  }
  walkModule();
  const kinds = [['read'], ['masks'], ['index'], ['walk'], ...tapes.map(([label, dir]) => [`tape ${label}`, dir])];
  const runs = new Map(kinds.map(([name]) => [name, []]));
  console.log(`${trace}, alternating, ${repeat} each; load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  for (let r = 0; r < repeat; r++) {
    for (const [name, dir] of kinds) {
      const args = dir === undefined ? [fileURLToPath(import.meta.url), '--child', name, trace] : [join(here, 'kineto-floor.mjs'), '--child', 'tape', trace, dir];
      const run = JSON.parse(execFileSync(process.execPath, args, { maxBuffer: 1 << 20 }).toString());
      runs.get(name).push(run);
      console.log(`   ${name.padEnd(12)} cpu ${run.cpuMs.toFixed(0)} ms${run.records === undefined ? '' : `, ${run.records} records, ${run.leftToJs} events left to JavaScript`}`);
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const read = median(runs.get('read').map((run) => run.cpuMs));
  console.log(`\nload average at end ${loadavg().map((x) => x.toFixed(1)).join(' ')}; medians of ${repeat} (CPU = user + system)\n`);
  console.log('| reader | cpu | beyond the reads | runs |');
  console.log('|---|---:|---:|---|');
  for (const [name] of kinds) {
    const cpus = runs.get(name).map((run) => run.cpuMs);
    const m = median(cpus);
    console.log(`| ${name} | ${m.toFixed(0)} ms | ${name === 'read' ? '' : `${(m - read).toFixed(0)} ms`} | ${cpus.map((x) => x.toFixed(0)).join(', ')} |`);
  }
}
