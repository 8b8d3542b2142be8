/**
 * End to end: the bundled dist/index.js, spawned with an empty environment, against the loopback
 * GitHub and artifact fakes. Nothing of ours is mocked; assertions are on the exit code, the
 * outputs, the summary file, the workflow commands and the fake's recorded state.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FakeGitHub } from '../helpers/fake-github.js';
import { readZip } from '../helpers/fake-github-zip.js';
import { PR_EVENT, ROOT, runAction, type RunOptions, stderrBesidesKnownNoise, useFakeGitHubPerTest } from '../helpers/fake-github-runner.js';

const FIXTURES = join(ROOT, '__tests__', 'fixtures', 'e2e');
const CAPTURES = ['healthy_graphoff_node.kern_sum.csv', 'healthy_graphoff_node.gpu_time_util_t100.csv'];
const FORK_EVENT = { ...PR_EVENT, pull_request: { ...PR_EVENT.pull_request, head: { sha: 'b'.repeat(40), repo: { full_name: 'mallory/gpu-app' } } } };

/** A workspace holding the two real captures under captures/. */
function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pg-ws-'));
  mkdirSync(join(dir, 'captures'));
  for (const file of CAPTURES) copyFileSync(join(FIXTURES, file), join(dir, 'captures', file));
  return dir;
}

let fake: FakeGitHub;
useFakeGitHubPerTest((started) => (fake = started));

function analyzeRun(extra: Partial<RunOptions> = {}, inputs: Record<string, string> = {}) {
  return runAction({ fake, event: PR_EVENT, workspace: workspace(), inputs: { captures: 'captures', key: 'llama-h200', ...inputs }, ...extra });
}

describe('mode analyze on a pull request', () => {
  it('writes the summary, uploads the artifact, comments once and annotates the warning', async () => {
    const r = await analyzeRun();
    expect(stderrBesidesKnownNoise(r.stderr)).toBe('');
    expect(r.code).toBe(0);
    expect(r.outputs['verdict']).toBe('warn');
    expect(r.outputs['findings']!.split(',')).toContain('host-bound');
    expect(r.outputs['report-json']).toBe('profile-gate/report.json');
    // The summary: verdict headline first, then the findings with their evidence.
    expect(r.summary.split('\n')[0]).toBe('## profile-gate: ⚠️ Warn · llama\\-h200');
    const written = JSON.parse(readFileSync(join(r.workspace, 'profile-gate', 'report.json'), 'utf8')) as { findings: { id: string; evidence: Record<string, unknown> }[] };
    const hostBound = written.findings.find((f) => f.id === 'host-bound')!;
    expect(r.summary).toContain(`gpuTimeUtilPercent = ${Number(hostBound.evidence['gpuTimeUtilPercent']).toFixed(3).replace('.', '\\.')}`);
    expect(r.summary).toContain('23 distinct kernels');
    expect(r.summary).toContain('No comparison: no baseline configured \\(input');
    // One warning annotation per warning finding, the primary one first.
    const warnings = r.commands.filter((c) => c.startsWith('::warning'));
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/^::warning title=profile-gate%3A .*\(host-bound\)::The GPU is idle/);
    expect(warnings[1]).toMatch(/\(unfused-norm-rope\)::RoPE runs unfused/);

    // The artifacts: the report's own, first, then the captures beside it; what the fake received is
    // byte-identical to what the job wrote.
    const [artifact, capturesArtifact] = fake.artifactsOfRun(4242);
    expect(fake.artifactsOfRun(4242).map((a) => a.name)).toEqual(['profile-gate-llama-h200', 'profile-gate-llama-h200-captures']);
    expect(r.outputs['artifact-id']).toBe(String(artifact!.id));
    const files = readZip(artifact!.zip!);
    expect([...files.keys()].sort()).toEqual(['profile-gate/context.json', 'profile-gate/report.json', 'profile-gate/report.md']);
    expect(files.get('profile-gate/report.json')!.equals(readFileSync(join(r.workspace, 'profile-gate', 'report.json')))).toBe(true);
    const captured = readZip(capturesArtifact!.zip!);
    expect([...captured.keys()].sort()).toEqual(['captures/healthy_graphoff_node.gpu_time_util_t100.csv', 'captures/healthy_graphoff_node.kern_sum.csv']);
    for (const capture of CAPTURES) expect(captured.get(`captures/${capture}`)!.equals(readFileSync(join(FIXTURES, capture)))).toBe(true);
    expect(JSON.parse(files.get('profile-gate/context.json')!.toString())).toEqual({ event: 'pull_request', repository: 'octo/gpu-app', pullRequest: 7, headSha: 'a'.repeat(40) });
    expect(r.summary).toContain(`(https://github.com/octo/gpu-app/actions/runs/4242/artifacts/${artifact!.id}) (id ${artifact!.id})`);

    // The comment: one, by the bot, with its marker, the headline and a link to the artifact.
    const comments = fake.commentsOn(7);
    expect(comments).toHaveLength(1);
    expect(comments[0]!.user.login).toBe('github-actions[bot]');
    expect(comments[0]!.body.split('\n').slice(0, 2)).toEqual(['<!-- profile-gate:llama-h200 -->', '## profile-gate: ⚠️ Warn · llama\\-h200']);
    expect(comments[0]!.body).toContain(`/actions/runs/4242/artifacts/${artifact!.id}`);
    expect(r.outputs['comment-url']).toBe(comments[0]!.html_url);
    expect(fake.hits('comments.create')[0]!.authorization).toBe('Bearer ghs_faketoken');
  });

  it('updates its comment in place on the next push', async () => {
    const first = await analyzeRun();
    const id = fake.commentsOn(7)[0]!.id;
    const second = await analyzeRun({ runId: 4243 }, { 'fail-on': 'host-bound' });
    expect(first.code).toBe(0);
    expect(second.code).toBe(1);
    const comments = fake.commentsOn(7);
    expect(comments).toHaveLength(1);
    expect(comments[0]!.id).toBe(id);
    expect(comments[0]!.body).toContain('## profile-gate: ❌ Fail · llama\\-h200');
    expect(fake.hits('comments.create')).toHaveLength(1);
    expect(fake.hits('comments.update')).toHaveLength(1);
    expect(second.outputs['comment-url']).toBe(comments[0]!.html_url);
    expect(second.commands).toContain('::error::profile-gate verdict: fail (findings: host-bound; see the job summary)');
    expect(second.commands.filter((c) => c.startsWith('::error title='))).toHaveLength(0);
  });

  it('keeps a separate comment per matrix key', async () => {
    await analyzeRun({}, { key: 'leg-a' });
    await analyzeRun({ runId: 4244 }, { key: 'leg-b' });
    expect(fake.commentsOn(7).map((c) => c.body.split('\n')[0])).toEqual(['<!-- profile-gate:leg-a -->', '<!-- profile-gate:leg-b -->']);
  });
});

