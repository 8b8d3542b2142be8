/**
 * The job fails for the verdict's own reasons (src/compare/verdict.ts judge), and says exactly those:
 * a finding in fail-on that the baseline shares is no reason to fail, an error finding outside
 * fail-on warns and never fails the job, a warning of a fail-on id warns unless fail-on-severity is
 * warning, the failing line shows the evidence, and the summary shows the same lines as the failure.
 * The workflow chooses the verdicts that fail the job (fail-verdicts), and an unknown finding id or
 * verdict in an input is refused with the known list.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { FINDING_IDS } from '../../src/model/finding-ids.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { failureLine } from '../../src/report/verdict-lines.js';
import type { Report } from '../../src/model/report.js';
import { analyze } from '../../src/pipeline/analyze.js';
import { serializeReport } from '../../src/report/json.js';
import { sampleWorkspace } from '../helpers/action-workspace.js';
import { cli } from '../helpers/cli.js';
import { runInProcess } from '../helpers/fake-action-host.js';
import type { FakeGitHub } from '../helpers/fake-github.js';
import { PR_EVENT, useFakeGitHub } from '../helpers/fake-github-runner.js';
import { linesOf } from '../helpers/gate-lines.js';

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
    expect(linesOf(report)).toHaveLength(1);
    expect(linesOf(report)[0]).toMatch(/^decode_tok_s regressed /);
    expect(r.failures).toEqual([`profile-gate verdict: fail (${failureLine(linesOf(report))}; see the job summary)`]);
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
    expect(linesOf(report)).toEqual(['finding empty-capture (error), not in fail-on: warns']);
    expect(r.failures).toEqual([]);
    expect(r.outputs['verdict']).toBe('warn');
    expect(r.summary).toContain('- finding empty\\-capture \\(error\\), not in fail\\-on: warns');
  });

  // Before: unfused-attention was a warning, and a warning in fail-on failed. Now the eager-attention
  // capture (no fused attention kernel at all) is conclusive, an error, and its line shows the evidence.
  const EVIDENCE = /^finding unfused-attention \(error\) is in fail-on: Attention appears unfused: 128 softmax launches \(2\.4% of kernel time\) against 0 fused attention launches\. \(evidence: softmaxShare 0\.0241, softmaxLaunches 128, fusedAttentionLaunches 0, .*; rests on kernel breakdown: 4,328 launches of 29 kernels/;

  it('a finding in fail-on with no baseline: the failure names it, and only it, with the evidence that decided it', async () => {
    const r = await runInProcess({ fake, event: PR_EVENT, workspace: sampleWorkspace('current'), inputs: { captures: 'captures', key: 'k', comment: 'off', 'upload-artifact': 'false' } });
    const report = written(r.workspace);
    expect(linesOf(report)).toHaveLength(1);
    expect(linesOf(report)[0]).toMatch(EVIDENCE);
    expect(r.failures).toEqual([`profile-gate verdict: fail (${linesOf(report)[0]}; see the job summary)`]);
    expect(r.summary).toContain('- finding unfused\\-attention \\(error\\) is in fail\\-on: Attention appears unfused: 128 softmax launches');
  });

  it('a warning of a fail-on id warns by default, and fails when the workflow sets fail-on-severity warning', async () => {
    // A primary warning of the sample capture, put in fail-on.
    const sample = join(sampleWorkspace('current'), 'captures');
    const own = await analyze({ inputs: readdirSync(sample).map((name) => join(sample, name)) });
    const warning = own.findings.find((f) => f.severity === 'warning' && !f.secondary);
    expect(warning).toBeDefined();
    const inputs = { captures: 'captures', key: 'k', comment: 'off', 'upload-artifact': 'false', 'fail-on': warning!.id };
    const byDefault = await runInProcess({ fake, event: PR_EVENT, workspace: sampleWorkspace('current'), inputs });
    expect(byDefault.failures).toEqual([]);
    expect(byDefault.outputs['verdict']).toBe('warn');
    expect(linesOf(written(byDefault.workspace))).toContain(`finding ${warning!.id} (warning) is in fail-on, below fail-on-severity error: warns`);
    const strict = await runInProcess({ fake, event: PR_EVENT, workspace: sampleWorkspace('current'), inputs: { ...inputs, 'fail-on-severity': 'warning' } });
    expect(strict.outputs['verdict']).toBe('fail');
    expect(strict.failures).toHaveLength(1);
    expect(strict.failures[0]).toMatch(new RegExp(`^profile-gate verdict: fail \\(finding ${warning!.id} \\(warning\\) is in fail-on: .+\\(evidence: `));
  });

  it('a misspelt finding id in fail-on is refused before anything runs, with the known ids', async () => {
    const r = await runInProcess({ fake, event: PR_EVENT, workspace: sampleWorkspace('current'), inputs: { captures: 'captures', key: 'k', comment: 'off', 'upload-artifact': 'false', 'fail-on': 're-prefill,unfused-atention' } });
    expect(r.failures).toEqual([`input 'fail-on': unknown finding id 'unfused-atention' (known: ${FINDING_IDS.join(', ')})`]);
    expect(r.outputs['verdict']).toBeUndefined();
    expect(existsSync(join(r.workspace, 'profile-gate', 'report.json'))).toBe(false);
  });

  it('an unknown verdict in fail-verdicts or severity in fail-on-severity is refused, one line each', async () => {
    const r = await runInProcess({ fake, event: PR_EVENT, workspace: sampleWorkspace('current'), inputs: { captures: 'captures', key: 'k', comment: 'off', 'fail-verdicts': 'fail,insufficient', 'fail-on-severity': 'info' } });
    expect([...r.errors, ...r.failures]).toEqual([
      `input 'fail-on-severity': expected one of error, warning, got "info"`,
      "input 'fail-verdicts': unknown verdict 'insufficient' (known: fail, invalid, insufficient-data, warn, accepted; none for no verdict)",
    ]);
    const verdicts = await runInProcess({ fake, event: PR_EVENT, workspace: sampleWorkspace('current'), inputs: { captures: 'captures', key: 'k', comment: 'off', 'fail-verdicts': 'fail,insufficient' } });
    expect(verdicts.failures).toEqual(["input 'fail-verdicts': unknown verdict 'insufficient' (known: fail, invalid, insufficient-data, warn, accepted; none for no verdict)"]);
  });

  it('the CLI says the same lines: analyze under the verdict, report beside the failing leg', async () => {
    const ws = sampleWorkspace('current');
    const captures = readdirSync(join(ws, 'captures')).map((name) => join(ws, 'captures', name));
    const json = join(ws, 'leg', 'report.json');
    mkdirSync(join(ws, 'leg'));
    const analyzed = await cli(['analyze', '--json', json, ...captures]);
    expect(analyzed.code).toBe(1);
    const [head, first] = analyzed.stdout.split('\n');
    expect(head).toMatch(/^profile-gate \S+: FAIL$/);
    expect(first!.slice(4)).toMatch(EVIDENCE);
    const merged = await cli(['report', '--out', join(ws, 'merged'), json]);
    expect(merged.code).toBe(1);
    expect(merged.stdout).toMatch(/^ {2}fail {14}\S+: finding unfused-attention \(error\) is in fail-on: Attention appears unfused: /m);
  });
});
