/**
 * The job fails for the verdict's own reasons (src/compare/verdict.ts judge), and says exactly those:
 * a finding in fail-on that the baseline shares is no reason to fail, an error finding outside
 * fail-on warns and never fails the job, and the summary shows the same lines as the failure.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { failureLine } from '../../src/compare/verdict.js';
import type { Report } from '../../src/model/report.js';
import { analyze } from '../../src/pipeline/analyze.js';
import { serializeReport } from '../../src/report/json.js';
import { sampleWorkspace } from '../helpers/action-workspace.js';
import { cli } from '../helpers/cli.js';
import { runInProcess } from '../helpers/fake-action-host.js';
import type { FakeGitHub } from '../helpers/fake-github.js';
import { PR_EVENT, useFakeGitHub } from '../helpers/fake-github-runner.js';

let fake: FakeGitHub;
useFakeGitHub((started) => (fake = started));

const written = (ws: string) => JSON.parse(readFileSync(join(ws, 'profile-gate', 'report.json'), 'utf8')) as Report;

describe('one rule for failing', () => {
  it('a finding in fail-on that the baseline shares is not named: the job fails on the regression alone', async () => {
    // The unfused-attention run (samples/current) against itself made 30% faster: the same
    // finding on both sides, and a real drop in decode throughput.
    const ws = sampleWorkspace('current');
    const own = await analyze({ inputs: readdirSync(join(ws, 'captures')).map((name) => join(ws, 'captures', name)) });
    expect(own.findings.map((f) => f.id)).toContain('unfused-attention');
    const faster: Report = { ...own, metrics: own.metrics.map((m) => (m.name === 'decode_tok_s' ? { ...m, value: m.value * 1.3, samples: m.samples.map((v) => v * 1.3) } : m)) };
    writeFileSync(join(ws, 'baseline.json'), serializeReport(faster));

    const r = await runInProcess({ fake, event: PR_EVENT, workspace: ws, inputs: { captures: 'captures', key: 'llama', baseline: 'baseline.json', comment: 'off', 'upload-artifact': 'false' } });
    const report = written(ws);
    expect(report.verdict).toBe('fail');
    expect(report.verdictReasons).toHaveLength(1);
    expect(report.verdictReasons[0]).toMatch(/^decode_tok_s regressed /);
    expect(r.failures).toEqual([`profile-gate verdict: fail (${failureLine(report.verdictReasons)}; see the job summary)`]);
    expect(r.failures[0]).not.toContain('unfused-attention');
    expect(r.summary).toContain('decode\\_tok\\_s regressed');
  });

  it('an error finding outside fail-on warns: the job passes, and the summary says why it only warns', async () => {
    const ws = mkdtempSync(join(tmpdir(), 'pg-ws-'));
    mkdirSync(join(ws, 'captures'));
    const r = await runInProcess({ fake, event: PR_EVENT, workspace: ws, inputs: { captures: 'captures', key: 'k', 'if-no-captures': 'warn', comment: 'off', 'upload-artifact': 'false' } });
    const report = written(ws);
    expect(report.findings.map((f) => [f.id, f.severity])).toContainEqual(['empty-capture', 'error']);
    expect(report.verdict).toBe('warn');
    expect(report.verdictReasons).toEqual(['finding empty-capture (error), not in fail-on: warns']);
    expect(r.failures).toEqual([]);
    expect(r.outputs['verdict']).toBe('warn');
    expect(r.summary).toContain('- finding empty\\-capture \\(error\\), not in fail\\-on: warns');
  });

  it('a finding in fail-on with no baseline: the failure names it, and only it', async () => {
    const r = await runInProcess({ fake, event: PR_EVENT, workspace: sampleWorkspace('current'), inputs: { captures: 'captures', key: 'k', comment: 'off', 'upload-artifact': 'false' } });
    expect(r.failures).toEqual(['profile-gate verdict: fail (finding unfused-attention (warning) is in fail-on; see the job summary)']);
    expect(r.summary).toContain('- finding unfused\\-attention \\(warning\\) is in fail\\-on');
  });

  it('the CLI says the same lines: analyze under the verdict, report beside the failing leg', async () => {
    const ws = sampleWorkspace('current');
    const captures = readdirSync(join(ws, 'captures')).map((name) => join(ws, 'captures', name));
    const json = join(ws, 'leg', 'report.json');
    mkdirSync(join(ws, 'leg'));
    const analyzed = await cli(['analyze', '--json', json, ...captures]);
    expect(analyzed.code).toBe(1);
    expect(analyzed.stdout.split('\n').slice(0, 2)).toEqual([expect.stringMatching(/^profile-gate \S+: FAIL$/), '  - finding unfused-attention (warning) is in fail-on']);
    const merged = await cli(['report', '--out', join(ws, 'merged'), json]);
    expect(merged.code).toBe(1);
    expect(merged.stdout).toMatch(/^ {2}fail {14}\S+: finding unfused-attention \(warning\) is in fail-on$/m);
  });
});
