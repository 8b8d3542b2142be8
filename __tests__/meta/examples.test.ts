/**
 * The workflows a user copies (the README's snippet and every file of examples/) held to action.yml
 * and to references/steps/permissions.md: each parses, has a trigger, gives the action only inputs
 * it declares, keeps a fork's pull request off the GPU runner (or is the fork-safe stage built for
 * it), gives a GPU job a timeout above the run's own, and asks for exactly the permissions the
 * table lists for what it uses. action.yml's own texts agree with the code (the verdicts, the
 * environment keys), and the README and examples/README.md point to one page for every input.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { FINGERPRINT_KEYS } from '../../src/compare/fingerprint.js';
import { VerdictSchema } from '../../src/model/report.js';
import { ROOT } from '../helpers/fake-github-runner.js';

const FORK_GUARD = 'github.event.pull_request.head.repo.full_name == github.repository';
const FORKS_ONLY = 'github.event.pull_request.head.repo.full_name != github.repository';

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, string | number | boolean>;
}
interface Job {
  if?: string;
  'runs-on'?: string | string[];
  'timeout-minutes'?: number;
  permissions?: Record<string, string>;
  steps?: Step[];
}
interface Workflow {
  on: Record<string, unknown> | string | string[];
  permissions?: Record<string, string>;
  jobs: Record<string, Job>;
}

const ACTION = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { inputs: Record<string, { default?: string }>; outputs: Record<string, { description: string }> };
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const EXAMPLES_README = readFileSync(join(ROOT, 'examples', 'README.md'), 'utf8');
const PERMISSIONS_PAGE = readFileSync(join(ROOT, 'references', 'steps', 'permissions.md'), 'utf8');

/** The README's workflow: the yaml block under "## The action". */
function readmeSnippet(): string {
  const section = README.slice(README.indexOf('\n## The action\n'));
  return /```yaml\n([\s\S]*?)\n```/.exec(section)![1]!;
}

const WORKFLOWS: ReadonlyArray<[string, Workflow]> = [
  ['README.md', parse(readmeSnippet()) as Workflow],
  ...readdirSync(join(ROOT, 'examples'))
    .filter((file) => file.endsWith('.yml'))
    .sort()
    .map((file): [string, Workflow] => [`examples/${file}`, parse(readFileSync(join(ROOT, 'examples', file), 'utf8')) as Workflow]),
];

const triggers = (wf: Workflow): string[] => (typeof wf.on === 'string' ? [wf.on] : Array.isArray(wf.on) ? wf.on : Object.keys(wf.on));
const gateStep = (job: Job): Step | undefined => job.steps?.find((step) => step.uses?.startsWith('profile-gate/profile-gate@'));
const input = (step: Step, name: string): string => String(step.with?.[name] ?? ACTION.inputs[name]?.default ?? '');
const selfHosted = (job: Job): boolean => [job['runs-on'] ?? []].flat().includes('self-hosted');

/**
 * The rows of the table "Least permissions by mode", by what their first cell names: each row's
 * `permissions:` cell as the `name: level` pairs it writes.
 */
function tableRows(): Map<string, Record<string, string>> {
  const table = PERMISSIONS_PAGE.slice(PERMISSIONS_PAGE.indexOf('## Least permissions by mode'), PERMISSIONS_PAGE.indexOf('Examples that hold exactly these'));
  const rows = new Map<string, Record<string, string>>();
  for (const line of table.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| what') && !l.startsWith('|---'))) {
    const [what, permissions] = line.split(' | ').map((cell) => cell.replace(/^\| /, ''));
    const pairs = [...permissions!.matchAll(/`([a-z-]+): (read|write)`/g)].map((m) => [m[1]!, m[2]!] as const);
    rows.set(what!, Object.fromEntries(pairs));
  }
  return rows;
}
const ROWS = tableRows();

