/**
 * The same work in far fewer, larger steps (prompts packed into fewer forwards): without tokens per
 * step on both sides, step counts that differ by more than MAX_STEP_COUNT_RATIO refuse the
 * comparison per step, the whole windows are compared where that is sound, and nothing fails on
 * kernels. The pair is made from a real H200 capture (nsys kernel summary of the healthy decode,
 * 32 argmax launches): the head runs the same kernels in 4 steps with 15 % of the kernel time, as
 * 86 forwards became 10 with 85 % less kernel time in a C++ engine. Expected numbers are read from
 * the CSV here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compare } from '../../src/compare/gate.js';
import { MAX_STEP_COUNT_RATIO } from '../../src/compare/per-step.js';
import type { Report } from '../../src/model/report.js';
import { perStepHeadline } from '../../src/report/per-step-text.js';
import { analyzedOnce } from '../helpers/shared-analysis.js';

const CAPTURES = join(import.meta.dirname, '..', 'fixtures', 'h200-captures');
const HEALTHY_CSV = join(CAPTURES, 'healthy_decode', 'healthy_node.kern_sum.csv');
const UNFUSED_CSV = join(CAPTURES, 'unfused_attention', 'unfused_node.kern_sum.csv');
const HEALTHY_RUNS = join(CAPTURES, 'healthy_decode', 'healthy_timed.stdout.jsonl');

/** Σ Total Time (ns) and the argmax row's Instances of an `nsys stats -r cuda_gpu_kern_sum` CSV, read as text. */
function kernSum(path: string): { rows: Array<{ totalNs: number; instances: number }>; totalNs: number; argmax: number } {
  const lines = readFileSync(path, 'utf8').split('\n').filter((line) => /^\d+(\.\d+)?,\d+,\d+,/.test(line));
  const rows = lines.map((line) => ({ totalNs: Number(line.split(',')[1]), instances: Number(line.split(',')[2]) }));
  const argmax = Number(lines.find((line) => line.includes('ArgMaxOps'))!.split(',')[2]);
  return { rows, totalNs: rows.reduce((sum, r) => sum + r.totalNs, 0), argmax };
}

const PACKED_STEPS = 4;
const PACKED_TIME = 0.15;

/** The work of `report` (its `steps`) in `into` steps (4: packed), every kernel at `time` of its time (15 %), launched into/steps as often. */
function packed(report: Report, steps: number, into = PACKED_STEPS, time = PACKED_TIME): Report {
  const scale = (n: number) => Math.max(1, Math.round((n * into) / steps));
  const kernels = report.kernels.map((k) => ({ ...k, totalNs: Math.round(k.totalNs * time), instances: scale(k.instances) }));
  const { stepCount: _recorded, ...rest } = report;
  return {
    ...rest,
    kernels,
    families: report.families.map((f) => ({ ...f, totalNs: Math.round(f.totalNs * time) })),
    totalKernelNs: kernels.reduce((sum, k) => sum + k.totalNs, 0),
  };
}

/** The report without the batch its runs stated: tokens per step unknown. */
function withoutBatch(report: Report): Report {
  const { batch: _batch, ...environment } = report.environment;
  const { stepCount: _recorded, ...rest } = report;
  return { ...rest, environment };
}

const headlineOf = (result: ReturnType<typeof compare>) => perStepHeadline({ comparison: result.comparison } as Report, { kernel: (name) => name, text: (text) => text });

