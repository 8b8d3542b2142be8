/**
 * The example workflows, followed literally: each file's trigger and the `with:` of its profile-gate
 * step are read from examples/*.yml (parsed as YAML, so the test follows the file), and the bundled
 * action runs them as the runner would, against the loopback GitHub, on a box whose `max` is the
 * stand-in. First main's baseline workflow on a push, then the gate on a pull request: the gate must
 * find main's report and compare with it.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { Report } from '../../src/model/report.js';
import { type FakeGitHub } from '../helpers/fake-github.js';
import { PR_EVENT, ROOT, runAction, stderrBesidesKnownNoise, useFakeGitHubPerTest } from '../helpers/fake-github-runner.js';
import { STAND_IN_DIR } from '../runner/stand-ins.js';

interface Step {
  uses?: string;
  with?: Record<string, string | number | boolean>;
}
interface Workflow {
  on: Record<string, { branches?: string[] } | null>;
  jobs: Record<string, { if?: string; steps?: Step[]; strategy?: { matrix?: Record<string, unknown[]> } }>;
}

function workflow(file: string): Workflow {
  if (file === 'README.md') {
    // The README's workflow: the yaml block under "## The action".
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    return parse(/```yaml\n([\s\S]*?)\n```/.exec(readme.slice(readme.indexOf('\n## The action\n')))![1]!) as Workflow;
  }
  return parse(readFileSync(join(ROOT, 'examples', file), 'utf8')) as Workflow;
}

/**
 * The `with:` of the job's profile-gate step, as strings (the runner hands every input over as
 * text), with `${{ matrix.X }}` filled from one matrix combination.
 */
function actionInputs(wf: Workflow, job: string, matrix: Record<string, string> = {}): Record<string, string> {
  const step = wf.jobs[job]!.steps!.find((s) => s.uses?.startsWith('profile-gate/profile-gate@'))!;
  const fill = (v: string): string => v.replace(/\$\{\{\s*matrix\.(\w+)\s*\}\}/g, (_m, key: string) => matrix[key] ?? '');
  const inputs = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, fill(String(v))]));
  expect(Object.values(inputs).join(' ')).not.toContain('${{');
  // The examples run on GPU runners; this box has none (the stand-in max only), and a run that finds
  // no GPU stops unless allowed. The one input the test adds to what is written.
  expect(inputs['allow-no-gpu']).toBeUndefined();
  return inputs['mode'] === 'run' ? { ...inputs, 'allow-no-gpu': 'true' } : inputs;
}

/** Every combination of a job's matrix. */
function combinations(matrix: Record<string, unknown[]>): Record<string, string>[] {
  return Object.entries(matrix).reduce<Record<string, string>[]>((all, [key, values]) => all.flatMap((c) => values.map((v) => ({ ...c, [key]: String(v) }))), [{}]);
}

let fake: FakeGitHub;
useFakeGitHubPerTest((started) => (fake = started));

/** A runner box: the stand-in `max` first on PATH, a fresh checkout as the workspace. */
const box = () => ({ workspace: mkdtempSync(join(tmpdir(), 'pg-example-')), env: { PATH: `${STAND_IN_DIR}:${process.env['PATH'] ?? ''}` } });

