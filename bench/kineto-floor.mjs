#!/usr/bin/env node
/**
 * Kineto ingest against the byte-scan floor: on each trace, the importer
 * (src/ingest/formats/kineto-json.ts, built by kineto-traces.mjs) and the least a reader of the file
 * can do (plain Node: 1 MiB reads into one buffer, `indexOf('"kernel"')` counted over each),
 * alternating in fresh child processes, `--repeat` times each, with a third reference: a JavaScript
 * loop that looks each byte up in a table once (what touching every byte costs in JS), and a fourth:
 * the WebAssembly event tape alone (kineto/tape.ts over the same reads, JavaScript touching only its
 * records; what the importer's tokenizer costs before any summing). Prints the
 * side by side: floor and importer wall time (median), their ratio, each one's peak RSS, and the
 * part of the importer's CPU spent loading its modules (zod among them).
 *
 *   nice node bench/kineto-floor.mjs [--repeat 5] [--kineto-mb 303] [--python-mb 1024]
 *        [--held-out FILE] [--only kineto,python] [--before DIR] [--before-shipped DIR] [--json bench/out/kineto-floor.json]
 *        [--no-build]
 *
 * --no-build: use the compiled tree, the bundle and the structural-index module as they are
 * (bench/out/kineto-ingest, kineto-bundle, json-stage1.wasm: built here, carried to a machine
 * without the compilers). *
 * --before DIR: also the importer of another compiled tree (an earlier commit's src, compiled as
 * bench/kineto-ingest.tsconfig.json does), in the same alternation, for a before/after.
 * --before-shipped DIR: also an earlier commit's importer as shipped (DIR/index.js, a bundle made
 *   as ensureBundled() makes one, from that commit's src), in the same alternation.
 * Besides the medians, each importer's median ratio to the floor run just before it (on a host
 * whose speed drifts from run to run, the pairs drift together).
 * --profile: after the timed runs, two more importer runs per trace under `node --cpu-prof`, the
 *   compiled tree's and the bundle's (bench/out/kineto-floor-prof/, kineto-floor-prof-shipped/),
 *   their samples summed by stage: where the time goes, as built and as shipped.
 *
 * Traces (bench/out/, reused while their size matches):
 *  - kineto: the held-out H200 capture `dense_batch32` (not among the test fixtures; --held-out,
 *    default /work/shared/fixtures/h200/hf-transformers/dense_batch32.trace.json.gz) replicated to
 *    `--kineto-mb`, its events as captured;
 *  - python: the synthetic trace of kineto-ingest.mjs (dense_decode with python_function events
 *    around each cpu_op) at `--python-mb`.
 * Every run is a fresh process (JIT warm-up and module load included on the importer's side).
 */
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, rmSync, statSync, writeFileSync } from 'node:fs';
import module from 'node:module';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildDir, bundledImporter, ensureBuilt, ensureBundled, ensureTrace, floor, outDir, tapeChunk } from './kineto-traces.mjs';
import { peakRssMB } from './peak-rss.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const stage1Source = join(here, 'wasm', 'json-stage1.ts');
const stage1Wasm = join(outDir, 'json-stage1.wasm');

/** Compiles the structural-index reference (AssemblyScript, as wasm/build.mjs compiles the tape) when stale. */
function stage1Module() {
  const sources = [stage1Source, join(here, 'wasm', 'stage1-blocks.ts')];
  if (existsSync(stage1Wasm) && sources.every((source) => statSync(stage1Wasm).mtimeMs >= statSync(source).mtimeMs)) return;
  const asc = join(root, 'node_modules', '.bin', 'asc');
  execFileSync(asc, [stage1Source, '--outFile', stage1Wasm, '-O3', '--noAssert', '--runtime', 'stub', '--enable', 'simd', '--initialMemory', '17'], { stdio: 'inherit' });
}
const MB = 1e6;

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : fallback;
}

// ---------------------------------------------------------------------------------------------
// Children: one measured reader per process, so peak RSS is its own.

/**
 * The least a JavaScript reader of every byte does: one table lookup per byte (quotes, commas and
 * brackets counted), over the same 1 MiB reads. Not a floor anyone can reach with a parser, a
 * reference for what touching each byte once in JavaScript costs on this machine.
 */