/** The table's row whose first cell starts with `start`. */
function row(start: string): Record<string, string> {
  const found = [...ROWS.entries()].find(([what]) => what.startsWith(start));
  expect({ start, found: found !== undefined }).toEqual({ start, found: true });
  return found![1];
}

/** What a job uses, as the table's rows name it, and the permissions they add up to. */
function required(wf: Workflow, job: Job): { uses: string[]; permissions: Record<string, string> } {
  const uses: string[] = [];
  const step = gateStep(job);
  const on = triggers(wf);
  const onPullRequest = on.includes('pull_request') || on.includes('pull_request_target');
  if (job.steps?.some((s) => s.uses?.startsWith('actions/checkout@'))) uses.push('`mode: run` or `analyze`, `comment: off`, no baseline');
  if (step) {
    const mode = input(step, 'mode');
    const comments = input(step, 'comment') !== 'off' && (onPullRequest || on.includes('workflow_run'));
    if (mode === 'report') uses.push(on.includes('workflow_run') || input(step, 'run-id') ? '`mode: report` on `workflow_run`' : '`mode: report`, legs of the same run');
    else if (comments) uses.push('… with the PR comment');
    if (mode !== 'report' && input(step, 'baseline') === 'artifact') uses.push('… with `baseline: artifact`');
    // A failing verdict on a PR is accepted by a label or a comment, read with the comment's rights.
    if (mode !== 'report' && comments && onPullRequest && (input(step, 'accept-label') !== 'none' || input(step, 'accept-command') !== 'none')) uses.push('accepting a regression');
  }
  const permissions: Record<string, string> = {};
  for (const what of uses) {
    for (const [name, level] of Object.entries(row(what))) if (permissions[name] !== 'write') permissions[name] = level;
  }
  return { uses, permissions };
}

describe.each(WORKFLOWS)('%s', (_file, wf) => {
  const jobs = Object.entries(wf.jobs);
  const gated = jobs.filter(([, job]) => gateStep(job) !== undefined);

  it('has a trigger and a profile-gate step given only inputs action.yml declares', () => {
    expect(triggers(wf).length).toBeGreaterThan(0);
    // The action, or the CLI run by a step (the dashboard).
    const cli = jobs.some(([, job]) => job.steps?.some((step) => step.run?.includes('dist/cli/index.js')));
    expect(gated.length > 0 || cli).toBe(true);
    for (const [name, job] of gated) {
      const unknown = Object.keys(gateStep(job)!.with ?? {}).filter((key) => !(key in ACTION.inputs));
      expect({ job: name, unknown }).toEqual({ job: name, unknown: [] });
    }
  });

  it("keeps a fork's pull request off a GPU runner unless it is the fork-safe stage, and gives GPU jobs a timeout above the run's", () => {
    for (const [name, job] of jobs.filter(([, j]) => selfHosted(j))) {
      const step = gateStep(job);
      if (triggers(wf).includes('pull_request')) {
        const forkSafe = step !== undefined && input(step, 'allow-fork-workloads') === 'true';
        // The fork-safe stage measures forks only, with comments off; everything else keeps them out.
        if (forkSafe) expect({ job: name, if: job.if, comment: input(step, 'comment') }).toEqual({ job: name, if: FORKS_ONLY, comment: 'off' });
        else expect({ job: name, guarded: job.if?.includes(FORK_GUARD) ?? false }).toEqual({ job: name, guarded: true });
      }
      const jobMinutes = job['timeout-minutes'];
      expect({ job: name, timeout: typeof jobMinutes }).toEqual({ job: name, timeout: 'number' });
      if (step && input(step, 'mode') === 'run') {
        const runMinutes = Number(input(step, 'timeout-minutes') || 30);
        expect({ job: name, above: jobMinutes! > runMinutes }).toEqual({ job: name, above: true });
      }
    }
  });

  it('asks for exactly the permissions the table lists for what it uses', () => {
    const own = jobs.filter(([, job]) => job.permissions !== undefined);
    const shared = jobs.filter(([, job]) => job.permissions === undefined);
    // Jobs without their own block share the workflow's: it is the union of what they need.
    const union: Record<string, string> = {};
    for (const [, job] of shared) for (const [k, v] of Object.entries(required(wf, job).permissions)) if (union[k] !== 'write') union[k] = v;
    if (shared.some(([, job]) => gateStep(job) !== undefined)) expect(wf.permissions ?? {}).toEqual(union);
    for (const [name, job] of own.filter(([, j]) => gateStep(j) !== undefined)) expect({ job: name, permissions: job.permissions }).toEqual({ job: name, permissions: required(wf, job).permissions });
  });
});

