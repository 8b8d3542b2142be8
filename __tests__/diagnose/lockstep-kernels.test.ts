/**
 * The copies an unfused attention runs in lockstep with its softmax: unfused-attention names them as
 * data (launches per softmax launch, time per step), and the first line of a comparison says when its
 * leading kernel is one of them. Real captures: the demo's pair (samples/, the project's decode with
 * matmul + softmax attention against fused SDPA), the same workload under nsys, transformers' eager
 * attention; and fused decodes that copy their KV heads, where nothing may be linked. Expected
 * readings come from the raw files (kernel events of the traces, the rows of the nsys table).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { analyze } from '../../src/pipeline/analyze.js';
import { expandInputs } from '../../src/io/input-paths.js';
import { diagnose } from '../../src/diagnose/run-rules.js';
import type { Finding, Report } from '../../src/model/report.js';
import { renderTerminal } from '../../src/report/terminal.js';
import { DETAIL_LEVELS, findingsSection, perStepLine } from '../../src/report/markdown/sections.js';
import { analyzedOnce } from '../helpers/shared-analysis.js';
import { K, profileOf } from '../helpers/profile-builder.js';

const ROOT = join(import.meta.dirname, '..', '..');
const SAMPLES = join(ROOT, 'samples');
const FIXTURES = join(import.meta.dirname, '..', 'fixtures');
const UNFUSED = join(FIXTURES, 'h200-captures', 'unfused_attention');

interface Launches {
  launches: number;
  ns: number;
}

/** Launches and Σ dur (ns) of a Chrome trace's kernels whose name matches, and its ProfilerStep ranges. */
function traceKernels(path: string, match: (name: string) => boolean): Launches {
  const events = (JSON.parse(gunzipSync(readFileSync(path)).toString('utf8')) as { traceEvents: { cat?: string; name?: string; dur?: number }[] }).traceEvents;
  const kernels = events.filter((e) => e.cat === 'kernel' && match(e.name ?? ''));
  return { launches: kernels.length, ns: kernels.reduce((sum, e) => sum + (e.dur ?? 0) * 1000, 0) };
}

/** Instances and total ns of the one row of an nsys kernel summary whose name matches. */
function nsysRow(path: string, match: RegExp): Launches {
  const rows = readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => /^\d/.test(line) && match.test(line));
  expect(rows).toHaveLength(1);
  const [, total, instances] = rows[0]!.split(',');
  return { launches: Number(instances), ns: Number(total) };
}

const unfusedAttention = (findings: readonly Finding[]) => findings.find((f) => f.id === 'unfused-attention')!;
const SOFTMAX = /softmax_warp_forward/;
const DIRECT_COPY = /^void at::native::elementwise_kernel<(?:\(int\))?128, (?:\(int\))?4, (?:void )?at::native::gpu_kernel_impl_nocast<at::native::direct_copy_kernel_cuda/;
const CAST_COPY = /^void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda/;

