/**
 * A baseline on a bad day: corrupt, cut short, empty, not a report, too large, from an older schema
 * (migrated), from a newer profile-gate (refused with what to do), from another GPU (verdict
 * invalid, saying why). Always an explicit outcome through the CLI: exit 2 with one line naming the
 * file, or a verdict with its reason; never an internal error (exit 3) or a stack trace.
 * The baseline is the real analysis of samples/baseline (H200 captures), the head samples/current.
 */
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, writeFileSync, ftruncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { cli } from '../helpers/cli.js';
import { InputError } from '../../src/errors.js';
import { loadReport, MAX_REPORT_BYTES } from '../../src/io/reports.js';
import { MIGRATIONS, migrateReport } from '../../src/model/migrate.js';
import { REPORT_SCHEMA_VERSION, ReportSchema, type Report } from '../../src/model/report.js';
import { accountOf } from '../helpers/gate-lines.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const SAMPLES = join(ROOT, 'samples');
const dir = mkdtempSync(join(tmpdir(), 'pg-baseline-faults-'));


/** The real baseline report (samples/baseline analyzed), as written to disk. */
let baselineText: string;
let baseline: Report;
beforeAll(async () => {
  const path = join(dir, 'baseline.json');
  const { code } = await cli(['analyze', '--json', path, join(SAMPLES, 'baseline')]);
  expect(code).toBe(0);
  baselineText = readFileSync(path, 'utf8');
  baseline = ReportSchema.parse(JSON.parse(baselineText));
});

function baselineFile(name: string, content: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

/** A version-1 report in the documented version-0 shape (see src/model/migrate.ts). */
/**
 * The decision a report written before schema 3 gets: without a comparison, the findings that count,
 * each with the verdict's status and no word on fail-on (the policy was not recorded).
 */
function undecided(report: Report): Report['decision'] {
  if (report.verdict === 'pass') return { causes: [], policy: null };
  const status = report.verdict === 'warn' ? 'warn' : 'fail';
  const ids = [...new Set(report.findings.filter((f) => f.severity !== 'info' && (!f.secondary || f.severity === 'error')).map((f) => f.id))];
  const severity = (id: string) => (report.findings.some((f) => f.id === id && f.severity === 'error') ? 'error' : 'warning');
  return { causes: ids.map((id) => ({ kind: 'finding' as const, id, severity: severity(id), status })), policy: null };
}

function asVersion0(report: Report): Record<string, unknown> {
  const { tool, totalKernelNs, kernels, run: _run, memops: _m, apiCalls: _a, cpuFunctions: _c, notices: _n, deepDive: _d, comparison, timeline, ...rest } = report;
  return {
    ...rest,
    schemaVersion: 0,
    tool: `profile-gate ${tool.version}`,
    totalKernelTimeNs: totalKernelNs,
    kernels: kernels.map(({ totalNs, ...kernel }) => ({ ...kernel, totalTimeNs: totalNs })),
    ...(comparison ? { comparison } : {}),
    ...(timeline ? { timeline } : {}),
  };
}

describe('a baseline that cannot be read: exit 2, one line naming the file', () => {
  const cases: Array<[string, () => string, RegExp]> = [
    ['corrupt JSON', () => baselineFile('corrupt.json', baselineText.replace('"findings"', '"findings" "x"')), /: expected JSON, got /],
    ['cut short (an upload that stopped)', () => baselineFile('cut.json', baselineText.slice(0, Math.floor(baselineText.length / 2))), /: expected JSON, got /],
    ['empty', () => baselineFile('empty.json', ''), /: expected a profile-gate report\.json, got an empty file$/],
    ['only whitespace', () => baselineFile('blank.json', ' \n\n'), /: expected a profile-gate report\.json, got an empty file$/],
    ['a JSON array', () => baselineFile('array.json', '[1,2]'), /: expected a profile-gate report\.json \(a JSON object\), got an array$/],
    // Kineto traces carry a schemaVersion of their own (1): refused at the first field a report needs.
    ['a Kineto trace instead of a report', () => join(ROOT, '__tests__', 'fixtures', 'kineto', 'hta_a100_simple_add_trace.json'), /: a capture \(kineto-json\), not a report; a baseline is the report\.json of an earlier analysis: profile-gate analyze --json baseline\.json BASELINE_CAPTURES\.\.\., then give baseline\.json$/],
    ['a benchmark result instead of a report', () => baselineFile('benchmark.json', JSON.stringify({ request_throughput: 4.2, median_ttft_ms: 31 })), /: a capture \(max-benchmark-json\), not a report; a baseline is the report\.json of an earlier analysis/],
    ['schemaVersion as text', () => baselineFile('text-version.json', baselineText.replace('"schemaVersion": 8', '"schemaVersion": "8"')), /: expected a profile-gate report\.json with a whole-number schemaVersion, got "8"$/],
    ['a field of the wrong type', () => baselineFile('bad-field.json', baselineText.replace(/"totalKernelNs": \d+/, '"totalKernelNs": "many"')), /: expected a profile-gate report\.json \(schemaVersion 8\); at totalKernelNs: /],
    ['a newer profile-gate', () => baselineFile('newer.json', JSON.stringify({ ...JSON.parse(baselineText), schemaVersion: 9, tool: { name: 'profile-gate', version: '9.1.0' } })), /: expected schemaVersion ≤ 8; this report was written by a newer profile-gate \(9\.1\.0\); upgrade$/],
    ['UTF-16 (saved by a Windows editor)', () => baselineFile('utf16.json', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(baselineText, 'utf16le')])), /: expected JSON, got /],
    ['a directory', () => (mkdirSync(join(dir, 'a-dir'), { recursive: true }), join(dir, 'a-dir')), /: a folder; expected one profile-gate report\.json file \(analyze --json FILE and run --out DIR write one\)$/],
    [
      'larger than any report',
      () => {
        const path = join(dir, 'huge.json');
        const fd = openSync(path, 'w');
        ftruncateSync(fd, MAX_REPORT_BYTES + 1);
        closeSync(fd);
        return path;
      },
      /: \d+ bytes; expected a report\.json under \d+ bytes$/,
    ],
  ];
  it.each(cases)('%s', async (_name, make, message) => {
    const path = make();
    const { code, stdout, stderr } = await cli(['analyze', '--baseline', path, join(SAMPLES, 'current')]);
    expect({ code, lines: stderr.trimEnd().split('\n').length }).toEqual({ code: 2, lines: 1 });
    expect(stderr.startsWith(`profile-gate: ${path}`)).toBe(true);
    expect(stderr.trimEnd()).toMatch(message);
    expect(stderr).not.toMatch(/internal error|\n\s+at /);
    expect(stdout).toBe('');
  });
});