describe('the examples as a set', () => {
  it('includes a mode analyze example and the two fork-safe stages, each described in examples/README.md', () => {
    const files = WORKFLOWS.map(([file]) => file);
    const modes = WORKFLOWS.flatMap(([, wf]) => Object.values(wf.jobs).flatMap((job) => (gateStep(job) ? [input(gateStep(job)!, 'mode')] : [])));
    expect(new Set(modes)).toEqual(new Set(['run', 'analyze', 'report']));
    for (const file of files.filter((f) => f.startsWith('examples/'))) expect({ file, described: EXAMPLES_README.includes(`\`${file.slice('examples/'.length)}\``) }).toEqual({ file, described: true });
    expect(EXAMPLES_README).toMatch(/\n## Pull requests from forks/);
  });

  it('the fork-safe stage compares with a baseline', () => {
    const fork = WORKFLOWS.find(([file]) => file === 'examples/fork-safe-pr.yml')![1];
    expect(input(gateStep(fork.jobs['profile']!)!, 'baseline')).toBe('artifact');
  });

  it('no example names a path the checkout does not hold', () => {
    for (const [file, wf] of WORKFLOWS) {
      for (const job of Object.values(wf.jobs)) {
        const step = gateStep(job);
        expect({ file, customArchitectures: step?.with?.['custom-architectures'] }).toEqual({ file, customArchitectures: undefined });
      }
    }
  });
});

describe('one page for every input, and action.yml agreeing with the code', () => {
  it('the README and examples/README.md name references/options.md for every input', () => {
    expect(README).toMatch(/Every input, with its CLI flag and default, is in `references\/options\.md`/);
    expect(EXAMPLES_README).toMatch(/Every input,\s+with its CLI flag and default, is in `references\/options\.md`/);
  });

  it('the verdict output lists every verdict', () => {
    const listed = ACTION.outputs['verdict']!.description.split(' (')[0]!.split(' | ');
    expect(listed.sort()).toEqual([...VerdictSchema.options].sort());
  });

  it('allow-environment-mismatch lists the keys the gate compares', () => {
    const description = (ACTION.inputs['allow-environment-mismatch'] as { description: string }).description;
    expect(/\(([^)]*)\)/.exec(description)![1]!.split(', ')).toEqual([...FINGERPRINT_KEYS]);
  });

  it('capture-seconds is described one way in action.yml, the CLI help and the run page', () => {
    const description = (ACTION.inputs['capture-seconds'] as { description: string }).description;
    expect(description).toMatch(/each max benchmark window, the profiled one included/);
    const page = readFileSync(join(ROOT, 'references', 'steps', 'run-orchestration.md'), 'utf8');
    expect(page).toMatch(/\| `capture-seconds` \| `10` \| `max-mode serve`: the length in seconds of each benchmark window, the profiled one included/);
  });

  it('the README snippet says what gpu is and when baseline: artifact finds something', () => {
    const after = README.slice(README.indexOf(readmeSnippet()) + readmeSnippet().length, README.indexOf('The action runs on Node 24'));
    expect(after).toMatch(/`gpu` is a label you give your self-hosted runner/);
    expect(after).toMatch(/`baseline: artifact` finds nothing until a push to main\s+with the same `key` has run/);
  });
});
