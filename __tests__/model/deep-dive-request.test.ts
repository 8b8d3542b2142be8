/**
 * report.json stays readable both ways with the structured deep-dive request: a report written
 * before it (findings with a command only) still reads, and the request survives a round trip.
 */
import { deepDiveRequest } from '../../src/diagnose/deep-dive-request.js';
import { migrateReport } from '../../src/model/migrate.js';
import { emptyReport } from '../helpers/empty-report.js';

const finding = {
  id: 'dominant-kernel',
  severity: 'info' as const,
  title: 'One kernel dominates GPU time',
  message: 'One gemv kernel takes 50.0% of GPU kernel time.',
  evidence: { share: 0.5 },
  advice: 'Profile it.',
  docs: 'https://example.invalid/dominant-kernel.md',
  secondary: false,
  kernel: 'gemv_split_k_bfloat16_bfloat16_bfloat16_256_f519d2c2',
};

it('reads a report whose findings have a command and no request', () => {
  const old = JSON.parse(JSON.stringify(emptyReport({ findings: [{ ...finding, command: "ncu --clock-control none --kernel-name regex:'gemv_split_k' <workload command>" }] })));
  const report = migrateReport(old, 'report.json');
  expect(report.findings[0]!.command).toMatch(/^ncu /);
  expect(report.findings[0]!.deepDive).toBeUndefined();
});

it('keeps the request through report.json, and refuses a malformed one', () => {
  const request = deepDiveRequest(finding.kernel, 672);
  const written = JSON.parse(JSON.stringify(emptyReport({ findings: [{ ...finding, deepDive: request }] })));
  expect(migrateReport(written, 'report.json').findings[0]!.deepDive).toEqual(request);
  written.findings[0].deepDive.launchSkip = -1;
  expect(() => migrateReport(written, 'report.json')).toThrow(/report\.json/);
});
