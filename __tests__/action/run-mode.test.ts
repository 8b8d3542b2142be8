/**
 * Mode run in process with an A/B base build: the workflow checks out the PR's base commit into
 * base/, the action runs the same command workload in both checkouts on this machine, interleaved,
 * and gates the head against the base. Real processes, the loopback GitHub, a recording host.
 * The bundle runs mode run in __tests__/e2e/examples.test.ts and __tests__/hardening/action-faults.test.ts.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Report } from '../../src/model/report.js';
import { runInProcess } from '../helpers/fake-action-host.js';
import type { FakeGitHub } from '../helpers/fake-github.js';
import { readZip } from '../helpers/fake-github-zip.js';
import { PR_EVENT, useFakeGitHub } from '../helpers/fake-github-runner.js';
import { PYTHON, TINY_WORKLOAD } from '../runner/stand-ins.js';

/** A workspace holding the head checkout, with the base checkout in base/; the head's steps take `slower`× as long. */
function checkouts(slower: number): string {
  const ws = mkdtempSync(join(tmpdir(), 'pg-ab-'));
  mkdirSync(join(ws, 'base'));
  // Steps of 20 ms, not a few: on a loaded machine a few-ms step varies by half its length from run
  // to run, and the gate then sees noise rather than two builds.
  for (const [dir, ms] of [[ws, 20 * slower], [join(ws, 'base'), 20]] as const) {
    writeFileSync(join(dir, 'bench.sh'), `${PYTHON} ${TINY_WORKLOAD} --steps 4 --step-ms ${ms} --print-metrics\n`);
  }
  return ws;
}

const AB_INPUTS = { mode: 'run', engine: 'command', run: 'bash bench.sh', 'base-workdir': 'base', runs: '4', 'warmup-runs': '1', profiler: 'none', 'deep-dive': 'off', key: 'tiny-ab', 'allow-no-gpu': 'true' };

let fake: FakeGitHub;
useFakeGitHub((started) => (fake = started));

