/**
 * The bundled action in mode run, with a workload that tries to act on the job: workflow commands in
 * its output, writes to the runner's file commands, and a pull request from a fork. The loopback
 * GitHub stands in for the service.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FakeGitHub } from '../helpers/fake-github.js';
import { PR_EVENT, runAction, useFakeGitHubPerTest } from '../helpers/fake-github-runner.js';
import { PYTHON } from '../runner/stand-ins.js';

let fake: FakeGitHub;
useFakeGitHubPerTest((f) => (fake = f));

const RUN_INPUTS = { mode: 'run', engine: 'command', runs: '2', 'warmup-runs': '0', profiler: 'none', 'deep-dive': 'off', key: 'hostile', comment: 'off', 'allow-no-gpu': 'true' };

/** The workflow commands that take effect, honouring `::stop-commands::T` … `::T::` as the runner does. */
function effectiveCommands(stdout: string): string[] {
  const effective: string[] = [];
  let stopped: string | undefined;
  for (const line of stdout.split(/\r?\n/)) {
    if (stopped !== undefined) {
      if (line === `::${stopped}::`) stopped = undefined;
      continue;
    }
    if (line.startsWith('::stop-commands::')) stopped = line.slice('::stop-commands::'.length);
    else if (line.startsWith('::')) effective.push(line);
  }
  return effective;
}

function hostileWorkload(ws: string): string {
  const script = join(ws, 'hostile.py');
  writeFileSync(
    script,
    [
      'import json, os',
      'print("::add-mask::decode_tok_s")',
      'print("::error title=forged::the gate failed (forged)")',
      'print("::stop-commands::forged")',
      'print("::warning::after a forged stop")',
      'with open(os.environ["GITHUB_OUTPUT"], "a") as f: f.write("verdict=pass\\n")',
      'path = os.environ["GITHUB_STEP_SUMMARY"]',
      'old = open(path).read()',
      'open(path, "w").write("# ✅ Pass\\n<!--\\n" + old)',
      'print(json.dumps({"metric": "decode_tok_s", "value": 100.0}))',
    ].join('\n'),
  );
  return `${PYTHON} ${script}`;
}

describe('a workload that tries to act on the job', () => {
  it('its workflow commands are shown as text, and its writes to the outputs and summary go nowhere', async () => {
    const ws = mkdtempSync(join(tmpdir(), 'pg-ws-'));
    const r = await runAction({ fake, event: PR_EVENT, workspace: ws, env: { PATH: process.env['PATH'] ?? '' }, inputs: { ...RUN_INPUTS, run: hostileWorkload(ws) } });
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    // Each forged command sits inside a fence the workload did not open and cannot close.
    for (const forged of ['::add-mask::decode_tok_s', '::error title=forged::the gate failed (forged)', '::warning::after a forged stop']) {
      const at = lines.indexOf(forged);
      expect(at).toBeGreaterThan(0);
      const opened = lines.slice(0, at).reverse().find((line) => line.startsWith('::stop-commands::') && line !== '::stop-commands::forged');
      expect(opened).toMatch(/^::stop-commands::[0-9a-f]{32}$/);
      const token = opened!.slice('::stop-commands::'.length);
      const openedAt = lines.lastIndexOf(opened!, at);
      expect(lines.slice(openedAt, at).includes(`::${token}::`)).toBe(false);
      expect(lines.slice(at).includes(`::${token}::`)).toBe(true);
    }
    // Read as the runner reads it: the forged lines take no effect, the action's own commands do.
    const effective = effectiveCommands(r.stdout);
    expect(effective.filter((line) => line.includes('forged') || line.startsWith('::add-mask::decode'))).toEqual([]);
    expect(effective.some((line) => line.startsWith('::group::'))).toBe(true);
    // The outputs and the summary are the action's alone.
    expect(r.outputs['verdict']).toMatch(/^(pass|warn|insufficient-data)$/);
    expect(Object.keys(r.outputs)).not.toContain('verdict=pass');
    expect(r.summary).toMatch(/^## profile-gate: /);
    expect(r.summary).not.toContain('# ✅ Pass\n');
    expect(r.summary).not.toMatch(/^<!--$/m);
    expect(r.summary.length).toBeGreaterThan(100);
  });
});

describe('a pull request from a fork', () => {
  const FORK_EVENT = {
    pull_request: { number: 9, head: { sha: 'b'.repeat(40), repo: { full_name: 'stranger/gpu-app' } } },
    repository: { full_name: 'octo/gpu-app', default_branch: 'main' },
  };

  it('mode run refuses it by default, in one line, before anything runs', async () => {
    const ws = mkdtempSync(join(tmpdir(), 'pg-ws-'));
    const marker = join(ws, 'ran');
    const r = await runAction({ fake, event: FORK_EVENT, workspace: ws, env: { PATH: process.env['PATH'] ?? '' }, inputs: { ...RUN_INPUTS, run: `touch ${marker}` } });
    expect(r.code).toBe(1);
    expect(r.commands).toEqual([
      '::error::mode run: pull request #9 comes from a fork, and its workload would run on this self-hosted runner; nothing was run. Use the fork-safe pattern (examples/fork-safe-pr.yml and fork-safe-comment.yml: approval for outside collaborators, ephemeral runners, no write token) and set allow-fork-workloads: true there',
    ]);
    expect(existsSync(marker)).toBe(false);
  });

  it('allow-fork-workloads: true lets it run', async () => {
    const ws = mkdtempSync(join(tmpdir(), 'pg-ws-'));
    const script = join(ws, 'ok.py');
    writeFileSync(script, 'import json\nprint(json.dumps({"metric": "decode_tok_s", "value": 100.0}))\n');
    const r = await runAction({ fake, event: FORK_EVENT, workspace: ws, env: { PATH: process.env['PATH'] ?? '' }, inputs: { ...RUN_INPUTS, run: `${PYTHON} ${script}`, 'allow-fork-workloads': 'true' } });
    expect(r.code).toBe(0);
    expect(r.outputs['verdict']).toBeTruthy();
  });
});

describe('analyze-timeout-seconds', () => {
  it('mode analyze past its budget fails the step with one line naming the file', async () => {
    const ws = mkdtempSync(join(tmpdir(), 'pg-ws-'));
    const events: string[] = [];
    for (let i = 0; i < 200_000; i += 1) events.push(`{"ph":"X","cat":"kernel","name":"k${i % 50}","pid":0,"tid":7,"ts":${i * 10},"dur":5,"args":{"device":0}}`);
    writeFileSync(join(ws, 'big.trace.json'), `{"traceEvents":[\n${events.join(',\n')}\n]}\n`);
    const r = await runAction({ fake, event: PR_EVENT, workspace: ws, inputs: { mode: 'analyze', captures: 'big.trace.json', 'analyze-timeout-seconds': '0.05', comment: 'off', 'upload-artifact': 'false' } });
    expect(r.code).toBe(1);
    expect(r.commands).toEqual(['::error::big.trace.json: expected the analysis to finish within 0.05 s (the analyze time budget); it was stopped while reading this file']);
  });
});
