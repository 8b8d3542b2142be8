/**
 * Streaming splitter for Chrome trace JSON: `{ …, "traceEvents": [ {event}, … ], … }`.
 * Bytes are fed chunk by chunk. This state machine walks the root object and the traceEvents
 * array; each element in them (an event, or another top-level member's value) is scanned by
 * ElementScanner, which skips unwanted events by their bytes and hands wanted ones to the sink.
 * For a sink that takes tape records (ScanSink.taped), runs of plain events are read by the
 * WebAssembly tape instead (tape.ts); the first event it leaves goes to ElementScanner, so what is
 * read, and every error, is the same either way. An event that runs past the chunk is read again
 * whole, in front of the next chunk, by the tape (leftByTape()).
 * Top-level keys may come before or after traceEvents. Truncated or malformed input throws a
 * ScanError with the absolute byte offset.
 * Limits: skipped events are checked only for balanced brackets and closed strings, not full JSON
 * grammar. Input must be UTF-8 (the JSON structural bytes are ASCII).
 */
import { COLON, COMMA, describeByte, ElementScanner, isSpace, LBRACE, LBRACKET, QUOTE, RBRACE, RBRACKET, ScanError, type ScanSink } from './json-element.js';
import { endsInEscape, stringEnd } from './string-end.js';
import { EventTape } from './tape.js';
import { InputError } from '../../../errors.js';
import type { InputFile } from '../../common/input-file.js';

export { ScanError, type ScanSink } from './json-element.js';

// Outer states: between elements of the root object and of the traceEvents array.
const BEFORE_ROOT = 0;
const ROOT_KEY = 1; // after `{` or `,`: a key (or `}` right after `{`)
const ROOT_KEY_STRING = 2; // inside a key string
const ROOT_COLON = 3;
const ROOT_VALUE = 4;
const ROOT_AFTER_VALUE = 5;
const ARRAY_FIRST = 6; // after `[`: an event or `]`
const ARRAY_AFTER = 7; // after an event: `,` or `]`
const ARRAY_NEXT = 8; // after `,`: an event
const AFTER_ROOT = 9;
const IN_ELEMENT = 10;
/** Bytes a read of the file gives at most. */
const READ_SIZE = 1 << 20;
/** Where in the tape's memory a read lands: a multiple of this (leftByTape()). */
const READ_ALIGN = 64;

const EXPECTED_AT_EOF = [
  'a JSON object',
  'a key or `}` in the top-level object',
  'the end of a top-level key',
  '`:` after a top-level key',
  'a value for a top-level key',
  '`,` or `}` after a top-level value',
  'the traceEvents array to continue',
  '`,` or `]` in the traceEvents array',
  'the next element of the traceEvents array',
  '',
  'the rest of the JSON value',
];

export class TraceScanner {
  private state = BEFORE_ROOT;
  /** Absolute offset of the current chunk's first byte. */
  private base = 0;
  private keyPieces: Buffer[] = [];
  private keyStart = 0;
  private keyEscape = false;
  private key = '';
  private rootEmpty = true;
  private readonly element: ElementScanner;
  /** Reads the plain events of a chunk in WebAssembly, for a sink that takes its records. */
  private readonly tape: EventTape | undefined;
  /** Bytes at the start of the tape's input kept from the chunk before, to be read with the next (leftByTape()). */
  private kept = 0;
  /** Set by finish(): the last bytes are read as they are, none kept. */
  private ending = false;
  sawTraceEvents = false;

  /** `everyEvent`: hand every traceEvents element to the sink, whatever its category (ElementScanner). */
  constructor(
    private readonly sink: ScanSink,
    options: { everyEvent?: boolean } = {},
  ) {
    this.element = new ElementScanner(sink, options.everyEvent ?? false);
    this.tape = sink.taped && !options.everyEvent ? new EventTape(sink.tapeOps) : undefined;
  }

  get bytesSeen(): number {
    return this.base;
  }

  /** The scan is over: the tape's memory goes back to its pool (nothing read from it is used after). */
  release(): void {
    this.tape?.release();
  }

  /**
   * Where a reader of the file may put each read's bytes, so that the tape need not copy them
   * (undefined: anywhere): after the bytes kept from the chunk before.
   */
  readBuffer(): (() => Buffer) | undefined {
    const tape = this.tape;
    return tape && (() => tape.reserveAfter(this.kept, READ_SIZE));
  }

