/**
 * Memory blocks and hash tables shared by the Kineto summing modules (wasm/kineto-ops.ts and
 * wasm/kineto-sums.ts, compiled as one module by wasm/build.mjs).
 */

/*
 * Every block is fresh memory (the stub runtime's heap only grows, and nothing here is freed), so
 * it reads as zeros until written: a table is never filled by hand, as writing zeros would make
 * every page of it resident at once.
 */

/** A growable array's new block: the old one's bytes, then zeros up to `newBytes`. */
export function grown(ptr: usize, bytes: usize, newBytes: usize): usize {
  const fresh = heap.alloc(newBytes);
  if (bytes > 0) memory.copy(fresh, ptr, bytes);
  return fresh;
}

export function zeroed(bytes: usize): usize {
  return heap.alloc(bytes);
}

/** A block of zeros that doubles as it is written further: `at` moves when it grows. */
export class Block {
  at: usize;
  bytes: usize;

  constructor(bytes: usize) {
    this.at = zeroed(bytes);
    this.bytes = bytes;
  }

  /** The block's address once its first `end` bytes exist (the bytes written so far kept). */
  fit(end: usize): usize {
    if (end > this.bytes) {
      let size = this.bytes << 1;
      while (end > size) size <<= 1;
      this.at = grown(this.at, this.bytes, size);
      this.bytes = size;
    }
    return this.at;
  }
}

// @ts-ignore: decorator
@inline export function isInteger(x: f64): bool {
  return isFinite(x) && Math.trunc(x) == x;
}

/**
 * 8-byte keys (a number's bits) to small non-negative values: open addressing of (key, value + 1),
 * 16 bytes a slot, 0 empty; a power of two at least twice the size.
 */
export class Table64 {
  slots: usize = zeroed(64 << 4);
  mask: u32 = 63;
  size: u32 = 0;

  /** The value set for `key`, or -1. */
  get(key: u64): i32 {
    return load<i32>(this.slot(key), 8) - 1;
  }

  set(key: u64, value: i32): void {
    let at = this.slot(key);
    if (load<i32>(at, 8) == 0) {
      if ((this.size + 1) * 2 > this.mask + 1) {
        this.grow();
        at = this.slot(key);
      }
      this.size++;
      store<u64>(at, key);
    }
    store<i32>(at, value + 1, 8);
  }

  private slot(key: u64): usize {
    let slot = <u32>((key * 0x9e3779b97f4a7c15) >> 40) & this.mask;
    let at = this.slots + (<usize>slot << 4);
    while (load<i32>(at, 8) != 0 && load<u64>(at) != key) {
      slot = (slot + 1) & this.mask;
      at = this.slots + (<usize>slot << 4);
    }
    return at;
  }

  private grow(): void {
    const old = this.slots;
    const oldSlots = this.mask + 1;
    this.slots = zeroed(<usize>(oldSlots << 1) << 4);
    this.mask = (oldSlots << 1) - 1;
    for (let k: u32 = 0; k < oldSlots; k++) {
      const from = old + (<usize>k << 4);
      if (load<i32>(from, 8) != 0) memory.copy(this.slot(load<u64>(from)), from, 16);
    }
  }
}

/** Pairs of 32-bit integers numbered 0, 1, 2, … in first-seen order (as launch-sites.ts numbered them). */
export class Pairs {
  private readonly ids: Table64 = new Table64();
  size: i32 = 0;

  intern(first: i32, second: i32): i32 {
    const key = (<u64><u32>first << 32) | <u64><u32>second;
    const known = this.ids.get(key);
    if (known >= 0) return known;
    this.ids.set(key, this.size);
    return this.size++;
  }
}

