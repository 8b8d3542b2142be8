/**
 * Shared by the Kineto benchmarks: the importer's tsc build (bench/out/kineto-ingest) and synthetic
 * PyTorch profiler traces written by repeating the events of a real trace with shifted timestamps,
 * in PyTorch's own pretty-printed layout, with a `ProfilerStep#N` per repetition.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
export const outDir = join(here, 'out');
export const buildDir = join(outDir, 'kineto-ingest');
export const builtImporter = join(buildDir, 'src', 'ingest', 'formats', 'kineto-json.js');
const MB = 1e6;

const PYTHON_FUNCTIONS = [
  'torch/nn/modules/module.py(1784): _call_impl',
  'torch/nn/modules/module.py(1773): _wrapped_call_impl',
  'transformers/models/llama/modeling_llama.py(338): forward',
  'torch/nn/modules/linear.py(125): forward',
  'torch/utils/_contextlib.py(120): decorate_context',
];

const round3 = (value) => Math.round(value * 1000) / 1000;

/** One event as PyTorch's exporter lays it out, split around the ts value. */
function template(event, t0) {
  const fields = Object.keys(event)
    .filter((key) => key !== 'args')
    .map((key) => (key === 'ts' ? '"ts": \u0000' : `${JSON.stringify(key)}: ${JSON.stringify(event[key])}`));
  let text = `  {\n    ${fields.join(', ')}`;
  if (event.args) {
    const args = Object.entries(event.args).map(([key, value]) => `${JSON.stringify(key)}: ${JSON.stringify(value)}`);
    text += `,\n    "args": {\n      ${args.join(', ')}\n    }`;
  }
  const [pre, post] = `${text}\n  }`.split('\u0000');
  return { pre, post, offset: event.ts - t0 };
}

/**
 * The event shapes of a gzipped Kineto trace (complete events and flows). `pythonFrames`: two
 * `python_function` events added around each `cpu_op` (the `with_stack` mix).
 */
export function templates(source, { pythonFrames }) {
  const trace = JSON.parse(gunzipSync(readFileSync(source)).toString('utf8'));
  const events = trace.traceEvents.filter((e) => typeof e.ts === 'number' && (e.ph === 'X' || e.ph === 'f' || e.ph === 's'));
  const t0 = events.reduce((min, e) => Math.min(min, e.ts), Infinity);
  const span = events.reduce((max, e) => Math.max(max, e.ts + (e.dur ?? 0)), -Infinity) - t0;
  const out = [];
  let pythonId = 1;
  for (const event of events) {
    if (pythonFrames && event.cat === 'cpu_op') {
      for (let depth = 0; depth < 2; depth++) {
        const name = PYTHON_FUNCTIONS[(pythonId + depth) % PYTHON_FUNCTIONS.length];
        const python = { ph: 'X', cat: 'python_function', name, pid: event.pid, tid: event.tid, ts: event.ts - 0.4 + depth * 0.2, dur: round3(event.dur + 0.8 - depth * 0.4) };
        python.args = { 'Python parent id': pythonId - 1, 'Python id': pythonId, 'Python thread': 0 };
        pythonId++;
        out.push(template(python, t0));
      }
    }
    out.push(template(event, t0));
  }
  const { traceEvents: _, traceName: __, ...header } = trace;
  return { templates: out, span, t0, header };
}

function generate(path, targetBytes, shapes) {
  const { templates: list, span, t0, header } = shapes;
  const fd = openSync(path, 'w');
  const head = JSON.stringify(header, null, 2).replace(/\n}$/, ',\n  "traceEvents": [\n');
  let written = 0;
  let batch = [head];
  let batchBytes = head.length;
  const flush = () => {
    const bytes = Buffer.from(batch.join(''));
    writeSync(fd, bytes);
    written += bytes.length;
    batch = [];
    batchBytes = 0;
  };
  let first = true;
  for (let rep = 0; written + batchBytes < targetBytes; rep++) {
    const base = t0 + rep * (span + 1000);
    const step = template({ ph: 'X', cat: 'user_annotation', name: `ProfilerStep#${rep}`, pid: 469, tid: 469, ts: base, dur: round3(span), args: { 'External id': rep } }, base);
    for (const t of [step, ...list]) {
      const text = `${first ? '' : ',\n'}${t.pre}${(base + t.offset).toFixed(3)}${t.post}`;
      first = false;
      batch.push(text);
      batchBytes += text.length;
      if (batchBytes > 8 * MB) flush();
      if (written + batchBytes >= targetBytes) break;
    }
  }
  batch.push('\n  ],\n  "traceName": "synthetic"\n}\n');
  flush();
  closeSync(fd);
  return written;
}

