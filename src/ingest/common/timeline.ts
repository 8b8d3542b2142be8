/**
 * Per-launch GPU intervals, stored compactly (typed arrays, ~29 bytes an op), and the timeline
 * derived from them: busy time as the union of intervals per device (merged as the ops arrive while
 * a device's ops come in order of start, as a trace lists them; otherwise a sweep over separately
 * sorted starts and ends, so no comparator sort is needed), idle gaps, ProfilerStep windows, and kernel
 * time per tenth of the span, the exposed part of collective kernels and host↔device copies, and
 * the idle stretches that are not the workload. All times are ns from the trace's first decoded event.
 * Shared by every per-launch reader: the Kineto trace and the kernel traces of kernel-trace.ts.
 */
import type { ExcludedGap, Step, Timeline, TimelineCommunication, TimelineTransfers } from '../../model/capture.js';
import { grown, INITIAL_ROWS } from '../../model/columns.js';

/** What an op is, for the timeline: a copy or fill, a compute kernel, a collective kernel, a host copy. */
export const OP_MEMOP = 0;
export const OP_KERNEL = 1;
export const OP_COLLECTIVE = 2;
/** A host-to-device or device-to-host copy (other copies and fills are OP_MEMOP). */
export const OP_HOST_COPY = 3;
export type OpKind = typeof OP_MEMOP | typeof OP_KERNEL | typeof OP_COLLECTIVE | typeof OP_HOST_COPY;
const isKernel = (kind: number) => kind === OP_KERNEL || kind === OP_COLLECTIVE;

/**
 * A gap is left out of utilization when it is at least this long: far longer than any launch, sync
 * or host step of a decode or training loop (those are µs to a few ms).
 */
export const EXCLUDED_GAP_MIN_NS = 50e6;
/** … and at least this many times the median gap between GPU ops (the typical inter-launch gap). */
export const EXCLUDED_GAP_MEDIAN_FACTOR = 1000;
/** Kernels before a gap below this share of all kernels: the gap ends set-up (after it, tear-down). */
const SET_UP_KERNEL_SHARE = 0.02;

/**
 * A union of intervals merged as they come, in order of start: [open, close] the interval being
 * merged, `ns` the length of those closed. Touching intervals merge, as in sweep().
 */
class OrderedUnion {
  any = false;
  // Doubles from the start (NaN until the first interval): a field that held small integers and is
  // then given a time past 2^31 ns changes its representation, which undoes the compiled code of
  // every reader that adds ops.
  open = NaN;
  close = NaN;
  ns = NaN;

  add(start: number, end: number): void {
    if (!this.any) {
      this.any = true;
      this.open = start;
      this.close = end;
      this.ns = 0;
    } else if (start <= this.close) {
      if (end > this.close) this.close = end;
    } else {
      this.ns += this.close - this.open;
      this.open = start;
      this.close = end;
    }
  }

  /** The union's length, the interval still open included. */
  get total(): number {
    return this.any ? this.ns + (this.close - this.open) : 0;
  }
}

/**
 * One device's ops as the log receives them: how many of each kind, and, while they come in order
 * of start (as a trace lists each stream's work) and none ends before it starts, the device's
 * readings merged on the way (each union by the definition: intervals taken by start), so that the
 * timeline needs no sort and no second pass over the ops. Once an op comes out of order, the
 * timeline sorts this device's ops instead (deviceOps) and nothing more is merged here.
 */
class DeviceRun {
  size = 0;
  kernels = 0;
  collectives = 0;
  hostCopies = 0;
  ordered = true;
  private lastStart = -Infinity;
  /** All ops: its closed intervals are written to mergedStarts/mergedEnds, and its gaps counted. */
  readonly all = new OrderedUnion();
  readonly kernelsAndCollectives = new OrderedUnion();
  readonly computeKernels = new OrderedUnion();
  readonly collectiveKernels = new OrderedUnion();
  readonly copies = new OrderedUnion();
  readonly copiesAndKernels = new OrderedUnion();
  readonly gaps: Gaps = { count: 0, totalNs: 0, longestNs: 0 };
  mergedStarts: Float64Array;
  mergedEnds: Float64Array;
  merged = 0;

  constructor(
    readonly device: number,
    rows: number,
  ) {
    this.mergedStarts = new Float64Array(rows);
    this.mergedEnds = new Float64Array(rows);
  }

