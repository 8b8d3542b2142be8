import type { BaselineOrigin } from '../../src/model/report.js';
import { estimateBetweenJobNoise, widenedFloor } from '../../src/compare/between-jobs.js';
import { compare, type GateInput } from '../../src/compare/gate.js';
import { accountOf } from '../helpers/gate-lines.js';
import { decodeSide } from '../helpers/decode-side.js';

const report = (decode: number) => ({ metrics: [{ name: 'decode_tok_s', value: decode }] });

function side(tokS: readonly number[], origin?: BaselineOrigin): GateInput {
  return decodeSide(tokS, origin ? { origin: { origin } } : {});
}

describe('noise between jobs', () => {
  // Ten default-branch jobs of one workload: medians within a few percent, as on different runners.
  const history = [358, 352, 361, 349, 357, 363, 355, 350, 359, 354].map(report);

  it('is the robust sd of the per-job medians, and widens the floor to 3.3 times it', () => {
    const [decode] = estimateBetweenJobNoise(history, ['decode_tok_s']);
    // Logs' MAD: the median 356 ± ~4 → 1.4826 × MAD / 356 ≈ 1.25%.
    expect(decode!.reports).toBe(10);
    expect(decode!.spread).toBeGreaterThan(0.010);
    expect(decode!.spread).toBeLessThan(0.016);
    expect(widenedFloor(0.03, decode!.spread)).toBeCloseTo(2.33 * Math.SQRT2 * decode!.spread, 12);
    expect(widenedFloor(0.03, 0.005)).toBe(0.03);
    expect(estimateBetweenJobNoise(history.slice(0, 4), ['decode_tok_s'])).toEqual([]);
  });

  it('a 3.5% drop against an artifact fails on floors alone, but not with a noisy history; an A/B ignores the history', () => {
    const base = [358.2, 357.9, 358.4, 358.0, 358.1];
    const cur = base.map((v) => v * 0.965);
    expect(compare(side(cur), side(base, 'artifact')).verdict).toBe('fail');
    const between = compare(side(cur), side(base, 'artifact'), {}, { history });
    expect(between.verdict).toBe('pass');
    expect(between.comparison!.betweenJobs!.metrics[0]!.floor).toBeGreaterThan(0.035);
    expect(accountOf(between).join('\n')).toMatch(/a comparison between jobs: the last 10 reports of the default branch vary decode_tok_s ±1\.\d% \(floor 4\.\d%\) between jobs/);
    const sameJob = compare(side(cur), side(base, 'a/b'), {}, { history });
    expect(sameJob.verdict).toBe('fail');
    expect(sameJob.comparison!.betweenJobs).toBeUndefined();
  });
});
