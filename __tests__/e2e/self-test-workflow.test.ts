/**
 * .github/workflows/self-test.yml as the runner would run it: each `uses: ./` step runs the bundled
 * dist/ with its `with:` inputs (step outputs substituted as GitHub would), in a workspace holding
 * the bundled samples; then the check step runs scripts/check-self-test.sh with its env.
 * The release workflow's tag move (scripts/move-major-tag.sh) runs against a scratch repository.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ROOT, runAction, useFakeGitHubPerTest } from '../helpers/fake-github-runner.js';
import type { FakeGitHub } from '../helpers/fake-github.js';

interface Step {
  id?: string;
  uses?: string;
  run?: string;
  with?: Record<string, string>;
  env?: Record<string, string>;
  'continue-on-error'?: boolean;
}

const workflow = parse(readFileSync(join(ROOT, '.github', 'workflows', 'self-test.yml'), 'utf8')) as { jobs: Record<string, { steps: Step[] }> };
const steps = Object.values(workflow.jobs)[0]!.steps;

type Results = Record<string, { outcome: string; outputs: Record<string, string> }>;

/** `${{ steps.ID.outputs.NAME }}` and `${{ steps.ID.outcome }}`, as the runner expands them. */
function expand(value: string, results: Results): string {
  return String(value).replace(/\$\{\{\s*steps\.([\w-]+)\.(outcome|outputs\.([\w-]+))\s*\}\}/g, (_, id: string, _what: string, output?: string) => {
    const step = results[id];
    if (!step) throw new Error(`the workflow refers to step ${id} before it ran`);
    return output ? (step.outputs[output] ?? '') : step.outcome;
  });
}

function checkScript(env: Record<string, string>): { code: number | null; out: string } {
  const run = spawnSync('bash', [join(ROOT, 'scripts', 'check-self-test.sh')], { env: { PATH: process.env['PATH'] ?? '', ...env }, encoding: 'utf8' });
  return { code: run.status, out: run.stdout + run.stderr };
}

describe('the self-test workflow', () => {
  let fake: FakeGitHub;
  useFakeGitHubPerTest((f) => (fake = f));

  it('runs the action on the bundled samples and its checks pass: the baseline passes, the head fails the job', async () => {
    expect(steps.filter((s) => s.uses === './')).toHaveLength(2);
    const workspace = mkdtempSync(join(tmpdir(), 'pg-self-test-'));
    cpSync(join(ROOT, 'samples'), join(workspace, 'samples'), { recursive: true });
    const results: Results = {};
    let checked: { code: number | null; out: string } | undefined;
    let checkEnv: Record<string, string> = {};
    for (const step of steps) {
      if (step.uses === './') {
        const inputs = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, expand(v, results)]));
        const run = await runAction({ fake, inputs, workspace, eventName: 'push', env: { GITHUB_REF: 'refs/heads/main' } });
        const outcome = run.code === 0 ? 'success' : 'failure';
        if (outcome === 'failure' && !step['continue-on-error']) throw new Error(`step ${step.id} failed: ${run.stderr}`);
        results[step.id!] = { outcome, outputs: run.outputs };
      } else if (step.run?.includes('check-self-test.sh')) {
        checkEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, expand(v, results)]));
        // report-json paths are relative to the workspace on the runner; here the script runs elsewhere.
        for (const key of ['BASE_JSON', 'HEAD_JSON']) if (checkEnv[key] && !checkEnv[key]!.startsWith('/')) checkEnv[key] = join(workspace, checkEnv[key]!);
        checked = checkScript(checkEnv);
      }
    }
    expect(results['head']!.outcome).toBe('failure');
    expect(checked).toBeDefined();
    expect(checked!.out).not.toContain('::error::');
    expect(checked!.code).toBe(0);
    // The checks can fail: a head that passed would be caught.
    const passing = checkScript({ ...checkEnv, HEAD_OUTCOME: 'success', HEAD_VERDICT: 'pass' });
    expect(passing.code).toBe(1);
    expect(passing.out).toContain("::error::self-test: head verdict is 'pass'");
  }, 120_000);
});

describe('the release workflow', () => {
  const git = (cwd: string, ...args: string[]) => {
    const run = spawnSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@e', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@e' } });
    if (run.status !== 0) throw new Error(`git ${args.join(' ')}: ${run.stderr}`);
    return run.stdout.trim();
  };
  const move = (cwd: string, tag: string) => spawnSync('bash', [join(ROOT, 'scripts', 'move-major-tag.sh'), tag], { cwd, encoding: 'utf8', env: { ...process.env, GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@e' } });

  it('moves v1 to each v1.x.y release, and refuses pre-releases and unknown tags', () => {
    const repo = mkdtempSync(join(tmpdir(), 'pg-release-'));
    git(repo, 'init', '-q', '-b', 'main');
    writeFileSync(join(repo, 'a'), '1');
    git(repo, 'add', 'a');
    git(repo, 'commit', '-qm', 'one');
    git(repo, 'tag', 'v1.0.0');
    expect(move(repo, 'v1.0.0').status).toBe(0);
    const first = git(repo, 'rev-parse', 'v1.0.0^{commit}');
    expect(git(repo, 'rev-parse', 'v1^{commit}')).toBe(first);
    writeFileSync(join(repo, 'a'), '2');
    git(repo, 'commit', '-qam', 'two');
    git(repo, 'tag', '-a', 'v1.1.0', '-m', 'v1.1.0');
    expect(move(repo, 'v1.1.0').stdout).toMatch(/^moved v1 to v1\.1\.0 \([0-9a-f]{40}\)$/m);
    expect(git(repo, 'rev-parse', 'v1^{commit}')).toBe(git(repo, 'rev-parse', 'HEAD'));
    expect(git(repo, 'rev-parse', 'v1^{commit}')).not.toBe(first);
    for (const bad of ['v1.2.0-rc.1', 'v1.9.9', 'latest']) {
      const run = move(repo, bad);
      expect(run.status).toBe(2);
      expect(run.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    }
    expect(git(repo, 'rev-parse', 'v1^{commit}')).toBe(git(repo, 'rev-parse', 'HEAD'));
  });

  it('runs the tag move only for published, non-pre-release releases, after checking dist/', () => {
    const release = parse(readFileSync(join(ROOT, '.github', 'workflows', 'release.yml'), 'utf8')) as {
      on: { release: { types: string[] } };
      permissions: Record<string, string>;
      jobs: Record<string, { if: string; steps: Step[] }>;
    };
    expect(release.on.release.types).toEqual(['published']);
    expect(release.permissions).toEqual({ contents: 'write' });
    const job = Object.values(release.jobs)[0]!;
    expect(job.if).toContain('!github.event.release.prerelease');
    const runs = job.steps.map((s) => s.run ?? '').join('\n');
    expect(runs.indexOf('check-dist.sh')).toBeGreaterThanOrEqual(0);
    expect(runs.indexOf('check-dist.sh')).toBeLessThan(runs.indexOf('move-major-tag.sh'));
    expect(runs).toContain('move-major-tag.sh "$TAG" --push');
  });
});
