/**
 * Names from outside used as keys: a metric, a kernel, a family or a threshold named after an
 * Object.prototype member must be one more name, never a prototype lookup.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import { runReportCommand } from '../../src/cli/report-command.js';
import { serializeReport } from '../../src/report/json.js';
import { compare } from '../../src/compare/gate.js';
import type { Report } from '../../src/model/report.js';
import { makeReport, row } from '../report/report-factory.js';
import { cli } from '../helpers/cli.js';
import { nsPerUnit } from '../../src/ingest/common/text-tables.js';
import { normalizeNcuValue } from '../../src/ingest/formats/ncu/units.js';
import { metricInfo } from '../../src/model/metrics.js';

const PROTO_NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];

function withMetric(report: Report, name: string, samples: number[]): Report {
  return { ...report, metrics: [...report.metrics, { name, unit: 'tok/s', direction: 'higher', samples, value: samples[samples.length >> 1]! }] };
}

describe.each(PROTO_NAMES)('a metric named %s', (name) => {
  let write: ReturnType<typeof jest.spyOn>;
  beforeEach(() => {
    write = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
  });
  afterEach(() => write.mockRestore());

  test('is compared against the baseline like any other metric of its own name', () => {
    const samples = [100, 101, 99, 100, 102, 98, 100, 101];
    const rowOf = (metric: string) => {
      const gate = compare(withMetric(makeReport(), metric, samples.map((s) => s * 0.5)), withMetric(makeReport(), metric, samples), {});
      return { ...gate.comparison!.rows.find((r) => r.metric === metric)!, metric: 'x' };
    };
    // Not in the catalog, so shown and never gated: the row an ordinary custom name gets.
    expect(rowOf(name)).toEqual(rowOf('my_custom_metric'));
    expect(rowOf(name)).toMatchObject({ kind: 'metric', status: 'info' });
  });

  test('in one leg, `report` renders every leg and exits on the verdict, not 3', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pg-proto-'));
    const legs: Array<[string, Report]> = [
      ['profile-gate-a', withMetric(makeReport({ rows: [row({ metric: name })] }), name, [1, 2, 3])],
      ['profile-gate-b', makeReport({ rows: [row()] })],
    ];
    for (const [leg, report] of legs) {
      const folder = join(dir, leg, 'profile-gate');
      mkdirSync(folder, { recursive: true });
      const parsed = JSON.parse(serializeReport(report)) as Report;
      if (parsed.comparison) parsed.comparison.baselineSamples = JSON.parse(`{${JSON.stringify(name)}: [1, 2, 3]}`) as Record<string, number[]>;
      writeFileSync(join(folder, 'report.json'), JSON.stringify(parsed));
    }
    const out = join(dir, 'out');
    expect(await runReportCommand(['--out', out, dir])).toBe(0);
    expect(readFileSync(join(out, 'summary.md'), 'utf8')).toContain('| a |');
  });
});

describe('`analyze --baseline` with prototype names in the baseline', () => {
  const CAPTURES = join(import.meta.dirname, '..', 'fixtures', 'h200-stacks', 'repeat_kv');
  const KERN_SUM = join(CAPTURES, 'repeatkv_node.kern_sum.csv');

  test.each(PROTO_NAMES)('a kernel named %s on both sides, and a baseline metric and user family of that name: compared, exit on the verdict', async (name) => {
    const dir = mkdtempSync(join(tmpdir(), 'pg-proto-cli-'));
    // The heaviest kernel of the real capture renamed (a kernel's name is the capture's to choose).
    const lines = readFileSync(KERN_SUM, 'utf8').split('\n');
    const top = lines.findIndex((line) => line.startsWith('57.5,'));
    lines[top] = `${lines[top]!.slice(0, lines[top]!.indexOf(',"'))},${name}`;
    const inputs = [join(dir, 'kern_sum.csv'), join(CAPTURES, 'repeatkv.stdout.jsonl')];
    writeFileSync(inputs[0]!, lines.join('\n'));
    const first = join(dir, 'first.json');
    expect((await cli(['analyze', ...inputs, '--json', first])).code).toBe(0);
    const report = JSON.parse(readFileSync(first, 'utf8')) as Report;
    report.metrics.push({ name, unit: 'tok/s', direction: 'higher', samples: [1, 2, 3, 4], value: 2.5 });
    expect(report.kernels.map((k) => k.name)).toContain(name);
    report.families.push({ family: name as never, totalNs: 1000, share: 0.001, kernels: 1, instances: 1 });
    const baseline = join(dir, 'baseline.json');
    writeFileSync(baseline, JSON.stringify(report));
    const run = await cli(['analyze', ...inputs, '--baseline', baseline, '--json', join(dir, 'second.json')]);
    expect(run.stderr).toBe('');
    expect([0, 1]).toContain(run.code);
    const second = JSON.parse(readFileSync(join(dir, 'second.json'), 'utf8')) as Report;
    expect(second.comparison?.rows.length).toBeGreaterThan(0);
    expect(second.kernels.find((k) => k.name === name)?.instances).toBe(256);
  });
});

test.each(PROTO_NAMES)('a unit named %s in a capture is an unknown unit, not a member of Object', (name) => {
  expect(nsPerUnit(name)).toBeUndefined();
  expect(normalizeNcuValue(name, '5')).toEqual({ unit: name, value: 5 });
  expect(metricInfo(name)).toEqual({ unit: '', direction: 'higher', label: name });
});
