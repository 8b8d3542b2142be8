/**
 * The verdict contract at the action's door (in process, a fake host and a loopback GitHub): the
 * workflow chooses which verdicts fail the job (fail-verdicts: fail and invalid by default), a
 * verdict that compared nothing is never silent, and an input skipped in a folder is the verdict's
 * first line, the top of the summary and the skipped-inputs output, or fails the job with strict.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Report } from '../../src/model/report.js';
import { analyze } from '../../src/pipeline/analyze.js';
import { serializeReport } from '../../src/report/json.js';
import { sampleWorkspace } from '../helpers/action-workspace.js';
import { runInProcess } from '../helpers/fake-action-host.js';
import type { FakeGitHub } from '../helpers/fake-github.js';
import { PR_EVENT, useFakeGitHub } from '../helpers/fake-github-runner.js';
import { cli } from '../helpers/cli.js';
import { linesOf } from '../helpers/gate-lines.js';

let fake: FakeGitHub;
useFakeGitHub((started) => (fake = started));

const written = (ws: string) => JSON.parse(readFileSync(join(ws, 'profile-gate', 'report.json'), 'utf8')) as Report;
const BASE_INPUTS = { captures: 'captures', key: 'k', comment: 'off', 'upload-artifact': 'false', baseline: 'baseline.json' };

/** The sample run (samples/current) as its own baseline, changed by `edit`, in a fresh workspace. */
async function workspaceWithBaseline(edit: (report: Report) => Report): Promise<string> {
  const ws = sampleWorkspace('current');
  const own = await analyze({ inputs: readdirSync(join(ws, 'captures')).map((name) => join(ws, 'captures', name)) });
  writeFileSync(join(ws, 'baseline.json'), serializeReport(edit(own)));
  return ws;
}

/** The baseline was measured on another GPU: the comparison cannot stand. */
const onH100 = (report: Report): Report => ({ ...report, environment: { ...report.environment, gpuName: 'NVIDIA H100 80GB HBM3' } });
/** The baseline holds one sample of each metric: too few to decide. */
const oneSample = (report: Report): Report => ({ ...report, metrics: report.metrics.map((m) => ({ ...m, samples: m.samples.slice(0, 1), value: m.samples[0]! })) });

