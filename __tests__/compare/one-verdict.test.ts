/**
 * One verdict for one set of samples (issue 24, item 10). The same 3 vs 3 samples (−24.6%, no
 * overlap) failed through `analyze --baseline` and read "not significant; add samples" inside
 * `run`'s A/B, whose look 1 tests at 80% of alpha, after the job had stopped adding runs. The look
 * at which a job stops is its final look: it tests at what the earlier looks left (all of alpha at
 * the first), so it reads as a single comparison; a row promises added runs only at a look that
 * is not the last.
 */
import { compare, type GateInput } from '../../src/compare/gate.js';
import { alphaAtFinalLook, alphaAtLook, alphaSpent, lookAlpha } from '../../src/compare/sequential.js';
import { linesOf } from '../helpers/gate-lines.js';

function side(tokS: readonly number[]): GateInput {
  const median = (v: readonly number[]) => [...v].sort((a, b) => a - b)[v.length >> 1]!;
  return {
    metrics: [{ name: 'decode_tok_s', unit: 'tok/s', direction: 'higher', samples: tokS, value: median(tokS) }],
    kernels: [],
    families: [],
    findings: [],
    utilization: null,
    environment: { gpuName: 'NVIDIA H200' },
  };
}

// 3 vs 3, every head run below every base run: exact one-sided Mann-Whitney p = 1/C(6,3) = 0.05.
const base = [358.2, 357.9, 358.6];
const head = [270.1, 269.8, 270.4];

describe('the same samples, the same verdict line', () => {
  const single = compare(side(head), side(base));

  it('a single comparison (analyze --baseline) fails at p = 0.05', () => {
    expect(single.verdict).toBe('fail');
    expect(linesOf(single)[0]).toMatch(/^decode_tok_s regressed \(358\.2 tok\/s → 270\.1 tok\/s, −24\.6%; 90% CI .*, p=0\.05, 3 vs 3 samples\), beyond the 3% floor$/);
  });

  it('an A/B that stops at its first look reads exactly the same', () => {
    const stopped = compare(side(head), side(base), { look: { index: 1, of: 3, final: true } });
    expect(stopped.verdict).toBe(single.verdict);
    expect(linesOf(stopped)).toEqual(linesOf(single));
    expect(stopped.comparison!.rows).toEqual(single.comparison!.rows);
    expect(stopped.comparison!.look).toEqual({ index: 1, of: 3, final: true, alpha: 0.05 });
  });

  it('a first look that is not the last tests at its share, and says the A/B adds runs', () => {
    const first = compare(side(head), side(base), { look: { index: 1, of: 3 } });
    expect(first.verdict).toBe('insufficient-data');
    expect(first.comparison!.rows[0]!.insufficient).toMatchObject({ why: 'not-significant', addsRuns: true });
    expect(first.comparison!.undecided).toEqual(['decode_tok_s']);
    expect(linesOf(first)[0]).toMatch(/p=0\.05 at look 1 of 3 \(alpha 0\.04\), 3 vs 3 samples\): beyond the 3% floor but not significant; the A\/B adds runs to decide it$/);
  });

  it('no row of a last look promises runs: not significant there says the job adds none', () => {
    // Look 3 of 3 tests at 0.005: 3 vs 3 cannot pass it.
    const last = compare(side(head), side(base), { look: { index: 3, of: 3, final: true } });
    expect(last.verdict).toBe('insufficient-data');
    // The interval is narrow (±0.1% runs, 24.6% apart): one A/B pair more per side would do, at this noise.
    expect(last.comparison!.rows[0]!.insufficient).toMatchObject({ why: 'not-significant', runsPerSide: 5, addsRuns: false, quieterRunner: false });
    expect(linesOf(last)[0]).toMatch(/at look 3 of 3, the last \(alpha 0\.005\).*not significant; runs vary ±0\.\d+% \(baseline\) and ±0\.\d+% \(current\); this job adds no more runs; about 5 runs per side \(max-runs\) would decide it$/);
    expect(linesOf(last).join('\n')).not.toMatch(/add samples|adds runs to decide/);
    // And a single comparison never says "add samples" either: it says what would decide it.
    const notSignificant = compare(side([270.1, 358.0, 269.8]), side(base));
    expect(linesOf(notSignificant)[0]).toMatch(/not significant; runs vary .*; (about \d+ runs per side would decide it|a quieter runner \(no other process on the GPU\) or pinned clocks would decide it \(.*\))$/);
  });
});

describe('alpha at the last look', () => {
  it('is what the looks before it left: all of it at the first, the planned share at the last planned look', () => {
    expect(alphaAtFinalLook(0.05, 1, 6)).toBe(0.05);
    expect(alphaAtFinalLook(0.05, 2, 6)).toBeCloseTo(0.01, 12);
    expect(alphaAtFinalLook(0.05, 4, 6)).toBeCloseTo(0.05 - alphaSpent(0.05, 3, 6), 12);
    expect(alphaAtFinalLook(0.05, 6, 6)).toBeCloseTo(alphaAtLook(0.05, 6, 6), 12);
    // Spent before plus tested at the last look never exceeds alpha, wherever the job stops.
    for (let k = 1; k <= 6; k += 1) expect(alphaSpent(0.05, k - 1, 6) + alphaAtFinalLook(0.05, k, 6)).toBeCloseTo(0.05, 12);
    expect(lookAlpha(0.05, undefined)).toBe(0.05);
    expect(lookAlpha(0.05, { index: 2, of: 6 })).toBeCloseTo(0.002, 12);
  });
});
