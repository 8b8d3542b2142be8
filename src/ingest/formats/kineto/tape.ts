/**
 * The WebAssembly event tape (wasm/kineto-tape.ts, compiled into tape-wasm.ts): the plain events of
 * a chunk read outside JavaScript, handed back as one record of numbers and byte ranges per event
 * of a wanted category. What it does not take (an event that is not plain, or runs past the chunk)
 * it leaves to the JavaScript scanner, at the event's `{`.
 */
import { TAPE_WASM_BASE64, TAPE_WASM_PAGES } from './tape-wasm.js';
import { instantiate, TAPE_MEMORIES, wasm, type WasmMemory } from './wasm-runtime.js';

interface TapeExports {
  scan(from: number, length: number): number;
  tapeAt(): number;
  inputAt(): number;
  recordSlots(): number;
  recordCapacity(): number;
  recordCount(): number;
  stoppedAfterEvent(): number;
  sumCpuOps(on: number): void;
  scrub(): void;
}

/** What the tape imports of the cpu_op summing (wasm/kineto-ops.ts; launch-sites.ts instantiates it). */
export interface TapeOps {
  readonly exports: {
    cpuOp(...args: number[]): void;
    siteOfEvent(externalId: number, correlation: number): number;
    recordRow(...args: number[]): void;
    gpuKernel(...args: number[]): number;
    apiCall(...args: number[]): number;
    framed(us: number): number;
  };
  /** The bytes its name callbacks read from, set to the chunk before each scan. */
  bytes: Buffer;
}

/** For a tape without the summing: a scan then writes records of every event, cpu_ops included. */
function unsummed(): never {
  throw new Error('kineto tape: an event was summed without the summing module');
}
const NO_OPS = {
  cpuOp: unsummed,
  recordRow: unsummed,
  gpuKernel: unsummed,
  apiCall: unsummed,
  framed: unsummed,
  siteOfEvent: (): number => -1,
};

// Record slots (wasm/kineto-tape.ts's S_*).
export const S_CATEGORY = 0;
export const S_START = 1;
export const S_END = 2;
export const S_PH = 3;
export const S_NAME_START = 4;
export const S_NAME_END = 5;
export const S_PID = 6;
export const S_TID = 7;
export const S_HAS_TS = 8;
export const S_TS_US = 9;
export const S_TS_FRAC = 10;
export const S_HAS_DUR = 11;
export const S_DUR_US = 12;
export const S_DUR_FRAC = 13;
export const S_DEVICE = 14;
export const S_STREAM = 15;
export const S_CORRELATION = 16;
export const S_EXTERNAL_ID = 17;
export const S_BYTES = 18;
export const S_DIMS_START = 19;
export const S_DIMS_END = 20;
export const S_SHAPE = 21;
export const S_SHAPE_SET = 27;
/** The name's id in this tape: equal ids, equal bytes; -1 when not interned (NameCache.getById). */
export const S_NAME_ID = 28;
/**
 * A GPU or API event's launch site, as the cpu_ops read before it in the file give it
 * (LaunchSites.siteOfEvent; -1: none). Written by a tape that sums cpu_ops, else -1.
 */
export const S_SITE = 29;
/**
 * A kernel or API record's sum in the summing module (wasm/kineto-sums.ts), when the tape summed it
 * there: the kernel's sum, the API name's index; the importer then only does what it has more to
 * do. -1: not summed (the importer sums it, as it does an event it reads itself).
 */
export const S_SUM = 30;
/** Numbers per record (the module's recordSlots(), checked when it is instantiated). */
export const SLOTS = 31;

/** Vector loads may read this far past a chunk's last byte (the tape's 32-byte compares). */
const SLACK = 32;
const PAGE = 65536;
/** Bytes one read of the file gives at most, and one chunk the tape is given at most (load()). */
export const READ_BYTES = 1 << 20;
/**
 * The input is two regions, each room for the bytes kept from the chunk before (keep(): at most
 * READ_BYTES, see json-scanner.ts leftByTape()) then a read area of READ_BYTES. The reader of the
 * file reads the next chunk into one region's read area while the tape scans the chunk in the
 * other (input-file.ts reads one ahead), and the bytes kept go before it: no chunk is copied.
 * Read areas start at multiples of 64 KiB: on some CPUs (AMD EPYC here) the kernel copies a read
 * 3-4× slower to an address 1 to 31 bytes past a page's start than to one at 0 or 32 on
 * (bench/README.md).
 */
const KEPT_ROOM = READ_BYTES;
const REGION = KEPT_ROOM + READ_BYTES;

let compiled: object | undefined;

export class EventTape {
  private readonly exports: TapeExports;
  private readonly memory: WasmMemory;
  private released = false;
  private readonly inputAt: number;
  /** The region of the chunk being read (0 or 1); the next chunk goes to the other one. */
  private region = 1;
  /** The region the next readArea() gives. */
  private nextRead = 0;
  /** Bytes keep() put before the other region's read area, read in front of the next chunk. */
  private kept = 0;
  /** Where `input` starts in `recordBytes`. */
  private offset = 0;
  /** The chunk's bytes, with those kept before them: what the caller scans (positions from 0). */
  input: Buffer;
  /** The module's input from its start to the chunk's end: what the records' positions index. */
  recordBytes: Buffer;
  /** The records of the last scan(), `slots` numbers each. */
  records: Float64Array;
  readonly slots: number;
  /** Records one scan() writes at most. */
  readonly capacity: number;