describe('the demo pair (samples/): matmul + softmax attention with its KV heads repeated', () => {
  const trace = join(SAMPLES, 'current', 'unfused.trace.json.gz');
  let current: Report;
  let forward: Report;
  let reversed: Report;
  beforeAll(async () => {
    const baseline = await analyze({ inputs: await expandInputs([join(SAMPLES, 'baseline')]) });
    current = await analyze({ inputs: await expandInputs([join(SAMPLES, 'current')]) });
    forward = await analyze({ inputs: await expandInputs([join(SAMPLES, 'current')]), baseline: { report: baseline, origin: 'file', reason: 'test' } });
    reversed = await analyze({ inputs: await expandInputs([join(SAMPLES, 'baseline')]), baseline: { report: current, origin: 'file', reason: 'test' } });
  }, 120_000);

  it('names the copies that keep step with the softmax, with their time per step', () => {
    // The trace: 8 ProfilerSteps, 128 softmax launches (16 layers × 8 steps); the KV repeat's copy
    // 256 launches (K and V of each layer), 2,382.3 µs; the scores' cast before the softmax 128, 316.2 µs.
    const steps = traceKernels(trace, (name) => /ArgMaxOps/.test(name)).launches;
    expect(steps).toBe(8);
    const softmax = traceKernels(trace, (name) => SOFTMAX.test(name)).launches;
    const repeat = traceKernels(trace, (name) => DIRECT_COPY.test(name));
    const cast = traceKernels(trace, (name) => CAST_COPY.test(name));
    expect([softmax, repeat.launches, cast.launches]).toEqual([128, 256, 128]);
    const named = unfusedAttention(current.findings).lockstepKernels!;
    expect(named.map((k) => [k.perLaunch, k.launches, k.launchesPerStep, k.anchor])).toEqual([
      [2, repeat.launches, repeat.launches / steps, 'attention-softmax'],
      [1, cast.launches, cast.launches / steps, 'attention-softmax'],
    ]);
    expect(named[0]!.name).toMatch(DIRECT_COPY);
    expect(named[1]!.name).toMatch(CAST_COPY);
    expect(named[0]!.nsPerStep! / 1000).toBeCloseTo(repeat.ns / steps / 1000, 0);
    expect(named[1]!.nsPerStep! / 1000).toBeCloseTo(cast.ns / steps / 1000, 0);
  });

  it('leaves out copies whose count is not a whole number per softmax launch, and concatenations', () => {
    // bfloat16_copy: 136 launches, 17 per step (the probabilities' cast per layer, and one more per
    // step elsewhere); CatArrayBatchedCopy: 256, 2 per softmax launch, but RoPE's cat, on the fused side too.
    expect(traceKernels(trace, (name) => name.includes('bfloat16_copy_kernel_cuda')).launches).toBe(136);
    expect(traceKernels(trace, (name) => name.includes('CatArrayBatchedCopy')).launches).toBe(256);
    expect(traceKernels(join(SAMPLES, 'baseline', 'healthy.trace.json.gz'), (name) => name.includes('CatArrayBatchedCopy')).launches).toBe(256);
    const names = unfusedAttention(current.findings).lockstepKernels!.map((k) => k.name);
    expect(names.filter((name) => /bfloat16_copy|CatArray/.test(name))).toEqual([]);
  });

  it('says in the first line that the leading copy kernel is part of unfused-attention', () => {
    const first = renderTerminal(forward).split('\n')[1]!;
    expect(first).toMatch(/^ {2}where the time went: \+298 µs\/step in elementwise_kernel<direct_copy_kernel_cuda> \(part of unfused-attention: 2 launches per softmax launch, layer by layer\); all kernels/);
    expect(perStepLine(forward)).toContain('</code> (part of <code>unfused-attention</code>: 2 launches per softmax launch, layer by layer); all kernels');
    // The diagnosis lists both, each with its time per step, in the report as in the terminal.
    expect(findingsSection(forward, DETAIL_LEVELS[0]!, '##')).toContain(
      '  - In lockstep: <code>elementwise&#95;kernel&#60;direct&#95;copy&#95;kernel&#95;cuda&#62;</code> (2 per softmax launch, 298 µs/step); <code>unrolled&#95;elementwise&#95;kernel&#60;direct&#95;copy&#95;kernel&#95;cuda&#62;</code> (1 per softmax launch, 39.5 µs/step)',
    );
    expect(renderTerminal(forward)).toContain(
      'in lockstep: elementwise_kernel<direct_copy_kernel_cuda> (2 per softmax launch, 298 µs/step); unrolled_elementwise_kernel<direct_copy_kernel_cuda> (1 per softmax launch, 39.5 µs/step)',
    );
  });

  it('says nothing of the kind when the finding does not name the kernel, or the run has no such finding', () => {
    const unlinked: Report = { ...forward, findings: forward.findings.map(({ lockstepKernels: _named, ...finding }) => finding) };
    expect(renderTerminal(unlinked).split('\n')[1]).toMatch(/^ {2}where the time went: \+298 µs\/step in elementwise_kernel<direct_copy_kernel_cuda>; all kernels/);
    // The fix, the other way: the same copy leads as the time that went away; the fused run has no finding to tie it to.
    const first = renderTerminal(reversed).split('\n')[1]!;
    expect(first).toMatch(/^ {2}where the time went: −298 µs\/step in elementwise_kernel<direct_copy_kernel_cuda>;/);
    expect(first).not.toContain('part of');
  });
});