  add(start: number, end: number, kind: OpKind): void {
    this.size++;
    if (kind === OP_KERNEL) this.kernels++;
    else if (kind === OP_COLLECTIVE) {
      this.kernels++;
      this.collectives++;
    } else if (kind === OP_HOST_COPY) this.hostCopies++;
    if (!this.ordered) return;
    // Also false for NaN: such a log is sorted, as it always was.
    if (!(start >= this.lastStart && end >= start)) {
      this.ordered = false;
      this.mergedStarts = this.mergedEnds = new Float64Array(0);
      return;
    }
    this.lastStart = start;
    const all = this.all;
    if (all.any && start > all.close) {
      // The interval merged so far closes, and a gap opens.
      if (this.merged === this.mergedStarts.length) {
        this.mergedStarts = grown(this.mergedStarts, 2 * this.merged);
        this.mergedEnds = grown(this.mergedEnds, 2 * this.merged);
      }
      this.mergedStarts[this.merged] = all.open;
      this.mergedEnds[this.merged++] = all.close;
      const gap = start - all.close;
      this.gaps.count++;
      this.gaps.totalNs += gap;
      if (gap > this.gaps.longestNs) this.gaps.longestNs = gap;
    }
    all.add(start, end);
    if (kind === OP_MEMOP) return;
    if (kind !== OP_HOST_COPY) {
      this.kernelsAndCollectives.add(start, end);
      if (kind === OP_KERNEL) this.computeKernels.add(start, end);
      else this.collectiveKernels.add(start, end);
    } else this.copies.add(start, end);
    this.copiesAndKernels.add(start, end);
  }

  /** The busy intervals: those closed, and the one still open written after them. */
  busy(): DeviceBusy & { busy: number } {
    if (!this.all.any) return { starts: new Float64Array(0), ends: new Float64Array(0), busy: 0 };
    if (this.merged === this.mergedStarts.length) {
      this.mergedStarts = grown(this.mergedStarts, this.merged + 1);
      this.mergedEnds = grown(this.mergedEnds, this.merged + 1);
    }
    this.mergedStarts[this.merged] = this.all.open;
    this.mergedEnds[this.merged] = this.all.close;
    return { starts: this.mergedStarts.subarray(0, this.merged + 1), ends: this.mergedEnds.subarray(0, this.merged + 1), busy: this.all.total };
  }
}

export class OpLog {
  count = 0;
  starts: Float64Array;
  ends: Float64Array;
  devices: Int32Array;
  correlations: Float64Array;
  /** OP_MEMOP, OP_KERNEL, OP_COLLECTIVE or OP_HOST_COPY. */
  kind: Uint8Array;
  /** The least start and the greatest end of all ops. */
  spanStart = Infinity;
  spanEnd = -Infinity;
  /** Each device's ops, in order of the device's first op. */
  readonly deviceRuns = new Map<number, DeviceRun>();
  private lastRun: DeviceRun | undefined;
  private readonly expectedRows: number;
  /**
   * Where the ops that are not kernels (copies, fills) stand in the log, in order: with one device
   * in order, kernels before a time are counted from the log itself (kernelsBefore), with no
   * column of kernel starts. They are few.
   */
  nonKernels = new Int32Array(64);
  nonKernelCount = 0;

  /** `expectedRows`: how many ops the reader expects (columns.ts); more still fit. */
  constructor(expectedRows = INITIAL_ROWS) {
    const rows = Math.max(1, expectedRows);
    this.expectedRows = rows;
    this.starts = new Float64Array(rows);
    this.ends = new Float64Array(rows);
    this.devices = new Int32Array(rows);
    this.correlations = new Float64Array(rows);
    this.kind = new Uint8Array(rows);
  }

  push(start: number, end: number, device: number, correlation: number, kind: OpKind): void {
    if (this.count === this.starts.length) this.grow();
    const k = this.count++;
    this.starts[k] = start;
    this.ends[k] = end;
    this.devices[k] = device;
    this.correlations[k] = correlation;
    this.kind[k] = kind;
    if (start < this.spanStart) this.spanStart = start;
    if (end > this.spanEnd) this.spanEnd = end;
    if (kind !== OP_KERNEL && kind !== OP_COLLECTIVE) {
      if (this.nonKernelCount === this.nonKernels.length) this.nonKernels = grown(this.nonKernels, 2 * this.nonKernelCount);
      this.nonKernels[this.nonKernelCount++] = k;
    }
    let run = this.lastRun;
    if (run === undefined || run.device !== device) run = this.lastRun = this.runOf(device);
    run.add(start, end, kind);
  }

