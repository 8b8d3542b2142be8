/**
 * The evidence model: what a profile holds, its coverage, and when it is thin; rules run only with
 * what they need, and thin evidence lowers a finding one step, so it never makes an error.
 */
import { describeEvidence, evidenceFor, gatherEvidence } from '../../src/diagnose/evidence.js';
import { defineRule } from '../../src/diagnose/rule.js';
import { checkRule } from '../../src/diagnose/run-rules.js';
import { K, profileOf } from '../helpers/profile-builder.js';
import type { FindingId } from '../../src/model/finding-ids.js';

describe('gatherEvidence', () => {
  it('a kernel summary is a full breakdown; its coverage counts launches and kernel time', () => {
    const evidence = gatherEvidence(profileOf({ kernels: [[K.decodeGemm, 40, 4000], [K.sdpa, 2, 328]] }));
    expect(evidence['kernel-breakdown']).toEqual({ kind: 'kernel-breakdown', strength: 'full', coverage: '4,328 launches of 2 kernels, 42.0 ms of kernel time' });
    expect(evidence.timeline).toBeUndefined();
  });

  it('a breakdown under 1 ms of kernel time, or of fewer than 5 launches, is thin', () => {
    expect(gatherEvidence(profileOf({ kernels: [[K.decodeGemm, 0.4, 400]] }))['kernel-breakdown']).toMatchObject({ strength: 'thin', thinBecause: 'under 1.0 ms of kernel time' });
    expect(gatherEvidence(profileOf({ kernels: [[K.decodeGemm, 2200, 4]] }))['kernel-breakdown']).toMatchObject({ strength: 'thin', thinBecause: 'fewer than 5 launches' });
    expect(describeEvidence(gatherEvidence(profileOf({ kernels: [[K.decodeGemm, 2200, 1]] }))['kernel-breakdown']!)).toBe(
      'kernel breakdown (thin: fewer than 5 launches): 1 launch of 1 kernel, 2200.0 ms of kernel time',
    );
  });

  it('Nsight Compute alone is kernel metrics, not a breakdown of the run', () => {
    const ncu = { id: 0, kernel: K.decodeGemm, metrics: [], rules: [] };
    const evidence = gatherEvidence(profileOf({ format: 'ncu-csv', kernels: [[K.decodeGemm, 0.02, 1]], ncu: [ncu] }));
    expect(evidence['kernel-breakdown']).toBeUndefined();
    expect(evidence['kernel-metrics']).toMatchObject({ strength: 'full', coverage: 'Nsight Compute: 1 profiled launch of 1 kernel' });
  });

  it('utilization says which window it covers, and one snapshot is thin', () => {
    const timed = gatherEvidence(profileOf({ util: Array.from({ length: 12 }, () => 90), timedWindows: [[-1, 11]] })).utilization!;
    expect(timed).toMatchObject({ strength: 'full', coverage: "12 samples on 1 device, inside the workload's timed runs" });
    const snapshot = gatherEvidence(profileOf({ util: [3] })).utilization!;
    expect(snapshot).toMatchObject({ strength: 'thin', coverage: '1 sample on 1 device, over each whole recording, idle start and end trimmed' });
  });

  it('a timeline names the gaps left out of it; throughput counts its samples', () => {
    const evidence = gatherEvidence(
      profileOf({
        timeline: { spanNs: 12_900e6, busyNs: 66e6, kernelLaunches: 95, activeSpanNs: 2_900e6, excludedGaps: [{ startNs: 1e9, durNs: 10_000e6, reason: 'set-up' }] },
        metrics: { decode_tok_s: [100, 101] },
      }),
    );
    expect(evidence.timeline!.coverage).toBe('2900.0 ms of per-launch timeline over 1 device, 1 gap left out as not the workload (10000.0 ms)');
    expect(evidence.throughput).toMatchObject({ strength: 'thin', thinBecause: 'fewer than 3 samples' });
  });
});

describe('evidenceFor: a rule runs only with what it needs', () => {
  const evidence = gatherEvidence(profileOf({ util: Array.from({ length: 12 }, () => 50) }));
  it('every need must be met; an array need is any one of its kinds', () => {
    expect(evidenceFor(['kernel-breakdown'], evidence)).toBeNull();
    expect(evidenceFor([['timeline', 'utilization']], evidence)!.map((e) => e.kind)).toEqual(['utilization']);
    expect(evidenceFor([], evidence)).toEqual([]);
  });
});

describe('checkRule: thin evidence never makes an error', () => {
  const alwaysError = defineRule({
    // A rule of the test's own, outside the closed list of finding ids.
    meta: { id: 'always-error' as FindingId, severity: 'error', title: 'x', stage: 'kernels', needs: ['kernel-breakdown'], description: 'x', defaults: {}, units: {} },
    check: () => [{ message: 'm', evidence: { a: 1 }, advice: 'a' }],
  });
  it('full evidence keeps the error; thin evidence makes it a warning and says so in the basis', () => {
    const full = checkRule(alwaysError, profileOf({ kernels: [[K.decodeGemm, 40, 4000]] }), {});
    expect(full.map((h) => h.severity)).toEqual(['error']);
    const thin = checkRule(alwaysError, profileOf({ kernels: [[K.decodeGemm, 0.2, 3]] }), {});
    expect(thin.map((h) => h.severity)).toEqual(['warning']);
    expect(thin[0]!.basis[0]).toMatch(/^kernel breakdown \(thin: /);
  });
  it('without the evidence it needs, the rule does not run at all', () => {
    expect(checkRule(alwaysError, profileOf({ util: [50, 60, 70] }), {})).toEqual([]);
  });
});
