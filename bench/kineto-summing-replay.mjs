#!/usr/bin/env node
/**
 * The summing of kept events (kineto/trace-summary.ts) alone, replayed: what the importer hands the
 * summary (each batch of tape records with the bytes their names index, each event the JavaScript
 * reader read) is written once to a dump, then fed to a fresh TraceSummary of each compiled tree in
 * fresh child processes, alternating. Without the scanner, the tape and the reads around it, the
 * summing's own cost shows: the main thread's CPU for the first pass (the compiler's warm-up
 * included) and for two more passes on new summaries (code optimized). Each batch is copied into
 * one reused array before it is summed, as the tape hands its records over in one array still in
 * cache; the copies' CPU is measured apart and taken off. A digest of the summary's results
 * (kernel, memop and API sums, op log, device runs, trace record, counts) must be the same for
 * every tree. Linux only (/proc); the dump (about 260 MB for the 303 MB trace) goes to /dev/shm and
 * stays there for the replays (memory, until `rm -r /dev/shm/kineto-summing-replay`).
 *
 * For trees before 1f2eda5: the dump is of the tape's records as they were then (SLOTS below), and
 * from 1f2eda5 on most of the summing happens inside the tape's scan (wasm/kineto-ops.ts, and from
 * e767125 wasm/kineto-sums.ts), where a replay of taped() does not reach; kineto-floor.mjs --profile
 * says where a later tree's time goes.
 *
 *   node bench/kineto-summing-replay.mjs --dump DIR [--trace bench/out/kineto-heldout-303mb.json]
 *   node bench/kineto-summing-replay.mjs [--repeat 4] DIR…
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = fileURLToPath(import.meta.url);
const DUMP = '/dev/shm/kineto-summing-replay';
// tape.ts's record layout.
const SLOTS = 29;
const RANGES = [
  [4, 5], // name
  [19, 20], // Input Dims
];

// The thread's run time brought up to date (kineto-summing.mjs says why /proc/self/stat is read first).
const schedstat = `/proc/self/task/${process.pid}/schedstat`;
function threadNs() {
  readFileSync('/proc/self/stat', 'latin1');
  return Number(readFileSync(schedstat, 'latin1').split(' ')[0]);
}

const treeModule = (dir, path) => import(pathToFileURL(join(dir, 'src', 'ingest', path)).href);

/** The records of a batch with their byte ranges moved into a buffer of their own. */
function compact(records, count, bytes) {
  const r = Float64Array.from(records.subarray(0, count * SLOTS));
  const parts = [];
  let length = 0;
  for (let at = 0; at < r.length; at += SLOTS) {
    for (const [start, end] of RANGES) {
      const from = r[at + start];
      if (from < 0) continue;
      const to = r[at + end];
      parts.push(bytes.subarray(from, to));
      r[at + start] = length;
      r[at + end] = length + (to - from);
      length += to - from;
    }
  }
  return { r, b: Buffer.concat(parts) };
}

async function dump(dir, trace) {
  const { TraceSummary } = await treeModule(dir, 'formats/kineto/trace-summary.js');
  const batches = [];
  const proto = TraceSummary.prototype;
  const { taped, event, use } = proto;
  proto.taped = function (records, count, bytes, base) {
    batches.push({ kind: 0, count, base, ...compact(records, count, bytes) });
    return taped.call(this, records, count, bytes, base);
  };
  let reading = false;
  proto.event = function (...args) {
    reading = true;
    try {
      return event.apply(this, args);
    } finally {
      reading = false;
    }
  };
  proto.use = function (r, at, category, offset) {
    if (reading) batches.push({ kind: 1, count: category, base: offset, ...compact(r.subarray(at, at + SLOTS), 1, this.bytes) });
    return use.call(this, r, at, category, offset);
  };
  const { default: kineto } = await treeModule(dir, 'formats/kineto-json.js');
  const { runImporter } = await treeModule(dir, 'common/importer.js');
  const { openInput } = await treeModule(dir, 'common/input-file.js');
  await runImporter(kineto, await openInput(trace));
  mkdirSync(DUMP, { recursive: true });
  let records = 0;
  let bytes = 0;
  const meta = batches.map((x) => {
    const row = [x.kind, x.count, x.base, records, x.r.length, bytes, x.b.length];
    records += x.r.length;
    bytes += x.b.length;
    return row;
  });
  writeFileSync(join(DUMP, 'meta.json'), JSON.stringify({ trace, meta }));
  writeFileSync(join(DUMP, 'records.bin'), Buffer.concat(batches.map((x) => Buffer.from(x.r.buffer, x.r.byteOffset, x.r.byteLength))));
  writeFileSync(join(DUMP, 'bytes.bin'), Buffer.concat(batches.map((x) => x.b)));
  console.log(`${trace}: ${batches.length} batches, ${records / SLOTS} records, ${bytes} name bytes, in ${DUMP}`);
}

