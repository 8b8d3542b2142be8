import rule from '../../../src/diagnose/rules/unfused-norm-rope.js';
import { K } from '../../helpers/profile-builder.js';
import { testRule } from '../../helpers/rule-tester.js';

// transformers Llama decode on the H200 (Kineto, % of kernel time): MeanOps 4.3, rsqrt 2.1, pow 1.8, neg 3.0.
const hfDense = [[K.meanReduce, 4.3, 1056], [K.rsqrt, 2.1, 1056], [K.pow, 1.8, 1056], [K.neg, 3.0, 1024], [K.decodeGemm, 44.5, 3504], [K.sdpa, 3.9, 496], [K.mul, 40.4, 4000]] as const;

testRule(rule, {
  passing: [
    { name: 'fused layer norm (H200 GPU-bound decode)', profile: { kernels: [[K.decodeGemm, 61.6, 1040], [K.layerNorm, 7.3, 528], [K.sdpa, 4.6, 256], [K.copy, 26.5, 1500]] } },
    { name: 'vLLM fused rms_norm and rotary', profile: { kernels: [[K.ampereGemm, 90, 13000], [K.rmsNormVllm, 1.8, 6739], [K.rotaryVllm, 1.1, 3370], [K.copy, 7.1, 3000]] } },
    { name: 'a mean without rsqrt (pooling)', profile: { kernels: [[K.decodeGemm, 80, 1000], [K.meanReduce, 5, 100], [K.copy, 15, 100]] } },
    { name: 'norm pieces below the floor', profile: { kernels: [[K.decodeGemm, 99, 1000], [K.meanReduce, 0.4, 100], [K.rsqrt, 0.3, 100]] } },
  ],
  failing: [
    {
      name: 'transformers eager RMSNorm and rotate_half',
      profile: { kernels: hfDense },
      hits: [
        { evidence: { part: 'norm', piecesShare: 0.082, meanReduceLaunches: 1056, rsqrtLaunches: 1056, normKernelLaunches: 0 } },
        { evidence: { part: 'rope', piecesShare: 0.03, negLaunches: 1024, ropeKernelLaunches: 0 } },
      ],
    },
    {
      name: 'norm unfused, rope fused',
      profile: { kernels: [[K.meanReduce, 4, 1000], [K.rsqrt, 2, 1000], [K.rotaryVllm, 1, 500], [K.neg, 1, 10], [K.ampereGemm, 92, 7000]] },
      hits: [{ evidence: { part: 'norm', piecesShare: 0.06 } }],
    },
    {
      name: 'rope unfused, norm fused',
      profile: { kernels: [[K.layerNorm, 5, 528], [K.neg, 2, 1024], [K.decodeGemm, 93, 3000]] },
      hits: [{ evidence: { part: 'rope', piecesShare: 0.02, negLaunches: 1024 } }],
    },
    {
      name: 'a higher floor keeps only the larger chain',
      profile: { kernels: hfDense },
      options: { minPiecesShare: 0.05 },
      hits: [{ evidence: { part: 'norm', piecesShare: 0.082 } }],
    },
  ],
});