  private runOf(device: number): DeviceRun {
    let run = this.deviceRuns.get(device);
    if (!run) {
      // The first device is sized for all the ops expected; pages never written are not resident.
      run = new DeviceRun(device, this.deviceRuns.size === 0 ? this.expectedRows : INITIAL_ROWS);
      this.deviceRuns.set(device, run);
    }
    return run;
  }

  private grow(): void {
    const size = this.starts.length * 2;
    this.starts = grown(this.starts, size);
    this.ends = grown(this.ends, size);
    this.devices = grown(this.devices, size);
    this.correlations = grown(this.correlations, size);
    this.kind = grown(this.kind, size);
  }
}

/** A ProfilerStep window, from the CPU annotation or (preferred) its projection on the GPU. */
export interface StepWindow {
  name: string;
  start: number;
  end: number;
  /** The clock the window was read on: the GPU projection of the step, or its CPU range. */
  clock?: 'gpu' | 'cpu';
}

export interface TimelineCounts {
  kernelLaunches: number;
  graphLaunches: number;
  graphCorrelations: ReadonlySet<number>;
  /** CPU-side windows of CUDA-graph captures (begin to end capture), on the trace's clock. */
  captureWindows?: ReadonlyArray<{ start: number; end: number }>;
}

interface DeviceBusy {
  /** Merged busy intervals, sorted. */
  starts: Float64Array;
  ends: Float64Array;
}

interface Gaps {
  count: number;
  totalNs: number;
  longestNs: number;
}

/**
 * The union of intervals given as sorted starts and sorted ends (each sorted on its own); gaps (the
 * spaces between merged intervals) are added to `gaps`. The merged intervals are written over the
 * inputs (the k-th merged interval needs at least k starts and k ends already read), so a trace of
 * millions of ops needs no second copy.
 */
function sweep(starts: Float64Array, ends: Float64Array, gaps: Gaps): DeviceBusy & { busy: number } {
  let merged = 0;
  let busy = 0;
  let active = 0;
  let open = 0;
  let i = 0;
  let j = 0;
  while (j < ends.length) {
    if (i < starts.length && starts[i]! <= ends[j]!) {
      if (active === 0) {
        open = starts[i]!;
        const last = merged ? ends[merged - 1]! : open;
        if (open > last) {
          gaps.count++;
          gaps.totalNs += open - last;
          if (open - last > gaps.longestNs) gaps.longestNs = open - last;
        }
      }
      active++;
      i++;
    } else {
      active--;
      if (active === 0) {
        const end = ends[j]!;
        starts[merged] = open;
        ends[merged++] = end;
        busy += end - open;
      }
      j++;
    }
  }
  return { starts: starts.subarray(0, merged), ends: ends.subarray(0, merged), busy };
}

/**
 * Sorts in place, unless already in order: a trace's ops mostly come in time order, and checking is
 * one pass where the sort of a sorted array is still n log n.
 */
function sortNumbers(values: Float64Array): void {
  for (let k = 1; k < values.length; k++) {
    if (values[k]! < values[k - 1]!) {
      values.sort();
      return;
    }
  }
}

/** sweep() of unsorted intervals, sorted in place first. */
function mergeDevice(starts: Float64Array, ends: Float64Array, gaps: Gaps): DeviceBusy & { busy: number } {
  sortNumbers(starts);
  sortNumbers(ends);
  return sweep(starts, ends, gaps);
}

const OP_KINDS = 4;
const ALL_KINDS = [OP_MEMOP, OP_KERNEL, OP_COLLECTIVE, OP_HOST_COPY];
const KERNEL_KINDS = [OP_KERNEL, OP_COLLECTIVE];

/**
 * One device's ops by kind: the starts (and, apart, the ends) of kind k in [at[k], at[k + 1]),
 * each segment sorted. Sorted once: a union over any set of kinds sweeps those segments at once
 * (unionNs), so the unions of kernels, copies and collectives sort and copy nothing again.
 */
interface DeviceOps {
  starts: Float64Array;
  ends: Float64Array;
  at: Int32Array;
}

