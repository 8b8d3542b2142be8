/**
 * Reads the few fields the importer needs from one trace event's bytes, without JSON.parse:
 * `ph`, `name`, `pid`, `tid`, `ts`, `dur`, and from `args`: `device`, `stream`, `correlation`, `External id`,
 * `bytes`, `grid`, `block`, and the byte range of `Input Dims`. Times are split into whole µs and a ns remainder so that float µs timestamps keep their
 * ns digits exactly (a float64 of epoch µs does not). Other keys are skipped by their bytes.
 * What it read is written as a record of the WebAssembly tape's layout (write()), and the record*
 * functions read such records in place, so that the summary reads one kind of record either way.
 */
import { COLON, COMMA, LBRACE, LBRACKET, QUOTE, RBRACE, RBRACKET } from './json-element.js';
import { decodeJsonString, stringEnd } from './string-end.js';
import * as T from './tape.js';

const MINUS = 45;
const DOT = 46;
const ZERO = 48;
const NINE = 57;
const SPACE = 32;
const BACKSLASH = 92;

/** Thrown when the event runs past the bytes given to read(): it continues in the next chunk. */
export const INCOMPLETE = new Error('incomplete trace event');

/** Thrown for an event that is not valid JSON; `at` is an index into the bytes given to read(). */
export class EventSyntaxError extends Error {
  constructor(
    message: string,
    readonly at: number,
  ) {
    super(message);
  }
}

const key = (text: string): Buffer => Buffer.from(text, 'latin1');
/** The hash members() computes over a key's bytes as it scans them. */
function keyHash(name: Buffer): number {
  let hash = 0;
  for (const c of name) hash = (Math.imul(hash, 31) + c) | 0;
  return hash;
}
/**
 * The hash given to a key with an escape, which is never one of the members read (their raw bytes
 * are compared): 0, the empty key's, which no member read has.
 */
const ESCAPED = 0;
const K_PH = key('ph');
const K_TS = key('ts');
const K_PID = key('pid');
const K_TID = key('tid');
const K_EXTERNAL_ID = key('External id');
const K_INPUT_DIMS = key('Input Dims');
const K_DUR = key('dur');
const K_CAT = key('cat');
const K_NAME = key('name');
const K_ARGS = key('args');
const K_GRID = key('grid');
const K_BYTES = key('bytes');
const K_BLOCK = key('block');
const K_DEVICE = key('device');
const K_STREAM = key('stream');
const K_CORRELATION = key('correlation');
/** A key of up to 4 bytes as one integer, its first byte lowest (as is2/is3/is4 read it). */
function packed(name: Buffer): number {
  let value = 0;
  for (let k = 0; k < name.length; k++) value |= name[k]! << (8 * k);
  return value;
}
const P_PH = packed(K_PH);
const P_TS = packed(K_TS);
const P_DUR = packed(K_DUR);
const P_PID = packed(K_PID);
const P_TID = packed(K_TID);
const P_CAT = packed(K_CAT);
const P_NAME = packed(K_NAME);
const P_ARGS = packed(K_ARGS);
const P_GRID = packed(K_GRID);
const H_PH = keyHash(K_PH);
const H_TS = keyHash(K_TS);
const H_PID = keyHash(K_PID);
const H_TID = keyHash(K_TID);
const H_DUR = keyHash(K_DUR);
const H_CAT = keyHash(K_CAT);
const H_NAME = keyHash(K_NAME);
const H_ARGS = keyHash(K_ARGS);
const H_GRID = keyHash(K_GRID);
const H_BYTES = keyHash(K_BYTES);
const H_BLOCK = keyHash(K_BLOCK);
const H_DEVICE = keyHash(K_DEVICE);
const H_STREAM = keyHash(K_STREAM);
const H_INPUT_DIMS = keyHash(K_INPUT_DIMS);
const H_CORRELATION = keyHash(K_CORRELATION);
const H_EXTERNAL_ID = keyHash(K_EXTERNAL_ID);
{
  const all = [H_PH, H_TS, H_PID, H_TID, H_DUR, H_CAT, H_NAME, H_ARGS, H_GRID, H_BYTES, H_BLOCK, H_DEVICE, H_STREAM, H_INPUT_DIMS, H_CORRELATION, H_EXTERNAL_ID];
  if (new Set(all).size !== all.length || all.includes(ESCAPED)) throw new Error('event-reader: two member keys share a hash');
}

