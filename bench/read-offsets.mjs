#!/usr/bin/env node
/**
 * How fast the kernel copies a file's pages into memory, by where in a page the read lands: the
 * file read whole, 1 MiB a read (as the Kineto importer reads it), into a WebAssembly memory (as
 * the tape's) at each given byte offset from a page's start; each offset timed `--repeat` times,
 * the file warm in the page cache. Prints the median ms per offset and the CPU model.
 *
 *   node bench/read-offsets.mjs FILE [--repeat 5] [--offsets 0,8,16,24,32,64,4088]
 *
 * On the 2-vCPU AMD EPYC VM the copy to 1-31 bytes past a page's start is 3-4x slower than to 0
 * or 32 on (why the importer lands its reads at multiples of 64: json-scanner.ts leftByTape()).
 */
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { cpus } from 'node:os';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : fallback;
};
const path = args[0];
if (!path || path.startsWith('--')) {
  console.error('usage: node bench/read-offsets.mjs FILE [--repeat 5] [--offsets 0,8,16,...]');
  process.exit(2);
}
const repeat = Number(option('--repeat', '5'));
const offsets = option('--offsets', '0,8,16,24,32,64,4088').split(',').map(Number);
const memory = new WebAssembly.Memory({ initial: 48 });
const view = Buffer.from(memory.buffer);
readFileSync(path); // warm the page cache
const times = new Map(offsets.map((offset) => [offset, []]));
for (let round = 0; round < repeat; round++) {
  for (const offset of offsets) {
    const t0 = performance.now();
    const fd = openSync(path, 'r');
    while (readSync(fd, view, offset, 1 << 20, null) > 0);
    closeSync(fd);
    times.get(offset).push(performance.now() - t0);
  }
}
const median = (values) => values.sort((a, b) => a - b)[values.length >> 1];
console.log(`${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}, ${path}, median of ${repeat}`);
console.log(offsets.map((offset) => `offset ${offset}: ${median(times.get(offset)).toFixed(0)} ms`).join('; '));
