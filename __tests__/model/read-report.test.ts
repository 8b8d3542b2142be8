/**
 * Every reader of an untrusted report.json reads it within the same bounds (model/read-report.ts):
 * report files on disk (CLI report, analyze --baseline, dashboard DIR, mode report) and artifacts
 * (baseline downloads, dashboard --from-artifacts, mode report's legs). The artifact: a small
 * zip of reports whose comparison.baselineSamples hold millions of zeros.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_ARTIFACT_LIMITS } from '../../src/github/limits.js';
import { reportsInZip } from '../../src/github/report-artifacts.js';
import { loadReport } from '../../src/io/reports.js';
import { parseReportText, REPORT_JSON_BOUNDS } from '../../src/model/read-report.js';
import { serializeReport } from '../../src/report/json.js';
import { deflatedZip } from '../helpers/fake-github-zip.js';
import { makeReport } from '../report/report-factory.js';

/** A valid report's text with `count` zeros spliced in as comparison.baselineSamples.decode_tok_s. */
function withZeros(count: number): string {
  const text = serializeReport({ ...makeReport({ kernels: 5 }), comparison: null });
  const zeros = `[${'0,'.repeat(count - 1)}0]`;
  return text.replace(/"comparison": null/, `"comparison": {"baselineSamples": {"decode_tok_s": ${zeros}}}`);
}

describe('untrusted report.json, read within bounds', () => {
  it('reads a real report whole', () => {
    const report = makeReport({ kernels: 5000 });
    expect(parseReportText(serializeReport(report), 'r.json').kernels).toHaveLength(5000);
  });

  it('refuses a report file with millions of samples at the bound, naming the field', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pg-bounded-'));
    writeFileSync(join(dir, 'report.json'), withZeros(3_000_000));
    await expect(loadReport(join(dir, 'report.json'))).rejects.toThrow(
      `comparison.baselineSamples.decode_tok_s: more than ${REPORT_JSON_BOUNDS.maxItems} items; expected a profile-gate report.json within its read limits`,
    );
  });

  it('leaves out each report of a small artifact of millions of zeros, one at a time, and reads the good one', () => {
    const zeros = Buffer.from(withZeros(3_000_000));
    const good = Buffer.from(serializeReport(makeReport({ kernels: 3, workload: 'good' })));
    const files: Record<string, Buffer> = { 'good/report.json': good };
    for (let i = 0; i < 6; i += 1) files[`leg-${i}/report.json`] = zeros;
    const zip = deflatedZip(files);
    // 36 MB of reports in a zip of well under 1 MB.
    expect(zip.length).toBeLessThan(1 << 20);
    const entries = [...reportsInZip(zip, 'artifact', DEFAULT_ARTIFACT_LIMITS)];
    expect(entries.filter((e) => 'report' in e).map((e) => e.path)).toEqual(['artifact/good/report.json']);
    const refused = entries.filter((e) => 'error' in e);
    expect(refused).toHaveLength(6);
    for (const entry of refused) expect('error' in entry && entry.error).toMatch(/^comparison\.baselineSamples\.decode_tok_s: more than 200000 items/);
  });
});