function jsLoop(path) {
  const kinds = new Uint8Array(256);
  kinds[0x22] = 1;
  kinds[0x2c] = 2;
  kinds[0x7b] = kinds[0x5b] = 3;
  kinds[0x7d] = kinds[0x5d] = 4;
  const buffer = Buffer.allocUnsafe(1 << 20);
  const fd = openSync(path, 'r');
  let depth = 0;
  let quotes = 0;
  let commas = 0;
  for (;;) {
    const read = readSync(fd, buffer, 0, buffer.length, null);
    if (read === 0) break;
    for (let i = 0; i < read; i++) {
      const kind = kinds[buffer[i]];
      if (kind === 0) continue;
      if (kind === 1) quotes++;
      else if (kind === 2) commas++;
      else if (kind === 3) depth++;
      else depth--;
    }
  }
  closeSync(fd);
  return { depth, quotes, commas };
}

/**
 * The WebAssembly event tape alone (kineto/tape.ts): the file read 1 MiB at a time straight into the
 * module's memory, every plain event read there (category and the fields the importer keeps), and
 * JavaScript touching only the records: how close a tokenizer outside JavaScript gets to the floor.
 * Events it leaves to JavaScript (not plain, or cut by a read) are skipped here by a bracket count,
 * and counted.
 */
async function tapeOnly(path, build) {
  const { EventTape, S_CATEGORY, S_DUR_US } = await import(pathToFileURL(join(build, 'src', 'ingest', 'formats', 'kineto', 'tape.js')).href);
  const tape = new EventTape();
  const CHUNK = 1 << 20;
  const fd = openSync(path, 'r');
  let carry = 0;
  let started = false;
  let kernelEvents = 0;
  let records = 0;
  let leftToJs = 0;
  let durSum = 0;
  const slots = tape.slots;
  for (;;) {
    const read = readSync(fd, tape.reserve(CHUNK), carry, CHUNK - carry, null);
    if (read === 0) break;
    const n = carry + read;
    const b = tape.reserve(n);
    let p = 0;
    if (!started) {
      p = b.indexOf('"traceEvents"');
      p = b.indexOf('[', p) + 1;
      started = true;
    }
    const cut = tapeChunk(
      tape,
      b,
      p,
      n,
      (r, count) => {
        records += count;
        for (let k = 0; k < count; k++) {
          if (r[k * slots + S_CATEGORY] === 2) kernelEvents++;
          durSum += r[k * slots + S_DUR_US];
        }
      },
      (start, end) => {
        leftToJs++;
        if (b.subarray(start, end).includes('"cat": "kernel"')) kernelEvents++;
      },
    );
    if (cut >= 0) b.copy(b, 0, cut, n);
    carry = cut < 0 ? 0 : n - cut;
  }
  closeSync(fd);
  return { kernelEvents, records, leftToJs, durSum };
}

/**
 * A simdjson-style structural index alone (bench/wasm/json-stage1.ts, compiled by stage1Module()):
 * the same 1 MiB reads straight into the module's memory, each 64-byte block turned into bit masks
 * of quotes, escapes, strings and structural bytes, every structural position written out. No
 * value read, no event found: the least a tokenizer built that way does per byte, a lower bound
 * for its first pass rather than a reader.
 */
function stage1Only(path) {
  const instance = new WebAssembly.Instance(new WebAssembly.Module(readFileSync(stage1Wasm)), {});
  const { memory, inputAt, index, positions } = instance.exports;
  const CHUNK = 1 << 20;
  const at = inputAt();
  memory.grow(Math.ceil((at + CHUNK + 64 - memory.buffer.byteLength) / 65536));
  const input = Buffer.from(memory.buffer, at, CHUNK + 64);
  const fd = openSync(path, 'r');
  for (;;) {
    const read = readSync(fd, input, 0, CHUNK, null);
    if (read === 0) break;
    const padded = Math.ceil(read / 64) * 64;
    input.fill(0x20, read, padded);
    index(padded);
  }
  closeSync(fd);
  return { positions: positions() };
}

async function importer(path, build, cpu0) {
  const { default: kineto } = await import(pathToFileURL(join(build, 'src', 'ingest', 'formats', 'kineto-json.js')).href);
  const { runImporter } = await import(pathToFileURL(join(build, 'src', 'ingest', 'common', 'importer.js')).href);
  const { openInput } = await import(pathToFileURL(join(build, 'src', 'ingest', 'common', 'input-file.js')).href);
  return imported(kineto, runImporter, openInput, path, cpu0);
}

