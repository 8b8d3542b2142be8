/**
 * What `profile-gate run` captured on an H200 (fixtures/h200-run), read again here: the same
 * diagnosis and the same gate the run gave, from the files alone. Expected readings come from the
 * provenance (the kernel shares, the deep dive's SOL numbers, the per-run tok/s), not from the output.
 */
import { join } from 'node:path';
import { analyze } from '../../src/pipeline/analyze.js';
import { accountOf } from '../helpers/gate-lines.js';

const RUN = join(import.meta.dirname, '..', 'fixtures', 'h200-run');
const rkv = (name: string) => join(RUN, 'repeat_kv', name);

describe('profile-gate run --profiler nsys on the decode that repeats its KV heads', () => {
  const inputs = ['measured-1.log', 'measured-1.gpu.jsonl', 'measured-2.log', 'measured-2.gpu.jsonl', 'profile.nsys-stats.csv', 'profile.gpu-time-util.csv', 'deep-dive.ncu.csv'].map(rkv);

  it('is GPU-bound and copy-heavy; the deep dive is about the copy kernel and reads it as a copy', async () => {
    const report = await analyze({ inputs });
    expect(report.gpuTimeUtilPercent).toBe(97.7);
    expect(report.findings.map((f) => f.id)).not.toContain('host-bound');
    const copy = report.findings.find((f) => f.id === 'copy-heavy')!;
    expect(copy.severity).toBe('warning');
    expect(Number(copy.evidence['copyShare'])).toBeGreaterThan(0.55);
    // The deep dive attaches to the breakdown's copy kernel (56.7 %), whatever each tool calls it.
    const deep = report.findings.find((f) => /^kernel-(compute|memory|latency)-bound$/.test(f.id))!;
    expect(deep.id).toBe('kernel-compute-bound');
    expect(deep.evidence['kernelKind']).toBe('copy');
    expect(Number(deep.evidence['share'])).toBeCloseTo(0.567, 3);
    expect(deep.advice).toMatch(/native GQA/);
    expect(deep.advice).not.toMatch(/FP8|tensor[- ]core/i);
  });
});

describe('an A/B on the H200: the head 6 % slower, one base run stalled', () => {
  const side = (which: 'head' | 'base') => [1, 2, 3, 4, 5].map((n) => join(RUN, 'ab', which, `measured-${n}.log`));

  it('fails the 5.8 % drop and names the stalled base run, left out below the fast cluster', async () => {
    const base = await analyze({ inputs: side('base') });
    const report = await analyze({ inputs: side('head'), baseline: { report: base, origin: 'a/b', reason: 'the base build in the same job' } });
    expect(report.verdict).toBe('fail');
    const row = report.comparison!.rows.find((r) => r.metric === 'decode_tok_s')!;
    expect(row.status).toBe('fail');
    expect(row.delta).toBeCloseTo(-0.058, 3);
    // The stalled base run is left out, and as many of the head's runs (its slowest), so neither side is biased.
    expect(row.samples).toEqual([14, 14]);
    expect(accountOf(report).join("\n")).toMatch(/left out baseline run 8: −19\.4% as stalled, beside 14 runs/);
    expect(accountOf(report).join("\n")).toMatch(/left out current run \d+: −0\.\d% \(its slowest\) to leave out as many runs of each side as the other/);
  });
});

describe('the tensor-parallel decode at world size 1 (its all-reduce a no-op)', () => {
  it('imports: a healthy dense decode, the GPU busy, no collectives, the timed tok/s carried', async () => {
    const dir = join(RUN, 'tp1');
    const report = await analyze({ inputs: [join(dir, 'tp_decode_healthy_tp1.rank0.pt.trace.json.gz'), join(dir, 'tp_decode_healthy_tp1.metrics.jsonl')] });
    expect(report.findings.map((f) => [f.id, f.severity])).toEqual([['healthy-dense-decode', 'info']]);
    expect(report.timeline!.busyNs / report.timeline!.spanNs).toBeGreaterThan(0.9);
    expect(report.families.find((f) => f.family === 'collective')).toBeUndefined();
    expect(report.metrics.find((m) => m.name === 'decode_tok_s')!.samples).toEqual([6296.197, 6297.49, 6289.582]);
  });
});

describe('profile-gate run --profiler torch, the profile run recording a CUDA-graph capture', () => {
  const at = (name: string) => join(RUN, 'graph_capture', name);
  const inputs = ['logs/measured-1.log', 'captures/measured-1.gpu.jsonl', 'logs/measured-2.log', 'captures/measured-2.gpu.jsonl', 'captures/profile/graphcap.trace.json.gz', 'captures/deep-dive.ncu.csv'].map(at);

  it('copy-heavy names the line that repeats the KV heads, through the graph capture; no host-bound', async () => {
    const report = await analyze({ inputs });
    expect(report.findings.map((f) => f.id)).not.toContain('host-bound');
    const copy = report.findings.find((f) => f.id === 'copy-heavy')!;
    expect(copy.severity).toBe('warning');
    expect(Number(copy.evidence['topCopyShare'])).toBeCloseTo(0.574, 3);
    expect(copy.message).toContain('launched from `sdpa` (llama_decode.py:152) via aten::repeat_interleave');
    expect(copy.message).toContain('(captured into a CUDA graph, then replayed)');
    // 4 replays of 228 kernels and one memcpy, tied to the capture's launches.
    expect(report.notices.map((n) => n.message)).toContainEqual(expect.stringMatching(/^916 GPU events of 4 CUDA graph replays were tied/));
    const deep = report.findings.find((f) => f.id === 'kernel-compute-bound')!;
    expect(deep.evidence['kernelKind']).toBe('copy');
    expect(deep.advice).toMatch(/native GQA/);
  });
});
