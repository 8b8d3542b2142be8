/**
 * Short kernel names for tables. A templated C++ kernel name runs to hundreds of characters and two
 * different kernels share their first hundred (`void at::native::elementwise_kernel<128, 4, void
 * at::native::gpu_kernel_impl_nocast<…`), so cutting the name tells nothing apart. Instead: the base
 * name, as `nsys stats --base` prints it (no return type, namespaces, template arguments or
 * parameters), plus the functor or operation in its template arguments that says what the kernel
 * does: `elementwise_kernel<direct_copy_kernel_cuda>`, `elementwise_kernel<CUDAFunctor_add>`.
 * The full name stays in report.json and in the details.
 */

import { rowSubject, type ComparisonRow, type DecisionPolicy, type Report } from '../model/report.js';
import { formatPp } from '../compare/percent-format.js';
import { targetLabel } from '../compare/per-step.js';
import { KERNEL_TIME_PREFIX } from '../compare/gate-options.js';
import { demangle } from '../classify/demangle.js';

const ANONYMOUS_NAMESPACE = /\(anonymous namespace\)::/g;

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

/**
 * Display names for a set of kernels, distinct wherever the full names are: colliding short names
 * gain the functor's type, then the lambda's parameter types, then the kernel's sizes, then all
 * template arguments, then an ordinal.
 */
export function kernelDisplayNames(names: readonly string[]): Map<string, string> {
  const unique = [...new Set(names)];
  const parsed = new Map(unique.map((n) => [n, parts(n)]));
  const level = new Map(unique.map((n) => [n, 0]));
  const shown = (n: string): string => {
    const p = parsed.get(n);
    return p ? render(p, level.get(n)!) : kernelDisplayName(n);
  };
  const collisions = (): string[][] => {
    const byShort = new Map<string, string[]>();
    for (const n of unique) {
      const short = shown(n);
      const group = byShort.get(short);
      if (group) group.push(n);
      else byShort.set(short, [n]);
    }
    return [...byShort.values()].filter((group) => group.length > 1);
  };
  for (let step = 1; step <= 4; step++) {
    for (const group of collisions()) for (const n of group) if (parsed.get(n)) level.set(n, step);
  }
  const out = new Map(unique.map((n) => [n, shown(n)]));
  for (const group of collisions()) group.forEach((n, i) => out.set(n, `${shown(n)} #${i + 1}`));
  return out;
}

const SHOWN_KERNELS = 50;

/** Every kernel name a report shows (its kernels, compared kernel shares and times per step, kernel changes). */
function namesOf(report: Report): string[] {
  const rows = (report.comparison?.rows ?? []).filter((r) => r.kind === 'kernel-share' || r.kind === 'kernel-time').flatMap((r) => {
    const subject = rowSubject(r);
    return subject?.type === 'kernel' ? [subject.id] : [];
  });
  const changes = (report.comparison?.kernelChanges ?? []).map((c) => c.name);
  const dives = report.deepDive.map((d) => d.kernel);
  const perStep = (report.comparison?.perStep?.kernels ?? []).map((k) => k.name);
  // Tables show the top kernels only (20 at the richest level); a profile may hold 100,000.
  return [...report.kernels.slice(0, SHOWN_KERNELS).map((k) => k.name), ...rows, ...changes, ...dives, ...perStep];
}

const cache = new WeakMap<Report, Map<string, string>>();

/** The display names of a report's kernels, distinct across the report; a name it lacks maps to its short form. */
export function reportKernelNames(report: Report): (name: string) => string {
  let names = cache.get(report);
  if (!names) cache.set(report, (names = kernelDisplayNames(namesOf(report))));
  const known = names;
  return (name) => known.get(name) ?? kernelDisplayName(name);
}

/**
 * A kernel share row's sentence, written from the row: the kernel by its display name, the shares,
 * and the threshold it reached (the fail threshold from the policy that judged it). Undefined where
 * the row reached none, or the policy is not recorded (a report migrated from before it was).
 */
function shareSentence(row: ComparisonRow, name: string, policy: DecisionPolicy | null): string | undefined {
  if (row.baseline === null || row.current === null || row.delta === null) return undefined;
  const limit = row.status === 'fail' && policy ? (Object.hasOwn(policy.thresholds, row.metric) ? policy.thresholds[row.metric] : policy.shareThresholds.fail) : row.status === 'warn' ? row.threshold : undefined;
  if (limit === undefined || limit === null) return undefined;
  const of = row.unit.startsWith('% of ') ? row.unit.slice('% of '.length) : 'GPU time';
  return `kernel ${name} share of ${of} ${row.baseline.toFixed(1)}% → ${row.current.toFixed(1)}% (${formatPp(row.delta)}), at or beyond the ${limit} pp ${row.status} threshold`;
}

/**
 * The gate's reasons with kernel names in their short form: the comparison links each reason to its
 * row, and a kernel share row's sentence is written here from the row, the kernel by its display
 * name (the gate's own cuts the name at a width that tells nothing apart). With a comparison, its
 * whole account (notes included); without one, the lines that decide the verdict.
 */
export function readableReasons(report: Report): string[] {
  const reasons = report.comparison?.reasons ?? report.verdictReasons;
  const links = report.comparison?.reasonRows;
  // A report written before the links (or one whose reasons were edited apart from them) shows its reasons as written.
  if (!links || links.length !== reasons.length) return reasons;
  const kernels = new Map((report.comparison?.rows ?? []).filter((r) => r.kind === 'kernel-share' || r.kind === 'kernel-time').map((r) => [r.metric, r]));
  if (kernels.size === 0) return reasons;
  const names = reportKernelNames(report);
  return reasons.map((reason, i) => {
    const row = links[i] ? kernels.get(links[i]!.row) : undefined;
    const subject = row ? rowSubject(row) : undefined;
    if (!row || subject?.type !== 'kernel') return reason;
    if (row.kind === 'kernel-time') {
      // The gate opens a time row's sentence with its target cut at a fixed width (targetLabel).
      const label = targetLabel(row.metric.slice(KERNEL_TIME_PREFIX.length));
      return reason.startsWith(label) ? `kernel ${names(subject.id)}${reason.slice(label.length)}` : reason;
    }
    return shareSentence(row, names(subject.id), report.decision.policy) ?? reason;
  });
}
