/**
 * The timeline's interval unions (busy time, idle gaps, exposed collectives, exposed host copies,
 * kernels per step) on seeded random op logs of every kind over several devices, against a reading
 * written here from the definitions: each union by sorting its intervals by start and merging.
 */
import { mulberry32 } from '../../src/compare/statistics.js';
import { buildTimeline, OP_COLLECTIVE, OP_HOST_COPY, OP_KERNEL, OP_MEMOP, OpLog, type OpKind } from '../../src/ingest/common/timeline.js';

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

describe('timeline unions against the definition', () => {
  for (let seed = 1; seed <= 60; seed++) {
    it(`seed ${seed}`, () => {
      const ops = randomOps(seed);
      const log = new OpLog();
      for (const op of ops) log.push(op.start, op.end, op.device, 0, op.kind);
      const windows = [
        { name: 'ProfilerStep#1', start: 1000, end: 2500 },
        { name: 'ProfilerStep#2', start: 2500, end: 4000 },
      ];
      const timeline = buildTimeline(log, windows, { kernelLaunches: 0, graphLaunches: 0, graphCorrelations: new Set() });

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
      }
    });
  }
});
