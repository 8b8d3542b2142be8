/**
 * Per-dispatch ROCm traces (rocprofv3 `*_kernel_trace.csv`, legacy rocprof `results.csv`), read line by
 * line because they run to millions of rows: per-kernel sums (by agent and name, with the launch shape
 * that took the most time) and a timeline (span, busy union per agent, idle gaps, launches, busy time
 * per tenth of the span). Timestamps are kept exact as offsets from the first dispatch, even above 2^53.
 */
import { InputError } from '../errors.js';
import type { KernelStat, Timeline } from '../model/capture.js';
import type { ImportContext } from './importer.js';
import { cleanLabel, splitCsvLine, splitLines } from './text-tables.js';

/** Display name: rocprof appends ` [clone .kd]` or `.kd` to kernel symbols. */
export function cleanKernelName(name: string): string {
  return name.trim().replace(/ \[clone \.kd\]$/, '').replace(/\.kd$/, '');
}

interface Dispatch {
  name: string;
  agent: string;
  start: number;
  end: number;
  /** `gx,gy,gz,bx,by,bz` in workgroups and work-items per workgroup. */
  shape?: string;
}

const V3 = { name: 'Kernel_Name', agent: 'Agent_Id', start: 'Start_Timestamp', end: 'End_Timestamp', grid: ['Grid_Size_X', 'Grid_Size_Y', 'Grid_Size_Z'], block: ['Workgroup_Size_X', 'Workgroup_Size_Y', 'Workgroup_Size_Z'] };
const V1 = { name: 'KernelName', agent: 'gpu-id', start: 'BeginNs', end: 'EndNs', grid: ['grd'], block: ['wgr'] };

/** Exact ns offsets from the first timestamp; BigInt only where a value passes 15 digits. */
class Clock {
  private baseBig?: bigint;
  private baseNum?: number;

  offset(text: string): number | undefined {
    if (!/^\d+$/.test(text)) return undefined;
    if (this.baseBig === undefined) {
      this.baseBig = BigInt(text);
      this.baseNum = text.length <= 15 ? Number(text) : undefined;
    }
    if (this.baseNum !== undefined && text.length <= 15) return Number(text) - this.baseNum;
    return Number(BigInt(text) - this.baseBig);
  }
}

function readDispatches(path: string, text: string, v3: boolean, ctx: ImportContext): Dispatch[] {
  const lines = splitLines(text);
  const headerIndex = lines.findIndex((line) => line.trim() !== '');
  const header = (splitCsvLine(lines[headerIndex]!) ?? []).map(cleanLabel);
  const labels = v3 ? V3 : V1;
  const index = (label: string) => header.indexOf(label);
  const [nameAt, agentAt, startAt, endAt, kindAt] = [index(labels.name), index(labels.agent), index(labels.start), index(labels.end), index('Kind')];
  const missing = [labels.name, labels.start, labels.end].filter((label) => index(label) < 0);
  if (missing.length) throw new InputError(path, `expected columns ${missing.join(', ')} in the header`, String(headerIndex + 1));
  const gridAt = labels.grid.map(index);
  const blockAt = labels.block.map(index);
  const hasShape = [...gridAt, ...blockAt].every((i) => i >= 0);

  const clock = new Clock();
  const names = new Map<string, string>();
  const dispatches: Dispatch[] = [];
  for (let i = headerIndex + 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    const where = String(i + 1);
    const fields = splitCsvLine(line);
    if (!fields) throw new InputError(path, 'expected well-formed CSV quoting (a truncated or garbled row)', where);
    if (fields.length !== header.length) {
      throw new InputError(path, `expected ${header.length} fields as in the header, got ${fields.length} (a truncated or garbled row)`, where);
    }
    if (kindAt >= 0 && fields[kindAt] !== 'KERNEL_DISPATCH') {
      ctx.count('non-kernel-row', 'info', `rows of kind ${fields[kindAt]} are left out`);
      continue;
    }
    const start = clock.offset(fields[startAt]!.trim());
    const end = clock.offset(fields[endAt]!.trim());
    if (start === undefined || end === undefined) {
      const [label, value] = start === undefined ? [labels.start, fields[startAt]] : [labels.end, fields[endAt]];
      throw new InputError(path, `expected an integer timestamp in column ${label}, got ${JSON.stringify(value)}`, where);
    }
    if (end < start) throw new InputError(path, `expected ${labels.end} at or after ${labels.start}`, where);
    const raw = fields[nameAt]!;
    let name = names.get(raw);
    if (name === undefined) names.set(raw, (name = cleanKernelName(raw)));
    const dispatch: Dispatch = { name, agent: agentAt >= 0 ? fields[agentAt]!.trim() : '0', start, end };
    if (hasShape) {
      const sizes = [...gridAt, ...blockAt].map((at) => (fields[at]!.trim() === '' ? NaN : Number(fields[at])));
      if (sizes.some((n) => !Number.isFinite(n) || n < 0)) throw new InputError(path, 'expected whole-number grid and workgroup sizes', where);
      const grid = gridAt.map((_, d) => sizes[d]!);
      const block = sizes.slice(gridAt.length);
      if (block.every((b) => b > 0)) {
        // rocprof counts the grid in work-items; report workgroups, as CUDA counts blocks.
        const dim3 = (v: number[]) => [v[0] ?? 1, v[1] ?? 1, v[2] ?? 1].join(',');
        dispatch.shape = `${dim3(grid.map((n, d) => Math.ceil(n / block[d]!)))},${dim3(block)}`;
      }
    }
    dispatches.push(dispatch);
  }
  return dispatches;
}

