/**
 * The noisy-side rule under a real neighbour (H200 jobs beside a process of matmul bursts,
 * fixtures/h200-neighbour/gate-jobs.json): a side whose runs spread far more than the other's, by
 * about the change, is held back as a neighbour; with the whole interval past the floor, it is held
 * back only while its faster half too varies by about the change. A regression moves the runs the
 * neighbour spared to one level; a side the neighbour slowed throughout has no such level.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compare, type GateInput } from '../../src/compare/gate.js';
import type { ComparisonRow } from '../../src/model/report.js';
import { metricRowNote } from '../../src/report/row-lines.js';

interface RecordedJob {
  name: string;
  look: { index: number; of: number; final: boolean };
  base: number[];
  head: number[];
}
const recorded: RecordedJob[] = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'h200-neighbour', 'gate-jobs.json'), 'utf8')).jobs;
const job = (name: string) => recorded.find((j) => j.name === name)!;

function side(samples: readonly number[], direction: 'higher' | 'lower' = 'higher'): GateInput {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    metrics: [direction === 'higher' ? { name: 'decode_tok_s', unit: 'tok/s', direction, samples, value: sorted[sorted.length >> 1]! } : { name: 'tpot_ms', unit: 'ms', direction, samples, value: sorted[sorted.length >> 1]! }],
    kernels: [],
    families: [],
    findings: [],
    utilization: null,
    environment: { gpuName: 'NVIDIA H200' },
  };
}
const only = (rows: readonly ComparisonRow[]) => rows.find((r) => r.kind === 'metric')!;
/** Per-token milliseconds of a decode at batch 8: 8000 / tok/s, the same runs read lower-is-better. */
const asMs = (tokS: readonly number[]) => tokS.map((v) => 8000 / v);

describe('a regression under a real neighbour is not held back as noise when its interval lies past the floor', () => {
  it('the 50 µs spin per step that was held back as insufficient-data fails: its interval lies wholly past the 3% floor and the head\'s faster half sits at one level', () => {
    // From the data: the head's runs vary ±3.7% (robust, all 15) against ±0.5% of the base's, but
    // its faster 8 runs lie within ±1.0% (sd) at 6.8% below the base's faster 8: one level.
    const slow3 = job('nb_slow_3');
    const { verdict, comparison } = compare(side(slow3.head), side(slow3.base), { look: slow3.look });
    const decode = only(comparison!.rows);
    expect(decode.ci![1]).toBeLessThan(-0.03);
    expect(decode.status).toBe('fail');
    expect(metricRowNote(decode) ?? '').not.toMatch(/a neighbour slows runs/);
    expect(verdict).toBe('fail');
  });

  it('read as per-token milliseconds (lower is better) it fails alike', () => {
    const slow3 = job('nb_slow_3');
    const { verdict, comparison } = compare(side(asMs(slow3.head), 'lower'), side(asMs(slow3.base), 'lower'), { look: slow3.look });
    expect(only(comparison!.rows).ci![0]).toBeGreaterThan(0.03);
    expect(verdict).toBe('fail');
  });

  it('read the other way round (the spin removed: an optimization) it is an improvement, not held back as noise', () => {
    const slow3 = job('nb_slow_3');
    const { verdict, comparison } = compare(side(slow3.base), side(slow3.head), { look: slow3.look });
    const decode = only(comparison!.rows);
    expect(decode.ci![0]).toBeGreaterThan(0.03);
    expect(decode.status).toBe('improved');
    expect(verdict).toBe('pass');
  });

  it('the other two regressions fail and the three A/A jobs pass, as they ran', () => {
    for (const name of ['nb_slow_1', 'nb_slow_2']) expect([name, compare(side(job(name).head), side(job(name).base), { look: job(name).look }).verdict]).toEqual([name, 'fail']);
    for (const name of ['nb_aa_1', 'nb_aa_2', 'nb_aa_3']) expect([name, compare(side(job(name).head), side(job(name).base), { look: job(name).look }).verdict]).toEqual([name, 'pass']);
  });
});

describe('a side the neighbour slowed throughout is still held back', () => {
  // Five runs of each side of the A/A job nb_aa_1 (base runs 1, 2, 7, 8, 12; head runs 3, 7, 9, 11,
  // 14): every head run slowed, 5.5-29% below the base's median, its fastest three spread ±5.7%.
  const a = job('nb_aa_1');
  const base = [0, 1, 6, 7, 11].map((i) => a.base[i]!);
  const head = [2, 6, 8, 10, 13].map((i) => a.head[i]!);

  it('an A/A whose interval lies wholly past the floor is insufficient-data, not a fail: its faster half has no level', () => {
    const { verdict, comparison } = compare(side(head), side(base));
    const decode = only(comparison!.rows);
    expect(decode.ci![1]).toBeLessThan(-0.03);
    expect(decode.status).toBe('insufficient-data');
    expect(decode.insufficient!.why).toBe('noisy-side');
    expect(metricRowNote(decode)).toMatch(/the faster half of the current runs varies ±5\.7% against ±0\.5% of the baseline's: a neighbour slows runs by varying amounts/);
    expect(verdict).not.toBe('fail');
  });

  it('read as per-token milliseconds (lower is better) it is held back alike', () => {
    const { verdict, comparison } = compare(side(asMs(head), 'lower'), side(asMs(base), 'lower'));
    const row = only(comparison!.rows);
    expect(row.ci![0]).toBeGreaterThan(0.03);
    expect(row.insufficient!.why).toBe('noisy-side');
    expect(verdict).not.toBe('fail');
  });

  it('the same head runs moved to one level, as a change of code moves them, fail', () => {
    // The head's three fastest runs set to one level with ±0.1% jitter, 5.5% below; its two slowest as they were.
    const level = head[0]!;
    const leveled = [level, level * 1.001, head[2]!, level * 0.999, head[4]!];
    const { verdict, comparison } = compare(side(leveled), side(base));
    expect(only(comparison!.rows).ci![1]).toBeLessThan(-0.03);
    expect(verdict).toBe('fail');
  });
});
