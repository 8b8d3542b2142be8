/**
 * The WebAssembly memories of the Kineto importer's two modules (the tape, tape.ts, and the cpu_op
 * summing, launch-sites.ts), kept from one trace's import for the next.
 *
 * Why: V8 counts a WebAssembly memory as memory outside its heap, and an import made a fresh 7 MB
 * memory for the tape and a 25 MB one (the trace record's columns, at their caps) for the summing.
 * With many small traces read in one process (a dashboard over a history, the test suites), that
 * made the collector run a full mark-compact every trace or two: more time than the reading, and
 * in a process with a large heap many times more.
 *
 * So a finished import hands its memories back. Its module zeroes the bytes it wrote (each
 * module's scrub()), so that the memory reads exactly as a fresh one, and the memory waits for the
 * next import. A few are kept, none grown past KEPT_BYTES_MAX; a memory that a large trace record
 * still views stays that record's (launch-sites.ts).
 */

/** The parts of the WebAssembly API the importer uses (the compile target's lib does not declare it). */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: unknown };
  Memory: new (descriptor: { initial: number }) => WasmMemory;
}
export const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

/** A module's instance on `memory` (imported as env.memory), with `imports` beside it. */
export function instantiate<Exports>(module: object, memory: WasmMemory, imports: Record<string, object>): Exports {
  const env = { ...(imports.env ?? {}), memory };
  return new wasm.Instance(module, { ...imports, env }).exports as Exports;
}

/** Memories kept per module: one per import that runs at the same time, and one to spare. */
const KEPT = 2;
/** A larger memory (a large trace's) is not kept: it would hold that much after the import. */
const KEPT_BYTES_MAX = 64 << 20;

/** One module's memories that wait for an import. */
export class MemoryPool {
  private readonly free: WasmMemory[] = [];

  /** Memories waiting for an import. */
  get kept(): number {
    return this.free.length;
  }

  /** A memory of at least `pages` pages of 64 KiB, all zero but for what a module's data segments write. */
  take(pages: number): WasmMemory {
    const memory = this.free.pop();
    if (memory && memory.buffer.byteLength >= pages << 16) return memory;
    return new wasm.Memory({ initial: pages });
  }

  /** Whether give() would keep `memory` (then nothing outside the module may still view it). */
  keeps(memory: WasmMemory): boolean {
    return this.free.length < KEPT && memory.buffer.byteLength <= KEPT_BYTES_MAX;
  }

  /**
   * An import is done with `memory`: `scrub` (its module's, which zeroes what the module and its
   * caller wrote) runs and the memory is kept, when keeps() says so; else it goes to the collector.
   */
  give(memory: WasmMemory, scrub: () => void): void {
    if (!this.keeps(memory)) return;
    scrub();
    this.free.push(memory);
  }
}

export const TAPE_MEMORIES = new MemoryPool();
export const OPS_MEMORIES = new MemoryPool();
