/**
 * The CLI's exit code follows --fail-verdicts (fail and invalid by default) in analyze and report; a
 * verdict that compared nothing and does not fail is said on stderr, never silent.
 */
import { REPORT_SCHEMA_VERSION } from '../../src/model/report.js';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Report } from '../../src/model/report.js';
import { analyze } from '../../src/pipeline/analyze.js';
import { serializeReport } from '../../src/report/json.js';
import { cli } from '../helpers/cli.js';

const SAMPLE = join(import.meta.dirname, '..', '..', 'samples', 'current');
const inputs = () => readdirSync(SAMPLE).map((name) => join(SAMPLE, name));

let own: Report;
beforeAll(async () => {
  own = await analyze({ inputs: inputs() });
});

function baselineFile(edit: (report: Report) => Report): string {
  const path = join(mkdtempSync(join(tmpdir(), 'pg-base-')), 'report.json');
  writeFileSync(path, serializeReport(edit(own)));
  return path;
}

const onH100 = (report: Report): Report => ({ ...report, environment: { ...report.environment, gpuName: 'NVIDIA H100 80GB HBM3' } });
const oneSample = (report: Report): Report => ({ ...report, metrics: report.metrics.map((m) => ({ ...m, samples: m.samples.slice(0, 1), value: m.samples[0]! })) });

describe('analyze exit code', () => {
  // Before: an environment mismatch (INVALID) exited 0.
  it('invalid exits 1 by default, and 0 with a warning line when --fail-verdicts leaves it out', async () => {
    const baseline = baselineFile(onH100);
    const byDefault = await cli(['analyze', '--baseline', baseline, ...inputs()]);
    expect(byDefault.stdout).toMatch(/^profile-gate \S+: INVALID$/m);
    expect(byDefault.code).toBe(1);
    const onlyFail = await cli(['analyze', '--baseline', baseline, '--fail-verdicts', 'fail', ...inputs()]);
    expect(onlyFail.code).toBe(0);
    expect(onlyFail.stderr).toMatch(/^profile-gate: warning: verdict invalid, which does not fail this run \(--fail-verdicts does not list it\): environment differs/);
  });

  it('insufficient-data exits 0 with a warning line by default, and 1 when listed', async () => {
    const baseline = baselineFile(oneSample);
    const byDefault = await cli(['analyze', '--baseline', baseline, ...inputs()]);
    expect(byDefault.stdout).toMatch(/^profile-gate \S+: INSUFFICIENT DATA$/m);
    expect(byDefault.code).toBe(0);
    expect(byDefault.stderr).toMatch(/^profile-gate: warning: verdict insufficient-data, which does not fail this run/);
    const listed = await cli(['analyze', '--baseline', baseline, '--fail-verdicts', 'fail,invalid,insufficient-data', ...inputs()]);
    expect(listed.code).toBe(1);
  });

  it('an unknown --format is refused before any file is read, with the known ids', async () => {
    const { code, stderr } = await cli(['analyze', '--format', 'kineto', ...inputs()]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^profile-gate: --format: expected one of .*kineto-json.*, got "kineto"/);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
  });
});

describe('report exit code', () => {
  it('the merged verdict fails under --fail-verdicts: invalid by default, not with none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pg-legs-'));
    const json = join(dir, 'leg', 'report.json');
    const made = await cli(['analyze', '--json', json, '--baseline', baselineFile(onH100), ...inputs()]);
    expect(made.code).toBe(1);
    const merged = await cli(['report', '--out', join(dir, 'merged'), json]);
    expect(merged.code).toBe(1);
    expect(merged.stdout).toMatch(/^ {2}invalid {11}\S+: environment differs/m);
    const none = await cli(['report', '--out', join(dir, 'merged'), '--fail-verdicts', 'none', json]);
    expect(none.code).toBe(0);
    const bad = await cli(['report', '--out', join(dir, 'merged'), '--fail-verdicts', 'bad', json]);
    expect(bad.code).toBe(2);
  });

  it('a leg it cannot read is exit 2, naming it, unless --allow-unreadable-reports; then the others merge', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pg-legs-'));
    const good = join(dir, 'profile-gate-a', 'report.json');
    // samples/current holds the unfused attention the default fail-on fails on.
    expect((await cli(['analyze', '--json', good, ...inputs()])).code).toBe(1);
    const newer = join(dir, 'profile-gate-b', 'report.json');
    mkdirSync(join(dir, 'profile-gate-b'));
    writeFileSync(newer, JSON.stringify({ schemaVersion: REPORT_SCHEMA_VERSION + 1 }));
    const refused = await cli(['report', '--out', join(dir, 'merged'), dir]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('profile-gate-b/report.json');
    expect(refused.stderr).toContain(`newer profile-gate (schemaVersion ${REPORT_SCHEMA_VERSION + 1})`);
    const allowed = await cli(['report', '--out', join(dir, 'merged'), '--allow-unreadable-reports', dir]);
    expect(allowed.stderr).toMatch(/^profile-gate: warning: skipped a report: .*profile-gate-b\/report\.json/m);
    expect(allowed.stdout).toMatch(/^profile-gate report: fail \(1 report\)/);
    expect(allowed.code).toBe(1);
  });
});
