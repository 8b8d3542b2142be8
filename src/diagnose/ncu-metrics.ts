/**
 * Nsight Compute results read for the deep-dive rules. A value is looked up by (section, label) as
 * the details page prints it, then by its raw metric names in any section (the raw page, or
 * `--metrics` rows under "Command line profiler metrics"). Several launches of one kernel are
 * represented by the launch of median duration, so every number of a finding comes from one launch.
 * Peaks and the roofline are in ncu-roofline.ts.
 */
import { matchKernel } from '../classify/kernel-name.js';
import type { NcuResult } from '../model/capture.js';
import type { Kernel } from '../model/profile.js';
import type { DeepDiveMatch } from '../model/report.js';
import { deepDiveRequest } from './deep-dive-request.js';
import { round } from './profile-measures.js';
import type { KernelFamily } from '../model/family-ids.js';

type Rule = NcuResult['rules'][number];

const SOL = 'GPU Speed Of Light Throughput';
const LAUNCH = 'Launch Statistics';
const OCCUPANCY = 'Occupancy';
const MEMORY = 'Memory Workload Analysis';
const MEMORY_TABLES = 'Memory Workload Analysis Tables';
const WARPS = 'Warp State Statistics';
const SCHEDULER = 'Scheduler Statistics';
const SOURCE = 'Source Counters';
export const ROOFLINE = 'GPU Speed Of Light Roofline Chart';

export interface MetricRef {
  /** Section display name and metric label on the details page; empty for raw-only metrics. */
  section: string;
  label: string;
  raw: readonly string[];
  /** The base unit the value must carry (ns, byte/s, hz, %), where the label alone is ambiguous. */
  unit?: string;
}

export const metricRef = (section: string, label: string, raw: string[], unit?: string): MetricRef => ({ section, label, raw, ...(unit ? { unit } : {}) });
const ref = metricRef;

/** The metrics the rules read, with the details label and the raw names of the same quantity. */
export const NCU = {
  duration: ref(SOL, 'Duration', ['gpu__time_duration.sum', 'gpu__time_duration.avg'], 'ns'),
  compute: ref(SOL, 'Compute (SM) Throughput', ['sm__throughput.avg.pct_of_peak_sustained_elapsed']),
  memory: ref(SOL, 'Memory Throughput', ['gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed'], '%'),
  dram: ref(SOL, 'DRAM Throughput', ['gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed', 'dram__throughput.avg.pct_of_peak_sustained_elapsed']),
  l2: ref(SOL, 'L2 Cache Throughput', ['lts__throughput.avg.pct_of_peak_sustained_elapsed']),
  l1: ref(SOL, 'L1/TEX Cache Throughput', ['l1tex__throughput.avg.pct_of_peak_sustained_active']),
  smClock: ref(SOL, 'SM Frequency', ['sm__cycles_elapsed.avg.per_second', 'gpc__cycles_elapsed.avg.per_second'], 'hz'),
  dramClock: ref(SOL, 'DRAM Frequency', ['dram__cycles_elapsed.avg.per_second'], 'hz'),
  dramBytesPerSecond: ref(MEMORY, 'Memory Throughput', ['dram__bytes.sum.per_second'], 'byte/s'),
  dramBytes: ref('', '', ['dram__bytes.sum'], 'byte'),
  dramBytesRead: ref('', '', ['dram__bytes_read.sum'], 'byte'),
  dramBytesWrite: ref('', '', ['dram__bytes_write.sum'], 'byte'),
  grid: ref(LAUNCH, 'Grid Size', ['launch__grid_size']),
  block: ref(LAUNCH, 'Block Size', ['launch__block_size']),
  smCount: ref(LAUNCH, '# SMs', ['launch__sm_count', 'device__attribute_multiprocessor_count']),
  waves: ref(LAUNCH, 'Waves Per SM', ['launch__waves_per_multiprocessor']),
  registers: ref(LAUNCH, 'Registers Per Thread', ['launch__registers_per_thread']),
  theoreticalOccupancy: ref(OCCUPANCY, 'Theoretical Occupancy', ['sm__maximum_warps_per_active_cycle_pct']),
  achievedOccupancy: ref(OCCUPANCY, 'Achieved Occupancy', ['sm__warps_active.avg.pct_of_peak_sustained_active']),
  limitRegisters: ref(OCCUPANCY, 'Block Limit Registers', ['launch__occupancy_limit_registers']),
  limitSharedMem: ref(OCCUPANCY, 'Block Limit Shared Mem', ['launch__occupancy_limit_shared_mem']),
  limitWarps: ref(OCCUPANCY, 'Block Limit Warps', ['launch__occupancy_limit_warps']),
  limitBlocks: ref(OCCUPANCY, 'Block Limit SM', ['launch__occupancy_limit_blocks']),
  warpCycles: ref(WARPS, 'Warp Cycles Per Issued Instruction', ['smsp__average_warp_latency_per_inst_issued.ratio']),
  eligibleWarps: ref(SCHEDULER, 'Eligible Warps Per Scheduler', ['smsp__warps_eligible.avg.per_cycle_active']),
  globalExcessSectors: ref(SOURCE, 'L2 Theoretical Sectors Global Excessive', ['derived__memory_l2_theoretical_sectors_global_excessive']),
  globalIdealSectors: ref(SOURCE, 'L2 Theoretical Sectors Global Ideal', ['memory_l2_theoretical_sectors_global_ideal']),
  sharedExcessWavefronts: ref(SOURCE, 'L1 Wavefronts Shared Excessive', ['derived__memory_l1_wavefronts_shared_excessive']),
  sharedIdealWavefronts: ref(SOURCE, 'L1 Wavefronts Shared Ideal', ['memory_l1_wavefronts_shared_ideal']),
  globalLoadBytesPerSector: ref(MEMORY_TABLES, 'Average Bytes Per Sector For Global Loads', ['smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.ratio']),
  tensorPipe: ref('', '', ['sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_elapsed']),
  smspClock: ref('', '', ['smsp__cycles_elapsed.avg.per_second'], 'hz'),
} as const;

