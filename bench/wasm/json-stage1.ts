/**
 * A JSON structural index, stage 1 only (bench reference, AssemblyScript): what the least a
 * simdjson-style tokenizer does over every byte costs in WebAssembly. For each 64-byte block of the
 * input: bit masks of quotes and backslashes (16 bytes a compare), the escaped bytes (odd runs of
 * backslashes), the bytes inside strings (a prefix XOR of the unescaped quotes, carried between
 * blocks), the structural bytes outside strings ({ } [ ] : ,) and the quotes, then every set bit
 * written out as a byte position into a ring of positions (what stage 2 would walk). No values
 * are read, no events found: it is a lower bound for a tokenizer built this way, not a reader.
 *
 * Memory: positions at POS (RING entries of u32), the chunk at IN (16-byte aligned, padded to 64).
 */
const POS: usize = 65536;
const RING: u32 = 65536;
const IN: usize = 1048576;

let inString: u64 = 0;
let prevEscaped: u64 = 0;
let written: u32 = 0;
let total: f64 = 0;

export function inputAt(): usize {
  return IN;
}
export function positions(): f64 {
  return total + <f64>written;
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
  // { } [ ] : ,  — as simdjson does with two nibble lookups, here with plain compares.
  const m = v128.or(
    v128.or(i8x16.eq(v, i8x16.splat(123)), i8x16.eq(v, i8x16.splat(125))),
    v128.or(v128.or(i8x16.eq(v, i8x16.splat(91)), i8x16.eq(v, i8x16.splat(93))), v128.or(i8x16.eq(v, i8x16.splat(58)), i8x16.eq(v, i8x16.splat(44)))),
  );
  return <u64>i8x16.bitmask(m);
}

/** The bytes escaped by a backslash: the byte after each odd-length run of backslashes. */
// @ts-ignore: decorator
@inline function escapedOf(backslash: u64): u64 {
  const EVEN: u64 = 0x5555555555555555;
  const escape = backslash & ~prevEscaped;
  const followsEscape = (escape << 1) | prevEscaped;
  const oddStarts = escape & ~EVEN & ~followsEscape;
  const sum = oddStarts + escape;
  prevEscaped = sum < escape ? 1 : 0;
  const invert = sum << 1;
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

/** Index the chunk's `length` bytes at IN (padded by the caller to a multiple of 64 with spaces). */
export function index(length: i32): void {
  const quote = i8x16.splat(34);
  const backslash = i8x16.splat(92);
  for (let j = 0; j < length; j += 64) {
    const at = IN + <usize>j;
    const escaped = escapedOf(mask64(at, backslash));
    const quotes = mask64(at, quote) & ~escaped;
    const strings = prefixXor(quotes) ^ inString;
    inString = <u64>(<i64>strings >> 63);
    const structural =
      structural16(v128.load(at)) | (structural16(v128.load(at + 16)) << 16) | (structural16(v128.load(at + 32)) << 32) | (structural16(v128.load(at + 48)) << 48);
    let bits = (structural & ~strings) | quotes;
    while (bits != 0) {
      store<u32>(POS + (<usize>(written & (RING - 1)) << 2), <u32>j + <u32>ctz(bits));
      written++;
      bits &= bits - 1;
    }
    if (written >= 0x40000000) {
      total += <f64>written;
      written = 0;
    }
  }
}
