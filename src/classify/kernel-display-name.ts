/**
 * Short kernel names for tables. A templated C++ kernel name runs to hundreds of characters and two
 * different kernels share their first hundred (`void at::native::elementwise_kernel<128, 4, void
 * at::native::gpu_kernel_impl_nocast<…`), so cutting the name tells nothing apart. Instead: the base
 * name, as `nsys stats --base` prints it (no return type, namespaces, template arguments or
 * parameters), plus the functor or operation in its template arguments that says what the kernel
 * does: `elementwise_kernel<direct_copy_kernel_cuda>`, `elementwise_kernel<CUDAFunctor_add>`.
 * The full name stays in report.json and in the details. The gate matches a kernel threshold
 * written with this name as well as with the full one (compare/gate-options.ts).
 */

import { demangle } from './demangle.js';

/** An anonymous namespace as c++filt (`(anonymous namespace)`), nsys and ncu (`<unnamed>`) or GCC (`{anonymous}`) spell it. */
const ANONYMOUS_NAMESPACE = /(?:\(anonymous namespace\)|<unnamed>|\{anonymous\})::/g;

/** Wrappers that carry the interesting functor inside them; never the answer themselves. */
const WRAPPERS = new Set([
  'gpu_kernel_impl',
  'gpu_kernel_impl_nocast',
  'gpu_index_kernel',
  'BinaryFunctor',
  'AUnaryFunctor',
  'BUnaryFunctor',
  'ReduceOp',
  'func_wrapper_t',
  'lambda',
  'operator',
  'OpaqueType',
]);

/** Base names that say nothing alone (CUTLASS's `Kernel2<config>`); the first template type names them. */
const GENERIC_BASES = new Set(['Kernel', 'Kernel2', 'device_kernel', 'kernel', 'Kernel3']);

const LOOKS_LIKE_FUNCTOR = /functor|epilogue|ops$/i;

/** Value types: a generic base (`gemvx::kernel<int, int, __nv_bfloat16, …>`) is never named by one. */
const VALUE_TYPES = new Set(['int', 'long', 'short', 'char', 'unsigned', 'signed', 'float', 'double', 'bool', 'true', 'false', 'half', '__half', '__nv_bfloat16', '__nv_half', 'BFloat16', 'Half', 'bfloat16_t', 'size_t']);

