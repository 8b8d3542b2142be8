/**
 * An importer reads one capture format into a Capture. It is small: a cheap `sniff` over the first
 * bytes (content, never the file name) plus `read`. Detection loops over the registry in order.
 */
import { InputError } from '../../errors.js';
import { CaptureSchema, type Capture, type CaptureInput, type FormatId, type ImportStat } from '../../model/capture.js';
import type { InputFile } from './input-file.js';
import { TraceEvents } from '../../model/trace-events.js';

/** What the user says about inputs that cannot say it themselves. */
export interface IngestOptions {
  /** The `--query-gpu` list of nvidia-smi logs written with `--format=csv,noheader` (which name no columns). */
  smiColumns?: readonly string[];
  /** Stops the reading at the next chunk (the analyze time budget). */
  signal?: AbortSignal;
  /** True for a collective kernel: the caller owns the family table (see ImportContext.isCollective). */
  isCollective?: (kernelName: string) => boolean;
}

export interface ImportContext {
  readonly path: string;
  readonly options: IngestOptions;
  /** Count a recoverable problem (a skipped row, a clipped value). Shown in the report's sources. */
  count(name: string, severity: ImportStat['severity'], detail?: string): void;
  /**
   * True for a collective kernel (NCCL, RCCL, custom all-reduce …), so that a per-launch timeline can
   * measure how much communication no compute overlaps. Given by the caller, which owns the family
   * table; absent, no kernel is treated as a collective.
   */
  isCollective?(kernelName: string): boolean;
}

/**
 * What captures of a format can hold, declared by its importer so that later stages ask the format
 * rather than name it. A capability left out is one the importer never fills.
 */
export interface Capabilities {
  /**
   * Per-kernel times of the run itself (Capture.kernels). 'expected': the format exists to list them,
   * so a capture without any is a failed capture; 'optional': only some captures hold them (a tool
   * option such as `max generate --profile`).
   */
  kernels?: 'expected' | 'optional';
  /** A per-launch timeline (Capture.timeline): span, busy union, idle gaps, steps. */
  timeline?: boolean;
  /** Workload metric samples (Capture.metrics): throughput, latency, token counts. */
  metrics?: boolean;
  /** GPU utilization: samples over time (Capture.utilization) or the profiler's own figure. */
  utilization?: boolean;
  /**
   * Hardware metrics of a few chosen launches that the profiler replayed (Capture.ncu). The kernel
   * rows that come with them time the replay, not the run: they are no kernel breakdown.
   */
  deepDive?: boolean;
  /** Work told apart by rank or device: a distributed rank, or kernels and timelines per device. */
  ranks?: boolean;
  /**
   * The capture's `output_tokens` metric counts the forward passes of the profiled generation, one
   * per token (the prefill among them): a step count of the kernels it lists.
   */
  tokensCountSteps?: boolean;
}

/** The vendor whose tool writes a format, where one does (Kineto and workload logs are either). */
export type ToolVendor = 'amd' | 'nvidia';

/** The tool suite that writes a format, where advice names the suite's own commands. */
export type ToolSuite = 'nsys' | 'rocprof' | 'max';

export interface Importer {
  id: FormatId;
  label: string;
  capabilities: Capabilities;
  vendor?: ToolVendor;
  suite?: ToolSuite;
  /** True when the head of the file is this format. Must be cheap and exact. */
  sniff(head: string): boolean;
  /**
   * For a format of lines that may stand among other output (a workload's console): the record of
   * one line, or null when the line is not one. A console too long for the sniff's head is read
   * whole for such lines.
   */
  lineRecord?(line: string): unknown;
  /**
   * One capture; or, for a file that holds several runs one after another (outputs appended), one
   * capture per run in file order, each naming its run in `source.run`.
   */
  read(file: InputFile, ctx: ImportContext): Promise<CaptureInput | CaptureInput[]>;
}

export function defineImporter(importer: Importer): Importer {
  return importer;
}

export function createImportContext(path: string, options: IngestOptions = {}): ImportContext & { stats(): ImportStat[] } {
  const counters = new Map<string, ImportStat>();
  return {
    path,
    options,
    ...(options.isCollective ? { isCollective: options.isCollective } : {}),
    count(name, severity, detail) {
      const existing = counters.get(name);
      if (existing) existing.count += 1;
      else counters.set(name, { name, severity, count: 1, ...(detail ? { detail } : {}) });
    },
    stats: () => [...counters.values()],
  };
}

/**
 * 2^53 − 1: larger than any value a real capture holds (in ns, 104 days), every whole number up to it
 * is exact, and sums over millions of them stay finite. A file with `1e308` where a duration should
 * be is refused, not summed to Infinity.
 */
export const MAX_PLAUSIBLE_VALUE = Number.MAX_SAFE_INTEGER;

/** Where the first non-finite or implausibly large number sits in what an importer built, if anywhere. */
export function implausibleNumber(value: unknown, path = ''): { path: string; value: number } | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && Math.abs(value) <= MAX_PLAUSIBLE_VALUE ? undefined : { path, value };
  // The event record keeps only finite numbers (TraceEvents.add), and walking it would cost a key an event.
  if (typeof value !== 'object' || value === null || value instanceof TraceEvents) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = implausibleNumber(value[i], `${path}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  const record = value as Record<string, unknown>;
  const label = typeof record['name'] === 'string' ? ` (${JSON.stringify(record['name'].slice(0, 80))})` : '';
  for (const key of Object.keys(record)) {
    const found = implausibleNumber(record[key], `${path}${label}${path || label ? '.' : ''}${key}`);
    if (found) return found;
  }
  return undefined;
}

/** Run one importer on one file and validate what it built against the model: one capture per run the file holds. */
export async function runImporterRuns(importer: Importer, file: InputFile, options: IngestOptions = {}): Promise<Capture[]> {
  const ctx = createImportContext(file.path, options);
  const built = await importer.read(file, ctx);
  const runs = Array.isArray(built) ? built : [built];
  for (const [i, run] of runs.entries()) {
    const implausible = implausibleNumber(run);
    if (implausible) {
      throw new InputError(file.path, `expected finite values up to ${MAX_PLAUSIBLE_VALUE}, got ${implausible.value} at ${runs.length > 1 ? `run ${i + 1} ` : ''}${implausible.path}`);
    }
  }
  const parsed = runs.map((run) => CaptureSchema.parse(run));
  // What was counted while reading is the file's: told once, with its first run.
  parsed[0]!.source.stats = [...parsed[0]!.source.stats, ...ctx.stats()];
  return parsed;
}

/** Run one importer on a file of one run (a file of several is refused: read it with runImporterRuns). */
export async function runImporter(importer: Importer, file: InputFile, options: IngestOptions = {}): Promise<Capture> {
  const runs = await runImporterRuns(importer, file, options);
  if (runs.length !== 1) throw new InputError(file.path, `expected one run in the file, found ${runs.length}: read each as its own capture`);
  return runs[0]!;
}
