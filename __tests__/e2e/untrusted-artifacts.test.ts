/**
 * End to end, the fork-safe stage 2 (mode report on workflow_run, the job that holds the write token)
 * reading artifacts a fork's stage 1 chose. Each hostile artifact is left out in one line; the good
 * leg is still merged, and the summary and the comment are still written.
 */
import { deflateRawSync } from 'node:zlib';
import { serializeReport } from '../../src/report/json.js';
import { type FakeGitHub } from '../helpers/fake-github.js';
import { crc32, deflatedZip } from '../helpers/fake-github-zip.js';
import { runAction, stderrBesidesKnownNoise, useFakeGitHubPerTest } from '../helpers/fake-github-runner.js';
import { makeReport } from '../report/report-factory.js';

const REPOSITORY = { full_name: 'octo/gpu-app', default_branch: 'main' };
const STAGE_ONE = 600;
const workflowRun = { workflow_run: { id: STAGE_ONE, event: 'pull_request', head_sha: 'b'.repeat(40), pull_requests: [{ number: 7 }] }, repository: REPOSITORY };

let fake: FakeGitHub;
useFakeGitHubPerTest((started) => (fake = started));

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
  fake.registerRun({ id: STAGE_ONE, event: 'pull_request', status: 'completed', conclusion: 'success', head_branch: 'feature', head_sha: 'b'.repeat(40), headRepositoryId: 999 });
  fake.addArtifact(STAGE_ONE, 'profile-gate-llama', { 'report.json': serializeReport(makeReport({ workload: 'llama' })) });
  for (const [name, zip] of Object.entries(hostile)) {
    const artifact = fake.addArtifact(STAGE_ONE, name, {});
    artifact.zip = zip;
    artifact.size = zip.length;
  }
}

function stageTwo(env: Record<string, string> = {}) {
  return runAction({ fake, runId: 601, eventName: 'workflow_run', event: workflowRun, job: 'comment', inputs: { mode: 'report' }, env });
}

function expectStillPublished(r: Awaited<ReturnType<typeof stageTwo>>): void {
  expect(stderrBesidesKnownNoise(r.stderr)).toBe('');
  expect(r.code).toBe(0);
  expect(r.summary.split('\n')[0]).toMatch(/^## profile-gate: /);
  expect(r.summary).toContain('llama');
  expect(fake.commentsOn(7)).toHaveLength(1);
}

describe('hostile artifacts in the fork-safe report stage', () => {
  it('a 65,000-entry directory around one 8 MiB report.json: refused before inflating anything', async () => {
    const report = Buffer.concat([Buffer.from(serializeReport(makeReport({ workload: 'bomb' })).replace(/}\s*$/, ', "pad": "')), Buffer.alloc(8 << 20, 0x61), Buffer.from('"}')]);
    const bomb = sharedBodyZip(report, 65_000);
    expect(bomb.length).toBeLessThan(5 << 20);
    stageOneUploads({ 'profile-gate-bomb': bomb, 'profile-gate-shared': sharedBodyZip(report, 50) });
    const r = await stageTwo();
    expectStillPublished(r);
    const skipped = r.commands.filter((c) => c.startsWith('::warning::Skipped artifact'));
    expect(skipped).toEqual([
      "::warning::Skipped artifact 'profile-gate-bomb': not a readable zip: 65000 entries; expected at most 10000",
      `::warning::Skipped artifact 'profile-gate-shared': not a readable zip: report.json: shares its data at byte 0 with another entry; a well-formed archive stores each file once`,
    ]);
  });

  it('a report.json that inflates past the cap, and more reports than the total cap holds', async () => {
    const big = Buffer.alloc(80 << 20, 0x20);
    const small = Buffer.from(serializeReport(makeReport({ workload: 'leg' })));
    const many = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`leg-${i}/report.json`, small]));
    stageOneUploads({ 'profile-gate-inflates': sharedBodyZip(big, 1), 'profile-gate-many': zipOf(many) });
    const r = await stageTwo({ PROFILE_GATE_MAX_UNZIPPED_BYTES: String(small.length * 5) });
    expectStillPublished(r);
    expect(r.commands).toContain("::warning::Skipped artifact 'profile-gate-inflates': not a readable zip: report.json: 83886080 bytes uncompressed; expected at most 67108864");
    expect(r.commands.some((c) => /^::warning::Skipped artifact 'profile-gate-many': not a readable zip: leg-5\/report\.json: the entries read add up to more than \d+ bytes uncompressed; stopped reading$/.test(c))).toBe(true);
  });

  it('a storage server that sends one byte at a time is cut by the idle timeout', async () => {
    stageOneUploads({ 'profile-gate-a-slow': zipOf({ 'report.json': Buffer.from(serializeReport(makeReport({ workload: 'slow' }))) }) });
    fake.fail('artifacts.zip', { status: 200, trickleMs: 1500 });
    const started = Date.now();
    const r = await stageTwo({ PROFILE_GATE_IDLE_TIMEOUT_MS: '400' });
    expectStillPublished(r);
    expect(r.commands.filter((c) => c.startsWith("::warning::Skipped artifact 'profile-gate-a-slow'"))).toEqual([
      "::warning::Skipped artifact 'profile-gate-a-slow': the server sent nothing for 400 ms while sending the artifact zip (1 bytes so far); stopped waiting",
    ]);
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('an API that never answers the artifact list: one line, in the log and the summary', async () => {
    stageOneUploads({});
    fake.fail('artifacts.list', { status: 200, hang: true, times: 2 });
    const r = await stageTwo({ PROFILE_GATE_CONNECT_TIMEOUT_MS: '400', PROFILE_GATE_RETRY_ATTEMPTS: '2', PROFILE_GATE_RETRY_BASE_MS: '10' });
    expect(r.code).toBe(1);
    expect(r.commands.filter((c) => c.startsWith('::error::'))).toEqual([
      "::error::cannot list the report artifacts of run 600: GitHub could not be reached (no answer within 400 ms) on GET /repos/{owner}/{repo}/actions/runs/{run}/artifacts after 2 attempts (reading artifacts needs the permission actions: read)",
    ]);
    expect(r.summary).toContain('cannot list the report artifacts of run 600: GitHub could not be reached');
  });
});

const zipOf = (files: Record<string, Buffer>): Buffer => deflatedZip(files);
