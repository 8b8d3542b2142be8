import { analyzeHistory, openRegressions, seriesChanges, shareChanges } from '../../src/compare/history.js';
import { emptyReport } from '../helpers/empty-report.js';

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

describe('analyzeHistory', () => {
  const report = (i: number) => {
    const level = i < 6 ? 100.123456 : 90.123456;
    const slow = i < 6 ? 0.2 : 0.45;
    return emptyReport({
      metrics: [{ name: 'decode_tok_s', unit: 'tok/s', direction: 'higher', samples: [level - 0.5, level, level + 0.5, level - 0.25, level + 0.25], value: level }],
      kernels: [
        { name: 'gemv_a', family: 'gemv', totalNs: 1, instances: 1, share: 1 - slow - 0.1 },
        { name: 'copy_b', family: 'copy', totalNs: 1, instances: 1, share: slow },
        { name: i < 6 ? 'norm_c' : 'norm_d', family: 'norm', totalNs: 1, instances: 1, share: 0.1 },
      ],
      families: [
        { family: 'gemv', totalNs: 1, share: 1 - slow - 0.1, kernels: 1, instances: 1 },
        { family: 'copy', totalNs: 1, share: slow, kernels: 1, instances: 1 },
        { family: 'norm', totalNs: 1, share: 0.1, kernels: 1, instances: 1 },
      ],
    });
  };
  const reports = Array.from({ length: 12 }, (_, i) => report(i));
  const history = analyzeHistory(reports, { metric: 'decode_tok_s', direction: 'higher', topN: 3, families: 5, minChange: 0.02, minShareChange: 0.02, alpha: 0.01 });

  it('gives each point its median and interval unrounded, and its top kernels', () => {
    expect(history.points[0]).toEqual({ value: 100.123456, ci: [99.623456, 100.623456], n: 5, top: [{ name: 'gemv_a', share: 1 - 0.2 - 0.1 }, { name: 'copy_b', share: 0.2 }, { name: 'norm_c', share: 0.1 }] });
  });

  it('finds the level drop, the family share moves and the kernel changes, and keeps the drop open', () => {
    expect(history.changes.map((c) => c.index)).toEqual([6]);
    expect(history.openRegressions.map((r) => [r.index, r.before, r.latest])).toEqual([[6, 100.123456, 90.123456]]);
    expect(history.families.slice(0, 2)).toEqual(['gemv', 'copy']);
    expect(history.familyChanges.map((c) => [history.families[c.family], c.index]).sort()).toEqual([['copy', 6], ['gemv', 6]]);
    expect(history.kernelEvents.map((e) => [e.index, e.kernel, e.kind])).toEqual([
      [6, 'norm_d', 'entered'],
      [6, 'norm_c', 'left'],
      [6, 'gemv_a', 'down'],
      [6, 'copy_b', 'up'],
    ]);
  });
});
