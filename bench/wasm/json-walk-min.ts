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
const POS: usize = 65536;
const IN: usize = 8388608;

let inString: u64 = 0;
let prevEscaped: u64 = 0;
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

// @ts-ignore: decorator
@inline function mask64(at: usize, c: v128): u64 {
  const a = <u64>i8x16.bitmask(i8x16.eq(v128.load(at), c));
  const b = <u64>i8x16.bitmask(i8x16.eq(v128.load(at + 16), c));
  const d = <u64>i8x16.bitmask(i8x16.eq(v128.load(at + 32), c));
  const e = <u64>i8x16.bitmask(i8x16.eq(v128.load(at + 48), c));
  return a | (b << 16) | (d << 32) | (e << 48);
}

// @ts-ignore: decorator
@inline function structural16(v: v128): u64 {
  const m = v128.or(
    v128.or(i8x16.eq(v, i8x16.splat(123)), i8x16.eq(v, i8x16.splat(125))),
    v128.or(v128.or(i8x16.eq(v, i8x16.splat(91)), i8x16.eq(v, i8x16.splat(93))), v128.or(i8x16.eq(v, i8x16.splat(58)), i8x16.eq(v, i8x16.splat(44)))),
  );
  return <u64>i8x16.bitmask(m);
}

// @ts-ignore: decorator
@inline function escapedOf(backslash: u64): u64 {
  const EVEN: u64 = 0x5555555555555555;
  const escape = backslash & ~prevEscaped;
  const followsEscape = (escape << 1) | prevEscaped;
  const oddStarts = escape & ~EVEN & ~followsEscape;
  const total = oddStarts + escape;
  prevEscaped = total < escape ? 1 : 0;
  const invert = total << 1;
  return (EVEN ^ invert) & followsEscape;
}

// @ts-ignore: decorator
@inline function prefixXor(x: u64): u64 {
  x ^= x << 1;
  x ^= x << 2;
  x ^= x << 4;
  x ^= x << 8;
  x ^= x << 16;
  x ^= x << 32;
  return x;
}

/** The structural bits of the 64-byte block at j (quotes, and { } [ ] : , outside strings). */
// @ts-ignore: decorator
@inline function block(j: i32): u64 {
  const at = IN + <usize>j;
  const escaped = escapedOf(mask64(at, i8x16.splat(92)));
  const quotes = mask64(at, i8x16.splat(34)) & ~escaped;
  const strings = prefixXor(quotes) ^ inString;
  inString = <u64>(<i64>strings >> 63);
  const structural =
    structural16(v128.load(at)) | (structural16(v128.load(at + 16)) << 16) | (structural16(v128.load(at + 32)) << 32) | (structural16(v128.load(at + 48)) << 48);
  return (structural & ~strings) | quotes;
}

/** Stage 1 over `length` bytes, one word of bits kept per block. */
export function masks(length: i32): void {
  for (let j = 0; j < length; j += 64) {
    const bits = block(j);
    store<u64>(POS + (<usize>(j >> 6) << 3), bits);
    positions += <f64>popcnt(bits);
  }
}

/** Stage 1 over `length` bytes, every position written; their count. */
export function index(length: i32): i32 {
  let w: u32 = 0;
  for (let j = 0; j < length; j += 64) {
    let bits = block(j);
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
