/**
 * Stage 1 of a simdjson-style structural index, one 64-byte block at a time (bench reference,
 * AssemblyScript; imported by json-stage1.ts and json-walk-min.ts): bit masks of quotes and
 * backslashes (16 bytes a compare), the escaped bytes (odd runs of backslashes), the bytes inside
 * strings (a prefix XOR of the unescaped quotes) and the structural bytes outside strings. What is
 * open at a block's end (a string, a run of backslashes) is carried to the next block.
 */
let inString: u64 = 0;
let prevEscaped: u64 = 0;

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

/** The structural bits of the 64-byte block at `at`: quotes, and { } [ ] : , outside strings. */
// @ts-ignore: decorator
@inline export function structuralBits(at: usize): u64 {
  const escaped = escapedOf(mask64(at, i8x16.splat(92)));
  const quotes = mask64(at, i8x16.splat(34)) & ~escaped;
  const strings = prefixXor(quotes) ^ inString;
  inString = <u64>(<i64>strings >> 63);
  const structural =
    structural16(v128.load(at)) | (structural16(v128.load(at + 16)) << 16) | (structural16(v128.load(at + 32)) << 32) | (structural16(v128.load(at + 48)) << 48);
  return (structural & ~strings) | quotes;
}
