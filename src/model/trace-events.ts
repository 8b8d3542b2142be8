/**
 * The events of a capture's timeline as they were read: kernels, copies, fills, ranges and the CPU
 * ops around them, with a name, a start, a duration, a device and a lane (stream or thread). Kept
 * so that profile-gate can write a clean trace of its own (report/chrome-trace.ts) instead of
 * uploading the profiler's file. Bounded: past the cap of its class (GPU events, host events) an
 * event is counted, not kept, so a trace of millions of launches costs at most a few tens of MB.
 * Stored in typed arrays with interned names (about 40 bytes an event).
 */
import { grown, INITIAL_ROWS } from './columns.js';

export const TRACE_EVENT_KINDS = ['kernel', 'memcpy', 'memset', 'range', 'cpu-op'] as const;
export type TraceEventKind = (typeof TRACE_EVENT_KINDS)[number];

/** Events kept per class: enough for a few thousand decode steps of a transformer. */
export const GPU_EVENT_CAP = 250_000;
export const HOST_EVENT_CAP = 150_000;

/** The device of a host event (a CPU op, a CPU range). */
export const HOST_DEVICE = -1;

export interface TraceEvent {
  kind: TraceEventKind;
  name: string;
  /** ns on the capture's own clock (only differences matter). */
  startNs: number;
  durNs: number;
  /** GPU device, or HOST_DEVICE. */
  device: number;
  /** Stream on a device; thread on the host. */
  lane: number;
}

/** The class of each kind (by index in TRACE_EVENT_KINDS), each kept up to its own cap. */
const GPU_CLASS = 0;
const HOST_CLASS = 1;
const CLASS_OF_KIND = Uint8Array.from(TRACE_EVENT_KINDS, (kind) => (kind === 'range' || kind === 'cpu-op' ? HOST_CLASS : GPU_CLASS));

export class TraceEvents {
  count = 0;
  private starts: Float64Array;
  private durs: Float64Array;
  private devices: Int32Array;
  private lanes: Float64Array;
  private kinds: Uint8Array;
  private nameIds: Int32Array;
  private readonly names: string[] = [];
  private readonly nameIndex = new Map<string, number>();
  /** Events seen per kind (by index in TRACE_EVENT_KINDS), kept or not. */
  private readonly seenByKind = new Float64Array(TRACE_EVENT_KINDS.length);
  /** Events kept and the most kept, per class (GPU_CLASS, HOST_CLASS). */
  private readonly keptByClass = new Float64Array(2);
  private readonly capByClass: Float64Array;

  /** `expectedRows`: how many events the reader expects (columns.ts); never more than the caps keep. */
  constructor(
    readonly caps: { gpu: number; host: number } = { gpu: GPU_EVENT_CAP, host: HOST_EVENT_CAP },
    expectedRows = INITIAL_ROWS,
  ) {
    this.capByClass = Float64Array.of(caps.gpu, caps.host);
    const rows = Math.max(1, Math.min(caps.gpu + caps.host, expectedRows));
    this.starts = new Float64Array(rows);
    this.durs = new Float64Array(rows);
    this.devices = new Int32Array(rows);
    this.lanes = new Float64Array(rows);
    this.kinds = new Uint8Array(rows);
    this.nameIds = new Int32Array(rows);
  }

