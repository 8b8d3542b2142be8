/**
 * Folds the decoded events of a Kineto trace into per-kernel, per-memop and per-API sums, and
 * logs GPU op intervals for the timeline. Receives events from the scanner as byte ranges.
 * The cpu_ops, the kernels, the API calls and the trace record are summed in WebAssembly beside
 * the tape (launch-sites.ts; wasm/kineto-ops.ts, kineto-sums.ts): the tape hands them the events it
 * reads as it reads them, so what this summary gives them (the events it reads itself, and ranges)
 * it gives in file order. A GPU event's launch site comes with its record (S_SITE); a kernel or API
 * call the tape summed comes as a record only where this summary has more to do with it (S_SUM),
 * and the op log rows of the kernels the tape summed are taken in after each scan.
 */
import type { ImportContext } from '../../common/importer.js';
import type { ApiStat, KernelStat, MemopStat } from '../../../model/capture.js';
import {
  CAT_CPU_ANNOTATION,
  CAT_CPU_OP,
  CAT_DRIVER,
  CAT_GPU_ANNOTATION,
  CAT_KERNEL,
  CAT_MEMCPY,
  CAT_MEMSET,
  CAT_PYTHON,
  CAT_RUNTIME,
  CAT_SKIP,
  CAT_UNKNOWN,
  categoryOfString,
} from './categories.js';
import { EventFields, EventSyntaxError, INCOMPLETE, recordDurNs, recordName, recordNameStartsWith, recordNsFrom, recordShape } from './event-reader.js';
import { GenerationFacts, phaseOfName } from './generation-facts.js';
import { GraphCaptures, type ReplayReading } from './graph-captures.js';
import { LaunchSites, type OpName } from './launch-sites.js';
import { ScanError, type ScanSink } from './json-element.js';
import { NameCache, type NameEntry } from './name-cache.js';
import { classifyFrame, PythonFrames, type FrameKind, type PythonSiteTimes } from './python-frames.js';
import { decodeJsonString } from './string-end.js';
import {
  S_BYTES,
  S_CATEGORY,
  S_CORRELATION,
  S_DEVICE,
  S_EXTERNAL_ID,
  S_HAS_DUR,
  S_HAS_TS,
  S_NAME_END,
  S_NAME_ID,
  S_NAME_START,
  S_PH,
  S_PID,
  S_SITE,
  S_SUM,
  S_START,
  S_STREAM,
  S_TID,
  S_TS_FRAC,
  S_TS_US,
  SLOTS,
} from './tape.js';
import { KeyTimes } from './key-times.js';
import { OP_COLLECTIVE, OP_HOST_COPY, OP_KERNEL, OP_MEMOP, OpLog, type OpKind, type StepWindow } from '../../common/timeline.js';
import { GPU_EVENT_CAP, HOST_DEVICE, HOST_EVENT_CAP, TRACE_EVENT_KINDS, TraceEvents } from '../../../model/trace-events.js';
import { grown, INITIAL_ROWS } from '../../../model/columns.js';
import { compareText } from '../../../model/text-order.js';

const PH_COMPLETE = 88; // 'X'
/** The trace record's kinds, by index (TraceEvents.addKind). */
const RECORD_KERNEL = TRACE_EVENT_KINDS.indexOf('kernel');
const RECORD_MEMCPY = TRACE_EVENT_KINDS.indexOf('memcpy');
const RECORD_MEMSET = TRACE_EVENT_KINDS.indexOf('memset');
const RECORD_RANGE = TRACE_EVENT_KINDS.indexOf('range');
/**
 * Rows to start the op log with, from the file's size (model/columns.ts): Kineto traces hold a
 * kernel or copy per 1–4 KB of JSON (kernel-heavy ones per 1 KB); a gzipped trace is about a tenth
 * of its JSON. A miss only means growing.
 */
const BYTES_PER_GPU_OP = 1000;
const GZIP_RATIO = 10;
/** HTA drops longer events: CUPTI timestamp overflow, not real work. */
const MAX_DURATION_NS = 7 * 24 * 3600 * 1e9;
/**
 * How far a timed event may start from the trace's first one: 30 days either way, so that the
 * window (two such starts and a 7-day event) stays within the integers a double holds exactly.
 */
