/**
 * Kernels judged in time per step, not in share: a faster change never fails, a slower one always
 * does. The bundled demo pair both ways, the H200 regression pairs of known cost, a property over
 * scaled kernels, and windows that do not hold the same kind of step (refused, nothing fails on them).
 * Expected readings come from the raw files (Σ dur of the traces, the workload's run lines).
 */
import { perStepNotes } from '../../src/report/per-step-text.js';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { compare, type GateInput, type GateKernel } from '../../src/compare/gate.js';
import { analyze } from '../../src/pipeline/analyze.js';
import { expandInputs } from '../../src/io/input-paths.js';
import type { Report } from '../../src/model/report.js';
import { perStepHeadline } from '../../src/report/per-step-text.js';
import { renderTerminal } from '../../src/report/terminal.js';
import { renderSummary } from '../../src/report/markdown/summary.js';
import { emptyReport } from '../helpers/empty-report.js';
import { accountOf, linesOf, noteOf } from '../helpers/gate-lines.js';

const ROOT = join(import.meta.dirname, '..', '..');
const SAMPLES = join(ROOT, 'samples');
const PAIRS = join(import.meta.dirname, '..', 'fixtures', 'h200-pairs');
const HEALTHY = join(import.meta.dirname, '..', 'fixtures', 'h200-captures', 'healthy_decode');
const UNFUSED = join(import.meta.dirname, '..', 'fixtures', 'h200-captures', 'unfused_attention');

/** The median tok/s of the workload's timed runs (`{"kind": "run", …}` lines). */
function medianTokS(path: string): number {
  const values = readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.includes('"kind": "run"'))
    .map((line) => (JSON.parse(line) as { tok_s: number }).tok_s)
    .sort((a, b) => a - b);
  const mid = Math.floor(values.length / 2);
  return values.length % 2 ? values[mid]! : (values[mid - 1]! + values[mid]!) / 2;
}

/** Σ dur (µs) of a Chrome trace's kernels whose name matches. */
function kernelUs(path: string, match: (name: string) => boolean): number {
  const events = (JSON.parse(gunzipSync(readFileSync(path)).toString('utf8')) as { traceEvents: { cat?: string; name?: string; dur?: number }[] }).traceEvents;
  return events.filter((e) => e.cat === 'kernel' && match(e.name ?? '')).reduce((sum, e) => sum + (e.dur ?? 0), 0);
}

const timeRows = (report: Report) => report.comparison!.rows.filter((r) => r.kind === 'kernel-time');