function deviceOps(ops: OpLog, device: number, size: number): DeviceOps {
  const at = new Int32Array(OP_KINDS + 1);
  for (let k = 0; k < ops.count; k++) if (ops.devices[k] === device) at[ops.kind[k]! + 1]!++;
  for (let kind = 0; kind < OP_KINDS; kind++) at[kind + 1]! += at[kind]!;
  const next = at.slice(0, OP_KINDS);
  const starts = new Float64Array(size);
  const ends = new Float64Array(size);
  for (let k = 0; k < ops.count; k++) {
    if (ops.devices[k] !== device) continue;
    const m = next[ops.kind[k]!]!++;
    starts[m] = ops.starts[k]!;
    ends[m] = ops.ends[k]!;
  }
  for (let kind = 0; kind < OP_KINDS; kind++) {
    sortNumbers(starts.subarray(at[kind]!, at[kind + 1]!));
    sortNumbers(ends.subarray(at[kind]!, at[kind + 1]!));
  }
  return { starts, ends, at };
}

/**
 * Sorts `values`, made of sorted segments (DeviceOps), in place by merging: the segments other than
 * the longest are merged into a buffer of their size, the longest is moved to the end, and the two
 * are merged from the front (the write position never passes the longest segment's next unread
 * value). The extra memory is the other kinds' ops, usually a few copies and fills among kernels.
 */
function mergeSegmentsInPlace(values: Float64Array, at: Int32Array): void {
  let longest = 0;
  for (let kind = 1; kind < OP_KINDS; kind++) if (at[kind + 1]! - at[kind]! > at[longest + 1]! - at[longest]!) longest = kind;
  const others = ALL_KINDS.filter((kind) => kind !== longest);
  const rest = mergeKinds(values, at, others);
  if (rest.length === 0) return;
  const n = values.length;
  const from = n - (at[longest + 1]! - at[longest]!);
  values.copyWithin(from, at[longest]!, at[longest + 1]!);
  let i = 0;
  let j = from;
  let w = 0;
  while (i < rest.length && j < n) values[w++] = rest[i]! <= values[j]! ? rest[i++]! : values[j++]!;
  while (i < rest.length) values[w++] = rest[i++]!;
}

/** The sorted merge of the segments of `kinds` (DeviceOps) of `from`, in a fresh array. */
function mergeKinds(from: Float64Array, at: Int32Array, kinds: readonly number[]): Float64Array {
  const heads = kinds.map((kind) => at[kind]!);
  const limits = kinds.map((kind) => at[kind + 1]!);
  const out = new Float64Array(limits.reduce((sum, limit, l) => sum + limit - heads[l]!, 0));
  for (let m = 0; m < out.length; m++) {
    let best = -1;
    for (let l = 0; l < heads.length; l++) if (heads[l]! < limits[l]! && (best < 0 || from[heads[l]!]! < from[heads[best]!]!)) best = l;
    out[m] = from[heads[best]!++]!;
  }
  return out;
}

/**
 * Length of the union of the device's ops of `kinds`: the sweep of sweep(), over the kinds' sorted
 * segments at once (the next start and the next end are the least of the segments' heads), so no
 * merged copy is made.
 */
function unionNs(d: DeviceOps, kinds: readonly number[]): number {
  const { starts, ends, at } = d;
  const startHeads = kinds.map((kind) => at[kind]!);
  const endHeads = kinds.map((kind) => at[kind]!);
  const limits = kinds.map((kind) => at[kind + 1]!);
  let busy = 0;
  let active = 0;
  let open = 0;
  for (;;) {
    let s = -1;
    for (let l = 0; l < limits.length; l++) if (startHeads[l]! < limits[l]! && (s < 0 || starts[startHeads[l]!]! < starts[startHeads[s]!]!)) s = l;
    let e = -1;
    for (let l = 0; l < limits.length; l++) if (endHeads[l]! < limits[l]! && (e < 0 || ends[endHeads[l]!]! < ends[endHeads[e]!]!)) e = l;
    if (e < 0) return busy;
    if (s >= 0 && starts[startHeads[s]!]! <= ends[endHeads[e]!]!) {
      if (active === 0) open = starts[startHeads[s]!]!;
      active++;
      startHeads[s]!++;
    } else {
      active--;
      if (active === 0) busy += ends[endHeads[e]!]! - open;
      endHeads[e]!++;
    }
  }
}

