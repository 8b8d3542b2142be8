import rule from '../../../src/diagnose/rules/copy-heavy.js';
import { K } from '../../helpers/profile-builder.js';
import { runRule, testRule } from '../../helpers/rule-tester.js';

// Real names and shares: the H200 GQA decode that repeats its cache's KV heads every step
// (fixtures/h200-stacks/repeat_kv, nsys): the direct copy 57.5 % of 70.3 ms, cuDNN SDPA 13.7 %, nvjet GEMVs.
const directCopy =
  'void at::native::elementwise_kernel<(int)128, (int)4, void at::native::gpu_kernel_impl_nocast<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase &)::[lambda() (instance 3)]::operator ()() const::[lambda() (instance 12)]::operator ()() const::[lambda(c10::BFloat16) (instance 1)]>(at::TensorIteratorBase &, const T1 &)::[lambda(int) (instance 1)]>(int, T3)';
const catCopy =
  'void at::native::<unnamed>::CatArrayBatchedCopy_vectorized<at::native::<unnamed>::OpaqueType<(unsigned int)2>, unsigned int, (int)3, (int)128, (int)1, (int)16, (int)8>(char *, at::native::<unnamed>::CatArrInputTensorMetadata<T1, T2, T4, T5>, at::native::<unnamed>::TensorSizeStride<T2, (unsigned int)4>, int, T2)';
const repeatKv = [[directCopy, 40.4, 256], [K.sdpa, 9.6, 128], ['nvjet_sm90_tst_256x8_64x6_4x1_v_bz_TNT', 5.76, 128], [K.layerNorm, 14.5, 1000]] as const;

testRule(rule, {
  passing: [
    // The healthy GQA decode (native GQA): copies are the KV-cache writes, a few percent.
    { name: 'a healthy decode with small copies', profile: { kernels: [[K.decodeGemm, 80, 3000], [K.sdpa, 10, 500], [directCopy, 3, 500]] } },
    { name: 'copies just under the bar', profile: { kernels: [[K.decodeGemm, 76, 3000], [directCopy, 24, 500]] } },
    // transformers eager attention on the H200 (Kineto): 18.8 % in copies, spread over casts (6.1 %),
    // reshape copies (4.2 %) and the cat of a growing cache (5.6 %): diffuse, and the run is host-bound.
    {
      name: 'diffuse copies of a small eager model',
      profile: { kernels: [[K.decodeGemm, 40, 3000], [K.copy, 6.1, 1632], [directCopy, 4.2, 1040], [catCopy, 5.6, 2048], [K.layerNorm, 44.1, 3000]] },
    },
    // An Nsight Compute deep dive of the copy kernel alone is not a breakdown of the run.
    { name: 'a deep dive of the copy kernel alone', profile: { format: 'ncu-csv', kernels: [[directCopy, 0.16, 1]] } },
  ],
  failing: [
    {
      name: 'KV heads repeated every step, no attribution in the capture (CUDA-graph replay)',
      profile: { kernels: repeatKv },
      hits: [{ severity: 'warning', evidence: { copyShare: 0.5746, topCopyLaunches: 256, attributed: false, pattern: 'strided copies (.contiguous(), reshape of a transposed or expanded view)' }, kernel: directCopy }],
    },
    {
      name: 'the same copy, attributed to repeat_interleave by the trace',
      profile: { kernels: repeatKv, launchedBy: { [directCopy]: 'aten::repeat_interleave > aten::clone > aten::copy_' } },
      hits: [{ evidence: { attributed: true, launchedBy: 'aten::repeat_interleave > aten::clone > aten::copy_', pattern: 'KV heads repeated (repeat_interleave / repeat_kv)' } }],
    },
    {
      name: 'the same copy with Python stacks: the line of the workload is named as well',
      profile: {
        kernels: repeatKv,
        launchedBy: { [directCopy]: 'aten::repeat_interleave > aten::clone > aten::copy_' },
        pythonSites: { [directCopy]: [{ function: 'sdpa', file: 'llama_decode.py', line: 142, share: 1 }] },
      },
      hits: [{ evidence: { attributed: true, pythonSite: 'sdpa (llama_decode.py:142)', pythonSiteShare: 1, pattern: 'KV heads repeated (repeat_interleave / repeat_kv)' } }],
    },
    {
      name: 'a replayed copy whose graph launch has a Python line is still unattributed to an op',
      profile: { kernels: repeatKv, pythonSites: { [directCopy]: [{ function: 'replay_step', file: 'serve.py', line: 30, module: 'Decoder', graphReplay: true, share: 0.8 }] } },
      hits: [{ evidence: { attributed: false, pythonSite: 'replay_step (serve.py:30, in Decoder)', pythonSiteShare: 0.8 } }],
    },
    {
      name: 'casts dominate, attributed to aten::to',
      profile: { kernels: [[K.copy, 30, 2000], [K.decodeGemm, 70, 3000]], launchedBy: { [K.copy]: 'aten::to > aten::_to_copy > aten::copy_' } },
      hits: [{ evidence: { pattern: 'dtype casts (.to())', copyShare: 0.3 } }],
    },
    {
      name: 'a KV cache grown by cat every step',
      profile: { kernels: [[catCopy, 30, 2000], [K.decodeGemm, 70, 3000]] },
      hits: [{ evidence: { copyShare: 0.3, pattern: 'concatenation (cat)' } }],
    },
    {
      name: 'a lower bar',
      profile: { kernels: [[K.decodeGemm, 90, 3000], [directCopy, 10, 500]] },
      options: { minCopyShare: 0.1 },
      hits: [{ evidence: { copyShare: 0.1, copyLaunches: 500 } }],
    },
  ],
});

