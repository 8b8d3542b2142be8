/**
 * One element of a Chrome trace (a traceEvents entry, or a top-level member's value), scanned
 * over as many chunks as it spans: strings, escapes and bracket nesting, plus the event's `"cat"`
 * value read straight from the bytes. Events of an unwanted category are skipped without keeping
 * their bytes; wanted ones go to the sink, decoded in place when they began in the current chunk.
 */
import { categoryOf, CAT_PENDING, CAT_SKIP, CAT_UNKNOWN } from './categories.js';
import { endsInEscape, stringEnd } from './string-end.js';
import type { TapeOps } from './tape.js';

export const QUOTE = 34;
export const COMMA = 44;
export const COLON = 58;
export const LBRACE = 123;
export const RBRACE = 125;
export const LBRACKET = 91;
export const RBRACKET = 93;

/** Past this an event is not kept: no real trace event is anywhere near it. */
const MAX_EVENT_BYTES = 64 * 1024 * 1024;
/** Top-level members above this (other than traceEvents) are skipped; metadata is small. */
const MAX_MEMBER_BYTES = 4 * 1024 * 1024;
/**
 * Deepest bracket nesting inside one element. A trace event nests 3 or 4 levels (args holding lists
 * of shapes); without a bound, a file of `[` alone grows the bracket stack with its whole size.
 */
export const MAX_NESTING = 512;

// Byte classes for the hot loop: one table load instead of six compares for ordinary bytes.
const OTHER = 0;
const IS_QUOTE = 1;
const IS_COMMA = 2;
const IS_OPEN = 3;
const CLASS = new Uint8Array(256);
CLASS[QUOTE] = IS_QUOTE;
CLASS[COMMA] = IS_COMMA;
CLASS[LBRACE] = CLASS[LBRACKET] = IS_OPEN;
CLASS[RBRACE] = CLASS[RBRACKET] = 4;

export interface ScanSink {
  /**
   * Decode one traceEvents element of a wanted category (or CAT_UNKNOWN: the bytes did not tell)
   * that starts at bytes[start]; returns the index just after it, or -1 when it does not end
   * before `limit` (the scanner then collects the rest and calls again with the whole event).
   * The bytes are valid during the call only (the chunk's buffer is reused): keep copies.
   */
  event(bytes: Buffer, start: number, limit: number, category: number, offset: number): number;
  /** One top-level member other than traceEvents: its key and the value's bytes. */
  member(key: string, bytes: Buffer, start: number, end: number, offset: number): void;
  /**
   * Events read by the WebAssembly tape (tape.ts), in the order of the trace: `count` records of
   * `tape.slots` numbers whose byte ranges index into `bytes`, the chunk starting at absolute
   * offset `base`. A sink without this method is given every event through event().
   */
  taped?(records: Float64Array, count: number, bytes: Buffer, base: number): void;
  /**
   * With taped(): the summing the tape hands cpu_ops, kernels and API calls to as it reads them
   * (tape.ts TapeOps); they then reach taped() only where the sink has more to do with them.
   */
  readonly tapeOps?: TapeOps;
}

/** Thrown for bytes that are not the expected JSON; the caller turns it into an InputError. */
export class ScanError extends Error {
  constructor(
    readonly expected: string,
    readonly offset: number,
  ) {
    super(`${expected} at byte ${offset}`);
  }
}

export function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

export function describeByte(c: number): string {
  return c >= 32 && c < 127 ? `\`${String.fromCharCode(c)}\`` : `byte 0x${c.toString(16).padStart(2, '0')}`;
}

export class ElementScanner {
  /** Absolute offset of the current chunk's first byte. */
  base = 0;
  /** Set once the element has ended. */
  done = false;
  isEvent = false;
  /** The top-level key whose value this is (members only). */
  key = '';
  private elementStart = 0; // in the current chunk (0 when it began in an earlier one)
  private elementOffset = 0; // absolute
  private depth = 0;
  private readonly stack: Uint8Array = new Uint8Array(MAX_NESTING);
  private inString = false;
  private escape = false;
  private scalar = false;
  private expectKey = false;
  private catNext = false;
  private category = CAT_PENDING;
  private uncertain = false;
  private keep = true;
  private pieces: Buffer[] = [];
  private keptBytes = 0;
  private decodeNow = false;

