import type { GateInput } from '../../src/compare/gate.js';

/** One side of a comparison with decode tok/s runs only (an H200's), plus whatever the test adds. */
export function decodeSide(tokS: readonly number[], extra: Partial<GateInput> = {}): GateInput {
  const sorted = [...tokS].sort((a, b) => a - b);
  return {
    metrics: [{ name: 'decode_tok_s', unit: 'tok/s', direction: 'higher', samples: tokS, value: sorted[sorted.length >> 1]! }],
    kernels: [],
    families: [],
    findings: [],
    utilization: null,
    environment: { gpuName: 'NVIDIA H200' },
    ...extra,
  };
}
