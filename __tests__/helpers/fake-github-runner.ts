/**
 * Runs the bundled action (dist/index.js) the way the runner does: a fresh process with an empty
 * environment plus INPUT_* (action.yml defaults applied, hyphens kept), the file commands
 * (GITHUB_OUTPUT, GITHUB_STEP_SUMMARY), the event payload and the service URLs of the fake.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { FakeGitHub, runtimeToken } from './fake-github.js';

export const ROOT = resolve(import.meta.dirname, '..', '..');
export const ACTION_ENTRY = join(ROOT, 'dist', 'index.js');

/** The event of a same-repository pull request (#7) on octo/gpu-app, as the runner writes it. */
export const PR_EVENT = {
  pull_request: { number: 7, head: { sha: 'a'.repeat(40), repo: { full_name: 'octo/gpu-app' } } },
  repository: { full_name: 'octo/gpu-app', default_branch: 'main' },
};

/** Input defaults from action.yml, as the runner would apply them. */
export function actionDefaults(token: string): Record<string, string> {
  const lines = readFileSync(join(ROOT, 'action.yml'), 'utf8').split('\n');
  const defaults: Record<string, string> = {};
  let inInputs = false;
  let current: string | undefined;
  for (const line of lines) {
    if (/^\S/.test(line)) inInputs = line.startsWith('inputs:');
    if (!inInputs) continue;
    const name = /^ {2}([a-z0-9-]+):\s*$/.exec(line);
    if (name) current = name[1];
    const value = /^ {4}default:\s*(.*)$/.exec(line);
    if (value && current) defaults[current] = value[1]!.replace(/^'(.*)'$/, '$1').replace('${{ github.token }}', token);
  }
  return defaults;
}

export interface RunOptions {
  fake: FakeGitHub;
  inputs: Record<string, string>;
  event?: object;
  /** The event file's text as given (for a broken one); wins over `event`. */
  rawEvent?: string;
  eventName?: string;
  runId?: number;
  runAttempt?: number;
  job?: string;
  token?: string;
  /** Working directory (GITHUB_WORKSPACE); a fresh one when absent. */
  workspace?: string;
  env?: Record<string, string>;
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
  workspace: string;
  /** The workflow command lines (`::warning …::`, `::error …::`, `::notice …::`) printed. */
  commands: string[];
}

/** stderr less the one warning a dependency prints (unzip-stream's `new Buffer()`, DEP0005). */
export function stderrBesidesKnownNoise(stderr: string): string {
  return stderr
    .split('\n')
    .filter((l) => !/\[DEP0005\] DeprecationWarning: Buffer\(\) is deprecated/.test(l) && !l.startsWith('(Use `node --trace-deprecation'))
    .join('\n')
    .trim();
}

/** Parse `name<<delimiter\nvalue\ndelimiter` blocks of a GITHUB_OUTPUT file. */
export function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^([^<]+)<<(.+)$/.exec(lines[i]!);
    if (!m) continue;
    const value: string[] = [];
    for (i++; i < lines.length && lines[i] !== m[2]; i++) value.push(lines[i]!);
    outputs[m[1]!] = value.join('\n');
  }
  return outputs;
}

/** The run as GitHub records it when it starts: event, branch, workflow file, head repository. */
export function registerRun(options: RunOptions, runId: number, env: Record<string, string>): void {
  const eventName = env['GITHUB_EVENT_NAME']!;
  const event = (options.event ?? {}) as { pull_request?: { head?: { ref?: string; sha?: string; repo?: { full_name?: string } } } };
  const head = event.pull_request?.head;
  const ref = env['GITHUB_REF'] ?? '';
  const branch = head ? (head.ref ?? 'feature') : ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : ref;
  const fork = head?.repo?.full_name !== undefined && head.repo.full_name !== `${options.fake.owner}/${options.fake.repo}`;
  const workflow = /\/\.github\/workflows\/([^@]+)@/.exec(env['GITHUB_WORKFLOW_REF'] ?? '')?.[1] ?? 'gpu.yml';
  options.fake.registerRun({
    id: runId,
    event: eventName,
    status: 'in_progress',
    conclusion: null,
    head_branch: branch,
    head_sha: head?.sha ?? env['GITHUB_SHA'] ?? '',
    workflow,
    ...(fork ? { headRepositoryId: 999 } : {}),
  });
}