describe('fail-verdicts', () => {
  // Before: an invalid comparison (another GPU) left the job green.
  it('an invalid comparison fails the job by default, with the reason', async () => {
    const ws = await workspaceWithBaseline(onH100);
    const r = await runInProcess({ fake, event: PR_EVENT, workspace: ws, inputs: BASE_INPUTS });
    const report = written(ws);
    expect(report.verdict).toBe('invalid');
    expect(r.outputs['verdict']).toBe('invalid');
    expect(r.failures).toHaveLength(1);
    expect(r.failures[0]).toMatch(/^profile-gate verdict: invalid \(environment differs \(gpuName: .*H100.*; see the job summary\)$/);
  });

  it('a workflow that lists only fail passes an invalid comparison, with a warning annotation that says so', async () => {
    const ws = await workspaceWithBaseline(onH100);
    const r = await runInProcess({ fake, event: PR_EVENT, workspace: ws, inputs: { ...BASE_INPUTS, 'fail-verdicts': 'fail' } });
    expect(r.failures).toEqual([]);
    expect(r.outputs['verdict']).toBe('invalid');
    const annotation = r.host.annotations.find((a) => a.title === 'profile-gate: invalid');
    expect(annotation?.level).toBe('warning');
    expect(annotation?.message).toMatch(/^profile-gate verdict: invalid, which does not fail this job \(input 'fail-verdicts' does not list it\): environment differs/);
  });

  it('insufficient-data passes by default with a warning annotation, and fails when listed', async () => {
    const ws = await workspaceWithBaseline(oneSample);
    const byDefault = await runInProcess({ fake, event: PR_EVENT, workspace: ws, inputs: BASE_INPUTS });
    expect(byDefault.outputs['verdict']).toBe('insufficient-data');
    expect(byDefault.failures).toEqual([]);
    expect(byDefault.host.annotations.filter((a) => a.title === 'profile-gate: insufficient-data').map((a) => a.level)).toEqual(['warning']);
    const listed = await runInProcess({ fake, event: PR_EVENT, workspace: await workspaceWithBaseline(oneSample), inputs: { ...BASE_INPUTS, 'fail-verdicts': 'fail,invalid,insufficient-data' } });
    expect(listed.failures).toHaveLength(1);
    expect(listed.failures[0]).toMatch(/^profile-gate verdict: insufficient-data \(/);
  });

  it('none fails on nothing, not even on fail', async () => {
    const r = await runInProcess({ fake, event: PR_EVENT, workspace: sampleWorkspace('current'), inputs: { captures: 'captures', key: 'k', comment: 'off', 'upload-artifact': 'false', 'fail-verdicts': 'none' } });
    expect(r.outputs['verdict']).toBe('fail');
    expect(r.failures).toEqual([]);
  });
});

describe('skipped inputs', () => {
  /** The sample captures plus a truncated trace in the same folder. */
  function withTruncatedTrace(): string {
    const ws = mkdtempSync(join(tmpdir(), 'pg-ws-'));
    cpSync(join(sampleWorkspace('current'), 'captures'), join(ws, 'captures'), { recursive: true });
    writeFileSync(join(ws, 'captures', 'truncated.trace.json'), '{"schemaVersion": 1, "deviceProperties": [], "traceEvents": [{"ph": "X", "cat": "kernel", "name": "gemv", "ts": 1');
    return ws;
  }

  // Before: the truncated trace was skipped with a warning only; the verdict and its first lines did not say so.
  it('is the verdict first line, the top of the summary and the skipped-inputs output', async () => {
    const ws = withTruncatedTrace();
    const r = await runInProcess({ fake, event: PR_EVENT, workspace: ws, inputs: { captures: 'captures', key: 'k', comment: 'off', 'upload-artifact': 'false' } });
    const report = written(ws);
    const path = join('captures', 'truncated.trace.json');
    expect(report.skippedInputs.map((s) => s.path)).toEqual([path]);
    expect(linesOf(report)[0]).toMatch(new RegExp(`^1 input was skipped, the verdict rests on the rest: captures/truncated\\.trace\\.json \\(.+\\); strict \\(--strict\\) fails instead$`));
    expect(r.outputs['skipped-inputs']).toBe(path);
    // At the top: the headline, the no-baseline banner, then the verdict's lines, this one first.
    const lines = r.summary.split('\n').filter(Boolean);
    expect(lines[0]).toMatch(/^## profile-gate: /);
    expect(lines[1]).toMatch(/^> \*\*No baseline/);
    expect(lines[2]).toMatch(/^- 1 input was skipped, the verdict rests on the rest: captures\/truncated\\\.trace\\\.json/);
  });

  it('fails the job with strict, naming the file', async () => {
    const ws = withTruncatedTrace();
    const r = await runInProcess({ fake, event: PR_EVENT, workspace: ws, inputs: { captures: 'captures', key: 'k', comment: 'off', 'upload-artifact': 'false', strict: 'true' } });
    expect(r.failures).toHaveLength(1);
    expect(r.failures[0]).toMatch(/^captures\/truncated\.trace\.json/);
  });

  it('a capture path not found beside others is skipped and said, or fails with strict', async () => {
    const ws = sampleWorkspace('current');
    const inputs = { captures: 'captures,missing-dir', key: 'k', comment: 'off', 'upload-artifact': 'false' };
    const r = await runInProcess({ fake, event: PR_EVENT, workspace: ws, inputs });
    expect(written(ws).skippedInputs).toEqual([{ path: 'missing-dir', reason: 'not found' }]);
    expect(r.outputs['skipped-inputs']).toBe('missing-dir');
    const strict = await runInProcess({ fake, event: PR_EVENT, workspace: sampleWorkspace('current'), inputs: { ...inputs, strict: 'true' } });
    expect(strict.failures).toEqual(["capture path not found: missing-dir (input 'strict' fails on any input it cannot read)"]);
  });

  it('the CLI says the same: the first line under the verdict, or exit 2 with --strict', async () => {
    const ws = withTruncatedTrace();
    const analyzed = await cli(['analyze', '--fail-verdicts', 'none', join(ws, 'captures')]);
    expect(analyzed.code).toBe(0);
    expect(analyzed.stdout.split('\n')[1]).toMatch(/^ {2}- 1 input was skipped, the verdict rests on the rest: .*truncated\.trace\.json/);
    const strict = await cli(['analyze', '--strict', join(ws, 'captures')]);
    expect(strict.code).toBe(2);
    expect(strict.stderr).toMatch(/^profile-gate: .*truncated\.trace\.json/);
  });
});
