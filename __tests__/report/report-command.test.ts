import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import { runReportCommand } from '../../src/cli/report-command.js';
import { InputError, UsageError } from '../../src/errors.js';
import { serializeReport } from '../../src/report/json.js';
import { finding, makeReport, row } from './report-factory.js';
import { cli } from '../helpers/cli.js';
import { ReportSchema } from '../../src/model/report.js';

const SAMPLES = join(import.meta.dirname, '..', '..', 'samples');

function downloads(): string {
  // The layout `gh run download` leaves: one folder per artifact.
  const dir = mkdtempSync(join(tmpdir(), 'pg-report-cmd-'));
  for (const [name, report] of [
    ['profile-gate-llama', makeReport({ verdict: 'pass', rows: [row()] })],
    ['profile-gate-mixtral', makeReport({ verdict: 'fail', findings: [finding({ severity: 'error', id: 're-prefill' })], rows: [row({ status: 'fail' })] })],
  ] as const) {
    mkdirSync(join(dir, name, 'profile-gate'), { recursive: true });
    writeFileSync(join(dir, name, 'profile-gate', 'report.json'), serializeReport(report));
  }
  return dir;
}

describe('profile-gate report', () => {
  let write: ReturnType<typeof jest.spyOn>;
  beforeEach(() => {
    write = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
  });
  afterEach(() => write.mockRestore());

  it('merges every report.json under the folders into summary.md and comment.md', async () => {
    const dir = downloads();
    const out = join(dir, 'out');
    const code = await runReportCommand(['--out', out, '--run-url', 'https://github.com/o/r/actions/runs/3', dir]);
    expect(code).toBe(1);
    const summary = readFileSync(join(out, 'summary.md'), 'utf8');
    const comment = readFileSync(join(out, 'comment.md'), 'utf8');
    expect(summary.split('\n')[0]).toBe('## profile-gate: ❌ Fail · 2 reports (1 fail, 1 pass)');
    // Labelled by the artifact folder, less the prefix, worst first.
    expect(summary).toContain('| mixtral | ❌ Fail |');
    expect(summary).toContain('| llama | ✅ Pass |');
    expect(summary.indexOf('### ❌ Fail · mixtral')).toBeLessThan(summary.indexOf('### ✅ Pass · llama'));
    expect(comment.split('\n')[0]).toBe('<!-- profile-gate:report -->');
    expect(comment).toContain('[job summary and all artifacts](https://github.com/o/r/actions/runs/3)');
  });

  it('refuses a --run-url that is no http(s) URL, as --dashboard-url does, instead of dropping the link', async () => {
    const dir = downloads();
    await expect(runReportCommand(['--out', join(dir, 'out'), '--run-url', 'actions/runs/3', dir])).rejects.toThrow(
      '--run-url: expected an http(s) URL of the workflow run, e.g. https://github.com/OWNER/REPO/actions/runs/ID, got "actions/runs/3"',
    );
  });

  it('labels a report by its artifact folder when report.json is at the top of it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pg-report-cmd-'));
    mkdirSync(join(dir, 'profile-gate-llama'));
    writeFileSync(join(dir, 'profile-gate-llama', 'report.json'), serializeReport(makeReport()));
    const out = join(dir, 'out');
    expect(await runReportCommand(['--out', out, '--key', 'nightly', dir])).toBe(0);
    expect(readFileSync(join(out, 'summary.md'), 'utf8').split('\n')[0]).toBe('## profile-gate: ✅ Pass (no baseline: findings only) · llama');
    expect(readFileSync(join(out, 'comment.md'), 'utf8').split('\n')[0]).toBe('<!-- profile-gate:nightly -->');
  });

  it('prints a label from an artifact folder inert: no ESC, no ##[ command', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pg-report-cmd-'));
    const name = 'profile-gate-x\u001b]52;c;eA==\u0007##[add-mask]y';
    mkdirSync(join(dir, name));
    writeFileSync(join(dir, name, 'report.json'), serializeReport(makeReport()));
    expect(await runReportCommand(['--out', join(dir, 'out'), dir])).toBe(0);
    const printed = write.mock.calls.map((call: unknown[]) => String(call[0])).join('');
    expect(printed).not.toMatch(/[\u001b\u0007]|##\[/);
    expect(printed).toContain('x\\x1b]52;c;eA==\\x07##\\x5badd-mask]y');
  });

  it('refuses a file that is not a report, naming it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pg-report-cmd-'));
    const bad = join(dir, 'report.json');
    writeFileSync(bad, JSON.stringify({ schemaVersion: 9 }));
    const error = await runReportCommand(['--out', join(dir, 'out'), bad]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toBe(`${bad}: expected schemaVersion ≤ 8; this report was written by a newer profile-gate (schemaVersion 9); upgrade`);
    writeFileSync(bad, '{"schemaVersion": 1,');
    await expect(runReportCommand(['--out', join(dir, 'out'), bad])).rejects.toThrow(/: expected JSON, got /);
  });

  it('--accepted-by accepts the failing leg locally: exit 0, the verdict accepted, the rows still failing', async () => {
    const dir = downloads();
    const out = join(dir, 'out');
    const code = await runReportCommand(['--out', out, '--accepted-by', 'octocat:slower on purpose', dir]);
    expect(code).toBe(0);
    const summary = readFileSync(join(out, 'summary.md'), 'utf8');
    expect(summary.split('\n')[0]).toBe('## profile-gate: ☑️ Accepted regression · 2 reports (1 accepted, 1 pass)');
    expect(summary).toContain('**Accepted by @<wbr>octocat** (locally, --accepted-by, ');
    expect(summary).toContain('“slower on purpose”');
    expect(summary).toContain('❌ fail (accepted)');
    // Refused with fail-verdicts listing accepted; a bad login is a usage error.
    expect(await runReportCommand(['--out', out, '--accepted-by', 'octocat', '--fail-verdicts', 'fail,accepted', dir])).toBe(1);
    await expect(runReportCommand(['--out', out, '--accepted-by', '@octocat', dir])).rejects.toThrow(new UsageError('--accepted-by "@octocat": expected a GitHub login, optionally followed by :REASON (e.g. octocat:slower on purpose)'));
  });

  it('--accepted-by covers what failed the report under the fail-on that judged it, not the default fail-on (the real unfused capture)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pg-report-cmd-'));
    const path = join(dir, 'report.json');
    // samples/current holds unfused attention (an error, in the default fail-on) and an unfused norm +
    // RoPE (a warning); the workflow fails on unfused-norm-rope alone, at warning.
    const analyzed = await cli(['analyze', '--fail-on', 'unfused-norm-rope', '--fail-on-severity', 'warning', '--rule-option', 'unfused-norm-rope.minPiecesShare=0.02', '--json', path, join(SAMPLES, 'current')]);
    expect(analyzed.code).toBe(1);
    const written = ReportSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
    expect(written.findings.map((f) => f.id)).toEqual(expect.arrayContaining(['unfused-attention', 'unfused-norm-rope']));
    expect(written.decision.causes).toEqual([{ kind: 'finding', id: 'unfused-norm-rope', severity: 'warning', status: 'fail', inFailOn: true }]);
    expect(written.decision.policy).toMatchObject({ failOn: ['unfused-norm-rope'], failOnSeverity: 'warning', ruleOptions: { 'unfused-norm-rope': { minPiecesShare: 0.02 } } });
    const out = join(dir, 'out');
    expect(await runReportCommand(['--out', out, '--accepted-by', 'octocat:norm kept apart on purpose', path])).toBe(0);
    const summary = readFileSync(join(out, 'summary.md'), 'utf8');
    // Markdown escapes the hyphens.
    expect(summary).toContain('covering finding:unfused\\-norm\\-rope: norm kept apart on purpose;');
    expect(summary).not.toMatch(/covering[^\n]*attention/);
  });

  it('needs --out and at least one input', async () => {
    await expect(runReportCommand(['x'])).rejects.toThrow(UsageError);
    await expect(runReportCommand(['--out', 'o'])).rejects.toThrow(/at least one report\.json/);
  });
});
