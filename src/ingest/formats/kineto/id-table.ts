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