const MAX_FROM_FIRST_NS = 30 * 24 * 3600 * 1e9;
const MAX_FROM_FIRST_TEXT = '30 days';
const PROFILER_STEP = Buffer.from('ProfilerStep#', 'latin1');
const BUILT_IN = Buffer.from('<built-in ', 'latin1');
const BUILT_IN_NAME = 1;
const OTHER_NAME = 2;
const SKIPPED_FRAME: FrameKind = { kind: 'skip' };
const LAUNCH_CALL = /^(?:cuda|cu|hip)[A-Za-z]*Launch[A-Za-z]*Kernel/;
const GRAPH_LAUNCH_CALL = /^(?:cuda|cu|hip)GraphLaunch/;
/** Calls that a stream capture turns into a memcpy or memset node of the graph. */
const MEM_NODE_CALL = /^(?:cuda|cu|hip)Mem(?:cpy|set)[A-Za-z0-9_]*Async/;
const CAPTURE_BEGIN_CALL = /^(?:cuda|cu|hip)StreamBeginCapture/;
const CAPTURE_END_CALL = /^(?:cuda|cu|hip)StreamEndCapture/;
/** What a call is to a stream capture (graph-captures.ts). */
const CAPTURE_NONE = 0;
const CAPTURE_BEGIN = 1;
const CAPTURE_END = 2;
const CAPTURE_NODE = 3;
/** An API name's number as the summing module is given it: k << API_ROLE_BITS, then launch, graph launch, capture role (wasm/kineto-sums.ts apiEntry()). */
const API_ROLE_BITS = 4;
/** Numbers per row of the summing module's op log rows: start, end, correlation, device, kind (wasm/kineto-sums.ts). */
const OP_ROW_SLOTS = 5;

function captureRole(name: string): number {
  if (LAUNCH_CALL.test(name) || MEM_NODE_CALL.test(name)) return CAPTURE_NODE;
  if (CAPTURE_BEGIN_CALL.test(name)) return CAPTURE_BEGIN;
  if (CAPTURE_END_CALL.test(name)) return CAPTURE_END;
  return CAPTURE_NONE;
}
const CATEGORY_LABEL: Record<number, string> = {
  [CAT_KERNEL]: 'kernel',
  [CAT_MEMCPY]: 'gpu_memcpy',
  [CAT_MEMSET]: 'gpu_memset',
  [CAT_RUNTIME]: 'cuda_runtime',
  [CAT_DRIVER]: 'cuda_driver',
  [CAT_CPU_ANNOTATION]: 'user_annotation',
  [CAT_GPU_ANNOTATION]: 'gpu_user_annotation',
};

/**
 * A kernel (name, device) summed in WebAssembly (wasm/kineto-sums.ts), by its number there, where
 * the importer keeps more of it: its time by Python site, and its place among a capture's replays.
 */
class KernelRef {
  /** Time by the Python frame that launched it (python-frames.ts), when the trace holds Python stacks. */
  python?: PythonSiteTimes;
  constructor(readonly index: number) {}
}

interface MemopSum extends MemopStat {
  totalNs: number;
}

/** An API name: its number in the summing module (its sums are there), and what its calls are. */
interface ApiEntry {
  k: number;
  launch: boolean;
  graphLaunch: boolean;
  capture: number;
}

/** A GPU stream as one number: the stream (laneOf) on its device. */
const streamKey = (device: number, stream: number): number => device * 2 ** 21 + stream;
/** The trace record's lane of a GPU event: args.stream, else its tid (NaN: none). */
const recordLane = (r: Float64Array, at: number): number => (Number.isInteger(r[at + S_STREAM]) ? r[at + S_STREAM]! : r[at + S_TID]!);

const decodeName = (bytes: Buffer): string => decodeJsonString(bytes, 0, bytes.length) ?? bytes.toString('utf8');
const NO_NAME = Buffer.from('(unnamed)');

function memcpyKind(name: string): string {
  if (/HtoD/.test(name)) return 'memcpy-htod';
  if (/DtoH/.test(name)) return 'memcpy-dtoh';
  if (/DtoD/.test(name)) return 'memcpy-dtod';
  return 'memcpy-other';
}

/** A kernel name: its number in the summing module (its sums, by device, are there) and its timeline kind. */
interface KernelEntry {
  k: number;
  kind: OpKind;
}

