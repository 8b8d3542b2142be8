import { openRegressions, seriesChanges, shareChanges } from '../../src/compare/history.js';

const options = { alpha: 0.01 };
/** 30 nights around `level`, with a small deterministic wobble. */
const nights = (level: (i: number) => number) => Array.from({ length: 30 }, (_, i) => level(i) * (1 + ((i * 7) % 5 - 2) * 0.001));

describe('a nightly history judged in compare', () => {
  it('indexes a change on all points, gaps (nulls) included', () => {
    const values: Array<number | null> = nights((i) => (i >= 20 ? 900 : 1000));
    values[3] = null;
    values[10] = null;
    const [change, ...rest] = seriesChanges(values, { ...options, minRelativeChange: 0.02 });
    expect(rest).toEqual([]);
    expect(change!.index).toBe(20);
    expect(change!.relative).toBeCloseTo(-0.1, 2);
  });

  it('a drop with no recovery is open; one won back is not', () => {
    const dropped = seriesChanges(nights((i) => (i >= 20 ? 900 : 1000)), options);
    expect(openRegressions(dropped, 'higher', 0.02).map((r) => r.index)).toEqual([20]);
    expect(openRegressions(dropped, 'lower', 0.02)).toEqual([]);
    const recovered = seriesChanges(nights((i) => (i >= 10 && i < 20 ? 900 : 1000)), options);
    expect(recovered.map((c) => c.index)).toEqual([10, 20]);
    expect(openRegressions(recovered, 'higher', 0.02)).toEqual([]);
  });

  it('scans only share series that reach 5%', () => {
    const big = nights((i) => (i >= 15 ? 0.3 : 0.2));
    const small = nights((i) => (i >= 15 ? 0.04 : 0.01));
    const found = shareChanges([{ shares: small }, { shares: big }], { ...options, minShareChange: 0.02 });
    expect(found.map((c) => [c.series, c.index])).toEqual([[1, 15]]);
  });
});
