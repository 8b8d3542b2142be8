/**
 * Kineto trace events to a tape, in WebAssembly (AssemblyScript source; `node wasm/build.mjs`
 * compiles it into src/ingest/formats/kineto/tape-wasm.ts).
 *
 * scan() reads the traceEvents elements of one chunk, from an event's `{`, as long as each is plain:
 * an object of unescaped keys, whole in the chunk, whose fields read as the JavaScript event reader
 * (event-reader.ts) reads them along its simple paths. For each event of a wanted category it writes
 * one record of numbers and byte ranges; events of other categories, or without one, leave nothing.
 * It stops before the first event that is not plain (any doubt: an escape in a key, a number that
 * is not plain digits, mismatched brackets, an event that runs past the chunk, bad JSON) and leaves
 * that event to the JavaScript scanner, which reads it, or reports its error, as it always has.
 * So the fast path never decides anything the JavaScript path would decide differently: it only
 * takes the events where both read the same.
 *
 * Memory: the tape at TAPE, the interned names' table and bytes, then the chunk's bytes at IN (the
 * caller grows memory to fit the chunk and 16 bytes of slack that vector loads may read past its end).
 */

const TAPE: usize = 65536;
/** f64 slots per record (see the S_* offsets; tape.ts reads them). */
const REC: i32 = 29;
const MAX_RECS: i32 = 4096;
/** Interned names: a hash table of NAME_SLOTS entries (hash, offset, length, id + 1), their bytes in ARENA. */
const NAME_TABLE: usize = 1048576;
const NAME_SLOTS: u32 = 16384;
const ARENA: usize = 2097152;
const ARENA_SIZE: u32 = 4194304;
/** The chunk, last: memory grows past it for a larger chunk. */
const IN: usize = 6291456;

// Key and category names of up to 8 bytes are compared as one integer (see word()), longer ones
// as several: the integers are their bytes, the first lowest.

// Record slots.
const S_CATEGORY = 0;
const S_START = 1;
const S_END = 2;
const S_PH = 3;
const S_NAME_START = 4;
const S_NAME_END = 5;
const S_PID = 6;
const S_TID = 7;
const S_HAS_TS = 8;
const S_TS_US = 9;
const S_TS_FRAC = 10;
const S_HAS_DUR = 11;
const S_DUR_US = 12;
const S_DUR_FRAC = 13;
const S_DEVICE = 14;
const S_STREAM = 15;
const S_CORRELATION = 16;
const S_EXTERNAL_ID = 17;
const S_BYTES = 18;
const S_DIMS_START = 19;
const S_DIMS_END = 20;
const S_SHAPE = 21; // 6 slots: grid x,y,z, block x,y,z
const S_SHAPE_SET = 27;
/** The name's id: equal ids, equal bytes (-1: no name, or too many names to intern). */
const S_NAME_ID = 28;

// Categories, as categories.ts numbers them.
const CAT_PENDING = -1;
const CAT_SKIP = 0;
const CAT_KERNEL = 2;
const CAT_MEMCPY = 3;
const CAT_MEMSET = 4;
const CAT_RUNTIME = 5;
const CAT_DRIVER = 6;
const CAT_CPU_ANNOTATION = 7;
const CAT_GPU_ANNOTATION = 8;
const CAT_CPU_OP = 9;
const CAT_PYTHON = 10;

/** How scan() stopped: at an event's `{` (left to the caller), or just after an event's `}`. */
const AT_EVENT = 0;
const AFTER_EVENT = 1;

const FAIL = -1;

let n: i32 = 0;
let rec: usize = 0;
let category: i32 = CAT_PENDING;
let records: i32 = 0;
let stopKind: i32 = AT_EVENT;
let num: f64 = 0;
let whole: f64 = 0;
let frac: i32 = 0;
let names: u32 = 0;
let arenaUsed: u32 = 0;
/** Nesting of skipped values read here; deeper ones are left to JavaScript. */
const MAX_DEPTH = 64;
/** Bracket stack of skipped nested values: MAX_DEPTH bytes after the tape's last record. */
const STACK: usize = 1015808;

