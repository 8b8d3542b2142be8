#!/usr/bin/env node
/**
 * Two builds of the Kineto importer give the same result: for a change that must not change what is
 * read (a faster scanner), every Chrome/Kineto trace among the test fixtures (and any FILE given)
 * is read by both compiled trees, whole and in variants, and the outputs compared:
 *  - as on disk (gzip streamed, plain through the reused read buffer);
 *  - re-chunked at 4093 bytes, at 1/7/64/333 bytes, and at 65536/13 bytes, the buffer overwritten
 *    after each chunk (bytes kept past their chunk without a copy would show);
 *  - 12 truncations and 12 single-byte flips to JSON's structural bytes, at seeded random offsets:
 *    the error line (file, byte offset, what was expected) must be the same too.
 * Each output is the capture as JSON (the event record expanded) or the error's class and message,
 * kept as a SHA-256; the two builds run in child processes.
 *
 *   node bench/kineto-same.mjs DIR_A DIR_B [--quick] [--seed 12345] [--variants 12] [FILE…]
 * DIR: a tree compiled with bench/kineto-ingest.tsconfig.json, e.g. an earlier commit's:
 *   git worktree add /tmp/old <commit> && npx tsc -p /tmp/old/bench/kineto-ingest.tsconfig.json --outDir /tmp/old-build
 * (the tree must sit where `zod` resolves: inside the repository, or beside a node_modules link).
 * --quick: as on disk and one re-chunking only. --variants N: N cuts and N flips per trace (12), at
 * offsets drawn from --seed. Exits 1 on any difference, naming the first ones.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const STRUCTURAL = [0x22, 0x2c, 0x7b, 0x7d, 0x5b, 0x5d, 0x5c, 0x3a, 0x2d, 0x2e, 0x30, 0x65, 0x20, 0x41];

/** Chrome-trace fixtures: a traceEvents or deviceProperties key in the first 64 KiB (rocprof's excepted). */
function fixtures() {
  const out = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.json(\.gz)?$/.test(entry.name) && !path.includes('rocprof')) {
        const raw = readFileSync(path);
        const head = (path.endsWith('.gz') ? gunzipSync(raw) : raw).subarray(0, 65536).toString('utf8');
        if (/"(traceEvents|deviceProperties)"/.test(head)) out.push(path);
      }
    }
  };
  walk(join(root, '__tests__', 'fixtures'));
  return out.sort();
}

function inMemory(path, bytes, sizes) {
  return {
    path,
    head: bytes.subarray(0, 65536).toString('utf8'),
    gzip: false,
    sizeBytes: bytes.length,
    text: async () => bytes.toString('utf8'),
    stream: () => Readable.from([bytes]),
    chunks: async function* () {
      const buffer = Buffer.alloc(Math.max(...sizes));
      let at = 0;
      let i = 0;
      while (at < bytes.length) {
        const n = Math.min(sizes[i++ % sizes.length], bytes.length - at);
        bytes.copy(buffer, 0, at, at + n);
        at += n;
        yield buffer.subarray(0, n);
        buffer.fill(0x55, 0, n);
      }
    },
  };
}

async function child(build, out, quick, files, seedGiven, variants) {
  const load = async (path) => import(pathToFileURL(join(resolve(build), 'src', path)).href);
  const { default: kineto } = await load('ingest/formats/kineto-json.js');
  const { runImporter } = await load('ingest/common/importer.js');
  const { openInput } = await load('ingest/common/input-file.js');
  // The event record by what it holds (read through its methods, so that builds with and without
  // its own toJSON write the same text), the rest as it is.
  const record = (trace) => ({ count: trace.count, seen: trace.seen, dropped: trace.dropped(), names: trace.distinctNames(), events: [...trace.events()] });
  const text = ({ trace, ...capture }) =>
    JSON.stringify({ ...capture, trace: trace ? record(trace) : undefined }, (key, value) => (value instanceof Map || value instanceof Set ? [...value] : value));
  const run = async (input) => {
    try {
      return createHash('sha256').update(text(await runImporter(kineto, input))).digest('hex');
    } catch (error) {
      return `${error.constructor?.name}: ${error.message}`;
    }
  };
  let seed = seedGiven;
  const random = (n) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed % n;
  };
  const results = {};
  for (const file of files) {
    results[file] = await run(await openInput(file));
    const raw = readFileSync(file);
    const bytes = file.endsWith('.gz') ? gunzipSync(raw) : raw;
    for (const sizes of quick ? [[997, 13]] : [[4093], [1, 7, 64, 333], [65536, 13]]) results[`${file}, chunks of ${sizes}`] = await run(inMemory(file, bytes, sizes));
    if (quick) continue;
    for (let t = 0; t < variants; t++) {
      const cut = random(bytes.length);
      results[`${file}, cut at ${cut}`] = await run(inMemory(file, bytes.subarray(0, cut), [4096, 777]));
      const flipped = Buffer.from(bytes);
      const at = random(bytes.length);
      flipped[at] = STRUCTURAL[random(STRUCTURAL.length)];
      results[`${file}, byte ${at} set to ${flipped[at]}`] = await run(inMemory(file, flipped, [8192, 100]));
    }
  }
  writeFileSync(out, JSON.stringify(results));
}

if (process.argv[2] === '--child') {
  const [build, out, quick, seed, variants, ...files] = process.argv.slice(3);
  await child(build, out, quick === 'quick', files, Number(seed), Number(variants));
} else {
  const args = process.argv.slice(2);
  const quick = args.includes('--quick');
  const option = (name, fallback) => {
    const at = args.indexOf(`--${name}`);
    if (at < 0) return fallback;
    const value = args[at + 1];
    args.splice(at, 2);
    return value;
  };
  const seed = option('seed', '12345');
  const variants = option('variants', '12');
  const [a, b, ...given] = args.filter((arg) => arg !== '--quick');
  if (!a || !b) throw new Error('usage: node bench/kineto-same.mjs DIR_A DIR_B [--quick] [FILE…]');
  const files = given.length ? given : fixtures();
  const dir = mkdtempSync(join(tmpdir(), 'kineto-same-'));
  const outputs = [a, b].map((build, i) => {
    const out = join(dir, `${i}.json`);
    execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--child', build, out, quick ? 'quick' : 'full', seed, variants, ...files], { stdio: 'inherit' });
    return JSON.parse(readFileSync(out, 'utf8'));
  });
  const keys = Object.keys(outputs[0]);
  const differ = keys.filter((key) => outputs[0][key] !== outputs[1][key]);
  const errors = keys.filter((key) => !/^[0-9a-f]{64}$/.test(outputs[0][key])).length;
  console.log(`${files.length} traces, ${keys.length} readings (${errors} of them errors): ${differ.length} differ`);
  for (const key of differ.slice(0, 10)) console.log(`  ${key}\n    A: ${outputs[0][key]}\n    B: ${outputs[1][key]}`);
  process.exitCode = differ.length ? 1 : 0;
}
