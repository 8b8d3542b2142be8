/**
 * Device peaks and the roofline position of one Nsight Compute result, from the capture itself
 * (peak_sustained metrics and clocks, or achieved ÷ share of peak), never from a table of GPUs.
 */
import type { NcuResult } from '../model/capture.js';
import { dramBytesPerSecond, metricRef as ref, NCU, ncuValue, ROOFLINE } from './ncu-metrics.js';
import { round } from './profile-measures.js';

export interface Roofline {
  precision: 'fp16' | 'fp32' | 'fp64';
  flopsPerSecond: number;
  peakFlopsPerSecond: number;
  /** FLOP per DRAM byte. */
  arithmeticIntensity: number;
  /** Peak FLOP/s ÷ peak DRAM bytes/s: below it a kernel sits under the memory roof. */
  ridgePoint: number;
  side: 'memory' | 'compute';
  /** Achieved FLOP/s as a share of the roof above the kernel's intensity, 0..1. */
  shareOfRoof: number;
}

/** A `<prefix>byte/cycle` value in bytes per cycle (ncu prints the DRAM peak as `Kbyte/cycle`). */
function bytesPerCycle(result: NcuResult, label: string, raw: string): number | undefined {
  const metric = result.metrics.find((m) => (m.section === ROOFLINE && m.name === label) || m.name === raw);
  const value = typeof metric?.value === 'number' && Number.isFinite(metric.value) ? metric.value : undefined;
  const prefix = /^([kmgt]?)byte\/cycle$/i.exec(metric?.unit ?? '')?.[1]?.toLowerCase();
  if (value === undefined || prefix === undefined) return undefined;
  return value * ({ '': 1, k: 1e3, m: 1e6, g: 1e9, t: 1e12 } as Record<string, number>)[prefix]!;
}

/** Peak DRAM bytes/s: from the roofline section's peak, else implied by achieved bandwidth ÷ DRAM share. */
export function dramPeakBytesPerSecond(result: NcuResult): number | undefined {
  const perCycle = bytesPerCycle(result, 'Theoretical DRAM Bytes Accessible', 'dram__bytes.sum.peak_sustained');
  const clock = ncuValue(result, NCU.dramClock);
  if (perCycle !== undefined && clock !== undefined) return perCycle * clock;
  const achieved = dramBytesPerSecond(result);
  const percent = ncuValue(result, NCU.dram);
  return achieved !== undefined && percent !== undefined && percent >= 1 ? achieved / (percent / 100) : undefined;
}

const PRECISIONS = [
  ['h', 'fp16', 'H'],
  ['f', 'fp32', 'F'],
  ['d', 'fp64', 'D'],
] as const;

/**
 * Where the kernel sits on the DRAM roofline, from the FP instruction counts ncu's roofline section
 * collects (add + mul + 2 × fma, predicated on). Tensor-core work is not in those counts, so a kernel
 * that keeps the tensor pipe busy gets no roofline rather than a misleadingly low one.
 */
export function roofline(result: NcuResult): Roofline | undefined {
  if ((ncuValue(result, NCU.tensorPipe) ?? 0) >= 5) return undefined;
  const smClock = ncuValue(result, NCU.smClock);
  const smspClock = ncuValue(result, NCU.smspClock) ?? smClock;
  const duration = ncuValue(result, NCU.duration);
  let best: Omit<Roofline, 'arithmeticIntensity' | 'ridgePoint' | 'side' | 'shareOfRoof'> | undefined;
  for (const [p, precision, P] of PRECISIONS) {
    const perCycle = (op: string, weight: number): number | undefined => {
      const value = ncuValue(result, ref(ROOFLINE, `Predicated-On ${P}${op.toUpperCase()} Thread Instructions Executed Per Cycle`, [`smsp__sass_thread_inst_executed_op_${p}${op}_pred_on.sum.per_cycle_elapsed`]));
      return value === undefined ? undefined : value * weight;
    };
    const count = (op: string, weight: number): number | undefined => {
      const value = ncuValue(result, ref('', '', [`sm__sass_thread_inst_executed_op_${p}${op}_pred_on.sum`, `smsp__sass_thread_inst_executed_op_${p}${op}_pred_on.sum`]));
      return value === undefined ? undefined : value * weight;
    };
    const sum = (values: Array<number | undefined>): number | undefined => (values.some((v) => v !== undefined) ? values.reduce<number>((a, v) => a + (v ?? 0), 0) : undefined);
    const rate = sum([perCycle('add', 1), perCycle('mul', 1), perCycle('fma', 2)]);
    const total = sum([count('add', 1), count('mul', 1), count('fma', 2)]);
    const flopsPerSecond = rate !== undefined && smspClock ? rate * smspClock : total !== undefined && duration ? total / (duration / 1e9) : undefined;
    const peakPerCycle = ncuValue(result, ref(ROOFLINE, `Theoretical Predicated-On ${P}FMA Thread Instructions Executed`, [`sm__sass_thread_inst_executed_op_${p}fma_pred_on.sum.peak_sustained`]));
    if (!flopsPerSecond || peakPerCycle === undefined || !smClock) continue;
    if (!best || flopsPerSecond > best.flopsPerSecond) best = { precision, flopsPerSecond, peakFlopsPerSecond: peakPerCycle * 2 * smClock };
  }
  const bandwidth = dramBytesPerSecond(result);
  const peakBandwidth = dramPeakBytesPerSecond(result);
  if (!best || !bandwidth || !peakBandwidth) return undefined;
  const arithmeticIntensity = best.flopsPerSecond / bandwidth;
  const ridgePoint = best.peakFlopsPerSecond / peakBandwidth;
  const roof = Math.min(best.peakFlopsPerSecond, arithmeticIntensity * peakBandwidth);
  return { ...best, arithmeticIntensity, ridgePoint, side: arithmeticIntensity < ridgePoint ? 'memory' : 'compute', shareOfRoof: best.flopsPerSecond / roof };
}

/** Roofline numbers as finding evidence (empty when the capture has no FP instruction counts). */
export function rooflineEvidence(result: NcuResult): Record<string, number | string> {
  const r = roofline(result);
  if (!r) return {};
  return {
    rooflinePrecision: r.precision,
    flopsPerSecond: Number(r.flopsPerSecond.toPrecision(4)),
    peakFlopsPerSecond: Number(r.peakFlopsPerSecond.toPrecision(4)),
    arithmeticIntensity: Number(r.arithmeticIntensity.toPrecision(4)),
    ridgePoint: Number(r.ridgePoint.toPrecision(4)),
    rooflineSide: r.side,
    shareOfRoof: round(r.shareOfRoof),
  };
}

