#!/usr/bin/env node
/**
 * `profile-gate dashboard` at fleet scale: a year of nightly reports of twenty workloads (7,300
 * report.json files) of 5,000 kernels each, read from disk into the page, three ways, each in a
 * child process of its own (the peak RSS reported is the child's):
 *
 * - today: `dashboard --out SITE DIR`, every report read and summarised every night;
 * - scratch: `dashboard --out SITE --history STORE DIR`, the history store built from nothing;
 * - night: `dashboard --out SITE --history STORE NEW`, one night's new reports (one per workload) on
 *   top of that store, as the nightly job runs once the store exists. With --store-reports N the
 *   store is first grown to N summaries (copies of the built ones on later dates), so the nightly
 *   increment is measured at full scale when the folder itself is smaller.
 *
 * The sources (src/cli/dashboard-command.ts and what it imports) are compiled with tsc into
 * bench/out/dashboard-scale on first use and again when src/ changed; the reports are written to bench/out/dashboard-reports
 * (git-ignored) and reused while their count and size match.
 *
 *   node bench/dashboard-scale.mjs [--workloads 20] [--nights 365] [--kernels 5000] [--store-reports 7300]
 *     [--only today,scratch,night] [--today-build DIR] [--json bench/out/dashboard-scale.json]
 *
 * --today-build DIR: the `today` reading from another compiled tree (bench/out/… of an earlier
 * commit, compiled with this tsconfig), to put the path before the store side by side.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { peakRssMB } from './peak-rss.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const outDir = join(here, 'out');
// --build DIR: another compiled tree (e.g. an earlier commit's) for the `today` reading.
const buildAt = process.argv.indexOf('--build');
const buildDir = buildAt >= 0 ? process.argv[buildAt + 1] : join(outDir, 'dashboard-scale');
const reportsDir = join(outDir, 'dashboard-reports');
const newDir = join(outDir, 'dashboard-reports-new');
const storePath = join(outDir, 'dashboard-history.ndjson');
const nightStore = join(outDir, 'dashboard-history-night.ndjson');

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : fallback;
}

if (process.argv[2] === '--child') {
  // The measured build: the CLI command as a user runs it.
  const { runDashboardCommand } = await import(pathToFileURL(join(buildDir, 'src', 'cli', 'dashboard-command.js')).href);
  const mode = process.argv[3];
  const site = join(outDir, `dashboard-site-${mode}`);
  const argv = {
    today: ['--out', site, reportsDir, newDir],
    scratch: ['--out', site, '--history', storePath, reportsDir],
    night: ['--out', site, '--history', nightStore, newDir],
  }[mode];
  const started = performance.now();
  const code = await runDashboardCommand(argv, {});
  const wallS = (performance.now() - started) / 1000;
  process.stderr.write(`${JSON.stringify({ code, wallS, peakRssMb: peakRssMB() })}\n`);
  process.exit(0);
}

const workloadCount = Number(option('workloads', 20));
const nights = Number(option('nights', 365));
const reports = workloadCount * nights;
const kernels = Number(option('kernels', 5000));
const storeReports = Number(option('store-reports', 0));
const only = option('only', 'today,scratch,night').split(',');

/** Newest .ts under src/: the build is redone when the sources changed after it. */
function newestSource(dir) {
  let newest = 0;
  for (const name of readdirSync(dir, { recursive: true })) if (String(name).endsWith('.ts')) newest = Math.max(newest, statSync(join(dir, String(name))).mtimeMs);
  return newest;
}

const builtCommand = join(buildDir, 'src', 'cli', 'dashboard-command.js');
if (!existsSync(builtCommand) || (buildAt < 0 && statSync(builtCommand).mtimeMs < newestSource(join(root, 'src')))) {
  execFileSync(join(root, 'node_modules', '.bin', 'tsc'), ['-p', join(here, 'dashboard-scale.tsconfig.json')], { stdio: 'inherit' });
}

