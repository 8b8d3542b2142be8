/** Reports written before ranks, excluded gaps and the active span existed still read, with defaults. */
import { migrateReport } from '../../src/model/migrate.js';

const oldTimeline = {
  spanNs: 1_000_000,
  busyNs: 400_000,
  devices: 1,
  idleGaps: { count: 3, totalNs: 600_000, longestNs: 500_000 },
  kernelLaunches: 40,
  graphLaunches: 0,
  graphKernels: 0,
  steps: [],
  busyByDecile: [],
};
const oldReport = (timeline: unknown) => ({
  // Written before the decision was recorded (schema 3).
  schemaVersion: 2,
  tool: { name: 'profile-gate', version: '0.1.0' },
  generatedAt: '2026-11-30T00:00:00.000Z',
  environment: {},
  sources: [],
  totalKernelNs: 400_000,
  kernels: [],
  families: [],
  metrics: [],
  utilization: null,
  timeline,
  gpuTimeUtilPercent: null,
  memops: [],
  apiCalls: [],
  cpuFunctions: [],
  notices: [],
  deepDive: [],
  findings: [],
  verdict: 'pass',
  comparison: null,
});

describe('ranks and excluded gaps in old reports', () => {
  it('a report without them reads with no ranks, no excluded gaps and the active span equal to the span', () => {
    const report = migrateReport(oldReport(oldTimeline), 'old.json');
    expect(report.ranks).toEqual([]);
    expect(report.timeline!.excludedGaps).toEqual([]);
    expect(report.timeline!.activeSpanNs).toBe(1_000_000);
    expect(report.timeline!.communication).toBeUndefined();
  });

  it('excluded gaps without an active span give it as the span less the gaps', () => {
    const report = migrateReport(oldReport({ ...oldTimeline, excludedGaps: [{ startNs: 10, durNs: 500_000, reason: 'set-up' }] }), 'old.json');
    expect(report.timeline!.activeSpanNs).toBe(500_000);
  });

  it('an unknown gap reason is refused, naming where', () => {
    expect(() => migrateReport(oldReport({ ...oldTimeline, excludedGaps: [{ startNs: 0, durNs: 5, reason: 'lunch' }] }), 'bad.json')).toThrow(/bad\.json.*timeline\.excludedGaps\.0\.reason/);
  });
});
