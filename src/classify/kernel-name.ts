/**
 * Kernel-name helpers shared by the classifier and the rules. Profilers print the same kernel with an
 * architecture prefix (sm90_, SM100_), a build hash (MAX `_f519d2c2`), a ROCm code-object suffix
 * (`.kd`, ` [clone .kd]`) or a `void ` return type; none of these may decide a family.
 */

import { demangle } from './demangle.js';

const ARCH_PREFIX = /^(?:sm|SM)\d+[a-z]?_/;
const AMD_PREFIX = /^amd_/;
const GFX_TAG = /_gfx9[0-9a-f]{1,3}(?=_|$)/gi;
const HASH_SUFFIX = /_[0-9a-f]{8}$/;
const KD_SUFFIX = /(?:\s*\[clone \.kd\]|\.kd)$/;

/** The name with prefixes and suffixes that vary by architecture or build removed. */
export function normalizeKernelName(raw: string): string {
  let name = raw.trim().replace(KD_SUFFIX, '');
  name = name.replace(/^void\s+/, '');
  name = name.replace(ARCH_PREFIX, '').replace(AMD_PREFIX, '').replace(GFX_TAG, '');
  // A MAX hash is 8 hex digits with at least one digit (so `_bfloat16` or `_deadbeef` words survive).
  const hash = HASH_SUFFIX.exec(name);
  if (hash && /\d/.test(hash[0])) name = name.slice(0, hash.index);
  return name;
}

/** Remove balanced `<…>` and `(…)` groups (template arguments, parameter lists). */
function stripGroups(name: string): string {
  let out = '';
  let depth = 0;
  for (const ch of name) {
    if (ch === '<' || ch === '(') depth += 1;
    else if ((ch === '>' || ch === ')') && depth > 0) depth -= 1;
    else if (depth === 0) out += ch;
  }
  return out;
}

/** The first template argument when it is a type name worth matching on (e.g. a CUTLASS kernel config). */
function firstTemplateIdentifier(name: string): string | undefined {
  const open = name.indexOf('<');
  if (open < 0) return undefined;
  const arg = /^([A-Za-z_][A-Za-z0-9_:]*)/.exec(name.slice(open + 1).trimStart())?.[1];
  return arg && arg.length >= 12 && arg.includes('_') ? arg : undefined;
}

export interface KernelStem {
  /** A regular expression (unanchored) that selects this kernel in Nsight Compute. */
  regex: string;
  /** True when the regex needs `--kernel-name-base demangled` (templated C++ kernels). */
  demangled: boolean;
}

