/**
 * Which CPU op launched each kernel, from a Kineto trace's `cpu_op` events: PyTorch writes each op
 * with an `External id`, and each kernel with the External id of the innermost op that launched it.
 * Ops are nested by time on their thread (the trace lists them in start order per thread), so the
 * chain of enclosing ops (`aten::repeat_interleave > aten::copy_`) is known when an op is read.
 * With `record_shapes`, a matmul op's `Input Dims` give its token count M.
 *
 * The ops are summed in WebAssembly (wasm/kineto-ops.ts), most of them as the event tape reads them:
 * cpu_ops are most events of a trace. This is its JavaScript face: the op names (interned here by
 * their text, numbered in first-seen order), a matmul's token count from its Input Dims, and, once
 * the scan is over, the chains and sites the module numbered. A kernel's site comes with its record
 * (tape.ts S_SITE), looked up as the trace gives it at that point of the file.
 *
 * The same module sums the kernels and the API calls (wasm/kineto-sums.ts): this class is its face
 * to the importer too (the kernel and API names' entries, a kernel's attribution, the op log's rows).
 *
 * Memory stays bounded on multi-GB traces: per op only a small site number is kept, by External id;
 * the distinct sites (chain, tokens) are few. Per kernel, time is summed by site as kernels are read.
 */
import { TRACE_EVENT_KINDS, TraceEvents } from '../../../model/trace-events.js';
import { OPS_WASM_BASE64, OPS_WASM_PAGES } from './tape-wasm.js';
import { instantiate, OPS_MEMORIES, wasm, type WasmMemory } from './wasm-runtime.js';
import {
  S_DIMS_END,
  S_DIMS_START,
  S_DUR_FRAC,
  S_DUR_US,
  S_EXTERNAL_ID,
  S_HAS_DUR,
  S_HAS_TS,
  S_NAME_END,
  S_NAME_ID,
  S_NAME_START,
  S_TID,
  S_TS_FRAC,
  S_TS_US,
  type TapeOps,
} from './tape.js';

/** The matmul ops whose input shapes give M, and which input holds the activations (addmm: mat1). */
const MATMUL_INPUT: ReadonlyMap<string, number> = new Map([
  ['aten::mm', 0],
  ['aten::matmul', 0],
  ['aten::linear', 0],
  ['aten::bmm', 0],
  ['aten::addmm', 1],
  ['aten::baddbmm', 1],
  ['aten::_addmm_activation', 1],
  ['aten::_scaled_mm', 0],
  ['aten::_grouped_mm', 0],
  ['aten::_scaled_grouped_mm', 0],
]);

/** Ops shown in a chain: the outermost, then the innermost few. */
const CHAIN_HEAD = 1;
const CHAIN_TAIL = 3;
const NO_TOKENS = -1;

/** True for the ops whose Input Dims are read (the others' are never decoded). */
export function isMatmulOp(opName: string): boolean {
  return MATMUL_INPUT.has(opName);
}

/**
 * The rows of a matmul's activation input from its `Input Dims` JSON (`[[8, 512, 1024], [1024, 1024], …]`):
 * all but the last dim (`[8, 512]`). Undefined when the dims are missing or not a matrix.
 */
export function matmulRows(opName: string, inputDims: string | undefined): number[] | undefined {
  const input = MATMUL_INPUT.get(opName);
  if (input === undefined || inputDims === undefined) return undefined;
  let dims: unknown;
  try {
    dims = JSON.parse(inputDims);
  } catch {
    return undefined;
  }
  const shape = Array.isArray(dims) ? dims[input] : undefined;
  if (!Array.isArray(shape) || shape.length < 2 || !shape.every((d) => Number.isInteger(d) && d >= 0)) return undefined;
  return (shape as number[]).slice(0, -1);
}

/** M of a matmul (its token count): the product of its activation rows (matmulRows). */
export function matmulTokens(opName: string, inputDims: string | undefined): number | undefined {
  return matmulRows(opName, inputDims)?.reduce((product, d) => product * d, 1);
}

/** Told of each matmul op that no other matmul op with recorded shapes encloses. */
export type OutermostMatmul = (opName: string, rows: readonly number[], startNs: number) => void;

/**
 * An op name read from the trace: its id in the op chains (one per distinct name), whether it is a
 * matmul, and `k`, its reference among the trace record's names (LaunchSites.nameRef), by which
 * the WebAssembly module asks for it.
 */
