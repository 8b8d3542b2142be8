/**
 * Accepting an intended regression on the pull request (src/compare/acceptance.ts, read at the
 * action's edge by src/action/github/acceptance.ts): the action in process against the loopback
 * GitHub, which records labels in the issue's events, comments with their times, and answers each
 * user's permission as GitHub does (maintain is write, triage is read). Our own modules run as they are.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Report } from '../../src/model/report.js';
import { analyze } from '../../src/pipeline/analyze.js';
import { serializeReport } from '../../src/report/json.js';
import { buildDashboardData } from '../../src/report/dashboard/index.js';
import { VERDICT_ORDER } from '../../src/report/dashboard/data.js';
import { sampleWorkspace } from '../helpers/action-workspace.js';
import { runInProcess } from '../helpers/fake-action-host.js';
import type { FakeGitHub } from '../helpers/fake-github.js';
import { PR_EVENT, useFakeGitHub } from '../helpers/fake-github-runner.js';
import { linesOf } from '../helpers/gate-lines.js';

let fake: FakeGitHub;
useFakeGitHub((started) => (fake = started));

const LABEL = 'perf-regression-accepted';
const HEAD = 'a'.repeat(40);
const written = (ws: string) => JSON.parse(readFileSync(join(ws, 'profile-gate', 'report.json'), 'utf8')) as Report;
const INPUTS = { captures: 'captures', key: 'k', 'upload-artifact': 'false', baseline: 'baseline.json' };

async function sampleReport(sample: 'baseline' | 'current'): Promise<Report> {
  const ws = sampleWorkspace(sample);
  return analyze({ inputs: readdirSync(join(ws, 'captures')).map((name) => join(ws, 'captures', name)) });
}

/** samples/current against samples/baseline: the sample regression, which fails. */
async function regressionWorkspace(edit: (baseline: Report) => Report = (b) => b): Promise<string> {
  const ws = sampleWorkspace('current');
  writeFileSync(join(ws, 'baseline.json'), serializeReport(edit(await sampleReport('baseline'))));
  return ws;
}

/** A run of `sha` on the PR's branch, created when it was pushed. */
function pushed(sha: string, at: string, id: number): void {
  fake.registerRun({ id, event: 'pull_request', status: 'completed', conclusion: 'failure', head_branch: 'feature', head_sha: sha, created_at: at });
}

/** The head commit's run, created when it was pushed: a minute ago, before any label or comment of the test. */
function pushedAMinuteAgo(): void {
  pushed(HEAD, new Date(Date.now() - 60_000).toISOString(), 4000);
}

beforeEach(() => {
  fake.pulls.set(7, { headSha: HEAD, headRepo: 'octo/gpu-app' });
});

const failingMetrics = (report: Report) => report.comparison!.rows.filter((r) => r.status === 'fail').map((r) => r.metric);