export class TraceSummary implements ScanSink {
  /** Reads the events the tape leaves to JavaScript, into `one` (a record of the tape's layout). */
  private readonly fields = new EventFields();
  private readonly one = new Float64Array(SLOTS);
  /**
   * The events are summed from their records (tape.ts's slots, read in place: the tape's, or `one`),
   * passed as (r, at); `bytes` are what the record's name and Input Dims ranges index into.
   */
  private bytes: Buffer = Buffer.alloc(0);
  /** The event's launch shape (grid x,y,z then block x,y,z). */
  private readonly shape = new Float64Array(6);
  /** The kernel and API names in the order numbered (their numbers in the summing module). */
  private readonly kernelList: KernelEntry[] = [];
  private readonly apiList: ApiEntry[] = [];
  /** The kernel sums the importer keeps more of, by their number. */
  private readonly kernelRefs: Array<KernelRef | undefined> = [];
  /** The GPU and API events' clock: the ts of the first timed one (NaN until then). */
  private baseUs = NaN;
  /**
   * Byte offset of the event whose ts is baseUs (NaN until then: a double from the start, as an
   * offset may be one, and a field that changes its representation undoes all the summary's
   * compiled code).
   */
  private baseOffset = NaN;
  /** kernel name → its number and timeline kind */
  private readonly kernels = new NameCache<KernelEntry>(decodeName, (name) => {
    const entry: KernelEntry = { k: this.kernelList.length, kind: this.ctx.isCollective?.(name) ? OP_COLLECTIVE : OP_KERNEL };
    this.kernelList.push(entry);
    return entry;
  });
  private readonly memcpys = new NameCache<MemopSum>(decodeName, (name) => ({ kind: memcpyKind(name), name, totalNs: 0, count: 0 }));
  private readonly memsets = new NameCache<MemopSum>(decodeName, (name) => ({ kind: 'memset', name, totalNs: 0, count: 0 }));
  private readonly api = new NameCache<ApiEntry>(decodeName, (name) => {
    const entry: ApiEntry = { k: this.apiList.length, launch: LAUNCH_CALL.test(name), graphLaunch: GRAPH_LAUNCH_CALL.test(name), capture: captureRole(name) };
    this.apiList.push(entry);
    return entry;
  });
  readonly ops: OpLog;
  /**
   * The events as read, for the clean trace profile-gate writes (bounded): kept by the cpu_op
   * summing as they are read (the tape's there, the others through recordRow()), taken at finish().
   */
  trace: TraceEvents = new TraceEvents();
  /** True while the event being summed is one this summary read (not one of the tape's). */
  private ownEvent = false;
  /** Matmul shapes and phase-naming annotations: what tells decode steps from one forward pass. */
  readonly generation = new GenerationFacts();
  private readonly cpuOpNames: NameCache<OpName> = new NameCache<OpName>(decodeName, (name) => this.launchSites.opName(name));
  /** The summing in WebAssembly: the tape hands it the cpu_ops, kernels and API calls it reads. */
  readonly launchSites: LaunchSites = new LaunchSites(
    {
      op: (bytes, start, end, id) => this.cpuOpNames.getById(id, bytes, start, end).value,
      kernel: (bytes, start, end, id) => {
        const entry = this.kernels.getById(id, bytes, start, end).value;
        return (entry.k << 1) | (entry.kind === OP_COLLECTIVE ? 1 : 0);
      },
      api: (bytes, start, end, id) => {
        const entry = this.api.getById(id, bytes, start, end).value;
        return (entry.k << API_ROLE_BITS) | (entry.launch ? 1 : 0) | (entry.graphLaunch ? 2 : 0) | (entry.capture << 2);
      },
    },
    { gpu: GPU_EVENT_CAP, host: HOST_EVENT_CAP },
    (op, rows, startNs) => this.generation.matmul(op, rows, startNs),
  );
  readonly tapeOps = this.launchSites;
  readonly python = new PythonFrames();
  private readonly pythonNames = new NameCache<FrameKind>(decodeName, classifyFrame);
  /**
   * Per name id of the tape: BUILT_IN_NAME or OTHER_NAME once the name's bytes were looked at, so
   * that a Python event whose name was seen before is told without reading its bytes again.
   */
  private builtInById = new Uint8Array(1024);
  /**
   * The host clock's base as the summing module set it (by the first Python frame or launch call,
   * whoever read it), NaN until this summary first asks; and whether it told the module of a frame.
   */
  private hostBaseUs = NaN;
  private framed = false;
  readonly graphCorrelations = new Set<number>();
  /** Graph captures in the trace, and the GPU events without an op kept to match their replays. */
  private readonly graphs = new GraphCaptures<KernelRef | MemopSum>();
  /** How replays were tied to captures; set by finish(). */
  replays: ReplayReading | undefined;
  /** The categories summed, in the order first seen (the summing module keeps the order; set by finish()). */
  readonly categories = new Set<string>();
  /** Categories the summing module was told of, by number: one byte read per event instead of a call. */
  private readonly categorySeen = new Uint8Array(16);
  readonly members = new Map<string, unknown>();
  private readonly cpuSteps = new Map<string, StepWindow>();
  private readonly gpuSteps = new Map<string, StepWindow>();

