/**
 * What limits one profiled launch: memory, compute or latency. Nsight Compute's own SOLBottleneck
 * verdict is the first evidence; the SpeedOfLight numbers (SM, and every memory level it gives:
 * ncu's Memory Throughput, DRAM, L2, L1/TEX) confirm it, fill in when the verdict is missing, and
 * overrule it only where its own text does not fit (an L1 verdict on a kernel whose math pipes are
 * the busiest unit), always saying why. The three bound rules read this one reading, so a launch
 * gets at most one bound.
 */
import type { NcuResult } from '../model/capture.js';
import { busiestMemory, memoryThroughput, NCU, ncuValue, percentText, type MemoryUnit } from './ncu-metrics.js';
import { round } from './profile-measures.js';

export type Bound = 'memory' | 'compute' | 'latency';

export interface NcuVerdict {
  bound: Bound;
  unit?: MemoryUnit;
  /** "SOLBottleneck (INF)" */
  rule: string;
  text: string;
}

const UNIT_WORDS: Record<string, MemoryUnit> = { DRAM: 'DRAM', L2: 'L2', L1: 'L1/TEX', 'L1/TEX': 'L1/TEX' };

/** ncu's SOLBottleneck rule as a bound; undefined when it did not fire or speaks of the grid only. */
export function ncuVerdict(result: NcuResult): NcuVerdict | undefined {
  for (const rule of result.rules) {
    if (rule.name !== 'SOLBottleneck') continue;
    const text = rule.description.replace(/\s+/g, ' ').trim();
    const base = { rule: `SOLBottleneck (${rule.type})`, text };
    if (/low compute throughput and memory bandwidth utilization/i.test(text)) return { ...base, bound: 'latency' };
    if (/Compute is more heavily utilized than Memory/i.test(text)) return { ...base, bound: 'compute' };
    const unit = UNIT_WORDS[/(?:Start by analyzing|identify the) (DRAM|L2|L1\/TEX|L1)\b/i.exec(text)?.[1]?.toUpperCase() ?? ''];
    if (/Memory is more heavily utilized than Compute/i.test(text)) return { ...base, bound: 'memory', ...(unit ? { unit } : {}) };
    if (/greater than [\d.]+% of the available compute or memory/i.test(text)) {
      if (/analyzing workloads in the Compute Workload Analysis/i.test(text)) return { ...base, bound: 'compute' };
      if (unit) return { ...base, bound: 'memory', unit };
    }
  }
  return undefined;
}

export interface BoundOptions {
  /** A roof is near at this share of peak, in percent. */
  roofPercent: number;
  /** The bound side leads the other by at least this many points. */
  leadPoints: number;
}

export const BOUND_DEFAULTS: BoundOptions = { roofPercent: 60, leadPoints: 20 };

export interface BoundReading {
  bound: Bound;
  compute?: number;
  /** The memory side: the unit and its share of peak (absent when only ncu's verdict names it). */
  memoryUnit?: MemoryUnit;
  memoryPercent?: number;
  verdict?: NcuVerdict;
  /** How the reading relates to ncu's verdict. */
  agreement: 'agrees' | 'no ncu verdict' | 'from ncu verdict' | 'overrules ncu';
  /** Why the reading is not what the numbers alone, or ncu alone, would say. */
  why?: string;
}

/** The bound the SpeedOfLight numbers show, with the memory side they read. */
function fromNumbers(result: NcuResult, o: BoundOptions): { bound?: Bound; compute?: number; memory?: { unit: MemoryUnit; percent: number }; headline: boolean } {
  const compute = ncuValue(result, NCU.compute);
  const memory = memoryThroughput(result);
  const headline = ncuValue(result, NCU.memory) !== undefined;
  if (compute === undefined || !memory) return { ...(compute !== undefined ? { compute } : {}), ...(memory ? { memory } : {}), headline };
  const offChip = busiestMemory(result, ['DRAM', 'L2']);
  let bound: Bound | undefined;
  if (memory.percent >= o.roofPercent && compute <= memory.percent - o.leadPoints) bound = 'memory';
  // On-chip L1/shared traffic feeds the math units of a compute-bound kernel; the memory roofs are DRAM and L2.
  else if (offChip && compute >= o.roofPercent && offChip.percent <= compute - o.leadPoints && memory.percent < compute + o.leadPoints) bound = 'compute';
  else if (compute < o.roofPercent && memory.percent < o.roofPercent) bound = 'latency';
  return { ...(bound ? { bound } : {}), compute, memory, headline };
}

