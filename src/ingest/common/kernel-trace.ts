/**
 * Per-dispatch kernel traces, read line by line because they run to millions of rows: rocprofv3
 * `*_kernel_trace.csv` and legacy rocprof `results.csv` as CSV rows, and rocprof's results.json,
 * the nsys SQLite export and the rocpd database one dispatch at a time (`addDispatch`). From them:
 * per-kernel sums (by agent and name, with the launch shape that took the most time) and a timeline
 * (span, busy union per agent, idle gaps, launches, busy time per tenth of the span). Timestamps are
 * kept exact as offsets from the first dispatch, even above 2^53.
 */
import { InputError } from '../../errors.js';
import type { KernelStat, Timeline } from '../../model/capture.js';
import type { ImportContext } from './importer.js';
import { TraceEvents } from '../../model/trace-events.js';
import { buildTimeline, deviceTimelines, OP_COLLECTIVE, OP_KERNEL, OpLog, type OpKind } from './timeline.js';
import { cleanLabel, ownString, splitCsvLine } from './text-tables.js';
import { grown } from '../../model/columns.js';
import { compareNatural } from '../../model/text-order.js';

/** Display name: rocprof appends ` [clone .kd]` or `.kd` to kernel symbols. */
export function cleanKernelName(name: string): string {
  return name.trim().replace(/ \[clone \.kd\]$/, '').replace(/\.kd$/, '');
}

/**
 * The dispatches, a column each: millions of them fit where as many objects would not. Names,
 * agents and launch shapes are stored once and referred to by number.
 */
class Dispatches {
  count = 0;
  starts = new Float64Array(1024);
  ends = new Float64Array(1024);
  names = new Int32Array(1024);
  agents = new Int32Array(1024);
  /** -1: no launch shape. */
  shapes = new Int32Array(1024);
  readonly nameList: string[] = [];
  readonly agentList: string[] = [];
  /** `gx,gy,gz,bx,by,bz` in workgroups and work-items per workgroup. */
  readonly shapeList: string[] = [];
  private readonly ids = [new Map<string, number>(), new Map<string, number>(), new Map<string, number>()] as const;

  private id(kind: 0 | 1 | 2, list: string[], value: string): number {
    let id = this.ids[kind].get(value);
    if (id === undefined) {
      this.ids[kind].set(value, (id = list.length));
      list.push(value);
    }
    return id;
  }

  push(name: string, agent: string, start: number, end: number, shape: string | undefined): void {
    if (this.count === this.starts.length) this.grow();
    const k = this.count++;
    this.starts[k] = start;
    this.ends[k] = end;
    this.names[k] = this.id(0, this.nameList, name);
    this.agents[k] = this.id(1, this.agentList, agent);
    this.shapes[k] = shape === undefined ? -1 : this.id(2, this.shapeList, shape);
  }

  private grow(): void {
    const size = this.starts.length * 2;
    this.starts = grown(this.starts, size);
    this.ends = grown(this.ends, size);
    this.names = grown(this.names, size);
    this.agents = grown(this.agents, size);
    this.shapes = grown(this.shapes, size);
  }
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

/**
 * A kernel trace read line by line: `push` each line after the header (the first line), then
 * `finish` for the per-kernel sums and the timeline.
 */
export class KernelTraceReader {
  private readonly dispatches = new Dispatches();
  private readonly header: string[];
  private readonly labels: typeof V3 | typeof V1;
  private readonly at: { name: number; agent: number; start: number; end: number; kind: number; grid: number[]; block: number[] };
  private readonly hasShape: boolean;
  private readonly clock = new Clock();
  private readonly names = new Map<string, string>();
  /** How errors name a field: a CSV `column`, or a trace event's `field`. */
  fieldWord = 'column';