  /** `size`: the trace file's size, from which the op log and the trace record take their first rows. */
  constructor(
    private readonly ctx: ImportContext,
    size?: { bytes: number; gzip: boolean },
  ) {
    const json = size ? size.bytes * (size.gzip ? GZIP_RATIO : 1) : 0;
    this.ops = new OpLog(Math.max(INITIAL_ROWS, Math.ceil(json / BYTES_PER_GPU_OP)));
  }

  member(key: string, bytes: Buffer, start: number, end: number, offset: number): void {
    try {
      this.members.set(key, JSON.parse(bytes.toString('utf8', start, end)));
    } catch {
      throw new ScanError(`expected valid JSON for the top-level "${key}"`, offset);
    }
  }

  event(bytes: Buffer, start: number, limit: number, category: number, offset: number): number {
    const f = this.fields;
    let end: number;
    try {
      // A Python event's args (its ids) are not needed: nesting is read from the times.
      end = f.read(bytes, start, limit, category === CAT_UNKNOWN, category !== CAT_PYTHON);
    } catch (error) {
      if (error === INCOMPLETE) return -1;
      if (error instanceof EventSyntaxError) throw new ScanError(error.message, offset + error.at - start);
      throw error;
    }
    f.write(this.one, 0);
    // A GPU or API event's site as the cpu_ops read so far give it (the tape writes it into its own records).
    this.one[S_SITE] = this.launchSites.siteOfEvent(this.one[S_EXTERNAL_ID]!, this.one[S_CORRELATION]!);
    this.one[S_SUM] = -1;
    this.bytes = f.buffer;
    // An event whose category the scanner could not tell was read with its `cat`.
    if (category === CAT_UNKNOWN) category = f.cat === undefined ? CAT_SKIP : categoryOfString(f.cat);
    this.ownEvent = true;
    this.use(this.one, 0, category, offset);
    this.ownEvent = false;
    return end;
  }

  taped(records: Float64Array, count: number, bytes: Buffer, base: number): void {
    // The op log's rows of the kernels the scan summed come before the events it left here.
    this.takeOpRows();
    this.bytes = bytes;
    for (let at = 0, end = count * SLOTS; at < end; at += SLOTS) this.use(records, at, records[at + S_CATEGORY]!, base + records[at + S_START]!);
  }

