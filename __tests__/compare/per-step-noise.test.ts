/**
 * No change in time per step is decided from the data: the measured step time's row is not
 * significant and kernel time per step moved by no more than that row's interval allows.
 */
import { noStepTimeChange } from '../../src/compare/per-step.js';
import type { ComparisonRow, PerStep } from '../../src/model/report.js';

const side = { steps: 8, basis: 'profiler-steps' as const, text: '8 profiler steps', devices: 1, tokensPerStep: 1 };
function perStep(kernelDeltaNs: number, measuredDeltaNs: number): PerStep {
  // 50 µs per step at the baseline (20,000 tok/s at batch 1).
  return { unit: 'step', baseline: side, current: side, families: [], kernels: [], kernelDeltaNs, measured: { basis: 'decode_tok_s+batch', per: 'step', baselineNs: 50_000, currentNs: 50_000 + measuredDeltaNs, deltaNs: measuredDeltaNs }, explainedShare: kernelDeltaNs / measuredDeltaNs, notes: [] };
}
function decodeRow(status: ComparisonRow['status'], ci: [number, number] | null): ComparisonRow {
  return { metric: 'decode_tok_s', kind: 'metric', unit: 'tok/s', direction: 'higher', baseline: 20_000, current: 20_014, delta: 0.0007, ci, threshold: 0.03, status };
}

describe('noStepTimeChange', () => {
  it('an A/A: tok/s within ±1% (0 inside), kernels +143 ns of a 50 µs step: no change', () => {
    // The interval lets the step time move by up to 1/(1 − 0.01) − 1 = 1.01%, 505 ns; 143 ns is within it.
    expect(noStepTimeChange(perStep(143, -345), [decodeRow('pass', [-0.01, 0.008])])).toBe(true);
  });

  it('kernels that moved beyond what the interval allows are a change to tell, significant or not', () => {
    expect(noStepTimeChange(perStep(600, -345), [decodeRow('pass', [-0.01, 0.008])])).toBe(false);
  });

  it('a significant measured change is a change: an interval clear of 0, or a failing or improved row', () => {
    expect(noStepTimeChange(perStep(143, 2_500), [decodeRow('pass', [-0.06, -0.04])])).toBe(false);
    expect(noStepTimeChange(perStep(143, -345), [decodeRow('fail', [-0.01, 0.008])])).toBe(false);
    expect(noStepTimeChange(perStep(143, -345), [decodeRow('improved', [-0.01, 0.008])])).toBe(false);
  });

  it('unknown: no interval, no measured step time, or time per launch', () => {
    expect(noStepTimeChange(perStep(143, -345), [decodeRow('pass', null)])).toBe(false);
    expect(noStepTimeChange(perStep(143, -345), [])).toBe(false);
    expect(noStepTimeChange({ ...perStep(143, -345), measured: null }, [decodeRow('pass', [-0.01, 0.008])])).toBe(false);
    expect(noStepTimeChange({ ...perStep(143, -345), kernelDeltaNs: null }, [decodeRow('pass', [-0.01, 0.008])])).toBe(false);
  });
});

describe('the comparison records it', () => {
  it('the real H200 demo pair (a 17% slowdown) is a change; the healthy run against itself is none', async () => {
    const { join } = await import('node:path');
    const { analyze } = await import('../../src/pipeline/analyze.js');
    const fixtures = join(import.meta.dirname, '..', 'fixtures', 'h200-captures');
    const healthyInputs = [join(fixtures, 'healthy_decode', 'healthy.trace.json.gz'), join(fixtures, 'healthy_decode', 'healthy_timed.stdout.jsonl')];
    const healthy = await analyze({ inputs: healthyInputs });
    const unfused = await analyze({ inputs: [join(fixtures, 'unfused_attention', 'unfused.trace.json.gz'), join(fixtures, 'unfused_attention', 'unfused_timed.stdout.jsonl')], baseline: { report: healthy, origin: 'file', reason: 'test' } });
    expect(unfused.comparison!.perStep!.unit).toBe('step');
    expect(unfused.comparison!.perStep!.noChange).toBeUndefined();
    const same = await analyze({ inputs: healthyInputs, baseline: { report: healthy, origin: 'file', reason: 'test' } });
    expect(same.comparison!.perStep!.kernelDeltaNs).toBe(0);
    expect(same.comparison!.perStep!.noChange).toBe(true);
  }, 60_000);
});