export function tapeAt(): usize {
  return TAPE;
}
export function inputAt(): usize {
  return IN;
}
export function recordSlots(): i32 {
  return REC;
}
export function recordCapacity(): i32 {
  return MAX_RECS;
}
export function recordCount(): i32 {
  return records;
}
export function stoppedAfterEvent(): i32 {
  return stopKind;
}

// @ts-ignore: decorator
@inline function at(i: i32): i32 {
  return <i32>load<u8>(IN + <usize>i);
}
// @ts-ignore: decorator
@inline function put(slot: i32, value: f64): void {
  store<f64>(rec + (<usize>slot << 3), value);
}
// @ts-ignore: decorator
@inline function isSpace(c: i32): bool {
  return c == 32 || c == 10 || c == 13 || c == 9;
}
/** Bytes that end a number or literal: `,`, `}`, `]` and whitespace (event-reader's TOKEN_END). */
// @ts-ignore: decorator
@inline function isTokenEnd(c: i32): bool {
  return c == 44 || c == 125 || c == 93 || isSpace(c);
}
/** Bytes of numbers and literals: digits, letters, sign, point. */
// @ts-ignore: decorator
@inline function isTokenByte(c: i32): bool {
  return <u32>(c - 48) <= 9 || <u32>((c | 32) - 97) <= 25 || c == 45 || c == 43 || c == 46;
}
// @ts-ignore: decorator
@inline function isNumberStart(c: i32): bool {
  return <u32>(c - 48) <= 9 || c == 45;
}

/** First non-whitespace index from p, or FAIL at the chunk's end (the event continues). */
function ws(p: i32): i32 {
  while (p < n) {
    const c = at(p);
    if (c > 32 || !isSpace(c)) return p;
    p++;
  }
  return FAIL;
}

/** Index of the next quote or backslash at or after j (16 bytes a step), or FAIL past the chunk's end. */
// @ts-ignore: decorator
@inline function quoteOrEscape(j: i32): i32 {
  const quote = i8x16.splat(34);
  const backslash = i8x16.splat(92);
  while (j < n) {
    const v = v128.load(IN + <usize>j);
    const mask = i8x16.bitmask(v128.or(i8x16.eq(v, quote), i8x16.eq(v, backslash)));
    if (mask != 0) {
      const k = j + ctz(mask);
      return k < n ? k : FAIL;
    }
    j += 16;
  }
  return FAIL;
}

/** Index of the closing quote of a string whose characters start at j. */
function stringEnd(j: i32): i32 {
  while (true) {
    const k = quoteOrEscape(j);
    if (k == FAIL || at(k) == 34) return k;
    j = k + 2;
  }
}

/** The end quote of a key starting at j; FAIL for a key with an escape (never one of those read). */
function keyEnd(j: i32): i32 {
  const k = quoteOrEscape(j);
  return k != FAIL && at(k) == 34 ? k : FAIL;
}

/** The bytes at p, length len <= 8, as one integer, the first byte lowest (a little-endian load). */
// @ts-ignore: decorator
@inline function word(p: i32, len: i32): u64 {
  const all = load<u64>(IN + <usize>p);
  return len == 8 ? all : all & ((<u64>1 << (<u64>(len * 8))) - 1);
}

/** The 9 to 16 bytes at p equal the two words a, b (as word() reads them). */
// @ts-ignore: decorator
@inline function equals2(p: i32, len: i32, a: u64, b: u64): bool {
  return load<u64>(IN + <usize>p) == a && word(p + 8, len - 8) == b;
}