  /** One event; `category` as read (CAT_SKIP, or CAT_UNKNOWN from the tape, which reads no `cat`: none). */
  private use(r: Float64Array, at: number, category: number, offset: number): void {
    if (category === CAT_SKIP || category === CAT_UNKNOWN || r[at + S_PH] !== PH_COMPLETE) return;
    // A kernel or API call the tape summed, its checks passed: what is left of it is here.
    const summed = r[at + S_SUM]!;
    if (summed >= 0) return category === CAT_KERNEL ? this.kernel(r, at, summed) : this.apiCall(r, at, summed);
    // Only a cpu_op this summary read itself comes here: the tape sums the others as it reads them.
    if (category === CAT_CPU_OP) return this.launchSites.op(r, at, this.bytes);
    if (category === CAT_PYTHON) return this.pythonFrame(r, at);
    if (category === CAT_CPU_ANNOTATION || category === CAT_GPU_ANNOTATION) {
      if (!recordNameStartsWith(r, at, this.bytes, PROFILER_STEP)) return category === CAT_CPU_ANNOTATION ? this.annotation(r, at) : undefined;
    }
    if (r[at + S_HAS_TS] !== 1 || r[at + S_HAS_DUR] !== 1) {
      this.ctx.count('event-without-time', 'data-loss', 'complete (ph X) events without a numeric ts or dur were dropped');
      return;
    }
    const durNs = recordDurNs(r, at);
    if (durNs < 0 || durNs > MAX_DURATION_NS) {
      this.ctx.count('bad-duration', 'data-loss', 'events with a negative duration or one over 7 days (CUPTI overflow) were dropped');
      return;
    }
    if (Number.isNaN(this.baseUs)) {
      this.baseUs = r[at + S_TS_US]!;
      this.baseOffset = offset;
      this.launchSites.exports.setGpuBase(this.baseUs);
    }
    const startNs = recordNsFrom(r, at, this.baseUs);
    // One bogus timestamp would stretch the window past what a double counts exactly: refused here,
    // at this event, naming the event it is measured from (either of the two may be the bogus one).
    if (!(Math.abs(startNs) <= MAX_FROM_FIRST_NS)) {
      throw new ScanError(`expected a timestamp within ${MAX_FROM_FIRST_TEXT} of the first timed event (ts ${this.baseUs} µs, at byte ${this.baseOffset}), got ts ${r[at + S_TS_US]} µs`, offset);
    }
    if (this.categorySeen[category] === 0) {
      this.categorySeen[category] = 1;
      this.launchSites.exports.seeCategory(category);
    }
    // The handlers read the event's start and duration again from its record rather than take them:
    // a double passed to a call that is not inlined is boxed, an allocation per event.
    switch (category) {
      case CAT_KERNEL:
        return this.kernel(r, at, -1);
      case CAT_MEMCPY:
      case CAT_MEMSET:
        return this.memop(r, at, category === CAT_MEMSET);
      case CAT_RUNTIME:
      case CAT_DRIVER:
        return this.apiCall(r, at, -1);
      default:
        return this.step(r, at, category === CAT_GPU_ANNOTATION);
    }
  }

  /**
   * Records a GPU event of an interned name in the trace record, where the tape did not as it read
   * it: an event this summary read, or one with a name the tape did not number (S_NAME_ID -1).
   */
  private record<T>(r: Float64Array, at: number, kind: number, name: NameEntry<T>, durNs: number, device: number, lane: number): void {
    if (!this.ownEvent && (r[at + S_NAME_ID]! >= 0 || r[at + S_NAME_START]! < 0)) return;
    if (name.recordId < 0) name.recordId = -this.launchSites.nameRef(name.name) - 1;
    this.launchSites.recordRow(kind, -(name.recordId + 1), r[at + S_TS_US]!, r[at + S_TS_FRAC]!, durNs, device, lane);
  }

  /** record() for a range, whose name is not interned (the tape leaves every range to this summary). */
  private recordRange(r: Float64Array, at: number, name: string, durNs: number): void {
    this.launchSites.recordRow(RECORD_RANGE, this.launchSites.nameRef(name), r[at + S_TS_US]!, r[at + S_TS_FRAC]!, durNs, HOST_DEVICE, r[at + S_TID]!);
  }

  /** The stream of a GPU event (args.stream, else its tid), or -1. */
  private laneOf(r: Float64Array, at: number): number {
    const stream = r[at + S_STREAM]!;
    if (Number.isInteger(stream)) return stream;
    const tid = r[at + S_TID]!;
    return Number.isInteger(tid) ? tid : -1;
  }

  /** The device of a GPU event (args.device, else its pid), or -1. */
  private deviceOf(r: Float64Array, at: number): number {
    const device = r[at + S_DEVICE]!;
    if (Number.isInteger(device)) return device;
    const pid = r[at + S_PID]!;
    return Number.isInteger(pid) ? pid : -1;
  }

  /** The interned entry for the event's name. */
  private named<T>(r: Float64Array, at: number, cache: NameCache<T>): NameEntry<T> {
    const start = r[at + S_NAME_START]!;
    return start < 0 ? cache.get(NO_NAME, 0, NO_NAME.length) : cache.getById(r[at + S_NAME_ID]!, this.bytes, start, r[at + S_NAME_END]!);
  }

