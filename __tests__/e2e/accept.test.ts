/**
 * Accepting a regression, end to end: the bundled action (dist/index.js) spawned as the runner
 * spawns it, against the loopback GitHub, which holds the PR's labels and events, its comments, the
 * runs of its branch and each user's permission. The baseline is written by the bundled CLI. The
 * cases run in process, one by one, in __tests__/action/accept.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sampleWorkspace } from '../helpers/action-workspace.js';
import type { FakeGitHub } from '../helpers/fake-github.js';
import { PR_EVENT, ROOT, runAction, stderrBesidesKnownNoise, useFakeGitHubPerTest } from '../helpers/fake-github-runner.js';

let fake: FakeGitHub;
useFakeGitHubPerTest((started) => (fake = started));

const HEAD = 'a'.repeat(40);
const DEF = 'd'.repeat(40);
const LABEL = 'perf-regression-accepted';
const at = (hoursAgo: number) => new Date(Date.now() - hoursAgo * 3_600_000).toISOString();
const INPUTS = { captures: 'captures', key: 'k', 'upload-artifact': 'false', baseline: 'baseline.json' };

/** samples/current in captures/, samples/baseline's report (by the bundled CLI) as baseline.json: the sample regression. */
function regressionWorkspace(): string {
  const ws = sampleWorkspace('current');
  const cli = spawnSync(process.execPath, [join(ROOT, 'dist', 'cli', 'index.js'), 'analyze', '--json', join(ws, 'baseline.json'), join(ROOT, 'samples', 'baseline')], { encoding: 'utf8' });
  expect(cli.status).toBe(0);
  return ws;
}

function pushed(sha: string, when: string, id: number): void {
  fake.registerRun({ id, event: 'pull_request', status: 'completed', conclusion: 'failure', head_branch: 'feature', head_sha: sha, created_at: when });
}

beforeEach(() => {
  fake.pulls.set(7, { headSha: HEAD, headRepo: 'octo/gpu-app' });
});

describe('an acceptance, through the bundle', () => {
  it('abc pushed, replaced by def, def accepted, abc pushed again: abc is not accepted, and the comment gives the line for abc', async () => {
    pushed(HEAD, at(5), 4001);
    pushed(DEF, at(4), 4002);
    pushed(HEAD, at(2), 4003);
    fake.roles.set('maint', 'maintain');
    fake.addComment(7, '/profile-gate accept ddddddd masking fix, 3 % is the price', 'maint', at(3));
    fake.label(7, LABEL, 'maint', 'labeled', at(3));
    const r = await runAction({ fake, event: PR_EVENT, workspace: regressionWorkspace(), inputs: INPUTS });
    expect(stderrBesidesKnownNoise(r.stderr)).toBe('');
    expect(r.code).toBe(1);
    expect(r.outputs['verdict']).toBe('fail');
    const report = JSON.parse(readFileSync(join(r.workspace, 'profile-gate', 'report.json'), 'utf8')) as { verdict: string; acceptance?: unknown };
    expect(report.acceptance).toBeUndefined();
    // One annotation for @maint's two refusals.
    const refused = r.commands.filter((c) => c.startsWith('::warning title=profile-gate%3A acceptance not applied::'));
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatch(/was last pushed .*\(2 acceptances by @maint were refused; the first is shown\)$/);
    const comment = fake.commentsOn(7).find((c) => c.user.login === 'github-actions[bot]')!.body;
    expect(comment).toContain('```\n/profile-gate accept aaaaaaa reason…\n```');
  });

  it('300 accept comments by a read-only user: one annotation, with the count; a maintainer\'s comment for the head accepts', async () => {
    pushed(HEAD, at(1), 4001);
    for (let i = 0; i < 300; i++) fake.addComment(7, `/profile-gate accept aaaaaaa please ${i}`, 'passer-by');
    fake.roles.set('maint', 'maintain');
    fake.addComment(7, 'Seen it.\n/profile-gate accept aaaaaaa -- the masking fix costs this', 'maint');
    const r = await runAction({ fake, event: PR_EVENT, workspace: regressionWorkspace(), inputs: INPUTS });
    expect(stderrBesidesKnownNoise(r.stderr)).toBe('');
    expect(r.code).toBe(0);
    expect(r.outputs['verdict']).toBe('accepted');
    const refused = r.commands.filter((c) => c.startsWith('::warning title=profile-gate%3A acceptance not applied::'));
    expect(refused).toEqual([
      '::warning title=profile-gate%3A acceptance not applied::profile-gate: the acceptance by @passer-by (comment) is not applied: @passer-by has read access to the repository, and only write access accepts a regression (300 acceptances by @passer-by were refused; the first is shown)',
    ]);
  });
});