const stamp = join(reportsDir, `.made-${workloadCount}x${nights}x${kernels}`);
if (!existsSync(stamp)) {
  rmSync(reportsDir, { recursive: true, force: true });
  rmSync(newDir, { recursive: true, force: true });
  mkdirSync(reportsDir, { recursive: true });
  mkdirSync(newDir, { recursive: true });
  const { serializeReport } = await import(pathToFileURL(join(buildDir, 'src', 'report', 'json.js')).href);
  const { REPORT_SCHEMA_VERSION, ReportSchema } = await import(pathToFileURL(join(buildDir, 'src', 'model', 'report.js')).href);
  const models = ['llama-3.1-8b', 'llama-3.1-70b', 'mistral-7b', 'qwen2.5-14b', 'gemma-2-9b'];
  const gpus = ['H200', 'H100', 'MI300X', 'L40S'];
  const workloads = Array.from({ length: workloadCount }, (_, w) => `${models[w % models.length]} · ${gpus[Math.floor(w / models.length) % gpus.length]} · bs${1 << Math.floor(w / 20)}`);
  const families = ['gemm', 'attention-fused', 'norm', 'elementwise', 'memcpy'];
  const total = 2e9;
  const weights = Array.from({ length: kernels }, (_, i) => kernels - i);
  const weightSum = weights.reduce((a, b) => a + b, 0);
  // The year, then the next night (one report per workload) in a folder of its own.
  for (let r = 0; r < reports + workloadCount; r += 1) {
    const night = Math.floor(r / workloads.length);
    const workload = workloads[r % workloads.length];
    const time = new Date(Date.parse('2025-12-01T03:17:00Z') + night * 86_400_000).toISOString();
    const level = 1500 * (1 + 0.004 * Math.sin(night + r));
    const list = weights.map((w, i) => ({
      // Demangled-length names: what makes real reports of thousands of kernels large.
      name: `void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::lambda_${i}>>(int, T)`,
      family: families[i % families.length],
      totalNs: Math.round((w / weightSum) * total),
      instances: 64,
      share: w / weightSum,
    }));
    const report = ReportSchema.parse({
      schemaVersion: REPORT_SCHEMA_VERSION,
      tool: { name: 'profile-gate', version: '0.1.0' },
      generatedAt: time,
      run: { workload, commit: (r % 16).toString(16).repeat(40), runId: String(100000 + night), timestamp: time, repository: 'octo/gpu-app' },
      environment: { gpuName: 'NVIDIA H200', model: workload, vendor: 'nvidia' },
      sources: [{ path: 'decode.trace.json', format: 'kineto-json', parts: [], stats: [] }],
      totalKernelNs: total,
      kernels: list,
      families: families.map((family) => {
        const inside = list.filter((k) => k.family === family);
        const ns = inside.reduce((a, k) => a + k.totalNs, 0);
        return { family, totalNs: ns, share: ns / total, kernels: inside.length, instances: inside.length * 64 };
      }),
      metrics: [{ name: 'decode_tok_s', unit: 'tok/s', direction: 'higher', samples: Array.from({ length: 10 }, (_, i) => level * (1 + 0.002 * Math.cos(i + r))), value: level }],
      utilization: null,
      timeline: null,
      gpuTimeUtilPercent: null,
      memops: [],
      apiCalls: [],
      cpuFunctions: [],
      notices: [],
      deepDive: [],
      findings: [],
      verdict: 'pass',
      // A pass: nothing decided it (src/model/decision.ts); no policy recorded.
      decision: { causes: [], policy: null },
      comparison: null,
    });
    const folder = join(r < reports ? reportsDir : newDir, `n${r}`);
    mkdirSync(folder);
    writeFileSync(join(folder, 'report.json'), serializeReport(report));
  }
  writeFileSync(stamp, '');
}

const folders = readdirSync(reportsDir).filter((name) => name.startsWith('n'));
const bytes = folders.reduce((sum, name) => sum + statSync(join(reportsDir, name, 'report.json')).size, 0);

function measure(mode) {
  const load = loadavg()[0];
  const build = mode === 'today' && option('today-build') ? ['--build', option('today-build')] : [];
  const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', mode, ...build], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const last = child.stderr.trim().split('\n').at(-1) ?? '';
  try {
    return { ...JSON.parse(last), loadAverage: load, stdout: child.stdout.trim() };
  } catch {
    process.stderr.write(`the ${mode} build did not finish (exit ${child.status}, signal ${child.signal}):\n${child.stderr.slice(-2000)}\n`);
    process.exit(1);
  }
}

/** Grows the built store to `count` summaries: copies of its lines, a year later each time, named apart. */
function growStore(from, to, count) {
  const lines = readFileSync(from, 'utf8').trim().split('\n');
  const out = [];
  for (let i = 0; out.length < count; i += 1) {
    const copy = Math.floor(i / lines.length);
    const summary = JSON.parse(lines[i % lines.length]);
    if (copy > 0) {
      const shift = (t) => (t ? new Date(Date.parse(t) - copy * 366 * 86_400_000).toISOString() : t);
      summary.id = `${summary.id}#${copy}`;
      summary.generatedAt = shift(summary.generatedAt);
      summary.run = { ...summary.run, runId: `${summary.run.runId}-${copy}`, timestamp: shift(summary.run.timestamp) };
    }
    out.push(JSON.stringify(summary));
  }
  writeFileSync(to, `${out.join('\n')}\n`);
  return out.length;
}

const results = { workloads: workloadCount, reports: folders.length, kernelsPerReport: kernels, reportBytes: bytes, node: process.version };
const line = (mode, r, what) =>
  process.stdout.write(`${mode}: ${what}: exit ${r.code}, ${r.wallS.toFixed(1)} s, peak RSS ${r.peakRssMb.toFixed(0)} MB (load ${r.loadAverage.toFixed(1)})\n`);
if (only.includes('today')) {
  results.today = measure('today');
  line('today', results.today, `${folders.length} + ${workloadCount} reports read from folders (${(bytes / 1e9).toFixed(2)} GB)`);
}
if (only.includes('scratch') || !existsSync(storePath)) {
  rmSync(storePath, { force: true });
  results.scratch = measure('scratch');
  line('scratch', results.scratch, `${folders.length} reports summarised into a new store`);
}
if (only.includes('night')) {
  const held = storeReports > 0 ? growStore(storePath, nightStore, storeReports) : (copyFileSync(storePath, nightStore), readFileSync(storePath, 'utf8').trim().split('\n').length);
  results.storeReports = held;
  results.storeBytes = statSync(nightStore).size;
  results.night = measure('night');
  line('night', results.night, `${workloadCount} new reports on a store of ${held} (${(results.storeBytes / 1e6).toFixed(1)} MB)`);
}
const jsonOut = option('json');
if (jsonOut) writeFileSync(jsonOut, `${JSON.stringify(results, null, 2)}\n`);