describe('the same work in far fewer steps, no tokens per step stated', () => {
  let base: Report;
  let head: Report;
  const csv = kernSum(HEALTHY_CSV);
  beforeAll(async () => {
    base = await analyzedOnce([HEALTHY_CSV]);
    head = packed(base, csv.argmax);
  }, 60_000);

  it('the capture: 32 argmax launches and 79,939,122 ns of kernels (PROVENANCE.md)', () => {
    expect(csv.argmax).toBe(32);
    expect(csv.totalNs).toBe(79_939_122);
    expect(base.stepCount).toMatchObject({ steps: 32, basis: 'once-per-step-kernel' });
    expect(base.stepCount!.tokensPerStep).toBeUndefined();
  });

  it('is refused as data: 32 steps against 4, beyond the 1.5× a pair of the same work differs by', () => {
    expect(csv.argmax / PACKED_STEPS).toBeGreaterThan(MAX_STEP_COUNT_RATIO);
    const perStep = compare(head, base).comparison!.perStep!;
    expect(perStep.current).toMatchObject({ steps: PACKED_STEPS, basis: 'once-per-step-kernel' });
    const headNs = csv.rows.reduce((sum, r) => sum + Math.round(r.totalNs * PACKED_TIME), 0);
    expect(perStep.refused).toEqual({ cause: 'step-counts-differ', baseline: 32, current: PACKED_STEPS, window: { baselineNs: csv.totalNs, currentNs: headNs } });
    // Per step the head would be 0.15 × 79.9 ms / 4 = 3.00 ms against 2.50 ms: +500 µs, though the work costs 85 % less.
    expect(headNs / PACKED_STEPS - csv.totalNs / 32).toBeGreaterThan(450_000);
  });

  it('compares the whole windows per device instead, and nothing fails', () => {
    const result = compare(head, base, { thresholds: { 'kernel-time:family:gemm-decode': 0.1 } });
    const perStep = result.comparison!.perStep!;
    expect(perStep.unit).toBe('window');
    expect(perStep.families).toEqual([]);
    expect(perStep.kernelDeltaNs).toBeNull();
    // Every kernel: its own total over the window, 15 % of it in the head, 4/32 of its launches.
    const top = perStep.kernels[0]!;
    const row = base.kernels.find((k) => k.name === top.name)!;
    expect(top).toMatchObject({ baselineNs: row.totalNs, currentNs: Math.round(row.totalNs * PACKED_TIME), baselineLaunches: row.instances });
    expect(result.comparison!.rows.filter((r) => r.status === 'fail' || r.status === 'warn')).toEqual([]);
    expect(result.comparison!.rows.find((r) => r.metric === 'kernel-time:family:gemm-decode')).toMatchObject({ status: 'insufficient-data', baseline: null });
    expect(result.verdict).not.toBe('fail');
    expect(result.verdict).not.toBe('warn');
  });

  it('the first line says why, with the whole windows: 79.9 ms → 12.0 ms per device (−85 %)', () => {
    const headline = headlineOf(compare(head, base));
    expect(headline).toMatch(/^time per step not compared: 32 steps in the baseline against 4 in the current run \(8\.0× fewer in the current run\), and the baseline and the current run state no tokens per step, so a step is not the same work/);
    expect(headline).toContain('over the whole window, kernels take 79.94 ms → 11.99 ms per device (−85 %), and nothing fails on them');
  });

  it('with runs measured but no batch stated (per token): refused alike, and nothing fails', async () => {
    const measured = withoutBatch(await analyzedOnce([HEALTHY_CSV, HEALTHY_RUNS]));
    const result = compare(packed(measured, csv.argmax), measured);
    expect(result.comparison!.perStep!.measured).toMatchObject({ per: 'token' });
    expect(result.comparison!.perStep!.refused).toMatchObject({ cause: 'step-counts-differ', baseline: 32, current: PACKED_STEPS });
    expect(result.comparison!.rows.filter((r) => r.status === 'fail' || r.status === 'warn')).toEqual([]);
  }, 60_000);

  it('where the sides state different work (output tokens), the windows are not compared: per launch', () => {
    const tokens = (report: Report, value: number): Report => ({ ...report, metrics: [...report.metrics, { name: 'output_tokens', unit: 'tokens', direction: 'higher', samples: [value], value }] });
    const result = compare(tokens(head, 64), tokens(base, 256));
    const perStep = result.comparison!.perStep!;
    expect(perStep.refused).toEqual({ cause: 'step-counts-differ', baseline: 32, current: PACKED_STEPS });
    expect(perStep.unit).toBe('launch');
    expect(headlineOf(result)).toMatch(/; kernels compared per launch, and nothing fails on them; state "batch": N/);
    expect(result.comparison!.rows.filter((r) => r.status === 'fail' || r.status === 'warn')).toEqual([]);
  });

  it('a count within 1.5× of the other is compared per step (a window of another length)', () => {
    // Three quarters of the window: 24 steps of the same kernels at 0.75 of the time, the same time per step.
    const shorter = packed(base, csv.argmax, 24, 0.75);
    const result = compare(shorter, base);
    const perStep = result.comparison!.perStep!;
    expect(perStep.current.steps).toBe(24);
    expect(perStep.refused).toBeUndefined();
    expect(perStep.unit).toBe('step');
    expect(Math.abs(perStep.kernelDeltaNs!)).toBeLessThan(1_000);
    expect(result.comparison!.rows.filter((r) => r.status === 'fail' || r.status === 'warn')).toEqual([]);
  });

  it('two prompts packed (half the steps, less work): refused, not compared per step', () => {
    // 16 steps at 0.6 of the time: per step 0.6 × 79.9 ms / 16 = 3.0 ms against 2.5 ms, a false slowdown.
    const two = packed(base, csv.argmax, 16, 0.6);
    const result = compare(two, base);
    expect(32 / 16).toBeGreaterThan(MAX_STEP_COUNT_RATIO);
    expect(result.comparison!.perStep!.refused).toMatchObject({ cause: 'step-counts-differ', baseline: 32, current: 16 });
    expect(result.comparison!.rows.filter((r) => r.status === 'fail' || r.status === 'warn')).toEqual([]);
  });
});