describe('a baseline from another environment or an older schema: an explicit verdict', () => {
  it('another GPU: verdict invalid, and the reason names the key that differs', async () => {
    const other = { ...JSON.parse(baselineText), environment: { ...baseline.environment, gpuName: 'NVIDIA A100-SXM4-80GB' } };
    const path = baselineFile('a100.json', JSON.stringify(other));
    const head = join(dir, 'head-a100.json');
    const { code, stdout, stderr } = await cli(['analyze', '--baseline', path, '--json', head, join(SAMPLES, 'current')]);
    expect(stderr).toBe('');
    expect([0, 1]).toContain(code);
    const report = ReportSchema.parse(JSON.parse(readFileSync(head, 'utf8')));
    expect(report.verdict).toBe('invalid');
    expect(report.comparison!.environmentMismatch).toEqual([{ key: 'gpuName', baseline: 'NVIDIA A100-SXM4-80GB', current: 'NVIDIA H200' }]);
    expect(accountOf(report)[0]).toMatch(/^environment differs \(gpuName.*A100.*H200.*\); compare like with like/);
    expect(stdout).toMatch(/INVALID/);
  });

  it('the same GPU allowed to differ by name: compared, no longer invalid', async () => {
    const other = { ...JSON.parse(baselineText), environment: { ...baseline.environment, gpuName: 'NVIDIA A100-SXM4-80GB' } };
    const path = baselineFile('a100-allowed.json', JSON.stringify(other));
    const { code, stdout } = await cli(['analyze', '--baseline', path, '--allow-environment-mismatch', 'gpuName', '--json', '-', join(SAMPLES, 'current')]);
    const report = ReportSchema.parse(JSON.parse(stdout));
    expect(report.verdict).toBe('fail');
    expect(code).toBe(1);
  });

  it('schemaVersion 0: migrated forward, and gated exactly as the version-1 original', async () => {
    const v0 = baselineFile('v0.json', JSON.stringify(asVersion0(baseline)));
    const v1 = join(dir, 'baseline.json');
    const fromV0 = await cli(['analyze', '--baseline', v0, '--json', '-', join(SAMPLES, 'current')]);
    const fromV1 = await cli(['analyze', '--baseline', v1, '--json', '-', join(SAMPLES, 'current')]);
    expect(fromV0.stderr).toBe('');
    const a = ReportSchema.parse(JSON.parse(fromV0.stdout));
    const b = ReportSchema.parse(JSON.parse(fromV1.stdout));
    expect(fromV0.code).toBe(fromV1.code);
    expect(a.verdict).toBe('fail');
    expect(a.verdict).toBe(b.verdict);
    expect(a.comparison!.rows).toEqual(b.comparison!.rows);
    expect(accountOf(a)).toEqual(accountOf(b));
  });
});

