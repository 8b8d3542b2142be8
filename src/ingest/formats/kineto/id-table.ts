/**
 * Small non-negative numbers kept per trace id (External id, correlation id). Kineto numbers both
 * densely from 0 or 1 per profiling session, so a typed array indexed by id costs 2 bytes an id
 * (4 once a value passes 65,534); an id past DENSE_ID_LIMIT (corrupt or foreign) goes to a map.
 */

const DENSE_ID_LIMIT = 1 << 26;

export class IdTable {
  /** value + 1 per id; 0: none. */
  private dense: Uint16Array | Int32Array = new Uint16Array(1024);
  private readonly sparse = new Map<number, number>();

  set(id: number, value: number): void {
    if (id >= DENSE_ID_LIMIT) {
      this.sparse.set(id, value);
      return;
    }
    const wide = value + 1 > 0xffff && this.dense instanceof Uint16Array;
    if (id >= this.dense.length || wide) {
      let size = this.dense.length;
      while (size <= id) size = Math.ceil(size * 1.5);
      const grown = wide || this.dense instanceof Int32Array ? new Int32Array(size) : new Uint16Array(size);
      grown.set(this.dense);
      this.dense = grown;
    }
    this.dense[id] = value + 1;
  }

  /** The value set for `id`, or -1. */
  get(id: number): number {
    if (!(id >= 0)) return -1;
    if (id >= DENSE_ID_LIMIT) return this.sparse.get(id) ?? -1;
    return id < this.dense.length ? this.dense[id]! - 1 : -1;
  }
}