  push(chunk: Buffer): void {
    let bytes = chunk;
    const tape = this.tape;
    if (tape !== undefined) {
      const kept = this.kept;
      tape.load(chunk, kept);
      if (kept > 0) {
        // The event that ran past the chunk before (after spaces), from its `{`, then this chunk: read as one.
        this.kept = 0;
        // (The state is ARRAY_NEXT, as leftByTape() left it.)
        bytes = tape.input;
        this.base -= kept;
      }
    }
    this.keyStart = 0;
    this.element.base = this.base;
    this.run(bytes, bytes.length);
    if (this.state === IN_ELEMENT) this.element.chunkEnd(bytes);
    if (this.state === ROOT_KEY_STRING) this.keyPieces.push(Buffer.from(bytes.subarray(this.keyStart)));
    this.base += bytes.length;
  }

  /** Kept apart from push so that the rare chunk-end paths cannot deoptimize the loop. */
  private run(chunk: Buffer, n: number): void {
    const element = this.element;
    let i = 0;
    while (i < n) {
      const state = this.state;
      if (state === IN_ELEMENT) {
        i = element.scan(chunk, i, n);
        if (!element.done) continue;
        if (!element.isEvent) {
          this.state = ROOT_AFTER_VALUE;
          continue;
        }
        // The common way on from an event, `,` and the next event's `{`, taken here; anything else
        // is left to outer() from the state reached.
        this.state = ARRAY_AFTER;
        while (i < n && isSpace(chunk[i]!)) i++;
        if (i < n && chunk[i] === COMMA) {
          this.state = ARRAY_NEXT;
          i++;
          while (i < n && isSpace(chunk[i]!)) i++;
          if (i < n && chunk[i] === LBRACE) i = this.nextEvents(chunk, i);
        }
      } else if (state === ROOT_KEY_STRING) i = this.scanKey(chunk, i, n);
      else {
        const c = chunk[i]!;
        i = isSpace(c) ? i + 1 : this.outer(chunk, i, c);
      }
    }
  }

  /** Call at end of input; throws ScanError when the JSON is incomplete. */
  finish(): void {
    if (this.kept > 0) {
      // The bytes kept for a next chunk that did not come: read as they are (keeping none).
      this.ending = true;
      this.push(Buffer.alloc(0));
    }
    if (this.state === AFTER_ROOT) return;
    if (this.base === 0) throw new ScanError('expected a JSON object, got an empty file', 0);
    throw new ScanError(`expected ${EXPECTED_AT_EOF[this.state]}, got end of file`, this.base);
  }

  private fail(expected: string, chunk: Buffer, i: number): never {
    throw new ScanError(`expected ${expected}, got ${describeByte(chunk[i]!)}`, this.base + i);
  }

  /** One structural byte between elements; returns the next index. */
  private outer(chunk: Buffer, i: number, c: number): number {
    switch (this.state) {
      case BEFORE_ROOT:
        if (c === 0xef && this.base + i === 0 && chunk[i + 1] === 0xbb && chunk[i + 2] === 0xbf) return i + 3;
        if (c !== LBRACE) this.fail('a JSON object (`{`)', chunk, i);
        this.state = ROOT_KEY;
        return i + 1;
      case ROOT_KEY:
        if (c === RBRACE && this.rootEmpty) {
          this.state = AFTER_ROOT;
          return i + 1;
        }
        if (c !== QUOTE) this.fail('a quoted key in the top-level object', chunk, i);
        this.state = ROOT_KEY_STRING;
        this.keyStart = i + 1;
        this.keyPieces = [];
        this.keyEscape = false;
        return i + 1;
      case ROOT_COLON:
        if (c !== COLON) this.fail('`:` after a top-level key', chunk, i);
        this.state = ROOT_VALUE;
        return i + 1;
      case ROOT_VALUE:
        if (this.key !== 'traceEvents') return this.beginElement(false, chunk, i);
        if (c !== LBRACKET) this.fail('traceEvents to be an array (`[`)', chunk, i);
        // JSON.parse would keep the last one and other tools the first: neither is safe to guess.
        if (this.sawTraceEvents) throw new ScanError('expected one "traceEvents" array, got a second one', this.base + i);
        this.sawTraceEvents = true;
        this.state = ARRAY_FIRST;
        return i + 1;
      case ROOT_AFTER_VALUE:
        if (c === COMMA) this.state = ROOT_KEY;
        else if (c === RBRACE) this.state = AFTER_ROOT;
        else this.fail('`,` or `}` after a top-level value', chunk, i);
        this.rootEmpty = false;
        return i + 1;
      case ARRAY_FIRST:
        if (c === LBRACE) return this.nextEvents(chunk, i);
        if (c !== RBRACKET) return this.beginElement(true, chunk, i);
        this.state = ROOT_AFTER_VALUE;
        return i + 1;
      case ARRAY_AFTER:
        if (c === COMMA) this.state = ARRAY_NEXT;
        else if (c === RBRACKET) this.state = ROOT_AFTER_VALUE;
        else this.fail('`,` or `]` between trace events', chunk, i);
        return i + 1;
      case ARRAY_NEXT:
        return c === LBRACE ? this.nextEvents(chunk, i) : this.beginElement(true, chunk, i);
      default:
        return this.fail('nothing after the top-level object', chunk, i);
    }
  }