describe('the bundled pair', () => {
  let healthy: Report;
  let unfused: Report;
  let forward: Report;
  let reversed: Report;
  beforeAll(async () => {
    healthy = await analyze({ inputs: await expandInputs([join(SAMPLES, 'baseline')]) });
    unfused = await analyze({ inputs: await expandInputs([join(SAMPLES, 'current')]) });
    forward = await analyze({ inputs: await expandInputs([join(SAMPLES, 'current')]), baseline: { report: healthy, origin: 'file', reason: 'test' } });
    reversed = await analyze({ inputs: await expandInputs([join(SAMPLES, 'baseline')]), baseline: { report: unfused, origin: 'file', reason: 'test' } });
  }, 120_000);

  it('forward (fused → matmul + softmax) still fails, first on the measured decode rate', () => {
    const base = medianTokS(join(SAMPLES, 'baseline', 'healthy_timed.stdout.jsonl'));
    const head = medianTokS(join(SAMPLES, 'current', 'unfused_timed.stdout.jsonl'));
    expect(forward.verdict).toBe('fail');
    expect(linesOf(forward)[0]).toMatch(new RegExp(`^decode_tok_s regressed \\(${base.toFixed(1)} tok/s → ${head.toFixed(1)} tok/s, −17\\.1%`));
    // The new direct copy: 2,382.3 µs over 8 steps = +297.8 µs per step, far past 3 % of the 2.64 ms step.
    const copy = timeRows(forward).find((r) => r.subject?.type === 'kernel' && r.subject.id.includes('direct_copy_kernel_cuda'))!;
    const copyUs = kernelUs(join(SAMPLES, 'current', 'unfused.trace.json.gz'), (name) => name === copy.subject!.id) - kernelUs(join(SAMPLES, 'baseline', 'healthy.trace.json.gz'), (name) => name === copy.subject!.id);
    expect(copyUs / 8).toBeCloseTo(297.8, 1);
    expect(copy.status).toBe('fail');
    expect(copy.delta!).toBeCloseTo(copyUs / 8 / 1000, 3);
    expect(copy.threshold!).toBeCloseTo((0.03 * 1e3) / base, 4);
  });

  it('reversed (the fix of that regression) is a clean pass: improved rows, no warning, the grown kernels a shift', () => {
    expect(reversed.verdict).toBe('pass');
    const rows = reversed.comparison!.rows;
    expect(rows.filter((r) => r.status === 'warn' || r.status === 'fail' || r.status === 'insufficient-data')).toEqual([]);
    expect(rows.find((r) => r.metric === 'decode_tok_s')!.status).toBe('improved');
    expect(rows.find((r) => r.metric === 'finding:unfused-attention')!.status).toBe('improved');
    expect(rows.find((r) => r.metric === 'kernel-time:family:copy')!.status).toBe('improved');
    // Fused attention goes 0 → 109 µs per step of cuDNN SDPA in a step 544 µs faster: context, not a warning.
    const fused = rows.find((r) => r.metric === 'kernel-time:family:attention-fused')!;
    expect(fused).toMatchObject({ status: 'info', baseline: 0 });
    expect(noteOf(reversed, fused.metric)).toMatch(/a shift: it grew in a step that got faster \(measured −544 µs\/step\)/);
    // The shares stay as context: the fused attention's share grew 5.6 pp, no longer a warning.
    expect(rows.find((r) => r.metric === 'family:attention-fused')).toMatchObject({ kind: 'family-share', status: 'info', reading: { kind: 'share', context: 'time' } });
    expect(linesOf(reversed)).toHaveLength(1);
    expect(reversed.comparison!.perStep!.measured!.deltaNs).toBeLessThan(0);
    expect(linesOf(reversed)[0]).toMatch(/^no regression: 1 gated metric improved, no kernel time per step grew past its threshold in a step that did not get faster/);
  });

  it('reversed: the shift is said as context in the terminal and the summary, under the rows', () => {
    const terminal = renderTerminal(reversed, { color: false });
    // 1,109 µs of fused attention over 8 steps: +139 µs per step, in a step 544 µs faster.
    expect(terminal).toMatch(/\n {2}context: kernel-time:family:attention-fused \+139 µs\/step, a shift: it grew in a step that got faster \(measured −544 µs\/step\), so it took over work; context, not a regression\n/);
    expect(renderSummary(reversed)).toMatch(/How the runs were compared:\n(?:- .*\n)*- family:attention\\-fused \\\+139 µs\/step, a shift: it grew in a step that got faster/);
  });
});

describe('a share threshold set by the user', () => {
  it('still gates its share row with steps on both sides, even in a faster run (a share row, compositional)', async () => {
    const unfused = await analyze({ inputs: await expandInputs([join(SAMPLES, 'current')]) });
    const report = await analyze({ inputs: await expandInputs([join(SAMPLES, 'baseline')]), baseline: { report: unfused, origin: 'file', reason: 'test' }, gate: { thresholds: { 'family:attention-fused': 5 } } });
    // Fused attention 0 → 5.6 % of GPU time: past the 5 pp set, so the share row fails though the step is 544 µs faster.
    expect(report.comparison!.rows.find((r) => r.metric === 'family:attention-fused')).toMatchObject({ kind: 'family-share', status: 'fail' });
    expect(report.comparison!.rows.find((r) => r.metric === 'kernel-time:family:attention-fused')!.status).toBe('info');
    expect(report.verdict).toBe('fail');
  }, 60_000);
});

/*
 * Intended optimizations on the H200, each pair captured the same way on both sides
 * (the PROVENANCE.md of each fixtures/h200-captures folder): the gate passes them, with improved rows and no warning.
 */
