/**
 * Decode steps counted from evidence in the capture: the first signal that holds decides, the others
 * are named as agreeing or differing, and without any the count is unknown (never assumed).
 */
import { countSteps, type StepSource } from '../../src/diagnose/step-count.js';

const ARGMAX = 'void at::native::reduce_kernel<512, 1, at::native::ReduceOp<c10::BFloat16, at::native::ArgMaxOps<c10::BFloat16>, unsigned int, long, 4> >(at::native::ReduceOp<c10::BFloat16, at::native::ArgMaxOps<c10::BFloat16>, unsigned int, long, 4>)';
const gemv = { name: 'nvjet_sm90_tst_256x8_64x6_4x1_v_bz_TNT', family: 'gemm-decode' as const, instances: 128 };
const argmax = (instances: number, device?: number) => ({ name: ARGMAX, family: 'sampling' as const, instances, ...(device !== undefined ? { device } : {}) });
const profilerSteps = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `ProfilerStep#${i + 1}` }));

describe('countSteps', () => {
  it("the workload's own count of its profiled window decides; the profiler steps that agree are named", () => {
    const count = countSteps({ kernels: [gemv, argmax(8)], timeline: { steps: profilerSteps(8) }, metrics: [{ name: 'profile_steps', value: 8 }] });
    expect(count).toMatchObject({ steps: 8, basis: 'workload' });
    expect(count.text).toBe("the workload's own count: 8 steps in its profiled window (profile_steps); 8 profiler steps (ProfilerStep#1 …) and 8 launches of the sampling kernel reduce_kernel agree");
    // A count stated by another run than the profiled one: the window's own 16 profiler steps decide.
    const stale = countSteps({ kernels: [gemv], timeline: { steps: profilerSteps(16) }, metrics: [{ name: 'profile_steps', value: 8 }] });
    expect(stale).toMatchObject({ steps: 16, basis: 'profiler-steps' });
    expect(stale.text).toMatch(/the workload's own count: 8 steps in its profiled window \(profile_steps\) is refused: the window's own evidence gives 16$/);
    // Not a whole number of steps, or a single one: not a count of a loop.
    expect(countSteps({ kernels: [gemv], metrics: [{ name: 'profile_steps', value: 7.5 }] }).steps).toBeNull();
    expect(countSteps({ kernels: [gemv], metrics: [{ name: 'profile_steps', value: 1 }] }).steps).toBeNull();
  });

  it('a stated count with more steps than launches of any kernel is refused, named, and the next basis decides', () => {
    // No step evidence in the window: before, 1,024 (or 2^53 − 1) stated steps were taken as they came.
    for (const stated of [1024, Number.MAX_SAFE_INTEGER]) {
      const count = countSteps({ kernels: [gemv], metrics: [{ name: 'profile_steps', value: stated }] });
      expect(count).toMatchObject({ steps: null, basis: null });
      expect(count.text).toContain(`(profile_steps) is refused: more steps than launches of any kernel (the most launched, nvjet_sm90_tst_256x8_64x6_4x1_v_bz_TNT, ran 128 times)`);
    }
    // With a basis read from the window, that one decides.
    const fallback = countSteps({ kernels: [gemv, argmax(8)], metrics: [{ name: 'profile_steps', value: 1024 }] });
    expect(fallback).toMatchObject({ steps: 8, basis: 'once-per-step-kernel' });
    expect(fallback.text).toMatch(/^8 launches of the sampling kernel reduce_kernel; the workload's own count: 1,024 steps .* is refused: more steps than launches/);
    // Launches per device: 2 devices × 128 launches bound a count of 128 steps, not 256.
    const twoDevices = [{ ...gemv, device: 0 }, { ...gemv, device: 1 }];
    expect(countSteps({ kernels: twoDevices, timeline: { devices: 2 }, metrics: [{ name: 'profile_steps', value: 128 }] }).steps).toBe(128);
    expect(countSteps({ kernels: twoDevices, timeline: { devices: 2 }, metrics: [{ name: 'profile_steps', value: 256 }] }).steps).toBeNull();
    // MAX's figure is held to the same bound.
    const maxKernels = [{ name: 'gemv_split_k_bfloat16_4096_t128', family: 'gemv' as const, instances: 50 }];
    expect(countSteps({ kernels: maxKernels, metrics: [{ name: 'output_tokens', value: 100 }], sources: [{ format: 'max-generate' }] }).steps).toBeNull();
  });

  it("MAX's output tokens count the forward passes of a max generate --profile capture, and only of one", () => {
    const maxKernels = [{ name: 'gemv_split_k_bfloat16_4096_t128', family: 'gemv' as const, instances: 3200 }];
    const count = countSteps({ kernels: maxKernels, metrics: [{ name: 'output_tokens', value: 100 }], sources: [{ format: 'max-generate' }] });
    expect(count).toMatchObject({ steps: 100, basis: 'max-output-tokens' });
    expect(count.text).toMatch(/^MAX's own figure: 100 output tokens in the profiled generation/);
    // The same figure beside another tool's kernels (a served benchmark's output, a Kineto trace) says nothing of its window.
    expect(countSteps({ kernels: maxKernels, metrics: [{ name: 'output_tokens', value: 100 }], sources: [{ format: 'kineto-json' }] }).steps).toBeNull();
  });


  it('profiler steps decide; graph replays and the argmax launches that agree are named', () => {
    const source: StepSource = { kernels: [gemv, argmax(8)], timeline: { steps: profilerSteps(8), graphLaunches: 8, kernelLaunches: 0, devices: 1 } };
    const count = countSteps(source);
    expect(count).toMatchObject({ steps: 8, basis: 'profiler-steps', devices: 1 });
    expect(count.text).toBe('8 profiler steps (ProfilerStep#1 …); 8 CUDA graph replays, every kernel inside one and 8 launches of the sampling kernel reduce_kernel agree');
  });

  it('a signal that gives another count is named as differing, not used', () => {
    const count = countSteps({ kernels: [argmax(16)], timeline: { steps: profilerSteps(8), graphLaunches: 0, kernelLaunches: 900, devices: 1 } });
    expect(count.steps).toBe(8);
    expect(count.text).toContain('16 launches of the sampling kernel reduce_kernel differ');
  });

  it('graph replays count only when every kernel ran inside one (eager launches between them: no)', () => {
    expect(countSteps({ kernels: [gemv], timeline: { steps: [], graphLaunches: 32, kernelLaunches: 0, devices: 1 } })).toMatchObject({ steps: 32, basis: 'graph-replays' });
    expect(countSteps({ kernels: [gemv], timeline: { steps: [], graphLaunches: 32, kernelLaunches: 5, devices: 1 } }).steps).toBeNull();
  });

  it('decode ranges count when the window names no prefill', () => {
    const ranges = { decode: 12, prefill: 0, decodeName: 'step[DECODE bs=8]' };
    expect(countSteps({ kernels: [gemv], timeline: { phaseRanges: ranges } })).toMatchObject({ steps: 12, basis: 'decode-ranges' });
    expect(countSteps({ kernels: [gemv], timeline: { phaseRanges: { ...ranges, prefill: 1 } } }).steps).toBeNull();
  });

  it('a once-per-step kernel counts per device: 2 devices × 64 argmax launches are 64 steps', () => {
    // An nsys kernel summary has no timeline: only the kernel launches can count.
    expect(countSteps({ kernels: [argmax(64, 0), argmax(64, 1)], timeline: null })).toMatchObject({ steps: 64, basis: 'once-per-step-kernel', devices: 1 });
    expect(countSteps({ kernels: [argmax(32)], timeline: null }).text).toBe('32 launches of the sampling kernel reduce_kernel');
  });

  it.each([
    // A C++ decode engine's greedy sampler in an anonymous namespace, as nsys spells it.
    ['void mini_vllm::cuda::<unnamed>::argmax_kernel(const float *, int *, int)', 'argmax_kernel'],
    ['void mini_vllm::cuda::(anonymous namespace)::argmax_kernel(const float *, int *, int)', 'argmax_kernel'],
  ])('names the sampling kernel, not its anonymous namespace\'s parent: %s', (name, shown) => {
    const count = countSteps({ kernels: [{ name, family: 'sampling', instances: 16 }], timeline: null });
    expect(count.text).toBe(`16 launches of the sampling kernel ${shown}`);
  });

  it('no evidence: steps unknown, and the text says what was looked for', () => {
    const count = countSteps({ kernels: [gemv, argmax(1)], timeline: { steps: profilerSteps(1), graphLaunches: 1, kernelLaunches: 0, devices: 1 } });
    expect(count).toMatchObject({ steps: null, basis: null });
    expect(count.text).toMatch(/^no step evidence in the capture/);
  });
});

describe("MAX's own figure on max generate --profile output", () => {
  // A fixture built from MAX's documented format (fixtures/max/PROVENANCE.md): its call counts are invented, so the
  // sampling kernel's 21 calls disagree with the 100 output tokens: the kernel table's own count decides, MAX's is named.
  it('names the 100 output tokens of generate_profile_gemv.txt (its "Output size: 100") beside the kernel table\'s count', async () => {
    const { analyze } = await import('../../src/pipeline/analyze.js');
    const { join } = await import('node:path');
    const report = await analyze({ inputs: [join(import.meta.dirname, '..', 'fixtures', 'max', 'generate_profile_gemv.txt')] });
    expect(report.stepCount).toMatchObject({ steps: 21, basis: 'once-per-step-kernel' });
    expect(report.stepCount!.text).toMatch(/^21 launches of the sampling kernel topk_softmax_sample\w*; MAX's own figure: 100 output tokens .* is refused: the window's own evidence gives 21$/);
  });
});
