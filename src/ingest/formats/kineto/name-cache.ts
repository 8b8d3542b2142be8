/**
 * Interns event names by their raw bytes: a fingerprint of sampled bytes picks candidates, a byte
 * compare confirms (native for long names), and each distinct name is decoded to a string once.
 * Kernel names are often kilobytes long and repeat thousands of times; decoding and hashing each
 * one would dominate.
 * The fingerprint skips bytes, so names built to differ only there share it: a bucket that grows
 * past a few entries gets an index on the complete bytes, and the lookup stays O(name length).
 */

export interface NameEntry<T> {
  readonly name: string;
  readonly bytes: Buffer;
  value: T;
  /**
   * The name's reference in the trace record, -(recordId + 1) (LaunchSites.nameRef), once the
   * importer recorded an event of it itself; -1 before.
   */
  recordId: number;
}

const SAMPLES = 12;
/** Names up to this length are compared in JS: below it the native compare costs more than it saves. */
const SHORT_NAME = 48;

function sameBytes(known: Buffer, buf: Buffer, start: number, length: number): boolean {
  if (known.length !== length) return false;
  if (length > SHORT_NAME) return known.compare(buf, start, start + length) === 0;
  for (let k = 0; k < length; k++) if (known[k] !== buf[start + k]) return false;
  return true;
}
/** Entries a bucket holds before it is indexed by the complete name (real traces: one or two). */
const BUCKET_SCAN = 8;

interface Bucket<T> {
  entries: Array<NameEntry<T>>;
  /** The complete bytes (as latin1, one char a byte) → entry, once the bucket outgrew a scan. */
  byBytes?: Map<string, NameEntry<T>>;
}

export class NameCache<T> {
  private readonly buckets = new Map<number, Bucket<T>>();
  /** Entries by the id the event tape gave their bytes (tape.ts), once looked up by bytes. */
  private readonly byId: Array<NameEntry<T> | undefined> = [];

  constructor(
    private readonly decode: (bytes: Buffer) => string,
    private readonly create: (name: string) => T,
  ) {}

  get(buf: Buffer, start: number, end: number): NameEntry<T> {
    const length = end - start;
    let hash = length;
    if (length > 0) {
      const step = length > SAMPLES ? Math.floor(length / SAMPLES) : 1;
      for (let k = start; k < end; k += step) hash = (Math.imul(hash, 31) + buf[k]!) | 0;
      hash = (Math.imul(hash, 31) + buf[end - 1]!) | 0;
    }
    let bucket = this.buckets.get(hash);
    let key: string | undefined;
    if (bucket?.byBytes) {
      key = buf.toString('latin1', start, end);
      const found = bucket.byBytes.get(key);
      if (found) return found;
    } else if (bucket) {
      for (const entry of bucket.entries) {
        if (sameBytes(entry.bytes, buf, start, length)) return entry;
      }
    } else {
      this.buckets.set(hash, (bucket = { entries: [] }));
    }
    const bytes = Buffer.from(buf.subarray(start, end));
    const name = this.decode(bytes);
    const entry: NameEntry<T> = { name, bytes, value: this.create(name), recordId: -1 };
    bucket.entries.push(entry);
    if (bucket.byBytes) bucket.byBytes.set(key!, entry);
    else if (bucket.entries.length > BUCKET_SCAN) bucket.byBytes = new Map(bucket.entries.map((known) => [known.bytes.toString('latin1'), known]));
    return entry;
  }

  /**
   * The entry of a name the event tape numbered: `id` stands for the bytes [start, end), the same
   * id for the same bytes (-1: not numbered, looked up by its bytes).
   */
  getById(id: number, buf: Buffer, start: number, end: number): NameEntry<T> {
    // One call to get() for both misses, so that the first name without an id does not undo the
    // caller's optimized code.
    let entry = id >= 0 && id < this.byId.length ? this.byId[id] : undefined;
    if (entry === undefined) {
      entry = this.get(buf, start, end);
      if (id >= 0) this.remember(id, entry);
    }
    return entry;
  }

  /**
   * Ids are the tape's, shared by every kind of name, so a cache's first id may be far from 0: the
   * table is filled up to it, as an array with a gap that wide would turn into a hash table.
   */
  private remember(id: number, entry: NameEntry<T>): void {
    const byId = this.byId;
    if (id >= byId.length) {
      const size = Math.max(id + 1, byId.length * 2);
      for (let k = byId.length; k < size; k++) byId.push(undefined);
    }
    byId[id] = entry;
  }

  /** The name of a tape id this cache was asked for (getById). */
  nameById(id: number): string {
    const entry = this.byId[id];
    if (entry === undefined) throw new Error(`name cache: no name for tape id ${id}`);
    return entry.name;
  }

  *entries(): IterableIterator<NameEntry<T>> {
    for (const bucket of this.buckets.values()) yield* bucket.entries;
  }
}