/** The environment the runner gives a step, less the inputs: file commands, event, service URLs of the fake. */
export function runnerEnvironment(options: RunOptions, files: { output: string; summary: string; event: string; temp: string }, workspace: string): Record<string, string> {
  const runId = options.runId ?? 4242;
  return {
    GITHUB_OUTPUT: files.output,
    GITHUB_STEP_SUMMARY: files.summary,
    GITHUB_EVENT_PATH: files.event,
    GITHUB_EVENT_NAME: options.eventName ?? 'pull_request',
    GITHUB_API_URL: options.fake.baseUrl,
    GITHUB_REPOSITORY: `${options.fake.owner}/${options.fake.repo}`,
    GITHUB_RUN_ID: String(runId),
    GITHUB_RUN_ATTEMPT: String(options.runAttempt ?? 1),
    GITHUB_RUN_NUMBER: '1',
    GITHUB_JOB: options.job ?? 'gpu',
    GITHUB_SHA: 'f'.repeat(40),
    GITHUB_REF: 'refs/pull/7/merge',
    GITHUB_WORKSPACE: workspace,
    RUNNER_TEMP: files.temp,
    ACTIONS_RUNTIME_TOKEN: runtimeToken(runId),
    ACTIONS_RESULTS_URL: `${options.fake.baseUrl}/`,
    ...options.env,
  };
}

/** The files the runner hands a step (output, summary, event), in a fresh directory. */
export function stepFiles(options: RunOptions): { output: string; summary: string; event: string; temp: string } {
  const dir = mkdtempSync(join(tmpdir(), 'pg-e2e-'));
  const files = { output: join(dir, 'output'), summary: join(dir, 'summary.md'), event: join(dir, 'event.json'), temp: dir };
  writeFileSync(files.output, '');
  writeFileSync(files.summary, '');
  writeFileSync(files.event, options.rawEvent ?? JSON.stringify(options.event ?? {}));
  return files;
}

export async function runAction(options: RunOptions): Promise<RunResult> {
  const workspace = options.workspace ?? mkdtempSync(join(tmpdir(), 'pg-ws-'));
  const runId = options.runId ?? 4242;
  const token = options.token ?? 'ghs_faketoken';
  const files = stepFiles(options);
  const inputs = { ...actionDefaults(token), ...options.inputs };
  const env: Record<string, string> = {
    ...Object.fromEntries(Object.entries(inputs).map(([k, v]) => [`INPUT_${k.replace(/ /g, '_').toUpperCase()}`, v])),
    ...runnerEnvironment(options, files, workspace),
  };
  registerRun(options, runId, env);
  const child = spawn(process.execPath, [ACTION_ENTRY], { cwd: workspace, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((done) => child.on('close', done));
  options.fake.registerRun({ ...options.fake.runs.find((r) => r.id === runId)!, status: 'completed', conclusion: code === 0 ? 'success' : 'failure' });
  return {
    code,
    stdout,
    stderr,
    outputs: parseOutputs(readFileSync(files.output, 'utf8')),
    summary: readFileSync(files.summary, 'utf8'),
    workspace,
    commands: stdout.split(/\r?\n/).filter((l) => /^::(warning|error|notice)\b/.test(l)),
  };
}

/** A fresh loopback GitHub for each test of the file, stopped after it. `use` receives each test's instance. */
export function useFakeGitHub(use: (fake: FakeGitHub) => void, repository = 'octo/gpu-app'): void {
  let current: FakeGitHub | undefined;
  beforeEach(async () => {
    current = await new FakeGitHub(repository).start();
    use(current);
  });
  afterEach(async () => {
    await current?.stop();
  });
}

/** useFakeGitHub for tests of the bundle: checks first that the bundle the tests run exists. */
export function useFakeGitHubPerTest(use: (fake: FakeGitHub) => void, repository = 'octo/gpu-app'): void {
  beforeAll(() => {
    if (!existsSync(ACTION_ENTRY)) throw new Error(`${ACTION_ENTRY} is missing: run 'npm run build' first`);
  });
  useFakeGitHub(use, repository);
}