  /**
   * `ops`: the summing (launch-sites.ts): cpu_ops, kernels and API calls then go to it as they are
   * read, in file order, and leave a record only where the importer has more to do with them, and
   * the trace record's rows of what the tape reads are written there as it reads them; without it
   * every event of a wanted category is a record.
   */
  constructor(private readonly ops?: TapeOps) {
    compiled ??= new wasm.Module(Buffer.from(TAPE_WASM_BASE64, 'base64'));
    this.memory = TAPE_MEMORIES.take(TAPE_WASM_PAGES);
    this.exports = instantiate<TapeExports>(compiled, this.memory, { ops: ops?.exports ?? NO_OPS });
    if (ops) this.exports.sumCpuOps(1);
    this.inputAt = this.exports.inputAt();
    this.slots = this.exports.recordSlots();
    if (this.slots !== SLOTS) throw new Error(`kineto tape: the module writes records of ${this.slots} numbers, not ${SLOTS}`);
    this.capacity = this.exports.recordCapacity();
    // Both regions at once: the memory never grows after a read area is handed out, so no view of
    // it (a read in flight among them) is left on a detached buffer.
    const needed = this.inputAt + 2 * REGION + SLACK;
    const memory = this.memory;
    if (needed > memory.buffer.byteLength) memory.grow(Math.ceil((needed - memory.buffer.byteLength) / PAGE));
    this.input = this.recordBytes = Buffer.from(memory.buffer, this.inputAt, 0);
    this.records = new Float64Array(memory.buffer, this.exports.tapeAt(), this.capacity * this.slots);
  }

  /** The module's address of region r's read area. */
  private readAt(region: number): number {
    return this.inputAt + region * REGION + KEPT_ROOM;
  }

  /**
   * Where the file's next read may put its bytes (READ_BYTES of room), so that load() need not copy
   * them: the two regions' read areas in turn, first region 0's. Chunks read there are load()ed in
   * the same order; the next one may be read while the one before is scanned.
   */
  readArea(): Buffer {
    const region = this.nextRead;
    this.nextRead ^= 1;
    return Buffer.from(this.memory.buffer, this.readAt(region), READ_BYTES);
  }

  /**
   * Puts the chunk's bytes [from, to) in front of the next chunk (before the other region's read
   * area), where load() reads them again with it: an event that runs past the chunk, read whole.
   * At most READ_BYTES.
   */
  keep(from: number, to: number): void {
    const length = to - from;
    if (length > KEPT_ROOM) throw new Error(`kineto tape: ${length} bytes kept, room for ${KEPT_ROOM}`);
    const start = this.inputAt + this.offset;
    new Uint8Array(this.memory.buffer).copyWithin(this.readAt(this.region ^ 1) - length, start + from, start + to);
    this.kept = length;
  }

  /**
   * The next chunk, of at most READ_BYTES: read into readArea()'s buffer (then its turn must be
   * this one), or copied into the next region's read area. `input` is then the bytes kept before it
   * (keep()) and the chunk, one run of bytes.
   */
  load(chunk: Buffer): void {
    const region = this.region ^ 1;
    const at = this.readAt(region);
    if (chunk.length > READ_BYTES) throw new Error(`kineto tape: a chunk of ${chunk.length} bytes, room for ${READ_BYTES}`);
    if (chunk.buffer !== this.memory.buffer) new Uint8Array(this.memory.buffer).set(chunk, at);
    else if (chunk.byteOffset !== at) throw new Error('kineto tape: a chunk read into the tape out of its turn');
    this.region = region;
    this.offset = at - this.kept - this.inputAt;
    this.input = Buffer.from(this.memory.buffer, at - this.kept, this.kept + chunk.length);
    this.recordBytes = Buffer.from(this.memory.buffer, this.inputAt, this.offset + this.input.length);
    this.kept = 0;
  }

  /** Where `input` starts in `recordBytes`: a record's position less this is its position in `input`. */
  get inputStart(): number {
    return this.offset;
  }

  /**
   * Read plain events from the `{` at `from` on (a position in `input`). Returns where it stopped;
   * `stoppedAfterEvent` tells whether that is just after an event (else an event's `{`); `count`
   * records are in `records`, their byte positions in `recordBytes`.
   */
  scan(from: number): number {
    if (this.ops) this.ops.bytes = this.recordBytes;
    const offset = this.offset;
    return this.exports.scan(offset + from, offset + this.input.length) - offset;
  }

  get count(): number {
    return this.exports.recordCount();
  }

  get stoppedAfterEvent(): boolean {
    return this.exports.stoppedAfterEvent() === 1;
  }

  /**
   * The import is over: the module's memory goes back to the pool (wasm-runtime.ts), and this tape
   * and every view of its memory must not be used again.
   */
  release(): void {
    if (this.released) return;
    this.released = true;
    TAPE_MEMORIES.give(this.memory, () => this.exports.scrub());
  }

}
