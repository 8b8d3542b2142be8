/**
 * Finding the end of a JSON string fast: short strings byte by byte, long ones (kernel names are
 * often 1-4 KB) through Buffer.indexOf, which is native memchr.
 */
const QUOTE = 34;
const BACKSLASH = 92;
/** Bytes scanned in JS before switching to indexOf; below this the call costs more than it saves. */
const SHORT = 24;

/**
 * Index of the closing quote of a string whose characters start at `from`, or -1 when it does not
 * end before `end`. `from` must not be an escaped character (the caller skips a pending escape).
 */
export function stringEnd(buf: Buffer, from: number, end: number): number {
  const stop = from + SHORT < end ? from + SHORT : end;
  let j = from;
  while (j < stop) {
    const c = buf[j]!;
    if (c === QUOTE) return j;
    j += c === BACKSLASH ? 2 : 1;
  }
  if (j >= end) return -1;
  for (;;) {
    j = buf.indexOf(QUOTE, j);
    if (j < 0 || j >= end) return -1;
    // A quote preceded by an odd run of backslashes is escaped.
    let k = j - 1;
    while (k >= from && buf[k] === BACKSLASH) k--;
    if (((j - 1 - k) & 1) === 0) return j;
    j++;
  }
}

/** True when the bytes [from, end) of an unfinished string end in an escape (odd backslash run). */
export function endsInEscape(buf: Buffer, from: number, end: number): boolean {
  let k = end - 1;
  while (k >= from && buf[k] === BACKSLASH) k--;
  return ((end - 1 - k) & 1) === 1;
}

/** The text of a JSON string's raw characters (escapes resolved); undefined when invalid. */
export function decodeJsonString(buf: Buffer, start: number, end: number): string | undefined {
  const raw = buf.toString('utf8', start, end);
  if (!raw.includes('\\')) return raw;
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return undefined;
  }
}
