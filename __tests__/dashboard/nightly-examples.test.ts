/**
 * examples/nightly.yml and examples/nightly-dashboard.yml, as written, over a regressing week: six
 * healthy nights, then nights whose decode throughput fell. Each night the nightly's step runs the
 * action in process against the loopback GitHub with the example's own inputs (key, baseline,
 * comment); only the workload is replaced by the bundled sample captures (no GPU here). A night that
 * regresses fails its job, as GitHub records it. Then the workflows are followed as GitHub runs them:
 * their triggers and `if:` conditions are read from the YAML and evaluated, and the dashboard's build
 * step runs its own command line (the CLI in process, from source). The page must show the nights
 * the gate failed, and the regression open.
 */
import { jest } from '@jest/globals';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { parse } from 'yaml';
import { runDashboardCommand } from '../../src/cli/dashboard-command.js';
import { VERDICT_ORDER, type DashboardData } from '../../src/report/dashboard/data.js';
import { sampleWorkspace } from '../helpers/action-workspace.js';
import { runInProcess } from '../helpers/fake-action-host.js';
import type { FakeGitHub } from '../helpers/fake-github.js';
import { ROOT, useFakeGitHub } from '../helpers/fake-github-runner.js';
import { evaluateCondition, type ConditionScope } from '../helpers/workflow-expressions.js';

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, string | number | boolean>;
}
interface Job {
  needs?: string | string[];
  if?: string | boolean;
  steps?: Step[];
}
interface Workflow {
  name: string;
  on: Record<string, { workflows?: string[]; types?: string[] } | null>;
  jobs: Record<string, Job>;
}

const NIGHTLY_FILE = 'nightly.yml';
const workflow = (file: string): Workflow => parse(readFileSync(join(ROOT, 'examples', file), 'utf8')) as Workflow;
const needsOf = (job: Job): string[] => (job.needs === undefined ? [] : Array.isArray(job.needs) ? job.needs : [job.needs]);

/** The jobs of a workflow that run, in order, given each job's own result when it runs. */
function jobsThatRun(wf: Workflow, resultOf: (job: string) => 'success' | 'failure', contexts: Record<string, unknown> = {}): Record<string, 'success' | 'failure' | 'skipped'> {
  const results: Record<string, 'success' | 'failure' | 'skipped'> = {};
  const pending = Object.keys(wf.jobs);
  while (pending.length) {
    const next = pending.findIndex((job) => needsOf(wf.jobs[job]!).every((need) => need in results));
    if (next < 0) throw new Error(`jobs ${pending.join(', ')} wait on each other`);
    const [job] = pending.splice(next, 1) as [string];
    const scope: ConditionScope = { contexts, needs: Object.fromEntries(needsOf(wf.jobs[job]!).map((need) => [need, results[need]!])) };
    results[job] = evaluateCondition(wf.jobs[job]!.if, scope) ? resultOf(job) : 'skipped';
  }
  return results;
}

