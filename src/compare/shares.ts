/**
 * Kernel-mix rows: the share of GPU time of each kernel family and of each top-N kernel, in
 * percentage points, and a trace-diff list of the top kernels (added, removed, increased,
 * decreased), ranked by absolute time change. Shares are compositional (one kernel faster, every
 * other share grows), so with steps on both sides the time per step judges kernels
 * (src/compare/per-step.ts) and shares are context: only a `family:`/`kernel:` share threshold set
 * by the user gates them. Without steps on a side they are the fallback: they never warn or fail
 * against a throughput that improved, and gate only the growth the subject's own time made (a
 * kernel removed elsewhere grows every other share, and that is no regression). When the windows hold different kinds of step nothing here
 * gates: the shares are of different work.
 */
import type { ComparisonRow, KernelChange, RowStatus, RowSubject, ShareReading } from '../model/report.js';
import { ownValue } from '../model/own-key.js';
import type { GatedRow, GateInput, GateKernel, GateTimeline } from './gate-input.js';
import type { GateOptions } from './gate-options.js';
import { compareText } from '../model/text-order.js';

/** Kernels merged by name (a per-device split is not a change in the mix). */
function kernelsByName(kernels: readonly GateKernel[]): Map<string, GateKernel> {
  const byName = new Map<string, GateKernel>();
  for (const k of kernels) {
    const existing = byName.get(k.name);
    if (existing) byName.set(k.name, { ...existing, totalNs: existing.totalNs + k.totalNs, share: existing.share + k.share });
    else byName.set(k.name, { ...k });
  }
  return byName;
}

function topNames(byName: Map<string, GateKernel>, n: number): string[] {
  return [...byName.values()]
    .sort((a, b) => b.totalNs - a.totalNs || compareText(a.name, b.name))
    .slice(0, n)
    .map((k) => k.name);
}

type ShareContext = NonNullable<ShareReading['context']>;

interface ShareLimits {
  warn: number;
  fail: number;
  /** Why the row does not gate (context only), or undefined when it does. */
  context?: ShareContext;
  /**
   * The share gates as the fallback, under the default thresholds: its growth counts only as far as
   * the subject's own time made it (ownShareDelta), never where the rest of the GPU time shrank.
   */
  ownTimeOnly?: boolean;
}

/** The subject's GPU time on each side and the baseline's total, for ownShareDelta. */
interface OwnTime {
  baselineNs: number;
  currentNs: number;
  baselineTotalNs: number;
}

/**
 * The share change, in pp, the subject's own time alone would have made: its current time against
 * the rest of the GPU time as the baseline had it. A kernel removed elsewhere leaves it at 0 however
 * far the other shares grow; a kernel that itself got slower moves it as far as the share does.
 */
function ownShareDelta(own: OwnTime, baseShare: number): number {
  const rest = own.baselineTotalNs - own.baselineNs;
  const whole = rest + own.currentNs;
  if (!(whole > 0)) return 0;
  return (own.currentNs / whole - baseShare) * 100;
}

/** A side's total GPU kernel time, from any kernel's time and share (shares are of the whole). */
function totalKernelNs(kernels: readonly GateKernel[]): number {
  let best: GateKernel | undefined;
  for (const k of kernels) if (k.share > 0 && (!best || k.share > best.share)) best = k;
  return best ? best.totalNs / best.share : 0;
}

/**
 * How share rows are judged: `time`, time per step judges kernels (shares gate only where a share
 * threshold is set); `fallback`, no steps on a side (shares gate, unless `throughputImproved`);
 * `refused`, the windows hold different kinds of step (nothing gates).
 */
export interface ShareMode {
  mode: 'time' | 'fallback' | 'refused';
  throughputImproved: boolean;
}

function limitsFor(key: string, options: GateOptions, mode: ShareMode = { mode: 'fallback', throughputImproved: false }): ShareLimits {
  const set = ownValue(options.thresholds, key);
  const fail = set ?? options.shareThresholds.fail;
  const limits = { warn: Math.min(options.shareThresholds.warn, fail), fail };
  if (mode.mode === 'refused') return { ...limits, context: 'refused' };
  if (set !== undefined) return limits;
  if (mode.mode === 'time') return { ...limits, context: 'time' };
  if (mode.throughputImproved) return { ...limits, context: 'throughput-improved' };
  return { ...limits, ownTimeOnly: true };
}

/** What changed beside the share, for the row's reading. */
type ShareChange = Pick<ShareReading, 'change' | 'top' | 'family'>;

function shareRow(metric: string, subject: RowSubject, baseShare: number, curShare: number, limits: ShareLimits, change: ShareChange, of = 'GPU time', own?: OwnTime): GatedRow {
  const kind = subject.type === 'kernel' ? 'kernel-share' : 'family-share';
  const baseline = baseShare * 100;
  const current = curShare * 100;
  const delta = current - baseline;
  const ownDelta = limits.ownTimeOnly && own ? ownShareDelta(own, baseShare) : undefined;
  // Shares are compositional: as the fallback, a share gates only on the growth its own time made.
  const gating = ownDelta === undefined ? delta : Math.min(delta, ownDelta);
  let status: RowStatus = 'pass';
  // A share that moved as far as a warning where shares are context: said so as data (its reading).
  let context: ShareContext | undefined;
  if (limits.context) {
    if (Math.abs(delta) >= limits.warn) {
      status = 'info';
      context = limits.context;
    }
  } else if (gating >= limits.fail) {
    status = 'fail';
  } else if (gating >= limits.warn) {
    status = 'warn';
  } else if (delta >= limits.warn) {
    status = 'info';
    context = 'rest-shrank';
  }
  const row: ComparisonRow = {
    metric,
    kind,
    unit: `% of ${of}`,
    baseline,
    current,
    delta,
    ci: null,
    threshold: limits.warn,
    status,
    subject,
    reading: { kind: 'share', fail: limits.fail, ...(context ? { context } : {}), ...(ownDelta !== undefined ? { ownDelta } : {}), ...change },
  };
  return { row };
}

