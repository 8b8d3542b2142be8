/**
 * Time per decode step: the real H200 demo pair (fused attention → matmul + softmax) read from the
 * raw files here, independently of the importers, and a synthetic pair whose head adds a kernel of a
 * known time per step. Then the `kernel-time:` thresholds: parsing, failing, and "not compared".
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { compare, type GateInput } from '../../src/compare/gate.js';
import { parseThresholds } from '../../src/compare/gate-options.js';
import { UsageError } from '../../src/errors.js';
import { analyze } from '../../src/pipeline/analyze.js';
import type { Report } from '../../src/model/report.js';
import { analyzedOnce } from '../helpers/shared-analysis.js';
import { linesOf, noteOf } from '../helpers/gate-lines.js';
import { perStepNotes } from '../../src/report/per-step-text.js';

const parseThresholdArgs = (args: readonly string[]) => parseThresholds(args, '--threshold');

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'h200-captures');
const HEALTHY = join(FIXTURES, 'healthy_decode');
const UNFUSED = join(FIXTURES, 'unfused_attention');

interface TraceEvent {
  cat?: string;
  name?: string;
  dur?: number;
}

/** Σ dur (µs) of the trace's kernels and its ProfilerStep ranges, straight from the Chrome trace JSON. */
function traceFacts(path: string): { kernelUs: number; steps: number; kernelUsWhere: (match: (name: string) => boolean) => number } {
  const events = (JSON.parse(gunzipSync(readFileSync(path)).toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
  const kernels = events.filter((e) => e.cat === 'kernel');
  const steps = events.filter((e) => e.cat === 'user_annotation' && e.name?.startsWith('ProfilerStep#')).length;
  const sum = (list: TraceEvent[]) => list.reduce((total, e) => total + (e.dur ?? 0), 0);
  return { kernelUs: sum(kernels), steps, kernelUsWhere: (match) => sum(kernels.filter((e) => match(e.name ?? ''))) };
}

/** The median tok/s and the batch of the workload's timed runs (`{"kind": "run", …}` lines). */
function runFacts(path: string): { tokS: number; batch: number } {
  const runs = readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.includes('"kind": "run"'))
    .map((line) => JSON.parse(line) as { tok_s: number; batch: number });
  const sorted = runs.map((r) => r.tok_s).sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const tokS = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { tokS, batch: runs[0]!.batch };
}

describe('the H200 demo pair, per decode step', () => {
  let report: Report;
  beforeAll(async () => {
    const baseline = await analyzedOnce([join(HEALTHY, 'healthy.trace.json.gz'), join(HEALTHY, 'healthy_timed.stdout.jsonl')]);
    report = await analyze({
      inputs: [join(UNFUSED, 'unfused.trace.json.gz'), join(UNFUSED, 'unfused_timed.stdout.jsonl')],
      baseline: { report: baseline, origin: 'file', reason: 'test' },
    });
  }, 60_000);

  it('counts 8 steps on each side from the profiler steps, with the graph replays and argmax launches agreeing', () => {
    const perStep = report.comparison!.perStep!;
    // PROVENANCE.md of healthy_decode: 8 ProfilerStep#N ranges, 8 cudaGraphLaunch; the same for unfused.
    expect(traceFacts(join(HEALTHY, 'healthy.trace.json.gz')).steps).toBe(8);
    expect(traceFacts(join(UNFUSED, 'unfused.trace.json.gz')).steps).toBe(8);
    for (const side of [perStep.baseline, perStep.current]) {
      expect(side).toMatchObject({ steps: 8, basis: 'profiler-steps', devices: 1, tokensPerStep: 1 });
      expect(side.text).toMatch(/8 CUDA graph replays.*agree/);
    }
    expect(perStep.unit).toBe('step');
  });

  it('the report records its own step count, and a report read back with its profiler steps cut keeps it', () => {
    expect(report.stepCount).toMatchObject({ steps: 8, basis: 'profiler-steps', tokensPerStep: 1 });
    // As boundReport cuts a long timeline: only the first profiler steps stay.
    const cut = { ...report, timeline: { ...report.timeline!, steps: report.timeline!.steps.slice(0, 2) } };
    expect(compare(cut, cut).comparison!.perStep!.baseline.steps).toBe(8);
    const { stepCount: _recorded, ...unrecorded } = cut;
    // Counted afresh without the record, the 2 profiler steps left would decide (the 8 graph replays differ).
    expect(compare(unrecorded, unrecorded).comparison!.perStep!.baseline).toMatchObject({ steps: 2, basis: 'profiler-steps' });
  });

  it('kernel time per step and its change come from the traces: Σdur / 8 on each side', () => {
    const perStep = report.comparison!.perStep!;
    const base = traceFacts(join(HEALTHY, 'healthy.trace.json.gz'));
    const cur = traceFacts(join(UNFUSED, 'unfused.trace.json.gz'));
    // 19,836.786 µs / 8 = 2,479.6 µs per step; 24,064.108 µs / 8 = 3,008.0 µs; change +528.4 µs per step.
    const expectedDeltaNs = ((cur.kernelUs - base.kernelUs) / 8) * 1000;
    expect(expectedDeltaNs / 1000).toBeCloseTo(528.4, 1);
    // The importer keeps whole ns per launch: within 0.1 µs per step of the float sum.
    expect(Math.abs(perStep.kernelDeltaNs! - expectedDeltaNs)).toBeLessThan(100);
    const familySum = perStep.families.reduce((sum, f) => sum + f.deltaNs, 0);
    expect(familySum).toBeCloseTo(perStep.kernelDeltaNs!, 3);
  });

  it('the kernel that grew most is the new direct copy: 256 launches, 2,382.3 µs over 8 steps = +297.8 µs per step', () => {
    const top = report.comparison!.perStep!.kernels[0]!;
    const isCopy = (name: string) => name.startsWith('void at::native::elementwise_kernel') && name.includes('direct_copy_kernel_cuda');
    const copyUs = traceFacts(join(UNFUSED, 'unfused.trace.json.gz')).kernelUsWhere(isCopy);
    expect(copyUs).toBeCloseTo(2382.347, 3);
    expect(isCopy(top.name)).toBe(true);
    expect(top.baselineNs).toBe(0);
    expect(Math.abs(top.deltaNs - (copyUs / 8) * 1000)).toBeLessThan(50);
    expect(top.currentLaunches).toBe(32); // 256 launches / 8 steps
  });

  it('the measured change per step from tok/s and batch 1: 1/378.506 s → 1/313.883 s = +543.9 µs; kernels explain 97 %', () => {
    const perStep = report.comparison!.perStep!;
    const base = runFacts(join(HEALTHY, 'healthy_timed.stdout.jsonl'));
    const cur = runFacts(join(UNFUSED, 'unfused_timed.stdout.jsonl'));
    expect(base).toEqual({ tokS: 378.506, batch: 1 });
    expect(cur).toEqual({ tokS: 313.883, batch: 1 });
    const baseNs = (base.batch / base.tokS) * 1e9; // 2,641,966 ns
    const curNs = (cur.batch / cur.tokS) * 1e9; // 3,185,900 ns
    expect(perStep.measured).toMatchObject({ basis: 'decode_tok_s+batch', per: 'step' });
    expect(perStep.measured!.baselineNs).toBeCloseTo(baseNs, 0);
    expect(perStep.measured!.currentNs).toBeCloseTo(curNs, 0);
    // 528.4 / 543.9 = 0.971
    const base8 = traceFacts(join(HEALTHY, 'healthy.trace.json.gz')).kernelUs / 8;
    const cur8 = traceFacts(join(UNFUSED, 'unfused.trace.json.gz')).kernelUs / 8;
    expect(perStep.explainedShare!).toBeCloseTo(((cur8 - base8) * 1000) / (curNs - baseNs), 3);
    expect(Math.round(perStep.explainedShare! * 100)).toBe(97);
  });
});

/** Σ Total Time (ns) and the argmax row's Instances of an `nsys stats -r cuda_gpu_kern_sum` CSV, read as text. */
function kernSumFacts(path: string): { totalNs: number; argmaxLaunches: number } {
  const rows = readFileSync(path, 'utf8').split('\n').filter((line) => /^\d+(\.\d+)?,\d+,\d+,/.test(line));
  const cells = rows.map((line) => line.split(','));
  const argmax = cells.find((_, i) => rows[i]!.includes('ArgMaxOps'))!;
  return { totalNs: cells.reduce((sum, c) => sum + Number(c[1]), 0), argmaxLaunches: Number(argmax[2]) };
}

describe('the same pair as nsys kernel summaries: no timeline, the argmax launches count the steps', () => {
  it('32 steps each side; 79,939,122 ns → 97,111,705 ns of kernels is +536.7 µs per step against +543.9 µs measured', async () => {
    const baseline = await analyzedOnce([join(HEALTHY, 'healthy_node.kern_sum.csv'), join(HEALTHY, 'healthy_timed.stdout.jsonl')]);
    const report = await analyze({
      inputs: [join(UNFUSED, 'unfused_node.kern_sum.csv'), join(UNFUSED, 'unfused_timed.stdout.jsonl')],
      baseline: { report: baseline, origin: 'file', reason: 'test' },
    });
    const perStep = report.comparison!.perStep!;
    const base = kernSumFacts(join(HEALTHY, 'healthy_node.kern_sum.csv'));
    const cur = kernSumFacts(join(UNFUSED, 'unfused_node.kern_sum.csv'));
    // PROVENANCE.md: ΣTotal 79,939,122 ns and 97,111,705 ns, 32 steps in the capture range each.
    expect(base).toEqual({ totalNs: 79_939_122, argmaxLaunches: 32 });
    expect(cur).toEqual({ totalNs: 97_111_705, argmaxLaunches: 32 });
    expect(perStep.baseline).toMatchObject({ steps: 32, basis: 'once-per-step-kernel' });
    expect(perStep.current).toMatchObject({ steps: 32, basis: 'once-per-step-kernel' });
    // (97,111,705 − 79,939,122) / 32 = 536,643.2 ns per step
    expect(perStep.kernelDeltaNs).toBeCloseTo((cur.totalNs - base.totalNs) / 32, 3);
    // 536,643.2 / (1e9 / 313.883 − 1e9 / 378.506) = 536,643.2 / 543,934.4 = 0.9866
    expect(perStep.explainedShare).toBeCloseTo((cur.totalNs - base.totalNs) / 32 / (1e9 / 313.883 - 1e9 / 378.506), 6);
  }, 60_000);
});

// A synthetic pair: the head runs every kernel of the baseline plus one of 250 µs per step.
const STEPS = 64;
const timeline = (steps: number) => ({ activeSpanNs: 1e9, devices: 1, steps: Array.from({ length: steps }, (_, i) => ({ name: `ProfilerStep#${i}` })), graphLaunches: 0, kernelLaunches: 1000 });
function side(extraUsPerStep: number, tokS: number, options: { steps?: number; batch?: string } = {}): GateInput {
  const steps = options.steps ?? STEPS;
  const gemmNs = 2_000_000 * steps; // 2 ms per step
  const kernels = [
    { name: 'gemv_bf16', family: 'gemm-decode' as const, totalNs: gemmNs, instances: 112 * steps, share: 0 },
    { name: 'argmax_kernel', family: 'sampling' as const, totalNs: 10_000 * steps, instances: steps, share: 0 },
    ...(extraUsPerStep ? [{ name: 'gpu_sleep_spin', family: 'other' as const, totalNs: extraUsPerStep * 1000 * steps, instances: steps, launchedBy: 'aten::linear > spin::sleep', share: 0 }] : []),
  ];
  const total = kernels.reduce((sum, k) => sum + k.totalNs, 0);
  for (const k of kernels) k.share = k.totalNs / total;
  return {
    metrics: [{ name: 'decode_tok_s', unit: 'tok/s', direction: 'higher', samples: [tokS, tokS, tokS, tokS, tokS], value: tokS }],
    kernels,
    families: [],
    findings: [],
    utilization: null,
    timeline: timeline(steps),
    environment: options.batch === undefined ? { batch: '16' } : options.batch ? { batch: options.batch } : {},
  };
}

describe('a synthetic head that adds 250 µs of kernel per step', () => {
  // Batch 16: base 16 / 4000 tok/s = 4.000 ms per step; head 16 / 3750 tok/s = 4.2667 ms: +266.7 µs per step.
  const baseline = side(0, 4000);
  const current = side(250, 3750);

  it('attributes +250 µs per step to the added kernel, and 250 / 266.7 = 93.75 % of the measured change to kernels', () => {
    const perStep = compare(current, baseline).comparison!.perStep!;
    expect(perStep.kernels[0]).toMatchObject({ name: 'gpu_sleep_spin', baselineNs: 0, launchedBy: 'aten::linear > spin::sleep' });
    expect(perStep.kernels[0]!.deltaNs).toBeCloseTo(250_000, 6);
    expect(perStep.kernelDeltaNs).toBeCloseTo(250_000, 6);
    expect(perStep.measured!.deltaNs).toBeCloseTo((16 / 3750 - 16 / 4000) * 1e9, 3);
    expect(perStep.explainedShare).toBeCloseTo(0.9375, 6);
    expect(perStep.families.find((f) => f.family === 'other')).toMatchObject({ baselineNs: 0, currentNs: 250_000 });
  });

  it('windows of different length do not matter: 64 steps against 200', () => {
    const longer = side(250, 3750, { steps: 200 });
    const perStep = compare(longer, baseline).comparison!.perStep!;
    expect(perStep.kernelDeltaNs).toBeCloseTo(250_000, 6);
    expect(perStep.current.steps).toBe(200);
  });

  it('a slowdown kernels do not explain: the head is slower by 1.6 ms per step but kernels add 250 µs (host or idle time)', () => {
    // 16 / 2857.142857 tok/s = 5.6 ms per step: +1.6 ms per step; 0.25 / 1.6 = 15.6 %.
    const slow = side(250, 16 / 0.0056);
    const perStep = compare(slow, baseline).comparison!.perStep!;
    expect(perStep.explainedShare).toBeCloseTo(0.25 / 1.6, 6);
  });

  it('no batch on a side: the measured change is per token and no share is claimed', () => {
    const perStep = compare(side(250, 3750, { batch: '' }), baseline).comparison!.perStep!;
    expect(perStep.measured).toMatchObject({ basis: 'decode_tok_s', per: 'token' });
    expect(perStep.measured!.deltaNs).toBeCloseTo((1 / 3750 - 1 / 4000) * 1e9, 3);
    expect(perStep.explainedShare).toBeNull();
    expect(perStep.notes).toContainEqual({ kind: 'per-token' });
    expect(perStepNotes(perStep).join(' ')).toMatch(/tokens per step \(the batch\) unknown.*; state it with "batch": N in the workload's \{"kind": "run", …\} lines \(references\/formats\.md\)/);
  });

  it('no step evidence on a side: kernels compared per launch, no families, no share', () => {
    const noSteps: GateInput = { ...side(250, 3750), timeline: null, kernels: side(250, 3750).kernels.filter((k) => k.family !== 'sampling') };
    const perStep = compare(noSteps, baseline).comparison!.perStep!;
    expect(perStep.unit).toBe('launch');
    expect(perStep.current.steps).toBeNull();
    expect(perStep.families).toEqual([]);
    expect(perStep.kernelDeltaNs).toBeNull();
    expect(perStep.explainedShare).toBeNull();
    // Per launch: the spin kernel's 250 µs launches against none; the GEMV's 2 ms / 112 launches on both sides.
    expect(perStep.kernels.find((k) => k.name === 'gpu_sleep_spin')).toMatchObject({ baselineNs: 0, currentNs: 250_000 });
    expect(perStep.kernels.find((k) => k.name === 'gemv_bf16')!.deltaNs).toBeCloseTo(0, 6);
    expect(perStep.notes[0]).toEqual({ kind: 'steps-unknown', sides: ['current'] });
    expect(perStepNotes(perStep)[0]).toMatch(/^steps unknown for the current run \(no step evidence/);
    // A report written before the notes were data shows the words it stored.
    expect(perStepNotes({ ...perStep, notes: ['as an older report wrote it'] })).toEqual(['as an older report wrote it']);
  });
});

describe('kernel-time thresholds', () => {
  it('parse +0.1ms, +100us, 100µs and 100000ns alike, in milliseconds', () => {
    for (const value of ['+0.1ms', '+100us', '100µs', '100000ns', '0.1 ms']) {
      expect(parseThresholdArgs([`kernel-time:family:copy=${value}`])).toEqual({ 'kernel-time:family:copy': 0.1 });
    }
    expect(parseThresholdArgs(['kernel-time:kernel:gpu_sleep_spin=+2ms'])).toEqual({ 'kernel-time:kernel:gpu_sleep_spin': 2 });
  });

  it.each([
    ['kernel-time:family:copy=0.1', /--threshold: kernel-time:family:copy=0\.1: '0\.1' is not a positive time per step; expected a number with ms, us or ns/],
    ['kernel-time:family:copy=-1ms', /is not a positive time per step/],
    ['kernel-time:family:copy=0ms', /is not a positive time per step/],
    ['kernel-time:family:copy=fast', /is not a positive time per step/],
    ['kernel-time:family:nope=1ms', /unknown kernel family 'nope'/],
    ['kernel-time:copy=1ms', /expected kernel-time:family:<id> or kernel-time:kernel:<name>, got 'kernel-time:copy'/],
    ['family:copy=1ms', /'1ms' is not a positive number/],
  ])('%s is refused in one line naming the input', (arg, message) => {
    expect(() => parseThresholdArgs([arg])).toThrow(UsageError);
    expect(() => parseThresholdArgs([arg])).toThrow(message);
  });

  it('the action input names itself', () => {
    expect(() => parseThresholds(['kernel-time:family:copy=1'], "input 'thresholds'")).toThrow(/^input 'thresholds': kernel-time:family:copy=1: /);
  });

  const baseline = side(0, 4000);
  const current = side(250, 3750);

  it('growth of time per step at or beyond the threshold fails, with a row and a reason', () => {
    const result = compare(current, baseline, { thresholds: { 'kernel-time:family:other': 0.1, 'kernel-time:kernel:gemv_bf16': 0.05 } });
    const rows = result.comparison!.rows.filter((r) => r.kind === 'kernel-time');
    expect(rows.find((r) => r.metric === 'kernel-time:family:other')).toMatchObject({ status: 'fail', baseline: 0, current: 0.25, delta: 0.25, threshold: 0.1, unit: 'ms/step' });
    expect(rows.find((r) => r.metric === 'kernel-time:kernel:gemv_bf16')).toMatchObject({ status: 'pass', delta: 0 });
    expect(result.verdict).toBe('fail');
    // 16 / 3750 − 16 / 4000 s = +266.7 µs per step measured: the step did not get faster.
    expect(linesOf(result)).toContain('family:other GPU time per step 0 ns → 250 µs (+250 µs), at or beyond the +100 µs fail threshold, in a step that did not get faster (measured +267 µs/step)');
  });

  it('below the threshold set: does not fail; past the default warn level (2 % of the 4 ms step, 80 µs) it warns', () => {
    const result = compare(current, baseline, { thresholds: { 'kernel-time:family:other': 0.3 } });
    expect(result.comparison!.rows.find((r) => r.metric === 'kernel-time:family:other')).toMatchObject({ status: 'warn', threshold: 0.3 });
    const quiet = compare(side(50, 4000), baseline, { thresholds: { 'kernel-time:family:other': 0.3 } });
    expect(quiet.comparison!.rows.find((r) => r.metric === 'kernel-time:family:other')).toMatchObject({ status: 'pass', threshold: 0.3 });
  });

  it('without steps on a side: not compared, insufficient data with the reason, never a silent pass', () => {
    // The same throughput on both sides, so that only the time row can decide the verdict.
    const sameSpeed = side(250, 4000);
    const noSteps: GateInput = { ...sameSpeed, timeline: null, kernels: sameSpeed.kernels.filter((k) => k.family !== 'sampling') };
    const result = compare(noSteps, baseline, { thresholds: { 'kernel-time:family:other': 0.1 } });
    const row = result.comparison!.rows.find((r) => r.kind === 'kernel-time')!;
    expect(row).toMatchObject({ status: 'insufficient-data', baseline: null, current: null, delta: null });
    expect(noteOf(result, row.metric)).toMatch(/^not compared: the current run's steps are unknown \(no step evidence/);
    expect(result.verdict).toBe('insufficient-data');
    expect(linesOf(result).some((r) => r.startsWith('family:other time per step not compared: '))).toBe(true);
  });

  it('without a kernel capture on a side: not compared either', () => {
    const result = compare({ ...current, kernels: [] }, baseline, { thresholds: { 'kernel-time:family:other': 0.1 } });
    expect(result.comparison!.rows.find((r) => r.kind === 'kernel-time')).toMatchObject({ status: 'insufficient-data' });
    expect(noteOf(result, 'kernel-time:family:other')).toBe('not compared: the current run has no kernel capture');
  });
});

const PAIRS = join(import.meta.dirname, '..', 'fixtures', 'h200-pairs');

/*
 * A/B pairs made on the H200 with a cost known in advance (fixtures/h200-pairs/PROVENANCE.md): the head adds a
 * spin kernel of 300 µs inside each decode step, or expands its FP8 weights to bf16 before every matmul.
 * Every expected number below is read from the raw files by traceFacts/runFacts, not from the product.
 */
describe.each([
  { name: 'a 300 µs spin kernel per step', base: 'spin_ab/base', head: 'spin_ab/head_spin300', kernel: /spin_kernel/ },
  { name: 'FP8 weights dequantized every step', base: 'dequant_ab/dq_bf16', head: 'dequant_ab/dq_fp8-dequant', kernel: /^dequantize_fp8_weight_kernel$/ },
])('real H200 A/B: $name', ({ base, head, kernel }) => {
  let report: Report;
  beforeAll(async () => {
    const baseline = await analyzedOnce([join(PAIRS, `${base}.trace.json.gz`), join(PAIRS, `${base}.stdout.jsonl`)]);
    report = await analyze({ inputs: [join(PAIRS, `${head}.trace.json.gz`), join(PAIRS, `${head}.stdout.jsonl`)], baseline: { report: baseline, origin: 'file', reason: 'test' } });
  }, 60_000);

  it('counts the 8 profiled steps of batch 8 on each side', () => {
    const perStep = report.comparison!.perStep!;
    expect(traceFacts(join(PAIRS, `${head}.trace.json.gz`)).steps).toBe(8);
    for (const side of [perStep.baseline, perStep.current]) expect(side).toMatchObject({ steps: 8, tokensPerStep: 8 });
  });

  it('puts the added kernel first, at its own time per step, and explains the measured change from the traces', () => {
    const perStep = report.comparison!.perStep!;
    const b = traceFacts(join(PAIRS, `${base}.trace.json.gz`));
    const h = traceFacts(join(PAIRS, `${head}.trace.json.gz`));
    const addedUs = h.kernelUsWhere((name) => kernel.test(name)) / 8;
    const top = perStep.kernels[0]!;
    expect(top.name).toMatch(kernel);
    expect(Math.abs(top.deltaNs - addedUs * 1000)).toBeLessThan(100);
    const runsBase = runFacts(join(PAIRS, `${base}.stdout.jsonl`));
    const runsHead = runFacts(join(PAIRS, `${head}.stdout.jsonl`));
    const measuredNs = (8 / runsHead.tokS - 8 / runsBase.tokS) * 1e9;
    expect(perStep.measured!.currentNs - perStep.measured!.baselineNs).toBeCloseTo(measuredNs, 0);
    const kernelDeltaNs = ((h.kernelUs - b.kernelUs) / 8) * 1000;
    expect(Math.abs(perStep.kernelDeltaNs! - kernelDeltaNs)).toBeLessThan(100);
    expect(perStep.explainedShare!).toBeCloseTo(kernelDeltaNs / measuredNs, 2);
    // spin: +303.5 of +300.3 µs; dequantize: +2,240.8 of +2,245.8 µs. Kernel time is the whole slowdown.
    expect(perStep.explainedShare!).toBeGreaterThan(0.95);
    expect(perStep.explainedShare!).toBeLessThan(1.05);
  });
});
