/** Typed-array columns that grow by doubling: the per-event stores of traces hold millions of rows. */
type Column = Float64Array | Int32Array | Uint8Array;

/**
 * Rows a set of columns is created with. Large on purpose: the system maps a fresh typed array's
 * pages zeroed and only when a row is first written there, so rows never written cost no memory;
 * growing by doubling instead writes every row again into fresh pages (a page fault each 4 KB:
 * 12–15 µs on a 2-vCPU VM, where doubling was 10 % of a 300 MB trace's import).
 */
export const RESERVED_ROWS = 1 << 20;

/** A copy of `old` in a fresh array of the same type, `size` long. */
export function grown<T extends Column>(old: T, size: number): T {
  const fresh = new (old.constructor as new (length: number) => T)(size);
  fresh.set(old);
  return fresh;
}
