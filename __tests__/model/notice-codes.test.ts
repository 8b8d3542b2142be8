/** Notice codes are a closed set: what producers may write, and what older reports read as. */
import { readFileSync } from 'node:fs';
import { CaptureSchema } from '../../src/model/capture.js';
import { migrateReport } from '../../src/model/migrate.js';
import { NOTICE_CODES, knownNoticeCode } from '../../src/model/notice-codes.js';
import { REPORT_SCHEMA_VERSION } from '../../src/model/report.js';

const REAL_REPORT = '__tests__/fixtures/h200-run/graph_capture/report.json';
/** The real report of an H200 run (schemaVersion 1), as written then. */
const realReport = (): Record<string, unknown> => JSON.parse(readFileSync(REAL_REPORT, 'utf8')) as Record<string, unknown>;

describe('notice codes', () => {
  it('a real schema-1 report keeps the codes it was written with', () => {
    const report = migrateReport(realReport(), REAL_REPORT);
    // The file's three notices: one Kineto replay notice and two of the run (grep '"code"' report.json).
    expect(report.notices.map((n) => n.code)).toEqual(['kineto-graph-replays-from-capture', 'run', 'run']);
  });

  it('a code an older version wrote and this one does not know reads as other, its message kept', () => {
    const data = realReport();
    // nsys-several-tables: written before a second kernel table in one nsys output was refused.
    const old = { code: 'nsys-several-tables', severity: 'warning', message: 'a second cuda_gpu_kern_sum table (line 40) is ignored; the first one is used' };
    data['notices'] = [old, ...(data['notices'] as unknown[])];
    const report = migrateReport(data, REAL_REPORT);
    expect(report.notices[0]).toEqual({ ...old, code: 'other' });
    expect(report.notices.slice(1).map((n) => n.code)).toEqual(['kineto-graph-replays-from-capture', 'run', 'run']);
  });

  it('a report of the current version with a code of a later version reads as other, not refused', () => {
    const current = migrateReport(realReport(), REAL_REPORT);
    const later = { ...current, schemaVersion: REPORT_SCHEMA_VERSION, notices: [{ code: 'a-later-code', severity: 'info', message: 'said by a later version' }] };
    expect(migrateReport(JSON.parse(JSON.stringify(later)), 'later.json').notices).toEqual([{ code: 'other', severity: 'info', message: 'said by a later version' }]);
  });

  it('a code is chosen by the code alone: a known code keeps its own, whatever is written', () => {
    expect(knownNoticeCode('max-no-kernel-data')).toBe('max-no-kernel-data');
    expect(knownNoticeCode('No GPU kernel data found')).toBe('other');
    expect(knownNoticeCode(undefined)).toBe('other');
    expect(knownNoticeCode('constructor')).toBe('other');
  });

  it('an importer may not write a code outside the set', () => {
    const capture = { source: { path: 'x.csv', format: 'nsys-stats' }, notices: [{ code: 'made-up', severity: 'info', message: 'm' }] };
    expect(CaptureSchema.safeParse(capture).success).toBe(false);
    expect(CaptureSchema.safeParse({ ...capture, notices: [{ ...capture.notices[0], code: 'kernels-summed' }] }).success).toBe(true);
  });

  it('every code has a one-line meaning', () => {
    for (const [code, meaning] of Object.entries(NOTICE_CODES)) {
      expect([code, /^[^\n]{10,120}$/.test(meaning)]).toEqual([code, true]);
    }
  });
});
