/**
 * Which captures may be merged into one profile. Two mistakes are caught before merging:
 * - one run given twice (rocprof writes results.csv, results.stats.csv and results.json for one
 *   run; nsys summary and trace tables of one capture): counted once, the trace kept;
 * - captures of different GPUs, vendors, engines or models: refused, since summing them describes
 *   no real run. Identity comes only from what each capture records; a capture that records none is
 *   never the reason for a refusal.
 */
import { InputError } from '../errors.js';
import type { Capture, Notice } from '../model/capture.js';
import { replaysKernels } from '../ingest/registry.js';

// ---------------------------------------------------------------------------------------------
// One run counted once

/** Kernel instances by name, summed over devices. */
function callsByName(capture: Capture): Map<string, { instances: number; totalNs: number }> {
  const byName = new Map<string, { instances: number; totalNs: number }>();
  for (const kernel of capture.kernels) {
    const entry = byName.get(kernel.name) ?? { instances: 0, totalNs: 0 };
    entry.instances += kernel.instances;
    entry.totalNs += kernel.totalNs;
    byName.set(kernel.name, entry);
  }
  return byName;
}

/** Fewer launches than this can match by chance; such captures are never taken for one another. */
const MIN_LAUNCHES_TO_MATCH = 20;

/**
 * True when two captures hold the same launches of the same kernels, to the nanosecond per launch:
 * one run written twice (rocprof's results.csv, results.stats.csv and results.json; an nsys summary
 * and its trace). Ranks of one job run the same kernels the same number of times, but their times
 * differ by far more than that, and their timelines differ: they are never taken for one another.
 */
export function sameRun(a: Capture, b: Capture): boolean {
  if (a.kernels.length === 0 || b.kernels.length === 0) return false;
  // Two ranks of one job are two runs, however alike their kernels are.
  if (a.distributed?.rank !== undefined && b.distributed?.rank !== undefined && a.distributed.rank !== b.distributed.rank) return false;
  if (a.timeline && b.timeline && (a.timeline.spanNs !== b.timeline.spanNs || a.timeline.busyNs !== b.timeline.busyNs)) return false;
  const left = callsByName(a);
  const right = callsByName(b);
  if (left.size !== right.size) return false;
  let launches = 0;
  for (const [name, entry] of left) {
    const other = right.get(name);
    if (!other || other.instances !== entry.instances) return false;
    // Rounding allows 1 ns per launch (a µs-rounded average times the calls is not used here).
    if (Math.abs(other.totalNs - entry.totalNs) > entry.instances) return false;
    launches += entry.instances;
  }
  return launches >= MIN_LAUNCHES_TO_MATCH;
}

/** Which copy of one run to keep: a per-launch trace (it has a timeline), then one with min/max, then the first given. */
function keepRank(capture: Capture): number {
  if (capture.timeline) return 0;
  if (capture.kernels.some((k) => k.minNs !== undefined)) return 1;
  return 2;
}

/**
 * Captures that repeat another capture's run are set aside (Nsight Compute replays are not kernel
 * timings of a run and are left to the profile builder). A notice names what was set aside.
 */
export function countEachRunOnce(captures: readonly Capture[]): { captures: Capture[]; notices: Notice[] } {
  const timed = captures.filter((c) => c.kernels.length > 0 && !replaysKernels(c));
  const setAside = new Set<Capture>();
  /** A copy set aside keeps its event record only when the copy kept has none (one clean trace per run). */
  const traceKept = new Set<Capture>();
  const notices: Notice[] = [];
  for (let i = 0; i < timed.length; i++) {
    const first = timed[i]!;
    if (setAside.has(first)) continue;
    const copies = [first, ...timed.slice(i + 1).filter((other) => !setAside.has(other) && sameRun(first, other))];
    if (copies.length === 1) continue;
    const kept = [...copies].sort((a, b) => keepRank(a) - keepRank(b))[0]!;
    const dropped = copies.filter((c) => c !== kept);
    dropped.forEach((c) => setAside.add(c));
    if (!kept.trace) {
      const withTrace = dropped.find((c) => c.trace);
      if (withTrace) traceKept.add(withTrace);
    }
    notices.push({
      code: 'same-run-counted-once',
      severity: 'info',
      message: `${dropped.map((c) => c.source.path).join(', ')} ${dropped.length === 1 ? 'records' : 'record'} the same kernel launches as ${kept.source.path} (one run written twice); ${dropped.length === 1 ? 'it was' : 'they were'} set aside so the run counts once`,
    });
  }
  // Keep what was set aside out of the kernels only: its other contents (API calls, notices) are the run's too.
  return { captures: captures.map((c) => (setAside.has(c) ? { ...c, kernels: [], timeline: undefined, trace: traceKept.has(c) ? c.trace : undefined } : c)), notices };
}

