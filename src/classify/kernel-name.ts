/**
 * Kernel-name helpers shared by the classifier and the rules. Profilers print the same kernel with an
 * architecture prefix (sm90_, SM100_), a build hash (MAX `_f519d2c2`), a ROCm code-object suffix
 * (`.kd`, ` [clone .kd]`) or a `void ` return type; none of these may decide a family.
 */

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