/** Bytes that end a number or literal: `,`, `}`, `]` and whitespace. */
const TOKEN_END = new Uint8Array(256);
for (const c of [COMMA, RBRACE, RBRACKET, 32, 10, 13, 9]) TOKEN_END[c] = 1;
/** Bytes that matter while skipping a nested value: quotes and brackets. */
const NEST_QUOTE = 1;
const NEST_OPEN = 2;
const NESTING = new Uint8Array(256);
NESTING[QUOTE] = NEST_QUOTE;
NESTING[LBRACE] = NESTING[LBRACKET] = NEST_OPEN;
NESTING[RBRACE] = NESTING[RBRACKET] = 3;
/** ns per digit of the first three fraction digits of a µs value. */
const NS_PLACE = [100, 10, 1];

function isNumberStart(c: number | undefined): boolean {
  return c !== undefined && ((c >= ZERO && c <= NINE) || c === MINUS);
}

export class EventFields {
  private b: Buffer = Buffer.alloc(0);
  private end = 0;
  /** First character of the `ph` value ('X' = 88 for complete events), 0 when absent. */
  ph = 0;
  cat: string | undefined;
  nameStart = -1;
  nameEnd = -1;
  /** The name's id on the tape it came from (NameCache.getById); -1 when read here. */
  nameId = -1;
  pid = NaN;
  /** Numeric tid (NaN when absent or a string). */
  tid = NaN;
  hasTs = false;
  tsUs = 0;
  tsFracNs = 0;
  hasDur = false;
  durNs = 0;
  /** durNs as whole µs and a ns remainder, as the tape's records hold it. */
  durUs = 0;
  durFracNs = 0;
  device = NaN;
  /** args.stream of a GPU event (NaN when absent). */
  stream = NaN;
  correlation = NaN;
  externalId = NaN;
  /** Byte range of the `Input Dims` value (record_shapes), -1 when absent. */
  inputDimsStart = -1;
  inputDimsEnd = -1;
  bytes = NaN;
  /** grid x,y,z then block x,y,z; NaN where absent. */
  readonly shape = new Float64Array(6);
  private wantCat = false;
  private wantArgs = true;
  /** Set when the last read filled part of `shape`, so that the next one resets it. */
  private shapeSet = true;
  // Scratch for number parsing.
  private whole = 0;
  private fracNs = 0;
  private num = 0;

  /**
   * Parse the event object starting at bytes[start] and ending before `end`; returns the index
   * after its `}`. Throws INCOMPLETE when it does not end before `end`, EventSyntaxError on bad JSON.
   * Without `wantArgs`, `args` is skipped by its bytes (an event whose top-level fields say all).
   */
  read(bytes: Buffer, start: number, end: number, wantCat: boolean, wantArgs = true): number {
    this.b = bytes;
    this.end = end;
    this.wantCat = wantCat;
    this.wantArgs = wantArgs;
    this.ph = 0;
    this.cat = undefined;
    this.nameStart = -1;
    this.nameEnd = -1;
    this.nameId = -1;
    this.pid = NaN;
    this.tid = NaN;
    this.hasTs = false;
    this.hasDur = false;
    this.device = NaN;
    this.stream = NaN;
    this.correlation = NaN;
    this.externalId = NaN;
    this.inputDimsStart = -1;
    this.inputDimsEnd = -1;
    this.bytes = NaN;
    if (this.shapeSet) {
      this.shape.fill(NaN);
      this.shapeSet = false;
    }
    const p = this.ws(start);
    if (bytes[p] !== LBRACE) this.fail('a trace event object', p);
    return this.members(p, 1);
  }

  /**
   * Write the fields read into record `at` of `records`, in the WebAssembly tape's layout (tape.ts),
   * so that events read here and on the tape are summed by one reader of records (the record* functions).
   */
  write(records: Float64Array, at: number): void {
    records[at + T.S_PH] = this.ph;
    records[at + T.S_NAME_START] = this.nameStart;
    records[at + T.S_NAME_END] = this.nameEnd;
    records[at + T.S_NAME_ID] = this.nameId;
    records[at + T.S_PID] = this.pid;
    records[at + T.S_TID] = this.tid;
    records[at + T.S_HAS_TS] = this.hasTs ? 1 : 0;
    records[at + T.S_TS_US] = this.tsUs;
    records[at + T.S_TS_FRAC] = this.tsFracNs;
    records[at + T.S_HAS_DUR] = this.hasDur ? 1 : 0;
    records[at + T.S_DUR_US] = this.durUs;
    records[at + T.S_DUR_FRAC] = this.durFracNs;
    records[at + T.S_DEVICE] = this.device;
    records[at + T.S_STREAM] = this.stream;
    records[at + T.S_CORRELATION] = this.correlation;
    records[at + T.S_EXTERNAL_ID] = this.externalId;
    records[at + T.S_BYTES] = this.bytes;
    records[at + T.S_DIMS_START] = this.inputDimsStart;
    records[at + T.S_DIMS_END] = this.inputDimsEnd;
    records.set(this.shape, at + T.S_SHAPE);
    records[at + T.S_SHAPE_SET] = 1;
  }