function numeric(metric: NcuResult['metrics'][number] | undefined, unit?: string): number | undefined {
  if (!metric || typeof metric.value !== 'number' || !Number.isFinite(metric.value)) return undefined;
  return unit && metric.unit !== unit ? undefined : metric.value;
}

/** One value of a result: its details label first, then its raw names; undefined when not captured. */
export function ncuValue(result: NcuResult, metric: MetricRef): number | undefined {
  if (metric.label) {
    const labelled = numeric(
      result.metrics.find((m) => m.section === metric.section && m.name === metric.label && typeof m.value === 'number'),
      metric.unit,
    );
    if (labelled !== undefined) return labelled;
  }
  for (const name of metric.raw) {
    const value = numeric(result.metrics.find((m) => m.name === name && typeof m.value === 'number'), metric.unit);
    if (value !== undefined) return value;
  }
  return undefined;
}

const STALLS: Array<[reason: string, label: string]> = [
  ['long_scoreboard', 'Stall Long Scoreboard'],
  ['short_scoreboard', 'Stall Short Scoreboard'],
  ['wait', 'Stall Wait'],
  ['barrier', 'Stall Barrier'],
  ['mio_throttle', 'Stall MIO Throttle'],
  ['lg_throttle', 'Stall LG Throttle'],
  ['math_pipe_throttle', 'Stall Math Pipe Throttle'],
  ['not_selected', 'Stall Not Selected'],
  ['dispatch_stall', 'Stall Dispatch Stall'],
  ['no_instruction', 'Stall No Instruction'],
  ['branch_resolving', 'Stall Branch Resolving'],
  ['drain', 'Stall Drain'],
  ['membar', 'Stall Membar'],
  ['sleeping', 'Stall Sleeping'],
  ['tex_throttle', 'Stall Tex Throttle'],
  ['imc_miss', 'Stall IMC Miss'],
  ['gmma', 'Stall GMMA'],
  ['misc', 'Stall Misc'],
];

/** The warp stall reason with the most cycles per issued instruction (WarpStateStats), when captured. */
export function topStall(result: NcuResult): { reason: string; cycles: number } | undefined {
  let best: { reason: string; cycles: number } | undefined;
  for (const [reason, label] of STALLS) {
    const cycles = ncuValue(result, ref(WARPS, label, [`smsp__average_warps_issue_stalled_${reason}_per_issue_active.ratio`]));
    if (cycles !== undefined && cycles > (best?.cycles ?? 0)) best = { reason, cycles };
  }
  return best;
}