  /** A top-level key's characters, possibly over several chunks. */
  private scanKey(chunk: Buffer, i: number, n: number): number {
    const from = this.keyEscape ? i + 1 : i;
    const j = stringEnd(chunk, from, n);
    if (j < 0) {
      this.keyEscape = endsInEscape(chunk, from, n);
      return n;
    }
    this.keyEscape = false;
    const last = chunk.subarray(this.keyStart, j);
    const raw = this.keyPieces.length ? Buffer.concat([...this.keyPieces, last]) : last;
    this.keyPieces = [];
    try {
      this.key = JSON.parse(`"${raw.toString('utf8')}"`) as string;
    } catch {
      this.fail('a valid JSON string as key', chunk, j);
    }
    this.state = ROOT_COLON;
    return j + 1;
  }

  /**
   * Events from the `{` at i: as many as the tape reads, then the first one it leaves (one that is
   * not plain, or runs past the chunk) to the element scanner. Returns the next index, in the state
   * reached: after an event, or at the `{` of the one left.
   */
  private nextEvents(chunk: Buffer, i: number): number {
    const tape = this.tape;
    if (tape === undefined) return this.beginElement(true, chunk, i);
    for (;;) {
      const stop = tape.scan(i);
      const count = tape.count;
      // Called when no record was written too: the scan may have summed events the sink must take in.
      this.sink.taped!(tape.records, count, chunk, this.base);
      if (tape.stoppedAfterEvent) {
        this.state = ARRAY_AFTER;
        return stop;
      }
      // A full tape stops at the next event's `{`: read on.
      if (stop !== i && count === tape.capacity) {
        i = stop;
        continue;
      }
      this.state = ARRAY_NEXT;
      return this.leftByTape(chunk, stop);
    }
  }

  /**
   * The event at i that the tape left: one that is not plain, or runs past the chunk. From the
   * chunk's second half on, its bytes are kept in the tape's memory and read again, from its `{`,
   * in front of the next chunk, where the tape reads it whole (the element scanner would read it
   * across the two chunks, in JavaScript); the chunk's reading ends there. Any other goes to the
   * element scanner. A kept run is at most half the chunk it ends (and under 64 spaces), so
   * reading it again costs at most half of each chunk read; in the next chunk it starts in the
   * first half unless that chunk is tiny, and one that is not plain goes to the element scanner there.
   */
  private leftByTape(chunk: Buffer, i: number): number {
    const n = chunk.length;
    if (this.ending || i < n >> 1) return this.beginElement(true, chunk, i);
    // Spaces before the kept bytes, so that the next read lands at a multiple of 64 bytes: on some
    // CPUs (AMD EPYC here) the kernel copies a read 3-4× slower to an address 1 to 31 bytes past a
    // page's start than to one at 0 or 32 on (bench/README.md).
    const pad = -(n - i) & (READ_ALIGN - 1);
    this.tape!.keep(i, n, pad);
    this.kept = pad + n - i;
    return n;
  }

  private beginElement(isEvent: boolean, chunk: Buffer, i: number): number {
    this.element.begin(isEvent, this.key, chunk, i);
    this.state = IN_ELEMENT;
    return i;
  }
}

/**
 * Streams the file through the scanner: its bytes (gunzipped) chunk by chunk, then the end. Errors
 * of reading or inflating the file are told apart from errors of its JSON: only the former are a
 * damaged gzip stream, and anything else is not passed off as one. A ScanError becomes an
 * InputError at its byte.
 */
export async function scanFile(file: InputFile, scanner: TraceScanner): Promise<void> {
  // A reused buffer where the file allows it: the scanner copies what it keeps across chunks.
  const chunks = (file.chunks ? file.chunks(scanner.readBuffer()) : file.stream())[Symbol.asyncIterator]();
  try {
    for (;;) {
      let next: IteratorResult<unknown>;
      try {
        next = await chunks.next();
      } catch (error) {
        if (error instanceof InputError) throw error;
        const reason = (error as Error).message;
        const expected = file.gzip ? `expected a complete gzip stream, got "gunzip: ${reason}"` : `expected a readable file, got "${reason}"`;
        throw new InputError(file.path, `${expected} after ${scanner.bytesSeen} bytes of JSON`, `byte ${scanner.bytesSeen}`);
      }
      if (next.done) break;
      scanner.push(next.value as Buffer);
    }
    scanner.finish();
  } catch (error) {
    await chunks.return?.();
    if (error instanceof ScanError) throw new InputError(file.path, error.expected, `byte ${error.offset}`);
    throw error;
  }
}