describe('when both sides state tokens per step', () => {
  let base: Report;
  beforeAll(async () => {
    base = await analyzedOnce([HEALTHY_CSV, HEALTHY_RUNS]);
  }, 60_000);

  it('the same tokens per step: the packed head is compared per step, and its longer step fails', () => {
    const head = packed(base, 32);
    const result = compare(head, base);
    const perStep = result.comparison!.perStep!;
    expect(perStep.baseline.tokensPerStep).toBe(1);
    expect(perStep.current.tokensPerStep).toBe(1);
    expect(perStep.refused).toBeUndefined();
    expect(perStep.unit).toBe('step');
    expect(result.verdict).toBe('fail');
  });

  it('different tokens per step: refused on those (tokens-per-step), not on the counts', () => {
    const head = { ...packed(base, 32), environment: { ...base.environment, batch: '8' } };
    const result = compare(head, base, { allowEnvironmentMismatch: ['batch'] });
    expect(result.comparison!.perStep!.refused).toEqual({ cause: 'tokens-per-step', baseline: 1, current: 8 });
    expect(result.comparison!.rows.filter((r) => r.status === 'fail' || r.status === 'warn')).toEqual([]);
  });
});

describe('an ordinary regression, no tokens per step stated', () => {
  it('the demo pair forward as nsys kernel summaries (32 steps each): compared per step, and it fails', async () => {
    const base = await analyzedOnce([HEALTHY_CSV]);
    const head = await analyzedOnce([UNFUSED_CSV]);
    const result = compare(head, base);
    const perStep = result.comparison!.perStep!;
    expect(perStep).toMatchObject({ unit: 'step', baseline: { steps: 32 }, current: { steps: 32 } });
    expect(perStep.refused).toBeUndefined();
    // (97,111,705 − 79,939,122) / 32 = +536.6 µs of kernels per step.
    expect(perStep.kernelDeltaNs).toBeCloseTo((kernSum(UNFUSED_CSV).totalNs - kernSum(HEALTHY_CSV).totalNs) / 32, 3);
    expect(result.verdict).toBe('fail');
  }, 60_000);
});
