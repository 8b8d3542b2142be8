/**
 * Small non-negative numbers kept per trace id (External id, correlation id). Kineto numbers both
 * densely from 0 or 1 per profiling session, so typed arrays indexed by id cost 2 bytes an id (4
 * once a value passes 65,534), in pages made as ids reach them: a table that grows is never copied,
 * and only the memory its ids use is written (each new page of memory costs the process a fault);
 * an id past DENSE_ID_LIMIT (corrupt or foreign) goes to a map.
 */

const DENSE_ID_LIMIT = 1 << 26;
const PAGE_BITS = 14;
const PAGE_MASK = (1 << PAGE_BITS) - 1;

export class IdTable {
  /** value + 1 per id, by page (id >>> PAGE_BITS); 0: none. Int32Array pages once a value is wide. */
  private pages: Array<Uint16Array | Int32Array | undefined> = [];
  private wide = false;
  private readonly sparse = new Map<number, number>();

  set(id: number, value: number): void {
    if (id >= DENSE_ID_LIMIT) {
      this.sparse.set(id, value);
      return;
    }
    if (value + 1 > 0xffff && !this.wide) this.widen();
    const at = id >>> PAGE_BITS;
    const page = at < this.pages.length ? this.pages[at] : undefined;
    (page ?? this.newPage(at))[id & PAGE_MASK] = value + 1;
  }

  /** The value set for `id`, or -1. */
  get(id: number): number {
    if (!(id >= 0)) return -1;
    if (id >= DENSE_ID_LIMIT) return this.sparse.get(id) ?? -1;
    const at = id >>> PAGE_BITS;
    const page = at < this.pages.length ? this.pages[at] : undefined;
    return page === undefined ? -1 : page[id & PAGE_MASK]! - 1;
  }

  private newPage(at: number): Uint16Array | Int32Array {
    // Filled with undefined up to the page, not left with holes: the array stays a plain list.
    while (this.pages.length <= at) this.pages.push(undefined);
    const page = this.wide ? new Int32Array(PAGE_MASK + 1) : new Uint16Array(PAGE_MASK + 1);
    this.pages[at] = page;
    return page;
  }

  private widen(): void {
    this.wide = true;
    this.pages = this.pages.map((page) => (page === undefined ? undefined : Int32Array.from(page)));
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
