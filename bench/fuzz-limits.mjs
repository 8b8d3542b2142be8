#!/usr/bin/env node
/**
 * Limits: the largest captures the gate is meant to take, each read in a fresh child process for
 * its own peak RSS (bench/peak-rss.mjs), wall and CPU time.
 *
 *  1. An nsys `cuda_gpu_kern_sum` CSV of 100,000 kernel rows (`--rows`), as nsys stats prints it,
 *     with templated C++ names of real length: ingest alone, then the whole analysis (classify,
 *     rules, report), and the sizes of report.json, the PR comment and the job summary it gives.
 *  2. A Kineto trace past 2^31 bytes (`--kineto-mb`, default 2200 MB): the real events of
 *     __tests__/fixtures/kineto/dense_decode.trace.json.gz repeated with shifted timestamps, one event
 *     per line. Goal: peak RSS under 256 MB. The kernel count is checked against repetitions × the
 *     fixture's own count, so a silently dropped chunk fails the run.
 *
 *   node bench/fuzz-limits.mjs [--rows 100000] [--kineto-mb 2200] [--skip-kineto] [--json FILE]
 * Uses the build of bench/fuzz-parsers.mjs (bench/out/fuzz-parsers, compiled on first use).
 * Generated files are kept in bench/out/ (git-ignored) and reused while their size matches.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { peakRssMB } from './peak-rss.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const outDir = join(here, 'out');
const build = join(outDir, 'fuzz-parsers');
const MB = 1e6;

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : fallback;
}

const built = (path) => pathToFileURL(join(build, path)).href;

// ---------------------------------------------------------------------------------------------
// Children

async function child(kind, path) {
  const wall0 = performance.now();
  const cpu0 = process.cpuUsage();
  const result = {};
  if (kind === 'ingest-nsys' || kind === 'ingest-kineto') {
    const { ingestFile } = await import(built('src/ingest/registry.js'));
    const capture = await ingestFile(path, kind === 'ingest-nsys' ? 'nsys-stats' : 'kineto-json');
    result.kernels = capture.kernels.length;
    result.kernelInstances = capture.kernels.reduce((n, k) => n + k.instances, 0);
    result.kernelNs = capture.kernels.reduce((n, k) => n + k.totalNs, 0);
  } else if (kind === 'analyze-nsys') {
    const { analyze } = await import(built('src/pipeline/analyze.js'));
    const { serializeReport } = await import(built('src/report/json.js'));
    const { renderReportComment } = await import(built('src/report/markdown/comment.js'));
    const { renderSummary } = await import(built('src/report/markdown/summary.js'));
    const report = await analyze({ inputs: [path] });
    const analyzedMs = performance.now() - wall0;
    result.kernels = report.kernels.length;
    result.analyzeMs = analyzedMs;
    result.reportJsonBytes = Buffer.byteLength(serializeReport(report));
    result.commentChars = renderReportComment(report, { key: 'limits' }).length;
    result.summaryBytes = Buffer.byteLength(renderSummary(report));
    result.findings = report.findings.map((f) => f.id);
  }
  const cpu = process.cpuUsage(cpu0);
  result.wallMs = performance.now() - wall0;
  result.cpuMs = (cpu.user + cpu.system) / 1e3;
  result.maxRssMB = peakRssMB();
  process.stdout.write(JSON.stringify(result));
}

function measure(kind, path) {
  const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--child', kind, path], { maxBuffer: 1 << 20 });
  return JSON.parse(out.toString());
}

// ---------------------------------------------------------------------------------------------
// Generated captures

/** nsys stats cuda_gpu_kern_sum with `rows` distinct kernels; Time (%) and the totals agree. */
function generateKernSum(path, rows) {
  const fd = openSync(path, 'w');
  writeSync(fd, 'Generating SQLite file /tmp/limits.sqlite from /tmp/limits.nsys-rep\n');
  writeSync(fd, 'Processing [/tmp/limits.sqlite] with [/opt/nvidia/nsight-systems/2025.3.1/host-linux-x64/reports/cuda_gpu_kern_sum.py]... \n');
  writeSync(fd, 'Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n');
  // Kernel i takes (rows - i) * 1000 ns over 4 instances: ordered by time, as nsys prints them.
  const totalNs = (1000 * rows * (rows + 1)) / 2;
  let batch = [];
  for (let i = 0; i < rows; i++) {
    const total = (rows - i) * 1000;
    const name = `"void at::native::elementwise_kernel<(int)128, (int)4, void at::native::gpu_kernel_impl_nocast<at::native::BinaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, at::native::binary_internal::MulFunctor<float>>>(at::TensorIteratorBase &, const T1 &)::[lambda(int) (instance ${i})]>(int, T3)"`;
    batch.push(`${((100 * total) / totalNs).toFixed(1)},${total},4,${total / 4},${total / 4},${total / 4 - 10},${total / 4 + 10},7.1,${name}\n`);
    if (batch.length === 10000) {
      writeSync(fd, batch.join(''));
      batch = [];
    }
  }
  writeSync(fd, batch.join(''));
  closeSync(fd);
  return { kernels: rows, totalNs };
}

/** The fixture's events, each split around its ts, for repeating with shifted timestamps. */
function kinetoTemplates() {
  const source = join(root, '__tests__', 'fixtures', 'kineto', 'dense_decode.trace.json.gz');
  const trace = JSON.parse(gunzipSync(readFileSync(source)).toString('utf8'));
  const events = trace.traceEvents.filter((e) => typeof e.ts === 'number' && typeof e.dur === 'number' && e.ph === 'X');
  const t0 = events.reduce((min, e) => Math.min(min, e.ts), Infinity);
  const span = events.reduce((max, e) => Math.max(max, e.ts + e.dur), -Infinity) - t0;
  const parts = events.map((e) => {
    const [pre, post] = JSON.stringify({ ...e, ts: '@TS@' }).split('"@TS@"');
    return { pre, post, offset: e.ts - t0 };
  });
  const kernelsPerRep = events.filter((e) => e.cat === 'kernel').length;
  const { traceEvents: _, ...header } = trace;
  return { parts, span, t0, header, kernelsPerRep };
}

