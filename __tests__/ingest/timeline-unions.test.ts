/**
 * The timeline's interval unions (busy time, idle gaps, exposed collectives, exposed host copies,
 * kernels per step) on seeded random op logs of every kind over several devices, against a reading
 * written here from the definitions: each union by sorting its intervals by start and merging.
 */
import { mulberry32 } from '../../src/compare/statistics.js';
import { buildTimeline, nthSmallest, OP_COLLECTIVE, OP_HOST_COPY, OP_KERNEL, OP_MEMOP, OpLog, type OpKind } from '../../src/ingest/common/timeline.js';

interface Op {
  start: number;
  end: number;
  device: number;
  kind: OpKind;
}

/** Union length and gaps between merged intervals, by the definition. */
function union(ops: readonly Op[]): { ns: number; gaps: number[] } {
  const sorted = [...ops].sort((a, b) => a.start - b.start);
  let ns = 0;
  const gaps: number[] = [];
  let open = NaN;
  let close = NaN;
  for (const op of sorted) {
    if (Number.isNaN(open)) [open, close] = [op.start, op.end];
    else if (op.start <= close) close = Math.max(close, op.end);
    else {
      ns += close - open;
      gaps.push(op.start - close);
      [open, close] = [op.start, op.end];
    }
  }
  if (!Number.isNaN(open)) ns += close - open;
  return { ns, gaps };
}

const KINDS: OpKind[] = [OP_MEMOP, OP_KERNEL, OP_COLLECTIVE, OP_HOST_COPY];

function randomOps(seed: number): Op[] {
  const next = mulberry32(seed);
  const devices = 1 + Math.floor(next() * 3);
  const count = 1 + Math.floor(next() * 400);
  const ops: Op[] = [];
  for (let k = 0; k < count; k++) {
    // Whole ns on a short span, so that ties (equal starts, an op starting where another ends) happen.
    const start = Math.floor(next() * 5000);
    const kind = KINDS[Math.floor(next() * (seed % 3 === 0 ? 2 : 4))]!;
    ops.push({ start, end: start + Math.floor(next() * 120), device: Math.floor(next() * devices), kind });
  }
  return ops;
}

const isKernel = (op: Op) => op.kind === OP_KERNEL || op.kind === OP_COLLECTIVE;

/** Length of the union of the ops clipped to [from, to). */
function unionWithin(ops: readonly Op[], from: number, to: number): number {
  const clipped = ops.filter((op) => op.end > from && op.start < to).map((op) => ({ ...op, start: Math.max(op.start, from), end: Math.min(op.end, to) }));
  return union(clipped).ns;
}

/**
 * The op log in three orders: as drawn (out of order: the timeline sorts), each device's ops in
 * order of start as a trace lists them (merged as they come), and in order but for the last
 * device (both ways in one log, the gaps of a device merged as they came after another's).
 */
const LAYOUTS = ['as drawn', 'in order', 'in order but the last device'] as const;

function laidOut(ops: Op[], layout: (typeof LAYOUTS)[number]): Op[] {
  if (layout === 'as drawn') return ops;
  const sorted = [...ops].sort((a, b) => a.start - b.start);
  if (layout === 'in order') return sorted;
  const last = Math.max(...ops.map((op) => op.device));
  return [...sorted.filter((op) => op.device !== last), ...ops.filter((op) => op.device === last)];
}

const WINDOWS = [
  { name: 'ProfilerStep#1', start: 1000, end: 2500 },
  { name: 'ProfilerStep#2', start: 2500, end: 4000 },
];
const NO_COUNTS = { kernelLaunches: 0, graphLaunches: 0, graphCorrelations: new Set<number>() };