/**
 * The importer as shipped: the same code bundled into one file (kineto-traces.mjs ensureBundled()),
 * loaded as the CLI's and the action's entries load theirs: Node's compile cache turned on first
 * (Node 22.1 and later; the bundle's code compiled by an earlier run is read from it).
 */
async function shippedImporter(path, cpu0, bundle = bundledImporter) {
  const cache = module.enableCompileCache?.();
  const { kineto, runImporter, openInput } = await import(pathToFileURL(bundle).href);
  const status = Object.entries(module.constants?.compileCacheStatus ?? {}).find(([, value]) => value === cache?.status)?.[0];
  return { ...(await imported(kineto, runImporter, openInput, path, cpu0)), compileCache: status?.toLowerCase() ?? 'none in this Node' };
}

async function imported(kineto, runImporter, openInput, path, cpu0) {
  const loaded = process.cpuUsage(cpu0);
  const loadCpuMs = (loaded.user + loaded.system) / 1e3;
  // On the clock of a --cpu-prof profile's sample times (µs): samples before it are module loading.
  const loadedAtUs = Number(process.hrtime.bigint() / 1000n);
  const capture = await runImporter(kineto, await openInput(path));
  let kernelEvents = 0;
  let kernelNs = 0;
  for (const k of capture.kernels) {
    kernelEvents += k.instances;
    kernelNs += k.totalNs;
  }
  return { kernelEvents, kernelNs, loadCpuMs, loadedAtUs };
}

async function child(kind, path, build) {
  const startedAtUs = Number(process.hrtime.bigint() / 1000n);
  const wall0 = performance.now();
  const cpu0 = process.cpuUsage();
  const result = kind === 'floor' ? floor(path) : kind === 'jsloop' ? jsLoop(path) : kind === 'tape' ? await tapeOnly(path, build) : kind === 'stage1' ? stage1Only(path) : kind === 'shipped' ? await shippedImporter(path, cpu0) : kind === 'was' ? await shippedImporter(path, cpu0, join(build, 'index.js')) : await importer(path, build, cpu0);
  const cpu = process.cpuUsage(cpu0);
  process.stdout.write(JSON.stringify({ ...result, startedAtUs, wallMs: performance.now() - wall0, cpuMs: (cpu.user + cpu.system) / 1e3, maxRssMB: peakRssMB() }));
}

// ---------------------------------------------------------------------------------------------

function measure(kind, path, before, beforeShipped) {
  const build = kind === 'before' ? before : kind === 'was' ? beforeShipped : buildDir;
  const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--child', kind, path, build], { maxBuffer: 1 << 20 });
  return JSON.parse(out.toString());
}

/** The stage a profiled function belongs to, by its compiled file; undefined: look at its caller. */
function stage(url, name) {
  if (url.startsWith('wasm://')) return 'reading events into the tape, and there the cpu_ops, kernels, API calls and the trace record (WebAssembly: wasm/kineto-tape.ts, kineto-ops.ts, kineto-sums.ts)';
  const file = url.split('/').pop();
  if (file === 'input-file.js') return 'reading the file (reads awaited by the scanner)';
  if (file === 'tape.js') return 'reading events into the tape, and there the cpu_ops, kernels, API calls and the trace record (WebAssembly: wasm/kineto-tape.ts, kineto-ops.ts, kineto-sums.ts)';
  if (file === 'event-reader.js') return 'reading the fields of kept events (kineto/event-reader: the record readers, and the JavaScript reader of events the tape leaves)';
  if (['json-element.js', 'json-scanner.js', 'string-end.js', 'categories.js'].includes(file)) return 'finding events and their category (kineto/json-scanner, json-element)';
  if (['trace-summary.js', 'launch-sites.js', 'name-cache.js', 'python-frames.js', 'graph-captures.js', 'trace-events.js', 'id-table.js', 'generation-facts.js', 'columns.js'].includes(file)) {
    return 'summing kept events in JavaScript (trace-summary: the op log, copies, Python frames, captures, names, the trace record columns)';
  }
  // The op log merges each device's ops as they are pushed, while the events are summed: those
  // samples go to the caller (trace-summary.js while scanning, deviceTimelines after it).
  if (file === 'timeline.js' && ['push', 'add', 'runOf', 'grow'].includes(name)) return undefined;
  if (['timeline.js', 'kineto-json.js', 'importer.js'].includes(file)) return 'after the scan (timeline, capture)';
  if (name === '(garbage collector)') return 'garbage collection';
  if (name === '(idle)' || name === '(program)') return 'idle / VM';
  return undefined;
}