/** Busy time of one device inside [from, to). */
function busyWithin(device: DeviceBusy, from: number, to: number): number {
  const { starts, ends } = device;
  let lo = 0;
  let hi = ends.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ends[mid]! <= from) lo = mid + 1;
    else hi = mid;
  }
  let total = 0;
  const n = starts.length;
  for (let k = lo; k < n && starts[k]! < to; k++) {
    const start = starts[k]!;
    const end = ends[k]!;
    total += (end < to ? end : to) - (start > from ? start : from);
  }
  return total;
}

/** The first index whose value is not below `value`, in a sorted array. */
function lowerBound(sorted: Float64Array | Int32Array, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** How many kernels (and collectives) started before a time, and how many there are. */
interface KernelCount {
  total: number;
  before(time: number): number;
}

function sortedKernels(starts: Float64Array): KernelCount {
  return { total: starts.length, before: (time) => lowerBound(starts, time) };
}

/**
 * The kernels of a log of one device whose ops came in order of start: those before a time are the
 * ops before it in the log less the copies and fills among them (OpLog.nonKernels).
 */
function kernelsOfOrderedLog(ops: OpLog, total: number): KernelCount {
  const starts = ops.starts.subarray(0, ops.count);
  const nonKernels = ops.nonKernels.subarray(0, ops.nonKernelCount);
  return {
    total,
    before(time) {
      const ops = lowerBound(starts, time);
      return ops - lowerBound(nonKernels, ops);
    },
  };
}

/** The starts of one device's kernels, in the order of a log where that device's ops are in order of start. */
function orderedKernelStarts(ops: OpLog, device: number, kernels: number): Float64Array {
  const out = new Float64Array(kernels);
  let m = 0;
  for (let k = 0; k < ops.count; k++) {
    if (ops.devices[k] !== device) continue;
    const kind = ops.kind[k]!;
    if (kind === OP_KERNEL || kind === OP_COLLECTIVE) out[m++] = ops.starts[k]!;
  }
  return out;
}

/**
 * Collective time on one device, and the part of it no compute kernel overlaps. Kernels of one
 * stream never overlap, so an overlap is always with another stream. exposed = |C ∖ K| = |C ∪ K| − |K|:
 * three unions over the device's kind-sorted ops, none copied.
 */
function communicationOf(d: DeviceOps): TimelineCommunication {
  const collectiveNs = unionNs(d, [OP_COLLECTIVE]);
  const kernelNs = unionNs(d, KERNEL_KINDS);
  const computeNs = unionNs(d, [OP_KERNEL]);
  return { collectiveNs, exposedNs: Math.max(0, kernelNs - computeNs) };
}

/** Host↔device copy time on one device, and the part no kernel overlaps: |K ∪ H| − |K|. */
function transfersOf(d: DeviceOps): TimelineTransfers {
  const copyNs = unionNs(d, [OP_HOST_COPY]);
  const withKernels = unionNs(d, [OP_HOST_COPY, OP_KERNEL, OP_COLLECTIVE]);
  const kernelNs = unionNs(d, KERNEL_KINDS);
  return { copyNs, exposedNs: Math.max(0, withKernels - kernelNs) };
}

/** One device's readings: its busy intervals, the unions its kinds need, its kernels' starts in order. */
interface DeviceReading {
  busy: DeviceBusy & { busy: number };
  communication?: TimelineCommunication;
  transfers?: TimelineTransfers;
  /** Starts of the device's kernels, sorted; left out where the log counts them (kernelsBefore). */
  kernelStarts?: Float64Array;
}

/** The readings of a device whose ops came in order: merged as they came (DeviceRun). */
function orderedDevice(run: DeviceRun, gaps: Gaps): DeviceReading {
  const busy = run.busy();
  if (gaps.count === 0) Object.assign(gaps, run.gaps);
  else {
    // After other devices' gaps: added one by one, in the order sweep() adds them.
    const { starts, ends } = busy;
    for (let k = 1; k < starts.length; k++) {
      const gap = starts[k]! - ends[k - 1]!;
      gaps.count++;
      gaps.totalNs += gap;
      if (gap > gaps.longestNs) gaps.longestNs = gap;
    }
  }
  const kernelsNs = run.kernelsAndCollectives.total;
  return {
    busy,
    ...(run.collectives > 0 ? { communication: { collectiveNs: run.collectiveKernels.total, exposedNs: Math.max(0, kernelsNs - run.computeKernels.total) } } : {}),
    ...(run.hostCopies > 0 ? { transfers: { copyNs: run.copies.total, exposedNs: Math.max(0, run.copiesAndKernels.total - kernelsNs) } } : {}),
  };
}

/** The device's readings by sorting: its ops by kind (deviceOps), the unions over the kinds' runs, then all merged. */
function sortedDevice(ops: OpLog, device: number, size: number, collectives: number, hostCopies: number, gaps: Gaps): DeviceReading {
  const d = deviceOps(ops, device, size);
  const transfers = hostCopies > 0 ? transfersOf(d) : undefined;
  const communication = collectives > 0 ? communicationOf(d) : undefined;
  const kernelStarts = mergeKinds(d.starts, d.at, KERNEL_KINDS);
  // All ops: the kinds merged in place, then the busy intervals written over them.
  mergeSegmentsInPlace(d.starts, d.at);
  mergeSegmentsInPlace(d.ends, d.at);
  return { busy: sweep(d.starts, d.ends, gaps), kernelStarts, ...(communication ? { communication } : {}), ...(transfers ? { transfers } : {}) };
}

/**
 * The value at index `n` of `values` sorted (values reordered in place): a selection by partitioning,
 * linear on average, where sorting millions of gaps for one median is n log n. Falls back to the sort
 * when partitions keep coming out lopsided.
 */
export function nthSmallest(values: Float64Array, n: number): number {
  let lo = 0;
  let hi = values.length - 1;
  let rounds = 0;
  while (hi > lo) {
    if (++rounds > 64) {
      values.subarray(lo, hi + 1).sort();
      return values[n]!;
    }
    // Median of three as the pivot, then Hoare's partition.
    const mid = (lo + hi) >>> 1;
    const a = values[lo]!;
    const b = values[mid]!;
    const c = values[hi]!;
    const pivot = a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (values[i]! < pivot) i++;
      while (values[j]! > pivot) j--;
      if (i <= j) {
        const t = values[i]!;
        values[i++] = values[j]!;
        values[j--] = t;
      }
    }
    if (n <= j) hi = j;
    else if (n >= i) lo = i;
    else return values[n]!;
  }
  return values[n]!;
}

