/**
 * A lower bound for a member walk over a JSON structural index (bench reference, AssemblyScript):
 * what reading Kineto events from simdjson-style positions, instead of byte by byte, would cost at
 * the least. Per 1 MiB read: stage 1 as in json-stage1.ts (bit masks of quotes, escapes, strings
 * and the structural bytes outside strings, 64 bytes a block), then either
 *  - masks(): only the masks, one 64-bit word of positions per block kept (no position written);
 *  - index(): every position written out (what a walk reads);
 *  - index() then walk(): the positions walked once, as a reader of members would at the least:
 *    each key's first bytes taken, each `:` followed by digits read as a number of up to 8 digits.
 *    No key is told, no whitespace or token checked, no record, name or category written: a
 *    reader of the tape's records needs all of that on top.
 *
 * Memory: positions (or masks) at POS, the chunk at IN (padded by the caller to 64 bytes).
 */
import { structuralBits } from './stage1-blocks';

const POS: usize = 65536;
const IN: usize = 8388608;

let sum: f64 = 0;
let members: f64 = 0;
let positions: f64 = 0;

export function inputAt(): usize {
  return IN;
}
/** A sum of what walk() read (so that nothing is optimized away), members seen, positions indexed. */
export function result(): f64 {
  return sum;
}
export function memberCount(): f64 {
  return members;
}
export function positionCount(): f64 {
  return positions;
}

/** Stage 1 over `length` bytes, one word of bits kept per block. */
export function masks(length: i32): void {
  for (let j = 0; j < length; j += 64) {
    const bits = structuralBits(IN + <usize>j);
    store<u64>(POS + (<usize>(j >> 6) << 3), bits);
    positions += <f64>popcnt(bits);
  }
}

/** Stage 1 over `length` bytes, every position written; their count. */
export function index(length: i32): i32 {
  let w: u32 = 0;
  for (let j = 0; j < length; j += 64) {
    let bits = structuralBits(IN + <usize>j);
    while (bits != 0) {
      store<u32>(POS + (<usize>w << 2), <u32>j + <u32>ctz(bits));
      w++;
      bits &= bits - 1;
    }
  }
  positions += <f64>w;
  return <i32>w;
}

/** The 1 to 8 digits at p as an integer (as the tape reads them). */
// @ts-ignore: decorator
@inline function eightDigits(p: i32, len: i32): u64 {
  const shift = <u64>((8 - len) << 3);
  let x = (load<u64>(IN + <usize>p) << shift) | (0x3030303030303030 & ((<u64>1 << shift) - 1));
  x -= 0x3030303030303030;
  x = x * 10 + (x >> 8);
  return (((x & 0x000000ff000000ff) * (100 + (<u64>1000000 << 32))) + (((x >> 16) & 0x000000ff000000ff) * (1 + (<u64>10000 << 32)))) >> 32;
}

/** The `count` positions of the last index() walked once (see above). */
export function walk(count: i32): void {
  let s: f64 = 0;
  let m = 0;
  for (let i = 0; i + 1 < count; i++) {
    const p = <i32>load<u32>(POS + (<usize>i << 2));
    const c = load<u8>(IN + <usize>p);
    const next = <i32>load<u32>(POS + (<usize>(i + 1) << 2));
    if (c == 58) {
      // A member's value: digits up to the next position (at most 8 of them), or a string's length.
      m++;
      const q = p + 2;
      const d = load<u8>(IN + <usize>q);
      if (<u32>(d - 48) <= 9) {
        const len = min(next - q, 8);
        if (len > 0) s += <f64>eightDigits(q, len);
      } else if (d == 34) s += <f64>(next - q);
    } else if (c == 34) {
      // A string: its first bytes and its length; its closing quote is the next position.
      s += <f64>(load<u32>(IN + <usize>p + 1) & 0xffffff) + <f64>(next - p);
      i++;
    }
  }
  sum += s;
  members += <f64>m;
}
