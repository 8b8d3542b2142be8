/** Typed-array columns that grow by doubling: the per-event stores of traces hold millions of rows. */
type Column = Float64Array | Int32Array | Uint8Array;

/** A copy of `old` in a fresh array of the same type, `size` long. */
export function grown<T extends Column>(old: T, size: number): T {
  const fresh = new (old.constructor as new (length: number) => T)(size);
  fresh.set(old);
  return fresh;
}
