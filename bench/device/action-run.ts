/**
 * The bundled action (dist/index.js) run for real on a GPU machine, as a runner would run it:
 * INPUT_* variables, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_EVENT_PATH, and the project's own
 * loopback GitHub REST + artifact service (__tests__/helpers/fake-github.ts). Three jobs in a row:
 *   1. a push on main, mode run, fused attention: uploads the baseline report artifact;
 *   2. a pull request, same workload, baseline: artifact (an A/A comparison on the real GPU);
 *   3. a pull request whose workload runs attention unfused, baseline: artifact.
 * Then two A/B jobs (base-workdir: a second checkout whose `.ab-attention` file says sdpa; the head's
 * says what the job names), base and head runs interleaved on the GPU in one job:
 *   4. a pull request, head fused as well (A/A within one job);
 *   5. a pull request, head unfused.
 * Usage (from the repository root): node <bundle> OUT_DIR [JOB-NUMBERS, e.g. 4,5]
 * Built with: npx ncc build bench/device/action-run.ts -o .devicebuild -q
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { FakeGitHub, runtimeToken } from '../../__tests__/helpers/fake-github.js';

const ROOT = process.cwd();
const OUT = resolve(process.argv[2] ?? 'action-run-out');
const WORKLOAD = 'python3 python/workloads/llama_decode.py --steps 256 --repeats 3 --warmup 16';
const REPOSITORY = { full_name: 'octo/gpu-app', default_branch: 'main' };

interface Job {
  name: string;
  runId: number;
  eventName: string;
  event: object;
  ref: string;
  attention: 'sdpa' | 'unfused';
  baseline: string;
  /** A/B: the base checkout's attention. */
  baseAttention?: 'sdpa' | 'unfused';
}

const prEvent = (number: number, sha: string) => ({ pull_request: { number, head: { sha: sha.repeat(40), repo: { full_name: 'octo/gpu-app' } } }, repository: REPOSITORY });

const JOBS: Job[] = [
  { name: '1-push-main', runId: 100, eventName: 'push', event: { repository: REPOSITORY }, ref: 'refs/heads/main', attention: 'sdpa', baseline: '' },
  {
    name: '2-pr-same',
    runId: 200,
    eventName: 'pull_request',
    event: { pull_request: { number: 7, head: { sha: 'a'.repeat(40), repo: { full_name: 'octo/gpu-app' } } }, repository: REPOSITORY },
    ref: 'refs/pull/7/merge',
    attention: 'sdpa',
    baseline: 'artifact',
  },
  {
    name: '3-pr-unfused',
    runId: 300,
    eventName: 'pull_request',
    event: { pull_request: { number: 8, head: { sha: 'b'.repeat(40), repo: { full_name: 'octo/gpu-app' } } }, repository: REPOSITORY },
    ref: 'refs/pull/8/merge',
    attention: 'unfused',
    baseline: 'artifact',
  },
  { name: '4-ab-same', runId: 400, eventName: 'pull_request', event: prEvent(9, 'd'), ref: 'refs/pull/9/merge', attention: 'sdpa', baseline: 'ab', baseAttention: 'sdpa' },
  { name: '5-ab-unfused', runId: 500, eventName: 'pull_request', event: prEvent(10, 'e'), ref: 'refs/pull/10/merge', attention: 'unfused', baseline: 'ab', baseAttention: 'sdpa' },
];

/** A second checkout for the A/B jobs: the same workload code, its own attention setting. */
function baseCheckout(attention: string): string {
  const dir = join(ROOT, '.ab-base');
  mkdirSync(dir, { recursive: true });
  if (!existsSync(join(dir, 'python'))) symlinkSync(join(ROOT, 'python'), join(dir, 'python'));
  writeFileSync(join(dir, '.ab-attention'), `${attention}\n`);
  return dir;
}