  /**
   * A kernel: summed (wasm/kineto-sums.ts sumKernel()), with its row of the op log and of the trace
   * record, unless the tape summed it (`summed`: its sum, -1 when not); then what the importer keeps
   * of it (its Python site, its place in a capture's replays).
   */
  private kernel(r: Float64Array, at: number, summed: number): void {
    const startNs = recordNsFrom(r, at, this.baseUs);
    const dur = recordDurNs(r, at);
    const device = this.deviceOf(r, at);
    const correlation = r[at + S_CORRELATION]!;
    const site = r[at + S_SITE]!;
    let s = summed;
    if (s < 0) {
      const named = this.named(r, at, this.kernels);
      const shape = this.shape;
      recordShape(r, at, shape);
      s = this.launchSites.exports.sumKernel(named.value.k, device, dur, site, shape[0]!, shape[1]!, shape[2]!, shape[3]!, shape[4]!, shape[5]!);
      this.ops.push(startNs, startNs + dur, device, correlation, named.value.kind);
      this.record(r, at, RECORD_KERNEL, named, dur, device, recordLane(r, at));
    }
    const capturing = this.graphs.active;
    if (!capturing && !this.python.active) return;
    const ref = (this.kernelRefs[s] ??= new KernelRef(s));
    // A kernel without an op may be a graph replay's: kept until its capture can be matched.
    const kept = site < 0 && capturing && this.graphs.defer(ref, correlation, streamKey(device, this.laneOf(r, at)), startNs, dur);
    if (!kept && this.python.active) this.python.kernel((ref.python ??= new KeyTimes()), correlation, dur);
    if (capturing) this.graphs.gpuEvent(correlation);
  }

  /**
   * A user annotation on the CPU (its GPU copy is not counted twice): counted when its name says a
   * generation phase. Names are not interned: serving engines put per-step numbers in them.
   */
  private annotation(r: Float64Array, at: number): void {
    const name = recordName(r, at, this.bytes);
    if (name === undefined) return;
    this.generation.range(phaseOfName(name), name);
    if (r[at + S_HAS_TS] === 1 && r[at + S_HAS_DUR] === 1) this.recordRange(r, at, name, recordDurNs(r, at));
  }

  /** A Python call (with_stack): kept only when it is the workload's own frame or an nn.Module. */
  private pythonFrame(r: Float64Array, at: number): void {
    const nameStart = r[at + S_NAME_START]!;
    if (r[at + S_HAS_TS] !== 1 || r[at + S_HAS_DUR] !== 1 || nameStart < 0) return;
    const durNs = recordDurNs(r, at);
    if (durNs < 0) return;
    // Python stacks are in the trace: the summing module sends the importer its launches from now on
    // (told once: the module's flag and clock never change after).
    if (!this.framed) {
      this.framed = true;
      this.hostBaseUs = this.launchSites.exports.framed(r[at + S_TS_US]!);
    }
    const start = this.hostNs(r, at);
    const id = r[at + S_NAME_ID]!;
    const frame = this.isBuiltIn(r, at, id) ? SKIPPED_FRAME : this.pythonNames.getById(id, this.bytes, nameStart, r[at + S_NAME_END]!).value;
    if (!this.python.frame(r[at + S_PID]!, r[at + S_TID]!, start, start + durNs, frame)) {
      this.ctx.count('python-frame-out-of-order', 'data-loss', 'python_function events that start before the previous one on their thread were dropped (their nesting is unknown)');
    }
  }

  /**
   * Built-ins are most Python events and never the user's frame: told by their bytes (once per name
   * id), and not interned (their names hold object addresses, so they are many).
   */
  private isBuiltIn(r: Float64Array, at: number, id: number): boolean {
    if (id < 0) return recordNameStartsWith(r, at, this.bytes, BUILT_IN);
    let known = id < this.builtInById.length ? this.builtInById[id]! : 0;
    if (known === 0) {
      known = recordNameStartsWith(r, at, this.bytes, BUILT_IN) ? BUILT_IN_NAME : OTHER_NAME;
      if (id >= this.builtInById.length) this.builtInById = grown(this.builtInById, Math.max(id + 1, this.builtInById.length * 2));
      this.builtInById[id] = known;
    }
    return known === BUILT_IN_NAME;
  }

  /** The event's start on the host clock, which Python frames and launch calls share (both are CPU-side times). */
  private hostNs(r: Float64Array, at: number): number {
    if (Number.isNaN(this.hostBaseUs)) this.hostBaseUs = this.launchSites.exports.hostBase(r[at + S_TS_US]!);
    return recordNsFrom(r, at, this.hostBaseUs);
  }