describe('mode run, A/B in one job', () => {
  it('a head 3x slower than its base fails, with the base build named as the baseline in the comment and the artifact', async () => {
    const ws = checkouts(3);
    const r = await runInProcess({ fake, event: PR_EVENT, workspace: ws, inputs: AB_INPUTS, env: { PATH: process.env['PATH'] ?? '' } });
    expect(r.code).toBe(1);
    expect(r.outputs['verdict']).toBe('fail');
    expect(r.failures).toHaveLength(1);
    expect(r.failures[0]).toMatch(/^profile-gate verdict: fail \(decode_tok_s regressed .*; see the job summary\)$/);
    // Base and head alternate in the log: warm-ups, then ABBA.
    const order = r.host.log.flatMap((line) => /^::group::((?:Base: )?(?:Warm-up|Measured) run \d\/\d)$/.exec(line)?.[1] ?? []);
    expect(order.slice(0, 10)).toEqual(['Base: Warm-up run 1/1', 'Warm-up run 1/1', 'Base: Measured run 1/4', 'Measured run 1/4', 'Measured run 2/4', 'Base: Measured run 2/4', 'Base: Measured run 3/4', 'Measured run 3/4', 'Measured run 4/4', 'Base: Measured run 4/4']);

    const report = JSON.parse(readFileSync(join(ws, 'profile-gate', 'report.json'), 'utf8')) as Report;
    expect(report.comparison!.baseline).toMatchObject({ origin: 'a/b', path: join(ws, 'base') });
    const decode = report.comparison!.rows.find((row) => row.metric === 'decode_tok_s')!;
    expect(decode.status).toBe('fail');
    expect(decode.delta!).toBeLessThan(-0.4);
    // The baseline's samples are the base runs' own metric lines, every measured run's.
    const logs = join(ws, 'profile-gate', 'run', 'base', 'logs');
    const measured = readdirSync(logs).filter((name) => /^measured-\d+\.log$/.test(name)).sort((a, b) => Number(/\d+/.exec(a)![0]) - Number(/\d+/.exec(b)![0]));
    expect(measured.length).toBeGreaterThanOrEqual(4);
    const baseLogged = measured.map((name) => JSON.parse(readFileSync(join(logs, name), 'utf8').trim().split('\n').at(-1)!).tok_s as number);
    const base = JSON.parse(readFileSync(join(ws, 'profile-gate', 'run', 'base', 'baseline-report.json'), 'utf8')) as Report;
    expect(base.metrics.find((m) => m.name === 'decode_tok_s')!.samples).toEqual(baseLogged);
    expect(decode.baseline!).toBeGreaterThanOrEqual(Math.min(...baseLogged));
    expect(decode.baseline!).toBeLessThanOrEqual(Math.max(...baseLogged));

    const comments = fake.commentsOn(7);
    expect(comments).toHaveLength(1);
    expect(comments[0]!.body).toMatch(/decode\\_tok\\_s regressed .*beyond the 3% floor/);
    expect(comments[0]!.body).toContain(`- Used: A/B: the base build, run in this job (<code>${join(ws, 'base')}</code>)`);
    expect(r.summary).toContain(`- Used: A/B: the base build, run in this job (<code>${join(ws, 'base')}</code>)`);

    // One report.json in the artifacts: the base's report has a name of its own, so a later
    // baseline download or matrix merge never takes it for a leg. The run folder (command lines,
    // logs, the base's report) goes up only with upload-raw-captures.
    const [artifact, captures] = fake.artifactsOfRun(4242);
    const names = [...readZip(artifact!.zip!).keys(), ...readZip(captures!.zip!).keys()];
    expect(names.filter((name) => name.split('/').pop() === 'report.json')).toEqual(['report.json']);
    expect(names.some((name) => name.startsWith('run/'))).toBe(false);
    expect(names).toContain('profile.json');
  }, 60_000);

  it('an A/B run with input baseline: artifact is refused before anything runs, naming both inputs', async () => {
    const ws = checkouts(1);
    const r = await runInProcess({ fake, event: PR_EVENT, workspace: ws, inputs: { ...AB_INPUTS, baseline: 'artifact' } });
    expect(r.code).toBe(1);
    expect(r.failures).toEqual(["input 'baseline' is \"artifact\", but base-workdir/base-run make this an A/B run whose baseline is the base build; leave 'baseline' empty or set it to ab"]);
    expect(existsSync(join(ws, 'profile-gate', 'run'))).toBe(false);
  });

  it('the gate options are inputs: a bad overlap-check is refused before anything runs, naming the input', async () => {
    const ws = checkouts(1);
    const r = await runInProcess({ fake, event: PR_EVENT, workspace: ws, inputs: { ...AB_INPUTS, 'overlap-check': 'maybe', 'max-runs': '6' } });
    expect(r.code).toBe(1);
    expect(r.failures).toHaveLength(1);
    expect(r.failures[0]).toBe(`input 'overlap-check': expected true or false, got "maybe"`);
    expect(existsSync(join(ws, 'profile-gate', 'run'))).toBe(false);
  });

  it('baseline: ab without a base build says what is missing', async () => {
    const ws = checkouts(1);
    const { 'base-workdir': _dropped, ...inputs } = AB_INPUTS;
    const r = await runInProcess({ fake, event: PR_EVENT, workspace: ws, inputs: { ...inputs, baseline: 'ab' } });
    expect(r.code).toBe(1);
    expect(r.failures).toEqual(["input 'baseline': ab runs the base build in this job; it needs mode run and input 'base-workdir' (a checkout of the base commit) or 'base-run'"]);
  });

  it('a bad run option is one line naming the input, and nothing runs', async () => {
    const ws = checkouts(1);
    const r = await runInProcess({ fake, event: PR_EVENT, workspace: ws, inputs: { ...AB_INPUTS, runs: 'many' } });
    expect(r.code).toBe(1);
    expect(r.failures).toHaveLength(1);
    expect(r.failures[0]).toMatch(/^input 'runs': /);
    expect(existsSync(join(ws, 'profile-gate', 'run'))).toBe(false);
  });

  it("a fork's pull request: the workload is not run on this runner", async () => {
    const ws = checkouts(1);
    const fork = { ...PR_EVENT, pull_request: { ...PR_EVENT.pull_request, head: { sha: 'b'.repeat(40), repo: { full_name: 'mallory/gpu-app' } } } };
    const r = await runInProcess({ fake, event: fork, workspace: ws, inputs: AB_INPUTS });
    expect(r.code).toBe(1);
    expect(r.failures).toHaveLength(1);
    expect(r.failures[0]).toMatch(/^mode run: pull request #7 comes from a fork, and its workload would run on this self-hosted runner; nothing was run\./);
    expect(existsSync(join(ws, 'profile-gate', 'run'))).toBe(false);
  });
});
