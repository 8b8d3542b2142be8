/**
 * Decode redoes the prompt every step: a missing or unused KV cache turns generation into O(n²).
 * Nothing fires without evidence that the window holds decode steps (decode-steps.ts): a prefill
 * step, a single forward pass, a diffusion or encoder step are prefill-shaped too. With decode
 * steps, two things must hold: a prefill-shaped linear mix, and decode that costs what a prompt
 * costs. The second is confirmed by matmul inputs that grow a token each step (recorded shapes),
 * by each output token being about as slow as the first one, by GPU work per step growing with
 * position, or by the launch counts of a known number of steps: prefill-shaped GEMMs launched in
 * every step, more per step than decode-shaped ones (a cache runs them in one forward only); then
 * it is an error that leads the findings (a correctness bug, whatever else limits the run). Decode
 * steps with the mix but nothing confirming it are a warning that says what would.
 * Shapes come from evidence (the family table uses recorded shapes where the capture has them);
 * a GEMM tile named in a kernel is a weak hint only: cuBLASLt runs an FP8 GEMM of 16 rows on a
 * 128×128 tile.
 */
import { tileHint } from '../../classify/families.js';
import { LINEAR_FAMILIES } from '../../model/family-ids.js';
import { mean } from '../../model/averages.js';
import type { Profile } from '../../model/profile.js';
import { decodeSteps, profilerStepGrowth, shapeText, stepsWithoutForwards } from '../decode-steps.js';
import { defineRule } from '../rule.js';
import { batchSize, familyTotals, metricValue, percent, round } from '../profile-measures.js';
import { countSteps } from '../step-count.js';

/**
 * Prefill-shaped GEMMs launched in every step of a known step count: per step at least
 * `PER_STEP_MARGIN` times the decode-shaped launches of a decode step. With a KV cache the prompt's
 * GEMMs run in one forward, so per step they are about 1/steps of the decode-shaped ones.
 */
const PER_STEP_MARGIN = 2;

interface EveryStep {
  steps: number;
  prefillPerStep: number;
  decodePerStep: number;
}

function prefillEveryStep(profile: Profile, prefillLaunches: number, decodeLaunches: number, minSteps: number): EveryStep | undefined {
  const { steps } = countSteps(profile);
  if (steps === null || steps < Math.max(minSteps, 2)) return undefined;
  const prefillPerStep = prefillLaunches / steps;
  const decodePerStep = decodeLaunches / (steps - 1);
  if (prefillPerStep < 1 || prefillPerStep < PER_STEP_MARGIN * decodePerStep) return undefined;
  return { steps, prefillPerStep, decodePerStep };
}

/** A decode token costing at least this fraction of the time to first token is prefill-priced. */
const TPOT_OF_TTFT = 0.5;
/** Below this fraction decode is clearly priced like decode: the throughput contradicts re-prefill. */
const TPOT_OF_TTFT_DECODE = 0.2;

/**
 * GPU work late in the run over GPU work early in it (first step or decile skipped: it holds the
 * prompt). Read only once decode steps are known: tenths of one forward pass vary as much.
 */
