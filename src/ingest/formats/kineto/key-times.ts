/**
 * Time summed per small non-negative integer key (a Python site code; a kernel's launch sites are
 * summed in WebAssembly, wasm/kineto-sums.ts), kept per kernel (name, device) and added to once per
 * kernel event: two typed arrays in first-seen order,
 * indexed by an open-addressing table. No object or boxed number per add, as a Map<number, number>
 * of float sums would make.
 */

export class KeyTimes {
  size = 0;
  /** Keys and their summed ns, in the order keys were first added. */
  keys = new Int32Array(4);
  ns = new Float64Array(4);
  /** Open addressing: entry + 1 per slot, 0 empty; a power of two at least twice `size`. */
  private index = new Int32Array(8);
  /** The entry last added to: a kernel's launches mostly come from one site in a row. */
  private last = -1;

  add(key: number, ns: number): void {
    const last = this.last;
    if (last >= 0 && this.keys[last] === key) {
      this.ns[last]! += ns;
      return;
    }
    const index = this.index;
    const mask = index.length - 1;
    let slot = hashOf(key) & mask;
    for (; ; slot = (slot + 1) & mask) {
      const entry = index[slot]! - 1;
      if (entry < 0) break;
      if (this.keys[entry] === key) {
        this.ns[entry]! += ns;
        this.last = entry;
        return;
      }
    }
    if (this.size === this.keys.length) {
      this.keys = grownTo(this.keys, new Int32Array(this.size * 2));
      this.ns = grownTo(this.ns, new Float64Array(this.size * 2));
    }
    const entry = this.size++;
    this.keys[entry] = key;
    this.ns[entry] = ns;
    index[slot] = entry + 1;
    this.last = entry;
    if (this.size * 2 > index.length) this.reindex(index.length * 2);
  }

  private reindex(length: number): void {
    const index = new Int32Array(length);
    const mask = length - 1;
    for (let entry = 0; entry < this.size; entry++) {
      let slot = hashOf(this.keys[entry]!) & mask;
      while (index[slot] !== 0) slot = (slot + 1) & mask;
      index[slot] = entry + 1;
    }
    this.index = index;
  }
}

function grownTo<T extends Int32Array | Float64Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

/** Spreads consecutive keys over the table. */
function hashOf(key: number): number {
  const h = Math.imul(key, 0x9e3779b1);
  return (h ^ (h >>> 16)) >>> 0;
}
