/**
 * Kernel → family. The table is data (families.ts); this file applies it. Names are normalized
 * first, so architecture prefixes and hash suffixes never decide a family; mangled names are read
 * demangled (demangle.ts).
 * A GEMM's shape comes from evidence when the capture has it: the token count M of the matmul op
 * that launched the kernel (`tokens`, from Kineto's record_shapes). Without it, only a narrow tile
 * in the name is a (one-sided) hint. The launch grid is not used: it depends on N and split-K too.
 */
import type { KernelStat } from '../model/capture.js';
import { CONTEXT_RULES, FAMILY_TABLE, USER_PATTERN_NAME_CHARS, type ContextRule, type FamilyRule, type UserFamilyRule } from './families.js';
import type { FamilyId, KernelFamily } from '../model/family-ids.js';
import { normalizeKernelName } from './kernel-name.js';
import { demangle } from './demangle.js';

export type Classifier = (kernel: Pick<KernelStat, 'name'> & Partial<KernelStat>) => KernelFamily;

/**
 * Token counts that decide a GEMM's shape. A bf16 GEMM with M rows of activations does about M
 * FLOPs per byte of weights read, and the GPUs we read (A100 to B200, MI300) reach their compute
 * roofline between ~150 and ~300 FLOP/byte. At M ≤ 64 the GEMM is far below it and streams weights
 * (decode); at M ≥ 256 it is at or past it (a prompt, or a batch as large as one). Between the two
 * a large decode batch and a short prompt look alike, so the shape stays unknown.
 */
export const DECODE_TOKENS_MAX = 64;
export const PREFILL_TOKENS_MIN = 256;

const DENSE_GEMM: ReadonlySet<KernelFamily> = new Set<FamilyId>(['gemm', 'gemm-decode', 'gemm-prefill']);

/**
 * An XLA program that is one matmul op dispatched on its own (JAX outside jit): every kernel in it is
 * that matmul. XLA writes a dot with one row as a multiply fusion and a reduce fusion
 * (`loop_multiply_fusion`, `input_reduce_fusion`), names that alone say elementwise and reduce. The
 * same names serve other ops too (a norm's reduce_sum), so the program must hold most of the name's time.
 */
const MATMUL_PROGRAM_MIN_SHARE = 0.8;
const XLA_MATMUL_PROGRAM = /^jit_(?:dot_general|dot|matmul|einsum|tensordot|inner|vdot)$/;
const DOT_AS_REDUCTION: ReadonlySet<KernelFamily> = new Set<FamilyId>(['reduce', 'elementwise', 'other']);

/** The shape a dense GEMM's launching op gives it (M = its token count). */
export function gemmShapeFromTokens(tokens: number): FamilyId {
  if (tokens <= DECODE_TOKENS_MAX) return 'gemm-decode';
  if (tokens >= PREFILL_TOKENS_MIN) return 'gemm-prefill';
  return 'gemm';
}

/** The family of one name under the given rules, or `other`. */
export function classifyName(name: string, rules: readonly (FamilyRule | UserFamilyRule)[] = FAMILY_TABLE, users?: ReadonlySet<FamilyRule | UserFamilyRule>): KernelFamily {
  // Mangled names (`_ZN7cutlass13device_kernelI…`) are read demangled, as the other tools print them.
  const readable = name.trimStart().startsWith('_Z') ? (demangle(name.trim()) ?? name) : name;
  const normalized = normalizeKernelName(readable);
  const head = normalized.length > USER_PATTERN_NAME_CHARS ? normalized.slice(0, USER_PATTERN_NAME_CHARS) : normalized;
  const rule = rules.find((candidate) => candidate.pattern.test(users?.has(candidate) ? head : normalized));
  if (!rule) return 'other';
  return 'shape' in rule && rule.shape ? rule.shape(normalized) : rule.family;
}

/**
 * User rules come first, so a team can claim its own kernels. `checkBudget` is called before each
 * name not seen yet (the analyze time budget: it throws once the budget is spent), since user
 * patterns run synchronously and no timer can stop them.
 */
export function createClassifier(userRules: readonly UserFamilyRule[] = [], checkBudget?: () => void): Classifier {
  const rules = [...userRules, ...FAMILY_TABLE];
  const users = new Set<FamilyRule | UserFamilyRule>(userRules);
  const userFamilies = new Set(userRules.map((rule) => rule.family));
  const cache = new Map<string, KernelFamily>();
  return (kernel) => {
    let family = cache.get(kernel.name);
    if (family === undefined) {
      checkBudget?.();
      family = classifyName(kernel.name, rules, users);
      cache.set(kernel.name, family);
    }
    // A family a team named itself is theirs; the launching XLA program outranks a name that hides a dot.
    if (!userFamilies.has(family) && DOT_AS_REDUCTION.has(family) && kernel.launchedBy !== undefined && XLA_MATMUL_PROGRAM.test(kernel.launchedBy) && (kernel.launchedByShare ?? 1) >= MATMUL_PROGRAM_MIN_SHARE) return 'gemv';
    // Only the table's dense GEMMs take a shape from tokens.
    if (kernel.tokens === undefined || userFamilies.has(family) || !DENSE_GEMM.has(family)) return family;
    return gemmShapeFromTokens(kernel.tokens);
  };
}

/**
 * The families of a capture's kernels, read together: a name that is only a weak hint alone takes
 * the family its neighbours prove (TensorRT-LLM's batched GEMMs are MoE experts when its MoE routing
 * runs in the same capture). `families[i]` is the family of `names[i]` from the classifier.
 */
export function familiesInContext(
  names: readonly string[],
  families: readonly KernelFamily[],
  rules: readonly ContextRule[] = CONTEXT_RULES,
): KernelFamily[] {
  const present = new Set<KernelFamily>(families);
  const active = rules.filter((rule) => present.has(rule.whenPresent));
  if (active.length === 0) return [...families];
  return families.map((family, i) => {
    const name = names[i] ?? '';
    const readable = name.trimStart().startsWith('_Z') ? (demangle(name.trim()) ?? name) : name;
    const normalized = normalizeKernelName(readable);
    const rule = active.find((r) => (r.from as readonly KernelFamily[]).includes(family) && r.pattern.test(normalized));
    return rule ? rule.family : family;
  });
}