  private memop(r: Float64Array, at: number, memset: boolean): void {
    const startNs = recordNsFrom(r, at, this.baseUs);
    const durNs = recordDurNs(r, at);
    const named = this.named(r, at, memset ? this.memsets : this.memcpys);
    const sum = named.value;
    const correlation = r[at + S_CORRELATION]!;
    sum.totalNs += durNs;
    sum.count++;
    const bytes = r[at + S_BYTES]!;
    if (Number.isFinite(bytes)) sum.bytes = (sum.bytes ?? 0) + bytes;
    const hostCopy = sum.kind === 'memcpy-htod' || sum.kind === 'memcpy-dtoh';
    const device = this.deviceOf(r, at);
    if (this.graphs.active) {
      // A memcpy or memset node of a graph replay counts for the replay's positions.
      if (r[at + S_SITE]! < 0) this.graphs.defer(sum, correlation, streamKey(device, this.laneOf(r, at)), startNs, durNs);
      this.graphs.gpuEvent(correlation);
    }
    this.ops.push(startNs, startNs + durNs, device, correlation, hostCopy ? OP_HOST_COPY : OP_MEMOP);
    this.record(r, at, memset ? RECORD_MEMSET : RECORD_MEMCPY, named, durNs, device, recordLane(r, at));
  }

  /** An API call: summed (wasm/kineto-sums.ts sumApi()) unless the tape summed it (`summed`: its name's number, -1 when not); then what it is to launches and captures. */
  private apiCall(r: Float64Array, at: number, summed: number): void {
    const startNs = recordNsFrom(r, at, this.baseUs);
    const durNs = recordDurNs(r, at);
    let sum: ApiEntry;
    if (summed < 0) {
      sum = this.named(r, at, this.api).value;
      this.launchSites.exports.sumApi(sum.k, durNs);
    } else sum = this.apiList[summed]!;
    if (!sum.launch && !sum.graphLaunch && sum.capture === CAPTURE_NONE) return;
    const pid = r[at + S_PID]!;
    const tid = r[at + S_TID]!;
    const correlation = r[at + S_CORRELATION]!;
    if (sum.graphLaunch && Number.isFinite(correlation)) {
      this.graphCorrelations.add(correlation);
      this.graphs.graphLaunch(pid, tid, correlation);
    }
    const code = sum.launch || sum.graphLaunch ? this.python.launch(pid, tid, this.hostNs(r, at), correlation, sum.graphLaunch) : -1;
    if (sum.capture === CAPTURE_NONE) return;
    const ns = this.hostNs(r, at);
    if (sum.capture === CAPTURE_NODE) this.graphs.launch(pid, tid, ns, correlation, r[at + S_SITE]!, code);
    else if (sum.capture === CAPTURE_BEGIN) {
      this.graphs.begin(pid, tid, ns, startNs);
      this.launchSites.exports.setCapturing();
    }
    else this.graphs.end(pid, tid, ns, startNs + durNs);
  }

  private step(r: Float64Array, at: number, gpu: boolean): void {
    const startNs = recordNsFrom(r, at, this.baseUs);
    const durNs = recordDurNs(r, at);
    const name = recordName(r, at, this.bytes)!;
    // ProfilerStep ranges: the CPU one on its thread (the GPU projection is derived, not recorded).
    if (!gpu) this.recordRange(r, at, name, durNs);
    const steps = gpu ? this.gpuSteps : this.cpuSteps;
    const end = startNs + durNs;
    const known = steps.get(name);
    if (!known) steps.set(name, { name, start: startNs, end, clock: gpu ? 'gpu' : 'cpu' });
    else {
      known.start = Math.min(known.start, startNs);
      known.end = Math.max(known.end, end);
    }
  }

  /** Call after the last event: settles what was waiting for events that never came. */
  finish(): void {
    this.takeOpRows();
    const x = this.launchSites.exports;
    this.replays = this.graphs.finish(
      (correlation) => this.graphCorrelations.has(correlation),
      (sum, opSite, pythonCode, durNs) => {
        if (!(sum instanceof KernelRef)) return; // a memcpy or memset node: no sites
        x.siteReplayed(sum.index, opSite, durNs);
        if (this.python.active) this.python.replayed((sum.python ??= new KeyTimes()), pythonCode, durNs);
      },
      (sum, correlation, durNs) => {
        if (sum instanceof KernelRef && this.python.active) this.python.kernel((sum.python ??= new KeyTimes()), correlation, durNs);
      },
    );
    this.python.finish();
    this.python.launchesBeforeFrames += x.launchesBeforeFrameCount();
    for (let k = 0; k < x.categoriesSeen(); k++) this.categories.add(CATEGORY_LABEL[x.categorySeenAt(k)]!);
    const caches = [this.kernels, this.memcpys, this.memsets];
    this.trace = this.launchSites.traceRecord((kind, id) => caches[kind]!.nameById(id));
  }