function generateKineto(path, targetBytes, templates) {
  const { parts, span, t0, header } = templates;
  const fd = openSync(path, 'w');
  let written = 0;
  const write = (text) => {
    const bytes = Buffer.from(text);
    writeSync(fd, bytes);
    written += bytes.length;
  };
  write(`${JSON.stringify(header).slice(0, -1)},"traceEvents":[\n`);
  let reps = 0;
  let first = true;
  while (written < targetBytes) {
    const base = t0 + reps * (span + 1000);
    const batch = [];
    for (const p of parts) {
      batch.push(`${first ? '' : ',\n'}${p.pre}${(base + p.offset).toFixed(3)}${p.post}`);
      first = false;
    }
    write(batch.join(''));
    reps++;
  }
  write('\n]}\n');
  closeSync(fd);
  return { bytes: written, reps };
}

// ---------------------------------------------------------------------------------------------

async function main() {
  if (!existsSync(join(build, 'src', 'pipeline', 'analyze.js')) || !existsSync(join(build, 'src', 'report', 'markdown', 'comment.js'))) {
    execFileSync(process.execPath, [join(here, 'fuzz-parsers.mjs'), '--build-only'], { stdio: 'inherit' });
  }
  mkdirSync(outDir, { recursive: true });
  const rows = Number(option('rows', '100000'));
  const kinetoMB = Number(option('kineto-mb', '2200'));
  const results = { machine: { cpus: availableParallelism(), node: process.version, loadAverageAtStart: loadavg() } };

  const csv = join(outDir, `limits-kern-sum-${rows}.csv`);
  const generated = generateKernSum(csv, rows);
  const sizeMB = statSync(csv).size / MB;
  console.log(`1. nsys kern_sum, ${rows} kernel rows (${sizeMB.toFixed(1)} MB)`);
  const ingest = measure('ingest-nsys', csv);
  if (ingest.kernels !== generated.kernels || ingest.kernelNs !== generated.totalNs) {
    throw new Error(`nsys ingest read ${ingest.kernels} kernels / ${ingest.kernelNs} ns, expected ${generated.kernels} / ${generated.totalNs}`);
  }
  console.log(`   ingest:  wall ${(ingest.wallMs / 1e3).toFixed(2)} s, cpu ${(ingest.cpuMs / 1e3).toFixed(2)} s, peak RSS ${ingest.maxRssMB.toFixed(0)} MB; ${ingest.kernels} kernels, totals match`);
  const analysis = measure('analyze-nsys', csv);
  console.log(`   analyze: wall ${(analysis.wallMs / 1e3).toFixed(2)} s (analysis ${(analysis.analyzeMs / 1e3).toFixed(2)} s), cpu ${(analysis.cpuMs / 1e3).toFixed(2)} s, peak RSS ${analysis.maxRssMB.toFixed(0)} MB`);
  console.log(`            report.json ${(analysis.reportJsonBytes / MB).toFixed(1)} MB, comment ${analysis.commentChars} chars (limit 65536), summary ${analysis.summaryBytes} bytes (limit 1048576); findings ${analysis.findings.join(', ') || 'none'}`);
  results.nsys = { rows, sizeMB, ingest, analysis };

  if (!process.argv.includes('--skip-kineto')) {
    const trace = join(outDir, `limits-kineto-${kinetoMB}mb.json`);
    const templates = kinetoTemplates();
    let reps;
    const repsFile = `${trace}.reps`;
    if (existsSync(trace) && existsSync(repsFile) && Math.abs(statSync(trace).size - kinetoMB * MB) < 0.02 * kinetoMB * MB) {
      reps = Number(readFileSync(repsFile, 'utf8'));
    } else {
      const started = performance.now();
      ({ reps } = generateKineto(trace, kinetoMB * MB, templates));
      writeFileSync(repsFile, String(reps));
      console.log(`   generated ${trace} in ${((performance.now() - started) / 1e3).toFixed(0)} s`);
    }
    const bytes = statSync(trace).size;
    console.log(`2. Kineto trace, ${(bytes / MB).toFixed(0)} MB (${bytes > 2 ** 31 ? 'past' : 'under'} 2^31 bytes), ${reps} repetitions of dense_decode`);
    const run = measure('ingest-kineto', trace);
    const expected = reps * templates.kernelsPerRep;
    if (run.kernelInstances !== expected) throw new Error(`Kineto ingest read ${run.kernelInstances} kernel launches, expected ${expected}`);
    console.log(`   ingest:  wall ${(run.wallMs / 1e3).toFixed(1)} s (${(bytes / MB / (run.wallMs / 1e3)).toFixed(0)} MB/s), cpu ${(run.cpuMs / 1e3).toFixed(1)} s, peak RSS ${run.maxRssMB.toFixed(0)} MB (goal < 256 MB); ${run.kernelInstances} kernel launches, as generated`);
    results.kineto = { sizeMB: bytes / MB, reps, ...run, goalMet: run.maxRssMB < 256 };
  }
  results.machine.loadAverageAtEnd = loadavg();
  const json = option('json', join(outDir, 'fuzz-limits.json'));
  writeFileSync(json, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} on ${availableParallelism()} CPUs`);
}

if (process.argv[2] === '--child') await child(process.argv[3], process.argv[4]);
else await main();
