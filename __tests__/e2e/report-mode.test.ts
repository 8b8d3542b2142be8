/**
 * End to end, smoke, mode report: matrix legs the bundle uploaded through the artifact service (Twirp
 * + blob) merged in the same run, and hostile artifacts read by the fork-safe stage 2 (workflow_run),
 * down to the workflow command lines the runner would parse. The rest of mode report runs in
 * process in __tests__/action/report-mode.test.ts.
 */
import { serializeReport } from '../../src/report/json.js';
import { workspace } from '../helpers/action-workspace.js';
import { type FakeGitHub } from '../helpers/fake-github.js';
import { runAction, type RunOptions, stderrBesidesKnownNoise, useFakeGitHubPerTest } from '../helpers/fake-github-runner.js';
import { finding, HOSTILE, makeReport, OUR_TAGS, rawTags, row, withoutFences } from '../report/report-factory.js';

const REPOSITORY = { full_name: 'octo/gpu-app', default_branch: 'main' };
const HEAD = 'b'.repeat(40);
const FORK_PR = { pull_request: { number: 7, head: { sha: HEAD, repo: { full_name: 'mallory/gpu-app' } } }, repository: REPOSITORY };

let fake: FakeGitHub;
useFakeGitHubPerTest((started) => (fake = started));

function leg(key: string, options: Partial<RunOptions> = {}, inputs: Record<string, string> = {}) {
  return runAction({ fake, workspace: workspace(), inputs: { captures: 'captures', key, comment: 'off', ...inputs }, ...options });
}

describe('matrix: legs upload, one report job merges', () => {
  it('merges every leg artifact of the run into one summary and one comment', async () => {
    const pr = { ...FORK_PR, pull_request: { ...FORK_PR.pull_request, head: { sha: HEAD, repo: { full_name: 'octo/gpu-app' } } } };
    const a = await leg('llama', { runId: 500, event: pr });
    const b = await leg('mixtral', { runId: 500, event: pr, job: 'gpu' }, { 'fail-on': 'host-bound', 'fail-on-severity': 'warning' });
    expect([a.code, b.code]).toEqual([0, 1]);
    // Each leg: its report artifact, and its captures beside it (never taken for a leg below).
    expect(fake.artifactsOfRun(500).map((x) => x.name).sort()).toEqual(['profile-gate-llama', 'profile-gate-llama-captures', 'profile-gate-mixtral', 'profile-gate-mixtral-captures']);
    expect(fake.commentsOn(7)).toHaveLength(0);

    const r = await runAction({ fake, runId: 500, event: pr, job: 'report', inputs: { mode: 'report' } });
    expect(stderrBesidesKnownNoise(r.stderr)).toBe('');
    // fail-verdicts (fail, invalid by default) judge the merged verdict: the failing leg fails this job too.
    expect(r.code).toBe(1);
    expect(r.outputs['verdict']).toBe('fail');
    expect(r.outputs['findings']!.split(',')).toContain('host-bound');
    expect(r.summary.split('\n')[0]).toBe('## profile-gate: ❌ Fail · 2 reports (1 fail, 1 warn)');
    expect(r.summary).toMatch(/\| mixtral \| ❌ Fail \| 0 errors, 2 warnings \| no baseline \| — \|\n\| llama \| ⚠️ Warn \|/);
    expect(r.summary.indexOf('### ❌ Fail · mixtral')).toBeLessThan(r.summary.indexOf('### ⚠️ Warn · llama'));
    const ids = fake.artifactsOfRun(500).filter((x) => !x.name.endsWith('-captures')).map((x) => x.id);
    for (const id of ids) expect(r.summary).toContain(`/actions/runs/500/artifacts/${id}`);
    // Read through the REST API within its limits (the same client as for other runs): one list,
    // then one download per leg; the captures artifacts are not downloaded.
    expect(fake.hits('artifacts.list')).toHaveLength(1);
    expect(fake.hits('artifacts.download')).toHaveLength(2);
    expect(fake.hits('twirp.GetSignedArtifactURL')).toHaveLength(0);

    const comments = fake.commentsOn(7);
    expect(comments).toHaveLength(1);
    expect(comments[0]!.body.split('\n').slice(0, 2)).toEqual(['<!-- profile-gate:report -->', '## profile-gate: ❌ Fail · 2 reports (1 fail, 1 warn)']);
    expect(comments[0]!.body).toContain('**mixtral** · ❌ Fail (no baseline)');
    expect(r.outputs['comment-url']).toBe(comments[0]!.html_url);
    // One warning annotation per warning finding of each leg, each naming its leg; primary ones first.
    expect(r.commands.filter((c) => c.startsWith('::warning title=')).map((c) => /title=profile-gate \[(\w+)\]/.exec(c)?.[1])).toEqual(['mixtral', 'llama', 'mixtral', 'llama']);
  });
});

