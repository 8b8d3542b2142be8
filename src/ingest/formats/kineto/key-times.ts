/**
 * Time summed per small non-negative integer key (a launch site, a Python site code), kept on a
 * kernel's running sums and added to once per kernel event: two typed arrays in first-seen order,
 * scanned while short and indexed by an open-addressing table once longer. No object or boxed
 * number per add, as a Map<number, number> of float sums would make.
 */

/** Keys scanned before the table gets an index (a kernel is launched from one or two sites, mostly). */
const SCAN = 8;

export class KeyTimes {
  size = 0;
  /** Keys and their summed ns, in the order keys were first added. */
  keys = new Int32Array(4);
  ns = new Float64Array(4);
  /** Open addressing: entry + 1 per slot, 0 empty; a power of two at least twice `size`. */
  private index: Int32Array | undefined;

  add(key: number, ns: number): void {
    const at = this.find(key);
    if (at >= 0) this.ns[at]! += ns;
    else this.append(key, ns);
  }

  /** Entry of `key`, or -1. */
  private find(key: number): number {
    const index = this.index;
    if (index === undefined) {
      const keys = this.keys;
      for (let k = 0; k < this.size; k++) if (keys[k] === key) return k;
      return -1;
    }
    const mask = index.length - 1;
    for (let slot = hashOf(key) & mask; ; slot = (slot + 1) & mask) {
      const entry = index[slot]! - 1;
      if (entry < 0) return -1;
      if (this.keys[entry] === key) return entry;
    }
  }

  private append(key: number, ns: number): void {
    if (this.size === this.keys.length) {
      const keys = new Int32Array(this.size * 2);
      keys.set(this.keys);
      this.keys = keys;
      const sums = new Float64Array(this.size * 2);
      sums.set(this.ns);
      this.ns = sums;
    }
    const entry = this.size++;
    this.keys[entry] = key;
    this.ns[entry] = ns;
    if (this.index !== undefined && this.size * 2 <= this.index.length) this.place(this.index, entry);
    else if (this.size > SCAN) this.reindex();
  }

  private reindex(): void {
    let length = 32;
    while (length < this.size * 4) length *= 2;
    const index = new Int32Array(length);
    for (let entry = 0; entry < this.size; entry++) this.place(index, entry);
    this.index = index;
  }

  private place(index: Int32Array, entry: number): void {
    const mask = index.length - 1;
    let slot = hashOf(this.keys[entry]!) & mask;
    while (index[slot] !== 0) slot = (slot + 1) & mask;
    index[slot] = entry + 1;
  }
}

/** Spreads consecutive keys over the table. */
function hashOf(key: number): number {
  const h = Math.imul(key, 0x9e3779b1);
  return (h ^ (h >>> 16)) >>> 0;
}
