/**
 * Decode redoes the prompt every step: a missing or unused KV cache turns generation into O(n²).
 * Two things must both hold: a prefill-shaped linear mix that repeats every step, and decode that
 * costs what a prompt costs (each output token about as slow as the first one, or GPU work per step
 * growing with position). The mix alone is at most a warning that says what would confirm it.
 * Shapes come from evidence (the family table uses recorded shapes where the capture has them);
 * a GEMM tile named in a kernel is a weak hint only: cuBLASLt runs an FP8 GEMM of 16 rows on a
 * 128×128 tile.
 */
import { tileHint } from '../../classify/families.js';
import { LINEAR_FAMILIES } from '../../model/family-ids.js';
import { mean, median } from '../../model/averages.js';
import type { Profile } from '../../model/profile.js';
import { defineRule } from '../rule.js';
import { batchSize, familyTotals, metricValue, percent, round } from '../profile-measures.js';

/** A decode token costing at least this fraction of the time to first token is prefill-priced. */
const TPOT_OF_TTFT = 0.5;
/** Below this fraction decode is clearly priced like decode: the throughput contradicts re-prefill. */
const TPOT_OF_TTFT_DECODE = 0.2;

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

/** Prefill-shaped linear time: from the family table (shape evidence), and from tile names (a hint). */
function prefillMix(profile: Profile): { ns: number; instances: number; hintNs: number } {
  const strong = familyTotals(profile, ['gemm-prefill']);
  let hintNs = 0;
  let hintInstances = 0;
  for (const kernel of profile.kernels) {
    if (kernel.family === 'gemm' && tileHint(kernel.name) === 'wide') {
      hintNs += kernel.totalNs;
      hintInstances += kernel.instances;
    }
  }
  return { ns: strong.ns + hintNs, instances: strong.instances + hintInstances, hintNs };
}

export default defineRule({
  meta: {
    id: 're-prefill',
    severity: 'error',
    title: 'Decode re-runs prefill every step (KV cache missing)',
    stage: 'kernels',
    needs: ['kernel-breakdown'],
    description:
      'Prefill-shaped GEMMs dominate and run every step while tokens are generated, and decode costs what a prompt costs: the KV cache is missing or unused, so each step recomputes the whole sequence.',
    defaults: { minPrefillShare: 0.5, minPrefillLaunchShare: 0.3, minStepGrowth: 1.5 },
  },
  check({ profile, options }) {
    const linear = familyTotals(profile, LINEAR_FAMILIES);
    const prefill = prefillMix(profile);
    const decode = familyTotals(profile, ['gemv', 'gemm-decode']);
    if (linear.ns === 0 || prefill.instances === 0) return [];
    const prefillShare = prefill.ns / linear.ns;
    const launchShare = prefill.instances / (prefill.instances + decode.instances);
    if (prefillShare < options.minPrefillShare || launchShare < options.minPrefillLaunchShare) return [];

    const outputTokens = metricValue(profile, 'output_tokens');
    if (outputTokens !== undefined && outputTokens <= 1) return []; // a prefill-only workload
    const growth = stepGrowth(profile);
    const grows = growth !== undefined && growth >= options.minStepGrowth;
    const batch = batchSize(profile);
    // A batched decode legitimately runs multi-row GEMMs every step; then only growth can tell.
    if (batch !== undefined && batch > 1 && !grows) return [];

    const ttft = metricValue(profile, 'ttft_ms');
    const tpot = metricValue(profile, 'tpot_ms');
    const tokenPricedLikePrompt = ttft !== undefined && tpot !== undefined && ttft > 0 && tpot / ttft >= TPOT_OF_TTFT;
    if (ttft !== undefined && tpot !== undefined && ttft > 0 && tpot / ttft < TPOT_OF_TTFT_DECODE && !grows) return [];
    const fromHintsOnly = prefill.hintNs / prefill.ns > 0.5;
    const confirmed = (tokenPricedLikePrompt || grows) && (!fromHintsOnly || grows);
    const decodeTokS = metricValue(profile, 'decode_tok_s');
    const evidence = {
      prefillShare: round(prefillShare),
      prefillLaunchShare: round(launchShare),
      prefillLaunches: prefill.instances,
      decodeLaunches: decode.instances,
      shapeFrom: fromHintsOnly ? 'tile-names' : 'shapes',
      confirmed,
      ...(growth !== undefined ? { stepGrowth: round(growth, 3) } : {}),
      ...(ttft !== undefined && tpot !== undefined && ttft > 0 ? { tpotOverTtft: round(tpot / ttft, 3) } : {}),
      ...(outputTokens !== undefined ? { outputTokens } : {}),
      ...(decodeTokS !== undefined ? { decodeTokS } : {}),
    };
    const fix =
      'Make decode read the KV cache and feed only the new token: transformers: do not pass use_cache=False (and return past_key_values from a custom forward); MAX custom architecture: wire the KV-cache inputs into attention and let decode steps take one token per sequence.';
    if (!confirmed) {
      return [
        {
          severity: 'warning',
          message: `Prefill-shaped GEMMs are ${percent(prefillShare)} of linear-layer time and ${percent(launchShare)} of GEMM launches${fromHintsOnly ? ' (shapes read from tile names, a weak hint)' : ''}: decode may be recomputing the sequence each step. Throughput does not confirm it.`,
          evidence,
          advice: `To confirm, time two generation lengths: with a working KV cache per-token time stays flat as max-new-tokens grows, and time per output token stays far below time to first token (report ttft_ms and tpot_ms, or capture per-step ranges). If it is re-prefill: ${fix}`,
        },
      ];
    }
    return [
      {
        message: `Prefill-shaped GEMMs are ${percent(prefillShare)} of linear-layer time and ${percent(launchShare)} of GEMM launches, and ${grows ? `GPU work per step grows ${round(growth!, 2)}× over the run` : `each output token takes ${round((tpot! / ttft!) * 100, 1)}% of the time to first token`}: each decode step recomputes the sequence (O(n²)).`,
        evidence,
        advice: `${fix} Confirm the fix by timing two generation lengths: per-token time must stay flat as max-new-tokens grows.`,
      },
    ];
  },
});