function kernelsFrom(dispatches: readonly Dispatch[]): KernelStat[] {
  const agents = [...new Set(dispatches.map((d) => d.agent))].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
  const multi = agents.length > 1;
  const byKey = new Map<string, KernelStat>();
  const shapeNs = new Map<string, Map<string, number>>();
  for (const d of dispatches) {
    const key = `${d.agent}\u0000${d.name}`;
    const ns = d.end - d.start;
    const existing = byKey.get(key);
    if (existing) {
      existing.totalNs += ns;
      existing.instances += 1;
      existing.minNs = Math.min(existing.minNs!, ns);
      existing.maxNs = Math.max(existing.maxNs!, ns);
    } else {
      byKey.set(key, { name: d.name, totalNs: ns, instances: 1, minNs: ns, maxNs: ns, ...(multi ? { device: agents.indexOf(d.agent) } : {}) });
    }
    if (d.shape) {
      let shapes = shapeNs.get(key);
      if (!shapes) shapeNs.set(key, (shapes = new Map()));
      shapes.set(d.shape, (shapes.get(d.shape) ?? 0) + ns);
    }
  }
  for (const [key, shapes] of shapeNs) {
    const heaviest = [...shapes.entries()].sort((a, b) => b[1] - a[1])[0]![0].split(',').map(Number);
    Object.assign(byKey.get(key)!, { grid: heaviest.slice(0, 3), block: heaviest.slice(3, 6) });
  }
  return [...byKey.values()];
}

function timelineFrom(dispatches: readonly Dispatch[]): Timeline {
  let spanStart = Infinity;
  let spanEnd = -Infinity;
  const byAgent = new Map<string, Dispatch[]>();
  for (const d of dispatches) {
    spanStart = Math.min(spanStart, d.start);
    spanEnd = Math.max(spanEnd, d.end);
    const list = byAgent.get(d.agent);
    if (list) list.push(d);
    else byAgent.set(d.agent, [d]);
  }
  const spanNs = spanEnd - spanStart;
  let busyNs = 0;
  const gaps = { count: 0, totalNs: 0, longestNs: 0 };
  const deciles = new Array<number>(10).fill(0);
  const addBusy = (from: number, to: number) => {
    busyNs += to - from;
    if (spanNs <= 0) return;
    for (let i = Math.floor(((from - spanStart) / spanNs) * 10); i < 10; i++) {
      const lo = spanStart + (spanNs * i) / 10;
      const hi = spanStart + (spanNs * (i + 1)) / 10;
      if (lo >= to) break;
      deciles[i]! += Math.min(to, hi) - Math.max(from, lo);
    }
  };
  for (const list of byAgent.values()) {
    list.sort((a, b) => a.start - b.start);
    let [busyFrom, busyTo] = [list[0]!.start, list[0]!.end];
    for (let i = 1; i < list.length; i++) {
      const d = list[i]!;
      if (d.start <= busyTo) {
        busyTo = Math.max(busyTo, d.end);
        continue;
      }
      addBusy(busyFrom, busyTo);
      const gap = d.start - busyTo;
      gaps.count += 1;
      gaps.totalNs += gap;
      gaps.longestNs = Math.max(gaps.longestNs, gap);
      [busyFrom, busyTo] = [d.start, d.end];
    }
    addBusy(busyFrom, busyTo);
  }
  return {
    spanNs,
    busyNs,
    devices: byAgent.size,
    idleGaps: gaps,
    kernelLaunches: dispatches.length,
    graphLaunches: 0,
    graphKernels: 0,
    steps: [],
    busyByDecile: spanNs > 0 ? deciles : [],
  };
}

export function readKernelTrace(path: string, text: string, v3: boolean, ctx: ImportContext): { kernels: KernelStat[]; timeline?: Timeline } {
  const dispatches = readDispatches(path, text, v3, ctx);
  if (dispatches.length === 0) return { kernels: [] };
  return { kernels: kernelsFrom(dispatches), timeline: timelineFrom(dispatches) };
}
