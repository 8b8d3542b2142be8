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
import { structuralBits } from './stage1-blocks';

const POS: usize = 65536;
const RING: u32 = 65536;
const IN: usize = 1048576;

let written: u32 = 0;
let total: f64 = 0;

export function inputAt(): usize {
  return IN;
}
export function positions(): f64 {
  return total + <f64>written;
}

/** Index the chunk's `length` bytes at IN (padded by the caller to a multiple of 64 with spaces). */
export function index(length: i32): void {
  for (let j = 0; j < length; j += 64) {
    let bits = structuralBits(IN + <usize>j);
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