describe('the same workload under nsys (32 steps)', () => {
  it('names the same two copies, at the same time per step', async () => {
    const table = join(UNFUSED, 'unfused_node.stats_kern_api.csv');
    const report = await analyzedOnce([table, join(UNFUSED, 'unfused_node.gpu_time_util_t100.csv'), join(UNFUSED, 'unfused_timed.util.jsonl'), join(UNFUSED, 'unfused_timed.stdout.jsonl')]);
    const steps = nsysRow(table, /ArgMaxOps/).launches;
    const softmax = nsysRow(table, SOFTMAX);
    const repeat = nsysRow(table, /^[^"]*"void at::native::elementwise_kernel<\(int\)128, \(int\)4, void at::native::gpu_kernel_impl_nocast<at::native::direct_copy_kernel_cuda/);
    const cast = nsysRow(table, /"void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda/);
    expect([steps, softmax.launches, repeat.launches, cast.launches]).toEqual([32, 512, 1024, 512]);
    const named = unfusedAttention(report.findings).lockstepKernels!;
    expect(named.map((k) => [k.perLaunch, k.launches, k.launchesPerStep, k.totalNs, k.nsPerStep])).toEqual([
      [2, 1024, 32, repeat.ns, Math.round(repeat.ns / steps)],
      [1, 512, 16, cast.ns, Math.round(cast.ns / steps)],
    ]);
  });
});

describe("transformers' eager attention (kineto/eager_attention: 32 steps, its first window step a prefill)", () => {
  it("names repeat_kv's copy, whose one-off prefill launches do not break the step, and not the casts or the cats", async () => {
    const trace = join(FIXTURES, 'kineto', 'eager_attention.trace.json.gz');
    const report = await analyzedOnce([trace, join(FIXTURES, 'gpu-snapshot', 'eager_attention.nvml.jsonl')]);
    const steps = traceKernels(trace, (name) => /ArgMaxOps/.test(name)).launches;
    const softmax = traceKernels(trace, (name) => SOFTMAX.test(name)).launches;
    // repeat_kv's expand + reshape: 1,040 launches = 2 × 512 softmax launches + 16 (one per layer, once).
    const repeat = traceKernels(trace, (name) => name.startsWith('void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::native::direct_copy_kernel_cuda'));
    expect([steps, softmax, repeat.launches]).toEqual([32, 512, 1040]);
    const named = unfusedAttention(report.findings).lockstepKernels!;
    expect(named).toHaveLength(1);
    expect(named[0]).toMatchObject({ perLaunch: 2, launches: 1040, launchesPerStep: 32.5, totalNs: repeat.ns });
    expect(report.kernels.find((k) => k.name === named[0]!.name)!.launchedBy).toBe('aten::reshape > aten::clone > aten::copy_');
    // The `.to()` casts run 1,632 times (3.19 per softmax launch: norms too), the cats are cats.
    expect(traceKernels(trace, (name) => name.includes('bfloat16_copy_kernel_cuda')).launches).toBe(1632);
  });
});

describe('fused attention that copies its KV heads: nothing to link', () => {
  it.each([
    ['h200-captures/gqa_repeat_kv (nsys): 80 copies beside 40 cuDNN SDPA launches', [join(FIXTURES, 'h200-captures', 'gqa_repeat_kv', 'gqa_cuda_gpu_kern_sum.csv')]],
    ['h200-stacks/repeat_kv (PyTorch profiler): repeat_interleave before SDPA', [join(FIXTURES, 'h200-stacks', 'repeat_kv', 'repeatkv.trace.json.gz')]],
  ])('%s', async (_name, inputs) => {
    const report = await analyzedOnce(inputs);
    expect(report.kernels.some((k) => k.family === 'copy' && k.share > 0.5)).toBe(true);
    expect(report.findings.map((f) => f.id)).not.toContain('unfused-attention');
    expect(report.findings.filter((f) => f.lockstepKernels)).toEqual([]);
  });
});

describe('the lockstep test on built profiles', () => {
  const copyOf = (tag: string) => K.copy.replace('{lambda(float)#1}', `{lambda(float)#${tag}}`);
  it('names a copy at a whole number per softmax launch, and not one off by a launch or a cat', () => {
    const profile = profileOf({
      kernels: [
        [K.decodeGemm, 40, 3000],
        [K.softmax, 2, 512],
        [copyOf('2'), 10, 1024],
        [copyOf('3'), 5, 1025],
        [copyOf('4'), 3, 100],
        ['void at::native::(anonymous namespace)::CatArrayBatchedCopy<at::native::(anonymous namespace)::OpaqueType<2u>, unsigned int, 4, 64, 64>(int)', 3, 1024],
        [K.copy, 37, 512],
      ],
    });
    const named = unfusedAttention(diagnose(profile).findings).lockstepKernels!;
    expect(named.map((k) => [k.name, k.perLaunch, k.launchesPerStep, k.nsPerStep])).toEqual([
      [K.copy, 1, null, null],
      [copyOf('2'), 2, null, null],
    ]);
  });

  it('with 32 steps counted (an argmax launch each): off by less than one launch per step keeps step, one per step more does not', () => {
    const profile = profileOf({
      kernels: [
        [K.decodeGemm, 40, 3000],
        [K.argmax, 0.5, 32],
        [K.softmax, 2, 512],
        // 2 per softmax launch and 16 once (a prefill step's): 32.5 per step.
        [copyOf('2'), 10, 1040],
        // 2 per softmax launch and one more every step: a second use.
        [copyOf('3'), 5, 1056],
      ],
    });
    const named = unfusedAttention(diagnose(profile).findings).lockstepKernels!;
    expect(named.map((k) => [k.name, k.perLaunch, k.launchesPerStep, k.nsPerStep])).toEqual([[copyOf('2'), 2, 32.5, Math.round(10e6 / 32)]]);
  });
});