  constructor(
    private readonly path: string,
    headerLine: string,
    headerLineNo: number,
    v3: boolean,
    private readonly ctx: ImportContext,
  ) {
    const header = (this.header = (splitCsvLine(headerLine) ?? []).map(cleanLabel));
    const labels = (this.labels = v3 ? V3 : V1);
    const index = (label: string) => header.indexOf(label);
    const missing = [labels.name, labels.start, labels.end].filter((label) => index(label) < 0);
    if (missing.length) throw new InputError(path, `expected columns ${missing.join(', ')} in the header`, String(headerLineNo));
    this.at = { name: index(labels.name), agent: index(labels.agent), start: index(labels.start), end: index(labels.end), kind: index('Kind'), grid: labels.grid.map(index), block: labels.block.map(index) };
    this.hasShape = [...this.at.grid, ...this.at.block].every((i) => i >= 0);
  }

  push(line: string, lineNo: number): void {
    if (line.trim() === '') return;
    const { path, header, at } = this;
    const where = String(lineNo);
    const fields = splitCsvLine(line);
    if (!fields) throw new InputError(path, 'expected well-formed CSV quoting (a truncated or garbled row)', where);
    if (fields.length !== header.length) {
      throw new InputError(path, `expected ${header.length} fields as in the header, got ${fields.length} (a truncated or garbled row)`, where);
    }
    if (at.kind >= 0 && fields[at.kind] !== 'KERNEL_DISPATCH') {
      this.ctx.count('non-kernel-row', 'info', `rows of kind ${fields[at.kind]} are left out`);
      return;
    }
    const sizes = this.hasShape ? [...at.grid, ...at.block].map((i) => (fields[i]!.trim() === '' ? NaN : Number(fields[i]))) : undefined;
    this.addDispatch(
      {
        name: fields[at.name]!,
        agent: at.agent >= 0 ? fields[at.agent]!.trim() : '0',
        start: fields[at.start]!.trim(),
        end: fields[at.end]!.trim(),
        ...(sizes ? { grid: sizes.slice(0, at.grid.length), block: sizes.slice(at.grid.length) } : {}),
      },
      where,
    );
  }

  /**
   * One dispatch from any layout (a CSV row, a Chrome-trace event, a database row): integer ns
   * timestamps as text, the grid in work-items (in blocks with `gridInBlocks`, as CUDA counts it)
   * and the workgroup size, where the capture records them.
   */
  addDispatch(raw: { name: string; agent: string; start: string; end: string; grid?: number[]; block?: number[]; gridInBlocks?: boolean }, where: string): void {
    const { path, labels } = this;
    const start = this.clock.offset(raw.start);
    const end = this.clock.offset(raw.end);
    if (start === undefined || end === undefined) {
      const [label, value] = start === undefined ? [labels.start, raw.start] : [labels.end, raw.end];
      throw new InputError(path, `expected an integer timestamp in ${this.fieldWord} ${label}, got ${JSON.stringify(value)}`, where);
    }
    if (end < start) throw new InputError(path, `expected ${labels.end} at or after ${labels.start}`, where);
    let name = this.names.get(raw.name);
    if (name === undefined) {
      const own = ownString(raw.name);
      this.names.set(own, (name = cleanKernelName(own)));
    }
    let shape: string | undefined;
    if (raw.grid && raw.block) {
      const sizes = [...raw.grid, ...raw.block];
      if (sizes.some((n) => !Number.isFinite(n) || n < 0)) throw new InputError(path, 'expected whole-number grid and workgroup sizes', where);
      const grid = raw.grid;
      const block = raw.block;
      if (block.every((b) => b > 0)) {
        // rocprof counts the grid in work-items; report workgroups, as CUDA counts blocks.
        const dim3 = (v: number[]) => [v[0] ?? 1, v[1] ?? 1, v[2] ?? 1].join(',');
        shape = `${dim3(raw.gridInBlocks ? grid : grid.map((n, d) => Math.ceil(n / block[d]!)))},${dim3(block)}`;
      }
    }
    this.dispatches.push(name, raw.agent, start, end, shape);
  }

  /** A timestamp on the dispatches' clock (ns from the first one read), for other events of the same capture. */
  offsetOf(text: string): number | undefined {
    return this.clock.offset(text);
  }

  /** The device number an agent's kernels are given (as in KernelStat.device); -1 for an agent with none. */
  deviceOf(agent: string): number {
    const id = this.dispatches.agentList.indexOf(agent);
    return id < 0 ? -1 : deviceOfAgent(this.dispatches)[id]!;
  }

