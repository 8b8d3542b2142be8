import rule from '../../../src/diagnose/rules/re-prefill.js';
import type { MatmulInputShape, Step } from '../../../src/model/capture.js';
import { K } from '../../helpers/profile-builder.js';
import { testRule } from '../../helpers/rule-tester.js';

const steps = (...busyMs: number[]): Step[] => busyMs.map((b, i) => ({ name: `step${i}`, startNs: i * 1e8, durNs: 1e8, gpuBusyNs: b * 1e6, kernels: 500 }));
/** Outermost matmul input shapes in time order, each used `ops` times within its own 10 ms. */
const inputs = (...shapes: Array<readonly [rows: readonly number[], ops: number]>): { matmulInputs: { shapes: MatmulInputShape[]; otherOps: number } } => ({
  matmulInputs: { shapes: shapes.map(([rows, ops], i) => ({ op: 'aten::linear', rows: [...rows], ops, firstNs: i * 1e7, lastNs: i * 1e7 + 9e6 })), otherOps: 0 },
});
const window = { spanNs: 2e8, busyNs: 1e8, kernelLaunches: 2600 };
// Family split of transformers use_cache=False on the H200 (Kineto, % of kernel time):
// wide-tile nvjet 31.7 (2560 launches), decode-shaped 9.3 (1024 launches). A wide tile is no shape:
// these cases give the wide-tile GEMMs the prompt's token count, as record_shapes would.
const PROMPT_TOKENS = 512;
const hfNoCache = [[K.prefillGemm, 20, 1500, PROMPT_TOKENS], [K.prefillGemm2, 11.7, 1060, PROMPT_TOKENS], [K.decodeGemm, 9.3, 1024], [K.copy, 59, 9000]] as const;
const maxBatched = [[K.maxMatmul, 80, 3200], [K.maxMha, 10, 800], [K.maxRmsNorm, 10, 1600]] as const;
// A MAX generate --profile table (no shapes) of 64 output tokens, 8 layers of 4 linears. Without a
// KV cache every forward takes MAX's multi-row matmul path: 64 × 32 = 2,048 matmul launches, the LM
// head on the last position a gemv (64). With the cache only the prompt's forward does (32), and the
// 63 decode steps run gemv (63 × 32 = 2,016, plus 64 of the head).
const maxNoCache = [[K.maxMatmul, 310, 2048], [K.maxGemv, 6, 64], [K.maxMha, 40, 512], [K.maxRmsNorm, 8, 1088]] as const;
const maxCache = [[K.maxMatmul, 5.1, 32], [K.maxGemv, 120, 2080], [K.maxMha, 6, 512], [K.maxRmsNorm, 8, 1088]] as const;
// The H200 captures of __tests__/fixtures/decode-windows (PROVENANCE.md there), kernel time in ms.
// generate(use_cache=False), batch 8, prompt 512, 12 new tokens: 12 passes of 28 linears, 8×512 … 8×523.
const nocachePasses = Array.from({ length: 12 }, (_, step) => [[8, 512 + step], 28] as const).flatMap((pass, step) => (step === 0 ? [pass, [[8, 1], 12] as const] : [pass]));
const generateNoCache = [[K.prefillGemm, 6.98, 348, 4120], [K.decodeGemm, 1.29, 12, 8], [K.argmax, 0.05, 12], [K.copy, 3.19, 446]] as const;
// The same generate with its KV cache: the prompt once, then 8×1 linears.
const generateCache = [[K.decodeGemm, 1.71, 364, 8], [K.prefillGemm, 0.56, 29, 4096], [K.argmax, 0.05, 12], [K.copy, 1.31, 564]] as const;
// One prefill forward, batch 15 × 1024 (8 layers): 57 linears of 15×1024, no sampling.
const prefillStep = [[K.prefillGemm, 16.9, 57, 15360], [K.decodeGemm, 0.01, 1, 1], [K.copy, 3.66, 57]] as const;
// One DiT denoising step, batch 2 × 1024 patch tokens: 49 linears of 2×1024, 14 adaLN linears of 2 rows.
const ditStep = [[K.prefillGemm, 1.24, 49, 2048], [K.decodeGemm, 0.105, 14, 2], [K.copy, 0.43, 30]] as const;

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
    {
      name: 'batched decode without growth',
      profile: { kernels: maxBatched, metrics: { decode_tok_s: 900 }, environment: { batch: '32' }, timeline: { spanNs: 1e9, busyNs: 9e8, kernelLaunches: 5600, steps: steps(30, 20, 20, 20, 20, 20) } },
    },
    // No decode step in the window: a prefill-shaped mix alone is no re-prefill.
    { name: 'H200 prefill-only window (batch 15 × 1024, one forward)', profile: { kernels: prefillStep, timeline: { ...window, ...inputs([[15, 1024], 57]) } } },
    {
      // GPU work per tenth of one forward pass varies 4× (the compiled forward's tenths): no decode step.
      name: 'H200 torch.compile forward, work per tenth growing',
      profile: { kernels: [[K.prefillGemm, 0.216, 28, 1024], [K.decodeGemm, 0.0025, 1, 32]], timeline: { ...window, busyByDecile: [1, 1, 1, 1, 2, 3, 4, 5, 5, 5] } },
    },
    { name: 'H200 DiT denoising step (no tokens at all)', profile: { kernels: ditStep, timeline: { ...window, ...inputs([[2], 14], [[2, 1024], 49]) } } },
    {
      name: 'SGLang extend step: ranges name prefill only, one sampling launch',
      profile: {
        kernels: [[K.prefillGemm, 420, 144, 15360], [K.argmax, 0.1, 1], [K.copy, 20, 300]],
        timeline: { ...window, phaseRanges: { decode: 0, prefill: 2, prefillName: 'step[EXTEND bs=15 toks=15360]' } },
      },
    },
    {
      // The workload decodes, but the window holds its prefill: what the window shows wins.
      name: 'a prefill window of a decoding workload (one sampling launch)',
      profile: { kernels: [...prefillStep, [K.argmax, 0.01, 1]], metrics: { decode_tok_s: 120 } },
    },
    { name: 'a prompt-length sweep is no generation', profile: { kernels: prefillStep, timeline: { ...window, ...inputs([[1, 128], 28], [[1, 256], 28], [[1, 384], 28]) } } },
    { name: 'a MAX table with its KV cache: matmul in the prompt forward only, gemv every step', profile: { kernels: maxCache, format: 'max-generate', metrics: { output_tokens: 64, ttft_ms: 20.1, tpot_ms: 2.4 } } },
    { name: 'H200 generate with its KV cache', profile: { kernels: generateCache, timeline: { ...window, ...inputs([[8, 512], 28], [[8, 1], 320]) } } },
    {
      // Batch 256 makes every decode GEMM prompt-sized (M = 256), but the inputs are one token per sequence.
      name: 'a large-batch decode with its cache, shapes recorded',
      profile: { kernels: [[K.prefillGemm, 30, 3000, 256], [K.argmax, 0.1, 100], [K.copy, 5, 900]], timeline: { ...window, ...inputs([[256, 64], 28], [[256, 1], 2800]) } },
    },
  ],
  failing: [
    {
      // The mix alone, with a tok/s that cannot say whether decode is priced like a prompt and no step count: a warning.
      name: 'transformers use_cache=False, throughput unconfirmed',
      profile: { kernels: hfNoCache, metrics: { decode_tok_s: 16.4 } },
      hits: [{ severity: 'warning', evidence: { decodeEvidence: 'decode-metrics', prefillShare: 0.7732, prefillLaunchShare: 0.7143, prefillLaunches: 2560, decodeLaunches: 1024, decodeTokS: 16.4, confirmed: false } }],
    },
    {
      // The same mix over 32 counted steps: 2,560 / 32 = 80 prefill-shaped launches per step against
      // 1,024 / 31 = 33.03 decode-shaped per decode step. A cache would run the prompt's GEMMs in one forward.
      name: 'transformers use_cache=False over 32 steps: prefill-shaped GEMMs in every step',
      profile: { kernels: hfNoCache, metrics: { output_tokens: 32, decode_tok_s: 16.4 } },
      hits: [
        {
          severity: 'error',
          evidence: { decodeEvidence: 'decode-metrics', steps: 32, prefillLaunchesPerStep: 80, decodeLaunchesPerStep: 33.03, outputTokens: 32, confirmed: true },
          message: /prefill-shaped GEMMs run in every one of the 32 steps \(80 launches per step, against 33 decode-shaped per decode step/,
        },
      ],
    },
    {
      // Each output token costs 80% of the time to first token: decode is priced like a prompt.
      name: 'the same mix with time per output token close to time to first token',
      profile: { kernels: hfNoCache, metrics: { output_tokens: 32, ttft_ms: 61, tpot_ms: 48.8 } },
      hits: [{ severity: 'error', evidence: { tpotOverTtft: 0.8, confirmed: true, prefillShare: 0.7732 } }],
    },
    {
      name: 'MAX custom architecture without KV cache: matmul instead of gemv, work growing',
      profile: { kernels: maxBatched, metrics: { decode_tok_s: 41.5 }, timeline: { spanNs: 1e9, busyNs: 9e8, kernelLaunches: 5600, busyByDecile: [5, 6, 7, 8, 9, 10, 11, 12, 13, 14] } },
      hits: [{ severity: 'error', evidence: { decodeEvidence: 'decode-metrics', prefillShare: 1, prefillLaunchShare: 1, decodeLaunches: 0, stepGrowth: 1.8571, confirmed: true, shapeFrom: 'shapes' } }],
    },
    {
      // No shapes and a throughput that cannot tell (each token 30 % of the first): the launch counts
      // decide. 2,048 / 64 = 32 matmul launches per step against 64 / 63 = 1.02 gemv per decode step.
      name: 'a MAX table without KV cache: the multi-row matmul in every one of the output tokens',
      profile: { kernels: maxNoCache, format: 'max-generate', metrics: { output_tokens: 64, ttft_ms: 30, tpot_ms: 9 } },
      hits: [
        {
          severity: 'error',
          evidence: { decodeEvidence: 'decode-metrics', prefillShare: 0.981, prefillLaunches: 2048, decodeLaunches: 64, steps: 64, prefillLaunchesPerStep: 32, decodeLaunchesPerStep: 1.02, tpotOverTtft: 0.3, confirmed: true },
          message: /prefill-shaped GEMMs run in every one of the 64 steps/,
        },
      ],
    },
    {
      name: 'batched decode whose steps grow',
      profile: { kernels: maxBatched, environment: { batch: '8' }, timeline: { spanNs: 1e9, busyNs: 9e8, kernelLaunches: 5600, steps: steps(50, 10, 12, 14, 20, 24) } },
      hits: [{ severity: 'error', evidence: { decodeEvidence: 'step-growth', stepGrowth: 2.4, prefillShare: 1, confirmed: true } }],
    },
    {
      name: 'a lower share bar',
      profile: { kernels: [[K.prefillGemm, 20, 1000, PROMPT_TOKENS], [K.decodeGemm, 30, 1000], [K.copy, 50, 3000], [K.argmax, 0.5, 32]] },
      options: { minPrefillShare: 0.3 },
      hits: [{ severity: 'warning', evidence: { decodeEvidence: 'sampling', samplingLaunches: 32, prefillShare: 0.4, prefillLaunchShare: 0.5, confirmed: false } }],
    },
    {
      // Batch 8 is no excuse: the inputs themselves show the whole sequence fed again each step.
      name: 'H200 generate(use_cache=False): linear inputs grow 8×512 → 8×523',
      profile: { kernels: generateNoCache, environment: { batch: '8' }, timeline: { ...window, ...inputs(...nocachePasses) } },
      hits: [
        {
          severity: 'error',
          evidence: { decodeEvidence: 'growing-inputs+sampling', growingOp: 'aten::linear', inputsFirst: '8×512', inputsLast: '8×523', growingSteps: 12, rowsPerStep: 1, samplingLaunches: 12, confirmed: true },
          message: /aten::linear inputs grow 8×512 → 8×523 over 12 steps/,
        },
      ],
    },
    {
      // Flattened rows (an aten::mm of [rows, hidden]) grow by the batch each step.
      name: 'flattened inputs growing by the batch each step',
      profile: { kernels: generateNoCache, timeline: { ...window, ...inputs([[4096], 28], [[4104], 28], [[4112], 28], [[4120], 28]) } },
      hits: [{ severity: 'error', evidence: { decodeEvidence: 'growing-inputs+sampling', inputsFirst: '4096', inputsLast: '4120', growingSteps: 4, rowsPerStep: 8 } }],
    },
    {
      // Too few steps to grow (minDecodeSteps 5): the 12 sampling launches still show decode steps, and
      // the 8×1 rows of the head on the last position (its most-used shape) are no cache. The launch
      // counts confirm it: 348 / 12 = 29 prefill-shaped launches per step against 12 / 11 = 1.09.
      name: 'growth shorter than the steps asked for, launches in every step',
      profile: { kernels: generateNoCache, timeline: { ...window, ...inputs([[8, 512], 28], [[8, 1], 40], [[8, 513], 28], [[8, 514], 28]) } },
      options: { minDecodeSteps: 5 },
      hits: [
        {
          severity: 'error',
          evidence: { decodeEvidence: 'sampling', samplingLaunches: 12, steps: 12, prefillLaunchesPerStep: 29, decodeLaunchesPerStep: 1.09, confirmed: true },
          message: /prefill-shaped GEMMs run in every one of the 12 steps/,
        },
      ],
    },
    {
      name: 'ranges that name decode steps',
      profile: { kernels: hfNoCache, timeline: { ...window, phaseRanges: { decode: 16, prefill: 1, decodeName: 'step[DECODE bs=1]', prefillName: 'step[EXTEND bs=1 toks=512]' } } },
      hits: [{ severity: 'warning', evidence: { decodeEvidence: 'decode-ranges', confirmed: false }, message: /16 ranges name decode/ }],
    },
  ],
});