describe('fork-safe: workflow_run reads what a fork uploaded', () => {
  const workflowRun = (runId: number, pullRequests: number[] = []) => ({
    workflow_run: { id: runId, event: 'pull_request', head_sha: HEAD, pull_requests: pullRequests.map((number) => ({ number })) },
    repository: REPOSITORY,
  });

  it('renders hostile artifacts inertly and skips invalid ones', async () => {
    const hostile = makeReport({
      verdict: 'fail',
      kernels: 3,
      kernelName: () => HOSTILE,
      workload: HOSTILE,
      findings: [finding({ severity: 'error', title: HOSTILE, message: HOSTILE, command: `${HOSTILE}\n\`\`\`\n</details>` })],
      rows: [row({ metric: `kernel:${HOSTILE}`, kind: 'kernel-share', status: 'fail' })],
    });
    fake.addArtifact(800, 'profile-gate-evil', {
      'profile-gate/report.json': serializeReport(hostile),
      'profile-gate/context.json': JSON.stringify({ pullRequest: 7, headSha: HEAD }),
    });
    fake.addArtifact(800, 'profile-gate-broken', { 'profile-gate/report.json': JSON.stringify({ schemaVersion: 9 }) });
    fake.addArtifact(800, 'unrelated-logs', { 'log.txt': 'x' });
    fake.pulls.set(7, { headSha: HEAD, headRepo: 'mallory/gpu-app' });
    const r = await runAction({ fake, runId: 801, eventName: 'workflow_run', event: workflowRun(800), inputs: { mode: 'report' } });
    // The failing leg and the one it cannot read each fail the job.
    expect(r.code).toBe(1);
    expect(r.commands.some((c) => c.startsWith('::error::profile-gate report: 1 report(s) could not be read'))).toBe(true);
    expect(r.outputs['verdict']).toBe('fail');
    expect(r.commands.some((c) => /^::warning::Skipped a report: .*report\.json: expected schemaVersion ≤ 8; this report was written by a newer profile-gate \(schemaVersion 9\); upgrade/.test(c))).toBe(true);
    expect(fake.hits('artifacts.download')).toHaveLength(2);
    const body = fake.commentsOn(7)[0]!.body;
    expect(body.startsWith('<!-- profile-gate:report -->\n')).toBe(true);
    // The hostile name's own marker survives only as text inside a fenced command.
    expect(withoutFences(body).match(/<!-- profile-gate:/g)).toHaveLength(1);
    for (const text of [body, r.summary]) {
      expect(rawTags(withoutFences(text)).filter((t) => !OUR_TAGS.has(t) && t !== '<!-- profile-gate:report -->')).toEqual([]);
      // Mentions are inert inside code; everywhere else they are broken.
      expect(withoutFences(text)).not.toContain('@octocat');
      expect(text.split('\n').some((l) => l.startsWith('# heading'))).toBe(false);
    }
    // The annotation of the hostile finding is one escaped workflow command line.
    const errors = r.commands.filter((c) => c.startsWith('::error title='));
    expect(errors).toHaveLength(1);
    expect(r.stdout.split('\n').filter((l) => l.startsWith('::') && !/^::(error|warning|notice|debug|add-mask)[ :]/.test(l))).toEqual([]);
    expect(r.stdout).not.toMatch(/^# heading/m);
  });
});