/** Fewer gaps than this give no typical inter-launch gap to compare against: nothing is excluded. */
const MIN_GAPS_FOR_EXCLUSION = 10;

/**
 * Idle stretches (when no device is busy) that are not the workload: at least EXCLUDED_GAP_MIN_NS,
 * at least EXCLUDED_GAP_MEDIAN_FACTOR × the median gap, and not inside a profiler step (idle inside
 * a step is the workload's own). Named set-up when fewer than 2 % of the kernels ran before it,
 * tear-down when fewer than 2 % ran after it, otherwise between repetitions.
 */
function excludedGapsOf(union: DeviceBusy, windows: readonly StepWindow[], kernelCount: KernelCount, spanStart: number, captures: ReadonlyArray<{ start: number; end: number }> = [], knownLongest?: number): ExcludedGap[] {
  const { starts, ends } = union;
  const count = starts.length - 1;
  // The GPU waits while the host records a CUDA graph: set-up by its cause, whatever its length
  // and even inside a profiler step. Half the gap under a capture is enough to name it.
  // A plain loop, and none at all without captures: millions of gaps must allocate nothing.
  const captured = new Set<number>();
  for (let k = 0; captures.length > 0 && k < count; k++) {
    const from = ends[k]!;
    const to = starts[k + 1]!;
    let overlap = 0;
    for (const c of captures) overlap += Math.max(0, Math.min(c.end, to) - Math.max(c.start, from));
    if (to > from && overlap >= (to - from) / 2) captured.add(k);
  }
  const capturedGaps = [...captured].map((k) => ({ startNs: ends[k]! - spanStart, durNs: starts[k + 1]! - ends[k]!, reason: 'set-up' as const }));
  if (count < MIN_GAPS_FOR_EXCLUSION) return capturedGaps;
  let longest = knownLongest ?? 0;
  for (let k = 0; knownLongest === undefined && k < count; k++) if (starts[k + 1]! - ends[k]! > longest) longest = starts[k + 1]! - ends[k]!;
  // The threshold is at least EXCLUDED_GAP_MIN_NS: below it no median is needed (nor fresh memory for one).
  if (longest < EXCLUDED_GAP_MIN_NS) return capturedGaps;
  const lengths = new Float64Array(count);
  for (let k = 0; k < count; k++) lengths[k] = starts[k + 1]! - ends[k]!;
  const threshold = Math.max(EXCLUDED_GAP_MIN_NS, EXCLUDED_GAP_MEDIAN_FACTOR * nthSmallest(lengths, count >> 1));
  if (longest < threshold) return capturedGaps;
  const kernels = kernelCount.total;
  const out: ExcludedGap[] = [];
  for (let k = 0; k < count; k++) {
    const from = ends[k]!;
    const to = starts[k + 1]!;
    if (captured.has(k)) {
      out.push({ startNs: from - spanStart, durNs: to - from, reason: 'set-up' });
      continue;
    }
    if (to - from < threshold) continue;
    const inStep = windows.some((w) => Math.min(w.end, to) - Math.max(w.start, from) > (to - from) / 2);
    if (inStep) continue;
    const before = kernelCount.before(to);
    const reason = kernels === 0 ? 'between-repetitions' : before < SET_UP_KERNEL_SHARE * kernels ? 'set-up' : kernels - before < SET_UP_KERNEL_SHARE * kernels ? 'tear-down' : 'between-repetitions';
    out.push({ startNs: from - spanStart, durNs: to - from, reason });
  }
  return out;
}

