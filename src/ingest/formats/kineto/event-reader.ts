/**
 * Reads the few fields the importer needs from one trace event's bytes, without JSON.parse:
 * `ph`, `name`, `pid`, `tid`, `ts`, `dur`, and from `args`: `device`, `stream`, `correlation`, `External id`,
 * `bytes`, `grid`, `block`, and the byte range of `Input Dims`. Times are split into whole µs and a ns remainder so that float µs timestamps keep their
 * ns digits exactly (a float64 of epoch µs does not). Other keys are skipped by their bytes.
 */
import { COLON, COMMA, isSpace, LBRACE, LBRACKET, QUOTE, RBRACE, RBRACKET } from './json-element.js';
import { decodeJsonString, stringEnd } from './string-end.js';

const MINUS = 45;
const DOT = 46;
const ZERO = 48;
const NINE = 57;

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

export class EventFields {
  private b: Buffer = Buffer.alloc(0);
  private end = 0;
  /** First character of the `ph` value ('X' = 88 for complete events), 0 when absent. */
  ph = 0;
  cat: string | undefined;
  nameStart = -1;
  nameEnd = -1;
  pid = NaN;
  /** Numeric tid (NaN when absent or a string). */
  tid = NaN;
  hasTs = false;
  tsUs = 0;
  tsFracNs = 0;
  hasDur = false;
  durNs = 0;
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

  /** The bytes the last read() parsed; name and other ranges index into it. */
  get buffer(): Buffer {
    return this.b;
  }

  /** The raw JSON of `Input Dims`, when the event has it. */
  inputDims(): string | undefined {
    return this.inputDimsStart < 0 ? undefined : this.b.toString('utf8', this.inputDimsStart, this.inputDimsEnd);
  }

  /** The event's name, decoded. */
  name(): string | undefined {
    if (this.nameStart < 0) return undefined;
    return this.decode(this.nameStart, this.nameEnd);
  }

  /** True when the name starts with the given ASCII text (checked on the bytes). */
  nameStartsWith(prefix: Buffer): boolean {
    if (this.nameStart < 0 || this.nameEnd - this.nameStart < prefix.length) return false;
    for (let k = 0; k < prefix.length; k++) if (this.b[this.nameStart + k] !== prefix[k]) return false;
    return true;
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
    p = this.ws(p + 1);
    if (b[p] === RBRACE) return p + 1;
    for (;;) {
      if (b[p] !== QUOTE) this.fail('a quoted key', p);
      const ks = p + 1;
      const ke = this.stringEnd(p);
      p = this.ws(ke + 1);
      if (b[p] !== COLON) this.fail('`:`', p);
      p = this.ws(p + 1);
      p = level === 1 ? this.eventMember(ks, ke, p) : this.argsMember(ks, ke, p);
      p = this.ws(p);
      if (b[p] === COMMA) p = this.ws(p + 1);
      else if (b[p] === RBRACE) return p + 1;
      else this.fail('`,` or `}`', p);
    }
  }

  private is(ks: number, ke: number, name: Buffer): boolean {
    if (ke - ks !== name.length) return false;
    for (let k = 0; k < name.length; k++) if (this.b[ks + k] !== name[k]) return false;
    return true;
  }