  /**
   * The op log's rows the summing module wrote for the kernels the tape summed since the last call,
   * moved into the op log in their order (the file's).
   */
  private takeOpRows(): void {
    const x = this.launchSites.exports;
    const count = x.opRowsWritten();
    if (count === 0) return;
    const rows = new Float64Array(this.launchSites.buffer, x.opRowsAt(), count * OP_ROW_SLOTS);
    const ops = this.ops;
    for (let at = 0, end = count * OP_ROW_SLOTS; at < end; at += OP_ROW_SLOTS) {
      ops.push(rows[at]!, rows[at + 1]!, rows[at + 3]!, rows[at + 2]!, rows[at + 4]! as OpKind);
    }
    x.opRowsTaken();
  }

  /** The capture is made: the summing module's memory goes back to its pool, unless the trace record views it. */
  release(): void {
    this.launchSites.release();
  }

  /** The CPU-side windows of the CUDA-graph captures in the trace, on the GPU events' clock. */
  captureWindows(): Array<{ start: number; end: number }> {
    return this.graphs.windows();
  }

  /** Step windows: the GPU projection of a step where the trace has one, else the CPU range. */
  stepWindows(): StepWindow[] {
    const windows = new Map(this.cpuSteps);
    for (const [name, window] of this.gpuSteps) windows.set(name, window);
    return [...windows.values()];
  }

  kernelStats(): KernelStat[] {
    const x = this.launchSites.exports;
    // Each name's sums by device, in the order the devices were first seen.
    const sumsOf: number[][] = this.kernelList.map(() => []);
    for (let s = 0, count = x.kernelSumCount(); s < count; s++) sumsOf[x.sumName(s)]!.push(s);
    const out: KernelStat[] = [];
    for (const { name, value } of this.kernels.entries()) {
      for (const s of sumsOf[value.k]!) {
        const totalNs = x.sumTotalNs(s);
        const stat: KernelStat = { name, totalNs, instances: x.sumInstances(s), minNs: x.sumMinNs(s), maxNs: x.sumMaxNs(s) };
        const device = x.sumDevice(s);
        if (device >= 0) stat.device = device;
        const best = x.bestShape(s);
        if (best >= 0) {
          const [gx, gy, gz, bx, by, bz] = [0, 1, 2, 3, 4, 5].map((k) => x.shapeDim(best, k)) as [number, number, number, number, number, number];
          if ([gx, gy, gz].every(Number.isFinite)) stat.grid = [gx, gy, gz];
          if ([bx, by, bz].every(Number.isFinite)) stat.block = [bx, by, bz];
        }
        const site = this.launchSites.attribution(s, totalNs);
        if (site) {
          stat.launchedBy = site.launchedBy;
          stat.launchedByShare = Math.round(site.launchedByShare * 1e4) / 1e4;
          if (site.tokens !== undefined) stat.tokens = site.tokens;
        }
        const python = this.python.sites(this.kernelRefs[s]?.python, totalNs);
        if (python.length) stat.pythonSites = python;
        out.push(stat);
      }
    }
    return out.sort((a, b) => b.totalNs - a.totalNs || compareText(a.name, b.name));
  }

  memopStats(): MemopStat[] {
    const all = [...this.memcpys.entries(), ...this.memsets.entries()].map((entry) => entry.value);
    return all.sort((a, b) => b.totalNs - a.totalNs || compareText(a.name, b.name));
  }

  apiNames(): string[] {
    return [...this.api.entries()].map((entry) => entry.name);
  }

  apiStats(): ApiStat[] {
    const x = this.launchSites.exports;
    return [...this.api.entries()]
      .map(({ name, value }) => ({ name, totalNs: x.apiTotalNs(value.k), calls: x.apiCalls(value.k) }))
      .sort((a, b) => b.totalNs - a.totalNs || compareText(a.name, b.name));
  }

  launchCounts(): { kernelLaunches: number; graphLaunches: number } {
    let kernelLaunches = 0;
    let graphLaunches = 0;
    const x = this.launchSites.exports;
    for (const { value } of this.api.entries()) {
      if (value.launch) kernelLaunches += x.apiCalls(value.k);
      if (value.graphLaunch) graphLaunches += x.apiCalls(value.k);
    }
    return { kernelLaunches, graphLaunches };
  }
}