  /** The bytes the last read() parsed; name and other ranges index into it. */
  get buffer(): Buffer {
    return this.b;
  }

  private decode(start: number, end: number): string {
    const text = decodeJsonString(this.b, start, end);
    if (text === undefined) throw new EventSyntaxError('expected a valid JSON string', start);
    return text;
  }

  private fail(expected: string, p: number): never {
    if (p >= this.end) throw INCOMPLETE;
    throw new EventSyntaxError(`expected ${expected}, got \`${String.fromCharCode(this.b[p]!)}\``, p);
  }

  /** Skip whitespace. An event never ends in whitespace, so reaching the end means it continues. */
  private ws(p: number): number {
    const b = this.b;
    const end = this.end;
    while (p < end) {
      const c = b[p]!;
      // Every byte above the space is not whitespace: one compare for the common case.
      if (c > 32 || (c !== 32 && c !== 10 && c !== 13 && c !== 9)) return p;
      p++;
    }
    throw INCOMPLETE;
  }

  /** Index of the closing quote of the string opening at p. */
  private stringEnd(p: number): number {
    const j = stringEnd(this.b, p + 1, this.end);
    if (j < 0) this.fail('a closing quote', this.end);
    return j;
  }

  /** Members of the object opening at p (level 1 = the event, 2 = args). Returns the index after `}`. */
  private members(p: number, level: number): number {
    const b = this.b;
    const end = this.end;
    p = this.ws(p + 1);
    if (b[p] === RBRACE) return p + 1;
    for (;;) {
      if (b[p] !== QUOTE) this.fail('a quoted key', p);
      // The key's bytes are hashed as they are scanned: the members read are told by hash, then
      // confirmed byte by byte, so most keys are never compared. An escape leaves the key unread.
      const ks = p + 1;
      let ke = ks;
      let hash = 0;
      for (;;) {
        if (ke >= end) throw INCOMPLETE;
        const c = b[ke]!;
        if (c === QUOTE) break;
        if (c === BACKSLASH) {
          ke = this.stringEnd(p);
          hash = ESCAPED;
          break;
        }
        hash = (Math.imul(hash, 31) + c) | 0;
        ke++;
      }
      // `"key": value`: the colon and one space are the common case, checked without a call.
      p = ke + 1;
      if (p < end && b[p] === COLON) p++;
      else {
        p = this.ws(p);
        if (b[p] !== COLON) this.fail('`:`', p);
        p++;
      }
      if (p < end && b[p] === SPACE) p++;
      if (!(p < end && b[p]! > SPACE)) p = this.ws(p);
      p = level === 1 ? this.eventMember(hash, ks, ke, p) : this.argsMember(hash, ks, ke, p);
      if (!(p < end && b[p]! > SPACE)) p = this.ws(p);
      const c = b[p];
      if (c === COMMA) {
        p++;
        if (!(p < end && b[p]! > SPACE)) p = this.ws(p);
      } else if (c === RBRACE) return p + 1;
      else this.fail('`,` or `}`', p);
    }
  }

  // Keys of up to 4 bytes compare as one packed integer (little-endian, as packed()).
  private is2(ks: number, ke: number, packed: number): boolean {
    const b = this.b;
    return ke - ks === 2 && (b[ks]! | (b[ks + 1]! << 8)) === packed;
  }

  private is3(ks: number, ke: number, packed: number): boolean {
    const b = this.b;
    return ke - ks === 3 && (b[ks]! | (b[ks + 1]! << 8) | (b[ks + 2]! << 16)) === packed;
  }

  private is4(ks: number, ke: number, packed: number): boolean {
    const b = this.b;
    return ke - ks === 4 && (b[ks]! | (b[ks + 1]! << 8) | (b[ks + 2]! << 16) | (b[ks + 3]! << 24)) === packed;
  }

  private is(ks: number, ke: number, name: Buffer): boolean {
    if (ke - ks !== name.length) return false;
    for (let k = 0; k < name.length; k++) if (this.b[ks + k] !== name[k]) return false;
    return true;
  }