  /**
   * A record a reader kept in columns of its own (the Kineto importer's, in WebAssembly memory):
   * `count` rows, each kept under `caps` as addKind() keeps them, and `seen` events per kind (by
   * index in TRACE_EVENT_KINDS). The columns are taken, not copied; their names are numbered here,
   * in order of first use, from `nameOf(row)`, which each distinct name is asked of once per row
   * whose column entry (a reader's own reference for it) it has not seen.
   *
   * `numbered`: the reader has numbered its references already, in order of first use (`nameIds`
   * 0, 1, …, number k named `names[k]`), and counted the rows it kept per class; `nameOf` is then
   * not asked. No pass over the rows is made here, unless two numbers have one name. (A pass over
   * a few hundred thousand rows, run once an import, costs 10-20 ms in JavaScript before V8 has
   * optimized it: bench/README.md.)
   */
  static fromColumns(
    caps: { gpu: number; host: number },
    columns: { starts: Float64Array; durs: Float64Array; devices: Int32Array; lanes: Float64Array; kinds: Uint8Array; nameIds: Int32Array },
    seen: readonly number[],
    nameOf: (row: number) => string,
    numbered?: { names: readonly string[]; kept: { gpu: number; host: number } },
  ): TraceEvents {
    const record = new TraceEvents(caps, 1);
    record.starts = columns.starts;
    record.durs = columns.durs;
    record.devices = columns.devices;
    record.lanes = columns.lanes;
    record.kinds = columns.kinds;
    record.nameIds = columns.nameIds;
    record.count = columns.starts.length;
    seen.forEach((n, k) => (record.seenByKind[k] = n));
    if (numbered) {
      record.keptByClass[GPU_CLASS] = numbered.kept.gpu;
      record.keptByClass[HOST_CLASS] = numbered.kept.host;
      record.nameNumbered(numbered.names);
      return record;
    }
    // A reader's references to its names, renumbered: the same reference is looked up once (and
    // runs of one name, as a kernel's launches come, without a lookup). References within a span
    // not much wider than the rows (a reader's small name numbers) are looked up in an array, by
    // their offset from the least; others in a map.
    const ids = record.nameIds;
    let least = 0;
    let most = -1;
    for (let row = 0; row < record.count; row++) {
      const ref = ids[row]!;
      if (row === 0 || ref < least) least = ref;
      if (row === 0 || ref > most) most = ref;
    }
    const dense = most - least < 4 * record.count + 65536 ? new Int32Array(most - least + 1).fill(-1) : undefined;
    const sparse = dense ? undefined : new Map<number, number>();
    let lastRef = NaN;
    let lastId = -1;
    for (let row = 0; row < record.count; row++) {
      const ref = ids[row]!;
      if (ref !== lastRef) {
        let id = dense ? dense[ref - least]! : (sparse!.get(ref) ?? -1);
        if (id < 0) {
          const name = nameOf(row);
          id = record.nameIndex.get(name) ?? record.newName(name);
          if (dense) dense[ref - least] = id;
          else sparse!.set(ref, id);
        }
        lastRef = ref;
        lastId = id;
      }
      ids[row] = lastId;
      record.keptByClass[CLASS_OF_KIND[record.kinds[row]!]!]! += 1;
    }
    return record;
  }

  /**
   * Names for rows numbered by their reader (fromColumns' `numbered`), number k's `names[k]`. Two
   * numbers of one name become that name's one id, the rows renumbered.
   */
  private nameNumbered(names: readonly string[]): void {
    const idOfNumber = new Int32Array(names.length);
    let renamed = false;
    names.forEach((name, k) => {
      const id = this.nameIndex.get(name) ?? this.newName(name);
      idOfNumber[k] = id;
      renamed ||= id !== k;
    });
    if (!renamed) return;
    const ids = this.nameIds;
    for (let row = 0; row < this.count; row++) ids[row] = idOfNumber[ids[row]!]!;
  }

  /** Events seen per kind, kept or not. */
  get seen(): Record<TraceEventKind, number> {
    const out = {} as Record<TraceEventKind, number>;
    TRACE_EVENT_KINDS.forEach((kind, k) => (out[kind] = this.seenByKind[k]!));
    return out;
  }

  add(kind: TraceEventKind, name: string, startNs: number, durNs: number, device: number, lane: number): void {
    this.addKind(TRACE_EVENT_KINDS.indexOf(kind), name, startNs, durNs, device, lane);
  }