const GRAPH_OFF = join(import.meta.dirname, '..', 'fixtures', 'h200-captures', 'healthy_decode_graph_off');
describe.each([
  { name: 'CUDA graphs on (PyTorch profiler)', base: [join(GRAPH_OFF, 'healthy_graphoff.trace.json.gz'), join(GRAPH_OFF, 'healthy_graphoff_timed.stdout.jsonl')], head: [join(HEALTHY, 'healthy.trace.json.gz'), join(HEALTHY, 'healthy_timed.stdout.jsonl')], baseRuns: join(GRAPH_OFF, 'healthy_graphoff_timed.stdout.jsonl'), explained: 'unfused-norm-rope' },
  { name: 'CUDA graphs on (nsys, node-level)', base: [join(GRAPH_OFF, 'healthy_graphoff_node.kern_sum.csv'), join(GRAPH_OFF, 'healthy_graphoff_timed.stdout.jsonl')], head: [join(HEALTHY, 'healthy_node.kern_sum.csv'), join(HEALTHY, 'healthy_timed.stdout.jsonl')], baseRuns: join(GRAPH_OFF, 'healthy_graphoff_timed.stdout.jsonl') },
  { name: 'SDPA in place of matmul + softmax (nsys, node-level)', base: [join(UNFUSED, 'unfused_node.kern_sum.csv'), join(UNFUSED, 'unfused_timed.stdout.jsonl')], head: [join(HEALTHY, 'healthy_node.kern_sum.csv'), join(HEALTHY, 'healthy_timed.stdout.jsonl')], baseRuns: join(UNFUSED, 'unfused_timed.stdout.jsonl') },
])('an intended optimization on the H200: $name', ({ base, head, baseRuns, explained }: { base: string[]; head: string[]; baseRuns: string; explained?: string }) => {
  let report: Report;
  beforeAll(async () => {
    const baseline = await analyze({ inputs: base });
    report = await analyze({ inputs: head, baseline: { report: baseline, origin: 'file', reason: 'test' } });
  }, 60_000);

  it('passes: decode faster, improved rows, no warning, the windows compared per step', () => {
    const headTokS = medianTokS(join(HEALTHY, 'healthy_timed.stdout.jsonl'));
    expect(headTokS).toBeGreaterThan(medianTokS(baseRuns) * 1.03);
    expect(report.verdict).toBe('pass');
    const rows = report.comparison!.rows;
    expect(rows.filter((r) => r.status === 'warn' || r.status === 'fail' || r.status === 'insufficient-data')).toEqual([]);
    expect(rows.find((r) => r.metric === 'decode_tok_s')!.status).toBe('improved');
    expect(report.comparison!.perStep).toMatchObject({ unit: 'step' });
    expect(report.comparison!.perStep!.refused).toBeUndefined();
    // The unfused RoPE is on both sides: host-bound explained it in the graph-less baseline (secondary), so it is not new.
    if (explained) expect(rows.find((r) => r.metric === `finding:${explained}`)).toMatchObject({ status: 'info', reading: { kind: 'finding', change: 'explained', explainedIn: 'baseline' } });
  });
});

/*
 * The H200 A/B pairs of known cost (fixtures/h200-pairs/PROVENANCE.md): the added kernel's own row
 * fails in time per step, at the size the trace gives it.
 */
describe.each([
  { name: 'a 300 µs spin kernel per step', base: 'spin_ab/base', head: 'spin_ab/head_spin300', kernel: /spin_kernel/ },
  { name: 'FP8 weights dequantized every step', base: 'dequant_ab/dq_bf16', head: 'dequant_ab/dq_fp8-dequant', kernel: /^dequantize_fp8_weight_kernel$/ },
])('real H200 regression: $name', ({ base, head, kernel }) => {
  let report: Report;
  beforeAll(async () => {
    const baseline = await analyze({ inputs: [join(PAIRS, `${base}.trace.json.gz`), join(PAIRS, `${base}.stdout.jsonl`)] });
    report = await analyze({ inputs: [join(PAIRS, `${head}.trace.json.gz`), join(PAIRS, `${head}.stdout.jsonl`)], baseline: { report: baseline, origin: 'file', reason: 'test' } });
  }, 60_000);

  it('fails, and the added kernel fails in time per step', () => {
    expect(report.verdict).toBe('fail');
    const addedUs = kernelUs(join(PAIRS, `${head}.trace.json.gz`), (name) => kernel.test(name)) / 8;
    const row = timeRows(report).find((r) => r.subject?.type === 'kernel' && kernel.test(r.subject.id))!;
    expect(row.status).toBe('fail');
    expect(Math.abs(row.delta! * 1000 - addedUs)).toBeLessThan(0.1);
    expect(linesOf(report).some((line) => line.includes('GPU time per step') && line.includes('in a step that did not get faster'))).toBe(true);
  });
});