describe('copy-heavy: the advice to profile eagerly', () => {
  const site = { function: 'sdpa', file: 'llama_decode.py', line: 152, share: 1 };
  const advice = (pythonSite: object) => runRule(rule, { name: 'advice', profile: { kernels: repeatKv, pythonSites: { [directCopy]: [{ ...site, ...pythonSite }] } } })[0]!.advice;
  it('is given for a replay known only by its graph launch, not for one whose capture named its line', () => {
    expect(advice({ graphReplay: true })).toMatch(/does not say which op launched the kernel/);
    expect(advice({ graphReplay: true, graphCapture: true })).not.toMatch(/does not say which op launched the kernel/);
  });
});

describe('copy-heavy: the cause is a closed id in the evidence, and the advice follows the id', () => {
  const hit = (kernels: ReadonlyArray<readonly [string, number, number]>, launchedBy?: Record<string, string>) =>
    runRule(rule, { name: 'cause', profile: { kernels, ...(launchedBy ? { launchedBy } : {}) } })[0]!;
  // XLA and Inductor layout-only kernels: a transpose, and a clone no name pattern places.
  const transposeKernel = 'loop_transpose_fusion';
  const plainCopy = 'triton_poi_fused_clone_0';

  it('names each cause by id, from the launching op first and the kernel name otherwise', () => {
    expect(hit(repeatKv, { [directCopy]: 'aten::expand > aten::reshape > aten::copy_' }).evidence.cause).toBe('kv-repeat');
    expect(hit(repeatKv, { [directCopy]: 'aten::to > aten::_to_copy > aten::copy_' }).evidence.cause).toBe('dtype-cast');
    expect(hit(repeatKv).evidence.cause).toBe('strided-copy');
    expect(hit([[catCopy, 30, 2000], [K.decodeGemm, 70, 3000]]).evidence.cause).toBe('concat');
    expect(hit([[transposeKernel, 30, 2000], [K.decodeGemm, 70, 3000]]).evidence.cause).toBe('transpose');
    expect(hit([[plainCopy, 30, 2000], [K.decodeGemm, 70, 3000]]).evidence.cause).toBe('copy');
  });

  it('gives the advice of the id: repeated KV heads get native GQA, casts one dtype, the rest the general advice', () => {
    expect(hit(repeatKv, { [directCopy]: 'aten::repeat_interleave > aten::clone > aten::copy_' }).advice).toMatch(/^Stop repeating the KV heads/);
    expect(hit(repeatKv, { [directCopy]: 'aten::to > aten::_to_copy > aten::copy_' }).advice).toMatch(/^Keep activations in one dtype/);
    expect(hit([[catCopy, 30, 2000], [K.decodeGemm, 70, 3000]]).advice).toMatch(/^Find the op that makes the copy/);
  });
});