const STARTING = 'process start (Node itself and this script, the floor pays it too)';
const LOADING = 'module loading (compiling the code, zod and the schemas, Node built-ins)';

/**
 * For a profile of the bundle: the source module of each line of it (ncc marks where each
 * concatenated module starts), so that a sample in the bundle goes to its stage as in the tree.
 */
function bundleModules(bundle) {
  const starts = [];
  readFileSync(bundle, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      const concatenated = /^;\/\/ CONCATENATED MODULE: (\S+)/.exec(line);
      if (concatenated) starts.push([i, concatenated[1].replace(/\.ts$/, '.js')]);
      else if (/^\/\*\*\*\/ \d+:/.test(line)) starts.push([i, 'webpack-module']);
    });
  return (line) => {
    let lo = 0;
    let hi = starts.length - 1;
    if (hi < 0 || line < starts[0][0]) return 'webpack-runtime';
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid][0] <= line) lo = mid;
      else hi = mid - 1;
    }
    return starts[lo][1];
  };
}

/**
 * Sampled time by stage: each sample to the innermost of our files on its stack (a native call to
 * its caller); a sample taken before the child began (`startedAtUs`), to process start, and one
 * before the importer's modules had loaded (`loadedAtUs`), to module loading. `bundle`: the
 * profiled code is that one file (as shipped), its lines told apart by module.
 */
function stages(dir, { startedAtUs, loadedAtUs, bundle } = {}) {
  const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const c of node.children ?? []) parent.set(c, node.id);
  const moduleAt = bundle ? bundleModules(bundle) : undefined;
  const bundleUrl = bundle ? pathToFileURL(bundle).href : undefined;
  const sums = new Map();
  let total = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i];
    at += dt;
    total += dt;
    let node = id;
    let found = at < startedAtUs ? STARTING : at < loadedAtUs ? LOADING : undefined;
    while (node !== undefined && !found) {
      const { url, functionName, lineNumber } = nodes.get(node).callFrame;
      found = stage(url === bundleUrl ? moduleAt(lineNumber) : url, functionName);
      node = parent.get(node);
    }
    found ??= 'reading the file, streams and the rest of Node (outside our files)';
    sums.set(found, (sums.get(found) ?? 0) + dt);
  });
  return { totalMs: total / 1e3, stages: [...sums].sort((a, b) => b[1] - a[1]).map(([name, us]) => ({ name, ms: us / 1e3, share: us / total })) };
}

