/** The kernel mix of a healthy MoE decode: expert matmuls dominate, routing and gathers stay small. */
import { defineRule } from '../rule.js';
import { moeMix, percent, round } from '../profile-measures.js';

export default defineRule({
  meta: {
    id: 'healthy-moe-decode',
    severity: 'info',
    title: 'Healthy MoE decode kernel mix',
    stage: 'kernels',
    claim: 'healthy',
    needs: ['kernel-breakdown'],
    description: 'MoE kernels (grouped matmuls, top-k routing) are present and routing plus gather/scatter stay well below the matmul time.',
    defaults: { minMoeShare: 0.01, minRoutingPerSamplingLaunch: 4, maxRoutingRatio: 0.5 },
    units: { minMoeShare: 'fraction', minRoutingPerSamplingLaunch: 'ratio', maxRoutingRatio: 'ratio' },
  },
  check({ profile, options }) {
    const mix = moeMix(profile, options);
    if (!mix.isMoe || mix.routingRatio >= options.maxRoutingRatio) return [];
    return [
      {
        message: `Healthy MoE mix: routing and gather/scatter take ${percent(mix.routingRatio)} of the matmul time.`,
        evidence: {
          routingRatio: round(mix.routingRatio),
          moeGemmShare: round(mix.moeGemmShare),
          routingShare: round(mix.routingShare),
          gatherShare: round(mix.gatherShare),
        },
        advice: 'The MoE kernel mix is in proportion; expert matmuls are where time goes. On several GPUs, check expert-parallel dispatch/combine (collective family) next.',
      },
    ];
  },
});