describe('migrateReport', () => {
  it('the current version passes through unchanged', () => {
    expect(migrateReport(JSON.parse(baselineText), 'b.json')).toEqual(baseline);
    expect(REPORT_SCHEMA_VERSION).toBe(8);
  });

  it('version 0: renamed fields restored, sections it lacked added empty, absent sections null', () => {
    const migrated = migrateReport(asVersion0(baseline), 'v0.json');
    expect(migrated.schemaVersion).toBe(8);
    expect(migrated.tool).toEqual({ name: 'profile-gate', version: baseline.tool.version });
    expect(migrated.totalKernelNs).toBe(baseline.totalKernelNs);
    expect(migrated.kernels).toEqual(baseline.kernels);
    // The decision was not recorded then: it is built from the data, the policy unknown.
    expect(migrated).toEqual({ ...baseline, run: {}, memops: [], apiCalls: [], cpuFunctions: [], notices: [], deepDive: [], decision: undecided(baseline) });
    const bare = asVersion0({ ...baseline, timeline: null, comparison: null });
    expect('timeline' in bare).toBe(false);
    expect(migrateReport(bare, 'v0.json')).toMatchObject({ timeline: null, comparison: null });
  });

  it('version 1 (no time per step, no kernel-time rows) and 2 (no decision): read unchanged but for the decision, built from the data', () => {
    for (const version of [1, 2]) {
      const { decision: _d, ...undecidedText } = JSON.parse(baselineText) as Record<string, unknown>;
      void _d;
      const migrated = migrateReport({ ...undecidedText, schemaVersion: version }, 'v.json');
      expect(migrated.schemaVersion).toBe(8);
      expect(migrated).toEqual({ ...baseline, decision: undecided(baseline) });
    }
  });

  it('version 2 with a decision of its own: the data decides, not the record it claims', () => {
    const forged = { ...JSON.parse(baselineText), schemaVersion: 2, decision: { causes: [], policy: null } };
    expect(migrateReport(forged, 'v2.json').decision).toEqual(undecided(baseline));
  });

  it('version 4 (no GPU sharing recorded): read unchanged, its runs\' sharing unknown', () => {
    const migrated = migrateReport({ ...JSON.parse(baselineText), schemaVersion: 4 }, 'v4.json');
    expect(migrated).toEqual(baseline);
    expect(migrated).not.toHaveProperty('gpuSharing');
  });

  it('version 5 (no failure under a shared GPU judged again): read unchanged', () => {
    const migrated = migrateReport({ ...JSON.parse(baselineText), schemaVersion: 5 }, 'v5.json');
    expect(migrated).toEqual(baseline);
    expect(migrated.schemaVersion).toBe(8);
  });

  it('version 6 (no share judged by its own time): read unchanged', () => {
    const migrated = migrateReport({ ...JSON.parse(baselineText), schemaVersion: 6 }, 'v6.json');
    expect(migrated).toEqual(baseline);
    expect(migrated.schemaVersion).toBe(8);
  });

  it('version 7 (no step measured from the profiled steps): read unchanged', () => {
    const migrated = migrateReport({ ...JSON.parse(baselineText), schemaVersion: 7 }, 'v7.json');
    expect(migrated).toEqual(baseline);
    expect(migrated.schemaVersion).toBe(8);
  });

  it('every version below the current one has a migration step', () => {
    for (let version = 0; version < REPORT_SCHEMA_VERSION; version++) expect(typeof MIGRATIONS[version]).toBe('function');
  });

  it('version 0 with a broken field is refused after migration, saying it was migrated', () => {
    const broken = { ...asVersion0(baseline), totalKernelTimeNs: -5 };
    expect(() => migrateReport(broken, 'v0.json')).toThrow('v0.json: expected a profile-gate report.json (schemaVersion 8) (migrated from schemaVersion 0); at totalKernelNs: ');
  });

  it.each([
    [{ ...JSON.parse('{}'), schemaVersion: 9 }, 'x.json: expected schemaVersion ≤ 8; this report was written by a newer profile-gate (schemaVersion 9); upgrade'],
    [{ schemaVersion: 9, tool: { name: 'profile-gate', version: '5.0.0' } }, 'x.json: expected schemaVersion ≤ 8; this report was written by a newer profile-gate (5.0.0); upgrade'],
    [{ schemaVersion: -1 }, 'x.json: expected a profile-gate report.json with a whole-number schemaVersion, got -1'],
    [{ schemaVersion: 1.5 }, 'x.json: expected a profile-gate report.json with a whole-number schemaVersion, got 1.5'],
    [null, 'x.json: expected a profile-gate report.json (a JSON object), got null'],
    ['report', 'x.json: expected a profile-gate report.json (a JSON object), got string'],
  ])('refuses %j in one line', (data, message) => {
    let error: unknown;
    try {
      migrateReport(data, 'x.json');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toBe(message);
  });

  it('loadReport reads a version-0 file through the migration', async () => {
    const path = baselineFile('load-v0.json', JSON.stringify(asVersion0(baseline)));
    expect((await loadReport(path)).totalKernelNs).toBe(baseline.totalKernelNs);
  });
});
