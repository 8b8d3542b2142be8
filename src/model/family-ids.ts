/**
 * The kernel families: the built-in ids (a closed type, so a misspelt id fails to compile), each
 * with a label and the coarse group the dashboard stacks by; and the ids of user families, which a
 * family config (classify/user-families.ts) may add and the model carries as they are.
 */

/** The built-in families, with a label and the coarse group the dashboard stacks by. */
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

/**
 * A family a user's config named that is not built in (`my-fused-moe`). At run time a plain string;
 * typed as a pattern no literal in the code can match, so comparing a family with a misspelt
 * built-in id (`k.family === 'atention-fused'`) fails to compile, as it would with a branded
 * `string & {…}` not (a brand still compares with any literal). Made only by userFamilyId().
 */
export type UserFamilyId = `${string}\u0000user-family`;

/** The family of a kernel: a built-in id or a user family. */
export type KernelFamily = FamilyId | UserFamilyId;

const BUILT_IN: ReadonlySet<string> = new Set(FAMILY_IDS);

export function isBuiltInFamily(id: string): id is FamilyId {
  return BUILT_IN.has(id);
}

/** A user family's id, once its config was checked (or a stored report's, as the report says it). */
export function userFamilyId(id: string): UserFamilyId {
  return id as UserFamilyId;
}

/** A family id read from a stored report or capture: built in, or a user family's. */
export function kernelFamily(id: string): KernelFamily {
  return isBuiltInFamily(id) ? id : userFamilyId(id);
}

/** What a reader sees for a family: the built-in label, or a user family's own id. */
export function familyLabel(family: string): string {
  return isBuiltInFamily(family) ? FAMILY_INFO[family].label : family;
}
