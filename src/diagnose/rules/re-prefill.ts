/**
 * Decode redoes the prompt every step: a missing or unused KV cache turns generation into O(n²).
 * Prefill-shaped GEMMs then dominate the linear time and run at the rate decode-shaped ones would
 * (every step, not once per request). Growth of per-step work with position backs it up where a
 * timeline exists.
 */
import { LINEAR_FAMILIES } from '../../classify/family-ids.js';
import { mean, median } from '../../model/stats.js';
import type { Profile } from '../../model/profile.js';
import { defineRule } from '../rule.js';
import { batchSize, familyTotals, metricValue, percent, round } from '../signals.js';

/** GPU work late in the run over GPU work early in it (first step or decile skipped: it holds the prompt). */
function stepGrowth(profile: Profile): number | undefined {
  const steps = profile.timeline?.steps ?? [];
  if (steps.length >= 5) {
    const busy = steps.slice(1).map((s) => s.gpuBusyNs);
    const quarter = Math.max(1, Math.floor(busy.length / 4));
    const early = median(busy.slice(0, quarter));
    return early > 0 ? median(busy.slice(-quarter)) / early : undefined;
  }
  const deciles = profile.timeline?.busyByDecile ?? [];
  if (deciles.length === 10) {
    const early = mean(deciles.slice(1, 4));
    return early > 0 ? mean(deciles.slice(7)) / early : undefined;
  }
  return undefined;
}

export default defineRule({
  meta: {
    id: 're-prefill',
    severity: 'error',
    title: 'Decode re-runs prefill every step (KV cache missing)',
    stage: 'kernels',
    description: 'Prefill-shaped GEMMs dominate and run every step while tokens are generated: the KV cache is missing or unused, so each step recomputes the whole sequence.',
    defaults: { minPrefillShare: 0.5, minPrefillLaunchShare: 0.3, minStepGrowth: 1.5 },
  },
  check({ profile, options }) {
    const linear = familyTotals(profile, LINEAR_FAMILIES);
    const prefill = familyTotals(profile, ['gemm-prefill']);
    const decode = familyTotals(profile, ['gemv', 'gemm-decode']);
    if (linear.ns === 0 || prefill.instances === 0) return [];
    const prefillShare = prefill.ns / linear.ns;
    const launchShare = prefill.instances / (prefill.instances + decode.instances);
    if (prefillShare < options.minPrefillShare || launchShare < options.minPrefillLaunchShare) return [];

    const outputTokens = metricValue(profile, 'output_tokens');
    if (outputTokens !== undefined && outputTokens <= 1) return []; // a prefill-only workload
    const growth = stepGrowth(profile);
    const batch = batchSize(profile);
    // A batched decode legitimately runs multi-row GEMMs every step; then only growth can tell.
    if (batch !== undefined && batch > 1 && (growth === undefined || growth < options.minStepGrowth)) return [];

    const decodeTokS = metricValue(profile, 'decode_tok_s');
    return [
      {
        message: `Prefill-shaped GEMMs are ${percent(prefillShare)} of linear-layer time and ${percent(launchShare)} of GEMM launches: each decode step recomputes the sequence (O(n²)).`,
        evidence: {
          prefillShare: round(prefillShare),
          prefillLaunchShare: round(launchShare),
          prefillLaunches: prefill.instances,
          decodeLaunches: decode.instances,
          ...(growth !== undefined ? { stepGrowth: round(growth, 3) } : {}),
          ...(outputTokens !== undefined ? { outputTokens } : {}),
          ...(decodeTokS !== undefined ? { decodeTokS } : {}),
        },
        advice:
          'Make decode read the KV cache and feed only the new token: transformers: do not pass use_cache=False (and return past_key_values from a custom forward); MAX custom architecture: wire the KV-cache inputs into attention and let decode steps take one token per sequence. Confirm the fix by timing two generation lengths: per-token time must stay flat as max-new-tokens grows.',
      },
    ];
  },
});