  private eventMember(hash: number, ks: number, ke: number, p: number): number {
    const b = this.b;
    const c = b[p];
    switch (hash) {
      case H_PH:
        if (this.is2(ks, ke, P_PH) && c === QUOTE && p + 1 < this.end) this.ph = b[p + 1]!;
        break;
      case H_TS:
        if (isNumberStart(c) && this.is2(ks, ke, P_TS)) {
          const q = this.micros(p);
          this.hasTs = true;
          this.tsUs = this.whole;
          this.tsFracNs = this.fracNs;
          return q;
        }
        break;
      case H_DUR:
        if (isNumberStart(c) && this.is3(ks, ke, P_DUR)) {
          const q = this.micros(p);
          this.hasDur = true;
          this.durUs = this.whole;
          this.durFracNs = this.fracNs;
          this.durNs = this.whole * 1000 + this.fracNs;
          return q;
        }
        break;
      case H_PID:
        if (isNumberStart(c) && this.is3(ks, ke, P_PID)) {
          const q = this.number(p);
          this.pid = this.num;
          return q;
        }
        break;
      case H_TID:
        if (isNumberStart(c) && this.is3(ks, ke, P_TID)) {
          const q = this.number(p);
          this.tid = this.num;
          return q;
        }
        break;
      case H_CAT:
        if (this.wantCat && c === QUOTE && this.is3(ks, ke, P_CAT)) {
          const e = this.stringEnd(p);
          this.cat = this.decode(p + 1, e);
          return e + 1;
        }
        break;
      case H_NAME:
        if (c === QUOTE && this.is4(ks, ke, P_NAME)) {
          const e = this.stringEnd(p);
          this.nameStart = p + 1;
          this.nameEnd = e;
          return e + 1;
        }
        break;
      case H_ARGS:
        if (this.wantArgs && c === LBRACE && this.is4(ks, ke, P_ARGS)) return this.members(p, 2);
        break;
    }
    return this.skipValue(p);
  }

  private argsMember(hash: number, ks: number, ke: number, p: number): number {
    const b = this.b;
    const c = b[p];
    switch (hash) {
      case H_GRID:
        if (c === LBRACKET && this.is4(ks, ke, P_GRID)) return this.dim3(p, 0);
        break;
      case H_BLOCK:
        if (c === LBRACKET && this.is(ks, ke, K_BLOCK)) return this.dim3(p, 3);
        break;
      case H_BYTES:
        if (isNumberStart(c) && this.is(ks, ke, K_BYTES)) {
          const q = this.number(p);
          this.bytes = this.num;
          return q;
        }
        break;
      case H_DEVICE:
        if (isNumberStart(c) && this.is(ks, ke, K_DEVICE)) {
          const q = this.number(p);
          this.device = this.num;
          return q;
        }
        break;
      case H_STREAM:
        if (isNumberStart(c) && this.is(ks, ke, K_STREAM)) {
          const q = this.number(p);
          this.stream = this.num;
          return q;
        }
        break;
      case H_INPUT_DIMS:
        if (c === LBRACKET && this.is(ks, ke, K_INPUT_DIMS)) {
          const q = this.skipValue(p);
          this.inputDimsStart = p;
          this.inputDimsEnd = q;
          return q;
        }
        break;
      case H_CORRELATION:
        if (isNumberStart(c) && this.is(ks, ke, K_CORRELATION)) {
          const q = this.number(p);
          this.correlation = this.num;
          return q;
        }
        break;
      case H_EXTERNAL_ID:
        if (isNumberStart(c) && this.is(ks, ke, K_EXTERNAL_ID)) {
          const q = this.number(p);
          this.externalId = this.num;
          return q;
        }
        break;
    }
    return this.skipValue(p);
  }

  /** Index after the number token starting at p. */
  private tokenEnd(p: number): number {
    const b = this.b;
    let q = p;
    const end = this.end;
    while (q < end) {
      if (TOKEN_END[b[q]!] !== 0) return q;
      q++;
    }
    throw INCOMPLETE;
  }

  /** Parse the number at p into `num`; returns the index after it. */
  private number(p: number): number {
    const b = this.b;
    let value = 0;
    let q = p;
    while (q < this.end) {
      const c = b[q]!;
      if (c < ZERO || c > NINE) break;
      value = value * 10 + (c - ZERO);
      q++;
    }
    const end = this.tokenEnd(q);
    if (end !== q || q === p) {
      value = Number(b.toString('latin1', p, end));
      if (Number.isNaN(value)) this.fail('a number', p);
    }
    this.num = value;
    return end;
  }

