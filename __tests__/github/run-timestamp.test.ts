/**
 * A report read from GitHub is dated by the API's record of its run, not by its own claim: a report
 * that says 2099 would stay the newest point of every history.
 */
import { downloadReportArtifacts, runTimestamp, type ArtifactQuery } from '../../src/github/dashboard-artifacts.js';
import { serializeReport } from '../../src/report/json.js';
import { FakeGitHub } from '../helpers/fake-github.js';
import { makeReport } from '../report/report-factory.js';

const FUTURE = '2099-01-01T00:00:00.000Z';
const dated = (timestamp: string) => {
  const report = makeReport({ workload: 'llama' });
  return { ...report, run: { ...report.run, timestamp } };
};

describe('--from-artifacts dates each report by its run', () => {
  let gh: FakeGitHub;
  beforeEach(async () => {
    gh = await new FakeGitHub('octo/gpu-app').start();
  });
  afterEach(async () => {
    await gh.stop();
  });

  test("the API's run start wins over the report's own timestamp", async () => {
    gh.registerRun({ id: 301, event: 'schedule', status: 'completed', conclusion: 'success', head_branch: 'main', head_sha: '1'.repeat(40), workflow: 'nightly.yml', created_at: '2026-11-30T02:00:00.000Z', run_started_at: '2026-11-30T02:00:05.000Z' });
    gh.addArtifact(301, 'profile-gate-llama', { 'report.json': serializeReport(dated(FUTURE)) });
    gh.registerRun({ id: 302, event: 'schedule', status: 'completed', conclusion: 'success', head_branch: 'main', head_sha: '2'.repeat(40), workflow: 'nightly.yml', created_at: '2026-12-01T02:00:00.000Z', run_started_at: '2026-12-01T02:00:07.000Z' });
    gh.addArtifact(302, 'profile-gate-llama', { 'report.json': serializeReport(dated('2020-01-01T00:00:00.000Z')) });
    const query: ArtifactQuery = { repository: 'octo/gpu-app', workflow: 'nightly.yml', branch: 'main', limit: 5, prefix: 'profile-gate-', events: ['schedule'] };
    const { inputs } = await downloadReportArtifacts(query, { token: 'ghs_test', apiUrl: gh.baseUrl, serverUrl: 'https://github.com', retry: { baseMs: 1, sleep: async () => undefined } });
    expect(Object.fromEntries(inputs.map((i) => [i.report.run.runId, i.report.run.timestamp]))).toEqual({ '301': '2026-11-30T02:00:05.000Z', '302': '2026-12-01T02:00:07.000Z' });
  });
});

test("runTimestamp: the run's start, else its creation, else the report's claim, never after now", () => {
  const now = Date.parse('2026-12-02T00:00:00.000Z');
  const report = dated(FUTURE);
  expect(runTimestamp(report, { id: 1, run_started_at: '2026-12-01T10:00:00Z', created_at: '2026-12-01T09:59:00Z' }, now)).toBe('2026-12-01T10:00:00.000Z');
  expect(runTimestamp(report, { id: 1, created_at: '2026-12-01T09:59:00Z' }, now)).toBe('2026-12-01T09:59:00.000Z');
  // No time from the API: the report's claim, clamped to now.
  expect(runTimestamp(report, { id: 1 }, now)).toBe('2026-12-02T00:00:00.000Z');
  expect(runTimestamp(dated('2026-11-01T00:00:00Z'), { id: 1, run_started_at: 'not a date' }, now)).toBe('2026-11-01T00:00:00.000Z');
});
