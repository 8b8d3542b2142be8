/**
 * A headline hit (a correctness bug on strong evidence, e.g. re-prefill confirmed by growing inputs)
 * leads the findings and is never made secondary to a run-level finding; lowered by thin evidence,
 * it is an ordinary kernel finding again.
 */
import { defineRule } from '../../src/diagnose/rule.js';
import type { FindingId } from '../../src/model/finding-ids.js';
import { runRules } from '../../src/diagnose/run-rules.js';
import { K, profileOf } from '../helpers/profile-builder.js';

const hostBound = defineRule({
  meta: { id: 'host-bound', severity: 'warning', title: 'Host-bound', stage: 'utilization', needs: [], description: 'Stand-in.', defaults: {}, units: {}, explainsRun: true },
  check: () => [{ message: 'idle GPU', evidence: { busyFraction: 0.1 }, advice: 'batch' }],
});
const bug = defineRule({
  meta: { id: 'bug' as FindingId, severity: 'error', title: 'A bug', stage: 'kernels', needs: ['kernel-breakdown'], description: 'Stand-in.', defaults: {}, units: {} },
  check: () => [{ headline: true, message: 'wrong', evidence: { confirmed: true }, advice: 'fix' }],
});
const tuning = defineRule({
  meta: { id: 'tuning' as FindingId, severity: 'warning', title: 'A tuning note', stage: 'kernels', needs: ['kernel-breakdown'], description: 'Stand-in.', defaults: {}, units: {} },
  check: () => [{ message: 'slow', evidence: { share: 0.5 }, advice: 'tune' }],
});

describe('headline findings', () => {
  it('lead, above a run-level finding, and stay primary', () => {
    const findings = runRules(profileOf({ kernels: [[K.prefillGemm, 20, 500]] }), {}, [hostBound, tuning, bug]);
    expect(findings.map((f) => [f.id, f.severity, f.secondary])).toEqual([
      ['bug', 'error', false],
      ['host-bound', 'warning', false],
      ['tuning', 'warning', true],
    ]);
  });

  it('lowered by thin evidence, are kernel findings like any other', () => {
    const findings = runRules(profileOf({ kernels: [[K.prefillGemm, 0.1, 3]] }), {}, [hostBound, tuning, bug]);
    expect(findings.map((f) => [f.id, f.severity, f.secondary])).toEqual([
      ['host-bound', 'warning', false],
      ['bug', 'warning', true],
      ['tuning', 'info', true],
    ]);
  });
});