describe('comment: on-regression', () => {
  it('creates a comment only when something needs attention, and refreshes it once all is well', async () => {
    const healthyOnly = async (runId: number, event = PR_EVENT) => {
      const ws = workspace();
      copyFileSync(join(FIXTURES, 'nsys_healthy_kern_sum.csv'), join(ws, 'captures', 'nsys_healthy_kern_sum.csv'));
      return runAction({ fake, runId, event, workspace: ws, inputs: { captures: 'captures/nsys_healthy_kern_sum.csv', key: 'llama-h200', comment: 'on-regression' } });
    };
    const warned = await analyzeRun({}, { comment: 'on-regression' });
    expect(warned.outputs['verdict']).toBe('warn');
    expect(fake.commentsOn(7)).toHaveLength(1);
    const passed = await healthyOnly(4250);
    expect(passed.outputs['verdict']).toBe('pass');
    expect(fake.commentsOn(7)).toHaveLength(1);
    expect(fake.commentsOn(7)[0]!.body).toContain('## profile-gate: ✅ Pass (no baseline: findings only) · llama\\-h200');
    // A passing PR with no earlier comment gets none.
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
    const notices = r.commands.filter((c) => c.startsWith('::notice'));
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/^::notice::Could not comment on PR #7: the token may not do this \(403: Resource not accessible by integration\) on POST .*fork-safe-comment\.yml.*The job summary and the report artifact hold the full report\.$/);
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
    expect(r.commands.filter((c) => c.startsWith('::notice') || c.startsWith('::warning::'))).toEqual([]);
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
    expect(r.commands).toContain(
      '::warning::Could not comment on PR #7: GitHub rejected the token (401: Bad credentials) on GET /repos/{owner}/{repo}/issues/{issue_number}/comments; check the github-token input or GITHUB_TOKEN. The job summary and the report artifact hold the full report.',
    );
    expect(r.summary.length).toBeGreaterThan(1000);
  });

  it('an artifact service failure loses neither the summary, the files nor the comment', async () => {
    fake.fail('twirp.CreateArtifact', { status: 403, body: { code: 'permission_denied', msg: 'no' } });
    const r = await analyzeRun();
    expect(r.code).toBe(0);
    expect(r.outputs['artifact-id']).toBe('');
    expect(r.commands.some((c) => /^::warning::The report artifact 'profile-gate-llama-h200' was not uploaded: .*403/.test(c))).toBe(true);
    expect(existsSync(join(r.workspace, 'profile-gate', 'report.json'))).toBe(true);
    expect(r.summary).toContain('No artifact was uploaded');
    expect(fake.commentsOn(7)).toHaveLength(1);
  });
});

