/**
 * Per-launch GPU intervals, stored compactly (typed arrays, ~29 bytes an op), and the timeline
 * derived from them: busy time as the union of intervals per device (a sweep over separately sorted
 * starts and ends, so no comparator sort is needed), idle gaps, ProfilerStep windows, and kernel
 * time per tenth of the span. All times are ns from the trace's first decoded event.
 */
import type { Step, Timeline } from '../../model/capture.js';

export class OpLog {
  count = 0;
  starts = new Float64Array(1024);
  ends = new Float64Array(1024);
  devices = new Int32Array(1024);
  correlations = new Float64Array(1024);
  kernel = new Uint8Array(1024);

  push(start: number, end: number, device: number, correlation: number, isKernel: boolean): void {
    if (this.count === this.starts.length) this.grow();
    const k = this.count++;
    this.starts[k] = start;
    this.ends[k] = end;
    this.devices[k] = device;
    this.correlations[k] = correlation;
    this.kernel[k] = isKernel ? 1 : 0;
  }

  private grow(): void {
    const size = this.starts.length * 2;
    const grow = <T extends Float64Array | Int32Array | Uint8Array>(old: T, fresh: T): T => {
      fresh.set(old);
      return fresh;
    };
    this.starts = grow(this.starts, new Float64Array(size));
    this.ends = grow(this.ends, new Float64Array(size));
    this.devices = grow(this.devices, new Int32Array(size));
    this.correlations = grow(this.correlations, new Float64Array(size));
    this.kernel = grow(this.kernel, new Uint8Array(size));
  }
}

/** A ProfilerStep window, from the CPU annotation or (preferred) its projection on the GPU. */
export interface StepWindow {
  name: string;
  start: number;
  end: number;
}

export interface TimelineCounts {
  kernelLaunches: number;
  graphLaunches: number;
  graphCorrelations: ReadonlySet<number>;
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
 * Union of the device's op intervals; gaps (the spaces between merged intervals) are added to
 * `gaps`. The merged intervals are written over the sorted inputs (the k-th merged interval needs
 * at least k starts and k ends already read), so a trace of millions of ops needs no second copy.
 */
function mergeDevice(starts: Float64Array, ends: Float64Array, gaps: Gaps): DeviceBusy & { busy: number } {
  starts.sort();
  ends.sort();
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
  for (let k = lo; k < starts.length && starts[k]! < to; k++) total += Math.min(ends[k]!, to) - Math.max(starts[k]!, from);
  return total;
}

function lowerBound(sorted: Float64Array, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function buildTimeline(ops: OpLog, windows: StepWindow[], counts: TimelineCounts): Timeline {
  const n = ops.count;
  const perDevice = new Map<number, number>();
  let spanStart = Infinity;
  let spanEnd = -Infinity;
  let kernels = 0;
  for (let k = 0; k < n; k++) {
    perDevice.set(ops.devices[k]!, (perDevice.get(ops.devices[k]!) ?? 0) + 1);
    if (ops.starts[k]! < spanStart) spanStart = ops.starts[k]!;
    if (ops.ends[k]! > spanEnd) spanEnd = ops.ends[k]!;
    kernels += ops.kernel[k]!;
  }
  if (n === 0) spanStart = spanEnd = windows.length ? Math.min(...windows.map((w) => w.start)) : 0;

  const devices: DeviceBusy[] = [];
  let busyNs = 0;
  const idleGaps = { count: 0, totalNs: 0, longestNs: 0 };
  for (const [device, size] of perDevice) {
    const starts = new Float64Array(size);
    const ends = new Float64Array(size);
    let m = 0;
    for (let k = 0; k < n; k++) {
      if (ops.devices[k] !== device) continue;
      starts[m] = ops.starts[k]!;
      ends[m++] = ops.ends[k]!;
    }
    const merged = mergeDevice(starts, ends, idleGaps);
    devices.push(merged);
    busyNs += merged.busy;
  }

  const kernelStarts = new Float64Array(kernels);
  const busyByDecile = new Array<number>(10).fill(0);
  const width = (spanEnd - spanStart) / 10;
  let graphKernels = 0;
  for (let k = 0, m = 0; k < n; k++) {
    if (!ops.kernel[k]) continue;
    const start = ops.starts[k]!;
    const end = ops.ends[k]!;
    kernelStarts[m++] = start;
    if (counts.graphCorrelations.size && counts.graphCorrelations.has(ops.correlations[k]!)) graphKernels++;
    if (width <= 0) continue;
    for (let d = Math.min(9, Math.floor((start - spanStart) / width)); d < 10; d++) {
      const from = spanStart + d * width;
      const to = d === 9 ? spanEnd : from + width;
      if (from >= end) break;
      busyByDecile[d]! += Math.max(0, Math.min(end, to) - Math.max(start, from));
    }
  }
  kernelStarts.sort();

  const steps: Step[] = windows
    .slice()
    .sort((a, b) => a.start - b.start)
    .map((w) => ({
      name: w.name,
      startNs: w.start - spanStart,
      durNs: w.end - w.start,
      gpuBusyNs: devices.reduce((sum, device) => sum + busyWithin(device, w.start, w.end), 0),
      kernels: lowerBound(kernelStarts, w.end) - lowerBound(kernelStarts, w.start),
    }));

  return {
    spanNs: Math.max(0, spanEnd - spanStart),
    busyNs,
    devices: perDevice.size,
    idleGaps,
    kernelLaunches: counts.kernelLaunches,
    graphLaunches: counts.graphLaunches,
    graphKernels,
    steps,
    busyByDecile: busyByDecile.map((ns) => Math.round(ns)),
  };
}