/** Shell words of a one-line command: double quotes group, `${{ github.repository }}` filled in. */
function words(command: string, repository: string): string[] {
  const filled = command.replace(/\$\{\{\s*github\.repository\s*\}\}/g, repository);
  expect(filled).not.toContain('${{');
  return [...filled.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
}

function readData(js: string): DashboardData {
  const sandbox: { window: Record<string, unknown> } = { window: {} };
  runInNewContext(js, sandbox);
  return sandbox.window['PROFILE_GATE_DASHBOARD'] as DashboardData;
}

let fake: FakeGitHub;
useFakeGitHub((started) => (fake = started));

describe('job conditions, read as GitHub reads them', () => {
  const failed = { contexts: { github: { event_name: 'schedule' } }, needs: { serve: 'failure' as const } };
  it('skips a job whose needed job failed unless its condition calls a status function that allows it', () => {
    expect(evaluateCondition(undefined, failed)).toBe(false);
    expect(evaluateCondition('${{ !cancelled() }}', failed)).toBe(true);
    expect(evaluateCondition('always()', failed)).toBe(true);
    expect(evaluateCondition('failure()', failed)).toBe(true);
    // No status function: GitHub reads `success() && (…)`, so this one never runs after a failure.
    expect(evaluateCondition("needs.serve.result == 'failure'", failed)).toBe(false);
    expect(evaluateCondition("always() && needs.serve.result == 'FAILURE'", failed)).toBe(true);
    expect(evaluateCondition('${{ !cancelled() }}', { ...failed, needs: { serve: 'cancelled' }, cancelled: true })).toBe(false);
    expect(evaluateCondition(undefined, { contexts: {}, needs: { serve: 'skipped' } })).toBe(false);
  });

  it('compares context values and refuses what it does not model', () => {
    const run = (conclusion: string) => ({ contexts: { github: { event_name: 'workflow_run', event: { workflow_run: { conclusion } } } } });
    const old = "github.event_name == 'workflow_dispatch' || github.event.workflow_run.conclusion == 'success'";
    expect(evaluateCondition(old, run('success'))).toBe(true);
    expect(evaluateCondition(old, run('failure'))).toBe(false);
    expect(evaluateCondition("github.event.workflow_run.conclusion != 'cancelled'", run('failure'))).toBe(true);
    expect(() => evaluateCondition("contains(github.ref, 'main')", run('success'))).toThrow(/^condition "contains/);
    expect(() => evaluateCondition('fromJSON(x)', run('success'))).toThrow(/not modelled/);
  });
});

describe('the nightly examples, as written, over a regressing week', () => {
  it('a job after one that regressed still runs, the dashboard builds after a failed nightly, and shows the regression open', async () => {
    const nightly = workflow(NIGHTLY_FILE);
    const dashboard = workflow('nightly-dashboard.yml');

    // The nightly: on a schedule. A regression fails `serve`; the job after it still runs (it only waits for the GPU).
    expect(Object.keys(nightly.on)).toContain('schedule');
    const serveFails = jobsThatRun(nightly, (job) => (job === 'serve' ? 'failure' : 'success'), { github: { event_name: 'schedule' } });
    expect(Object.values(serveFails).filter((r) => r === 'skipped')).toEqual([]);
    for (const [name, job] of Object.entries(nightly.jobs)) {
      if (!needsOf(job).length) continue;
      // …but not when the run was cancelled.
      expect(evaluateCondition(job.if, { contexts: {}, needs: Object.fromEntries(needsOf(job).map((n) => [n, 'cancelled' as const])), cancelled: true })).toBe(false);
      expect(name).toBeTruthy();
    }

    // The dashboard: triggered when the nightly completes, whatever its conclusion.
    expect(dashboard.on['workflow_run']?.workflows).toEqual([nightly.name]);
    expect(dashboard.on['workflow_run']?.types).toEqual(['completed']);
    for (const conclusion of ['success', 'failure', 'timed_out']) {
      const event = { github: { event_name: 'workflow_run', event: { workflow_run: { conclusion, event: 'schedule', head_branch: 'main' } } } };
      expect([conclusion, jobsThatRun(dashboard, () => 'success', event)]).toEqual([conclusion, Object.fromEntries(Object.keys(dashboard.jobs).map((job) => [job, 'success']))]);
    }

    // The dashboard's build step, its command line as written, run where the workflow runs it.
    const build = dashboard.jobs['build']!.steps!.find((s) => s.run?.includes('dashboard') && s.run.includes('--from-artifacts'))!;
    const [node, entry, command, ...args] = words(build.run!, 'octo/gpu-app');
    expect([node, entry, command]).toEqual(['node', 'profile-gate/dist/cli/index.js', 'dashboard']);
    expect(args[args.indexOf('--workflow') + 1]).toBe(NIGHTLY_FILE);
    expect(args[args.indexOf('--history') + 1]).toBe('history/history.ndjson');
    const cwd = mkdtempSync(join(tmpdir(), 'pg-dashboard-job-'));
    mkdirSync(join(cwd, 'history'), { recursive: true });
    const env = { GITHUB_TOKEN: 'ghs_faketoken', GITHUB_API_URL: fake.baseUrl, GITHUB_SERVER_URL: 'https://github.com' };
    const dashboardJob = async (argv: string[]): Promise<{ data: DashboardData; stdout: string; downloads: number }> => {
      const before = fake.hits('artifacts.download').length;
      const here = process.cwd();
      let stdout = '';
      const out = jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((stdout += String(chunk)), true));
      const err = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
      process.chdir(cwd);
      try {
        expect(await runDashboardCommand(argv, env)).toBe(0);
      } finally {
        process.chdir(here);
        out.mockRestore();
        err.mockRestore();
      }
      const site = argv[argv.indexOf('--out') + 1]!;
      return { data: readData(readFileSync(join(cwd, site, 'data.js'), 'utf8')), stdout, downloads: fake.hits('artifacts.download').length - before };
    };

    // Ten nights of the serve job's step: its inputs as written, the workload replaced by captures;
    // the dashboard job runs after nights 4, 7 and 10, as its trigger would (and once more with nothing new).
    const serveStep = nightly.jobs['serve']!.steps!.find((s) => s.uses?.startsWith('profile-gate/profile-gate@'))!;
    const written = Object.fromEntries(Object.entries(serveStep.with!).map(([k, v]) => [k, String(v)]));
    const inputs = { key: written['key']!, baseline: written['baseline']!, comment: written['comment']!, mode: 'analyze', captures: 'captures' };
    expect(inputs).toMatchObject({ key: 'llama-3.1-8b-serve', baseline: 'artifact', comment: 'off' });
    const conclusions: string[] = [];
    const downloads: number[] = [];
    let last: Awaited<ReturnType<typeof dashboardJob>> | undefined;
    for (let night = 0; night < 10; night += 1) {
      const runId = 500 + night;
      const r = await runInProcess({
        fake,
        runId,
        eventName: 'schedule',
        event: { repository: { full_name: 'octo/gpu-app', default_branch: 'main' } },
        workspace: sampleWorkspace(night < 6 ? 'baseline' : 'current'),
        inputs,
        env: { GITHUB_REF: 'refs/heads/main', GITHUB_SHA: String(night).repeat(40), GITHUB_WORKFLOW_REF: `octo/gpu-app/.github/workflows/${NIGHTLY_FILE}@refs/heads/main` },
      });
      conclusions.push(fake.runs.find((run) => run.id === runId)!.conclusion!);
      // Every night uploaded its report, the failing ones included.
      expect(fake.artifactsOfRun(runId).map((a) => a.name)).toContain(`profile-gate-${inputs.key}`);
      if (night === 6) expect(r.failures[0]).toMatch(/^profile-gate verdict: fail/);
      if (night === 3 || night === 6 || night === 9) {
        last = await dashboardJob(args);
        downloads.push(last.downloads);
      }
    }
    // The first regressing night failed against the last healthy one.
    expect(conclusions.slice(0, 7)).toEqual(['success', 'success', 'success', 'success', 'success', 'success', 'failure']);
    // Each report artifact was downloaded once: each night only the runs since the last build.
    expect(downloads).toEqual([4, 3, 3]);
    const again = await dashboardJob(args);
    expect(again.downloads).toBe(0);
    expect(readFileSync(join(cwd, 'history', 'history.ndjson'), 'utf8').trim().split('\n')).toHaveLength(10);

    const data = last!.data;
    // Every night is on the page, the failed ones included, with their verdicts…
    expect(data.reportCount).toBe(10);
    const series = data.workloads.find((w) => w.name === inputs.key)!;
    expect(series.points.commit).toEqual(Array.from({ length: 10 }, (_, night) => String(night).repeat(40)));
    expect(series.points.verdict.slice(5, 7).map((v) => VERDICT_ORDER[v])).toEqual(['pass', 'fail']);
    // …and the regression is open since the first regressing night.
    expect(data.regressions.map((r) => [data.workloads[r.workload]!.name, r.index])).toEqual([[inputs.key, 6]]);
    expect(data.regressions[0]!.latestRelative).toBeLessThan(-0.05);
    expect(last!.stdout).toContain('1 open regression\n');
    // The page from the store is the page from every artifact read afresh.
    const afresh = await dashboardJob(args.filter((a, i) => a !== '--history' && args[i - 1] !== '--history').map((a) => (a === 'site' ? 'afresh' : a)));
    expect(afresh.downloads).toBe(10);
    expect({ ...again.data, generatedAt: '' }).toEqual({ ...afresh.data, generatedAt: '' });
  }, 120_000);
});
