/** MoE routing and token gather/scatter rival the expert matmuls they serve. */
import { defineRule } from '../rule.js';
import { kernelProfileCommand, moeMix, percent, round } from '../profile-measures.js';

export default defineRule({
  meta: {
    id: 'moe-routing-heavy',
    severity: 'warning',
    title: 'MoE routing and gathers rival the expert matmuls',
    stage: 'kernels',
    needs: ['kernel-breakdown'],
    description: 'Top-k routing plus gather/scatter/index kernels take at least the configured fraction of the matmul time.',
    defaults: { minMoeShare: 0.01, minRoutingPerSamplingLaunch: 4, maxRoutingRatio: 0.5, workload: '<workload command>' },
    units: { minMoeShare: 'fraction', minRoutingPerSamplingLaunch: 'ratio', maxRoutingRatio: 'ratio' },
  },
  check({ profile, options }) {
    const mix = moeMix(profile, options);
    if (!mix.isMoe || mix.routingRatio < options.maxRoutingRatio) return [];
    const heaviest = profile.kernels.find((k) => k.family === 'moe-routing' || k.family === 'gather-scatter');
    return [
      {
        message: `Routing and gather/scatter take ${percent(mix.routingRatio)} of the matmul time (routing ${percent(mix.routingShare)}, gather/scatter ${percent(mix.gatherShare)} of all kernel time).`,
        evidence: {
          routingRatio: round(mix.routingRatio),
          routingShare: round(mix.routingShare),
          gatherShare: round(mix.gatherShare),
          moeGemmShare: round(mix.moeGemmShare),
          routingLaunches: mix.routingLaunches,
        },
        advice:
          'Dispatch tokens to experts once per layer instead of gathering per expert: a fused MoE path (MAX grouped_matmul with moe_create_indices, vLLM/SGLang fused_moe, torch._grouped_mm) sorts tokens by expert and runs one grouped matmul. Then profile the heaviest routing kernel:',
        ...(heaviest ? { command: kernelProfileCommand(profile, heaviest.name, heaviest.instances, options.workload), kernel: heaviest.name } : {}),
      },
    ];
  },
});
