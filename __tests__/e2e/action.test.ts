/**
 * End to end, smoke: the bundled dist/index.js, spawned with an empty environment plus what the
 * runner gives a step (INPUT_*, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_EVENT_PATH), against the
 * loopback GitHub and artifact service (Twirp + blob). Nothing of ours is mocked; assertions are on
 * the exit code, the outputs and summary files, the workflow commands and the fake's recorded state.
 * The action's logic case by case runs in process in __tests__/action/.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeOptions, E2E_FIXTURES, HEALTHY_CAPTURES, workspace } from '../helpers/action-workspace.js';
import { type FakeGitHub } from '../helpers/fake-github.js';
import { readZip } from '../helpers/fake-github-zip.js';
import { runAction, stderrBesidesKnownNoise, useFakeGitHubPerTest } from '../helpers/fake-github-runner.js';

let fake: FakeGitHub;
useFakeGitHubPerTest((started) => (fake = started));

describe('mode analyze on a pull request', () => {
  it('uploads a clean trace of a PyTorch profiler trace by default, and the capture files only with upload-raw-captures', async () => {
    const MARK = 'pgmarker7f3c9a1e5b2d4c6a';
    const env = { HF_TOKEN: `hf_${MARK}` };
    const clean = await runAction({ ...analyzeOptions(fake, { workspace: workspace(['h200-secret/secret_torch.trace.json.gz']), env }) });
    expect(clean.code).toBe(0);
    const derived = readZip(fake.artifactsOfRun(4242).find((a) => a.name.endsWith('-captures'))!.zip!);
    expect([...derived.keys()].sort()).toEqual(['profile-gate/profile.json', 'profile-gate/traces/1-kineto-json.trace.json']);
    const trace = JSON.parse(derived.get('profile-gate/traces/1-kineto-json.trace.json')!.toString()) as { traceEvents: Array<{ ph: string; cat?: string }> };
    expect(trace.traceEvents.filter((e) => e.cat === 'kernel').length).toBeGreaterThan(0);
    expect(clean.summary).toContain('ui.perfetto.dev');
    expect(clean.summary.includes(MARK)).toBe(false);

    const raw = await runAction({ ...analyzeOptions(fake, { runId: 4243 }, { 'upload-raw-captures': 'true' }) });
    expect(raw.code).toBe(0);
    const captured = readZip(fake.artifactsOfRun(4243).find((a) => a.name.endsWith('-captures'))!.zip!);
    const names = HEALTHY_CAPTURES.map((file) => file.split('/').pop()!);
    expect([...captured.keys()].sort()).toEqual([...names.map((n) => `captures/${n}`), 'profile-gate/profile.json'].sort());
    for (const capture of names) expect(captured.get(`captures/${capture}`)!.equals(readFileSync(join(E2E_FIXTURES, capture)))).toBe(true);
  });

  it('writes the summary, uploads the artifact, comments once and annotates the warning', async () => {
    const r = await runAction(analyzeOptions(fake));
    expect(stderrBesidesKnownNoise(r.stderr)).toBe('');
    expect(r.code).toBe(0);
    expect(r.outputs['verdict']).toBe('warn');
    expect(r.outputs['findings']!.split(',')).toContain('host-bound');
    expect(r.outputs['report-json']).toBe('profile-gate/report.json');
    // The summary: verdict headline first, then the findings with their evidence.
    expect(r.summary.split('\n')[0]).toBe('## profile-gate: ⚠️ Warn · llama\\-h200');
    const written = JSON.parse(readFileSync(join(r.workspace, 'profile-gate', 'report.json'), 'utf8')) as { findings: { id: string; evidence: Record<string, unknown> }[] };
    const hostBound = written.findings.find((f) => f.id === 'host-bound')!;
    expect(r.summary).toContain(`gpuTimeUtilPercent = ${Number(hostBound.evidence['gpuTimeUtilPercent']).toFixed(3).replace('.', '\\.')}`);
    expect(r.summary).toContain('23 distinct kernels');
    expect(r.summary).toContain('No comparison: no baseline configured \\(input');
    // One warning annotation per warning finding, the primary one first.
    const warnings = r.commands.filter((c) => c.startsWith('::warning'));
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/^::warning title=profile-gate%3A .*\(host-bound\)::The GPU is idle/);
    expect(warnings[1]).toMatch(/\(unfused-norm-rope\)::RoPE runs unfused/);

    // The artifacts: the report's own, first, then the captures beside it; what the fake received is
    // byte-identical to what the job wrote.
    const [artifact, capturesArtifact] = fake.artifactsOfRun(4242);
    expect(fake.artifactsOfRun(4242).map((a) => a.name)).toEqual(['profile-gate-llama-h200', 'profile-gate-llama-h200-captures']);
    expect(r.outputs['artifact-id']).toBe(String(artifact!.id));
    const files = readZip(artifact!.zip!);
    expect([...files.keys()].sort()).toEqual(['profile-gate/context.json', 'profile-gate/report.json', 'profile-gate/report.md']);
    expect(files.get('profile-gate/report.json')!.equals(readFileSync(join(r.workspace, 'profile-gate', 'report.json')))).toBe(true);
    const captured = readZip(capturesArtifact!.zip!);
    // By default only what profile-gate wrote: profile.json (nsys stats tables have no timeline, so no trace).
    expect([...captured.keys()].sort()).toEqual(['profile-gate/profile.json']);
    const profile = JSON.parse(captured.get('profile-gate/profile.json')!.toString()) as { kernels: Array<{ name: string }>; traces: unknown[] };
    const report = JSON.parse(files.get('profile-gate/report.json')!.toString()) as { kernels: Array<{ name: string }> };
    expect(profile.kernels.map((k) => k.name)).toEqual(report.kernels.map((k) => k.name));
    expect(profile.kernels.length).toBeGreaterThan(0);
    expect(profile.traces).toEqual([]);
    expect(JSON.parse(files.get('profile-gate/context.json')!.toString())).toEqual({ event: 'pull_request', repository: 'octo/gpu-app', pullRequest: 7, headSha: 'a'.repeat(40) });
    expect(r.summary).toContain(`(https://github.com/octo/gpu-app/actions/runs/4242/artifacts/${artifact!.id}) (id ${artifact!.id})`);

    // The comment: one, by the bot, with its marker, the headline and a link to the artifact.
    const comments = fake.commentsOn(7);
    expect(comments).toHaveLength(1);
    expect(comments[0]!.user.login).toBe('github-actions[bot]');
    expect(comments[0]!.body.split('\n').slice(0, 2)).toEqual(['<!-- profile-gate:llama-h200 -->', '## profile-gate: ⚠️ Warn · llama\\-h200']);
    expect(comments[0]!.body).toContain(`/actions/runs/4242/artifacts/${artifact!.id}`);
    expect(r.outputs['comment-url']).toBe(comments[0]!.html_url);
    expect(fake.hits('comments.create')[0]!.authorization).toBe('Bearer ghs_faketoken');
  });
});

describe('a failing verdict', () => {
  it('exits 1 with one error line, the outputs and the summary written', async () => {
    // host-bound is a warning here: it fails only with fail-on-severity warning (before, fail-on alone failed on it).
    const r = await runAction(analyzeOptions(fake, { runId: 4243 }, { 'fail-on': 'host-bound', 'fail-on-severity': 'warning', comment: 'off', 'upload-artifact': 'false' }));
    expect(r.code).toBe(1);
    expect(r.outputs['verdict']).toBe('fail');
    expect(r.summary.split('\n')[0]).toBe('## profile-gate: ❌ Fail · llama\\-h200');
    const errors = r.commands.filter((c) => c.startsWith('::error'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^::error::profile-gate verdict: fail \(finding host-bound \(warning\) is in fail-on: .*\(evidence: .*; see the job summary\)$/);
  });
});

describe('what the runner hands over', () => {
  it('an event file that is not JSON ends in one line, not a stack trace', async () => {
    const r = await runAction({ fake, rawEvent: '{"pull_request": {"number": 7,', workspace: workspace(), inputs: { captures: 'captures' } });
    expect(r.code).toBe(1);
    expect(r.commands).toHaveLength(1);
    expect(r.commands[0]).toMatch(/^::error::GITHUB_EVENT_PATH \S+event\.json: not JSON at byte \d+; expected the event payload the runner writes$/);
    expect(stderrBesidesKnownNoise(r.stderr)).toBe('');
  });
});
