/**
 * Closed sets are types: where code branches on a verdict, a row status, a baseline origin or a
 * notice code, it does so through a Record over the set (a member left out is a type error, checked
 * by `tsc` on the lines marked below), not through a chain of comparisons that a new member slips
 * past. The scans are tried on a deliberate violation first, so they can fail.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Notice } from '../../src/model/capture.js';
import type { MetricName } from '../../src/model/metrics.js';
import { BASELINE_ORIGINS, RowStatusSchema, VerdictSchema, type RowStatus, type Verdict } from '../../src/model/report.js';
import { ACCEPTANCES_READ, COMPARED_NOTHING } from '../../src/model/verdict-meaning.js';
import { ROW_ATTENTION, isAlert, isQuiet } from '../../src/report/row-attention.js';
import { ROOT } from '../helpers/fake-github-runner.js';

const SRC = join(ROOT, 'src');
const CLOSED = 'Verdict|RowStatus|BaselineOrigin|NoticeCode|MetricName';
/** A partial Record over a closed set: a member left out is no longer a type error. */
const PARTIAL_RECORD = new RegExp(`Partial<(?:Readonly<)?Record<(?:${CLOSED})\\b`);
/** Two comparisons of one report's verdict chained: a set written out by hand. */
const VERDICT_CHAIN = /\.verdict\s*[!=]==\s*'[^']+'\s*(?:\|\||&&)\s*[\w.]*\.verdict\s*[!=]==\s*'/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

function violations(text: string): string[] {
  return text.split('\n').filter((line) => !/^\s*(\/\/|\*)/.test(line) && (PARTIAL_RECORD.test(line) || VERDICT_CHAIN.test(line)));
}

describe('closed sets', () => {
  it('the scan finds a partial Record and a hand-written set of verdicts (deliberate violations)', () => {
    expect(violations("const DECIDING: Partial<Record<Verdict, readonly RowStatus[]>> = { fail: ['fail'] };")).toHaveLength(1);
    expect(violations("if (report.verdict === 'insufficient-data' || report.verdict === 'invalid') warn();")).toHaveLength(1);
    expect(violations("if (report.verdict !== 'fail' && report.verdict !== 'invalid') return;")).toHaveLength(1);
    expect(violations('if (COMPARED_NOTHING[report.verdict]) warn();')).toEqual([]);
  });

  it('no file of src/ holds either', () => {
    const found = sourceFiles(SRC).flatMap((path) => violations(readFileSync(path, 'utf8')).map((line) => `${relative(ROOT, path)}: ${line.trim()}`));
    expect(found).toEqual([]);
  });

  it('the Records name every member, and mean what they say', () => {
    expect(Object.keys(ROW_ATTENTION).sort()).toEqual([...RowStatusSchema.options].sort());
    expect(RowStatusSchema.options.filter((status) => isAlert({ status }))).toEqual(['warn', 'fail']);
    expect(RowStatusSchema.options.filter((status) => isQuiet({ status }))).toEqual(['pass', 'info']);
    expect(Object.keys(COMPARED_NOTHING).sort()).toEqual([...VerdictSchema.options].sort());
    expect(VerdictSchema.options.filter((v) => COMPARED_NOTHING[v])).toEqual(['insufficient-data', 'invalid']);
    expect(VerdictSchema.options.filter((v) => ACCEPTANCES_READ[v])).toEqual(['fail', 'invalid']);
    expect(BASELINE_ORIGINS).toEqual(['file', 'artifact', 'a/b']);
  });

  it('a Record without one member, a notice code or a metric name outside its set, are type errors (tsc checks the expect-errors)', () => {
    // @ts-expect-error 'info' is missing: a Record over RowStatus must name every status.
    const attention: Record<RowStatus, string> = { fail: 'alert', warn: 'alert', 'insufficient-data': 'note', improved: 'note', pass: 'quiet' };
    // @ts-expect-error 'accepted' is missing: a Record over Verdict must name every verdict.
    const said: Record<Verdict, boolean> = { 'insufficient-data': true, invalid: true, pass: false, warn: false, fail: false };
    // @ts-expect-error a notice's code is one of the set.
    const notice: Notice = { code: 'compilation-in-capture', severity: 'warning', message: 'model compiled during the profiled run' };
    // @ts-expect-error a metric name the catalog does not hold.
    const metric: MetricName = 'decode_tok';
    expect([Object.keys(attention), Object.keys(said), notice.code, metric]).toEqual([
      ['fail', 'warn', 'insufficient-data', 'improved', 'pass'],
      ['insufficient-data', 'invalid', 'pass', 'warn', 'fail'],
      'compilation-in-capture',
      'decode_tok',
    ]);
  });
});
