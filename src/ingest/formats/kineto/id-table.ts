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

/**
 * Numbers given to pairs of small non-negative integers (an op chain's parent and its op's name; a
 * chain and a token count), 0, 1, 2, … in first-seen order: an open-addressing table of typed
 * arrays, so that the lookup made per op read allocates nothing.
 */
export class PairIds {
  /** Ids given so far. */
  size = 0;
  /** Per slot: the pair and its id + 1 (0: empty). */
  private firsts = new Int32Array(1024);
  private seconds = new Int32Array(1024);
  private ids = new Int32Array(1024);

  /** The pair's id, given the next one when new. */
  intern(first: number, second: number): number {
    const mask = this.ids.length - 1;
    let slot = pairHash(first, second) & mask;
    for (; ; slot = (slot + 1) & mask) {
      const id = this.ids[slot]! - 1;
      if (id < 0) break;
      if (this.firsts[slot] === first && this.seconds[slot] === second) return id;
    }
    const id = this.size++;
    this.firsts[slot] = first;
    this.seconds[slot] = second;
    this.ids[slot] = id + 1;
    if (this.size * 2 > this.ids.length) this.grow();
    return id;
  }

  private grow(): void {
    const { firsts, seconds, ids } = this;
    const length = ids.length * 2;
    this.firsts = new Int32Array(length);
    this.seconds = new Int32Array(length);
    this.ids = new Int32Array(length);
    const mask = length - 1;
    for (let old = 0; old < ids.length; old++) {
      if (ids[old] === 0) continue;
      let slot = pairHash(firsts[old]!, seconds[old]!) & mask;
      while (this.ids[slot] !== 0) slot = (slot + 1) & mask;
      this.firsts[slot] = firsts[old]!;
      this.seconds[slot] = seconds[old]!;
      this.ids[slot] = ids[old]!;
    }
  }
}

function pairHash(first: number, second: number): number {
  let h = Math.imul(first, 0x9e3779b1) ^ second;
  h = Math.imul(h ^ (h >>> 15), 0x85ebca6b);
  return (h ^ (h >>> 13)) >>> 0;
}