/** The union over devices of their merged busy intervals (the device's own when there is one). */
function unionOfDevices(devices: readonly DeviceBusy[]): DeviceBusy {
  if (devices.length === 1) return devices[0]!;
  const size = devices.reduce((sum, d) => sum + d.starts.length, 0);
  const starts = new Float64Array(size);
  const ends = new Float64Array(size);
  let m = 0;
  for (const d of devices) {
    starts.set(d.starts, m);
    ends.set(d.ends, m);
    m += d.starts.length;
  }
  return mergeDevice(starts, ends, { count: 0, totalNs: 0, longestNs: 0 });
}

/**
 * Kernel time in each tenth of [spanStart, spanEnd], and the kernels of graph launches. A function of
 * its own: one loop over every op, which V8 compiles optimized sooner when it is small.
 */
function tenthsOf(ops: OpLog, spanStart: number, spanEnd: number, graphCorrelations: ReadonlySet<number>): { busyByDecile: Float64Array; graphKernels: number } {
  const n = ops.count;
  const opStarts = ops.starts;
  const opEnds = ops.ends;
  const opKinds = ops.kind;
  const busyByDecile = new Float64Array(10);
  const width = (spanEnd - spanStart) / 10;
  const anyGraph = graphCorrelations.size > 0;
  const opCorrelations = ops.correlations;
  let graphKernels = 0;
  for (let k = 0; k < n; k++) {
    const kind = opKinds[k]!;
    if (kind !== OP_KERNEL && kind !== OP_COLLECTIVE) continue;
    const start = opStarts[k]!;
    const end = opEnds[k]!;
    if (anyGraph && graphCorrelations.has(opCorrelations[k]!)) graphKernels++;
    if (width <= 0) continue;
    let first = Math.floor((start - spanStart) / width);
    if (first > 9) first = 9;
    for (let d = first; d < 10; d++) {
      const from = spanStart + d * width;
      const to = d === 9 ? spanEnd : from + width;
      if (from >= end) break;
      // The op's part of the tenth [from, to), when it overlaps (NaN stays NaN, as Math.max keeps it).
      const part = (end < to ? end : to) - (start > from ? start : from);
      if (!(part <= 0)) busyByDecile[d]! += part;
    }
  }
  return { busyByDecile, graphKernels };
}