const W_PH: u64 = 0x6870; // 'ph'
const W_TS: u64 = 0x7374; // 'ts'
const W_PID: u64 = 0x646970; // 'pid'
const W_TID: u64 = 0x646974; // 'tid'
const W_DUR: u64 = 0x727564; // 'dur'
const W_CAT: u64 = 0x746163; // 'cat'
const W_NAME: u64 = 0x656d616e; // 'name'
const W_ARGS: u64 = 0x73677261; // 'args'
const W_GRID: u64 = 0x64697267; // 'grid'
const W_BYTES: u64 = 0x7365747962; // 'bytes'
const W_BLOCK: u64 = 0x6b636f6c62; // 'block'
const W_DEVICE: u64 = 0x656369766564; // 'device'
const W_STREAM: u64 = 0x6d6165727473; // 'stream'
const W_KERNEL: u64 = 0x6c656e72656b; // 'kernel'
const W_KERNEL_OLD: u64 = 0x6c656e72654b; // 'Kernel'
const W_MEMCPY: u64 = 0x7970636d654d; // 'Memcpy'
const W_MEMSET: u64 = 0x7465736d654d; // 'Memset'
const W_CPU_OP: u64 = 0x706f5f757063; // 'cpu_op'
const W_RUNTIME: u64 = 0x656d69746e7552; // 'Runtime'
const W_OPERATOR: u64 = 0x726f74617265704f; // 'Operator'

/** Category of the string [s, e) (categories.ts's categoryOf). */
function categoryOf(s: i32, e: i32): i32 {
  const len = e - s;
  switch (len) {
    case 6: {
      const w = word(s, 6);
      if (w == W_KERNEL || w == W_KERNEL_OLD) return CAT_KERNEL;
      if (w == W_CPU_OP) return CAT_CPU_OP;
      if (w == W_MEMCPY) return CAT_MEMCPY;
      if (w == W_MEMSET) return CAT_MEMSET;
      return CAT_SKIP;
    }
    case 7:
      return word(s, 7) == W_RUNTIME ? CAT_RUNTIME : CAT_SKIP;
    case 8:
      return word(s, 8) == W_OPERATOR ? CAT_CPU_OP : CAT_SKIP;
    case 10:
      if (equals2(s, 10, 0x636d656d5f757067, 0x7970)) return CAT_MEMCPY; // 'gpu_memcpy'
      if (equals2(s, 10, 0x736d656d5f757067, 0x7465)) return CAT_MEMSET; // 'gpu_memset'
      return CAT_SKIP;
    case 11:
      return equals2(s, 11, 0x6972645f61647563, 0x726576) ? CAT_DRIVER : CAT_SKIP; // 'cuda_driver'
    case 12:
      return equals2(s, 12, 0x6e75725f61647563, 0x656d6974) ? CAT_RUNTIME : CAT_SKIP; // 'cuda_runtime'
    case 15:
      if (equals2(s, 15, 0x665f6e6f68747970, 0x6e6f6974636e75)) return CAT_PYTHON; // 'python_function'
      if (equals2(s, 15, 0x6e6e615f72657375, 0x6e6f697461746f)) return CAT_CPU_ANNOTATION; // 'user_annotation'
      return CAT_SKIP;
    case 19:
      return (equals2(s, 16, 0x726573755f757067, 0x7461746f6e6e615f) && word(s + 16, 3) == 0x6e6f69) ? CAT_GPU_ANNOTATION : CAT_SKIP; // 'gpu_user_annotation'
  }
  return CAT_SKIP;
}

/** Digits only into `num` (as event-reader's number() on its simple path); FAIL for anything else. */
function number(p: i32): i32 {
  let value: f64 = 0;
  let q = p;
  while (q < n) {
    const d = at(q) - 48;
    if (<u32>d > 9) break;
    value = value * 10 + <f64>d;
    q++;
  }
  if (q == p || q >= n || !isTokenEnd(at(q))) return FAIL;
  num = value;
  return q;
}