  finish(): { kernels: KernelStat[]; timeline?: Timeline; deviceTimelines?: Array<{ device: number; timeline: Timeline }>; trace?: TraceEvents } {
    const dispatches = this.dispatches;
    if (dispatches.count === 0) return { kernels: [] };
    return { kernels: kernelsFrom(dispatches), ...timelineFrom(dispatches, (name) => this.ctx.isCollective?.(name) ?? false), trace: traceFrom(dispatches) };
  }
}

/** Device number by agent id: the agents in numeric order. */
function deviceOfAgent(dispatches: Dispatches): Int32Array {
  const sorted = dispatches.agentList.map((agent, id) => ({ agent, id })).sort((a, b) => compareNatural(a.agent, b.agent));
  const device = new Int32Array(dispatches.agentList.length);
  sorted.forEach(({ id }, index) => (device[id] = index));
  return device;
}

function kernelsFrom(dispatches: Dispatches): KernelStat[] {
  const device = deviceOfAgent(dispatches);
  const multi = dispatches.agentList.length > 1;
  const names = dispatches.nameList.length;
  const byKey = new Map<number, KernelStat>();
  const shapeNs = new Map<number, Map<number, number>>();
  for (let k = 0; k < dispatches.count; k++) {
    const agent = dispatches.agents[k]!;
    const key = agent * names + dispatches.names[k]!;
    const ns = dispatches.ends[k]! - dispatches.starts[k]!;
    const existing = byKey.get(key);
    if (existing) {
      existing.totalNs += ns;
      existing.instances += 1;
      existing.minNs = Math.min(existing.minNs!, ns);
      existing.maxNs = Math.max(existing.maxNs!, ns);
    } else {
      byKey.set(key, { name: dispatches.nameList[dispatches.names[k]!]!, totalNs: ns, instances: 1, minNs: ns, maxNs: ns, ...(multi ? { device: device[agent]! } : {}) });
    }
    const shape = dispatches.shapes[k]!;
    if (shape >= 0) {
      let shapes = shapeNs.get(key);
      if (!shapes) shapeNs.set(key, (shapes = new Map()));
      shapes.set(shape, (shapes.get(shape) ?? 0) + ns);
    }
  }
  for (const [key, shapes] of shapeNs) {
    const heaviest = dispatches.shapeList[[...shapes.entries()].sort((a, b) => b[1] - a[1])[0]![0]]!.split(',').map(Number);
    Object.assign(byKey.get(key)!, { grid: heaviest.slice(0, 3), block: heaviest.slice(3, 6) });
  }
  return [...byKey.values()];
}

/** The dispatches as GPU ops (one device per agent), so the timeline is built as for a Kineto trace. */
function timelineFrom(dispatches: Dispatches, isCollective: (name: string) => boolean): { timeline: Timeline; deviceTimelines: Array<{ device: number; timeline: Timeline }> } {
  // Device numbers as kernelsFrom gives them: the agents' index in numeric order.
  const device = deviceOfAgent(dispatches);
  const kinds = dispatches.nameList.map((name): OpKind => (isCollective(name) ? OP_COLLECTIVE : OP_KERNEL));
  const ops = new OpLog(dispatches.count);
  for (let k = 0; k < dispatches.count; k++) ops.push(dispatches.starts[k]!, dispatches.ends[k]!, device[dispatches.agents[k]!]!, NaN, kinds[dispatches.names[k]!]!);
  const counts = { kernelLaunches: dispatches.count, graphLaunches: 0, graphCorrelations: new Set<number>() };
  return { timeline: buildTimeline(ops, [], counts), deviceTimelines: deviceTimelines(ops, [], counts) };
}

/** The dispatches as trace events (the record is bounded; see model/trace-events.ts). */
function traceFrom(dispatches: Dispatches): TraceEvents {
  const device = deviceOfAgent(dispatches);
  const trace = new TraceEvents(undefined, dispatches.count);
  for (let k = 0; k < dispatches.count; k++) {
    trace.add('kernel', dispatches.nameList[dispatches.names[k]!]!, dispatches.starts[k]!, dispatches.ends[k]! - dispatches.starts[k]!, device[dispatches.agents[k]!]!, 0);
  }
  return trace.seal();
}
