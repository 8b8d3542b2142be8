import rule from '../../../src/diagnose/rules/re-prefill.js';
import type { Step } from '../../../src/model/capture.js';
import { K } from '../../helpers/profile-builder.js';
import { testRule } from '../../helpers/rule-tester.js';

const steps = (...busyMs: number[]): Step[] => busyMs.map((b, i) => ({ name: `step${i}`, startNs: i * 1e8, durNs: 1e8, gpuBusyNs: b * 1e6, kernels: 500 }));
// Family split of transformers use_cache=False on the H200 (Kineto, % of kernel time):
// wide-tile nvjet 31.7 (2560 launches), decode-shaped 9.3 (1024 launches). A wide tile is no shape:
// these cases give the wide-tile GEMMs the prompt's token count, as record_shapes would.
const PROMPT_TOKENS = 512;
const hfNoCache = [[K.prefillGemm, 20, 1500, PROMPT_TOKENS], [K.prefillGemm2, 11.7, 1060, PROMPT_TOKENS], [K.decodeGemm, 9.3, 1024], [K.copy, 59, 9000]] as const;
const maxBatched = [[K.maxMatmul, 80, 3200], [K.maxMha, 10, 800], [K.maxRmsNorm, 10, 1600]] as const;

testRule(rule, {
  passing: [
    // transformers with KV cache: prefill-shaped 1.2% (80 launches), decode-shaped 44.5% (3504).
    { name: 'KV cache in use', profile: { kernels: [[K.prefillGemm, 1.2, 80], [K.decodeGemm, 44.5, 3504], [K.copy, 54.3, 9000]] } },
    { name: 'shape unknown (Ampere tiles)', profile: { kernels: [[K.ampereGemm, 90, 13000], [K.flash, 2, 3300], [K.copy, 8, 3000]] } },
    { name: 'a prefill-only workload', profile: { kernels: hfNoCache, metrics: { output_tokens: 1 } } },
    {
      // A healthy decode: each output token costs 5% of the time to first token.
      name: 'prefill-shaped mix but tokens far cheaper than the prompt, no growth',
      profile: { kernels: maxBatched, metrics: { ttft_ms: 120, tpot_ms: 6 }, timeline: { spanNs: 1e9, busyNs: 9e8, kernelLaunches: 5600, steps: steps(30, 20, 20, 20, 20, 20) } },
    },
    { name: 'batched decode without growth', profile: { kernels: maxBatched, environment: { batch: '32' }, timeline: { spanNs: 1e9, busyNs: 9e8, kernelLaunches: 5600, steps: steps(30, 20, 20, 20, 20, 20) } } },
  ],
  failing: [
    {
      // The mix alone, with a tok/s that cannot say whether decode is priced like a prompt: a warning.
      name: 'transformers use_cache=False, throughput unconfirmed',
      profile: { kernels: hfNoCache, metrics: { output_tokens: 32, decode_tok_s: 16.4 } },
      hits: [{ severity: 'warning', evidence: { prefillShare: 0.7732, prefillLaunchShare: 0.7143, prefillLaunches: 2560, decodeLaunches: 1024, outputTokens: 32, decodeTokS: 16.4, confirmed: false } }],
    },
    {
      // Each output token costs 80% of the time to first token: decode is priced like a prompt.
      name: 'the same mix with time per output token close to time to first token',
      profile: { kernels: hfNoCache, metrics: { output_tokens: 32, ttft_ms: 61, tpot_ms: 48.8 } },
      hits: [{ severity: 'error', evidence: { tpotOverTtft: 0.8, confirmed: true, prefillShare: 0.7732 } }],
    },
    {
      name: 'MAX custom architecture without KV cache: matmul instead of gemv, work growing',
      profile: { kernels: maxBatched, timeline: { spanNs: 1e9, busyNs: 9e8, kernelLaunches: 5600, busyByDecile: [5, 6, 7, 8, 9, 10, 11, 12, 13, 14] } },
      hits: [{ severity: 'error', evidence: { prefillShare: 1, prefillLaunchShare: 1, decodeLaunches: 0, stepGrowth: 1.8571, confirmed: true, shapeFrom: 'shapes' } }],
    },
    {
      name: 'batched decode whose steps grow',
      profile: { kernels: maxBatched, environment: { batch: '8' }, timeline: { spanNs: 1e9, busyNs: 9e8, kernelLaunches: 5600, steps: steps(50, 10, 12, 14, 20, 24) } },
      hits: [{ evidence: { stepGrowth: 2.4, prefillShare: 1 } }],
    },
    {
      name: 'a lower share bar',
      profile: { kernels: [[K.prefillGemm, 20, 1000, PROMPT_TOKENS], [K.decodeGemm, 30, 1000], [K.copy, 50, 3000]] },
      options: { minPrefillShare: 0.3 },
      hits: [{ severity: 'warning', evidence: { prefillShare: 0.4, prefillLaunchShare: 0.5, confirmed: false } }],
    },
  ],
});