describe('accepting a regression on the pull request', () => {
  it('without an acceptance the sample regression fails the job (the ground the other cases stand on)', async () => {
    const ws = await regressionWorkspace();
    const r = await runInProcess({ fake, event: PR_EVENT, workspace: ws, inputs: INPUTS });
    const report = written(ws);
    expect(report.verdict).toBe('fail');
    expect(failingMetrics(report).length).toBeGreaterThan(0);
    expect(report.acceptance).toBeUndefined();
    expect(r.failures).toHaveLength(1);
    // The comment says how to accept, in the workflow's own label and command.
    // The command names the head's short SHA, as a line to copy.
    const body = fake.commentsOn(7).at(-1)!.body;
    expect(body).toContain('Slower on purpose? Someone with write access adds the label <code>perf-regression-accepted</code> or comments <code>/profile-gate accept aaaaaaa</code> (then, optionally, the rows it accepts and a reason), then re-runs the job');
    expect(body).toContain('```\n/profile-gate accept aaaaaaa reason…\n```');
    // The summary prints it too.
    expect(r.summary).toContain('comments <code>/profile-gate accept aaaaaaa</code> (then, optionally, the rows it accepts and a reason)');
  });

  it('the label added by a maintainer accepts: the job passes, the rows stay failing, and the report, summary and comment say who', async () => {
    pushedAMinuteAgo();
    fake.roles.set('maint', 'maintain');
    const event = fake.label(7, LABEL, 'maint');
    const ws = await regressionWorkspace();
    const r = await runInProcess({ fake, event: PR_EVENT, workspace: ws, inputs: INPUTS });
    const report = written(ws);
    expect(report.verdict).toBe('accepted');
    expect(r.outputs['verdict']).toBe('accepted');
    expect(r.failures).toEqual([]);
    expect(report.acceptance).toEqual({
      by: 'maint',
      via: 'label',
      at: event.created_at,
      url: 'https://github.com/octo/gpu-app/pull/7',
      covers: failingMetrics(report),
      headSha: 'a'.repeat(40),
    });
    // Every failing row is still there, with status fail.
    expect(failingMetrics(report).length).toBeGreaterThan(0);
    expect(linesOf(report)[0]).toMatch(/^accepted by @maint \(label\) on /);
    // Shown, not mentioned (no ping on every update).
    expect(r.summary).toContain('**Accepted by @<wbr>maint** ([label](https://github.com/octo/gpu-app/pull/7), ');
    expect(r.summary).toContain('the regression stays visible');
    expect(r.summary).toMatch(/❌ fail \(accepted\)/);
    const comment = fake.commentsOn(7).at(-1)!.body;
    expect(comment).toContain('☑️ Accepted regression');
    expect(comment).toContain('**Accepted by @<wbr>maint**');
    expect(comment).toMatch(/❌ fail \(accepted\)/);
    expect(comment).not.toContain('Slower on purpose?');
    expect(r.notices.some((n) => n.startsWith('profile-gate: accepted by @maint'))).toBe(true);
    // The permission was asked of GitHub, not taken from the label.
    expect(fake.hits('collaborators.permission').map((h) => h.url)).toEqual(['/repos/octo/gpu-app/collaborators/maint/permission']);
  });

  it('a label that was removed again accepts nothing', async () => {
    fake.roles.set('maint', 'maintain');
    fake.label(7, LABEL, 'maint');
    fake.label(7, LABEL, 'maint', 'unlabeled');
    const ws = await regressionWorkspace();
    const r = await runInProcess({ fake, event: PR_EVENT, workspace: ws, inputs: INPUTS });
    expect(written(ws).verdict).toBe('fail');
    expect(r.failures).toHaveLength(1);
  });

  it('the label added by someone without write access does not accept, and says so', async () => {
    pushedAMinuteAgo();
    fake.roles.set('helper', 'triage');
    fake.label(7, LABEL, 'helper');
    const ws = await regressionWorkspace();
    const r = await runInProcess({ fake, event: PR_EVENT, workspace: ws, inputs: INPUTS });
    const report = written(ws);
    expect(report.verdict).toBe('fail');
    expect(report.acceptance).toBeUndefined();
    expect(r.failures).toHaveLength(1);
    const line = 'the acceptance by @helper (label) is not applied: @helper has read access to the repository, and only write access accepts a regression';
    expect(linesOf(report)).toContain(line);
    expect(r.summary).toContain('@<wbr>helper has read access to the repository, and only write access accepts a regression');
    expect(r.warnings).toContain(`profile-gate: ${line}`);
  });

  it('the events are read across pages: a label added after 100 other events counts', async () => {
    pushedAMinuteAgo();
    fake.roles.set('maint', 'admin');
    for (let i = 0; i < 120; i++) fake.label(7, `area-${i}`, 'someone');
    fake.label(7, LABEL, 'maint');
    const ws = await regressionWorkspace();
    await runInProcess({ fake, event: PR_EVENT, workspace: ws, inputs: INPUTS });
    expect(written(ws).verdict).toBe('accepted');
    expect(fake.hits('events.list')).toHaveLength(2);
  });

  it('the comment command by a member with write access accepts, with its reason and link', async () => {
    pushedAMinuteAgo();
    fake.roles.set('alice', 'write');
    const comment = fake.addComment(7, 'Checked the numbers.\n/profile-gate accept aaaaaaa masking is now correct', 'alice');
    const ws = await regressionWorkspace();
    const r = await runInProcess({ fake, event: PR_EVENT, workspace: ws, inputs: INPUTS });
    const report = written(ws);
    expect(report.verdict).toBe('accepted');
    expect(r.failures).toEqual([]);
    expect(report.acceptance).toMatchObject({ by: 'alice', via: 'comment', at: comment.created_at, url: comment.html_url, reason: 'masking is now correct', covers: failingMetrics(report) });
    expect(r.summary).toContain(`**Accepted by @<wbr>alice** ([comment](${comment.html_url}), `);
  });

  it('a comment posted before the head was pushed does not accept the new head', async () => {
    fake.roles.set('alice', 'write');
    const comment = fake.addComment(7, '/profile-gate accept aaaaaaa', 'alice', '2020-01-01T00:00:00.000Z');
    const ws = await regressionWorkspace();
    const r = await runInProcess({ fake, event: PR_EVENT, workspace: ws, inputs: INPUTS });
    const report = written(ws);
    expect(report.verdict).toBe('fail');
    expect(r.failures).toHaveLength(1);
    expect(linesOf(report)[0]).toMatch(new RegExp(`^the acceptance by @alice \\(comment ${comment.html_url.replace(/[.#]/g, '\\$&')}\\) of 2020-01-01T00:00:00.000Z is not applied: it was given before the head aaaaaaa was last pushed`));
    // The push time comes from the runs of the PR's head branch.
    expect(fake.hits('runs.list').some((h) => h.url.includes('branch=feature'))).toBe(true);
  });

  it('a comment by someone with read access, or a quoted command, does not accept', async () => {
    pushedAMinuteAgo();
    fake.addComment(7, '/profile-gate accept aaaaaaa', 'passer-by');
    fake.roles.set('alice', 'write');
    fake.addComment(7, '> /profile-gate accept aaaaaaa\nWhy would we?', 'alice');
    const ws = await regressionWorkspace();
    const r = await runInProcess({ fake, event: PR_EVENT, workspace: ws, inputs: INPUTS });
    expect(written(ws).verdict).toBe('fail');
    expect(r.failures).toHaveLength(1);
    expect(linesOf(written(ws))).toContain('the acceptance by @passer-by (comment) is not applied: @passer-by has read access to the repository, and only write access accepts a regression');
  });

  it('a command that names only some failing rows accepts nothing, and names what is left', async () => {
    pushedAMinuteAgo();
    fake.roles.set('alice', 'write');
    const ws = await regressionWorkspace();
    const first = await runInProcess({ fake, event: PR_EVENT, workspace: ws, inputs: { ...INPUTS, comment: 'off' } });
    expect(first.failures).toHaveLength(1);
    const failing = failingMetrics(written(ws));
    fake.addComment(7, '/profile-gate accept aaaaaaa no_such_metric', 'alice');
    const again = await regressionWorkspace();
    const r = await runInProcess({ fake, event: PR_EVENT, workspace: again, inputs: { ...INPUTS, comment: 'off' } });
    const report = written(again);
    expect(report.verdict).toBe('fail');
    expect(r.failures).toHaveLength(1);
    // A kernel's row is named by its first 80 characters (its metric holds the whole templated name).
    const named = failing.slice(0, 5).map((m) => m.slice(0, 80));
    expect(failing.some((m) => m.startsWith('kernel-time:kernel:') && m.length > 80)).toBe(true);
    expect(linesOf(report)[0]).toBe(`the acceptance by @alice (comment) covers no failing row, not ${named.join(', ')}${failing.length > 5 ? `, and ${failing.length - 5} more` : ''}; no_such_metric names no failing row: not accepted`);
  });

  it('an invalid comparison is never accepted, and says why', async () => {
    pushedAMinuteAgo();
    fake.roles.set('maint', 'maintain');
    fake.label(7, LABEL, 'maint');
    const ws = await regressionWorkspace((b) => ({ ...b, environment: { ...b.environment, gpuName: 'NVIDIA H100 80GB HBM3' } }));
    const r = await runInProcess({ fake, event: PR_EVENT, workspace: ws, inputs: INPUTS });
    const report = written(ws);
    expect(report.verdict).toBe('invalid');
    expect(report.acceptance).toBeUndefined();
    expect(r.failures).toHaveLength(1);
    expect(linesOf(report)[0]).toBe('the acceptance by @maint (label) does not apply: the comparison is invalid, so nothing was compared to accept');
  });

  it('fail-verdicts listing accepted refuses acceptances: the job fails, the verdict still says accepted', async () => {
    pushedAMinuteAgo();
    fake.roles.set('maint', 'maintain');
    fake.label(7, LABEL, 'maint');
    const ws = await regressionWorkspace();
    const r = await runInProcess({ fake, event: PR_EVENT, workspace: ws, inputs: { ...INPUTS, 'fail-verdicts': 'fail,invalid,accepted' } });
    expect(written(ws).verdict).toBe('accepted');
    expect(r.failures).toHaveLength(1);
    expect(r.failures[0]).toMatch(/^profile-gate verdict: accepted \(accepted by @maint \(label\)/);
  });

  it('accept-label names another label, and none turns the label off', async () => {
    pushedAMinuteAgo();
    fake.roles.set('maint', 'maintain');
    fake.label(7, 'slower-on-purpose', 'maint');
    const named = await regressionWorkspace();
    await runInProcess({ fake, event: PR_EVENT, workspace: named, inputs: { ...INPUTS, 'accept-label': 'slower-on-purpose' } });
    expect(written(named).verdict).toBe('accepted');
    fake.label(7, LABEL, 'maint');
    const off = await regressionWorkspace();
    await runInProcess({ fake, event: PR_EVENT, workspace: off, inputs: { ...INPUTS, 'accept-label': 'none' } });
    expect(written(off).verdict).toBe('fail');
  });

  it('a token that may not read the events is a warning in the log, not a line of the verdict', async () => {
    fake.roles.set('maint', 'maintain');
    fake.label(7, LABEL, 'maint');
    fake.fail('events.list', { status: 403, body: { message: 'Resource not accessible by integration' }, times: 5 });
    const ws = await regressionWorkspace();
    const r = await runInProcess({ fake, event: PR_EVENT, workspace: ws, inputs: INPUTS });
    const report = written(ws);
    expect(report.verdict).toBe('fail');
    expect(linesOf(report)[0]).toMatch(/^decode_tok_s regressed/);
    expect(r.warnings.find((w) => w.startsWith(`profile-gate: the label ${LABEL} was not read: `))).toMatch(/403/);
  });

  it('off a pull request nothing is asked of GitHub', async () => {
    const ws = await regressionWorkspace();
    const r = await runInProcess({ fake, eventName: 'push', event: {}, workspace: ws, inputs: { ...INPUTS, comment: 'off' } });
    expect(written(ws).verdict).toBe('fail');
    expect(r.failures).toHaveLength(1);
    expect(fake.hits('events.list')).toEqual([]);
    expect(fake.hits('comments.list')).toEqual([]);
  });

  it('the dashboard keeps the accepted verdict and who accepted it', async () => {
    pushedAMinuteAgo();
    fake.roles.set('maint', 'maintain');
    fake.label(7, LABEL, 'maint');
    const ws = await regressionWorkspace();
    await runInProcess({ fake, event: PR_EVENT, workspace: ws, inputs: INPUTS });
    const report = written(ws);
    const data = buildDashboardData([{ report, source: 'report.json' }], [], { generatedAt: '2026-05-01T00:00:00.000Z' });
    const points = data.workloads[0]!.points;
    expect(points.verdict).toEqual([VERDICT_ORDER.indexOf('accepted')]);
    expect(points.accepted).toEqual(['maint']);
  });
});

describe('an acceptance nobody can carry to another commit or forge', () => {
  const DEF = 'd'.repeat(40);
  const at = (hoursAgo: number) => new Date(Date.now() - hoursAgo * 3_600_000).toISOString();

  /** abc (the head, HEAD) pushed five hours ago, replaced by def four hours ago, pushed again two hours ago, without a force push event. */
  function abcDefAbc(): void {
    pushed(HEAD, at(5), 4001);
    pushed(DEF, at(4), 4002);
    pushed(HEAD, at(2), 4003);
  }

  it('a comment and a label given to def are not carried to abc pushed again', async () => {
    abcDefAbc();
    fake.roles.set('maint', 'maintain');
    fake.addComment(7, '/profile-gate accept ddddddd masking fix, 3 % is the price', 'maint', at(3));
    fake.label(7, LABEL, 'maint', 'labeled', at(3));
    const ws = await regressionWorkspace();
    const r = await runInProcess({ fake, event: PR_EVENT, workspace: ws, inputs: INPUTS });
    const report = written(ws);
    expect(report.verdict).toBe('fail');
    expect(report.acceptance).toBeUndefined();
    expect(r.failures).toHaveLength(1);
    // Both refusals are @maint's: one line, with the count, and one annotation.
    const line = linesOf(report).find((l: string) => l.includes('@maint'))!;
    expect(line).toMatch(/^the label perf-regression-accepted added by @maint of .* is not applied: it was given before the head aaaaaaa was last pushed \(/);
    expect(line).toMatch(/remove the label and add it again \(2 acceptances by @maint were refused; the first is shown\)$/);
    expect(r.host.annotations.filter((a) => a.title === 'profile-gate: acceptance not applied')).toHaveLength(1);
  });

  it('a comment for def alone is refused as naming another commit; a bare command as naming none', async () => {
    abcDefAbc();
    fake.roles.set('maint', 'maintain');
    fake.roles.set('alice', 'write');
    fake.addComment(7, '/profile-gate accept ddddddd masking fix, 3 % is the price', 'maint');
    fake.addComment(7, '/profile-gate accept masking fix, 3 % is the price', 'alice');
    const ws = await regressionWorkspace();
    await runInProcess({ fake, event: PR_EVENT, workspace: ws, inputs: INPUTS });
    const report = written(ws);
    expect(report.verdict).toBe('fail');
    expect(linesOf(report).find((l: string) => l.includes('@maint'))).toMatch(/is not applied: it accepts ddddddd, not the head aaaaaaa this report is for$/);
    expect(linesOf(report).find((l: string) => l.includes('@alice'))).toMatch(/is not applied: it names no commit; to accept the head, comment \/profile-gate accept aaaaaaa \(then, optionally, the rows and a reason\)$/);
  });

  it('the label added again after abc came back accepts abc', async () => {
    abcDefAbc();
    fake.roles.set('maint', 'maintain');
    fake.label(7, LABEL, 'maint', 'labeled', at(3));
    fake.label(7, LABEL, 'maint', 'unlabeled', at(1.5));
    const added = fake.label(7, LABEL, 'maint', 'labeled', at(1));
    const ws = await regressionWorkspace();
    await runInProcess({ fake, event: PR_EVENT, workspace: ws, inputs: INPUTS });
    expect(written(ws).verdict).toBe('accepted');
    expect(written(ws).acceptance).toMatchObject({ by: 'maint', via: 'label', at: added.created_at, headSha: HEAD });
  });

  it('a force push of the head is a push: a label added before it does not accept', async () => {
    pushed(HEAD, at(5), 4001);
    fake.roles.set('maint', 'maintain');
    fake.label(7, LABEL, 'maint', 'labeled', at(3));
    // No run came of the force push (its workflows skipped it): only the event tells.
    const forced = fake.event(7, 'head_ref_force_pushed', 'contributor', at(2), { commit_id: HEAD });
    const ws = await regressionWorkspace();
    await runInProcess({ fake, event: PR_EVENT, workspace: ws, inputs: INPUTS });
    expect(written(ws).verdict).toBe('fail');
    expect(linesOf(written(ws)).find((l: string) => l.includes('@maint'))).toContain(`was last pushed (${forced.created_at})`);
  });

  it('a label removed after 2,100 other events accepts nothing', async () => {
    pushedAMinuteAgo();
    fake.roles.set('maint', 'maintain');
    fake.label(7, LABEL, 'maint');
    for (let i = 0; i < 2100; i++) fake.event(7, 'renamed', 'contributor', undefined, { rename: { from: `t${i}`, to: `t${i + 1}` } });
    fake.label(7, LABEL, 'maint', 'unlabeled');
    const ws = await regressionWorkspace();
    const r = await runInProcess({ fake, event: PR_EVENT, workspace: ws, inputs: INPUTS });
    expect(written(ws).verdict).toBe('fail');
    expect(r.failures).toHaveLength(1);
  });

  it('a label added before 2,100 other events, still on, is found at the end of the events', async () => {
    pushedAMinuteAgo();
    fake.roles.set('maint', 'maintain');
    const added = fake.label(7, LABEL, 'maint');
    for (let i = 0; i < 2100; i++) fake.event(7, 'renamed', 'contributor', undefined, { rename: { from: `t${i}`, to: `t${i + 1}` } });
    const ws = await regressionWorkspace();
    await runInProcess({ fake, event: PR_EVENT, workspace: ws, inputs: INPUTS });
    expect(written(ws).verdict).toBe('accepted');
    expect(written(ws).acceptance).toMatchObject({ by: 'maint', at: added.created_at });
    // 2,102 events at 100 a page: every one of the 22 pages, newest first.
    expect(fake.hits('events.list')).toHaveLength(22);
  });

  it('the sticky comment as comment 2,050 is updated, not posted again, and the accept command as comment 2,051 is read', async () => {
    pushedAMinuteAgo();
    for (let i = 0; i < 2049; i++) fake.addComment(7, `chatter ${i}`, 'someone');
    const first = await runInProcess({ fake, event: PR_EVENT, workspace: await regressionWorkspace(), inputs: INPUTS, runId: 5001 });
    expect(first.failures).toHaveLength(1);
    const sticky = fake.commentsOn(7).filter((c) => c.user.login === 'github-actions[bot]');
    expect(sticky).toHaveLength(1);
    expect(fake.commentsOn(7).indexOf(sticky[0]!)).toBe(2049);
    fake.roles.set('alice', 'write');
    const command = fake.addComment(7, '/profile-gate accept aaaaaaa the price of the fix', 'alice');
    expect(fake.commentsOn(7).indexOf(command)).toBe(2050);
    const ws = await regressionWorkspace();
    const r = await runInProcess({ fake, event: PR_EVENT, workspace: ws, inputs: INPUTS, runId: 5002 });
    expect(written(ws).verdict).toBe('accepted');
    expect(written(ws).acceptance).toMatchObject({ by: 'alice', via: 'comment', url: command.html_url });
    expect(r.failures).toEqual([]);
    await runInProcess({ fake, event: PR_EVENT, workspace: await regressionWorkspace(), inputs: INPUTS, runId: 5003 });
    const ours = fake.commentsOn(7).filter((c) => c.user.login === 'github-actions[bot]');
    expect(ours.map((c) => c.id)).toEqual([sticky[0]!.id]);
    expect(ours[0]!.body).toContain('☑️ Accepted regression');
  });

  it('the command inside a fenced code block, an indented block or an HTML comment does not accept', async () => {
    pushedAMinuteAgo();
    fake.roles.set('maint', 'maintain');
    fake.addComment(7, 'Ask a maintainer to run\n```\n/profile-gate accept aaaaaaa\n```\nI have not looked yet.', 'maint');
    fake.addComment(7, 'Or:\n~~~text\n/profile-gate accept aaaaaaa\n~~~', 'maint');
    fake.addComment(7, 'Like this:\n\n    /profile-gate accept aaaaaaa\n', 'maint');
    fake.addComment(7, '<!--\n/profile-gate accept aaaaaaa\n-->\nnot yet', 'maint');
    const ws = await regressionWorkspace();
    const r = await runInProcess({ fake, event: PR_EVENT, workspace: ws, inputs: INPUTS });
    expect(written(ws).verdict).toBe('fail');
    expect(r.failures).toHaveLength(1);
    // Not a refused acceptance either: no command was read.
    expect(linesOf(written(ws)).some((l: string) => l.includes('@maint'))).toBe(false);
  });

  it('300 accept comments by a read-only user are one annotation, with the count', async () => {
    pushedAMinuteAgo();
    for (let i = 0; i < 300; i++) fake.addComment(7, `/profile-gate accept aaaaaaa please ${i}`, 'passer-by');
    const ws = await regressionWorkspace();
    const r = await runInProcess({ fake, event: PR_EVENT, workspace: ws, inputs: INPUTS });
    expect(written(ws).verdict).toBe('fail');
    const refused = r.host.annotations.filter((a) => a.title === 'profile-gate: acceptance not applied');
    expect(refused).toHaveLength(1);
    expect(refused[0]!.message).toBe('profile-gate: the acceptance by @passer-by (comment) is not applied: @passer-by has read access to the repository, and only write access accepts a regression (300 acceptances by @passer-by were refused; the first is shown)');
    expect(linesOf(written(ws)).filter((l: string) => l.includes('@passer-by'))).toHaveLength(1);
    // Their permission was asked once.
    expect(fake.hits('collaborators.permission')).toHaveLength(1);
  });
});