/** Writes the trace unless a file of about that size is there; `shapes.value` caches templates(). */
export function ensureTrace(path, targetMB, shapes, source, options) {
  const target = targetMB * MB;
  if (existsSync(path) && Math.abs(statSync(path).size - target) < 0.02 * target) return false;
  const started = performance.now();
  shapes.value ??= templates(source, options);
  const bytes = generate(path, target, shapes.value);
  console.log(`generated ${path} (${(bytes / MB).toFixed(0)} MB) in ${((performance.now() - started) / 1e3).toFixed(1)} s`);
  return true;
}

function newestMtime(dir) {
  let newest = 0;
  for (const name of readdirSync(dir, { recursive: true })) if (String(name).endsWith('.ts')) newest = Math.max(newest, statSync(join(dir, String(name))).mtimeMs);
  return newest;
}

/** Compiles the importer with tsc when src/ingest or src/model changed since the last build. */
/** The importer bundled as the CLI and the action ship it (one ncc file), for the `shipped` runs. */
export const bundleDir = join(outDir, 'kineto-bundle');
export const bundledImporter = join(bundleDir, 'index.js');

/** Bundles the importer's entry points with ncc, as `npm run build` bundles dist/, when src is newer. */
export function ensureBundled() {
  const sources = Math.max(newestMtime(join(root, 'src', 'ingest')), newestMtime(join(root, 'src', 'model')));
  if (existsSync(bundledImporter) && statSync(bundledImporter).mtimeMs >= sources) return;
  const entry = join(outDir, 'kineto-bundle-entry.ts');
  writeFileSync(
    entry,
    [
      "export { default as kineto } from '../../src/ingest/formats/kineto-json.js';",
      "export { runImporter } from '../../src/ingest/common/importer.js';",
      "export { openInput } from '../../src/ingest/common/input-file.js';",
      '',
    ].join('\n'),
  );
  execFileSync(join(root, 'node_modules', '.bin', 'ncc'), ['build', entry, '-o', bundleDir, '-q'], { stdio: 'inherit' });
}

export function ensureBuilt() {
  const sources = Math.max(newestMtime(join(root, 'src', 'ingest')), newestMtime(join(root, 'src', 'model')));
  if (existsSync(builtImporter) && statSync(builtImporter).mtimeMs >= sources) return;
  execFileSync(join(root, 'node_modules', '.bin', 'tsc'), ['-p', join(here, 'kineto-ingest.tsconfig.json')], { stdio: 'inherit' });
}

/**
 * The byte-scan floor: the least any reader of the file does (1 MiB reads into one buffer,
 * `indexOf('"kernel"')` counted over each, a needle across two reads found once).
 */
export function floor(path) {
  const needle = Buffer.from('"kernel"');
  const buffer = Buffer.allocUnsafe(1 << 20);
  const fd = openSync(path, 'r');
  let count = 0;
  let carry = 0; // bytes of the previous read kept at the front, so a needle across reads is found
  for (;;) {
    const read = readSync(fd, buffer, carry, buffer.length - carry, null);
    if (read === 0) break;
    const end = carry + read;
    let at = buffer.indexOf(needle, 0);
    while (at >= 0 && at + needle.length <= end) {
      count++;
      at = buffer.indexOf(needle, at + needle.length);
    }
    carry = Math.min(needle.length - 1, end);
    buffer.copy(buffer, 0, end - carry, end);
  }
  closeSync(fd);
  return { kernelEvents: count };
}

/**
 * The events of one chunk in the tape's memory (`b`, `n` bytes) from `p`, by the WebAssembly tape
 * alone: scan() over each run of plain events, `onRecords(records, count)` told of each scan's
 * records; an event the tape leaves is passed over by its brackets (`onLeft(start, end)`). Returns
 * where an event cut by the chunk's end starts (the caller carries it to the next chunk), or -1.
 */
export function tapeChunk(tape, b, p, n, onRecords, onLeft) {
  for (;;) {
    while (p < n && (b[p] === 0x20 || b[p] === 0x0a || b[p] === 0x0d || b[p] === 0x09 || b[p] === 0x2c)) p++;
    if (p >= n || b[p] !== 0x7b) return -1; // the end of the array (or of the chunk)
    p = tape.scan(p);
    onRecords(tape.records, tape.count);
    if (tape.stoppedAfterEvent) continue;
    const end = valueEnd(b, p, n);
    if (end < 0) return p;
    onLeft(p, end);
    p = end;
  }
}

/** Where the JSON value opening at `p` ends (a bracket count over strings), or -1 past `n`. */
export function valueEnd(b, p, n) {
  let depth = 0;
  for (let q = p; q < n; q++) {
    const c = b[q];
    if (c === 0x22) {
      for (q++; q < n && b[q] !== 0x22; q++) if (b[q] === 0x5c) q++;
    } else if (c === 0x7b || c === 0x5b) depth++;
    else if ((c === 0x7d || c === 0x5d) && --depth === 0) return q + 1;
  }
  return -1;
}
