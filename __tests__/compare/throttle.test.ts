/**
 * The power cap does not switch the gate off (issue 24, item 12). On the H200 beside a neighbour's
 * matmul bursts, sw_power_cap was active in 25–35 % of samples on both sides and every same-job A/B
 * ended INVALID. In an A/B in one job both sides meet the same conditions: compared, clocks
 * reported. Against a stored baseline: compared when the throttled shares and clocks agree, invalid
 * when they differ materially or the reason is thermal or a hardware slowdown.
 */
import type { BaselineOrigin } from '../../src/model/report.js';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compare, type GateInput } from '../../src/compare/gate.js';
import { judgeThrottling, MAX_CLOCK_GAP, MAX_THROTTLED_SHARE_GAP } from '../../src/compare/throttle-check.js';
import { ingestFile } from '../../src/ingest/registry.js';
import { summarizeRecordings } from '../../src/pipeline/merge-captures.js';
import { accountOf, linesOf } from '../helpers/gate-lines.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');

type Utilization = GateInput['utilization'];
const capped = (share: number, clock: number): Utilization => ({ throttleReasons: ['sw_power_cap'], throttledFraction: share, meanSmClockMhz: clock, sampleCount: 120 });

function side(tokS: readonly number[], utilization: Utilization, origin?: BaselineOrigin): GateInput {
  const median = (v: readonly number[]) => [...v].sort((a, b) => a - b)[v.length >> 1]!;
  return {
    metrics: [{ name: 'decode_tok_s', unit: 'tok/s', direction: 'higher', samples: tokS, value: median(tokS) }],
    kernels: [],
    families: [],
    findings: [],
    utilization,
    environment: { gpuName: 'NVIDIA H200' },
    ...(origin ? { origin: { origin } } : {}),
  };
}

// Same speed on both sides, and a head 6.8% slower (the slower head of the measured A/B jobs).
const base = [358.2, 357.9, 358.6, 358.1, 358.4];
const same = [358.0, 358.5, 357.8, 358.3, 358.2];
const slower = base.map((v) => v * 0.932);