/** Achieved DRAM bytes/s: the capture's rate, else DRAM bytes ÷ duration. */
export function dramBytesPerSecond(result: NcuResult): number | undefined {
  const rate = ncuValue(result, NCU.dramBytesPerSecond);
  if (rate !== undefined) return rate;
  const duration = ncuValue(result, NCU.duration);
  const read = ncuValue(result, NCU.dramBytesRead);
  const bytes = ncuValue(result, NCU.dramBytes) ?? (read !== undefined ? read + (ncuValue(result, NCU.dramBytesWrite) ?? 0) : undefined);
  return bytes !== undefined && duration ? bytes / (duration / 1e9) : undefined;
}

export interface KernelDeepDive {
  /** The kernel as the breakdown names it when a timing capture has it, else as ncu names it. */
  kernel: string;
  /** The kernel as Nsight Compute names it. */
  ncuKernel: string;
  /** The launch the numbers come from: of the kernel's profiled launches, the one of median duration. */
  result: NcuResult;
  launches: number;
  /** The breakdown kernel it was matched to by key, when the breakdown comes from a timing capture. */
  breakdown?: Pick<Kernel, 'name' | 'share' | 'instances' | 'totalNs' | 'family'>;
  /** The kernel's family (the breakdown's, or the family of ncu's own row). */
  family?: KernelFamily;
}

type BreakdownKernel = Pick<Kernel, 'name' | 'share' | 'instances' | 'totalNs'> & { family?: KernelFamily };

/**
 * One entry per profiled kernel, in the order the capture first lists them, each matched by its
 * normalized key to the kernel of the breakdown it is (nsys, Kineto and rocprof spell names their
 * own way). When the breakdown is ncu's own rows (an ncu-only input), they give the family only:
 * replayed launches say nothing about shares.
 */
export function deepDiveKernels(results: readonly NcuResult[], kernels: readonly BreakdownKernel[] = []): KernelDeepDive[] {
  const byKernel = new Map<string, NcuResult[]>();
  for (const result of results) byKernel.set(result.kernel, [...(byKernel.get(result.kernel) ?? []), result]);
  const ncuOwn = kernels.every((k) => byKernel.has(k.name));
  return [...byKernel.entries()].map(([name, launches]) => {
    const sorted = [...launches].sort((a, b) => (ncuValue(a, NCU.duration) ?? 0) - (ncuValue(b, NCU.duration) ?? 0) || a.id - b.id);
    const match = matchKernel(name, kernels);
    const dive: KernelDeepDive = { kernel: name, ncuKernel: name, result: sorted[(sorted.length - 1) >> 1]!, launches: launches.length };
    if (match?.family) dive.family = match.family;
    if (match && !ncuOwn) {
      dive.kernel = match.name;
      dive.breakdown = { name: match.name, share: match.share, instances: match.instances, totalNs: match.totalNs, family: match.family ?? 'other' };
    }
    return dive;
  });
}

/**
 * The deep dives as a report holds them: each profiled kernel matched to its breakdown row, its
 * median launch by index in `results`, and the ids of the findings about it.
 */
export function deepDiveMatches(
  results: readonly NcuResult[],
  kernels: readonly BreakdownKernel[],
  findings: readonly { id: string; kernel?: string | undefined }[],
): DeepDiveMatch[] {
  return deepDiveKernels(results, kernels).map((dive) => ({
    kernel: dive.kernel,
    result: results.indexOf(dive.result),
    launches: dive.launches,
    // dominant-kernel is about the kernel's share, which its row shows already.
    findings: [...new Set(findings.filter((f) => f.kernel === dive.kernel && f.id !== 'dominant-kernel').map((f) => f.id))],
  }));
}

/** Where a deep-dive finding's kernel sits in the breakdown, as evidence (nothing for an ncu-only input). */
export function breakdownEvidence(dive: KernelDeepDive): Record<string, number | string> {
  if (!dive.breakdown) return {};
  return {
    share: round(dive.breakdown.share),
    ...(dive.breakdown.name !== dive.ncuKernel ? { ncuKernel: displayKernel(dive.ncuKernel) } : {}),
  };
}