// ---------------------------------------------------------------------------------------------
// Inputs that must not be merged

/** Kernel names only one vendor's toolchain emits. */
const AMD_KERNELS = /^Cijk_|^__amd_rocclr_|^wvSplitK|\bck(_tile)?::|\bHIP_vector_type\b|^rccl|\brccl[A-Z]/;
const NVIDIA_KERNELS = /^nvjet_|^sm\d{2,3}_xmma|^(ampere|volta|turing|hopper)_|\bcublasLt::|^cutlass_\d|\bcutlass::arch::Sm\d|^nccl|\bnccl(Dev)?Kernel/;

/** Engines whose kernels carry their own namespace: present in every forward pass of that engine. */
const ENGINE_KERNELS: ReadonlyArray<[string, RegExp]> = [
  ['vLLM', /\bvllm::/],
  ['SGLang', /\bsgl_kernel\b|\bsglang\b/i],
  ['TensorRT-LLM', /\btensorrt_llm\b|\btrtllm/i],
  ['llama.cpp', /\bmul_mat_(vec_)?q\b|\bggml_/],
];
/** A kernel capture says "no engine kernels" only when it has at least this many distinct kernels. */
const MIN_KERNELS_FOR_ABSENCE = 20;
/** An engine counts as present from this share of kernel time (one stray kernel is not an engine). */
const ENGINE_MIN_SHARE = 0.005;

interface Identity {
  vendor?: 'nvidia' | 'amd';
  /** GPU names as recorded, keyed by a spelling-free form ("AMD Radeon AI PRO R9700" = "AMDRadeonAIPROR9700"). */
  gpus?: Map<string, string>;
  /** Engines whose kernels the capture holds; an empty set means "none" (a capture large enough to say). */
  engines?: Set<string>;
  model?: string;
}

function canonicalGpu(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** Words with a digit that name memory or a form factor, not the chip (80gb, hbm3, sxm4, pcie4). */
const NOT_A_MODEL = /^(\d+(gb|g|mb)|hbm\d+e?|gddr\d+x?|sxm\d*|pcie\d*)$/;

/** The words of a GPU name that hold a digit and name the chip: h100, 4090, mi300x, v100. */
function modelWords(name: string): string[] {
  return name
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => /\d/.test(word) && !NOT_A_MODEL.test(word));
}

/**
 * False only when two GPU names surely differ. Tools spell one GPU differently (rocminfo drops the
 * spaces, ROCm's PyTorch says "AMD Radeon Graphics", NVML and CUDA add or drop a form factor), so a
 * name without a model number says nothing, and names sharing a model number are taken as one GPU.
 */
function sameGpu(a: string, b: string): boolean {
  const [ca, cb] = [canonicalGpu(a), canonicalGpu(b)];
  if (ca.includes(cb) || cb.includes(ca)) return true;
  const [wa, wb] = [modelWords(a), modelWords(b)];
  if (wa.length === 0 || wb.length === 0) return true;
  return wa.some((word) => wb.includes(word) || cb.includes(word)) || wb.some((word) => ca.includes(word));
}

function kernelVendor(capture: Capture): Identity['vendor'] {
  let amd = 0;
  let nvidia = 0;
  for (const kernel of capture.kernels) {
    if (AMD_KERNELS.test(kernel.name)) amd += kernel.totalNs;
    else if (NVIDIA_KERNELS.test(kernel.name)) nvidia += kernel.totalNs;
  }
  if (amd > 0 && nvidia === 0) return 'amd';
  if (nvidia > 0 && amd === 0) return 'nvidia';
  return undefined;
}

function engines(capture: Capture): Set<string> | undefined {
  if (replaysKernels(capture)) return undefined;
  const total = capture.kernels.reduce((sum, k) => sum + k.totalNs, 0);
  if (total <= 0) return undefined;
  const found = new Set<string>();
  for (const [engine, pattern] of ENGINE_KERNELS) {
    const ns = capture.kernels.filter((k) => pattern.test(k.name)).reduce((sum, k) => sum + k.totalNs, 0);
    if (ns / total >= ENGINE_MIN_SHARE) found.add(engine);
    else if (ns > 0) return undefined; // a trace of the engine too small to say either way
  }
  if (found.size === 0 && new Set(capture.kernels.map((k) => k.name)).size < MIN_KERNELS_FOR_ABSENCE) return undefined;
  return found;
}

