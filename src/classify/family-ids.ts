/** The kernel families, with a label and the coarse group the dashboard stacks by. */
export const FAMILY_INFO = {
  gemv: { label: 'GEMV (decode linear)', group: 'linear' },
  'gemm-decode': { label: 'GEMM, decode-shaped', group: 'linear' },
  'gemm-prefill': { label: 'GEMM, prefill-shaped', group: 'linear' },
  gemm: { label: 'GEMM, shape unknown', group: 'linear' },
  'attention-fused': { label: 'Fused attention', group: 'attention' },
  'attention-softmax': { label: 'Softmax (unfused attention)', group: 'attention' },
  'attention-bmm': { label: 'Batched matmul (QK/PV)', group: 'attention' },
  'kv-cache': { label: 'KV-cache write / layout', group: 'attention' },
  norm: { label: 'Normalization', group: 'norm-rope' },
  rope: { label: 'Rotary embedding', group: 'norm-rope' },
  'moe-gemm': { label: 'MoE grouped matmul', group: 'moe' },
  'moe-routing': { label: 'MoE routing / top-k', group: 'moe' },
  'gather-scatter': { label: 'Gather / scatter / index', group: 'moe' },
  quantize: { label: 'Quantize / scale layout', group: 'low-bit' },
  'lowbit-gemm': { label: 'Block-scaled / fp8 / fp4 matmul', group: 'low-bit' },
  collective: { label: 'Collectives (NCCL, all-reduce, EP)', group: 'comm' },
  memcpy: { label: 'Memcpy', group: 'memory' },
  memset: { label: 'Memset', group: 'memory' },
  copy: { label: 'Copy / layout', group: 'memory' },
  conv: { label: 'Convolution', group: 'conv' },
  elementwise: { label: 'Elementwise', group: 'elementwise' },
  reduce: { label: 'Reductions', group: 'elementwise' },
  sampling: { label: 'Sampling', group: 'sampling' },
  other: { label: 'Other', group: 'other' },
} as const satisfies Record<string, { label: string; group: string }>;

export type FamilyId = keyof typeof FAMILY_INFO;
export const FAMILY_IDS = Object.keys(FAMILY_INFO) as FamilyId[];

/** The families that do the model's linear layers (dense, decode or prefill shaped, low-bit, MoE experts). */
export const LINEAR_FAMILIES: readonly FamilyId[] = ['gemv', 'gemm-decode', 'gemm-prefill', 'gemm', 'lowbit-gemm', 'moe-gemm'];