describe('the power cap in an A/B in one job', () => {
  it('A/A at 25% and 35% capped samples (mean SM clock 1,902 vs 1,980 MHz) is compared and passes, with the clocks reported', () => {
    const gated = compare(side(same, capped(0.35, 1980)), side(base, capped(0.25, 1902), 'a/b'));
    const { verdict } = gated;
    const reasons = linesOf(gated);
    expect(verdict).toBe('pass');
    expect(accountOf(gated)).toContain('power regime: sw_power_cap in 25% of baseline and 35% of current samples; mean SM clock 1,902 MHz (baseline) vs 1,980 MHz (current); an A/B in one job meets it on both sides, so they are compared');
    expect(reasons[0]).toMatch(/^no regression/);
  });

  it('a 6.8% slower head fails instead of ending invalid', () => {
    const gated = compare(side(slower, capped(0.3, 1905)), side(base, capped(0.27, 1902), 'a/b'));
    const { verdict } = gated;
    const reasons = linesOf(gated);
    expect(verdict).toBe('fail');
    expect(reasons[0]).toMatch(/^decode_tok_s regressed \(358\.2 tok\/s → 333\.8 tok\/s, −6\.8%/);
  });

  it('a thermal reason is a fault even in one job', () => {
    const hot: Utilization = { throttleReasons: ['sw_power_cap', 'hw_thermal_slowdown'], throttledFraction: 0.3, meanSmClockMhz: 1700 };
    const gated = compare(side(same, hot), side(base, capped(0.3, 1902), 'a/b'));
    const { verdict } = gated;
    const reasons = linesOf(gated);
    expect(verdict).toBe('invalid');
    expect(reasons).toEqual(['the current run was throttled (hw_thermal_slowdown: thermal or hardware protection); its numbers are not representative: rerun on a sound, cool GPU, or allow it with --allow-throttled (action input allow-throttled)']);
  });
});

describe('the power cap against a stored baseline', () => {
  it('alike on both sides (28% vs 33%, 1,902 vs 1,911 MHz): compared, and the 6.8% slower head fails', () => {
    const gated = compare(side(slower, capped(0.33, 1911)), side(base, capped(0.28, 1902)));
    const { verdict } = gated;
    expect(verdict).toBe('fail');
    expect(accountOf(gated)).toContain('power regime: sw_power_cap in 28% of baseline and 33% of current samples; mean SM clock 1,902 MHz (baseline) vs 1,911 MHz (current); alike on both sides (throttled shares within 20 points, clocks within 1.5%), so they are compared');
  });

  it('capped on one side only, 0% vs 30%: invalid, the shares differ', () => {
    const quiet: Utilization = { throttleReasons: [], throttledFraction: 0, meanSmClockMhz: 1980 };
    const gated = compare(side(same, capped(0.3, 1975)), side(base, quiet));
    const { verdict } = gated;
    const reasons = linesOf(gated);
    expect(verdict).toBe('invalid');
    expect(reasons[0]).toBe(
      'the sides ran under different power conditions (sw_power_cap in 0% of baseline and 30% of current samples; mean SM clock 1,980 MHz (baseline) vs 1,975 MHz (current)): the throttled shares differ by 30 points (more than 20); rerun both under the same load, or allow it with --allow-throttled (action input allow-throttled)',
    );
  });

  it('the same shares at clocks 4% apart (1,902 vs 1,980 MHz): invalid, the clocks differ', () => {
    const gated = compare(side(same, capped(0.3, 1902)), side(base, capped(0.3, 1980)));
    const { verdict } = gated;
    const reasons = linesOf(gated);
    expect(verdict).toBe('invalid');
    expect(reasons[0]).toMatch(/the mean SM clocks differ by 3\.9% \(more than 1\.5%\)/);
  });

  it('a capped side against a baseline without sampling cannot be compared: invalid unless allowed', () => {
    const blocked = compare(side(same, capped(0.3, 1902)), side(base, null));
    expect(blocked.verdict).toBe('invalid');
    expect(linesOf(blocked)[0]).toMatch(/the baseline has no GPU sampling to compare with/);
    const allowed = compare(side(same, capped(0.3, 1902)), side(base, null), { allowThrottled: true });
    expect(allowed.verdict).toBe('pass');
    expect(accountOf(allowed).some((r) => r.endsWith('; allowed by --allow-throttled'))).toBe(true);
  });

  it('judgeThrottling draws its lines at the documented gaps', () => {
    expect(MAX_THROTTLED_SHARE_GAP).toBe(0.2);
    expect(MAX_CLOCK_GAP).toBe(0.015);
    expect(judgeThrottling(capped(0.1, 1900), capped(0.3, 1900), false).problems).toEqual([]);
    expect(judgeThrottling(capped(0.1, 1900), capped(0.31, 1900), false).problems).toHaveLength(1);
    expect(judgeThrottling(capped(0.3, 1900), capped(0.3, 1928), false).problems).toEqual([]);
    expect(judgeThrottling(capped(0.3, 1900), capped(0.3, 1929), false).problems).toHaveLength(1);
    // No hardware reason on either side: nothing to say.
    expect(judgeThrottling({ throttleReasons: ['gpu_idle'] }, { throttleReasons: [] }, false)).toEqual({ problems: [], notes: [] });
  });
});

describe('real H200 GPU samples with sw_power_cap', () => {
  // __tests__/fixtures/h200-run/graph_capture/captures: gpu_snapshot.py around two measured runs of
  // the same CUDA-graph decode on one H200 (h200-run/PROVENANCE.md). Read by hand: measured-1 has
  // 16 samples, measured-2 14, and each has exactly one sample with sw_power_cap (NVML bit 0x4).
  async function utilization(name: string) {
    const capture = await ingestFile(join(fixtures, 'h200-run', 'graph_capture', 'captures', name));
    return summarizeRecordings([capture.utilization]);
  }

  it('two runs of one build, each briefly at the power cap, are compared, not invalid', async () => {
    const first = await utilization('measured-1.gpu.jsonl');
    const second = await utilization('measured-2.gpu.jsonl');
    expect(first!.throttleReasons).toEqual(['sw_power_cap']);
    expect(second!.throttleReasons).toEqual(['sw_power_cap']);
    const gated = compare(side(same, second), side(base, first));
    const { verdict } = gated;
    expect(verdict).toBe('pass');
    expect(accountOf(gated).find((r) => r.startsWith('power regime: sw_power_cap in '))).toMatch(/alike on both sides/);
  });
});