describe('two captures of one workload (A/A on the H200, about half an hour apart)', () => {
  it('no kernel row warns: the largest family move, +44.0 µs per step, is under the 2 % warn level of the 2.81 ms step', async () => {
    const baseline = await analyze({ inputs: [join(PAIRS, 'spin_ab/base.trace.json.gz'), join(PAIRS, 'spin_ab/base.stdout.jsonl')] });
    const report = await analyze({ inputs: [join(PAIRS, 'dequant_ab/dq_bf16.trace.json.gz'), join(PAIRS, 'dequant_ab/dq_bf16.stdout.jsonl')], baseline: { report: baseline, origin: 'file', reason: 'test' } });
    // Σ dur over 8 steps: 21,264.8 µs → 21,621.4 µs, +44.6 µs per step in all; 8 / 2,850.176 tok/s = 2.807 ms measured per step.
    const base = kernelUs(join(PAIRS, 'spin_ab/base.trace.json.gz'), () => true) / 8;
    const head = kernelUs(join(PAIRS, 'dequant_ab/dq_bf16.trace.json.gz'), () => true) / 8;
    expect(head - base).toBeCloseTo(44.6, 1);
    const rows = timeRows(report);
    const largest = Math.max(...rows.map((r) => r.delta! * 1000));
    expect(largest).toBeLessThan(0.02 * (8 / medianTokS(join(PAIRS, 'spin_ab/base.stdout.jsonl'))) * 1e6);
    expect(largest).toBeGreaterThan(40);
    expect(rows.filter((r) => r.status === 'warn' || r.status === 'fail')).toEqual([]);
    expect(report.verdict).toBe('pass');
  }, 60_000);
});

// Synthetic sides with a known step: kernels per step, 8 profiler steps, batch 8, tok/s from the step.
const STEPS = 8;
function sideOf(kernelUsPerStep: readonly number[], stepUs: number | null, batch = 8): GateInput {
  const kernels: GateKernel[] = kernelUsPerStep.map((us, i) => ({ name: `k${i}`, family: (['gemm-decode', 'norm', 'elementwise', 'copy', 'attention-fused'] as const)[i % 5]!, totalNs: us * 1000 * STEPS, instances: STEPS, share: 0 }));
  const total = kernels.reduce((sum, k) => sum + k.totalNs, 0);
  for (const k of kernels) k.share = total > 0 ? k.totalNs / total : 0;
  const tokS = stepUs === null ? null : batch / (stepUs / 1e6);
  return {
    metrics: tokS === null ? [] : [{ name: 'decode_tok_s', unit: 'tok/s', direction: 'higher', samples: [tokS, tokS, tokS, tokS, tokS], value: tokS }],
    kernels,
    families: [],
    findings: [],
    utilization: null,
    timeline: { activeSpanNs: 1e9, devices: 1, steps: Array.from({ length: STEPS }, (_, i) => ({ name: `ProfilerStep#${i}` })), graphLaunches: 0, kernelLaunches: 100 },
    environment: { batch: String(batch) },
  };
}

describe('the rule in time, as a property', () => {
  // Five kernels of 50-1000 µs per step, the step 5-40 % longer than their sum (host time).
  const kernelsArb = fc.array(fc.integer({ min: 50, max: 1000 }), { minLength: 5, maxLength: 5 });
  const hostArb = fc.double({ min: 0.05, max: 0.4, noNaN: true });

  it('a kernel made faster never warns or fails, whatever the others\' shares do', () => {
    fc.assert(
      fc.property(kernelsArb, hostArb, fc.integer({ min: 0, max: 4 }), fc.double({ min: 0, max: 0.95, noNaN: true }), (kernels, host, which, cut) => {
        const sum = kernels.reduce((a, b) => a + b, 0);
        const scaled = kernels.map((us, i) => (i === which ? us * (1 - cut) : us));
        const saved = kernels[which]! * cut;
        const result = compare(sideOf(scaled, (sum - saved) * (1 + host)), sideOf(kernels, sum * (1 + host)));
        const bad = result.comparison!.rows.filter((r) => r.status === 'warn' || r.status === 'fail');
        return bad.length === 0 && result.verdict !== 'warn' && result.verdict !== 'fail';
      }),
      { numRuns: 150, seed: 7 },
    );
  });

  it('a kernel grown past its fail threshold in a step that did not get faster always fails', () => {
    fc.assert(
      fc.property(kernelsArb, hostArb, fc.integer({ min: 0, max: 4 }), fc.double({ min: 1.01, max: 5, noNaN: true }), fc.boolean(), (kernels, host, which, over, measured) => {
        const sum = kernels.reduce((a, b) => a + b, 0);
        const baseStep = sum * (1 + host);
        // The default fail threshold: 3 % of the baseline's measured step (of its kernels when nothing is measured), at least 10 µs.
        const failUs = Math.max(0.03 * (measured ? baseStep : sum), 10);
        const grownBy = failUs * over;
        const scaled = kernels.map((us, i) => (i === which ? us + grownBy : us));
        const result = compare(sideOf(scaled, measured ? baseStep + grownBy : null), sideOf(kernels, measured ? baseStep : null));
        const row = result.comparison!.rows.find((r) => r.metric === `kernel-time:kernel:k${which}`)!;
        return row.status === 'fail' && result.verdict === 'fail';
      }),
      { numRuns: 150, seed: 11 },
    );
  });
});

