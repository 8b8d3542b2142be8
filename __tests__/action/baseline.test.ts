/**
 * input baseline: artifact, in process: main's report artifact found by name across the repository.
 * A push run on main (its own workflow) uploads the healthy H200 run's report; the pull request's run
 * (another workflow) finds it, compares, and fails on the real 17% regression. Artifacts made by a
 * fork's code, expired ones and unreadable ones are never the baseline, and each skip says why.
 */
import type { Report } from '../../src/model/report.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeOptions, sampleWorkspace } from '../helpers/action-workspace.js';
import { runInProcess } from '../helpers/fake-action-host.js';
import type { FakeGitHub } from '../helpers/fake-github.js';
import { deflatedZip } from '../helpers/fake-github-zip.js';
import { PR_EVENT, useFakeGitHub } from '../helpers/fake-github-runner.js';
import { accountOf } from '../helpers/gate-lines.js';

const BASELINE_WORKFLOW = { GITHUB_WORKFLOW_REF: 'octo/gpu-app/.github/workflows/baseline-main.yml@refs/heads/main' };
const PR_WORKFLOW = { GITHUB_WORKFLOW_REF: 'octo/gpu-app/.github/workflows/pr-gate.yml@refs/pull/7/merge' };
const NAME = 'profile-gate-llama-h200';
const DECODE_ROW = '| Decode throughput | 378.5 tok/s | 313.9 tok/s | -17.1% |';

let fake: FakeGitHub;
useFakeGitHub((started) => (fake = started));

/** main's baseline workflow: a push run that uploads the healthy report. */
async function pushOnMain(runId: number): Promise<string> {
  const ws = sampleWorkspace('baseline');
  const push = await runInProcess({
    fake,
    runId,
    eventName: 'push',
    event: { repository: PR_EVENT.repository },
    workspace: ws,
    inputs: { captures: 'captures', key: 'llama-h200', comment: 'off' },
    env: { ...BASELINE_WORKFLOW, GITHUB_REF: 'refs/heads/main' },
  });
  expect(push.failures).toEqual([]);
  return readFileSync(join(ws, 'profile-gate', 'report.json'), 'utf8');
}

const pullRequestRun = (inputs: Record<string, string> = {}) =>
  runInProcess({ fake, runId: 200, event: PR_EVENT, workspace: sampleWorkspace('current'), inputs: { captures: 'captures', key: 'llama-h200', baseline: 'artifact', ...inputs }, env: PR_WORKFLOW });

