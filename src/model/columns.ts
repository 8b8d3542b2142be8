/** Typed-array columns that grow by doubling: the per-event stores of traces hold millions of rows. */
type Column = Float64Array | Int32Array | Uint8Array;

/**
 * Rows a set of columns starts with when nothing says how many it will hold. A reader that knows
 * (a count, or its input's size) passes it: growing by doubling writes every row again into fresh
 * memory, and each fresh page costs a page fault (12–15 µs on a 2-vCPU VM, where doubling the trace
 * record and the op log was a tenth of a 300 MB trace's import). Asking for too many costs little
 * (pages never written are not resident), but each array counts as external memory to V8's
 * garbage collector, so the number asked for follows the input rather than a fixed large one.
 */
export const INITIAL_ROWS = 1024;

/** A copy of `old` in a fresh array of the same type, `size` long. */
export function grown<T extends Column>(old: T, size: number): T {
  const fresh = new (old.constructor as new (length: number) => T)(size);
  fresh.set(old);
  return fresh;
}
