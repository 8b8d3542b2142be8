/**
 * End to end: the baseline from main's report artifact (input baseline: artifact). A push run on main
 * uploads the healthy H200 run's report; the pull request's run finds it through the REST API, compares,
 * and fails on the real 17% regression. A run produced by a fork's code is never taken as a baseline.
 */
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FakeGitHub } from '../helpers/fake-github.js';
import { PR_EVENT, ROOT, runAction, stderrBesidesKnownNoise, useFakeGitHubPerTest } from '../helpers/fake-github-runner.js';

const WORKFLOW_REF = { GITHUB_WORKFLOW_REF: 'octo/gpu-app/.github/workflows/gpu.yml@refs/heads/main' };

function workspaceWith(sample: 'baseline' | 'current'): string {
  const dir = mkdtempSync(join(tmpdir(), 'pg-ws-'));
  cpSync(join(ROOT, 'samples', sample), join(dir, 'captures'), { recursive: true });
  return dir;
}

let fake: FakeGitHub;
useFakeGitHubPerTest((started) => (fake = started));

async function pushOnMain(runId: number, headRepositoryId?: number): Promise<void> {
  const push = await runAction({
    fake,
    runId,
    eventName: 'push',
    event: { repository: PR_EVENT.repository },
    workspace: workspaceWith('baseline'),
    inputs: { captures: 'captures', key: 'llama-h200' },
    env: { ...WORKFLOW_REF, GITHUB_REF: 'refs/heads/main' },
  });
  expect(push.code).toBe(0);
  fake.runs.push({ id: runId, event: 'push', status: 'completed', conclusion: 'success', head_branch: 'main', head_sha: 'c'.repeat(40), workflow: 'gpu.yml', ...(headRepositoryId ? { headRepositoryId } : {}) });
}

function pullRequestRun() {
  return runAction({
    fake,
    runId: 200,
    event: PR_EVENT,
    workspace: workspaceWith('current'),
    inputs: { captures: 'captures', key: 'llama-h200', baseline: 'artifact' },
    env: WORKFLOW_REF,
  });
}

describe('baseline: artifact', () => {
  it("compares with the newest successful push run's report on main and fails on the regression", async () => {
    await pushOnMain(100);
    const r = await pullRequestRun();
    expect(stderrBesidesKnownNoise(r.stderr)).toBe('');
    expect(r.code).toBe(1);
    expect(r.outputs['verdict']).toBe('fail');
    // The summary names the baseline and why it was chosen, and the decode regression leads the alerts.
    expect(r.summary).toMatch(/- Why: newest successful push run on main with artifact [^\n]*profile\\-gate\\-llama\\-h200[^\n]*\\\(run 100, ccccccc\\\)/);
    expect(r.summary).toContain("| Decode throughput | 378.5 tok/s | 313.9 tok/s | -17.1% |");
    expect(r.commands.some((c) => c.startsWith('::error::profile-gate verdict: fail'))).toBe(true);
    // It was found through the REST API: the runs list and the baseline run's artifacts.
    expect(fake.hits('runs.list')).toHaveLength(1);
    expect(fake.hits('artifacts.list').length).toBeGreaterThanOrEqual(1);
  });

  it('never takes a run produced by a fork as the baseline', async () => {
    await pushOnMain(100, 999);
    const r = await pullRequestRun();
    expect(r.code).toBe(1); // still fails: unfused-attention is in fail-on and there is no baseline to excuse it
    expect(r.summary).toContain('no baseline: no artifact');
    expect(fake.hits('artifacts.list')).toHaveLength(0);
  });

  it('a bad threshold input fails the job with one line naming the input', async () => {
    const r = await runAction({ fake, event: PR_EVENT, workspace: workspaceWith('current'), inputs: { captures: 'captures', thresholds: 'decode_tok_s=fast' } });
    expect(r.code).toBe(1);
    expect(r.commands.filter((c) => c.startsWith('::error::'))).toEqual(["::error::input 'thresholds': decode_tok_s=fast: 'fast' is not a positive number"]);
  });
});
