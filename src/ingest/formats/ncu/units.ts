/**
 * Nsight Compute prints each value in a unit it picks per row and per version (`us` or `ns`, `Ghz` or
 * `hz`, `Kbyte`, `Gbyte/s`, older `usecond`, `cycle/nsecond`). These are brought to base units:
 * ns, byte, byte/s, hz, %. Other units (cycle, warp, block, register/thread, …) are kept as printed.
 * ncu byte prefixes are decimal (65.54 Kbyte = 65,536 bytes).
 */
import { ownValue } from '../../../model/own-key.js';

const BASE: Record<string, readonly [string, number]> = {};
function add(unit: string, names: string[], scale: number): void {
  for (const name of names) BASE[name] = [unit, scale];
}
add('ns', ['ns', 'nsecond', 'nsec'], 1);
add('ns', ['us', 'usecond', 'usec'], 1e3);
add('ns', ['ms', 'msecond', 'msec'], 1e6);
add('ns', ['s', 'second', 'sec'], 1e9);
const BYTE_PREFIXES: Array<[string, number]> = [
  ['', 1],
  ['k', 1e3],
  ['m', 1e6],
  ['g', 1e9],
  ['t', 1e12],
  ['ki', 1024],
  ['mi', 1024 ** 2],
  ['gi', 1024 ** 3],
  ['ti', 1024 ** 4],
];
for (const [prefix, scale] of BYTE_PREFIXES) {
  add('byte', [`${prefix}byte`], scale);
  add('byte/s', [`${prefix}byte/s`, `${prefix}byte/second`], scale);
}
add('byte/s', ['byte/ns', 'byte/nsecond'], 1e9);
add('byte/s', ['byte/us', 'byte/usecond'], 1e6);
add('hz', ['hz', 'cycle/s', 'cycle/second'], 1);
add('hz', ['khz', 'cycle/ms', 'cycle/msecond'], 1e3);
add('hz', ['mhz', 'cycle/us', 'cycle/usecond'], 1e6);
add('hz', ['ghz', 'cycle/ns', 'cycle/nsecond'], 1e9);
add('%', ['%', 'pct'], 1);

const PLAIN_NUMBER = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;
const THOUSANDS = /^[-+]?\d{1,3}(?:,\d{3})+(?:\.\d+)?$/;

/** A printed ncu value as a number (`"1,215,000,000.00"` → 1215000000), or undefined when it is text. */
export function ncuNumber(text: string): number | undefined {
  const value = text.trim();
  if (PLAIN_NUMBER.test(value)) return Number(value);
  if (THOUSANDS.test(value)) return Number(value.replaceAll(',', ''));
  return undefined;
}

/** The value in its base unit; text values (`n/a`, `PolicySpread`) stay text with the unit as printed. */
export function normalizeNcuValue(unit: string, text: string): { unit: string; value: number | string } {
  const number = ncuNumber(text);
  if (number === undefined) return { unit, value: text.trim() };
  const base = ownValue(BASE, unit.trim().toLowerCase());
  if (!base) return { unit, value: number };
  const [baseUnit, scale] = base;
  // Round away the float noise of the scaling (4.96 us → 4960 ns, not 4959.999…).
  return { unit: baseUnit, value: scale === 1 ? number : Number((number * scale).toPrecision(12)) };
}