  /**
   * `everyEvent`: every traceEvents element goes to the sink whole (category CAT_UNKNOWN), none is
   * skipped by its `"cat"`: for Chrome traces whose events carry no category (jax.profiler's).
   */
  constructor(
    private readonly sink: ScanSink,
    private readonly everyEvent = false,
  ) {}

  begin(isEvent: boolean, key: string, chunk: Buffer, i: number): void {
    const c = chunk[i]!;
    if (c === RBRACKET || c === RBRACE || c === COMMA || c === COLON) this.fail(isEvent ? 'a trace event' : 'a value', chunk, i);
    this.done = false;
    this.isEvent = isEvent;
    this.key = key;
    this.elementStart = i;
    this.elementOffset = this.base + i;
    this.depth = 0;
    this.inString = false;
    this.escape = false;
    this.scalar = c !== LBRACE && c !== LBRACKET && c !== QUOTE;
    this.expectKey = false;
    this.catNext = false;
    this.category = CAT_PENDING;
    this.uncertain = false;
    this.keep = true;
    this.dropPieces();
  }

  /** Scan from i; returns the index after the element (and sets `done`), or n. */
  scan(chunk: Buffer, i: number, n: number): number {
    i = this.scanElement(chunk, i, n);
    if (this.decodeNow) i = this.decodeInPlace(chunk, i, n);
    return i;
  }

  /** The chunk ends inside the element: keep a copy of its bytes (the chunk's buffer is reused) if they may be needed. */
  chunkEnd(chunk: Buffer): void {
    if (this.keep) this.retain(Buffer.from(chunk.subarray(this.elementStart, chunk.length)));
    this.elementStart = 0;
  }

  private fail(expected: string, chunk: Buffer, i: number): never {
    throw new ScanError(`expected ${expected}, got ${describeByte(chunk[i]!)}`, this.base + i);
  }

  /** Hand the event to the sink from its start; when it runs past the chunk, keep scanning from i. */
  private decodeInPlace(chunk: Buffer, i: number, n: number): number {
    this.decodeNow = false;
    const end = this.sink.event(chunk, this.elementStart, n, this.category, this.elementOffset);
    if (end < 0) return i;
    this.depth = 0;
    this.done = true;
    return end;
  }

  private retain(piece: Buffer): void {
    this.pieces.push(piece);
    this.keptBytes += piece.length;
    const limit = this.isEvent ? MAX_EVENT_BYTES : MAX_MEMBER_BYTES;
    if (this.keptBytes <= limit) return;
    if (this.isEvent) throw new ScanError(`expected trace events under ${limit} bytes, got a larger one`, this.elementOffset);
    this.keep = false;
    this.dropPieces();
  }

  /** Forget the kept bytes of the element (allocating only when some were kept). */
  private dropPieces(): void {
    if (this.keptBytes === 0) return;
    this.pieces = [];
    this.keptBytes = 0;
  }

  /** Unquoted scalars (numbers, true/false/null) end at the next delimiter, which stays unread. */
  private scanScalar(chunk: Buffer, i: number, n: number): number {
    let j = i;
    while (j < n) {
      const c = chunk[j]!;
      if (c === COMMA || c === RBRACE || c === RBRACKET || isSpace(c)) break;
      j++;
    }
    if (j < n) this.endElement(chunk, j);
    return j;
  }

  /** Finish a string that began in an earlier chunk. Returns the index after it, or n. */
  private resumeString(chunk: Buffer, i: number, n: number): number {
    const from = this.escape ? i + 1 : i;
    const j = stringEnd(chunk, from, n);
    if (j < 0) {
      this.escape = endsInEscape(chunk, from, n);
      return n;
    }
    this.escape = false;
    this.inString = false;
    if (this.depth === 0) {
      this.endElement(chunk, j + 1);
    } else if (this.isEvent && this.depth === 1 && (this.expectKey || this.catNext)) {
      // A key or a category split across chunks is not read from the bytes; the event is decoded.
      if (this.catNext) this.setCategory(CAT_UNKNOWN);
      else this.uncertain = true;
      this.expectKey = false;
      this.catNext = false;
    }
    return j + 1;
  }

