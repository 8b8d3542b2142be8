/**
 * Interns event names by their raw bytes: a fingerprint of sampled bytes picks candidates, a
 * native compare confirms, and each distinct name is decoded to a string once. Kernel names are
 * often kilobytes long and repeat thousands of times; decoding and hashing each one would dominate.
 */

export interface NameEntry<T> {
  readonly name: string;
  readonly bytes: Buffer;
  value: T;
}

const SAMPLES = 12;

export class NameCache<T> {
  private readonly buckets = new Map<number, Array<NameEntry<T>>>();

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
    if (bucket) {
      for (const entry of bucket) {
        if (entry.bytes.length === length && entry.bytes.compare(buf, start, end) === 0) return entry;
      }
    } else {
      this.buckets.set(hash, (bucket = []));
    }
    const bytes = Buffer.from(buf.subarray(start, end));
    const name = this.decode(bytes);
    const entry: NameEntry<T> = { name, bytes, value: this.create(name) };
    bucket.push(entry);
    return entry;
  }

  *entries(): IterableIterator<NameEntry<T>> {
    for (const bucket of this.buckets.values()) yield* bucket;
  }
}