/** Index of the bracket opening the one that closes at `close` (`<`/`>` and `(`/`)` nest together), or -1. */
function openingBracket(text: string, close: number): number {
  let depth = 0;
  for (let i = close; i >= 0; i--) {
    const ch = text[i];
    if (ch === '>' || ch === ')') depth += 1;
    else if (ch === '<' || ch === '(') {
      depth -= 1;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/**
 * The function a C++ kernel name declares, read from its end: the parameter list, then the
 * template arguments, then the qualified name before them. What comes first is the return type,
 * which can be anything (`std::enable_if<!T7, void>::type`, or nsys's unbalanced
 * `std::enable_if<T2>(int)0&&…, void>::type`) and never names the kernel.
 */
function declaredFunction(text: string): { qualified: string; args?: string } | undefined {
  // Only a declaration that ends as one: its parameter list or its template arguments.
  if (!/[)>]$/.test(text)) return undefined;
  let end = text.length;
  if (text.endsWith(')')) {
    const open = openingBracket(text, end - 1);
    if (open <= 0) return undefined;
    end = open;
  }
  while (end > 0 && text[end - 1] === ' ') end -= 1;
  let args: string | undefined;
  if (text[end - 1] === '>') {
    const open = openingBracket(text, end - 1);
    if (open <= 0) return undefined;
    args = text.slice(open + 1, end - 1);
    end = open;
  }
  const found = /(?:[A-Za-z_~][\w~]*::)*[A-Za-z_~][\w~]*$/.exec(text.slice(0, end));
  // Inside template arguments (a name whose brackets do not close) it is not the declared function.
  if (!found || /[<,(]\s*$/.test(text.slice(0, found.index))) return undefined;
  return { qualified: found[0], ...(args !== undefined ? { args } : {}) };
}

/** Index of the bracket closing the one at `open` (`<`/`>` and `(`/`)` nest together), or -1. */
function closingBracket(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const ch = text[i];
    if (ch === '<' || ch === '(') depth += 1;
    else if (ch === '>' || ch === ')') {
      depth -= 1;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/** The identifier (last `::` segment) after which `text[at]` begins a call `(`, skipping one `<…>`. */
function startsCall(text: string, at: number): boolean {
  let i = at;
  if (text[i] === '<') {
    const close = closingBracket(text, i);
    if (close < 0) return false;
    i = close + 1;
  }
  return text[i] === '(';
}

/** The functor that tells kernels of one base apart, searched in the template arguments in order. */
function distinguishingFunctor(args: string, base: string): string | undefined {
  const identifier = /[A-Za-z_][A-Za-z0-9_]*/g;
  let first: string | undefined;
  for (let match = identifier.exec(args); match; match = identifier.exec(args)) {
    const name = match[0];
    const end = match.index + name.length;
    if (args.startsWith('::', end)) continue; // a namespace, not the name
    if (WRAPPERS.has(name) || /^\d/.test(name)) continue;
    if (!VALUE_TYPES.has(name)) first ??= name;
    if (LOOKS_LIKE_FUNCTOR.test(name) || startsCall(args, end)) return name;
  }
  return GENERIC_BASES.has(base) ? first : undefined;
}

interface NameParts {
  base: string;
  functor?: string;
  /** The functor's first template argument without namespaces (`BFloat16`, `long`). */
  functorArg?: string;
  /** Leading numeric template arguments of the kernel (`128, 4`: block and vector sizes). */
  sizes?: string;
  /** Parameter types of the functor's lambda (`float`). */
  lambda?: string;
  /** All template arguments, without namespaces. */
  args?: string;
}

const clip = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

const stripNamespaces = (text: string): string => text.replace(/\b[A-Za-z_]\w*::/g, '').replace(/\s+/g, ' ').trim();

function parts(name: string): NameParts | undefined {
  let oneLine = name.replace(/\s+/g, ' ').trim();
  // Mangled names (ROCm traces print `_ZN5aiter24add_rmsnorm_quant_kernel…`) are read demangled;
  // one the demangler cannot read, and plain C names, have no structure to shorten.
  if (/^_Z/.test(oneLine)) {
    const readable = demangle(oneLine.replace(/(?:\s*\[clone \.kd\]|\.kd)$/, ''));
    if (readable && /^[A-Za-z_][\w:]*$/.test(readable)) return { base: readable.split('::').pop()! };
    oneLine = readable ?? oneLine;
  }
  if (/^_Z/.test(oneLine) || !/[<(]/.test(oneLine)) return undefined;
  const text = oneLine.replace(ANONYMOUS_NAMESPACE, '').replace(/\s*\[clone \.kd\]$/, '').replace(/^(?:void|__global__ void)\s+/, '');
  const declared = declaredFunction(text);
  let qualified: string;
  let args: string | undefined;
  if (declared) {
    ({ qualified, args } = declared);
  } else {
    // A name cut short (no closing bracket): read it from the front.
    const open = text.search(/[<(]/);
    qualified = text.slice(0, open).trim();
    if (text[open] === '<') {
      const close = closingBracket(text, open);
      args = close < 0 ? text.slice(open + 1) : text.slice(open + 1, close);
    }
  }
  const segments = qualified.split('::');
  const last = segments.pop() || qualified;
  if (!last || !/^[A-Za-z_~][\w~]*$/.test(last)) return undefined;
  // cuBLAS names its gemv `internal::gemvx::kernel`: a bare `kernel` keeps its namespace.
  const base = last === 'kernel' && segments.length > 0 ? `${segments[segments.length - 1]}::kernel` : last;
  if (args === undefined) return { base };
  const functor = distinguishingFunctor(args, base);
  const sizes = /^\s*((?:\(\w+\))?-?\d+\w*\s*,\s*)+/.exec(args)?.[0].replace(/\(\w+\)/g, '').replace(/[\s,]+$/, '').replace(/\s+/g, ' ');
  const out: NameParts = { base, args: clip(stripNamespaces(args), 60), ...(functor ? { functor } : {}), ...(sizes ? { sizes } : {}) };
  if (functor) {
    const at = args.indexOf(`${functor}<`);
    if (at >= 0) {
      const fOpen = at + functor.length;
      const fClose = closingBracket(args, fOpen);
      const first = fClose > 0 ? args.slice(fOpen + 1, fClose).split(',')[0] : undefined;
      if (first) out.functorArg = stripNamespaces(first).slice(0, 24);
    }
  }
  const lambda = [...oneLine.matchAll(/\{lambda\(([^()]*)\)#\d+\}/g)].map((m) => stripNamespaces(m[1]!)).find(Boolean);
  if (lambda) out.lambda = lambda.slice(0, 40);
  return out;
}

/** `base<functor>` at a level of detail: 0 the short name; 1 adds the functor's type; 2 the lambda's types; 3 the sizes; 4 all template arguments. */
function render(p: NameParts, level: number): string {
  if (level >= 4 && p.args) return `${p.base}<${p.args}>${p.lambda ? `(${p.lambda})` : ''}`;
  const functor = p.functor ? `${p.functor}${level >= 1 && p.functorArg ? `<${p.functorArg}>` : ''}` : '';
  const inner = [level >= 3 ? p.sizes : undefined, functor].filter(Boolean).join(', ');
  return `${p.base}${inner ? `<${inner}>` : ''}${level >= 2 && p.lambda ? `(${p.lambda})` : ''}`;
}

/** The base name and the distinguishing functor: `elementwise_kernel<direct_copy_kernel_cuda>`. */
export function kernelDisplayName(name: string): string {
  const p = parts(name);
  return p ? render(p, 0) : name.replace(/\s+/g, ' ').trim();
}

/** A stable tag of the full name (FNV-1a, 32 bits, six hex digits): the same kernel gets the same tag in every report. */
function nameTag(name: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    hash ^= name.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0').slice(0, 6);
}

/**
 * Display names for a set of kernels, distinct wherever the full names are. Each name is a function
 * of the kernel alone, so one kernel reads the same in every report and comparison: its short name
 * where no other kernel of the set shares it; otherwise its detailed form (the functor's type, the
 * lambda's parameter types and the kernel's sizes); where that is shared too, all its template
 * arguments; and where even those are, a stable tag of the full name (`#3fa2c1`).
 */
export function kernelDisplayNames(names: readonly string[]): Map<string, string> {
  const unique = [...new Set(names)];
  const groups = <T>(items: readonly string[], key: (n: string) => T): Map<T, string[]> => {
    const out = new Map<T, string[]>();
    for (const n of items) {
      const k = key(n);
      const group = out.get(k);
      if (group) group.push(n);
      else out.set(k, [n]);
    }
    return out;
  };
  const out = new Map<string, string>();
  for (const [short, group] of groups(unique, kernelDisplayName)) {
    if (group.length === 1) {
      out.set(group[0]!, short);
      continue;
    }
    const at = (level: number) => (n: string): string => {
      const p = parts(n);
      return p ? render(p, level) : short;
    };
    for (const [detailed, same] of groups(group, at(3))) {
      if (same.length === 1) {
        out.set(same[0]!, detailed);
        continue;
      }
      for (const [whole, alike] of groups(same, at(4))) for (const n of alike) out.set(n, alike.length === 1 ? whole : `${whole} #${nameTag(n)}`);
    }
  }
  return out;
}