async function runJob(fake: FakeGitHub, job: Job): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), `pg-${job.name}-`));
  const files = { output: join(dir, 'output'), summary: join(dir, 'summary.md'), event: join(dir, 'event.json') };
  writeFileSync(files.output, '');
  writeFileSync(files.summary, '');
  writeFileSync(files.event, JSON.stringify(job.event));
  // A/B: the attention comes from the checkout the command runs in, as a code change would.
  if (job.baseAttention) writeFileSync(join(ROOT, '.ab-attention'), `${job.attention}\n`);
  const attention = job.baseAttention ? '"$(cat .ab-attention)"' : job.attention;
  const workload = `${WORKLOAD} --attention ${attention} --out /tmp/wl-${job.name}`;
  const inputs: Record<string, string> = {
    mode: 'run',
    engine: 'command',
    model: 'llama-style-2.8b-random',
    run: workload,
    'profile-run': `${workload} --repeats 1 --profile cuda-range --profile-steps 8`,
    'warmup-runs': '1',
    runs: job.baseAttention ? '5' : '3',
    ...(job.baseAttention ? { 'base-workdir': baseCheckout(job.baseAttention) } : {}),
    'deep-dive': 'auto',
    'timeout-minutes': '8',
    ...(job.baseAttention ? { 'timeout-minutes': '9' } : {}),
    key: 'llama-h200',
    baseline: job.baseline,
    comment: 'always',
    'github-token': 'ghs_device_run_token',
    'report-dir': join(dir, 'profile-gate'),
  };
  const env: Record<string, string> = {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: process.env['HOME'] ?? '/root',
    ...(process.env['LD_LIBRARY_PATH'] ? { LD_LIBRARY_PATH: process.env['LD_LIBRARY_PATH'] } : {}),
    ...Object.fromEntries(Object.entries(inputs).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v])),
    GITHUB_OUTPUT: files.output,
    GITHUB_STEP_SUMMARY: files.summary,
    GITHUB_EVENT_PATH: files.event,
    GITHUB_EVENT_NAME: job.eventName,
    GITHUB_API_URL: fake.baseUrl,
    GITHUB_REPOSITORY: 'octo/gpu-app',
    GITHUB_RUN_ID: String(job.runId),
    GITHUB_RUN_ATTEMPT: '1',
    GITHUB_JOB: 'gpu',
    GITHUB_SHA: 'f'.repeat(40),
    GITHUB_REF: job.ref,
    GITHUB_WORKFLOW_REF: 'octo/gpu-app/.github/workflows/gpu.yml@refs/heads/main',
    GITHUB_WORKSPACE: ROOT,
    RUNNER_TEMP: dir,
    ACTIONS_RUNTIME_TOKEN: runtimeToken(job.runId),
    ACTIONS_RESULTS_URL: `${fake.baseUrl}/`,
  };
  const started = Date.now();
  const child = spawn(process.execPath, [join(ROOT, 'dist', 'index.js')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr.on('data', (d: Buffer) => (log += d.toString()));
  const code = await new Promise<number | null>((done) => child.on('close', done));
  const seconds = (Date.now() - started) / 1000;
  const jobOut = join(OUT, job.name);
  mkdirSync(jobOut, { recursive: true });
  writeFileSync(join(jobOut, 'log.txt'), log);
  writeFileSync(join(jobOut, 'summary.md'), readFileSync(files.summary));
  writeFileSync(join(jobOut, 'outputs.txt'), readFileSync(files.output));
  let report: {
    verdict?: string;
    metrics?: Array<{ name: string; value: number; samples: number[] }>;
    findings?: Array<{ id: string }>;
    comparison?: { baseline: { origin: string }; rows: Array<{ metric: string; baseline: number | null; current: number | null; delta: number | null; ci: [number, number] | null; status: string; samples?: [number, number]; note?: string }> } | null;
  } = {};
  try {
    report = JSON.parse(readFileSync(join(dir, 'profile-gate', 'report.json'), 'utf8'));
    writeFileSync(join(jobOut, 'report.json'), JSON.stringify(report, null, 2));
  } catch {
    // no report: the log says why
  }
  if (job.baseline === '') fake.runs.push({ id: job.runId, event: 'push', status: 'completed', conclusion: 'success', head_branch: 'main', head_sha: 'c'.repeat(40), workflow: 'gpu.yml' });
  const decode = report.metrics?.find((m) => m.name === 'decode_tok_s');
  return {
    job: job.name,
    exitCode: code,
    seconds,
    verdict: report.verdict,
    decodeTokS: decode?.value,
    decodeSamples: decode?.samples.length,
    findings: report.findings?.map((f) => f.id),
    baselineOrigin: report.comparison?.baseline.origin,
    decodeRow: report.comparison?.rows.find((r) => r.metric === 'decode_tok_s'),
    artifacts: fake.artifactsOfRun(job.runId).map((a) => a.name),
    // The runner masks the token after `::add-mask::`; anywhere else it would leak.
    tokenInLog: log.split('\n').some((line) => !line.startsWith('::add-mask::') && line.includes('ghs_device_run_token')),
  };
}

const fake = await new FakeGitHub('octo/gpu-app').start();
mkdirSync(OUT, { recursive: true });
const results = [];
try {
  const only = process.argv[3]?.split(',');
  for (const job of JOBS.filter((j) => !only || only.includes(j.name.split('-')[0]!))) {
    const result = await runJob(fake, job);
    results.push(result);
    console.log(JSON.stringify(result));
  }
  const comments = [7, 8, 9, 10].map((pr) => ({ pr, comments: fake.commentsOn(pr).map((c) => ({ author: c.user.login, chars: c.body.length, head: c.body.split('\n').slice(0, 3).join(' / ') })) }));
  writeFileSync(join(OUT, 'results.json'), JSON.stringify({ results, comments }, null, 2));
  console.log(JSON.stringify(comments));
} finally {
  await fake.stop();
}