  private eventMember(ks: number, ke: number, p: number): number {
    const b = this.b;
    switch (ke - ks) {
      case 2:
        if (this.is(ks, ke, K_PH) && b[p] === QUOTE && p + 1 < this.end) {
          this.ph = b[p + 1]!;
        } else if (this.is(ks, ke, K_TS) && this.isNumberStart(b[p])) {
          const q = this.micros(p);
          this.hasTs = true;
          this.tsUs = this.whole;
          this.tsFracNs = this.fracNs;
          return q;
        }
        break;
      case 3:
        if (this.is(ks, ke, K_DUR) && this.isNumberStart(b[p])) {
          const q = this.micros(p);
          this.hasDur = true;
          this.durNs = this.whole * 1000 + this.fracNs;
          return q;
        }
        if (this.is(ks, ke, K_PID) && this.isNumberStart(b[p])) {
          const q = this.number(p);
          this.pid = this.num;
          return q;
        }
        if (this.is(ks, ke, K_TID) && this.isNumberStart(b[p])) {
          const q = this.number(p);
          this.tid = this.num;
          return q;
        }
        if (this.wantCat && this.is(ks, ke, K_CAT) && b[p] === QUOTE) {
          const e = this.stringEnd(p);
          this.cat = this.decode(p + 1, e);
          return e + 1;
        }
        break;
      case 4:
        if (this.is(ks, ke, K_NAME) && b[p] === QUOTE) {
          const e = this.stringEnd(p);
          this.nameStart = p + 1;
          this.nameEnd = e;
          return e + 1;
        }
        if (this.wantArgs && this.is(ks, ke, K_ARGS) && b[p] === LBRACE) return this.members(p, 2);
        break;
    }
    return this.skipValue(p);
  }

  private argsMember(ks: number, ke: number, p: number): number {
    const b = this.b;
    const c = b[p];
    switch (ke - ks) {
      case 4:
        if (c === LBRACKET && this.is(ks, ke, K_GRID)) return this.dim3(p, 0);
        break;
      case 5:
        if (c === LBRACKET && this.is(ks, ke, K_BLOCK)) return this.dim3(p, 3);
        if (this.isNumberStart(c) && this.is(ks, ke, K_BYTES)) {
          const q = this.number(p);
          this.bytes = this.num;
          return q;
        }
        break;
      case 6:
        if (this.isNumberStart(c) && this.is(ks, ke, K_DEVICE)) {
          const q = this.number(p);
          this.device = this.num;
          return q;
        }
        if (this.isNumberStart(c) && this.is(ks, ke, K_STREAM)) {
          const q = this.number(p);
          this.stream = this.num;
          return q;
        }
        break;
      case 10:
        if (c === LBRACKET && this.is(ks, ke, K_INPUT_DIMS)) {
          const q = this.skipValue(p);
          this.inputDimsStart = p;
          this.inputDimsEnd = q;
          return q;
        }
        break;
      case 11:
        if (this.isNumberStart(c) && this.is(ks, ke, K_CORRELATION)) {
          const q = this.number(p);
          this.correlation = this.num;
          return q;
        }
        if (this.isNumberStart(c) && this.is(ks, ke, K_EXTERNAL_ID)) {
          const q = this.number(p);
          this.externalId = this.num;
          return q;
        }
        break;
    }
    return this.skipValue(p);
  }

  private isNumberStart(c: number | undefined): boolean {
    return c !== undefined && ((c >= ZERO && c <= NINE) || c === MINUS);
  }

  /** Index after the number token starting at p. */
  private tokenEnd(p: number): number {
    const b = this.b;
    let q = p;
    while (q < this.end) {
      const c = b[q]!;
      if (c === COMMA || c === RBRACE || c === RBRACKET || isSpace(c)) return q;
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
    let whole = 0;
    const digitsStart = q;
    while (q < this.end && b[q]! >= ZERO && b[q]! <= NINE) whole = whole * 10 + (b[q++]! - ZERO);
    let frac = 0;
    if (b[q] === DOT) {
      q++;
      let scale = 100;
      while (q < this.end && b[q]! >= ZERO && b[q]! <= NINE) {
        const digit = b[q++]! - ZERO;
        if (scale >= 1) frac += digit * scale;
        else if (scale > 0.05 && digit >= 5) frac += 1; // round on the first digit past ns
        scale /= 10;
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
      if (!this.isNumberStart(b[q])) return this.skipValue(p);
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
    for (let q = p; q < this.end; q++) {
      const d = b[q]!;
      if (d === QUOTE) q = this.stringEnd(q);
      else if (d === LBRACE || d === LBRACKET) depth++;
      else if (d === RBRACE || d === RBRACKET) {
        depth--;
        if (depth === 0) return q + 1;
      }
    }
    return this.fail('the end of a nested value', this.end);
  }
}