/** One more importer run under --cpu-prof: `ours` (the compiled tree) or `shipped` (the bundle). */
function profiled(path, kind) {
  const dir = join(outDir, `kineto-floor-prof${kind === 'shipped' ? '-shipped' : ''}`);
  rmSync(dir, { recursive: true, force: true });
  const out = execFileSync(process.execPath, ['--cpu-prof', '--cpu-prof-dir', dir, fileURLToPath(import.meta.url), '--child', kind, path, buildDir], { maxBuffer: 1 << 20 });
  const { startedAtUs, loadedAtUs } = JSON.parse(out.toString());
  return stages(dir, { startedAtUs, loadedAtUs, bundle: kind === 'shipped' ? bundledImporter : undefined });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const fmt = (value, digits = 0) => value.toFixed(digits);
const load = () => loadavg().map((l) => l.toFixed(1)).join(' ');

/** The importers: the compiled tree, as shipped, and the earlier ones given. */
const IMPORTERS = ['before', 'ours', 'was', 'shipped'];

function side(path, repeat, before, beforeShipped) {
  const sizeMB = statSync(path).size / MB;
  console.log(`\n${path} (${fmt(sizeMB)} MB), alternating, ${repeat} each; load average ${load()}`);
  const kinds = ['floor', 'jsloop', 'stage1', 'tape', ...(before ? ['before'] : []), 'ours', ...(beforeShipped ? ['was'] : []), 'shipped'];
  const runs = Object.fromEntries(kinds.map((kind) => [kind, []]));
  for (let r = 0; r < repeat; r++) {
    for (const kind of kinds) {
      const run = measure(kind, path, before, beforeShipped);
      runs[kind].push(run);
      const what = kind === 'jsloop' ? `${run.quotes} quotes` : kind === 'stage1' ? `${run.positions} structural positions` : kind === 'tape' ? `${run.kernelEvents} kernel events, ${run.records} records, ${run.leftToJs} events left to JavaScript` : `${run.kernelEvents} kernel events${run.loadCpuMs === undefined ? '' : `, module loading ${fmt(run.loadCpuMs)} ms cpu`}${run.compileCache ? `, compile cache ${run.compileCache}` : ''}`;
      console.log(`   ${kind.padEnd(6)} wall ${fmt(run.wallMs)} ms, cpu ${fmt(run.cpuMs)} ms, peak RSS ${fmt(run.maxRssMB)} MB, ${what}`);
    }
  }
  // The floor counts the bytes `"kernel"`, which is every kernel event's category in these traces.
  const [f, o] = [runs.floor[0], runs.ours[0]];
  if (f.kernelEvents !== o.kernelEvents) throw new Error(`kernel events differ: byte scan ${f.kernelEvents}, importer ${o.kernelEvents}`);
  const sides = Object.fromEntries(
    kinds.map((kind) => [
      kind,
      {
        wallMs: median(runs[kind].map((r) => r.wallMs)),
        cpuMs: median(runs[kind].map((r) => r.cpuMs)),
        peakRssMB: Math.max(...runs[kind].map((r) => r.maxRssMB)),
        ...(IMPORTERS.includes(kind)
          ? {
              loadCpuMs: median(runs[kind].map((r) => r.loadCpuMs)),
              pairedWallRatio: median(runs[kind].map((r, k) => r.wallMs / runs.floor[k].wallMs)),
              pairedCpuRatio: median(runs[kind].map((r, k) => r.cpuMs / runs.floor[k].cpuMs)),
            }
          : {}),
      },
    ]),
  );
  if (runs.tape[0].kernelEvents !== f.kernelEvents) throw new Error(`kernel events differ: byte scan ${f.kernelEvents}, tape ${runs.tape[0].kernelEvents}`);
  for (const kind of kinds) if (IMPORTERS.includes(kind) && runs[kind][0].kernelNs !== o.kernelNs) throw new Error(`kernel ns differ: ${kind} ${runs[kind][0].kernelNs}, importer ${o.kernelNs}`);
  return { path, sizeMB, ...sides, ratio: sides.ours.wallMs / sides.floor.wallMs, cpuRatio: sides.ours.cpuMs / sides.floor.cpuMs, jsLoopCpuRatio: sides.jsloop.cpuMs / sides.floor.cpuMs, tapeCpuRatio: sides.tape.cpuMs / sides.floor.cpuMs, stage1CpuRatio: sides.stage1.cpuMs / sides.floor.cpuMs, shippedCpuRatio: sides.shipped.cpuMs / sides.floor.cpuMs, runs };
}

async function main() {
  const repeat = Number(option('repeat', '5'));
  const only = option('only', 'kineto,python').split(',');
  const heldOut = option('held-out', '/work/shared/fixtures/h200/hf-transformers/dense_batch32.trace.json.gz');
  const jsonOut = option('json', join(outDir, 'kineto-floor.json'));
  const before = option('before', undefined);
  const beforeShipped = option('before-shipped', undefined);
  mkdirSync(outDir, { recursive: true });
  if (process.argv.includes('--no-build')) {
    // A machine without the compilers (the GPU machine): the builds are carried, used as they are.
    for (const built of [join(buildDir, 'src'), bundledImporter, stage1Wasm]) if (!existsSync(built)) throw new Error(`--no-build: ${built} is not there`);
  } else {
    ensureBuilt();
    ensureBundled();
    stage1Module();
  }
  const traces = [];
  if (only.includes('kineto')) {
    const mb = Number(option('kineto-mb', '303'));
    const path = join(outDir, `kineto-heldout-${mb}mb.json`);
    if (!existsSync(path) && !existsSync(heldOut)) throw new Error(`${heldOut}: the held-out trace is not there (--held-out FILE)`);
    ensureTrace(path, mb, {}, heldOut, { pythonFrames: false });
    traces.push(['kineto (held-out H200, replicated)', path]);
  }
  if (only.includes('python')) {
    const mb = Number(option('python-mb', '1024'));
    const path = join(outDir, `kineto-synthetic-${mb}mb.json`);
    ensureTrace(path, mb, {}, join(root, '__tests__', 'fixtures', 'kineto', 'dense_decode.trace.json.gz'), { pythonFrames: true });
    traces.push(['synthetic with Python frames', path]);
  }
  const machine = { cpus: availableParallelism(), model: cpus()[0]?.model, node: process.version, loadAverageAtStart: load() };
  console.log(`${machine.cpus} CPUs (${machine.model}), Node ${machine.node}`);
  const results = traces.map(([label, path]) => ({ label, ...side(path, repeat, before, beforeShipped) }));
  machine.loadAverageAtEnd = load();
  console.log(`\nload average at end ${machine.loadAverageAtEnd}; medians of ${repeat} runs (wall, and CPU = user + system)\n`);
  const s = (ms) => `${fmt(ms / 1e3, 2)} s`;
  console.log(`| trace | size | floor wall (cpu) | JS byte loop cpu (× floor) | structural index alone cpu (× floor) | WebAssembly tape alone cpu (× floor) | ${before ? 'before wall (cpu) | ' : ''}profile-gate wall (cpu) | of it module loading cpu | ratio wall (cpu) | as shipped, one bundle: wall (cpu) | of it module loading cpu | ratio wall (cpu) | floor peak RSS | ${before ? 'before peak RSS | ' : ''}profile-gate peak RSS | as shipped peak RSS |`);
  console.log(`|---|---:|---:|---:|---:|---:|${before ? '---:|' : ''}---:|---:|---:|---:|---:|---:|---:|${before ? '---:|' : ''}---:|---:|`);
  for (const r of results) {
    const was = before ? `${s(r.before.wallMs)} (${s(r.before.cpuMs)}) | ` : '';
    console.log(
      `| ${r.label} | ${fmt(r.sizeMB)} MB | ${s(r.floor.wallMs)} (${s(r.floor.cpuMs)}) | ${s(r.jsloop.cpuMs)} (${fmt(r.jsLoopCpuRatio, 1)}×) | ${s(r.stage1.cpuMs)} (${fmt(r.stage1CpuRatio, 1)}×) | ${s(r.tape.cpuMs)} (${fmt(r.tapeCpuRatio, 1)}×) | ${was}${s(r.ours.wallMs)} (${s(r.ours.cpuMs)}) | ${s(r.ours.loadCpuMs)} | ${fmt(r.ratio, 1)}× (**${fmt(r.cpuRatio, 1)}×**) | ${s(r.shipped.wallMs)} (${s(r.shipped.cpuMs)}) | ${s(r.shipped.loadCpuMs)} | ${fmt(r.shipped.wallMs / r.floor.wallMs, 1)}× (**${fmt(r.shippedCpuRatio, 1)}×**) | ${fmt(r.floor.peakRssMB)} MB | ${before ? `${fmt(r.before.peakRssMB)} MB | ` : ''}${fmt(r.ours.peakRssMB)} MB | ${fmt(r.shipped.peakRssMB)} MB |`,
    );
  }
  console.log('\neach importer against the floor run just before it, median of the per-run ratios: wall (cpu)\n');
  const named = { before: 'before, compiled tree', ours: 'compiled tree', was: 'before, as shipped', shipped: 'as shipped' };
  for (const r of results) {
    const parts = IMPORTERS.filter((kind) => r[kind]).map((kind) => `${named[kind]} ${fmt(r[kind].pairedWallRatio, 2)}× (${fmt(r[kind].pairedCpuRatio, 2)}×)${kind === 'was' ? `, wall ${s(r.was.wallMs)} (${s(r.was.cpuMs)}), peak ${fmt(r.was.peakRssMB)} MB` : ''}`);
    console.log(`- ${r.label}: ${parts.join('; ')}`);
  }
  if (process.argv.includes('--profile')) {
    for (const r of results) {
      r.profile = profiled(r.path, 'ours');
      r.shippedProfile = profiled(r.path, 'shipped');
      for (const [what, p] of [['the compiled tree', r.profile], ['as shipped, one bundle', r.shippedProfile]]) {
        console.log(`\nwhere the time goes, ${r.label}, ${what} (one run under --cpu-prof, ${fmt(p.totalMs)} ms sampled; load average ${load()})\n`);
        console.log('| stage | time | share |\n|---|---:|---:|');
        for (const x of p.stages) console.log(`| ${x.name} | ${fmt(x.ms)} ms | ${fmt(100 * x.share)} % |`);
      }
    }
  }
  writeFileSync(jsonOut, `${JSON.stringify({ machine, results }, null, 2)}\n`);
}

if (process.argv[2] === '--child') await child(process.argv[3], process.argv[4], process.argv[5]);
else await main();