export class OpName {
  constructor(
    readonly name: string,
    readonly id: number,
    readonly matmul: boolean,
    readonly k: number,
  ) {}
}

export interface Attribution {
  launchedBy: string;
  launchedByShare: number;
  tokens?: number;
}

/** wasm/kineto-ops.ts's exports (and kineto-sums.ts's, compiled into the same module). */
export interface OpsExports {
  init(gpuCap: number, hostCap: number): void;
  gpuKernel(...args: number[]): number;
  apiCall(...args: number[]): number;
  framed(us: number): number;
  setGpuBase(us: number): void;
  hostBase(us: number): number;
  setCapturing(): void;
  seeCategory(category: number): void;
  categoriesSeen(): number;
  categorySeenAt(k: number): number;
  launchesBeforeFrameCount(): number;
  attributedCount(): number;
  unlinkedCount(): number;
  sumKernel(k: number, device: number, durNs: number, site: number, g0: number, g1: number, g2: number, b0: number, b1: number, b2: number): number;
  kernelSumCount(): number;
  sumName(s: number): number;
  sumDevice(s: number): number;
  sumTotalNs(s: number): number;
  sumInstances(s: number): number;
  sumMinNs(s: number): number;
  sumMaxNs(s: number): number;
  bestShape(s: number): number;
  shapeDim(e: number, k: number): number;
  siteFirst(s: number): number;
  siteNext(e: number): number;
  siteKey(e: number): number;
  siteNs(e: number): number;
  siteReplayed(s: number, site: number, ns: number): void;
  opRowsAt(): number;
  opRowsWritten(): number;
  opRowsTaken(): void;
  sumApi(k: number, durNs: number): void;
  apiTotalNs(k: number): number;
  apiCalls(k: number): number;
  cpuOp(...args: number[]): void;
  siteOfEvent(externalId: number, correlation: number): number;
  recordRow(kind: number, name: number, tsUs: number, tsFrac: number, durNs: number, device: number, lane: number): void;
  opCount(): number;
  unorderedCount(): number;
  chainParent(chain: number): number;
  chainOp(chain: number): number;
  siteChain(site: number): number;
  siteTokenCount(site: number): number;
  rows(): number;
  rowsSeen(kind: number): number;
  rowsKept(host: number): number;
  numberNames(): number;
  numberRefsAt(): number;
  firstRowsAt(): number;
  rowStartAt(): number;
  rowDurAt(): number;
  rowLaneAt(): number;
  rowDeviceAt(): number;
  rowNameAt(): number;
  rowKindAt(): number;
  scrub(): void;
}

let compiled: object | undefined;

/**
 * A trace record of at most this many rows is copied out of the module's memory (2.4 MB at most),
 * so that the memory can serve the next import; a larger one is left where it is, a view, and the
 * memory stays the record's. Small traces are the ones read by the hundred in one process.
 */
const COPIED_ROWS_MAX = 1 << 16;

const EMPTY = Buffer.alloc(0);
/** The trace record's name of a GPU event without one (the tape's UNNAMED_REF is its reference). */
export const UNNAMED = '(unnamed)';

export class LaunchSites implements TapeOps {
  readonly exports: OpsExports;
  private readonly memory: WasmMemory;
  /** Set once the trace record views the module's memory: the memory is then the record's. */
  private memoryViewed = false;
  private released = false;
  /** The bytes the module's name ranges index into: the tape's chunk while it scans, else the event's. */
  bytes: Buffer = EMPTY;
  private readonly opNames: string[] = [];
  private readonly opNameIds = new Map<string, number>();
  /**
   * The trace record's names that the importer gives (a row's name reference r < 0 is -(r + 1)
   * here; r >= 0 is the tape's id for the name), and the op name of those that are one.
   */
  private readonly refNames: string[] = [UNNAMED];
  private readonly refOps: Array<OpName | undefined> = [undefined];
  /**
   * `entries`: the importer's entry for a name range of `bytes` (its tape id, -1 when none), made
   * when new: an op's OpName (opName()), a kernel name's and an API name's number as
   * wasm/kineto-sums.ts packs them (kernelEntry(), apiEntry()); `caps`: the trace record's caps
   * (trace-events.ts).
   */
  constructor(
    entries: {
      op: (bytes: Buffer, start: number, end: number, id: number) => OpName;
      kernel: (bytes: Buffer, start: number, end: number, id: number) => number;
      api: (bytes: Buffer, start: number, end: number, id: number) => number;
    },
    private readonly caps: { gpu: number; host: number },
    private readonly outermostMatmul?: OutermostMatmul,
  ) {
    compiled ??= new wasm.Module(Buffer.from(OPS_WASM_BASE64, 'base64'));
    const env = {
      opEntry: (start: number, end: number, id: number): number => entries.op(this.bytes, start, end, id).k,
      kernelEntry: (start: number, end: number, id: number): number => entries.kernel(this.bytes, start, end, id),
      apiEntry: (start: number, end: number, id: number): number => entries.api(this.bytes, start, end, id),
      opOf: (k: number): number => this.refOps[k]!.id * 2 + (this.refOps[k]!.matmul ? 1 : 0),
      matmulTokens: (k: number, dimsStart: number, dimsEnd: number, inherited: number, startNs: number): number =>
        this.matmulTokens(this.refNames[k]!, dimsStart < 0 ? undefined : this.bytes.toString('utf8', dimsStart, dimsEnd), inherited, startNs),
    };
    this.memory = OPS_MEMORIES.take(OPS_WASM_PAGES);
    this.exports = instantiate<OpsExports>(compiled, this.memory, { env });
    this.exports.init(caps.gpu, caps.host);
  }