export function compareFamilies(current: GateInput, baseline: GateInput, options: GateOptions, mode?: ShareMode): GatedRow[] {
  const base = new Map(baseline.families.map((f) => [f.family, f.share]));
  const cur = new Map(current.families.map((f) => [f.family, f.share]));
  const families = [...new Set([...base.keys(), ...cur.keys()])].sort();
  const baseTotal = totalKernelNs(baseline.kernels);
  const curTotal = totalKernelNs(current.kernels);
  return families.map((family) => {
    const change: ShareChange = !base.has(family) ? { change: 'new' } : !cur.has(family) ? { change: 'gone' } : {};
    const own = { baselineNs: (base.get(family) ?? 0) * baseTotal, currentNs: (cur.get(family) ?? 0) * curTotal, baselineTotalNs: baseTotal };
    return shareRow(`family:${family}`, { type: 'family', id: family }, base.get(family) ?? 0, cur.get(family) ?? 0, limitsFor(`family:${family}`, options, mode), change, undefined, own);
  });
}

/** Exposed collective time over the active span: of the worst rank when there are ranks with timelines. */
export function exposedCommunicationShare(side: GateInput): number | undefined {
  const share = (t: GateTimeline | null | undefined) =>
    t?.communication && t.activeSpanNs > 0 ? t.communication.exposedNs / (t.activeSpanNs * Math.max(1, t.devices)) : undefined;
  const perRank = (side.ranks ?? []).map((r) => share(r.timeline)).filter((v): v is number => v !== undefined);
  if (perRank.length > 0) return Math.max(...perRank);
  return share(side.timeline);
}

/**
 * The exposed communication share compared like a family share (growth in pp is flagged). Compared
 * when either side measured it; a side with a timeline but no collectives counts as 0.
 */
export function compareCommunication(current: GateInput, baseline: GateInput, options: GateOptions): GatedRow[] {
  const cur = exposedCommunicationShare(current);
  const base = exposedCommunicationShare(baseline);
  if (cur === undefined && base === undefined) return [];
  const hasTimeline = (side: GateInput) => Boolean(side.timeline) || (side.ranks ?? []).some((r) => r.timeline);
  if (!hasTimeline(current) || !hasTimeline(baseline)) return [];
  const metric = 'communication:exposed';
  return [shareRow(metric, { type: 'communication', id: 'exposed' }, base ?? 0, cur ?? 0, limitsFor(metric, options), {}, 'the active span (collectives no compute overlaps)')];
}

export interface KernelComparison {
  rows: GatedRow[];
  changes: KernelChange[];
}

export function compareKernels(current: GateInput, baseline: GateInput, options: GateOptions, mode?: ShareMode): KernelComparison {
  const base = kernelsByName(baseline.kernels);
  const cur = kernelsByName(current.kernels);
  const baseTop = new Set(topNames(base, options.topN));
  const curTop = new Set(topNames(cur, options.topN));
  const names = [...new Set([...baseTop, ...curTop])];
  const baseTotal = totalKernelNs(baseline.kernels);
  const rows: GatedRow[] = [];
  const changes: KernelChange[] = [];
  for (const name of names) {
    const b = base.get(name);
    const c = cur.get(name);
    const change: ShareChange = !b
      ? { change: 'new' }
      : !c
        ? { change: 'gone' }
        : !baseTop.has(name)
          ? { change: 'entered-top', top: options.topN }
          : !curTop.has(name)
            ? { change: 'left-top', top: options.topN }
            : {};
    if (b && c && b.family !== c.family) change.family = { baseline: b.family, current: c.family };
    const own = { baselineNs: b?.totalNs ?? 0, currentNs: c?.totalNs ?? 0, baselineTotalNs: baseTotal };
    rows.push(shareRow(`kernel:${name}`, { type: 'kernel', id: name }, b?.share ?? 0, c?.share ?? 0, limitsFor(`kernel:${name}`, options, mode), change, undefined, own));
  }
  // The time changes of every kernel either side ran (the kernels table shows more than the top N).
  for (const name of new Set([...base.keys(), ...cur.keys()])) {
    const b = base.get(name);
    const c = cur.get(name);
    const baselineNs = b?.totalNs ?? 0;
    const currentNs = c?.totalNs ?? 0;
    const deltaNs = currentNs - baselineNs;
    if (b && c && deltaNs === 0) continue;
    changes.push({ name, family: (c ?? b)!.family, change: !b ? 'added' : !c ? 'removed' : deltaNs > 0 ? 'increased' : 'decreased', baselineNs, currentNs, deltaNs });
  }
  changes.sort((x, y) => Math.abs(y.deltaNs) - Math.abs(x.deltaNs) || compareText(x.name, y.name));
  return { rows, changes };
}