  /** add() with the kind as its index in TRACE_EVENT_KINDS: for readers that add an event per event read. */
  addKind(k: number, name: string, startNs: number, durNs: number, device: number, lane: number): void {
    if (this.admit(k, startNs, durNs)) this.put(k, this.nameIndex.get(name) ?? this.newName(name), startNs, durNs, device, lane);
  }

  /** Counts an event of kind `k` as seen; true when it is kept (timed, and its class under its cap). */
  private admit(k: number, startNs: number, durNs: number): boolean {
    this.seenByKind[k]! += 1;
    // One path for both classes: an event of the class not seen yet does not undo optimized callers.
    const c = CLASS_OF_KIND[k]!;
    if (this.keptByClass[c]! >= this.capByClass[c]! || !Number.isFinite(startNs) || !Number.isFinite(durNs) || durNs < 0) return false;
    this.keptByClass[c]! += 1;
    return true;
  }

  private put(k: number, nameId: number, startNs: number, durNs: number, device: number, lane: number): void {
    if (this.count === this.starts.length) this.grow();
    const i = this.count++;
    this.starts[i] = startNs;
    this.durs[i] = durNs;
    this.devices[i] = device;
    this.lanes[i] = Number.isFinite(lane) ? lane : 0;
    this.kinds[i] = k;
    this.nameIds[i] = nameId;
  }

  private newName(name: string): number {
    const id = this.names.length;
    this.names.push(name);
    this.nameIndex.set(name, id);
    return id;
  }

  /** Events seen but not kept, per kind (none when nothing was cut). */
  dropped(): Partial<Record<TraceEventKind, number>> {
    const kept: Record<TraceEventKind, number> = { kernel: 0, memcpy: 0, memset: 0, range: 0, 'cpu-op': 0 };
    for (let i = 0; i < this.count; i++) kept[TRACE_EVENT_KINDS[this.kinds[i]!]!] += 1;
    const out: Partial<Record<TraceEventKind, number>> = {};
    const seen = this.seen;
    for (const kind of TRACE_EVENT_KINDS) if (seen[kind] > kept[kind]) out[kind] = seen[kind] - kept[kind];
    return out;
  }

  /**
   * Narrows the columns to the rows kept (views: nothing is copied), once the reader is done, so
   * that the record is the same object whatever room it started with. Adding more grows it again.
   */
  seal(): this {
    this.starts = this.starts.subarray(0, this.count);
    this.durs = this.durs.subarray(0, this.count);
    this.devices = this.devices.subarray(0, this.count);
    this.lanes = this.lanes.subarray(0, this.count);
    this.kinds = this.kinds.subarray(0, this.count);
    this.nameIds = this.nameIds.subarray(0, this.count);
    return this;
  }

  /** What the record holds, never its buffers: its JSON does not depend on the room it was given. */
  toJSON(): { count: number; seen: Record<TraceEventKind, number>; dropped: Partial<Record<TraceEventKind, number>>; events: TraceEvent[] } {
    return { count: this.count, seen: this.seen, dropped: this.dropped(), events: [...this.events()] };
  }

  /** Every distinct name (for redacting each once). */
  distinctNames(): readonly string[] {
    return this.names;
  }

  /** The kept events, in the order they were read. */
  *events(): Generator<TraceEvent> {
    for (let i = 0; i < this.count; i++) {
      yield { kind: TRACE_EVENT_KINDS[this.kinds[i]!]!, name: this.names[this.nameIds[i]!]!, startNs: this.starts[i]!, durNs: this.durs[i]!, device: this.devices[i]!, lane: this.lanes[i]! };
    }
  }

  private grow(): void {
    // A record sealed with no rows has columns of length 0: doubling that would stay 0.
    const size = Math.max(INITIAL_ROWS, this.starts.length * 2);
    this.starts = grown(this.starts, size);
    this.durs = grown(this.durs, size);
    this.devices = grown(this.devices, size);
    this.lanes = grown(this.lanes, size);
    this.kinds = grown(this.kinds, size);
    this.nameIds = grown(this.nameIds, size);
  }
}