async function child(dir) {
  const { meta } = JSON.parse(readFileSync(join(DUMP, 'meta.json'), 'utf8'));
  const raw = readFileSync(join(DUMP, 'records.bin'));
  const all = new Float64Array(raw.buffer, raw.byteOffset, raw.byteLength / 8);
  const allBytes = readFileSync(join(DUMP, 'bytes.bin'));
  const batches = meta.map(([kind, count, base, ro, rl, bo, bl]) => ({ kind, count, base, r: all.subarray(ro, ro + rl), b: allBytes.subarray(bo, bo + bl) }));
  const tape = new Float64Array(Math.max(...batches.map((x) => x.r.length)));
  const tapeBytes = Buffer.alloc(Math.max(...batches.map((x) => x.b.length)));
  let copyNs = Infinity;
  for (let k = 0; k < 3; k++) {
    const t0 = threadNs();
    for (const x of batches) {
      if (x.kind === 0) {
        tape.set(x.r);
        x.b.copy(tapeBytes);
      }
    }
    copyNs = Math.min(copyNs, threadNs() - t0);
  }
  const { TraceSummary } = await treeModule(dir, 'formats/kineto/trace-summary.js');
  const counts = new Map();
  const ctx = { path: 'replay', options: {}, count: (name) => counts.set(name, (counts.get(name) ?? 0) + 1), isCollective: (name) => /nccl/i.test(name) };
  const pass = () => {
    const summary = new TraceSummary(ctx, { bytes: 303e6, gzip: false });
    const t0 = threadNs();
    for (const x of batches) {
      if (x.kind === 0) {
        tape.set(x.r);
        x.b.copy(tapeBytes);
        summary.taped(tape, x.count, tapeBytes, x.base);
      } else {
        summary.bytes = x.b;
        summary.use(x.r, 0, x.count, x.base);
      }
    }
    return { summary, ms: (threadNs() - t0 - copyNs) / 1e6 };
  };
  const first = pass();
  const warm = [pass().ms, pass().ms];
  const s = first.summary;
  s.finish();
  const hash = createHash('sha256');
  const add = (value) => hash.update(JSON.stringify(value, (_, v) => (ArrayBuffer.isView(v) ? Array.from(v) : v)));
  add([s.kernelStats(), s.memopStats(), s.apiStats(), s.launchCounts(), s.stepWindows(), s.captureWindows()]);
  const ops = s.ops;
  add([ops.count, ops.spanStart, ops.spanEnd]);
  for (const column of [ops.starts, ops.ends, ops.devices, ops.correlations, ops.kind]) hash.update(Buffer.from(column.buffer, column.byteOffset, ops.count * column.BYTES_PER_ELEMENT));
  for (const [device, run] of ops.deviceRuns) {
    add([device, run.size, run.kernels, run.collectives, run.hostCopies, run.ordered, run.merged, run.gaps, run.busy()]);
    add(['all', 'kernelsAndCollectives', 'computeKernels', 'collectiveKernels', 'copies', 'copiesAndKernels'].map((union) => run[union].total));
  }
  add([s.trace.toJSON(), [...counts], [...s.categories], s.replays ?? null, [...s.graphCorrelations]]);
  add([s.launchSites.ops, s.launchSites.unordered, s.launchSites.attributed, s.launchSites.unlinked, s.generation]);
  process.stdout.write(JSON.stringify({ coldMs: first.ms, warmMs: warm, digest: hash.digest('hex').slice(0, 16) }));
}

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : fallback;
}

if (process.argv[2] === '--child') await child(process.argv[3]);
else if (process.argv.includes('--dump')) await dump(resolve(option('dump')), resolve(option('trace', join(here, '..', 'out', 'kineto-heldout-303mb.json'))));
else {
  const repeat = Number(option('repeat', '4'));
  const dirs = process.argv.slice(2).filter((arg, i, all) => !arg.startsWith('--') && !all[i - 1]?.startsWith('--'));
  const runs = new Map(dirs.map((dir) => [dir, []]));
  for (let r = 0; r < repeat; r++) {
    for (const dir of dirs) runs.get(dir).push(JSON.parse(execFileSync(process.execPath, [here, '--child', resolve(dir)], { maxBuffer: 1 << 20 }).toString()));
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const fmt = (values) => `${median(values).toFixed(0)} (${Math.min(...values).toFixed(0)})`;
  console.log(`${JSON.parse(readFileSync(join(DUMP, 'meta.json'), 'utf8')).trace} replayed, ${repeat} runs each (ms of main-thread CPU, median (least))\n`);
  console.log('| tree | first pass | first passes | passes 2–3 | digest |\n|---|---:|---|---:|---|');
  for (const [dir, list] of runs) {
    const digests = [...new Set(list.map((run) => run.digest))];
    console.log(`| ${dir} | ${fmt(list.map((run) => run.coldMs))} | ${list.map((run) => run.coldMs.toFixed(0)).join(', ')} | ${fmt(list.flatMap((run) => run.warmMs))} | ${digests.join(', ')} |`);
  }
  const all = new Set([...runs.values()].flat().map((run) => run.digest));
  if (all.size > 1) {
    console.error('the trees summed differently');
    process.exitCode = 1;
  }
}