describe('without steps: shares are the fallback', () => {
  // No profiler steps, no sampling kernel: nothing counts steps, so the shares judge the mix.
  const noSteps = (kernelUsPerStep: readonly number[], stepUs: number): GateInput => {
    const side = sideOf(kernelUsPerStep, stepUs);
    const total = side.kernels.reduce((sum, k) => sum + k.totalNs, 0);
    const families = side.kernels.map((k) => ({ family: k.family, share: k.totalNs / total }));
    return { ...side, timeline: null, families, kernels: side.kernels.map((k) => ({ ...k, instances: 1 })) };
  };

  it('a share that grows past the fail level fails in a run no faster, and is context in a run whose throughput improved', () => {
    // k1 (norm) 400 of 2,400 µs = 16.7 % → 1,600 of 3,600 µs = 44.4 %: +27.8 pp.
    const base = noSteps([1600, 400, 200, 150, 50], 2600);
    const slower = compare(noSteps([1600, 1600, 200, 150, 50], 3800), base);
    expect(slower.comparison!.perStep!.unit).toBe('launch');
    expect(slower.comparison!.rows.find((r) => r.metric === 'family:norm')).toMatchObject({ kind: 'family-share', status: 'fail' });
    // The same mix after the other kernels got faster: 1,600 of 2,000 µs is 80 % of GPU time, in a step of 2.2 ms, not 2.6.
    const faster = compare(noSteps([200, 1600, 100, 75, 25], 2200), base);
    expect(faster.comparison!.rows.find((r) => r.metric === 'decode_tok_s')!.status).toBe('improved');
    expect(faster.comparison!.rows.find((r) => r.metric === 'family:norm')).toMatchObject({ kind: 'family-share', status: 'info', reading: { kind: 'share', context: 'throughput-improved' } });
    expect(faster.verdict).toBe('pass');
  });

  // Nothing but the kernels on either side: no steps, no throughput (an nsys kern_sum pair).
  const kernelsOnly = (kernelUs: readonly number[]): GateInput => ({ ...noSteps(kernelUs, 1), metrics: [] });

  it('a kernel removed grows every other share, and none of them warns or fails: their own time did not change', () => {
    // k0 (1,600 of 2,400 µs) removed: k1 400 µs goes from 16.7 % to 50 % of GPU time (+33.3 pp).
    const base = kernelsOnly([1600, 400, 200, 150, 50]);
    const report = compare(kernelsOnly([0, 400, 200, 150, 50]), base);
    const norm = report.comparison!.rows.find((r) => r.metric === 'family:norm')!;
    expect(norm.delta).toBeCloseTo(100 * (400 / 800 - 400 / 2400), 6);
    expect(norm).toMatchObject({ status: 'info', reading: { kind: 'share', context: 'rest-shrank', ownDelta: 0 } });
    const k1 = report.comparison!.rows.find((r) => r.metric === 'kernel:k1')!;
    expect(k1).toMatchObject({ status: 'info', reading: { kind: 'share', context: 'rest-shrank', ownDelta: 0 } });
    expect(report.comparison!.rows.filter((r) => r.status === 'fail' || r.status === 'warn')).toEqual([]);
    expect(report.verdict).not.toBe('fail');
  });

  it('a kernel that got slower itself still fails on its share, by the growth its own time made', () => {
    // k1 400 → 1,600 µs, the rest unchanged: 1,600 of 3,600 µs = 44.4 %, +27.8 pp, all of it its own.
    const report = compare(kernelsOnly([1600, 1600, 200, 150, 50]), kernelsOnly([1600, 400, 200, 150, 50]));
    const k1 = report.comparison!.rows.find((r) => r.metric === 'kernel:k1')!;
    expect(k1.status).toBe('fail');
    const reading = k1.reading as { ownDelta: number };
    expect(reading.ownDelta).toBeCloseTo(100 * (1600 / 3600 - 400 / 2400), 6);
    expect(report.verdict).toBe('fail');
  });

  it('as a property: with nothing but kernels, a kernel made faster never warns or fails; one made 3x slower at 20 % of the time or more always fails', () => {
    const kernelsArb = fc.array(fc.integer({ min: 50, max: 1000 }), { minLength: 5, maxLength: 5 });
    fc.assert(
      fc.property(kernelsArb, fc.integer({ min: 0, max: 4 }), fc.double({ min: 0, max: 1, noNaN: true }), (kernels, which, cut) => {
        const faster = compare(kernelsOnly(kernels.map((us, i) => (i === which ? us * (1 - cut) : us))), kernelsOnly(kernels));
        const gated = faster.comparison!.rows.filter((r) => (r.kind === 'kernel-share' || r.kind === 'family-share') && (r.status === 'warn' || r.status === 'fail'));
        expect(gated).toEqual([]);
      }),
      { numRuns: 200, seed: 1206 },
    );
    fc.assert(
      fc.property(kernelsArb, fc.integer({ min: 0, max: 4 }), (kernels, which) => {
        const total = kernels.reduce((a, b) => a + b, 0);
        fc.pre(kernels[which]! / total >= 0.2);
        // 3x: share s → 3s / (1 + 2s), a growth of 2s(1 − s)/(1 + 2s) ≥ 20 pp for 0.2 ≤ s ≤ 0.6.
        const s = kernels[which]! / total;
        fc.pre(s <= 0.6);
        const slower = compare(kernelsOnly(kernels.map((us, i) => (i === which ? us * 3 : us))), kernelsOnly(kernels));
        expect(slower.comparison!.rows.find((r) => r.metric === `kernel:k${which}`)!.status).toBe('fail');
      }),
      { numRuns: 200, seed: 1207 },
    );
  });
});

