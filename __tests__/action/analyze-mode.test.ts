/**
 * Mode analyze in process: the action handed a recording host, against the loopback GitHub, on real
 * captures. Assertions are on what the host received (outputs, summary, annotations, the failure),
 * the files written and the fake's recorded state. __tests__/e2e/action.test.ts runs the bundle.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzeOptions, E2E_FIXTURES, workspace } from '../helpers/action-workspace.js';
import { runInProcess, type InProcessOptions, type InProcessResult } from '../helpers/fake-action-host.js';
import type { FakeGitHub } from '../helpers/fake-github.js';
import { readZip } from '../helpers/fake-github-zip.js';
import { PR_EVENT, useFakeGitHub } from '../helpers/fake-github-runner.js';
import { encodedForms } from '../../src/io/secrets.js';

const FORK_EVENT = { ...PR_EVENT, pull_request: { ...PR_EVENT.pull_request, head: { sha: 'b'.repeat(40), repo: { full_name: 'mallory/gpu-app' } } } };

let fake: FakeGitHub;
useFakeGitHub((started) => (fake = started));

const analyzeRun = (extra: Partial<InProcessOptions> = {}, inputs: Record<string, string> = {}) => runInProcess({ ...analyzeOptions(fake, extra, inputs), ...extra });

/** Warnings without a title: the action's own lines, not the findings' annotations. */
const plainWarnings = (r: InProcessResult) => r.host.annotations.filter((a) => a.level === 'warning' && a.title === undefined).map((a) => a.message);