export function identityOf(capture: Capture): Identity {
  const env = capture.environment;
  const identity: Identity = {};
  const vendor = env.vendor ?? kernelVendor(capture);
  if (vendor) identity.vendor = vendor;
  if (env.gpuName) {
    identity.gpus = new Map(
      env.gpuName
        .split(/,\s*/)
        .filter(Boolean)
        .map((name) => [canonicalGpu(name), name]),
    );
  }
  const found = engines(capture);
  if (found) identity.engines = found;
  if (env.model) identity.model = env.model.trim().toLowerCase();
  return identity;
}

/** What two captures disagree on, in words for each side; undefined when they may be one run. */
function conflict(a: Identity, b: Identity): { what: string; left: string; right: string } | undefined {
  if (a.vendor && b.vendor && a.vendor !== b.vendor) return { what: 'GPU vendors', left: a.vendor === 'amd' ? 'AMD' : 'NVIDIA', right: b.vendor === 'amd' ? 'AMD' : 'NVIDIA' };
  if (a.gpus && b.gpus && ![...a.gpus.values()].some((x) => [...b.gpus!.values()].some((y) => sameGpu(x, y)))) {
    return { what: 'GPUs', left: [...a.gpus.values()].join(', '), right: [...b.gpus.values()].join(', ') };
  }
  if (a.model && b.model && a.model !== b.model) return { what: 'models', left: a.model, right: b.model };
  if (a.engines && b.engines) {
    const differ = [...a.engines].some((e) => !b.engines!.has(e)) || [...b.engines].some((e) => !a.engines!.has(e));
    const words = (set: Set<string>) => (set.size ? `${[...set].join(' + ')} kernels` : `no ${[...a.engines!, ...b.engines!][0]} kernels`);
    if (differ) return { what: 'workloads', left: words(a.engines), right: words(b.engines) };
  }
  return undefined;
}

interface Group {
  members: Array<{ capture: Capture; identity: Identity }>;
}

/**
 * Captures grouped so that no two in a group disagree on what they record. One group: they may be
 * merged. Several: the first two are named, with what they disagree on.
 */
export function mixedInputs(captures: readonly Capture[]): { message: string; groups: Capture[][] } | undefined {
  const groups: Group[] = [];
  let first: { what: string; left: string; right: string } | undefined;
  for (const capture of captures) {
    const identity = identityOf(capture);
    let home: Group | undefined;
    for (const group of groups) {
      const clash = group.members.map((m) => conflict(m.identity, identity)).find(Boolean);
      if (!clash) {
        home = group;
        break;
      }
      if (groups.length === 1) first ??= clash;
    }
    if (home) home.members.push({ capture, identity });
    else groups.push({ members: [{ capture, identity }] });
  }
  if (groups.length < 2 || !first) return undefined;
  const list = (group: Group) => {
    const paths = group.members.map((m) => m.capture.source.path);
    return paths.length > 3 ? `${paths.slice(0, 3).join(', ')} and ${paths.length - 3} more` : paths.join(', ');
  };
  const more = groups.length > 2 ? ` (and ${groups.length - 2} more group${groups.length > 3 ? 's' : ''})` : '';
  return {
    message: `the inputs record different ${first.what}: ${list(groups[0]!)} (${first.left}) and ${list(groups[1]!)} (${first.right})${more}`,
    groups: groups.map((g) => g.members.map((m) => m.capture)),
  };
}

/**
 * Refuses captures that must not be merged, unless `allowMixed`; then they are merged with a
 * warning that says so.
 */
export function checkMergeable(captures: readonly Capture[], allowMixed: boolean): Notice[] {
  const mixed = mixedInputs(captures);
  if (!mixed) return [];
  if (!allowMixed) {
    const second = mixed.groups[1]![0]!.source.path;
    throw new InputError(second, `${mixed.message}; analyze each group on its own, or pass --allow-mixed (action input allow-mixed: true) to merge them`);
  }
  return [{ code: 'mixed-inputs', severity: 'warning', message: `${mixed.message}; merged because mixed inputs were allowed, so totals and shares describe no single run` }];
}