/** A non-negative µs value into `whole` and `frac` (ns, the fourth fraction digit rounding). */
function micros(p: i32): i32 {
  let q = p;
  let w: f64 = 0;
  while (q < n) {
    const d = at(q) - 48;
    if (<u32>d > 9) break;
    w = w * 10 + <f64>d;
    q++;
  }
  if (q == p) return FAIL; // a sign, or no digits: left to JavaScript
  let f: i32 = 0;
  if (q < n && at(q) == 46) {
    q++;
    let place = 0;
    while (q < n) {
      const d = at(q) - 48;
      if (<u32>d > 9) break;
      if (place == 0) f += d * 100;
      else if (place == 1) f += d * 10;
      else if (place == 2) f += d;
      else if (place == 3 && d >= 5) f += 1;
      place++;
      q++;
    }
  }
  if (q >= n || !isTokenEnd(at(q))) return FAIL;
  whole = w;
  frac = f;
  return q;
}

/** Skip a value, checking bracket pairs (stricter than either JavaScript path: doubt goes to them). */
function skipValue(p: i32): i32 {
  const c = at(p);
  if (c == 34) {
    const e = stringEnd(p + 1);
    return e < 0 ? FAIL : e + 1;
  }
  if (c != 123 && c != 91) {
    // A number or literal. The reader takes any bytes up to a delimiter; the JavaScript scanner
    // gives quotes and brackets among them their meaning: the two agree on plain tokens only.
    let q = p;
    while (q < n && isTokenByte(at(q))) q++;
    return q == p || q >= n || !isTokenEnd(at(q)) ? FAIL : q;
  }
  let depth = 0;
  for (let q = p; q < n; q++) {
    const b = at(q);
    if (b == 34) {
      const e = stringEnd(q + 1);
      if (e < 0) return FAIL;
      q = e;
    } else if (b == 123 || b == 91) {
      if (depth == MAX_DEPTH) return FAIL;
      store<u8>(STACK + <usize>depth, b);
      depth++;
    } else if (b == 125 || b == 93) {
      if (depth == 0 || <i32>load<u8>(STACK + <usize>(depth - 1)) != b - 2) return FAIL;
      depth--;
      if (depth == 0) return q + 1;
    }
  }
  return FAIL;
}

/** `[x, y, z]` of grid or block into the shape slots from `first` (event-reader's dim3). */
function dim3(p: i32, first: i32): i32 {
  put(S_SHAPE_SET, 1);
  let q = ws(p + 1);
  if (q < 0) return FAIL;
  for (let k = 0; k < 3; k++) {
    if (!isNumberStart(at(q))) return skipValue(p);
    q = number(q);
    if (q < 0) return FAIL;
    put(S_SHAPE + first + k, num);
    q = ws(q);
    if (q < 0) return FAIL;
    if (at(q) == 44) {
      q = ws(q + 1);
      if (q < 0) return FAIL;
    }
  }
  if (at(q) != 93) return skipValue(p);
  return q + 1;
}

function eventMember(ks: i32, ke: i32, p: i32): i32 {
  const len = ke - ks;
  const c = at(p);
  if (len == 2) {
    const w = word(ks, 2);
    if (w == W_PH) {
      if (c == 34 && p + 1 < n) put(S_PH, <f64>at(p + 1));
    } else if (w == W_TS) {
      if (isNumberStart(c)) {
        const q = micros(p);
        if (q < 0) return FAIL;
        put(S_HAS_TS, 1);
        put(S_TS_US, whole);
        put(S_TS_FRAC, <f64>frac);
        return q;
      }
    }
  } else if (len == 3) {
    const w = word(ks, 3);
    if (w == W_CAT) {
      // The first "cat" is the category; a second is left to JavaScript (its scanner reads on).
      if (category != CAT_PENDING || c != 34) return FAIL;
      const e = stringEnd(p + 1);
      if (e < 0) return FAIL;
      category = categoryOf(p + 1, e);
      return e + 1;
    }
    if (isNumberStart(c)) {
      if (w == W_DUR) {
        const q = micros(p);
        if (q < 0) return FAIL;
        put(S_HAS_DUR, 1);
        put(S_DUR_US, whole);
        put(S_DUR_FRAC, <f64>frac);
        return q;
      }
      if (w == W_PID || w == W_TID) {
        const q = number(p);
        if (q < 0) return FAIL;
        put(w == W_PID ? S_PID : S_TID, num);
        return q;
      }
    }
  } else if (len == 4) {
    const w = word(ks, 4);
    if (w == W_NAME) {
      if (c == 34) {
        const e = stringEnd(p + 1);
        if (e < 0) return FAIL;
        put(S_NAME_START, <f64>(p + 1));
        put(S_NAME_END, <f64>e);
        return e + 1;
      }
    } else if (w == W_ARGS) {
      // Whether args are read depends on the category: one not yet known is left to JavaScript.
      if (category == CAT_PENDING) return FAIL;
      if (c == 123 && category != CAT_PYTHON && category != CAT_SKIP) return members(p, 2);
    }
  }
  return skipValue(p);
}