describe('timeline unions against the definition', () => {
  for (let seed = 1; seed <= 60; seed++) {
    it.each(LAYOUTS)(`seed ${seed}, ops %s`, (layout) => {
      const ops = laidOut(randomOps(seed), layout);
      const log = new OpLog();
      for (const op of ops) log.push(op.start, op.end, op.device, 0, op.kind);
      const windows = WINDOWS;
      const timeline = buildTimeline(log, windows, NO_COUNTS);

      const devices = [...new Set(ops.map((op) => op.device))];
      let busy = 0;
      const gaps: number[] = [];
      let collectiveNs = 0;
      let exposedCollectiveNs = 0;
      let copyNs = 0;
      let exposedCopyNs = 0;
      for (const device of devices) {
        const own = ops.filter((op) => op.device === device);
        const all = union(own);
        busy += all.ns;
        gaps.push(...all.gaps);
        const kernels = union(own.filter(isKernel)).ns;
        if (own.some((op) => op.kind === OP_COLLECTIVE)) {
          collectiveNs += union(own.filter((op) => op.kind === OP_COLLECTIVE)).ns;
          exposedCollectiveNs += Math.max(0, kernels - union(own.filter((op) => op.kind === OP_KERNEL)).ns);
        }
        if (own.some((op) => op.kind === OP_HOST_COPY)) {
          copyNs += union(own.filter((op) => op.kind === OP_HOST_COPY)).ns;
          exposedCopyNs += Math.max(0, union(own.filter((op) => op.kind === OP_HOST_COPY || isKernel(op))).ns - kernels);
        }
      }
      expect(timeline.busyNs).toBe(busy);
      expect(timeline.devices).toBe(devices.length);
      expect(timeline.idleGaps).toEqual({ count: gaps.length, totalNs: gaps.reduce((a, b) => a + b, 0), longestNs: gaps.length ? Math.max(...gaps) : 0 });
      if (ops.some((op) => op.kind === OP_COLLECTIVE)) expect(timeline.communication).toEqual({ collectiveNs, exposedNs: exposedCollectiveNs });
      else expect(timeline.communication).toBeUndefined();
      if (ops.some((op) => op.kind === OP_HOST_COPY)) expect(timeline.transfers).toEqual({ copyNs, exposedNs: exposedCopyNs });
      else expect(timeline.transfers).toBeUndefined();
      const spanStart = Math.min(...ops.map((op) => op.start));
      for (const [k, step] of timeline.steps.entries()) {
        const w = windows[k]!;
        expect(step.startNs).toBe(w.start - spanStart);
        expect(step.kernels).toBe(ops.filter((op) => isKernel(op) && op.start >= w.start && op.start < w.end).length);
        expect(step.gpuBusyNs).toBe(devices.reduce((sum, device) => sum + unionWithin(ops.filter((op) => op.device === device), w.start, w.end), 0));
      }
    });
  }

  it('reads a log again the same, and one that grew after it was read as if built whole', () => {
    const ops = laidOut(randomOps(7), 'in order');
    const half = ops.length >> 1;
    const log = new OpLog(4);
    for (const op of ops.slice(0, half)) log.push(op.start, op.end, op.device, 0, op.kind);
    const first = buildTimeline(log, WINDOWS, NO_COUNTS);
    expect(buildTimeline(log, WINDOWS, NO_COUNTS)).toEqual(first);
    for (const op of ops.slice(half)) log.push(op.start, op.end, op.device, 0, op.kind);
    const whole = new OpLog();
    for (const op of ops) whole.push(op.start, op.end, op.device, 0, op.kind);
    expect(buildTimeline(log, WINDOWS, NO_COUNTS)).toEqual(buildTimeline(whole, WINDOWS, NO_COUNTS));
    expect(first.busyNs).toBeLessThan(buildTimeline(whole, WINDOWS, NO_COUNTS).busyNs);
  });
});

describe('the median gap without a sort', () => {
  for (let seed = 1; seed <= 30; seed++) {
    it(`seed ${seed}: every rank is the sorted array's`, () => {
      const next = mulberry32(seed);
      const length = 1 + Math.floor(next() * 300);
      // Few distinct values on some seeds: runs of equal values around the pivot.
      const spread = seed % 2 ? 1e6 : 5;
      const values = Float64Array.from({ length }, () => Math.floor(next() * spread));
      const sorted = values.slice().sort();
      for (const rank of [0, length >> 1, length - 1, Math.floor(next() * length)]) expect(nthSmallest(values.slice(), rank)).toBe(sorted[rank]);
    });
  }
});