describe('mode analyze on a pull request', () => {
  it('sets the outputs, writes the summary, annotates each warning finding, uploads both artifacts and comments once', async () => {
    const r = await analyzeRun();
    expect(r.failures).toEqual([]);
    expect(r.outputs['verdict']).toBe('warn');
    expect(r.outputs['findings']!.split(',')).toContain('host-bound');
    expect(r.outputs['report-json']).toBe('profile-gate/report.json');
    expect(r.outputs['decode-tok-s']).toBe('');
    expect(r.summary.split('\n')[0]).toBe('## profile-gate: ⚠️ Warn · llama\\-h200');
    expect(r.summary).toContain('23 distinct kernels');
    // One warning annotation per warning finding, the primary one first, each titled with its id.
    const titled = r.host.annotations.filter((a) => a.title !== undefined);
    expect(titled.map((a) => [a.level, /\((\S+)\)$/.exec(a.title!)?.[1]])).toEqual([
      ['warning', 'host-bound'],
      ['warning', 'unfused-norm-rope'],
    ]);
    expect(titled[0]!.title).toMatch(/^profile-gate: /);
    expect(titled[0]!.message).toMatch(/^The GPU is idle/);
    expect(titled[1]!.message).toMatch(/^RoPE runs unfused/);
    expect(plainWarnings(r)).toEqual([]);
    // The token is masked before anything else; the runner's own tokens (ACTIONS_*) it masks itself.
    expect([...r.host.secrets].sort()).toEqual([...encodedForms('ghs_faketoken')].sort());
    expect(r.host.secrets).toContain('ghs_faketoken');
    const [artifact, captures] = fake.artifactsOfRun(4242);
    expect([artifact!.name, captures!.name]).toEqual(['profile-gate-llama-h200', 'profile-gate-llama-h200-captures']);
    expect(r.outputs['artifact-id']).toBe(String(artifact!.id));
    expect([...readZip(artifact!.zip!).keys()].sort()).toEqual(['profile-gate/context.json', 'profile-gate/report.json', 'profile-gate/report.md']);
    expect(readZip(artifact!.zip!).get('profile-gate/report.json')!.equals(readFileSync(join(r.workspace, 'profile-gate', 'report.json')))).toBe(true);
    expect(fake.commentsOn(7)).toHaveLength(1);
    expect(r.outputs['comment-url']).toBe(fake.commentsOn(7)[0]!.html_url);
    // The report records the run the environment names.
    const report = JSON.parse(readFileSync(join(r.workspace, 'profile-gate', 'report.json'), 'utf8')) as { run: Record<string, string> };
    expect(report.run).toMatchObject({ workload: 'llama-h200', commit: 'f'.repeat(40), ref: 'refs/pull/7/merge', repository: 'octo/gpu-app', runId: '4242', runUrl: 'https://github.com/octo/gpu-app/actions/runs/4242' });
  });

  it('updates its comment in place on the next push', async () => {
    const first = await analyzeRun();
    const id = fake.commentsOn(7)[0]!.id;
    // host-bound is a warning here: it fails only with fail-on-severity warning (before, fail-on alone failed on it).
    const second = await analyzeRun({ runId: 4243 }, { 'fail-on': 'host-bound', 'fail-on-severity': 'warning' });
    expect(first.code).toBe(0);
    expect(second.code).toBe(1);
    const comments = fake.commentsOn(7);
    expect(comments).toHaveLength(1);
    expect(comments[0]!.id).toBe(id);
    expect(comments[0]!.body).toContain('## profile-gate: ❌ Fail · llama\\-h200');
    expect(fake.hits('comments.create')).toHaveLength(1);
    expect(fake.hits('comments.update')).toHaveLength(1);
    expect(second.outputs['comment-url']).toBe(comments[0]!.html_url);
    expect(second.failures).toHaveLength(1);
    expect(second.failures[0]).toMatch(/^profile-gate verdict: fail \(finding host-bound \(warning\) is in fail-on: The GPU is idle most of the steady window .*\(evidence: .*; see the job summary\)$/);
    expect(second.host.annotations.filter((a) => a.level === 'error')).toEqual([]);
  });

  it('links the dashboard-url from the comment and the summary, naming the series', async () => {
    const r = await analyzeRun({}, { 'dashboard-url': 'https://octo.github.io/gpu-app/' });
    const line = '[Dashboard](https://octo.github.io/gpu-app/): the llama\\-h200 series over time';
    expect(fake.commentsOn(7)[0]!.body).toContain(line);
    expect(r.summary).toContain(line);
  });

  it('keeps a separate comment per matrix key', async () => {
    await analyzeRun({}, { key: 'leg-a' });
    await analyzeRun({ runId: 4244 }, { key: 'leg-b' });
    expect(fake.commentsOn(7).map((c) => c.body.split('\n')[0])).toEqual(['<!-- profile-gate:leg-a -->', '<!-- profile-gate:leg-b -->']);
  });
});

describe('comment: on-regression', () => {
  it('creates a comment only when something needs attention, and refreshes it once all is well', async () => {
    const healthyOnly = (runId: number, event = PR_EVENT) =>
      runInProcess({ fake, runId, event, workspace: workspace(['e2e/nsys_healthy_kern_sum.csv']), inputs: { captures: 'captures/nsys_healthy_kern_sum.csv', key: 'llama-h200', comment: 'on-regression' } });
    const warned = await analyzeRun({}, { comment: 'on-regression' });
    expect(warned.outputs['verdict']).toBe('warn');
    expect(fake.commentsOn(7)).toHaveLength(1);
    const passed = await healthyOnly(4250);
    expect(passed.outputs['verdict']).toBe('pass');
    expect(fake.commentsOn(7)).toHaveLength(1);
    expect(fake.commentsOn(7)[0]!.body).toContain('## profile-gate: ✅ Pass (no baseline: findings only) · llama\\-h200');
    const other = await healthyOnly(4251, { ...PR_EVENT, pull_request: { ...PR_EVENT.pull_request, number: 8 } });
    expect(other.code).toBe(0);
    expect(fake.commentsOn(8)).toHaveLength(0);
    expect(other.outputs['comment-url']).toBe('');
  });
});

describe('GitHub faults', () => {
  it('a read-only token (fork PR): a notice, no crash, the summary and the artifact still written', async () => {
    fake.fail('comments.create', { status: 403, body: { message: 'Resource not accessible by integration' } });
    const r = await analyzeRun({ event: FORK_EVENT });
    expect(r.code).toBe(0);
    expect(r.outputs['verdict']).toBe('warn');
    expect(r.outputs['comment-url']).toBe('');
    expect(r.notices).toHaveLength(1);
    expect(r.notices[0]).toMatch(/^Could not comment on PR #7: the token may not do this \(403: Resource not accessible by integration\) on POST .*fork-safe-comment\.yml.*The job summary and the report artifact hold the full report\.$/);
    expect(r.summary).toContain('## profile-gate: ⚠️ Warn');
    expect(fake.artifactsOfRun(4242)).toHaveLength(2);
    expect(fake.hits('comments.create')).toHaveLength(1);
  });

  it('retries a 500, then succeeds', async () => {
    fake.fail('comments.list', { status: 500 });
    const r = await analyzeRun();
    expect(r.code).toBe(0);
    expect(fake.hits('comments.list').map((h) => h.status)).toEqual([500, 200]);
    expect(fake.commentsOn(7)).toHaveLength(1);
    expect([...r.notices, ...plainWarnings(r)]).toEqual([]);
  });

  it('waits as long as a 429 Retry-After asks', async () => {
    fake.fail('comments.create', { status: 429, headers: { 'retry-after': '1' } });
    const started = Date.now();
    const r = await analyzeRun();
    expect(r.code).toBe(0);
    expect(fake.hits('comments.create').map((h) => h.status)).toEqual([429, 201]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(fake.commentsOn(7)).toHaveLength(1);
  });

  it('names the token on a 401 and still writes the summary', async () => {
    fake.fail('comments.list', { status: 401, body: { message: 'Bad credentials' } });
    const r = await analyzeRun();
    expect(r.code).toBe(0);
    expect(plainWarnings(r)).toEqual([
      'Could not comment on PR #7: GitHub rejected the token (401: Bad credentials) on GET /repos/{owner}/{repo}/issues/{issue_number}/comments; check the github-token input or GITHUB_TOKEN. The job summary and the report artifact hold the full report.',
    ]);
    expect(r.summary.length).toBeGreaterThan(1000);
  });

  it('a 500 that never recovers: four tries, then one warning; the summary and the artifact are there, the job passes', async () => {
    fake.fail('comments.list', { status: 500, times: 100 });
    // Short pauses between the tries: how many there are is what counts here.
    const r = await analyzeRun({ env: { PROFILE_GATE_RETRY_BASE_MS: '10' } });
    expect(r.code).toBe(0);
    expect(fake.hits('comments.list').map((h) => h.status)).toEqual([500, 500, 500, 500]);
    expect(plainWarnings(r)).toEqual([
      'Could not comment on PR #7: GitHub kept failing (500: injected 500) on GET /repos/{owner}/{repo}/issues/{issue_number}/comments after 4 attempts. The job summary and the report artifact hold the full report.',
    ]);
    expect(r.outputs['comment-url']).toBe('');
    expect(r.summary.split('\n')[0]).toBe('## profile-gate: ⚠️ Warn · llama\\-h200');
    expect(fake.artifactsOfRun(4242)).toHaveLength(2);
  }, 30_000);

  it('a 429 asking for an hour is not waited for: one try, one warning', async () => {
    fake.fail('comments.create', { status: 429, headers: { 'retry-after': '3600' } });
    const started = Date.now();
    const r = await analyzeRun();
    expect(r.code).toBe(0);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(fake.hits('comments.create').map((h) => h.status)).toEqual([429]);
    expect(plainWarnings(r)).toEqual([
      'Could not comment on PR #7: GitHub kept failing (429: injected 429) on POST /repos/{owner}/{repo}/issues/{issue_number}/comments after 1 attempt. The job summary and the report artifact hold the full report.',
    ]);
    expect(r.summary).toContain('## profile-gate: ⚠️ Warn');
  });

  it('a 403 with rate-limit headers is a secondary rate limit: waited out and retried, not called a permission problem', async () => {
    const reset = String(Math.ceil(Date.now() / 1000) + 1);
    fake.fail('comments.create', { status: 403, headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset }, body: { message: 'You have exceeded a secondary rate limit' } });
    const r = await analyzeRun();
    expect(r.code).toBe(0);
    expect(fake.hits('comments.create').map((h) => h.status)).toEqual([403, 201]);
    expect(fake.commentsOn(7)).toHaveLength(1);
    expect([...r.notices, ...plainWarnings(r)]).toEqual([]);
  });

  it('an artifact service failure loses neither the summary, the files nor the comment', async () => {
    const r = await analyzeRun({ uploadFailure: 'Failed to CreateArtifact: Received non-retryable error: Failed request: (403) Forbidden: no' });
    expect(r.code).toBe(0);
    expect(r.outputs['artifact-id']).toBe('');
    expect(plainWarnings(r).some((w) => /^The report artifact 'profile-gate-llama-h200' was not uploaded: .*403/.test(w))).toBe(true);
    expect(existsSync(join(r.workspace, 'profile-gate', 'report.json'))).toBe(true);
    expect(r.summary).toContain('No artifact was uploaded');
    expect(fake.commentsOn(7)).toHaveLength(1);
  });
});

describe('artifact names in one run', () => {
  it('two legs with one key: the second upload is refused with the fix; a re-run attempt replaces its own', async () => {
    await analyzeRun({}, { comment: 'off' });
    const first = fake.artifactsOfRun(4242).find((a) => a.name === 'profile-gate-llama-h200')!;
    const twin = await analyzeRun({}, { comment: 'off' });
    expect(twin.code).toBe(0);
    expect(twin.outputs['artifact-id']).toBe('');
    expect(plainWarnings(twin)).toEqual([
      "The report artifact 'profile-gate-llama-h200' was not uploaded: an artifact named 'profile-gate-llama-h200' already exists in this run: in a matrix, give each leg its own 'key' (or 'artifact-name'). report.json and report.md are in profile-gate.",
    ]);
    const rerun = await analyzeRun({ runAttempt: 2 }, { comment: 'off' });
    const replaced = fake.artifactsOfRun(4242).filter((a) => a.name === 'profile-gate-llama-h200');
    expect(replaced).toHaveLength(1);
    expect(replaced[0]!.id).not.toBe(first.id);
    expect(rerun.outputs['artifact-id']).toBe(String(replaced[0]!.id));
  });
});

describe('inputs', () => {
  it('refuses a bad input in one line that names it, before any request', async () => {
    const r = await analyzeRun({}, { mode: 'bogus' });
    expect(r.code).toBe(1);
    expect(r.failures).toEqual(["input 'mode': expected one of analyze, report, run, got \"bogus\""]);
    expect(r.host.annotations).toEqual([]);
    expect(fake.requests).toEqual([]);
  });

  it('rule-options reach the rules: unfused-norm-rope is not found past a threshold set that high', async () => {
    const r = await analyzeRun({}, { 'rule-options': 'unfused-norm-rope.minPiecesShare=0.99' });
    expect(r.failures).toEqual([]);
    expect(r.outputs['findings']!.split(',')).toContain('host-bound');
    expect(r.outputs['findings']!.split(',')).not.toContain('unfused-norm-rope');
    const bad = await analyzeRun({}, { 'rule-options': 'unfused-norm-rope.minPieces=0.99' });
    expect(bad.failures).toEqual(["input 'rule-options': unfused-norm-rope.minPieces=0.99: rule unfused-norm-rope has no option 'minPieces' (known: minPiecesShare)"]);
  });

  it('several bad inputs: one error line for each, and the job fails on the last', async () => {
    const r = await analyzeRun({}, { comment: 'sometimes', 'retention-days': '400', 'upload-artifact': 'yes' });
    expect(r.code).toBe(1);
    expect([...r.errors, ...r.failures]).toEqual([
      'input \'comment\': expected one of auto, always, on-regression, off, got "sometimes"',
      'input \'upload-artifact\': expected true or false, got "yes"',
      'input \'retention-days\': expected 1 to 90 days, got "400"',
    ]);
    expect(r.failures).toHaveLength(1);
    expect(fake.requests).toEqual([]);
  });

  it('comment: off and upload-artifact: false touch nothing on GitHub', async () => {
    const r = await analyzeRun({}, { comment: 'off', 'upload-artifact': 'false' });
    expect(r.code).toBe(0);
    expect(fake.requests).toEqual([]);
    expect(fake.artifacts).toEqual([]);
    expect(r.summary).toContain('## profile-gate: ⚠️ Warn');
  });

  it('comment: auto stays quiet on a push', async () => {
    const r = await analyzeRun({ eventName: 'push', event: { repository: PR_EVENT.repository } });
    expect(r.code).toBe(0);
    expect(fake.hits('comments.list')).toHaveLength(0);
    expect(r.host.log).toContain('No PR comment: not a pull request event.');
  });
});

describe('no capture, no pass', () => {
  const emptyCaptures = (): string => {
    const ws = mkdtempSync(join(tmpdir(), 'pg-ws-'));
    mkdirSync(join(ws, 'captures'));
    return ws;
  };

  it('an empty captures folder fails the job by default, in one line naming the folder and the input', async () => {
    const r = await runInProcess({ fake, event: PR_EVENT, workspace: emptyCaptures(), inputs: { captures: 'captures', key: 'k' } });
    expect(r.code).toBe(1);
    expect(r.failures).toEqual(["no capture files: captures (no capture file inside); check the path and that the profiling step wrote its files (input 'if-no-captures': warn or ignore lets an empty capture pass)"]);
    expect(r.host.annotations).toEqual([]);
    expect(r.outputs['verdict']).toBeUndefined();
  });

  it('a missing folder fails too; if-no-captures: warn lets it go on with a warning and no pass', async () => {
    const missing = await runInProcess({ fake, event: PR_EVENT, workspace: emptyCaptures(), inputs: { captures: 'captrues', key: 'k' } });
    expect(missing.code).toBe(1);
    expect(missing.failures[0]).toMatch(/^no capture files: captrues \(missing\);/);
    const warned = await runInProcess({ fake, event: PR_EVENT, workspace: emptyCaptures(), inputs: { captures: 'captures', key: 'k', 'if-no-captures': 'warn' } });
    expect(warned.code).toBe(0);
    expect(warned.warnings).toContain("no capture files: captures (no capture file inside); the report holds no measurement (input 'if-no-captures': warn)");
    expect(warned.outputs['verdict']).not.toBe('pass');
  });
});

describe('names and files the runner hands over', () => {
  it('a capture name the artifact service refuses costs neither the report artifact nor the capture', async () => {
    const ws = workspace();
    copyFileSync(join(E2E_FIXTURES, 'dense_decode.nvml.jsonl'), join(ws, 'captures', 'decode-12:00:00.nvml.jsonl'));
    const r = await runInProcess({ fake, event: PR_EVENT, workspace: ws, inputs: { captures: 'captures', key: 'llama-h200', 'upload-raw-captures': 'true' } });
    expect(r.code).toBe(0);
    const [report, captures] = fake.artifactsOfRun(4242);
    expect(report!.name).toBe('profile-gate-llama-h200');
    expect([...readZip(report!.zip!).keys()]).toContain('profile-gate/report.json');
    expect(captures!.name).toBe('profile-gate-llama-h200-captures');
    const stored = readZip(captures!.zip!);
    expect(stored.get('captures/decode-12%3A00%3A00.nvml.jsonl')!.equals(readFileSync(join(E2E_FIXTURES, 'dense_decode.nvml.jsonl')))).toBe(true);
    expect(JSON.parse(stored.get('capture-names.json')!.toString()).names).toEqual({ 'captures/decode-12%3A00%3A00.nvml.jsonl': 'captures/decode-12:00:00.nvml.jsonl' });
    expect(plainWarnings(r).filter((w) => w.startsWith('The'))).toEqual([]);
  });

  it('an event file that is not JSON: one line naming the file and the byte, nothing else done', async () => {
    const r = await runInProcess({ fake, rawEvent: '{"pull_request": {"number": 7,', workspace: workspace(), inputs: { captures: 'captures' } });
    expect(r.code).toBe(1);
    expect(r.failures).toHaveLength(1);
    expect(r.failures[0]).toMatch(/^GITHUB_EVENT_PATH \S+event\.json: not JSON at byte \d+; expected the event payload the runner writes$/);
    expect(r.outputs).toEqual({});
    expect(fake.requests).toEqual([]);
  });
});

describe('report files that cannot be written', () => {
  it('the summary and the comment still go out, the job fails naming the file, no half artifact is uploaded', async () => {
    const ws = workspace();
    mkdirSync(join(ws, 'profile-gate'));
    // A link to a full disk where report.json goes: refused, never written through (writeOutput).
    symlinkSync('/dev/full', join(ws, 'profile-gate', 'report.json'));
    const r = await runInProcess({ fake, event: PR_EVENT, workspace: ws, inputs: { captures: 'captures', key: 'llama-h200' } });
    expect(r.code).toBe(1);
    expect(r.failures).toEqual(['profile-gate could not write its report files: profile-gate/report.json: is a symbolic link; expected a path that is not one (an output is never written through a link: remove it, or choose another path); the job summary holds the report']);
    expect(plainWarnings(r).some((w) => w.startsWith('The report artifact was not uploaded: the report files could not be written'))).toBe(true);
    expect(r.summary.split('\n')[0]).toBe('## profile-gate: ⚠️ Warn · llama\\-h200');
    expect(fake.commentsOn(7)).toHaveLength(1);
    expect(fake.artifactsOfRun(4242)).toHaveLength(0);
    expect(r.outputs['report-json']).toBe('');
    expect(r.outputs['verdict']).toBe('warn');
  });
});

describe('a metric line that holds no number', () => {
  // The real H200 timed runs, each run's tok_s divided by `slower`, and extra lines.
  const TIMED = join(E2E_FIXTURES, '..', 'h200-captures', 'healthy_decode', 'healthy_timed.stdout.jsonl');
  const runs = (slower: number, extra: readonly string[] = []) =>
    [
      ...readFileSync(TIMED, 'utf8')
        .split('\n')
        .filter((l) => l.includes('"kind": "run"'))
        .map((l) => JSON.stringify({ ...(JSON.parse(l) as { tok_s: number }), tok_s: (JSON.parse(l) as { tok_s: number }).tok_s / slower })),
      ...extra,
    ].join('\n') + '\n';

  it('is dropped alone and named first: the 17 % slower head fails the job, in mode analyze too', async () => {
    const base = await runInProcess({ fake, event: PR_EVENT, workspace: workspace([], { 'base.jsonl': runs(1) }), inputs: { captures: 'captures', key: 'base', comment: 'off' } });
    expect(base.code).toBe(0);
    const baseline = join(base.workspace, 'profile-gate', 'report.json');
    const r = await runInProcess({ fake, runId: 4300, event: PR_EVENT, workspace: workspace([], { 'head.jsonl': runs(1.17, ['{"metric": "ttft_ms", "value": null}']) }), inputs: { captures: 'captures', key: 'head', comment: 'off', baseline } });
    expect(r.outputs['verdict']).toBe('fail');
    expect(r.code).toBe(1);
    expect(r.failures).toHaveLength(1);
    expect(r.failures[0]).toMatch(/^profile-gate verdict: fail \(data loss: 1 metric record dropped .*line 16: ttft_ms null/);
  });
});