function argsMember(ks: i32, ke: i32, p: i32): i32 {
  const len = ke - ks;
  const c = at(p);
  if (len == 4) {
    if (c == 91 && word(ks, 4) == W_GRID) return dim3(p, 0);
  } else if (len == 5) {
    const w = word(ks, 5);
    if (c == 91 && w == W_BLOCK) return dim3(p, 3);
    if (isNumberStart(c) && w == W_BYTES) return numberInto(p, S_BYTES);
  } else if (len == 6) {
    if (isNumberStart(c)) {
      const w = word(ks, 6);
      if (w == W_DEVICE) return numberInto(p, S_DEVICE);
      if (w == W_STREAM) return numberInto(p, S_STREAM);
    }
  } else if (len == 10) {
    if (c == 91 && equals2(ks, 10, 0x6944207475706e49, 0x736d)) { // 'Input Dims'
      const q = skipValue(p);
      if (q < 0) return FAIL;
      put(S_DIMS_START, <f64>p);
      put(S_DIMS_END, <f64>q);
      return q;
    }
  } else if (len == 11) {
    if (isNumberStart(c)) {
      if (equals2(ks, 11, 0x74616c6572726f63, 0x6e6f69)) return numberInto(p, S_CORRELATION); // 'correlation'
      if (equals2(ks, 11, 0x6c616e7265747845, 0x646920)) return numberInto(p, S_EXTERNAL_ID); // 'External id'
    }
  }
  return skipValue(p);
}

function numberInto(p: i32, slot: i32): i32 {
  const q = number(p);
  if (q < 0) return FAIL;
  put(slot, num);
  return q;
}

/** Members of the object opening at p (level 1: the event, 2: its args); the index after its `}`. */
function members(p: i32, level: i32): i32 {
  p = ws(p + 1);
  if (p < 0) return FAIL;
  if (at(p) == 125) return p + 1;
  while (true) {
    if (at(p) != 34) return FAIL;
    const ks = p + 1;
    const ke = keyEnd(ks);
    if (ke < 0) return FAIL;
    p = ke + 1;
    if (p < n && at(p) == 58) p++;
    else {
      p = ws(p);
      if (p < 0 || at(p) != 58) return FAIL;
      p++;
    }
    p = ws(p);
    if (p < 0) return FAIL;
    p = level == 1 ? eventMember(ks, ke, p) : argsMember(ks, ke, p);
    if (p < 0) return FAIL;
    p = ws(p);
    if (p < 0) return FAIL;
    const c = at(p);
    if (c == 44) {
      p = ws(p + 1);
      if (p < 0) return FAIL;
    } else if (c == 125) return p + 1;
    else return FAIL;
  }
  return FAIL; // not reached
}

/** bytes [a, a + len) equal bytes [b, b + len) (absolute addresses). */
function sameBytes(a: usize, b: usize, len: u32): bool {
  let k: u32 = 0;
  while (k + 16 <= len) {
    if (!i8x16.all_true(i8x16.eq(v128.load(a + <usize>k), v128.load(b + <usize>k)))) return false;
    k += 16;
  }
  while (k < len) {
    if (load<u8>(a + <usize>k) != load<u8>(b + <usize>k)) return false;
    k++;
  }
  return true;
}