  /** The hot loop: strings, nesting, and the event's `"cat"` value. Returns the next index. */
  private scanElement(chunk: Buffer, i: number, n: number): number {
    if (this.scalar) return this.scanScalar(chunk, i, n);
    if (this.inString) {
      i = this.resumeString(chunk, i, n);
      if (this.inString || this.done) return i;
    }
    let depth = this.depth;
    let expectKey = this.expectKey;
    let catNext = this.catNext;
    const stack = this.stack;
    const watchKeys = this.isEvent && !this.everyEvent;
    for (; i < n; i++) {
      const c = chunk[i]!;
      const kind = CLASS[c]!;
      if (kind === OTHER) continue;
      if (kind === IS_QUOTE) {
        const s = i + 1;
        const j = stringEnd(chunk, s, n);
        if (j < 0) {
          this.inString = true;
          this.escape = endsInEscape(chunk, s, n);
          break;
        }
        i = j;
        if (depth === 0) {
          this.endElement(chunk, j + 1);
          return j + 1;
        }
        if (watchKeys && depth === 1) {
          if (expectKey) {
            expectKey = false;
            catNext = j - s === 3 && chunk[s] === 99 && chunk[s + 1] === 97 && chunk[s + 2] === 116;
          } else if (catNext) {
            catNext = false;
            const category = categoryOf(chunk, s, j);
            this.setCategory(category);
            // A wanted event that began in this chunk is decoded in place by scan(), in one pass.
            if (category !== CAT_SKIP && this.keptBytes === 0) {
              this.depth = depth;
              this.expectKey = expectKey;
              this.catNext = catNext;
              this.decodeNow = true;
              return j + 1;
            }
          }
        }
      } else if (kind === IS_COMMA) {
        if (depth === 1) {
          expectKey = true;
          catNext = false;
        }
      } else if (kind === IS_OPEN) {
        if (depth === MAX_NESTING) throw new ScanError(`expected JSON nested at most ${MAX_NESTING} deep, got nesting deeper than ${MAX_NESTING}`, this.base + i);
        stack[depth] = c;
        depth++;
        if (depth === 1) expectKey = c === LBRACE;
      } else {
        if (depth === 0 || stack[depth - 1] !== c - 2) this.fail(stack[depth - 1] === LBRACE ? '`}`' : '`]`', chunk, i);
        depth--;
        if (depth === 0) {
          this.depth = 0;
          this.endElement(chunk, i + 1);
          return i + 1;
        }
      }
    }
    this.depth = depth;
    this.expectKey = expectKey;
    this.catNext = catNext;
    return n;
  }

  private setCategory(category: number): void {
    this.category = category;
    if (category === CAT_SKIP) {
      this.keep = false;
      this.dropPieces();
    }
  }

  private endElement(chunk: Buffer, end: number): void {
    this.done = true;
    if (!this.keep) return;
    let category = this.category;
    if (this.isEvent && category === CAT_PENDING) {
      if (!this.uncertain && !this.everyEvent) return; // no "cat": metadata and instant events
      category = CAT_UNKNOWN;
    }
    let bytes = chunk;
    let start = this.elementStart;
    if (this.keptBytes !== 0) {
      bytes = Buffer.concat([...this.pieces, chunk.subarray(0, end)]);
      start = 0;
      end = bytes.length;
      this.dropPieces();
    }
    if (this.isEvent) {
      if (this.sink.event(bytes, start, end, category, this.elementOffset) < 0) {
        throw new ScanError('expected a complete trace event', this.elementOffset);
      }
    } else this.sink.member(this.key, bytes, start, end, this.elementOffset);
  }
}