  /** Ops read; ops whose start went back in time on their thread (their chain may be cut short). */
  get ops(): number {
    return this.exports.opCount();
  }

  get unordered(): number {
    return this.exports.unorderedCount();
  }

  /**
   * Kernel launches linked to an op (graph replays tied to their capture's launches included), and
   * the others: no External id (CUDA graph replays), an old trace's correlation-as-id, or an op not
   * read before the kernel (PyTorch writes ops first).
   */
  get attributed(): number {
    return this.exports.attributedCount();
  }

  get unlinked(): number {
    return this.exports.unlinkedCount();
  }

  /** The module's memory as it is now (it grows: views are made for each use). */
  get buffer(): ArrayBuffer {
    return this.memory.buffer;
  }

  /** An op's name as interned once per distinct name bytes (by the importer's NameCache): its OpName. */
  opName(name: string): OpName {
    const op = new OpName(name, this.nameId(name), isMatmulOp(name), this.refNames.length);
    this.refNames.push(name);
    this.refOps.push(op);
    return op;
  }

  /** A name the importer gives a row of the trace record: its reference (for recordRow()). */
  nameRef(name: string): number {
    this.refNames.push(name);
    this.refOps.push(undefined);
    return -this.refNames.length;
  }

  /**
   * One event for the trace record, that the importer read or that the tape leaves to it: of kind
   * `kind` (TRACE_EVENT_KINDS), named by `name` (nameRef()), from its record's ts (µs and ns).
   */
  recordRow(kind: number, name: number, tsUs: number, tsFrac: number, durNs: number, device: number, lane: number): void {
    this.exports.recordRow(kind, name, tsUs, tsFrac, durNs, device, lane);
  }

  /**
   * The trace record, once the scan is over, its names numbered in the order of first use;
   * `tapeName` names a tape id by the kind of event it named (the importer's name caches know every
   * id a row was given). Its columns are copies where they are few and the module's memory is one
   * the pool keeps (wasm-runtime.ts), else views of that memory, which then stays the record's.
   */
  traceRecord(tapeName: (kind: number, id: number) => string): TraceEvents {
    const x = this.exports;
    const count = x.rows();
    // The name references numbered in the module, before the columns are taken (-1: left to
    // fromColumns, which then asks nameOf a row's reference).
    const numbers = x.numberNames();
    const buffer = this.memory.buffer;
    const copy = count <= COPIED_ROWS_MAX && OPS_MEMORIES.keeps(this.memory);
    this.memoryViewed ||= !copy;
    const column = <T extends Float64Array | Int32Array | Uint8Array>(view: T): T => (copy ? (view.slice() as T) : view);
    const kinds = column(new Uint8Array(buffer, x.rowKindAt(), count));
    const refs = column(new Int32Array(buffer, x.rowNameAt(), count));
    const nameOfRef = (ref: number, kind: number): string => (ref < 0 ? this.refNames[-ref - 1]! : tapeName(kind, ref));
    let numbered: { names: string[]; kept: { gpu: number; host: number } } | undefined;
    if (numbers >= 0) {
      const firstRows = new Int32Array(buffer, x.firstRowsAt(), numbers);
      const names = Array.from(new Int32Array(buffer, x.numberRefsAt(), numbers), (ref, k) => nameOfRef(ref, kinds[firstRows[k]!]!));
      numbered = { names, kept: { gpu: x.rowsKept(0), host: x.rowsKept(1) } };
    }
    return TraceEvents.fromColumns(
      this.caps,
      {
        starts: column(new Float64Array(buffer, x.rowStartAt(), count)),
        durs: column(new Float64Array(buffer, x.rowDurAt(), count)),
        devices: column(new Int32Array(buffer, x.rowDeviceAt(), count)),
        lanes: column(new Float64Array(buffer, x.rowLaneAt(), count)),
        kinds,
        nameIds: refs,
      },
      TRACE_EVENT_KINDS.map((_, k) => x.rowsSeen(k)),
      (row) => nameOfRef(refs[row]!, kinds[row]!),
      numbered,
    );
  }