/**
 * The id of the name whose bytes are [s, e) of the chunk: its first appearance copies the bytes into
 * the arena and numbers them. A hash of a dozen sampled bytes picks the slot (kernel names are
 * kilobytes long), the whole bytes confirm. -1 once the table is half full or the arena is full.
 */
function nameId(s: i32, e: i32): i32 {
  const len = <u32>(e - s);
  let hash: u32 = len;
  if (len > 0) {
    const step = len > 12 ? len / 12 : 1;
    for (let k: u32 = 0; k < len; k += step) hash = hash * 31 + <u32>at(s + <i32>k);
    hash = hash * 31 + <u32>at(e - 1);
  }
  hash ^= hash >> 16;
  hash *= 0x85ebca6b;
  hash ^= hash >> 13;
  let slot = hash & (NAME_SLOTS - 1);
  for (;;) {
    const entry = NAME_TABLE + (<usize>slot << 4);
    const idPlusOne = load<u32>(entry, 12);
    if (idPlusOne == 0) break;
    if (load<u32>(entry) == hash && load<u32>(entry, 8) == len && sameBytes(ARENA + <usize>load<u32>(entry, 4), IN + <usize>s, len)) return <i32>idPlusOne - 1;
    slot = (slot + 1) & (NAME_SLOTS - 1);
  }
  if (names >= NAME_SLOTS / 2 || arenaUsed + len > ARENA_SIZE) return -1;
  const entry = NAME_TABLE + (<usize>slot << 4);
  memory.copy(ARENA + <usize>arenaUsed, IN + <usize>s, len);
  store<u32>(entry, hash);
  store<u32>(entry, arenaUsed, 4);
  store<u32>(entry, len, 8);
  names++;
  store<u32>(entry, names, 12);
  arenaUsed += len;
  return <i32>names - 1;
}

function clearRecord(): void {
  put(S_PH, 0);
  put(S_NAME_START, -1);
  put(S_NAME_END, -1);
  put(S_PID, NaN);
  put(S_TID, NaN);
  put(S_HAS_TS, 0);
  put(S_HAS_DUR, 0);
  put(S_DEVICE, NaN);
  put(S_STREAM, NaN);
  put(S_CORRELATION, NaN);
  put(S_EXTERNAL_ID, NaN);
  put(S_BYTES, NaN);
  put(S_DIMS_START, -1);
  put(S_DIMS_END, -1);
  for (let k = 0; k < 6; k++) put(S_SHAPE + k, NaN);
  put(S_SHAPE_SET, 0);
}

/**
 * Read plain events of the `length`-byte chunk at IN from the `{` at `from`, each followed by `,`
 * and the next `{`, until one is not plain, the tape is full, or something else follows. Returns
 * where it stopped: an event's `{` (stoppedAfterEvent() 0) or just after an event's `}` (1).
 */
export function scan(from: i32, length: i32): i32 {
  n = length;
  records = 0;
  let p = from;
  for (;;) {
    if (records == MAX_RECS || at(p) != 123) break;
    rec = TAPE + (<usize>(records * REC) << 3);
    category = CAT_PENDING;
    clearRecord();
    const end = members(p, 1);
    if (end < 0) break;
    if (category > CAT_SKIP) {
      const nameStart = <i32>load<f64>(rec + (<usize>S_NAME_START << 3));
      put(S_NAME_ID, nameStart < 0 ? -1 : <f64>nameId(nameStart, <i32>load<f64>(rec + (<usize>S_NAME_END << 3))));
      put(S_CATEGORY, <f64>category);
      put(S_START, <f64>p);
      put(S_END, <f64>end);
      records++;
    }
    // `,` and the next event's `{`; anything else is the caller's.
    let q = end;
    while (q < n && isSpace(at(q))) q++;
    if (q < n && at(q) == 44) {
      q++;
      while (q < n && isSpace(at(q))) q++;
    } else q = n;
    if (q >= n || at(q) != 123) {
      stopKind = AFTER_EVENT;
      return end;
    }
    p = q;
  }
  stopKind = AT_EVENT;
  return p;
}