function stepGrowth(profile: Profile): number | undefined {
  if ((profile.timeline?.steps.length ?? 0) >= 5) return profilerStepGrowth(profile);
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
      'The window holds decode steps and prefill-shaped GEMMs dominate them: the KV cache may be missing or unused, so each step recomputes the whole sequence; an error when inputs that grow a token each step, prompt-priced tokens or growing step work confirm it.',
    defaults: { minPrefillShare: 0.5, minPrefillLaunchShare: 0.3, minStepGrowth: 1.5, minDecodeSteps: 3 },
    units: { minPrefillShare: 'fraction', minPrefillLaunchShare: 'fraction', minStepGrowth: 'ratio', minDecodeSteps: 'count' },
  },
  check({ profile, options }) {
    // No decode step in the window: nothing can be re-run, whatever the GEMMs look like.
    const decode = decodeSteps(profile, options);
    if (decode.signals.length === 0) return [];
    // Recorded shapes that feed one token per sequence: the cache is used, whatever the batch makes of the GEMMs.
    if (decode.oneTokenInputs) return [];
    // The steps' own GEMMs are not in the table (graph-level-trace says so): the GEMMs it holds are the prompt's.
    if (stepsWithoutForwards(profile)) return [];
    const growing = decode.growing;

    const linear = familyTotals(profile, LINEAR_FAMILIES);
    const prefill = prefillMix(profile);
    const decodeGemms = familyTotals(profile, ['gemv', 'gemm-decode']);
    if (linear.ns === 0 || prefill.instances === 0) return [];
    const prefillShare = prefill.ns / linear.ns;
    const launchShare = prefill.instances / (prefill.instances + decodeGemms.instances);
    if (prefillShare < options.minPrefillShare || launchShare < options.minPrefillLaunchShare) return [];

    const growth = stepGrowth(profile);
    const grows = growth !== undefined && growth >= options.minStepGrowth;
    const batch = batchSize(profile);
    // A batched decode legitimately runs multi-row GEMMs every step; then only growth can tell.
    if (batch !== undefined && batch > 1 && !grows && !growing) return [];

    const fromHintsOnly = prefill.hintNs / prefill.ns > 0.5;
    // Launch counts confirm only where the shapes are evidence, not tile names.
    const everyStep = fromHintsOnly || (batch !== undefined && batch > 1) ? undefined : prefillEveryStep(profile, prefill.instances, decodeGemms.instances, options.minDecodeSteps);
    const ttft = metricValue(profile, 'ttft_ms');
    const tpot = metricValue(profile, 'tpot_ms');
    const tokenPricedLikePrompt = ttft !== undefined && tpot !== undefined && ttft > 0 && tpot / ttft >= TPOT_OF_TTFT;
    if (ttft !== undefined && tpot !== undefined && ttft > 0 && tpot / ttft < TPOT_OF_TTFT_DECODE && !grows && !growing) return [];
    const confirmed = growing !== undefined || everyStep !== undefined || ((tokenPricedLikePrompt || grows) && (!fromHintsOnly || grows));
    const outputTokens = metricValue(profile, 'output_tokens');
    const decodeTokS = metricValue(profile, 'decode_tok_s');
    const evidence = {
      decodeEvidence: decode.signals.join('+'),
      prefillShare: round(prefillShare),
      prefillLaunchShare: round(launchShare),
      prefillLaunches: prefill.instances,
      decodeLaunches: decodeGemms.instances,
      shapeFrom: fromHintsOnly ? 'tile-names' : 'shapes',
      confirmed,
      ...(growing
        ? { growingOp: growing.op, inputsFirst: shapeText(growing.first), inputsLast: shapeText(growing.last), growingSteps: growing.steps, rowsPerStep: growing.growth }
        : {}),
      ...(decode.samplingLaunches > 0 ? { samplingLaunches: decode.samplingLaunches } : {}),
      ...(everyStep ? { steps: everyStep.steps, prefillLaunchesPerStep: round(everyStep.prefillPerStep, 2), decodeLaunchesPerStep: round(everyStep.decodePerStep, 2) } : {}),
      ...(growth !== undefined ? { stepGrowth: round(growth, 3) } : {}),
      ...(ttft !== undefined && tpot !== undefined && ttft > 0 ? { tpotOverTtft: round(tpot / ttft, 3) } : {}),
      ...(outputTokens !== undefined ? { outputTokens } : {}),
      ...(decodeTokS !== undefined ? { decodeTokS } : {}),
    };
    const fix =
      'Make decode read the KV cache and feed only the new token: transformers: do not pass use_cache=False (and return past_key_values from a custom forward); MAX custom architecture: wire the KV-cache inputs into attention and let decode steps take one token per sequence.';
    const mix = `prefill-shaped GEMMs are ${percent(prefillShare)} of linear-layer time and ${percent(launchShare)} of GEMM launches${fromHintsOnly && !growing ? ' (shapes read from tile names, a weak hint)' : ''}`;
    if (!confirmed) {
      return [
        {
          severity: 'warning',
          message: `Decode steps (${decode.text}) run prefill-shaped work: ${mix}. Decode may be recomputing the sequence each step; neither input shapes nor throughput confirm it.`,
          evidence,
          advice: `To confirm, time two generation lengths: with a working KV cache per-token time stays flat as max-new-tokens grows, and time per output token stays far below time to first token (report ttft_ms and tpot_ms), or profile with record_shapes=True: without a cache the linear inputs grow by a token every step. If it is re-prefill: ${fix}`,
        },
      ];
    }
    const why = growing
      ? `${growing.op} inputs grow ${shapeText(growing.first)} → ${shapeText(growing.last)} over ${growing.steps} steps (${growing.first.length > 1 && growing.growth === 1 ? 'a token more per sequence' : `${growing.growth} rows more`} each step: the whole sequence is fed again)`
      : grows
        ? `GPU work per step grows ${round(growth!, 2)}× over the run`
        : everyStep
          ? `prefill-shaped GEMMs run in every one of the ${everyStep.steps} steps (${round(everyStep.prefillPerStep, 1)} launches per step, against ${round(everyStep.decodePerStep, 1)} decode-shaped per decode step; a cache runs them in one forward only)`
          : `each output token takes ${round((tpot! / ttft!) * 100, 1)}% of the time to first token`;
    return [
      {
        headline: true,
        message: `Each decode step recomputes the whole sequence (O(n²)): ${why}, and ${mix}.`,
        evidence,
        advice: `${fix} Confirm the fix by timing two generation lengths: per-token time must stay flat as max-new-tokens grows.`,
      },
    ];
  },
});