  /**
   * The import is over: the module's memory goes back to the pool (wasm-runtime.ts), unless the
   * trace record views it. This summing must not be used again.
   */
  release(): void {
    if (this.released) return;
    this.released = true;
    if (!this.memoryViewed) OPS_MEMORIES.give(this.memory, () => this.exports.scrub());
  }

  /**
   * One cpu_op event (ph X) that the importer read itself rather than the tape, from its record
   * (tape.ts's slots) whose ranges index into `bytes`: summed as the tape sums the others.
   */
  op(r: Float64Array, at: number, bytes: Buffer): void {
    this.bytes = bytes;
    this.exports.cpuOp(
      r[at + S_NAME_START]!,
      r[at + S_NAME_END]!,
      r[at + S_NAME_ID]!,
      r[at + S_HAS_TS]!,
      r[at + S_TS_US]!,
      r[at + S_TS_FRAC]!,
      r[at + S_HAS_DUR]!,
      r[at + S_DUR_US]!,
      r[at + S_DUR_FRAC]!,
      r[at + S_TID]!,
      r[at + S_EXTERNAL_ID]!,
      r[at + S_DIMS_START]!,
      r[at + S_DIMS_END]!,
    );
  }

  /** A matmul op's token count (its own M, else the enclosing op's); tells the outermost ones' shapes. */
  private matmulTokens(name: string, inputDims: string | undefined, inherited: number, start: number): number {
    const rows = matmulRows(name, inputDims);
    if (!rows) return inherited;
    if (inherited === NO_TOKENS) this.outermostMatmul?.(name, rows, start);
    return rows.reduce((product, d) => product * d, 1);
  }

  /** The site of the op an event's External id names, or -1 (none, or an op not read). */
  siteOfEvent(externalId: number, correlation: number): number {
    return this.exports.siteOfEvent(externalId, correlation);
  }

  /** The site with the most time of kernel sum `s` (kineto-sums.ts), as a chain of op names, with its share and tokens. */
  attribution(s: number, totalNs: number): Attribution | undefined {
    const x = this.exports;
    let best = -1;
    let bestNs = -1;
    for (let e = x.siteFirst(s); e >= 0; e = x.siteNext(e)) {
      const ns = x.siteNs(e);
      if (ns > bestNs) [best, bestNs] = [x.siteKey(e), ns];
    }
    if (best < 0) return undefined;
    const chain = x.siteChain(best);
    // Launches from the same chain with other token counts count towards the chain's share.
    let chainNs = 0;
    for (let e = x.siteFirst(s); e >= 0; e = x.siteNext(e)) if (x.siteChain(x.siteKey(e)) === chain) chainNs += x.siteNs(e);
    const out: Attribution = { launchedBy: this.chainText(chain), launchedByShare: totalNs > 0 ? Math.min(1, chainNs / totalNs) : 1 };
    const tokens = x.siteTokenCount(best);
    if (tokens !== NO_TOKENS) out.tokens = tokens;
    return out;
  }

  private nameId(name: string): number {
    const known = this.opNameIds.get(name);
    if (known !== undefined) return known;
    const id = this.opNames.length;
    this.opNames.push(name);
    this.opNameIds.set(name, id);
    return id;
  }

  private chainText(chain: number): string {
    const names: string[] = [];
    for (let node = chain; node >= 0; node = this.exports.chainParent(node)) names.push(this.opNames[this.exports.chainOp(node)]!);
    names.reverse();
    if (names.length <= CHAIN_HEAD + CHAIN_TAIL) return names.join(' > ');
    return [...names.slice(0, CHAIN_HEAD), '…', ...names.slice(-CHAIN_TAIL)].join(' > ');
  }
}