  /** A µs value into `whole` µs and `fracNs` (rounded ns of the fraction). */
  private micros(p: number): number {
    const b = this.b;
    let q = p;
    const negative = b[q] === MINUS;
    if (negative) q++;
    const stop = this.end;
    let whole = 0;
    const digitsStart = q;
    while (q < stop) {
      const digit = b[q]! - ZERO;
      if (digit < 0 || digit > 9) break;
      whole = whole * 10 + digit;
      q++;
    }
    let frac = 0;
    if (q < stop && b[q] === DOT) {
      q++;
      // The first three digits are ns; the fourth rounds; the rest are read past.
      let place = 0;
      while (q < stop) {
        const digit = b[q]! - ZERO;
        if (digit < 0 || digit > 9) break;
        if (place < 3) frac += digit * NS_PLACE[place]!;
        else if (place === 3 && digit >= 5) frac += 1; // round on the first digit past ns
        place++;
        q++;
      }
    }
    const end = this.tokenEnd(q);
    if (end !== q || q === digitsStart) {
      const value = Number(b.toString('latin1', p, end));
      if (!Number.isFinite(value)) this.fail('a number', p);
      whole = Math.trunc(value);
      frac = Math.round((value - whole) * 1000);
    } else if (negative) {
      whole = -whole;
      frac = -frac;
    }
    this.whole = whole;
    this.fracNs = frac;
    return end;
  }

  private dim3(p: number, offset: number): number {
    const b = this.b;
    this.shapeSet = true;
    let q = this.ws(p + 1);
    for (let k = 0; k < 3; k++) {
      if (!isNumberStart(b[q])) return this.skipValue(p);
      q = this.number(q);
      this.shape[offset + k] = this.num;
      q = this.ws(q);
      if (b[q] === COMMA) q = this.ws(q + 1);
    }
    if (b[q] !== RBRACKET) return this.skipValue(p);
    return q + 1;
  }

  /** Skip any JSON value starting at p; returns the index after it. */
  private skipValue(p: number): number {
    const b = this.b;
    const c = b[p];
    if (c === QUOTE) return this.stringEnd(p) + 1;
    if (c !== LBRACE && c !== LBRACKET) {
      const end = this.tokenEnd(p);
      if (end === p) this.fail('a value', p);
      return end;
    }
    let depth = 0;
    const end = this.end;
    for (let q = p; q < end; q++) {
      const kind = NESTING[b[q]!]!;
      if (kind === 0) continue;
      if (kind === NEST_QUOTE) q = this.stringEnd(q);
      else if (kind === NEST_OPEN) depth++;
      else {
        depth--;
        if (depth === 0) return q + 1;
      }
    }
    return this.fail('the end of a nested value', this.end);
  }
}

/*
 * One event as a record in the WebAssembly tape's layout (tape.ts's S_* slots): a record of the
 * tape's own, or one EventFields.write() filled. Numbers are read straight from their slots (nothing
 * is copied per event); these read what takes more than one slot, or the event's bytes, which the
 * record's ranges index into.
 */

/** The event's dur in ns (meaningful when S_HAS_DUR is 1). */
export function recordDurNs(records: Float64Array, at: number): number {
  return records[at + T.S_DUR_US]! * 1000 + records[at + T.S_DUR_FRAC]!;
}

/** The event's ts in ns from `baseUs` µs (meaningful when S_HAS_TS is 1). */
export function recordNsFrom(records: Float64Array, at: number, baseUs: number): number {
  return (records[at + T.S_TS_US]! - baseUs) * 1000 + records[at + T.S_TS_FRAC]!;
}

/** The launch shape into `out` (grid x,y,z then block x,y,z; NaN where absent). */
export function recordShape(records: Float64Array, at: number, out: Float64Array): void {
  if (records[at + T.S_SHAPE_SET] === 1) for (let k = 0; k < 6; k++) out[k] = records[at + T.S_SHAPE + k]!;
  else out.fill(NaN);
}

/** The event's name, decoded (undefined when it has none). */
export function recordName(records: Float64Array, at: number, bytes: Buffer): string | undefined {
  const start = records[at + T.S_NAME_START]!;
  if (start < 0) return undefined;
  const text = decodeJsonString(bytes, start, records[at + T.S_NAME_END]!);
  if (text === undefined) throw new EventSyntaxError('expected a valid JSON string', start);
  return text;
}

/** True when the name starts with the given ASCII text (checked on the bytes). */
export function recordNameStartsWith(records: Float64Array, at: number, bytes: Buffer, prefix: Buffer): boolean {
  const start = records[at + T.S_NAME_START]!;
  if (start < 0 || records[at + T.S_NAME_END]! - start < prefix.length) return false;
  for (let k = 0; k < prefix.length; k++) if (bytes[start + k] !== prefix[k]) return false;
  return true;
}
