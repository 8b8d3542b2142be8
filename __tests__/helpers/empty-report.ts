/** A schema-valid report with nothing in it, for tests that set only what they are about. */
import type { z } from 'zod';
import { REPORT_SCHEMA_VERSION, ReportSchema, type Report } from '../../src/model/report.js';
import { decisionFromRows } from '../../src/model/decision.js';

/**
 * Overrides as the schema takes them (its defaults applied), so a test may leave defaulted fields out.
 * Without a decision, the report gets the one a report migrated from before it was recorded gets:
 * its rows' statuses (src/model/decision.ts).
 */
export function emptyReport(overrides: Partial<z.input<typeof ReportSchema>> = {}): Report {
  const report = ReportSchema.omit({ decision: true }).parse({
    schemaVersion: REPORT_SCHEMA_VERSION,
    tool: { name: 'profile-gate', version: '0.1.0' },
    generatedAt: '2026-11-30T00:00:00.000Z',
    run: {},
    environment: {},
    sources: [],
    totalKernelNs: 0,
    kernels: [],
    families: [],
    metrics: [],
    utilization: null,
    timeline: null,
    gpuTimeUtilPercent: null,
    memops: [],
    apiCalls: [],
    cpuFunctions: [],
    notices: [],
    deepDive: [],
    findings: [],
    verdict: 'pass',
    comparison: null,
    ...overrides,
  });
  return ReportSchema.parse({ ...report, decision: overrides.decision ?? decisionFromRows(report) });
}