/** Regex-escape for a kernel-name filter. */
export function escapeRegex(text: string): string {
  // Control characters (a NUL in a name) as \xHH: a shell argument cannot hold a NUL, and a
  // rendered report would show them as spaces, which match nothing.
  return text
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    .replace(/[\x00-\x1f\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/**
 * The part of a kernel name that names it across builds: plain names lose their hash suffix;
 * templated C++ names keep their qualified function name (and a distinctive first template argument).
 */
export function kernelStem(raw: string): KernelStem {
  const name = raw.trim().replace(KD_SUFFIX, '');
  if (!/[<(]/.test(name)) {
    const hash = HASH_SUFFIX.exec(name);
    const base = hash && /\d/.test(hash[0]) ? name.slice(0, hash.index) : name;
    return { regex: escapeRegex(base), demangled: false };
  }
  const tokens = stripGroups(name).trim().split(/\s+/);
  const qualified = tokens[tokens.length - 1] ?? name;
  const open = name.indexOf(qualified);
  const arg = open >= 0 ? firstTemplateIdentifier(name.slice(open)) : undefined;
  if (arg) return { regex: escapeRegex(`${qualified}<${arg}`), demangled: true };
  // A bare, short name (`kernel`, as Nsight Compute prints cuBLAS's gemv) would select any kernel:
  // anchor it on the longest identifier among its template arguments.
  if (qualified.length < 12 && !qualified.includes('::') && open >= 0) {
    const identifiers = name.slice(open + qualified.length).match(/[A-Za-z_][A-Za-z0-9_]{7,}/g) ?? [];
    const longest = identifiers.reduce<string | undefined>((best, id) => (!best || id.length > best.length ? id : best), undefined);
    if (longest) return { regex: `${escapeRegex(qualified)}<.*${escapeRegex(longest)}`, demangled: true };
  }
  return { regex: escapeRegex(qualified), demangled: true };
}

/** Top-level ranges of a balanced pair, scanning back from `end` (exclusive); -1 when unbalanced. */
function openingOf(text: string, close: number, open: string, shut: string): number {
  let depth = 0;
  for (let i = close; i >= 0; i -= 1) {
    const ch = text[i];
    if (ch === shut) depth += 1;
    else if (ch === open && --depth === 0) return i;
  }
  return -1;
}

/** Spellings of an anonymous namespace across tools (c++filt, nsys/ncu, ncu's clipped `unnamed>`). */
const ANONYMOUS = /\(anonymous namespace\)|<unnamed>|\{anonymous\}|(?<![A-Za-z0-9_<])unnamed>/g;
/** C-style casts that nsys puts before template literals: `(int)128`, `(bool)1`, `(unsigned long)3`, `(ggml_type)2`. */
const LITERAL_CAST = /\([A-Za-z_][A-Za-z0-9_:]*(?: [A-Za-z_][A-Za-z0-9_:]*)*\)(?=-?\d)/g;

/**
 * The kernel's function name and its template arguments, with return type, parameter list and
 * namespaces taken off; undefined for a name that is not C++ (plain C, Triton, cuBLAS `nvjet_…`).
 */
function splitCppName(name: string): { base: string; args: string } | undefined {
  let text = name.replace(ANONYMOUS, 'anon').replace(LITERAL_CAST, '').trim();
  // The parameter list: the last top-level (…) group at the end.
  if (text.endsWith(')')) {
    const open = openingOf(text, text.length - 1, '(', ')');
    if (open > 0) text = text.slice(0, open).trimEnd();
  }
  let args = '';
  let end = text.length;
  if (text.endsWith('>')) {
    const open = openingOf(text, text.length - 1, '<', '>');
    if (open <= 0) return undefined;
    args = text.slice(open + 1, -1);
    end = open;
  }
  // The qualified name runs back to the space before it (after a return type such as `void`).
  const head = text.slice(0, end);
  const qualified = head.slice(head.lastIndexOf(' ') + 1);
  const base = qualified.slice(qualified.lastIndexOf('::') + 1).replace(/^:/, '');
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(base)) return undefined;
  if (args === '' && qualified === name.trim()) return undefined;
  return { base, args };
}

/**
 * Identifiers in template arguments that never tell two kernels apart: builtin and library value
 * types, containers, lambda and operator spellings, and the wrappers ATen and CUTLASS put around
 * the functor that names the work (`gpu_kernel_impl_nocast<direct_copy…>`, `BinaryFunctor<…, MulFunctor>`).
 */
const NOISE = new Set([
  'void', 'bool', 'char', 'short', 'int', 'long', 'float', 'double', 'unsigned', 'signed', 'const', 'volatile', 'true', 'false', 'auto',
  'size_t', 'int8_t', 'int16_t', 'int32_t', 'int64_t', 'uint8_t', 'uint16_t', 'uint32_t', 'uint64_t', 'half', '__half', 'half_t',
  '__nv_bfloat16', '__nv_half', 'BFloat16', 'Half', 'bfloat16_t', 'float_e4m3_t', 'float_e5m2_t', 'Float8_e4m3fn', 'Float8_e5m2',
  '__nv_fp8_e4m3', '__nv_fp8_e5m2', 'complex', 'std', 'array', 'Array', 'tuple', 'pair', 'lambda', 'instance', 'operator', 'type',
  'anon', 'enable_if', 'TensorIteratorBase', 'TensorIterator', 'Scalar', 'HIP_vector_type', 'OpaqueType', 'TrivialOffsetCalculator',
  'OffsetCalculator', 'LoadWithCast', 'StoreWithCast', 'LoadWithoutCast', 'StoreWithoutCast', 'gpu_kernel_impl', 'gpu_kernel_impl_nocast',
  'BinaryFunctor', 'UnaryFunctor', 'AUnaryFunctor', 'BUnaryFunctor', 'ReduceOp', 'func_wrapper_t', 'Params', 'result_type', 'function_traits',
]);

/** The first identifier of the template arguments that names the work (a functor, an op, a config). */
function distinguishingFunctor(args: string): string | undefined {
  for (const match of args.matchAll(/[A-Za-z_][A-Za-z0-9_]*(?:::)?/g)) {
    const id = match[0];
    // Namespace and class qualifiers (`at::`) name where, not what; T1, T2 are template parameters.
    if (id.endsWith('::') || NOISE.has(id) || /^T\d*$/.test(id)) continue;
    return id;
  }
  return undefined;
}

/**
 * One key for a kernel however a tool spells it: nsys (`at::native::elementwise_kernel<(int)128, …>`),
 * Nsight Compute (`at::elementwise_kernel<128, …>`), Kineto (`{lambda()#3}`, `std::array<char*, 2ul>`),
 * rocprof (`… [clone .kd]`, `_Z…` mangled). A C++ kernel keys on its unqualified function name and
 * the functor that distinguishes it (`elementwise_kernel<direct_copy_kernel_cuda>`); a plain name
 * on itself without a build hash. Kernels that differ only in numbers or value types (the float
 * and bf16 copies) share a key: `kernelSignature` tells them apart.
 */
export function kernelKey(raw: string): string {
  const name = demangledName(raw);
  const cpp = splitCppName(name);
  if (!cpp) {
    const hash = HASH_SUFFIX.exec(name);
    return hash && /\d/.test(hash[0]) ? name.slice(0, hash.index) : name;
  }
  const functor = distinguishingFunctor(cpp.args);
  return functor ? `${cpp.base}<${functor}>` : cpp.base;
}

/**
 * The function name and its whole template arguments in one spelling (demangled; namespaces, casts,
 * const, spaces, lambda numbering and the parameter list dropped; ncu also eats the `const::[` of
 * nested lambdas), to choose among kernels that
 * share a key: equal signatures are the same instantiation.
 */
export function kernelSignature(raw: string): string {
  const name = demangledName(raw);
  const cpp = splitCppName(name);
  if (!cpp) return kernelKey(raw);
  const args = cpp.args
    .replace(/\[?lambda\(([^()]*)\) \(instance \d+\)\]?|\{lambda\(([^()]*)\)#\d+\}/g, (_m, a: string | undefined, b: string | undefined) => `lambda(${a ?? b ?? ''})`)
    .replace(/\b(\d+)(?:ul|ull|u|l|ll)\b/g, '$1')
    .replace(/\b[A-Za-z_][A-Za-z0-9_]*::/g, '')
    .replace(/\bconst\b|\s+|:+(?=lambda|operator)/g, '');
  return `${cpp.base}<${args}>`;
}

/** The name as a demangler prints it, without ROCm's code-object suffix. */
function demangledName(raw: string): string {
  const name = raw.trim().replace(KD_SUFFIX, '');
  return demangle(name) ?? name;
}

const keyIndexes = new WeakMap<readonly object[], Map<string, object[]>>();

/** The kernels by key, built once per kernel list (a breakdown may hold 100,000 kernels; several rules ask). */
function byKey<K extends { name: string }>(kernels: readonly K[]): Map<string, K[]> {
  let index = keyIndexes.get(kernels) as Map<string, K[]> | undefined;
  if (!index) {
    index = new Map();
    for (const kernel of kernels) {
      const key = kernelKey(kernel.name);
      const list = index.get(key);
      if (list) list.push(kernel);
      else index.set(key, [kernel]);
    }
    keyIndexes.set(kernels, index as Map<string, object[]>);
  }
  return index;
}

/**
 * The kernel of `kernels` that `raw` (another tool's spelling) names: the same name, else the same
 * key, preferring the same signature, then the most time. Undefined when no kernel has its key.
 */
export function matchKernel<K extends { name: string; totalNs: number }>(raw: string, kernels: readonly K[]): K | undefined {
  const exact = kernels.find((k) => k.name === raw);
  if (exact) return exact;
  const sameKey = byKey(kernels).get(kernelKey(raw)) ?? [];
  if (sameKey.length <= 1) return sameKey[0];
  const signature = kernelSignature(raw);
  const sameSignature = sameKey.filter((k) => kernelSignature(k.name) === signature);
  const pool = sameSignature.length ? sameSignature : sameKey;
  return pool.reduce((best, k) => (k.totalNs > best.totalNs ? k : best));
}