describe('a real kernel summary with its largest kernel gone', () => {
  // vLLM + Qwen2.5-7B, nsys cuda_gpu_kern_sum (__tests__/fixtures/nsys/PROVENANCE.md): the current side
  // is the same summary without its first row (a GEMM at 32.0 % of GPU time), its Time (%) column
  // written again over the rest as nsys would: every other kernel took exactly the time it took.
  const NSYS = join(import.meta.dirname, '..', 'fixtures', 'nsys', 'vllm_qwen2.5-7b_cuda_gpu_kern_sum.csv');

  it('is faster and nothing warns or fails, though every other share grew', async () => {
    const [header, first, ...rest] = readFileSync(NSYS, 'utf8').trimEnd().split('\n');
    const ns = (line: string) => Number(line.split(',')[1]);
    const removed = ns(first!);
    const total = [first!, ...rest].reduce((sum, line) => sum + ns(line), 0);
    const kept = total - removed;
    const dir = mkdtempSync(join(tmpdir(), 'pg-faster-'));
    const current = join(dir, 'vllm_without_top_cuda_gpu_kern_sum.csv');
    writeFileSync(current, [header, ...rest.map((line) => [(100 * ns(line) / kept).toFixed(1), ...line.split(',').slice(1)].join(','))].join('\n') + '\n');
    const baseline = await analyze({ inputs: await expandInputs([NSYS]) });
    const report = await analyze({ inputs: await expandInputs([current]), baseline: { report: baseline, origin: 'file', reason: 'test' } });
    const second = rest[0]!.split(',').at(-1)!;
    const row = report.comparison!.rows.find((r) => r.metric === `kernel:${second}`)!;
    // 434.5 ms of 2,078 ms (20.9 %) → of 1,413 ms (30.7 %): +9.8 pp, past the 5 pp share warning,
    // its own time unchanged. The summary's launch counts give steps, so time per step judges it.
    expect(row.delta).toBeCloseTo(100 * (ns(rest[0]!) / kept - ns(rest[0]!) / total), 1);
    expect(row.status).toBe('info');
    expect(report.comparison!.rows.filter((r) => r.status === 'warn' || r.status === 'fail')).toEqual([]);
    expect(report.verdict).not.toBe('fail');
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);
});

describe('the time thresholds', () => {
  it('default to 2 % / 3 % of the baseline step with a 10 µs floor, and can be set', () => {
    const base = sideOf([1600, 400, 200, 150, 50], 2600);
    // k1 grows 100 µs in a step 100 µs slower: 3.8 % of 2.6 ms, past 3 % (78 µs); under 5 % (130 µs) it only warns (past 2 %, 52 µs).
    const head = sideOf([1600, 500, 200, 150, 50], 2700);
    const row = (options = {}) => compare(head, base, options).comparison!.rows.find((r) => r.metric === 'kernel-time:kernel:k1')!;
    expect(row()).toMatchObject({ status: 'fail' });
    expect(row().threshold).toBeCloseTo(0.078, 6);
    expect(row({ stepTimeThresholds: { failPct: 5 } })).toMatchObject({ status: 'warn' });
    expect(row({ stepTimeThresholds: { failPct: 5 } }).threshold).toBeCloseTo(0.13, 6);
    // On a 200 µs step 3 % is 6 µs: the 10 µs floor holds.
    const short = compare(sideOf([100, 40, 20, 10, 5], 200), sideOf([100, 32, 20, 10, 5], 192)).comparison!.rows.find((r) => r.metric === 'kernel-time:kernel:k1')!;
    expect(short).toMatchObject({ status: 'pass', threshold: 0.01 });
  });
});

describe('a kernel that takes work from its own family', () => {
  it('another GEMM picked for the same work, the step no faster: the new kernel is a shift within its family, not a regression', () => {
    const base = sideOf([1600, 400, 200, 150, 50], 2600);
    // k0 (a decode GEMM, 1.6 ms) gives way to k5, another decode GEMM of the same time; the step is 2 µs slower (noise).
    const head: GateInput = { ...sideOf([0, 400, 200, 150, 50], 2602), kernels: [...sideOf([0, 400, 200, 150, 50], null).kernels.slice(1), { name: 'k5', family: 'gemm-decode', totalNs: 1600e3 * STEPS, instances: STEPS, share: 0.67 }] };
    const result = compare(head, base);
    const rows = result.comparison!.rows;
    expect(rows.find((r) => r.metric === 'kernel-time:kernel:k5')).toMatchObject({ status: 'info', delta: 1.6 });
    expect(noteOf(result, 'kernel-time:kernel:k5')).toMatch(/a shift within its family: gemm-decode GPU time per step changed ±0 ns/);
    expect(rows.find((r) => r.metric === 'kernel-time:family:gemm-decode')).toMatchObject({ status: 'pass', delta: 0 });
    expect(result.verdict).toBe('pass');
    // A threshold set on that kernel judges the kernel alone.
    expect(compare(head, base, { thresholds: { 'kernel-time:kernel:k5': 1 } }).verdict).toBe('fail');
  });
});

describe('windows that do not hold the same kind of step', () => {
  it('a head whose count sees a few launches outside the graphs: refused, per launch, nothing fails on it', () => {
    // The baseline: 1,000 decode steps of 2.4 ms of kernels, 2.6 ms measured per step. The head, as an
    // nsys trace of CUDA graphs at graph level shows it: its 4 sampling launches are the only steps it
    // can count, and its table holds the eager prefills (420 ms), none of the graph-replayed steps.
    const base = sideOf([1600, 400, 200, 150, 50], 2600);
    const head: GateInput = {
      ...sideOf([], 2500),
      kernels: [
        { name: 'prefill_gemm', family: 'gemm', totalNs: 400e6, instances: 4 * 112, share: 400 / 420 },
        { name: 'flash_prefill', family: 'attention-fused', totalNs: 19.9e6, instances: 4 * 32, share: 19.9 / 420 },
        { name: 'argmax', family: 'sampling', totalNs: 0.1e6, instances: 4, share: 0.1 / 420 },
      ],
      timeline: null,
      sources: [{ format: 'nsys-stats' }],
    };
    const result = compare(head, base);
    const perStep = result.comparison!.perStep!;
    expect(perStep.current).toMatchObject({ steps: 4, basis: 'once-per-step-kernel' });
    // 420 ms / 4 = 105 ms of kernels per counted step against a measured step of 2.5 ms.
    expect(perStep.refused).toEqual({ cause: 'kernel-time-exceeds-step', side: 'current', baseline: 105e6, current: 2.5e6, fix: 'cuda-graph-trace-node' });
    expect(perStep.unit).toBe('launch');
    // The refusal is data (its words are the renderers'): no note in the comparison repeats it.
    expect(perStepNotes(perStep).slice(1).join(' ')).not.toMatch(/--cuda-graph-trace=node/);
    expect(perStepNotes(perStep)[0]).toMatch(/--cuda-graph-trace=node/);
    // Faster measured (2.6 → 2.5 ms): no row fails or warns; the shares, of different work, gate nothing.
    expect(result.comparison!.rows.filter((r) => r.status === 'fail' || r.status === 'warn')).toEqual([]);
    expect(result.comparison!.rows.filter((r) => r.kind === 'family-share').every((r) => r.status === 'pass' || r.status === 'info')).toBe(true);
    expect(accountOf(result).some((line) => line.startsWith('time per step not compared: the current run\'s kernels take 105 ms per counted step'))).toBe(true);
    // The first line says so, not a kernel's time per launch.
    const headline = perStepHeadline(emptyReport({ comparison: result.comparison }), { kernel: (name) => name, text: (text) => text });
    expect(headline).toMatch(/^time per step not compared: the current run's kernels take 105 ms per counted step, more than its measured step of 2\.50 ms allows, .*capture with --cuda-graph-trace=node\.$/);
  });

  it('steps counted from different evidence whose kernel time per step differs more than 3×, nothing measured: refused', () => {
    // The baseline: 8 profiler steps of 2.4 ms of kernels. The head has no ranges; its 2 sampling launches count 2 "steps" of 9.6 ms.
    const base = sideOf([1600, 400, 200, 150, 50], null);
    const head: GateInput = { ...sideOf([6400, 1600, 800, 600, 200], null), timeline: null };
    head.kernels = [...head.kernels.map((k) => ({ ...k, totalNs: (k.totalNs / STEPS) * 2 })), { name: 'argmax', family: 'sampling', totalNs: 2e4, instances: 2, share: 0 }];
    const perStep = compare(head, base).comparison!.perStep!;
    expect(perStep.current).toMatchObject({ steps: 2, basis: 'once-per-step-kernel' });
    expect(perStep.refused).toMatchObject({ cause: 'step-bases-differ', baseline: 2.4e6 });
    expect(perStep.refused!.current).toBeCloseTo(9.61e6, -3);
    expect(perStep.unit).toBe('launch');
    // The same head counted by profiler steps like the baseline: compared (a 4× step can be a real regression).
    const counted = compare(sideOf([6400, 1600, 800, 600, 200], null), base);
    expect(counted.comparison!.perStep!.refused).toBeUndefined();
    expect(counted.verdict).toBe('fail');
  });

  it('steps that carry different tokens (prompts packed into fewer forwards): refused', () => {
    const base = sideOf([1600, 400, 200, 150, 50], 2600);
    // Four times the tokens per forward at 9 ms a step: 3,556 tok/s against 3,077, faster per token but slower per step.
    const packed = sideOf([6400, 1600, 800, 600, 200], 9000, 32);
    const result = compare(packed, base, { allowEnvironmentMismatch: ['batch'] });
    expect(result.comparison!.perStep!.refused).toEqual({ cause: 'tokens-per-step', baseline: 8, current: 32 });
    expect(result.comparison!.rows.filter((r) => r.status === 'fail' || r.status === 'warn')).toEqual([]);
  });

  it('a kernel-time threshold on a refused comparison is not compared, never a pass', () => {
    const base = sideOf([1600, 400, 200, 150, 50], 2600);
    // Four times the tokens per forward at 9 ms a step: 3,556 tok/s against 3,077, faster per token but slower per step.
    const packed = sideOf([6400, 1600, 800, 600, 200], 9000, 32);
    const result = compare(packed, base, { allowEnvironmentMismatch: ['batch'], thresholds: { 'kernel-time:family:copy': 0.1 } });
    expect(result.comparison!.rows.find((r) => r.metric === 'kernel-time:family:copy')).toMatchObject({ status: 'insufficient-data' });
    expect(noteOf(result, 'kernel-time:family:copy')).toBe('not compared: the windows hold different kinds of step (see the time per step)');
  });

  it('the real fix as nsys kernel summaries (32 steps each, counted by the argmax launches): the windows agree, and it passes', async () => {
    const unfused = await analyze({ inputs: [join(UNFUSED, 'unfused_node.kern_sum.csv'), join(UNFUSED, 'unfused_timed.stdout.jsonl')] });
    const fixed = await analyze({ inputs: [join(HEALTHY, 'healthy_node.kern_sum.csv'), join(HEALTHY, 'healthy_timed.stdout.jsonl')], baseline: { report: unfused, origin: 'file', reason: 'test' } });
    const perStep = fixed.comparison!.perStep!;
    // PROVENANCE.md: 97,111,705 ns and 79,939,122 ns over 32 steps: 3.035 and 2.498 ms of kernels per step, under the 3.19 and 2.64 ms measured.
    expect(perStep).toMatchObject({ unit: 'step', baseline: { steps: 32, basis: 'once-per-step-kernel' }, current: { steps: 32, basis: 'once-per-step-kernel' } });
    expect(perStep.refused).toBeUndefined();
    expect(fixed.verdict).toBe('pass');
    expect(fixed.comparison!.rows.filter((r) => r.status === 'fail' || r.status === 'warn')).toEqual([]);
  }, 60_000);
});