export function buildTimeline(ops: OpLog, windows: StepWindow[], counts: TimelineCounts): Timeline {
  const n = ops.count;
  let spanStart = ops.spanStart;
  let spanEnd = ops.spanEnd;
  let kernels = 0;
  for (const run of ops.deviceRuns.values()) kernels += run.kernels;
  if (n === 0) spanStart = spanEnd = windows.length ? Math.min(...windows.map((w) => w.start)) : 0;

  const devices: DeviceBusy[] = [];
  let busyNs = 0;
  const idleGaps = { count: 0, totalNs: 0, longestNs: 0 };
  let communication: TimelineCommunication | undefined;
  let transfers: TimelineTransfers | undefined;
  const kernelStartsByDevice: Float64Array[] = [];
  for (const run of ops.deviceRuns.values()) {
    const d = run.ordered ? orderedDevice(run, idleGaps) : sortedDevice(ops, run.device, run.size, run.collectives, run.hostCopies, idleGaps);
    if (d.transfers) transfers = { copyNs: (transfers?.copyNs ?? 0) + d.transfers.copyNs, exposedNs: (transfers?.exposedNs ?? 0) + d.transfers.exposedNs };
    if (d.communication) communication = { collectiveNs: (communication?.collectiveNs ?? 0) + d.communication.collectiveNs, exposedNs: (communication?.exposedNs ?? 0) + d.communication.exposedNs };
    kernelStartsByDevice.push(d.kernelStarts ?? (ops.deviceRuns.size === 1 ? new Float64Array(0) : orderedKernelStarts(ops, run.device, run.kernels)));
    devices.push(d.busy);
    busyNs += d.busy.busy;
  }

  // One device in order: the log counts its kernels. Otherwise their starts, sorted.
  const only = ops.deviceRuns.size === 1 ? [...ops.deviceRuns.values()][0]! : undefined;
  let kernelCount: KernelCount;
  if (only?.ordered) kernelCount = kernelsOfOrderedLog(ops, kernels);
  else if (kernelStartsByDevice.length === 1) kernelCount = sortedKernels(kernelStartsByDevice[0]!);
  else {
    const kernelStarts = new Float64Array(kernels);
    let m = 0;
    for (const part of kernelStartsByDevice) {
      kernelStarts.set(part, m);
      m += part.length;
    }
    kernelStarts.sort();
    kernelCount = sortedKernels(kernelStarts);
  }
  const { busyByDecile, graphKernels } = tenthsOf(ops, spanStart, spanEnd, counts.graphCorrelations);

  const steps: Step[] = windows
    .slice()
    .sort((a, b) => a.start - b.start)
    .map((w) => ({
      name: w.name,
      startNs: w.start - spanStart,
      durNs: w.end - w.start,
      gpuBusyNs: devices.reduce((sum, device) => sum + busyWithin(device, w.start, w.end), 0),
      kernels: kernelCount.before(w.end) - kernelCount.before(w.start),
      ...(w.clock ? { clock: w.clock } : {}),
    }));

  // One device: the union's gaps are the device's, whose longest is known.
  const excludedGaps = devices.length ? excludedGapsOf(unionOfDevices(devices), windows, kernelCount, spanStart, counts.captureWindows, devices.length === 1 ? idleGaps.longestNs : undefined) : [];
  const spanNs = Math.max(0, spanEnd - spanStart);
  return {
    spanNs,
    busyNs,
    devices: ops.deviceRuns.size,
    idleGaps,
    kernelLaunches: counts.kernelLaunches,
    graphLaunches: counts.graphLaunches,
    graphKernels,
    steps,
    busyByDecile: Array.from(busyByDecile, (ns) => Math.round(ns)),
    excludedGaps,
    activeSpanNs: Math.max(0, spanNs - excludedGaps.reduce((sum, gap) => sum + gap.durNs, 0)),
    ...(communication ? { communication } : {}),
    ...(transfers ? { transfers } : {}),
  };
}

/**
 * One timeline per device, when the ops span several (a single-process multi-GPU run). Each is built
 * from that device's ops alone; its launch count is the kernels that ran on it (the API calls that
 * launched them are per process, not per device), and it has no graph-launch count.
 */
export function deviceTimelines(ops: OpLog, windows: StepWindow[], counts: TimelineCounts): Array<{ device: number; timeline: Timeline }> {
  if (ops.deviceRuns.size < 2) return [];
  const devices = new Map([...ops.deviceRuns].map(([device, run]) => [device, run.size]));
  return [...devices.keys()]
    .sort((a, b) => a - b)
    .map((device) => {
      const own = new OpLog(devices.get(device));
      let kernels = 0;
      for (let k = 0; k < ops.count; k++) {
        if (ops.devices[k] !== device) continue;
        own.push(ops.starts[k]!, ops.ends[k]!, device, ops.correlations[k]!, ops.kind[k] as OpKind);
        if (isKernel(ops.kind[k]!)) kernels++;
      }
      return { device, timeline: buildTimeline(own, windows, { kernelLaunches: kernels, graphLaunches: 0, graphCorrelations: counts.graphCorrelations, ...(counts.captureWindows ? { captureWindows: counts.captureWindows } : {}) }) };
    });
}