describe('examples/baseline-main.yml then examples/pr-gate.yml, as written', () => {
  it('the pull request gate finds the baseline that main uploaded, and compares with it', async () => {
    const baseline = workflow('baseline-main.yml');
    const gate = workflow('pr-gate.yml');
    // Their triggers: a push to main, then a pull request.
    expect(baseline.on['push']?.branches).toEqual(['main']);
    expect(Object.keys(gate.on)).toEqual(['pull_request']);
    // The gate runs only for pull requests from this repository: PR_EVENT is one.
    expect(gate.jobs['gate']!.if).toBe('github.event.pull_request.head.repo.full_name == github.repository');

    const main = box();
    const push = await runAction({
      fake,
      runId: 100,
      eventName: 'push',
      event: { repository: PR_EVENT.repository },
      workspace: main.workspace,
      inputs: actionInputs(baseline, 'baseline'),
      env: { ...main.env, GITHUB_REF: 'refs/heads/main', GITHUB_WORKFLOW_REF: 'octo/gpu-app/.github/workflows/baseline-main.yml@refs/heads/main' },
    });
    expect(stderrBesidesKnownNoise(push.stderr)).toBe('');
    expect(push.code).toBe(0);

    const pr = box();
    const r = await runAction({
      fake,
      runId: 200,
      event: PR_EVENT,
      workspace: pr.workspace,
      inputs: actionInputs(gate, 'gate'),
      env: { ...pr.env, GITHUB_WORKFLOW_REF: 'octo/gpu-app/.github/workflows/pr-gate.yml@refs/pull/7/merge' },
    });
    expect(stderrBesidesKnownNoise(r.stderr)).toBe('');
    const report = JSON.parse(readFileSync(join(pr.workspace, 'profile-gate', 'report.json'), 'utf8')) as Report;
    // A comparison happened, against main's artifact from the other workflow's run.
    expect(report.comparison).not.toBeNull();
    expect(report.comparison!.baseline.origin).toBe('artifact');
    expect(report.comparison!.baseline.reason).toMatch(/^newest readable artifact 'profile-gate-llama-3\.1-8b' on main \(run 100/);
    expect(report.comparison!.rows.some((row) => row.metric === 'decode_tok_s' && row.baseline !== null && row.current !== null)).toBe(true);
    expect(r.summary).not.toContain('No baseline');
    expect(fake.commentsOn(7)).toHaveLength(1);
    expect(fake.commentsOn(7)[0]!.body).not.toContain('no baseline');
  }, 120_000);
});

describe('examples/matrix.yml, as written', () => {
  it('on a push to main every leg uploads its baseline; on the pull request every leg compares with its own', async () => {
    const matrix = workflow('matrix.yml');
    expect(Object.keys(matrix.on).sort()).toEqual(['pull_request', 'push']);
    expect(matrix.on['push']?.branches).toEqual(['main']);
    const legs = combinations(matrix.jobs['profile']!.strategy!.matrix!);
    expect(legs).toHaveLength(4);
    const ref = (at: string) => ({ GITHUB_WORKFLOW_REF: `octo/gpu-app/.github/workflows/matrix.yml@${at}` });
    for (const leg of legs) {
      const main = box();
      const push = await runAction({ fake, runId: 100, job: 'profile', eventName: 'push', event: { repository: PR_EVENT.repository }, workspace: main.workspace, inputs: actionInputs(matrix, 'profile', leg), env: { ...main.env, ...ref('refs/heads/main'), GITHUB_REF: 'refs/heads/main' } });
      expect(push.code).toBe(0);
    }
    for (const leg of legs) {
      const pr = box();
      const r = await runAction({ fake, runId: 200, job: 'profile', event: PR_EVENT, workspace: pr.workspace, inputs: actionInputs(matrix, 'profile', leg), env: { ...pr.env, ...ref('refs/pull/7/merge') } });
      expect(stderrBesidesKnownNoise(r.stderr)).toBe('');
      const report = JSON.parse(readFileSync(join(pr.workspace, 'profile-gate', 'report.json'), 'utf8')) as Report;
      expect(report.comparison?.baseline.reason).toMatch(/^newest readable artifact '[^']+' on main \(run 100/);
    }
    const merged = await runAction({ fake, runId: 200, job: 'report', event: PR_EVENT, inputs: actionInputs(matrix, 'report'), env: ref('refs/pull/7/merge') });
    expect(merged.code).toBe(0);
    expect(merged.summary.split('\n')[0]).toMatch(/· 4 reports/);
    expect(merged.summary).not.toContain('no baseline');
  }, 240_000);
});

/**
 * A workflow that triggers on both a push to main and a pull request, run as written: the push
 * uploads the baseline, the pull request finds it and comments. Before the push, the pull request
 * finds no baseline and says so.
 */
async function pushThenPullRequest(file: string, job: string, prepare: (workspace: string) => void = () => undefined): Promise<void> {
  const wf = workflow(file);
  expect(Object.keys(wf.on).sort()).toEqual(['pull_request', 'push']);
  expect(wf.on['push']?.branches).toEqual(['main']);
  const ref = (at: string) => ({ GITHUB_WORKFLOW_REF: `octo/gpu-app/.github/workflows/${file}@${at}` });

  const early = box();
  prepare(early.workspace);
  const before = await runAction({ fake, runId: 50, job, event: PR_EVENT, workspace: early.workspace, inputs: actionInputs(wf, job), env: { ...early.env, ...ref('refs/pull/7/merge') } });
  expect(before.summary).toMatch(/no baseline/i);

  const main = box();
  prepare(main.workspace);
  const push = await runAction({ fake, runId: 100, job, eventName: 'push', event: { repository: PR_EVENT.repository }, workspace: main.workspace, inputs: actionInputs(wf, job), env: { ...main.env, ...ref('refs/heads/main'), GITHUB_REF: 'refs/heads/main' } });
  expect(stderrBesidesKnownNoise(push.stderr)).toBe('');
  expect(push.code).toBe(0);

  const pr = box();
  prepare(pr.workspace);
  const r = await runAction({ fake, runId: 200, job, event: PR_EVENT, workspace: pr.workspace, inputs: actionInputs(wf, job), env: { ...pr.env, ...ref('refs/pull/7/merge') } });
  expect(stderrBesidesKnownNoise(r.stderr)).toBe('');
  const report = JSON.parse(readFileSync(join(pr.workspace, 'profile-gate', 'report.json'), 'utf8')) as Report;
  expect(report.comparison?.baseline.origin).toBe('artifact');
  expect(report.comparison!.baseline.reason).toMatch(/^newest readable artifact '[^']+' on main \(run 100/);
  expect(r.summary).not.toMatch(/no baseline/i);
  expect(fake.commentsOn(7).length).toBeGreaterThan(0);
}

describe("the README's workflow, as written", () => {
  it('on a push to main it uploads the baseline; on the pull request it compares with it and comments', async () => {
    await pushThenPullRequest('README.md', 'gate');
  }, 180_000);
});

describe('examples/analyze.yml, as written', () => {
  it('reads the captures an earlier step left, and compares with main\'s', async () => {
    // What the workload step writes: the bundled real captures of one decode workload.
    const traces = (workspace: string) => {
      mkdirSync(join(workspace, 'traces'));
      cpSync(join(ROOT, 'samples', 'baseline'), join(workspace, 'traces'), { recursive: true });
    };
    await pushThenPullRequest('analyze.yml', 'gate', traces);
  }, 180_000);
});

describe('examples/fork-safe-pr.yml, as written', () => {
  it("measures a fork's pull request against main's baseline, with comments off", async () => {
    const fork = workflow('fork-safe-pr.yml');
    const baseline = workflow('baseline-main.yml');
    // A fork's head repository: the job's if: lets it through (and keeps this repository's PRs out).
    const forkEvent = { ...PR_EVENT, pull_request: { ...PR_EVENT.pull_request, head: { ...PR_EVENT.pull_request.head, repo: { full_name: 'stranger/gpu-app' } } } };
    expect(fork.jobs['profile']!.if).toBe('github.event.pull_request.head.repo.full_name != github.repository');

    const main = box();
    const push = await runAction({ fake, runId: 100, eventName: 'push', event: { repository: PR_EVENT.repository }, workspace: main.workspace, inputs: actionInputs(baseline, 'baseline'), env: { ...main.env, GITHUB_REF: 'refs/heads/main', GITHUB_WORKFLOW_REF: 'octo/gpu-app/.github/workflows/baseline-main.yml@refs/heads/main' } });
    expect(push.code).toBe(0);

    const pr = box();
    const r = await runAction({ fake, runId: 200, job: 'profile', event: forkEvent, workspace: pr.workspace, inputs: actionInputs(fork, 'profile'), env: { ...pr.env, GITHUB_WORKFLOW_REF: 'octo/gpu-app/.github/workflows/fork-safe-pr.yml@refs/pull/7/merge' } });
    expect(stderrBesidesKnownNoise(r.stderr)).toBe('');
    const report = JSON.parse(readFileSync(join(pr.workspace, 'profile-gate', 'report.json'), 'utf8')) as Report;
    expect(report.comparison?.baseline.origin).toBe('artifact');
    expect(report.comparison!.baseline.reason).toMatch(/^newest readable artifact 'profile-gate-llama-3\.1-8b' on main \(run 100/);
    expect(fake.commentsOn(7)).toHaveLength(0);
  }, 180_000);
});

describe('examples/pr-ab.yml, as written', () => {
  it('runs the base checkout beside the head in one job and compares with it', async () => {
    const ab = workflow('pr-ab.yml');
    expect(ab.jobs['gate']!.if).toBe('github.event.pull_request.head.repo.full_name == github.repository');
    const pr = box();
    // The second actions/checkout step: the PR's base commit in base/.
    mkdirSync(join(pr.workspace, 'base'));
    const r = await runAction({ fake, runId: 200, event: PR_EVENT, workspace: pr.workspace, inputs: actionInputs(ab, 'gate'), env: { ...pr.env, GITHUB_WORKFLOW_REF: 'octo/gpu-app/.github/workflows/pr-ab.yml@refs/pull/7/merge' } });
    expect(stderrBesidesKnownNoise(r.stderr)).toBe('');
    const report = JSON.parse(readFileSync(join(pr.workspace, 'profile-gate', 'report.json'), 'utf8')) as Report;
    expect(report.comparison?.baseline.origin).toBe('a/b');
    expect(fake.commentsOn(7)).toHaveLength(1);
  }, 240_000);
});