/** " (57.0% of GPU kernel time)" after the kernel's name, when the breakdown has it. */
export function shareText(dive: KernelDeepDive): string {
  return dive.breakdown ? ` (${(dive.breakdown.share * 100).toFixed(1)}% of GPU kernel time)` : '';
}

/** The follow-up ncu request for this kernel with the sections that show the cause. */
export function followUp(dive: KernelDeepDive, sections: readonly string[]) {
  return deepDiveRequest(dive.kernel, dive.breakdown?.instances ?? dive.launches, sections);
}

/** A memory level; `memory pipes` is ncu's Memory Throughput when no level's own headline is near it (it also weighs the load/store pipes). */
export type MemoryUnit = 'DRAM' | 'L2' | 'L1/TEX' | 'memory pipes';
type MemoryLevel = Exclude<MemoryUnit, 'memory pipes'>;
const UNIT_REFS: Record<MemoryLevel, MetricRef> = { DRAM: NCU.dram, L2: NCU.l2, 'L1/TEX': NCU.l1 };

/** The busiest of the given memory units by their SpeedOfLight throughput, or undefined. */
export function busiestMemory(result: NcuResult, units: readonly MemoryLevel[] = ['DRAM', 'L2', 'L1/TEX']): { unit: MemoryLevel; percent: number } | undefined {
  let best: { unit: MemoryLevel; percent: number } | undefined;
  for (const unit of units) {
    const percent = ncuValue(result, UNIT_REFS[unit]);
    if (percent !== undefined && percent > (best?.percent ?? -1)) best = { unit, percent };
  }
  return best;
}

/**
 * The memory side of SpeedOfLight: ncu's own Memory Throughput (its summary of the memory
 * hierarchy, the figure its SOLBottleneck rule weighs against compute), named after the unit whose
 * headline is closest to it (DRAM when within a point; `memory pipes` when every level is more than
 * two points off, as on vllm.cpp's GB10 GEMV). Without it, the busiest unit.
 */
export function memoryThroughput(result: NcuResult): { unit: MemoryUnit; percent: number } | undefined {
  const percent = ncuValue(result, NCU.memory);
  if (percent === undefined) return busiestMemory(result);
  const dram = ncuValue(result, NCU.dram);
  if (dram !== undefined && Math.abs(dram - percent) <= 1) return { unit: 'DRAM', percent };
  let unit: MemoryUnit = 'memory pipes';
  let distance = Infinity;
  for (const candidate of ['DRAM', 'L2', 'L1/TEX'] as const) {
    const value = ncuValue(result, UNIT_REFS[candidate]);
    if (value !== undefined && Math.abs(value - percent) < distance) [unit, distance] = [candidate, Math.abs(value - percent)];
  }
  // Without any level headline, name the unit as before (DRAM); with levels all far from it, none of them.
  if (distance === Infinity) unit = 'DRAM';
  else if (distance > 2) unit = 'memory pipes';
  return { unit, percent };
}

/** The higher of compute and memory throughput, 0 when neither was captured. */
export function roofPercent(result: NcuResult): number {
  return Math.max(ncuValue(result, NCU.compute) ?? 0, memoryThroughput(result)?.percent ?? 0);
}

/** Waves per SM: the capture's own figure, else grid ÷ (SMs × resident blocks per SM). */
export function wavesPerSm(result: NcuResult): { waves: number; source: 'launch-stats' | 'computed' } | undefined {
  const waves = ncuValue(result, NCU.waves);
  if (waves !== undefined) return { waves, source: 'launch-stats' };
  const grid = gridBlocks(result);
  const sms = ncuValue(result, NCU.smCount);
  const limits = [NCU.limitRegisters, NCU.limitSharedMem, NCU.limitWarps, NCU.limitBlocks].map((m) => ncuValue(result, m)).filter((v): v is number => v !== undefined && v > 0);
  if (grid === undefined || !sms || limits.length === 0) return undefined;
  return { waves: grid / (sms * Math.min(...limits)), source: 'computed' };
}

