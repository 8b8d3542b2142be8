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
const SPACE = 0x20;
const PAGE = 65536;

let compiled: object | undefined;

export class EventTape {
  private readonly exports: TapeExports;
  private readonly memory: WasmMemory;
  private released = false;
  private readonly inputAt: number;
  /** The chunk's bytes as the module sees them (a view of its memory, renewed when it grows). */
  input: Buffer;
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
    this.input = this.view(0);
    this.records = this.recordView();
  }

  /** Room for a chunk of `length` bytes at the input (its bytes to be written into `input`). */
  reserve(length: number): Buffer {
    const memory = this.memory;
    const needed = this.inputAt + length + SLACK;
    if (needed > memory.buffer.byteLength) {
      memory.grow(Math.ceil((needed - memory.buffer.byteLength) / PAGE));
      this.records = this.recordView();
    }
    this.input = this.view(length);
    return this.input;
  }

  /**
   * Room for `length` bytes read after the `kept` bytes at the input's start (keep()), so that the
   * chunk read there follows them without a copy.
   */
  reserveAfter(kept: number, length: number): Buffer {
    return this.reserve(kept + length).subarray(kept);
  }

  /**
   * Moves the input's bytes [from, to) to its start, after `pad` spaces, where load() puts them
   * before the next chunk: the end of one chunk (an event that runs past it) read again with the next.
   */
  keep(from: number, to: number, pad: number): void {
    const bytes = new Uint8Array(this.memory.buffer);
    bytes.copyWithin(this.inputAt + pad, this.inputAt + from, this.inputAt + to);
    bytes.fill(SPACE, this.inputAt, this.inputAt + pad);
  }

  /**
   * The chunk after the `kept` bytes at the input's start: copied into the module's memory, unless it
   * was read there (into reserve()'s or reserveAfter()'s buffer). `input` is then the kept bytes and
   * the chunk, one run of bytes.
   */
  load(chunk: Buffer, kept = 0): void {
    if (chunk.buffer === this.memory.buffer && chunk.byteOffset === this.inputAt + kept) this.input = this.view(kept + chunk.length);
    else this.reserveAfter(kept, chunk.length).set(chunk);
  }

  /**
   * Read plain events from the `{` at `from` on. Returns where it stopped; `stoppedAfterEvent`
   * tells whether that is just after an event (else an event's `{`); `count` records are in `records`.
   */
  scan(from: number): number {
    if (this.ops) this.ops.bytes = this.input;
    return this.exports.scan(from, this.input.length);
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

  private view(length: number): Buffer {
    return Buffer.from(this.memory.buffer, this.inputAt, length);
  }

  private recordView(): Float64Array {
    return new Float64Array(this.memory.buffer, this.exports.tapeAt(), this.capacity * this.slots);
  }
}
