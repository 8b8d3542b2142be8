import rule from '../../../src/diagnose/rules/moe-routing-heavy.js';
import { K } from '../../helpers/profile-builder.js';
import { testRule } from '../../helpers/rule-tester.js';

const maxMoe = { kernels: [[K.maxGroupedMatmul, 50, 1000], [K.maxMoeIndices, 3, 1000], [K.maxGemv, 20, 2000], [K.maxMha, 5, 500]] } as const;

testRule(rule, {
  passing: [
    { name: 'MAX MoE decode in proportion', profile: maxMoe },
    { name: 'dense model with gathers (embedding, static cache index_copy)', profile: { kernels: [[K.decodeGemm, 30, 2000], [K.gather, 20, 2000], [K.sdpa, 5, 500]] } },
  ],
  failing: [
    {
      // Family split of the transformers Mixtral-style decode on the H200 (Kineto, ms).
      name: 'transformers MoE: per-expert gathers',
      profile: { kernels: [[K.decodeGemm, 27, 1792], [K.maxGroupedMatmul, 1.3, 16], [K.gatherTopK, 6.4, 500], [K.gather, 12.9, 513], [K.argmax, 0.8, 32], [K.copy, 40, 5000], [K.sdpa, 2.8, 256]] },
      hits: [
        {
          severity: 'warning',
          evidence: { routingRatio: 0.682, routingShare: 0.0702, gatherShare: 0.1414, moeGemmShare: 0.0143, routingLaunches: 500 },
          command: /--kernel-name regex:'at::native::vectorized_gather_kernel' --kernel-name-base demangled --launch-skip 256 /,
          kernel: K.gather,
        },
      ],
    },
    {
      name: 'a strict ratio flags even a proportionate mix',
      profile: maxMoe,
      options: { maxRoutingRatio: 0.02 },
      hits: [{ evidence: { routingRatio: 0.0429, routingShare: 0.0385 }, kernel: K.maxMoeIndices }],
    },
  ],
});