/** Blocks in the grid: Launch Statistics, else the launch's Grid Size column. */
export function gridBlocks(result: NcuResult): number | undefined {
  const grid = ncuValue(result, NCU.grid);
  if (grid !== undefined) return grid;
  const dims = /^\(\s*(\d+),\s*(\d+),\s*(\d+)\s*\)$/.exec(result.grid?.trim() ?? '');
  return dims ? Number(dims[1]) * Number(dims[2]) * Number(dims[3]) : undefined;
}

const GENERIC_RULE_TEXT = /^The optional metric|^Check the Warp Stall Sampling/;

/**
 * Nsight Compute's own word on the matter, as evidence attributed to it: the most relevant fired rule
 * among `names` (OPT before WRN before INF, then by estimated speedup), quoted and clipped.
 */
export function ncuSays(result: NcuResult, names: readonly string[], matches?: RegExp): Record<string, string | number> {
  const order: Record<string, number> = { OPT: 0, WRN: 1, INF: 2 };
  const candidates = result.rules
    .filter((r) => names.includes(r.name) && !GENERIC_RULE_TEXT.test(r.description) && (!matches || matches.test(r.description)))
    .sort((a, b) => (order[a.type] ?? 3) - (order[b.type] ?? 3) || (b.estimatedSpeedupPercent ?? 0) - (a.estimatedSpeedupPercent ?? 0));
  const rule: Rule | undefined = candidates[0];
  if (!rule) return {};
  const text = rule.description.replace(/\s+/g, ' ').trim();
  return {
    ncuRule: `${rule.name} (${rule.type})`,
    ...(rule.estimatedSpeedupPercent !== undefined ? { ncuEstimatedSpeedupPercent: rule.estimatedSpeedupPercent } : {}),
    ncuSays: text.length > 400 ? `${text.slice(0, 399)}…` : text,
  };
}

/** A kernel name for messages: one line, without a `void` return type, at most 80 characters. */
export function displayKernel(name: string): string {
  const plain = name.replace(/\s+/g, ' ').trim().replace(/^void /, '');
  return plain.length > 80 ? `${plain.slice(0, 79)}…` : plain;
}

export function percentText(value: number): string {
  return `${value.toFixed(1)}%`;
}

/** Bytes per second in the largest decimal unit that keeps a leading digit (3.88 TB/s). */
export function rateText(bytesPerSecond: number): string {
  for (const [unit, scale] of [['TB/s', 1e12], ['GB/s', 1e9], ['MB/s', 1e6]] as const) {
    if (bytesPerSecond >= scale) return `${(bytesPerSecond / scale).toFixed(2)} ${unit}`;
  }
  return `${Math.round(bytesPerSecond)} B/s`;
}

/** Duration in microseconds for evidence, when captured. */
export function durationEvidence(result: NcuResult): Record<string, number> {
  const ns = ncuValue(result, NCU.duration);
  return ns === undefined ? {} : { durationUs: round(ns / 1e3, 3) };
}

/** The headline numbers of one deep dive, as short plain phrases (duration, throughputs, grid, occupancy). */
export function deepDiveFacts(result: NcuResult): string[] {
  const facts: string[] = [];
  const duration = ncuValue(result, NCU.duration);
  if (duration !== undefined) facts.push(duration >= 1e6 ? `${(duration / 1e6).toFixed(2)} ms` : `${(duration / 1e3).toFixed(2)} µs`);
  const compute = ncuValue(result, NCU.compute);
  if (compute !== undefined) facts.push(`SM ${percentText(compute)}`);
  const memory = memoryThroughput(result);
  if (memory) facts.push(`memory ${percentText(memory.percent)} (${memory.unit})`);
  const rate = dramBytesPerSecond(result);
  if (rate !== undefined) facts.push(`DRAM ${rateText(rate)}`);
  const grid = gridBlocks(result);
  const waves = wavesPerSm(result);
  if (grid !== undefined) facts.push(`${grid} blocks${waves ? `, ${round(waves.waves, 2)} waves` : ''}`);
  const achieved = ncuValue(result, NCU.achievedOccupancy);
  const theoretical = ncuValue(result, NCU.theoreticalOccupancy);
  if (achieved !== undefined) facts.push(`occupancy ${percentText(achieved)}${theoretical !== undefined ? ` of ${percentText(theoretical)}` : ''}`);
  return facts;
}