describe('baseline: artifact', () => {
  it("finds main's artifact by name although another workflow made it, compares, and fails on the regression", async () => {
    await pushOnMain(100);
    const r = await pullRequestRun();
    expect(r.code).toBe(1);
    expect(r.outputs['verdict']).toBe('fail');
    expect(r.summary).toMatch(/- Why: newest readable artifact [^\n]*profile\\-gate\\-llama\\-h200[^\n]* on main \\\(run 100, fffffff\\\)/);
    expect(r.summary).toContain(DECODE_ROW);
    expect(r.summary).not.toContain('No baseline');
    expect(r.failures).toHaveLength(1);
    expect(r.failures[0]).toMatch(/^profile-gate verdict: fail \(/);
    // Found through main's completed runs (any workflow), then that run's artifact of the name.
    const runQuery = new URL(fake.hits('runs.list')[0]!.url, fake.baseUrl);
    expect(runQuery.pathname).toBe('/repos/octo/gpu-app/actions/runs');
    expect(Object.fromEntries(runQuery.searchParams)).toMatchObject({ branch: 'main', status: 'completed' });
    expect(fake.hits('artifacts.list').map((h) => new URL(h.url, fake.baseUrl).searchParams.get('name'))).toEqual([NAME]);
    expect(fake.hits('artifacts.listAll')).toHaveLength(0);
  });

  it("finds main's artifact after 150 newer pull-request runs uploaded the same name", async () => {
    const report = await pushOnMain(100);
    for (let i = 0; i < 150; i++) {
      const runId = 1000 + i;
      fake.registerRun({ id: runId, event: 'pull_request', status: 'completed', conclusion: 'success', head_branch: `feature-${i}`, head_sha: 'd'.repeat(40), workflow: 'pr-gate.yml' });
      fake.addArtifact(runId, NAME, { 'profile-gate/report.json': report });
    }
    const r = await pullRequestRun();
    expect(r.summary).toMatch(/- Why: newest readable artifact [^\n]* on main \\\(run 100, fffffff\\\)/);
    expect(r.summary).toContain(DECODE_ROW);
  }, 60_000);

  it('when nothing is found, says how far the search looked and what it left out', async () => {
    fake.registerRun({ id: 90, event: 'pull_request', status: 'completed', conclusion: 'success', head_branch: 'main', head_sha: 'e'.repeat(40), workflow: 'pr-gate.yml', headRepositoryId: 999 });
    fake.registerRun({ id: 91, event: 'push', status: 'completed', conclusion: 'success', head_branch: 'main', head_sha: 'f'.repeat(40), workflow: 'ci.yml' });
    fake.registerRun({ id: 92, event: 'push', status: 'in_progress', conclusion: null, head_branch: 'main', head_sha: 'f'.repeat(40), workflow: 'ci.yml' });
    const r = await pullRequestRun({ 'fail-on': 'none' });
    const today = new Date().toISOString().slice(0, 10);
    expect(r.summary).toContain(`no artifact &#39;${NAME.replace(/-/g, '\\-')}&#39; on main: searched the newest 2 completed runs on main, back to ${today.replace(/-/g, '\\-')}; left out: 1 run made by forks;`);
  });

  it("reads main's recent reports beside the baseline to estimate the noise between jobs, and says it is a comparison between jobs", async () => {
    for (const runId of [100, 101, 102, 103, 104, 105]) await pushOnMain(runId);
    const r = await pullRequestRun();
    expect(r.outputs['verdict']).toBe('fail');
    const report = JSON.parse(readFileSync(join(r.workspace, 'profile-gate', 'report.json'), 'utf8')) as Report;
    expect(report.comparison?.betweenJobs?.reports).toBe(6);
    // The note follows the failing and warning lines (the summary shows the first five of them).
    expect(accountOf(report).some((line) => /^a comparison between jobs: the last 6 reports of the default branch vary/.test(line))).toBe(true);
  }, 60_000);

  it("never takes an artifact made by a fork's code, even from a branch the fork calls main", async () => {
    const forkMain = { ...PR_EVENT, pull_request: { number: 9, head: { ref: 'main', sha: 'b'.repeat(40), repo: { full_name: 'mallory/gpu-app' } } } };
    const planted = await runInProcess({ fake, runId: 150, event: forkMain, workspace: sampleWorkspace('current'), inputs: { captures: 'captures', key: 'llama-h200', comment: 'off' }, env: PR_WORKFLOW });
    expect(planted.code).toBe(1);
    expect(fake.artifactsOfRun(150).map((a) => a.name)).toContain(NAME);
    const r = await pullRequestRun();
    expect(r.code).toBe(1); // unfused-attention is in fail-on and no baseline excuses it
    expect(r.summary).toContain(`no artifact &#39;${NAME.replace(/-/g, '\\-')}&#39; on main: searched the newest 1 completed run on main, back to `);
    expect(r.summary).toContain('left out: 1 run made by forks;');
    expect(fake.hits('artifacts.download')).toHaveLength(0);
  });

  it('skips an expired, a newer-schema and an oversized artifact for the next one, and says why', async () => {
    await pushOnMain(100);
    const valid = JSON.parse(await pushOnMain(101)) as Record<string, unknown>;
    fake.artifacts.find((a) => a.runBackendId === 'run-101' && a.name === NAME)!.expired = true;
    fake.registerRun({ id: 102, event: 'push', status: 'completed', conclusion: 'success', head_branch: 'main', head_sha: '2'.repeat(40), workflow: 'baseline-main.yml' });
    fake.addArtifact(102, NAME, { 'profile-gate/report.json': JSON.stringify({ ...valid, schemaVersion: 9, tool: { name: 'profile-gate', version: '9.0.0' } }) });
    fake.registerRun({ id: 103, event: 'push', status: 'completed', conclusion: 'success', head_branch: 'main', head_sha: '3'.repeat(40), workflow: 'baseline-main.yml' });
    const bomb = fake.addArtifact(103, NAME, {});
    bomb.zip = deflatedZip({ 'report.json': Buffer.alloc(80 * 1024 * 1024, 0x20) });
    bomb.size = bomb.zip.length;
    const r = await pullRequestRun();
    expect(r.outputs['verdict']).toBe('fail');
    expect(r.summary).toContain(DECODE_ROW);
    const skips = r.warnings.filter((w) => w.startsWith(`Skipped baseline candidate '${NAME}'`));
    expect(skips).toHaveLength(2);
    expect(skips[0]).toMatch(/of run 103: not a readable zip: report\.json: 83886080 bytes uncompressed; expected at most 67108864$/);
    expect(skips[1]).toMatch(/of run 102: expected schemaVersion ≤ 8; this report was written by a newer profile-gate .*upgrade$/);
    expect(r.summary).toMatch(/- Why: newest readable artifact [^\n]* on main \\\(run 100, [^\n]*skipped newer: run 103: [^\n]*; run 102: /);
    expect(fake.hits('artifacts.download')).toHaveLength(3);
  });

  it('baseline-workflow narrows the search to that workflow', async () => {
    await pushOnMain(100);
    const narrowed = await pullRequestRun({ 'baseline-workflow': 'nightly.yml' });
    expect(narrowed.summary).toContain('on main of workflow nightly\\.yml: searched the newest 0 completed runs on main of workflow nightly\\.yml;');
    expect(narrowed.summary).not.toContain('Decode throughput | 378.5');
    const matched = await pullRequestRun({ 'baseline-workflow': 'baseline-main.yml' });
    expect(matched.summary).toContain(DECODE_ROW);
  });

  it('with no baseline, the summary and the comment say so in their first lines, with the fix', async () => {
    const r = await pullRequestRun({ 'fail-on': 'none' });
    const fix = `to fix: let a workflow on pushes to main run the same workload with key &#39;llama\\-h200&#39;, so it uploads &#39;${NAME.replace(/-/g, '\\-')}&#39; \\(examples/baseline\\-main\\.yml\\)`;
    const summaryHead = r.summary.split('\n').slice(0, 3).join('\n');
    expect(summaryHead).toContain('> **No baseline, findings only:** no artifact');
    expect(summaryHead).toContain(fix);
    const comment = fake.commentsOn(7)[0]!.body.split('\n').slice(0, 4).join('\n');
    expect(comment).toContain('> **No baseline, findings only:** no artifact');
    expect(comment).toContain(fix);
  });

  it('a bad threshold input fails the job with one line naming the input', async () => {
    const r = await runInProcess({ fake, event: PR_EVENT, workspace: sampleWorkspace('current'), inputs: { captures: 'captures', thresholds: 'decode_tok_s=fast' } });
    expect(r.code).toBe(1);
    expect([...r.errors, ...r.failures]).toEqual(["input 'thresholds': decode_tok_s=fast: 'fast' is not a positive number (a plain decimal up to 1000, e.g. 3)"]);
  });
});

describe('a baseline artifact on a bad day', () => {
  const WORKFLOW_REF = { GITHUB_WORKFLOW_REF: 'octo/gpu-app/.github/workflows/gpu.yml@refs/heads/main' };

  it.each([
    ['corrupt', '{"schemaVersion": 1, "tool": ', /: expected JSON, got /],
    ['from a newer profile-gate', JSON.stringify({ schemaVersion: 9, tool: { name: 'profile-gate', version: '4.0.0' } }), /: expected schemaVersion ≤ 8; this report was written by a newer profile-gate \(4\.0\.0\); upgrade/],
  ])('%s: a warning that says why, no comparison, the run still gated on its findings', async (_name, content, why) => {
    fake.addArtifact(100, NAME, { 'profile-gate/report.json': content });
    fake.registerRun({ id: 100, event: 'push', status: 'completed', conclusion: 'success', head_branch: 'main', head_sha: 'c'.repeat(40), workflow: 'gpu.yml' });
    const r = await runInProcess(analyzeOptions(fake, { runId: 200, env: WORKFLOW_REF }, { baseline: 'artifact' }));
    expect(r.code).toBe(0);
    const warnings = r.warnings.filter((w) => w.startsWith(`Skipped baseline candidate '${NAME}' of run 100: `));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(why);
    expect(r.outputs['verdict']).toBe('warn');
    expect(r.summary).toContain('no baseline: 1 artifact &#39;profile\\-gate\\-llama\\-h200&#39; on main could not be read \\(run 100: ');
    expect(JSON.parse(readFileSync(join(r.workspace, 'profile-gate', 'report.json'), 'utf8')).comparison).toBeNull();
  });
});