describe('inputs', () => {
  it('refuses a bad input in one line that names it', async () => {
    const r = await analyzeRun({}, { mode: 'bogus' });
    expect(r.code).toBe(1);
    expect(r.commands).toEqual(["::error::input 'mode': expected one of analyze, report, run (got \"bogus\")"]);
    expect(fake.requests).toEqual([]);
  });

  it('comment: off and upload-artifact: false touch nothing on GitHub', async () => {
    const r = await analyzeRun({}, { comment: 'off', 'upload-artifact': 'false' });
    expect(r.code).toBe(0);
    expect(fake.requests).toEqual([]);
    expect(r.summary).toContain('## profile-gate: ⚠️ Warn');
  });

  it('comment: auto stays quiet on a push', async () => {
    const r = await analyzeRun({ eventName: 'push', event: { repository: PR_EVENT.repository } });
    expect(r.code).toBe(0);
    expect(fake.hits('comments.list')).toHaveLength(0);
    expect(r.stdout).toContain('No PR comment: not a pull request event.');
  });
});

describe('no capture, no pass', () => {
  const emptyCaptures = (): string => {
    const ws = mkdtempSync(join(tmpdir(), 'pg-ws-'));
    mkdirSync(join(ws, 'captures'));
    return ws;
  };

  it('an empty captures folder fails the job by default, in one line naming the folder and the input', async () => {
    const r = await runAction({ fake, event: PR_EVENT, workspace: emptyCaptures(), inputs: { captures: 'captures', key: 'k' } });
    expect(r.code).toBe(1);
    expect(r.commands).toEqual(["::error::no capture files: captures (no capture file inside); check the path and that the profiling step wrote its files (input 'if-no-captures': warn or ignore lets an empty capture pass)"]);
    expect(r.outputs['verdict']).toBeUndefined();
  });

  it('a missing folder fails too; if-no-captures: warn lets it go on with a warning and no pass', async () => {
    const missing = await runAction({ fake, event: PR_EVENT, workspace: emptyCaptures(), inputs: { captures: 'captrues', key: 'k' } });
    expect(missing.code).toBe(1);
    expect(missing.commands[0]).toMatch(/^::error::no capture files: captrues \(missing\);/);
    const warned = await runAction({ fake, event: PR_EVENT, workspace: emptyCaptures(), inputs: { captures: 'captures', key: 'k', 'if-no-captures': 'warn' } });
    expect(warned.code).toBe(0);
    expect(warned.commands).toContain("::warning::no capture files: captures (no capture file inside); the report holds no measurement (input 'if-no-captures': warn)");
    expect(warned.outputs['verdict']).not.toBe('pass');
  });
});

describe('names and files the runner hands over', () => {
  it('a capture name the artifact service refuses costs neither the report artifact nor the capture', async () => {
    const ws = workspace();
    copyFileSync(join(FIXTURES, 'dense_decode.nvml.jsonl'), join(ws, 'captures', 'decode-12:00:00.nvml.jsonl'));
    const r = await runAction({ fake, event: PR_EVENT, workspace: ws, inputs: { captures: 'captures', key: 'llama-h200' } });
    expect(r.code).toBe(0);
    const [report, captures] = fake.artifactsOfRun(4242);
    expect(report!.name).toBe('profile-gate-llama-h200');
    expect([...readZip(report!.zip!).keys()]).toContain('profile-gate/report.json');
    expect(captures!.name).toBe('profile-gate-llama-h200-captures');
    const stored = readZip(captures!.zip!);
    expect(stored.get('captures/decode-12%3A00%3A00.nvml.jsonl')!.equals(readFileSync(join(FIXTURES, 'dense_decode.nvml.jsonl')))).toBe(true);
    expect(JSON.parse(stored.get('capture-names.json')!.toString()).names).toEqual({ 'captures/decode-12%3A00%3A00.nvml.jsonl': 'captures/decode-12:00:00.nvml.jsonl' });
    expect(r.commands.filter((c) => c.startsWith('::warning::The'))).toEqual([]);
  });

  it('an event file that is not JSON ends in one line, not a stack trace', async () => {
    const r = await runAction({ fake, rawEvent: '{"pull_request": {"number": 7,', workspace: workspace(), inputs: { captures: 'captures' } });
    expect(r.code).toBe(1);
    expect(r.commands).toHaveLength(1);
    expect(r.commands[0]).toMatch(/^::error::GITHUB_EVENT_PATH \S+event\.json: not JSON at byte \d+; expected the event payload the runner writes$/);
    expect(stderrBesidesKnownNoise(r.stderr)).toBe('');
  });
});