/** The launch's bound, ncu's verdict first; undefined when neither the verdict nor the numbers decide. */
export function readBound(result: NcuResult, o: BoundOptions = BOUND_DEFAULTS): BoundReading | undefined {
  const numbers = fromNumbers(result, o);
  const verdict = ncuVerdict(result);
  const measured = (unit?: MemoryUnit) => {
    const ref = unit && unit !== 'memory pipes' ? { DRAM: NCU.dram, L2: NCU.l2, 'L1/TEX': NCU.l1 }[unit] : undefined;
    const percent = ref ? ncuValue(result, ref) : undefined;
    if (unit && percent !== undefined) return { memoryUnit: unit, memoryPercent: percent };
    return numbers.memory && (!unit || unit === numbers.memory.unit) ? { memoryUnit: numbers.memory.unit, memoryPercent: numbers.memory.percent } : unit ? { memoryUnit: unit } : {};
  };
  const base = { ...(numbers.compute !== undefined ? { compute: numbers.compute } : {}) };
  if (!verdict) return numbers.bound ? { ...base, bound: numbers.bound, ...measured(), agreement: 'no ncu verdict' } : undefined;
  if (verdict.bound === numbers.bound) return { ...base, bound: verdict.bound, ...measured(verdict.unit), verdict, agreement: 'agrees' };

  const dram = ncuValue(result, NCU.dram);
  const l2 = ncuValue(result, NCU.l2);
  const compute = numbers.compute;
  if (numbers.bound === 'compute' && verdict.bound === 'memory' && verdict.unit === 'L1/TEX' && compute !== undefined) {
    const l1 = ncuValue(result, NCU.l1);
    const offChip = [dram !== undefined ? `DRAM ${percentText(dram)}` : '', l2 !== undefined ? `L2 ${percentText(l2)}` : ''].filter(Boolean).join(', ');
    return {
      ...base,
      bound: 'compute',
      ...measured(),
      verdict,
      agreement: 'overrules ncu',
      why: `ncu's SOLBottleneck points at L1/TEX${l1 !== undefined ? ` (${percentText(l1)})` : ''}: with SM throughput at ${percentText(compute)} that is the on-chip staging that feeds the math pipes, while the off-chip roofs are far (${offChip})`,
    };
  }
  // Complete numbers (SM and ncu's own Memory Throughput) read with this rule's thresholds are the
  // user's choice when they differ from ncu's fixed 60/80% bands; otherwise ncu's verdict stands.
  if (numbers.bound && numbers.headline && numbers.memory && compute !== undefined) {
    return {
      ...base,
      bound: numbers.bound,
      ...measured(),
      verdict,
      agreement: 'overrules ncu',
      why: `ncu's SOLBottleneck reads ${verdict.bound}${verdict.unit ? ` (${verdict.unit})` : ''} by its own bands; with a roof at ${o.roofPercent}% and a lead of ${o.leadPoints} points, SM ${percentText(compute)} and memory (${numbers.memory.unit}) ${percentText(numbers.memory.percent)} read ${numbers.bound}-bound`,
    };
  }
  const numbersSaid = numbers.memory && compute !== undefined
    ? `The SpeedOfLight numbers alone do not decide (SM ${percentText(compute)}, ${numbers.memory.unit} ${percentText(numbers.memory.percent)})`
    : 'The capture lacks the SpeedOfLight numbers to check it';
  const missing = !numbers.headline ? '; the capture has no Memory Throughput row, the figure ncu weighs every memory unit by' : '';
  return { ...base, bound: verdict.bound, ...measured(verdict.unit), verdict, agreement: 'from ncu verdict', why: `${numbersSaid}${missing}; ncu's own verdict is followed` };
}

/** The reading as finding evidence. */
export function boundEvidence(reading: BoundReading): Record<string, number | string> {
  return {
    ...(reading.memoryUnit ? { memoryUnit: reading.memoryUnit } : {}),
    ...(reading.memoryPercent !== undefined ? { memoryPercent: round(reading.memoryPercent, 2) } : {}),
    ...(reading.verdict ? { ncuBottleneck: reading.verdict.unit ? `${reading.verdict.bound} (${reading.verdict.unit})` : reading.verdict.bound } : {}),
    boundSource: reading.agreement,
    ...(reading.why ? { whyNotNcu: reading.why } : {}),
  };
}

/** Every throughput level the capture gives, as evidence: SM, ncu's Memory Throughput, DRAM, L2, L1/TEX. */
export function levelEvidence(result: NcuResult): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, ref] of [['computePercent', NCU.compute], ['memoryThroughputPercent', NCU.memory], ['dramPercent', NCU.dram], ['l2Percent', NCU.l2], ['l1Percent', NCU.l1]] as const) {
    const value = ncuValue(result, ref);
    if (value !== undefined) out[key] = round(value, 2);
  }
  return out;
}
