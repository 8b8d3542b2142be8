#!/usr/bin/env node
/**
 * `profile-gate dashboard DIR` at the documented scale: a year of nightly reports of five
 * workloads (1,825 report.json files) of 5,000 kernels each, read from disk into the page. The
 * sources (src/cli/dashboard-command.ts and what it imports) are compiled with tsc into
 * bench/out/dashboard-scale on first use; the reports are written to bench/out/dashboard-reports
 * (git-ignored) and reused while their count and size match. The build runs in a child process,
 * so the peak RSS reported is its own.
 *
 *   node bench/dashboard-scale.mjs [--reports 1825] [--kernels 5000] [--json bench/out/dashboard-scale.json]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const outDir = join(here, 'out');
const buildDir = join(outDir, 'dashboard-scale');
const reportsDir = join(outDir, 'dashboard-reports');

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : fallback;
}

if (process.argv[2] === '--child') {
  // The measured build: the CLI command as a user runs it, on the folder of reports.
  const { runDashboardCommand } = await import(pathToFileURL(join(buildDir, 'src', 'cli', 'dashboard-command.js')).href);
  const started = performance.now();
  const code = await runDashboardCommand(['--out', join(outDir, 'dashboard-site'), reportsDir], {});
  const wallS = (performance.now() - started) / 1000;
  process.stderr.write(`${JSON.stringify({ code, wallS, peakRssMb: process.resourceUsage().maxRSS / 1024 })}\n`);
  process.exit(0);
}

const reports = Number(option('reports', 1825));
const kernels = Number(option('kernels', 5000));

if (!existsSync(join(buildDir, 'src', 'cli', 'dashboard-command.js'))) {
  execFileSync(join(root, 'node_modules', '.bin', 'tsc'), ['-p', join(here, 'dashboard-scale.tsconfig.json')], { stdio: 'inherit' });
}

const stamp = join(reportsDir, `.made-${reports}x${kernels}`);
if (!existsSync(stamp)) {
  rmSync(reportsDir, { recursive: true, force: true });
  mkdirSync(reportsDir, { recursive: true });
  const { serializeReport } = await import(pathToFileURL(join(buildDir, 'src', 'report', 'json.js')).href);
  const { REPORT_SCHEMA_VERSION, ReportSchema } = await import(pathToFileURL(join(buildDir, 'src', 'model', 'report.js')).href);
  const workloads = ['llama-3.1-8b', 'llama-3.1-70b', 'mistral-7b', 'qwen2.5-14b', 'gemma-2-9b'];
  const families = ['gemm', 'attention-fused', 'norm', 'elementwise', 'memcpy'];
  const total = 2e9;
  const weights = Array.from({ length: kernels }, (_, i) => kernels - i);
  const weightSum = weights.reduce((a, b) => a + b, 0);
  for (let r = 0; r < reports; r += 1) {
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
      comparison: null,
    });
    mkdirSync(join(reportsDir, `n${r}`));
    writeFileSync(join(reportsDir, `n${r}`, 'report.json'), serializeReport(report));
  }
  writeFileSync(stamp, '');
}

const folders = readdirSync(reportsDir).filter((name) => name.startsWith('n'));
const bytes = folders.reduce((sum, name) => sum + statSync(join(reportsDir, name, 'report.json')).size, 0);
const load = loadavg()[0];
const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child'], { encoding: 'utf8', maxBuffer: 1 << 26 });
const last = child.stderr.trim().split('\n').at(-1) ?? '';
let measured;
try {
  measured = JSON.parse(last);
} catch {
  process.stderr.write(`the build did not finish (exit ${child.status}, signal ${child.signal}):\n${child.stderr.slice(-2000)}\n`);
  process.exit(1);
}
const result = { reports: folders.length, kernelsPerReport: kernels, reportBytes: bytes, ...measured, loadAverage: load, node: process.version };
process.stdout.write(`${child.stdout.trim()}\n`);
process.stdout.write(
  `dashboard DIR: ${result.reports} reports of ${kernels} kernels (${(bytes / 1e9).toFixed(2)} GB): exit ${result.code}, ${result.wallS.toFixed(1)} s, peak RSS ${result.peakRssMb.toFixed(0)} MB (load ${load.toFixed(1)})\n`,
);
const jsonOut = option('json');
if (jsonOut) writeFileSync(jsonOut, `${JSON.stringify(result, null, 2)}\n`);
