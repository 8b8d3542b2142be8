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
 * Most members are not read key by key: what follows each key (`, "name": `, `,\n    "args": {`,
 * the `}`) is learned as it is read and, where the same bytes follow again, confirmed with one
 * compare of up to 32 bytes (see TRANSITIONS). Digits, whitespace and strings are found 16 or more
 * bytes at a time; numbers of up to 8 digits are read in one step.
 *
 * Memory: the tape at TAPE, the interned names' table, the keys seen and what follows them, the
 * names' bytes, then the chunk's bytes at IN (the caller grows memory to fit the chunk and 32 bytes
 * of slack that vector loads may read past its end).
 */

const TAPE: usize = 65536;
/** f64 slots per record (see the S_* offsets; tape.ts reads them). */
const REC: i32 = 31;
/** Records one scan writes at most (the tape and the bracket stack fit below NAME_TABLE). */
const MAX_RECS: i32 = 3800;
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
/** A GPU or API event's launch site as the cpu_ops read so far give it (kineto-ops.ts siteOfEvent; -1 none). */
const S_SITE = 29;
/**
 * What the summing made of a kernel or API record (kineto-sums.ts): its kernel sum or API name
 * index, when summed there (the importer then only does what it has more to do); -1 when not.
 */
const S_SUM = 30;

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

// The cpu_op summing beside the tape (wasm/kineto-ops.ts), imported from its instance.
// @ts-ignore: decorator
@external('ops', 'cpuOp')
declare function opsCpuOp(nameStart: i32, nameEnd: i32, nameId: i32, hasTs: i32, tsUs: f64, tsFrac: f64, hasDur: i32, durUs: f64, durFrac: f64, tid: f64, externalId: f64, dimsStart: i32, dimsEnd: i32): void;
// @ts-ignore: decorator
@external('ops', 'siteOfEvent')
declare function opsSiteOfEvent(externalId: f64, correlation: f64): i32;
// @ts-ignore: decorator
@external('ops', 'gpuKernel')
declare function opsGpuKernel(nameStart: i32, nameEnd: i32, nameId: i32, hasTs: i32, hasDur: i32, tsUs: f64, tsFrac: f64, durNs: f64, device: f64, correlation: f64, site: i32, g0: f64, g1: f64, g2: f64, b0: f64, b1: f64, b2: f64): i32;
// @ts-ignore: decorator
@external('ops', 'apiCall')
declare function opsApiCall(nameStart: i32, nameEnd: i32, nameId: i32, category: i32, hasTs: i32, hasDur: i32, tsUs: f64, tsFrac: f64, durNs: f64): i32;
// @ts-ignore: decorator
@external('ops', 'framed')
declare function opsFramed(us: f64): f64;
// @ts-ignore: decorator
@external('ops', 'recordRow')
declare function opsRecordRow(kind: i32, name: i32, tsUs: f64, tsFrac: f64, durNs: f64, device: f64, lane: f64): void;

/** HTA drops longer events: CUPTI timestamp overflow, not real work (trace-summary.ts MAX_DURATION_NS). */
const MAX_DURATION_NS: f64 = 7 * 24 * 3600 * 1e9;
/** The trace record's reference for "(unnamed)", the name of a GPU event without one (launch-sites.ts). */
const UNNAMED_REF: i32 = -1;

/**
 * Set by sumCpuOps(): cpu_op events go to kineto-ops.ts as they are read and leave no record, the
 * trace record's rows of the cpu_ops and GPU events read here are written as they are read, each
 * GPU and API record carries its launch site, and a scan stops after a record that the importer
 * must see before the next event is summed here (see scan()).
 */
let summingCpuOps = false;
export function sumCpuOps(on: i32): void {
  summingCpuOps = on != 0;
}

let n: i32 = 0;
let rec: usize = 0;
let category: i32 = CAT_PENDING;
let records: i32 = 0;
let stopKind: i32 = AT_EVENT;
let num: f64 = 0;
let names: u32 = 0;
let arenaUsed: u32 = 0;
/** Nesting of skipped values read here; deeper ones are left to JavaScript. */
const MAX_DEPTH = 64;
/** Bracket stack of skipped nested values: MAX_DEPTH bytes after the tape's last record. */
const STACK: usize = TAPE + (<usize>(MAX_RECS * REC) << 3);

/**
 * Zeroes every byte this instance and its caller wrote, so that the memory reads as a fresh one to
 * the next instance given it (src/ingest/formats/kineto/wasm-runtime.ts): below the arena's end
 * (statics, tape, tables, names), and from the chunk to the memory's end.
 */
export function scrub(): void {
  memory.fill(0, 0, ARENA + <usize>arenaUsed);
  memory.fill(IN, 0, (<usize>memory.size() << 16) - IN);
}

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
/** Bytes that end a number or literal: `,`, `}`, `]` and whitespace (event-reader's TOKEN_END). */
// @ts-ignore: decorator
@inline function isTokenEnd(c: i32): bool {
  // Tab, newline, return, space and comma as bits of one word; then the closing brackets.
  return c < 64 ? ((<u64>0x100100002600 >> <u64>c) & 1) != 0 : (c | 32) == 125;
}
// @ts-ignore: decorator
@inline function isNumberStart(c: i32): bool {
  return <u32>(c - 48) <= 9 || c == 45;
}

/** First non-whitespace index from p, or FAIL at the chunk's end (the event continues). */
function ws(p: i32): i32 {
  if (p < n && at(p) > 32) return p;
  while (p < n) {
    const v = v128.load(IN + <usize>p);
    const space = v128.or(v128.or(i8x16.eq(v, i8x16.splat(32)), i8x16.eq(v, i8x16.splat(10))), v128.or(i8x16.eq(v, i8x16.splat(13)), i8x16.eq(v, i8x16.splat(9))));
    const other = ~i8x16.bitmask(space) & 0xffff;
    if (other != 0) {
      const k = p + ctz(other);
      return k < n ? k : FAIL;
    }
    p += 16;
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
  const quote = i8x16.splat(34);
  const backslash = i8x16.splat(92);
  if (j < n) {
    const v = v128.load(IN + <usize>j);
    const mask = i8x16.bitmask(v128.or(i8x16.eq(v, quote), i8x16.eq(v, backslash)));
    if (mask != 0) {
      const k = j + ctz(mask);
      if (k >= n) return FAIL;
      if (at(k) == 34) return k;
      j = k + 2;
    } else j += 16;
  }
  // Long strings (kernel names) 64 bytes a step while no quote or backslash is among them.
  while (j + 64 <= n) {
    const a = v128.load(IN + <usize>j);
    const b = v128.load(IN + <usize>j, 16);
    const c = v128.load(IN + <usize>j, 32);
    const d = v128.load(IN + <usize>j, 48);
    const hit = v128.or(
      v128.or(v128.or(i8x16.eq(a, quote), i8x16.eq(a, backslash)), v128.or(i8x16.eq(b, quote), i8x16.eq(b, backslash))),
      v128.or(v128.or(i8x16.eq(c, quote), i8x16.eq(c, backslash)), v128.or(i8x16.eq(d, quote), i8x16.eq(d, backslash))),
    );
    if (v128.any_true(hit)) break;
    j += 64;
  }
  while (true) {
    const k = quoteOrEscape(j);
    if (k == FAIL || at(k) == 34) return k;
    j = k + 2;
  }
}

/**
 * stringEnd(j), its first 16 bytes inline: most strings read (categories, short names, `"X"`) end
 * there, and need no call; any other is stringEnd's, which reads it from j again.
 */
// @ts-ignore: decorator
@inline function shortStringEnd(j: i32): i32 {
  if (j < n) {
    const v = v128.load(IN + <usize>j);
    const mask = i8x16.bitmask(v128.or(i8x16.eq(v, i8x16.splat(34)), i8x16.eq(v, i8x16.splat(92))));
    const k = j + ctz(mask);
    if (mask != 0 && k < n && at(k) == 34) return k;
  }
  return stringEnd(j);
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

/** How many of the 16 bytes at p are digits before the first that is not (16: all of them). */
// @ts-ignore: decorator
@inline function digitRun(p: i32): i32 {
  return <i32>ctz(~i8x16.bitmask(i8x16.le_u(i8x16.sub(v128.load(IN + <usize>p), i8x16.splat(48)), i8x16.splat(9))));
}

/** Index after the digits from p (16 bytes a step), at most n. */
function digitsEnd(p: i32): i32 {
  let q = p;
  while (q < n) {
    const v = i8x16.sub(v128.load(IN + <usize>q), i8x16.splat(48));
    const other = ~i8x16.bitmask(i8x16.le_u(v, i8x16.splat(9))) & 0xffff;
    if (other != 0) {
      q += ctz(other);
      return q < n ? q : n;
    }
    q += 16;
  }
  return n;
}

/**
 * The 1 to 8 digits [p, p + len) as an integer, eight ASCII digits at once: '0' taken from every
 * byte (the digits are the low bytes and never borrow, so the bytes after them cannot change them),
 * then the bytes past the digits shifted out, which leaves leading zeros.
 */
// @ts-ignore: decorator
@inline function eightDigits(p: i32, len: i32): u64 {
  let x = (load<u64>(IN + <usize>p) - 0x3030303030303030) << <u64>((8 - len) << 3);
  x = x * 10 + (x >> 8);
  return (((x & 0x000000ff000000ff) * (100 + (<u64>1000000 << 32))) + (((x >> 16) & 0x000000ff000000ff) * (1 + (<u64>10000 << 32)))) >> 32;
}

/** Lane k holds k: with a length added, the indexes that move a vector's first lanes to its end. */
const LANES: v128 = i8x16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);

/**
 * The 1 to 15 digits [p, p + len) as an integer, in one vector: the digits moved to the vector's
 * end (the lanes before them read 0: a swizzle index past 15 gives 0), then paired up: two digits
 * in each 16-bit lane, four in each 32-bit lane, eight in each of the first two.
 */
// @ts-ignore: decorator
@inline function vectorDigits(p: i32, len: i32): u64 {
  const d = i8x16.swizzle(i8x16.sub(v128.load(IN + <usize>p), i8x16.splat(48)), i8x16.add(LANES, i8x16.splat(<i8>(len - 16))));
  const two = i16x8.add(i16x8.mul(v128.and(d, i16x8.splat(0xff)), i16x8.splat(10)), i16x8.shr_u(d, 8));
  const four = i32x4.dot_i16x8_s(two, i32x4.splat(0x00010064)); // first lane * 100 + second
  const eight = i32x4.dot_i16x8_s(i16x8.narrow_i32x4_u(four, four), i32x4.splat(0x00012710)); // * 10000 + second
  return <u64>i32x4.extract_lane(eight, 0) * 100000000 + <u64>i32x4.extract_lane(eight, 1);
}

/**
 * The digits [p, q) as a number, as `value = value * 10 + digit` in f64 gives it: up to 15 digits
 * every step of that is an exact integer below 2^53, so the integer read at once is the same number.
 */
// @ts-ignore: decorator
@inline function digitsValue(p: i32, q: i32): f64 {
  const len = q - p;
  // (Below 2^53, so converted as signed: one instruction.)
  if (len <= 8) return <f64><i64>eightDigits(p, len);
  if (len <= 15) return <f64><i64>vectorDigits(p, len);
  return digitsValueLong(p, q);
}

function digitsValueLong(p: i32, q: i32): f64 {
  let value: f64 = 0;
  for (let k = p; k < q; k++) value = value * 10 + <f64>(at(k) - 48);
  return value;
}

/** Digits only into `num` (as event-reader's number() on its simple path); FAIL for anything else. */
// @ts-ignore: decorator
@inline function number(p: i32): i32 {
  const q = digitsEnd(p);
  if (q == p || q >= n || !isTokenEnd(at(q))) return FAIL;
  num = digitsValue(p, q);
  return q;
}

/**
 * The ns of the fraction digits at r (`places` of them): the first three, the fourth rounding
 * (event-reader's micros()). The four bytes are read at once, those past the last digit as zeros.
 */
// @ts-ignore: decorator
@inline function fractionNs(r: i32, places: i32): i32 {
  let x = load<u32>(IN + <usize>r) - 0x30303030;
  if (places < 4) x &= (<u32>1 << (<u32>places << 3)) - 1;
  return <i32>(x & 0xff) * 100 + <i32>((x >> 8) & 0xff) * 10 + <i32>((x >> 16) & 0xff) + (<i32>(x >> 24) >= 5 ? 1 : 0);
}

/**
 * A non-negative µs value into the slots from `has`: 1, whole µs, ns (the fourth fraction digit
 * rounding); the index after it, or FAIL.
 */
// @ts-ignore: decorator
@inline function microsInto(p: i32, has: i32): i32 {
  if (p + 32 <= n) {
    // Digits, a point and digits within 32 bytes (a timestamp's 17), told by one mask of digits.
    const digits =
      i8x16.bitmask(i8x16.le_u(i8x16.sub(v128.load(IN + <usize>p), i8x16.splat(48)), i8x16.splat(9))) |
      (i8x16.bitmask(i8x16.le_u(i8x16.sub(v128.load(IN + <usize>p, 16), i8x16.splat(48)), i8x16.splat(9))) << 16);
    const wholeDigits = ctz(~digits);
    if (wholeDigits != 0 && wholeDigits <= 15 && at(p + wholeDigits) == 46) {
      const places = ctz(~(digits >>> (wholeDigits + 1)));
      const r = p + wholeDigits + 1;
      const e = r + places;
      if (e - p < 32) {
        if (!isTokenEnd(at(e))) return FAIL;
        put(has, 1);
        put(has + 1, digitsValue(p, r - 1));
        put(has + 2, <f64>fractionNs(r, places));
        return e;
      }
    }
  }
  const q = digitsEnd(p);
  if (q == p) return FAIL; // a sign, or no digits: left to JavaScript
  let r = q;
  let f: i32 = 0;
  if (r < n && at(r) == 46) {
    r++;
    const e = digitsEnd(r);
    const places = e - r;
    f = fractionNs(r, places);
    r = e;
  }
  if (r >= n || !isTokenEnd(at(r))) return FAIL;
  put(has, 1);
  put(has + 1, digitsValue(p, q));
  put(has + 2, <f64>f);
  return r;
}

/** Index after the bytes of a number or literal from p (digits, letters, sign, point; 16 bytes a step), at most n. */
function tokenEnd(p: i32): i32 {
  let q = p;
  while (q < n) {
    const v = v128.load(IN + <usize>q);
    const digit = i8x16.le_u(i8x16.sub(v, i8x16.splat(48)), i8x16.splat(9));
    const letter = i8x16.le_u(i8x16.sub(v128.or(v, i8x16.splat(32)), i8x16.splat(97)), i8x16.splat(25));
    const sign = v128.or(v128.or(i8x16.eq(v, i8x16.splat(45)), i8x16.eq(v, i8x16.splat(43))), i8x16.eq(v, i8x16.splat(46)));
    const other = ~i8x16.bitmask(v128.or(v128.or(digit, letter), sign)) & 0xffff;
    if (other != 0) {
      q += ctz(other);
      return q < n ? q : n;
    }
    q += 16;
  }
  return n;
}

/**
 * skipValue(p) for the value starting with c, the common ones inline: a string that ends within 16
 * bytes, and a token starting with a digit (read as skipValue reads it). Anything else is skipValue's.
 */
// @ts-ignore: decorator
@inline function skipMember(p: i32, c: i32): i32 {
  if (c == 34) {
    const e = shortStringEnd(p + 1);
    return e < 0 ? FAIL : e + 1;
  }
  if (<u32>(c - 48) <= 9) {
    // Digits and a token's end within 16 bytes: where tokenEnd() stops too (the end is not a
    // letter, sign or point).
    if (p + 16 <= n) {
      const e = p + digitRun(p);
      if (e < p + 16 && isTokenEnd(at(e))) return e;
    }
    // Any other number (fractions too: `"blocks per SM": 0.121212`), as skipValue reads any token.
    const q = tokenEnd(p);
    return q >= n || !isTokenEnd(at(q)) ? FAIL : q;
  }
  return skipValue(p);
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
    const q = tokenEnd(p);
    return q == p || q >= n || !isTokenEnd(at(q)) ? FAIL : q;
  }
  // Only quotes and brackets mean anything here: they are found 16 bytes a step, the bytes
  // between them passed over.
  let depth = 0;
  let q = p;
  while (q < n) {
    const v = v128.load(IN + <usize>q);
    const mask = i8x16.bitmask(
      v128.or(
        v128.or(i8x16.eq(v, i8x16.splat(34)), v128.or(i8x16.eq(v, i8x16.splat(123)), i8x16.eq(v, i8x16.splat(125)))),
        v128.or(i8x16.eq(v, i8x16.splat(91)), i8x16.eq(v, i8x16.splat(93))),
      ),
    );
    if (mask == 0) {
      q += 16;
      continue;
    }
    const k = q + ctz(mask);
    if (k >= n) return FAIL;
    const b = at(k);
    if (b == 34) {
      const e = shortStringEnd(k + 1);
      if (e < 0) return FAIL;
      q = e + 1;
    } else if (b == 123 || b == 91) {
      if (depth == MAX_DEPTH) return FAIL;
      store<u8>(STACK + <usize>depth, b);
      depth++;
      q = k + 1;
    } else {
      if (depth == 0 || <i32>load<u8>(STACK + <usize>(depth - 1)) != b - 2) return FAIL;
      depth--;
      if (depth == 0) return k + 1;
      q = k + 1;
    }
  }
  return FAIL;
}

/** `[x, y, z]` of grid or block into the shape slots from `first` (event-reader's dim3). */
function dim3(p: i32, first: i32): i32 {
  put(S_SHAPE_SET, 1);
  // As PyTorch writes them, `[128,1,1]` or `[128, 1, 1]`: three runs of up to 8 digits, `,` or
  // `, ` between, `]` after, told by one mask of the 32 bytes after the `[` (the same numbers the
  // path below reads).
  if (p + 33 <= n) {
    const from = p + 1;
    const digits = <u32>(
      i8x16.bitmask(i8x16.le_u(i8x16.sub(v128.load(IN + <usize>from), i8x16.splat(48)), i8x16.splat(9))) |
      (i8x16.bitmask(i8x16.le_u(i8x16.sub(v128.load(IN + <usize>from, 16), i8x16.splat(48)), i8x16.splat(9))) << 16)
    );
    const l0 = <i32>ctz(~digits);
    if (l0 >= 1 && l0 <= 8 && at(from + l0) == 44) {
      const s1 = l0 + (at(from + l0 + 1) == 32 ? 2 : 1);
      const l1 = <i32>ctz(~(digits >> <u32>s1));
      if (l1 >= 1 && l1 <= 8 && at(from + s1 + l1) == 44) {
        const s2 = s1 + l1 + (at(from + s1 + l1 + 1) == 32 ? 2 : 1);
        const l2 = <i32>ctz(~(digits >> <u32>s2));
        if (l2 >= 1 && l2 <= 8 && at(from + s2 + l2) == 93) {
          put(S_SHAPE + first, <f64><i64>eightDigits(from, l0));
          put(S_SHAPE + first + 1, <f64><i64>eightDigits(from + s1, l1));
          put(S_SHAPE + first + 2, <f64><i64>eightDigits(from + s2, l2));
          return from + s2 + l2 + 1;
        }
      }
    }
  }
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

// What is done with a member's value, by its key (and level: 1 the event, 2 its args), numbered
// densely so that one jump table picks the reading. K_END (the object's `}`) is a transition's.
const K_SKIP = 0;
const K_PH = 1;
const K_CAT = 2;
const K_NAME = 3;
const K_ARGS = 4;
const K_GRID = 5;
const K_BLOCK = 6;
const K_INPUT_DIMS = 7;
const K_END = 8;
// µs values: whether read, whole µs and ns in three slots.
const K_TS = 9;
const K_DUR = 10;
// Numbers into a slot: pid and tid into S_PID, S_TID (kind - 5); the rest into S_DEVICE .. S_BYTES (kind + 1).
const K_PID = 11;
const K_TID = 12;
const K_DEVICE = 13;
const K_STREAM = 14;
const K_CORRELATION = 15;
const K_EXTERNAL_ID = 16;
const K_BYTES = 17;

/** The member read for the key [ks, ke) at `level`. */
function keyKind(level: i32, ks: i32, ke: i32): i32 {
  const len = ke - ks;
  if (level == 1) {
    if (len == 2) {
      const w = word(ks, 2);
      if (w == W_PH) return K_PH;
      if (w == W_TS) return K_TS;
    } else if (len == 3) {
      const w = word(ks, 3);
      if (w == W_CAT) return K_CAT;
      if (w == W_DUR) return K_DUR;
      if (w == W_PID) return K_PID;
      if (w == W_TID) return K_TID;
    } else if (len == 4) {
      const w = word(ks, 4);
      if (w == W_NAME) return K_NAME;
      if (w == W_ARGS) return K_ARGS;
    }
    return K_SKIP;
  }
  if (len == 4) {
    if (word(ks, 4) == W_GRID) return K_GRID;
  } else if (len == 5) {
    const w = word(ks, 5);
    if (w == W_BLOCK) return K_BLOCK;
    if (w == W_BYTES) return K_BYTES;
  } else if (len == 6) {
    const w = word(ks, 6);
    if (w == W_DEVICE) return K_DEVICE;
    if (w == W_STREAM) return K_STREAM;
  } else if (len == 10) {
    if (equals2(ks, 10, 0x6944207475706e49, 0x736d)) return K_INPUT_DIMS; // 'Input Dims'
  } else if (len == 11) {
    if (equals2(ks, 11, 0x74616c6572726f63, 0x6e6f69)) return K_CORRELATION; // 'correlation'
    if (equals2(ks, 11, 0x6c616e7265747845, 0x646920)) return K_EXTERNAL_ID; // 'External id'
  }
  return K_SKIP;
}

/** A ts or dur value at p into the three slots from `has` (a value not a number: skipped). */
// @ts-ignore: decorator
@inline function microsMember(has: i32, p: i32): i32 {
  return isNumberStart(at(p)) ? microsInto(p, has) : skipValue(p);
}

/** A number at p into `slot` (event-reader's number(): plain digits; any other value skipped). */
// @ts-ignore: decorator
@inline function numberMember(slot: i32, p: i32): i32 {
  if (p + 16 <= n) {
    // 1 to 8 digits and the byte after them, told by one mask of the 16 bytes at p.
    const len = digitRun(p);
    if (<u32>(len - 1) < 8) {
      if (!isTokenEnd(at(p + len))) return FAIL;
      put(slot, <f64><i64>eightDigits(p, len));
      return p + len;
    }
  }
  if (isNumberStart(at(p))) {
    const q = digitsEnd(p);
    if (q == p || q >= n || !isTokenEnd(at(q))) return FAIL;
    put(slot, digitsValue(p, q));
    return q;
  }
  return skipValue(p);
}

/** The category's string at p; FAIL for a second "cat" (left to JavaScript: its scanner reads on). */
// @ts-ignore: decorator
@inline function categoryMember(p: i32): i32 {
  if (category != CAT_PENDING || at(p) != 34) return FAIL;
  const e = shortStringEnd(p + 1);
  if (e < 0) return FAIL;
  category = categoryOf(p + 1, e);
  return e + 1;
}

/** The name's string at p: its bytes' range into the record (any other value skipped). */
// @ts-ignore: decorator
@inline function nameMember(p: i32): i32 {
  if (at(p) != 34) return skipValue(p);
  const e = shortStringEnd(p + 1);
  if (e < 0) return FAIL;
  put(S_NAME_START, <f64>(p + 1));
  put(S_NAME_END, <f64>e);
  return e + 1;
}

/** Input Dims at p: the array's range into the record (any other value skipped). */
// @ts-ignore: decorator
@inline function inputDimsMember(p: i32): i32 {
  if (at(p) != 91) return skipValue(p);
  const q = skipValue(p);
  if (q < 0) return FAIL;
  put(S_DIMS_START, <f64>p);
  put(S_DIMS_END, <f64>q);
  return q;
}

/**
 * Keys seen, numbered: KEY_SLOTS entries of 64 bytes (length + 1, level, kind, the key's bytes from
 * byte 16, at most KEY_BYTES of them). A key longer, or past half the table, has no number (NO_KEY).
 */
const KEY_TABLE: usize = 1310720;
const KEY_SLOTS: u32 = 256;
const KEY_BYTES: i32 = 48;
const NO_KEY = -1;
let keyCount: u32 = 0;
/** Set by keyNumber(): the kind of the key it was given. */
let keyKindFound: i32 = K_SKIP;

function keyNumber(level: i32, ks: i32, ke: i32): i32 {
  const len = ke - ks;
  if (len > KEY_BYTES) {
    keyKindFound = keyKind(level, ks, ke);
    return NO_KEY;
  }
  let hash = <u32>(word(ks, len < 8 ? len : 8) * 0x9e3779b97f4a7c15 >> 32) ^ (<u32>len * 0x85ebca6b) ^ <u32>level;
  hash ^= hash >> 15;
  let slot = hash & (KEY_SLOTS - 1);
  for (;;) {
    const entry = KEY_TABLE + (<usize>slot << 6);
    const lenPlusOne = load<i32>(entry);
    if (lenPlusOne == 0) break;
    if (lenPlusOne == len + 1 && load<i32>(entry, 4) == level && sameBytes(entry + 16, IN + <usize>ks, <u32>len)) {
      keyKindFound = load<i32>(entry, 8);
      return <i32>slot;
    }
    slot = (slot + 1) & (KEY_SLOTS - 1);
  }
  const kind = keyKind(level, ks, ke);
  keyKindFound = kind;
  if (keyCount >= KEY_SLOTS / 2) return NO_KEY;
  const entry = KEY_TABLE + (<usize>slot << 6);
  store<i32>(entry, len + 1);
  store<i32>(entry, level, 4);
  store<i32>(entry, kind, 8);
  memory.copy(entry + 16, IN + <usize>ks, <usize>len);
  keyCount++;
  return <i32>slot;
}

/**
 * What came after a key, learned: for each key number (and the start of an object at either
 * level, START_1 / START_2) and category so far, the bytes last seen from the end of that key's
 * value to the start of the next value (`, "name": `), or to the object's `}`, when they were at
 * most PATTERN bytes. Where the same bytes follow again, the next member is known from one compare
 * of those bytes, which are exactly the bytes the member-by-member reading would have read its way
 * through.
 *
 * A category's row holds every state's ways; a state's ways are at its offset (state << 7) in the
 * row, so the next transition is the row plus the offset the last one gave. A way: the 32 bytes,
 * then their length (at 32), the next state's offset (36), the next member's kind (40; K_END for the
 * object's `}`), and at 48 a 64-bit word whose bits are set except for the bytes compared. Memory
 * starts zeroed, so a way never learned has its upper 32 bits clear and never matches.
 */
const TRANSITIONS: usize = 1327104;
const TRANSITION_BYTES: usize = 64;
/** Two ways a key (and category) goes on, the last seen first. */
const WAYS: usize = 2;
const PATTERN = 32;
/**
 * Ways of 33 to LONG_PATTERN bytes (`,      "est. achieved occupancy %": ` as PyTorch writes a
 * kernel's args: 36): their first 32 bytes in the way, with a skip word whose bit 32 is clear so
 * that the compare above never takes them; bytes 32 to 63 at the way's place in LONG_BYTES (32 per
 * way), their mask at 44. longWay() tries them where no way matched.
 */
const LONG_PATTERN = 64;
const LONG_BYTES: usize = 1724928; // after the 12 rows of TRANSITIONS, below ARENA
const START_1: i32 = <i32>KEY_SLOTS;
const START_2: i32 = <i32>KEY_SLOTS + 1;
const NO_KEY_STATE: i32 = <i32>KEY_SLOTS + 2;
const STATE_SHIFT = 7; // TRANSITION_BYTES * WAYS bytes per state
/** One category's row (CAT_PENDING to CAT_PYTHON: 12 rows, 388 KiB, below ARENA). */
const ROW_BYTES: usize = <usize>(NO_KEY_STATE + 1) << STATE_SHIFT;
const END = -2;

/** Where a way's bytes 32 to 63 are kept (a long way's). */
// @ts-ignore: decorator
@inline function longBytesOf(t: usize): usize {
  return LONG_BYTES + ((t - TRANSITIONS) >> 1);
}

/** Remember the bytes [from, to) as what follows in way t (when they fit). */
function learn(t: usize, from: i32, to: i32, nextState: i32, kind: i32): void {
  const len = to - from;
  if (len > LONG_PATTERN || from + PATTERN > n) return;
  memory.copy(t + TRANSITION_BYTES, t, TRANSITION_BYTES);
  memory.copy(longBytesOf(t + TRANSITION_BYTES), longBytesOf(t), TRANSITION_BYTES >> 1);
  v128.store(t, v128.load(IN + <usize>from));
  v128.store(t, v128.load(IN + <usize>from, 16), 16);
  store<i32>(t, len, 32);
  store<i32>(t, nextState << STATE_SHIFT, 36);
  store<i32>(t, kind, 40);
  if (len <= PATTERN) {
    // Every bit but those of the `len` bytes compared (1 to 32 of them).
    store<u64>(t, ~((<u64>1 << <u64>len) - 1), 48);
    return;
  }
  // A long way (the bytes past `to` were in the chunk or its slack: they are not compared).
  store<u64>(t, 0xfffffffe00000000, 48);
  const rest = longBytesOf(t);
  v128.store(rest, v128.load(IN + <usize>from, 32));
  v128.store(rest, v128.load(IN + <usize>from, 48), 16);
  store<i32>(t, len - PATTERN == 32 ? -1 : (1 << (len - PATTERN)) - 1, 44);
}

/**
 * The long way of the ways at t (a state's two) whose bytes the input at p starts with, or 0. Its
 * bytes end in the chunk: a long way is taken only where the reading would end its way there.
 */
function longWay(t: usize, p: i32, a: v128, b: v128): usize {
  for (let way: usize = 0; way < WAYS; way++) {
    const w = t + way * TRANSITION_BYTES;
    const len = load<i32>(w, 32);
    if (len <= PATTERN || p + len > n) continue;
    const same = i8x16.bitmask(i8x16.eq(a, v128.load(w))) | (i8x16.bitmask(i8x16.eq(b, v128.load(w, 16))) << 16);
    if (same != -1) continue;
    const rest = longBytesOf(w);
    const more = i8x16.bitmask(i8x16.eq(v128.load(IN + <usize>p, 32), v128.load(rest))) | (i8x16.bitmask(i8x16.eq(v128.load(IN + <usize>p, 48), v128.load(rest, 16))) << 16);
    const wanted = load<i32>(w, 44);
    if ((more & wanted) == wanted) return w;
  }
  return 0;
}

/** The row of the transitions for the category so far. */
// @ts-ignore: decorator
@inline function rowOf(category: i32): usize {
  return TRANSITIONS + <usize>(category + 1) * ROW_BYTES;
}

/** Whether a, b (the 32 bytes at p) start with way t's bytes. */
// @ts-ignore: decorator
@inline function matched(t: usize, a: v128, b: v128): bool {
  const same = <u32>(i8x16.bitmask(i8x16.eq(a, v128.load(t))) | (i8x16.bitmask(i8x16.eq(b, v128.load(t, 16))) << 16));
  return (<u64>same | load<u64>(t, 48)) == 0xffffffffffffffff;
}

/** Members of the event opening at p, its args' too; the index after its `}`. */
function members(p: i32): i32 {
  let row = rowOf(category);
  let state = START_1 << STATE_SHIFT;
  // level 1: the event's members; 2: its args', read in this loop too (without a call). `after`
  // is the event's state after its args, where their `}` takes the reading back to level 1.
  let level = 1;
  let after = 0;
  for (;;) {
    // p: at the `{`, or just after a value.
    let next: i32;
    let kind: i32;
    let q: i32;
    // The next value's start is taken from the transition before its bytes are confirmed (a
    // branch, not a data dependence): the reading runs on while they are compared.
    // t: the way that matched, 0 when none did.
    // The 32 bytes at p may run past the chunk (into the slack after it): a way matched there
    // ends past the chunk's end, and fails below, as the member-by-member reading would.
    let t = row + <usize>state;
    const a = v128.load(IN + <usize>p);
    const b = v128.load(IN + <usize>p, 16);
    if (!matched(t, a, b)) {
      t += TRANSITION_BYTES;
      if (!matched(t, a, b)) t = longWay(t - TRANSITION_BYTES, p, a, b);
    }
    if (t != 0) {
      kind = load<i32>(t, 40);
      q = p + load<i32>(t, 32);
      if (kind == K_END) {
        if (q > n) return FAIL;
        if (level == 1) return q;
        level = 1;
        p = q;
        state = after;
        continue;
      }
      next = load<i32>(t, 36);
      if (q >= n) return FAIL;
      if (at(q) <= 32) {
        q = ws(q);
        if (q < 0) return FAIL;
      }
    } else {
      q = nextMember(p, level, row + <usize>state, state);
      if (q < 0) {
        if (q != END) return FAIL;
        if (level == 1) return nextEnd;
        level = 1;
        p = nextEnd;
        state = after;
        continue;
      }
      next = nextState;
      kind = keyKindFound;
    }
    // The value at q, read by its kind (event-reader's eventMember and argsMember).
    switch (kind) {
      case K_SKIP:
        p = skipMember(q, at(q));
        break;
      case K_PH: {
        if (at(q) == 34 && q + 1 < n) put(S_PH, <f64>at(q + 1));
        p = skipMember(q, at(q));
        break;
      }
      case K_CAT: {
        p = categoryMember(q);
        row = rowOf(category);
        break;
      }
      case K_NAME:
        p = nameMember(q);
        break;
      case K_ARGS: {
        // Whether args are read depends on the category: one not yet known is left to JavaScript.
        if (category == CAT_PENDING) return FAIL;
        if (at(q) == 123 && category != CAT_PYTHON && category != CAT_SKIP) {
          after = next;
          level = 2;
          p = q;
          state = START_2 << STATE_SHIFT;
          continue;
        }
        p = skipValue(q);
        break;
      }
      case K_GRID:
        p = at(q) == 91 ? dim3(q, 0) : skipMember(q, at(q));
        break;
      case K_BLOCK:
        p = at(q) == 91 ? dim3(q, 3) : skipMember(q, at(q));
        break;
      case K_INPUT_DIMS:
        p = inputDimsMember(q);
        break;
      case K_TS:
        p = microsMember(S_HAS_TS, q);
        break;
      case K_DUR:
        p = microsMember(S_HAS_DUR, q);
        break;
      case K_PID:
      case K_TID:
        p = numberMember(kind - K_PID + S_PID, q);
        break;
      default:
        // K_DEVICE .. K_BYTES
        p = numberMember(kind - K_DEVICE + S_DEVICE, q);
    }
    if (p < 0) return FAIL;
    state = next;
  }
  return FAIL; // not reached
}

/** Set by nextMember(): the next state's offset, or the index after the object's `}`. */
let nextState: i32 = 0;
let nextEnd: i32 = 0;

/**
 * From p (the object's `{`, or just after a value) to the next member's value, byte by byte; its
 * start, with nextState and keyKindFound set, or END (nextEnd: after the object's `}`), or FAIL.
 * What it read is learned as the way on from `state` (an offset; t its ways).
 */
function nextMember(p: i32, level: i32, t: usize, state: i32): i32 {
  let r: i32;
  if (state == START_1 << STATE_SHIFT || state == START_2 << STATE_SHIFT) {
    r = ws(p + 1);
    if (r < 0) return FAIL;
    if (at(r) == 125) {
      learn(t, p, r + 1, 0, K_END);
      nextEnd = r + 1;
      return END;
    }
  } else {
    r = ws(p);
    if (r < 0) return FAIL;
    const c = at(r);
    if (c == 125) {
      if (state != NO_KEY_STATE << STATE_SHIFT) learn(t, p, r + 1, 0, K_END);
      nextEnd = r + 1;
      return END;
    }
    if (c != 44) return FAIL;
    r = ws(r + 1);
    if (r < 0) return FAIL;
  }
  if (at(r) != 34) return FAIL;
  const ks = r + 1;
  const ke = keyEnd(ks);
  if (ke < 0) return FAIL;
  r = ke + 1;
  if (r < n && at(r) == 58) r++;
  else {
    r = ws(r);
    if (r < 0 || at(r) != 58) return FAIL;
    r++;
  }
  const q = ws(r);
  if (q < 0) return FAIL;
  const key = keyNumber(level, ks, ke);
  // A key without a number is followed member by member (NO_KEY_STATE learns nothing).
  nextState = (key == NO_KEY ? NO_KEY_STATE : key) << STATE_SHIFT;
  if (key != NO_KEY && state != NO_KEY_STATE << STATE_SHIFT) learn(t, p, q, key, keyKindFound);
  return q;
}

/** bytes [a, a + len) equal bytes [b, b + len) (absolute addresses). */
function sameBytes(a: usize, b: usize, len: u32): bool {
  // Short names (most op names) in one or two words: the first 8 bytes and the last 8, overlapping;
  // below 8 bytes the first word's bytes past the name are masked off (memory goes on past either).
  if (len < 16) {
    if (len >= 8) return load<u64>(a) == load<u64>(b) && load<u64>(a + <usize>len - 8) == load<u64>(b + <usize>len - 8);
    return ((load<u64>(a) ^ load<u64>(b)) & ((<u64>1 << (<u64>len << 3)) - 1)) == 0;
  }
  let k: u32 = 0;
  // Kernel names run to kilobytes: 64 bytes a step, then 16, then the last 16 (overlapping).
  while (k + 64 <= len) {
    const x = v128.and(
      v128.and(i8x16.eq(v128.load(a + <usize>k), v128.load(b + <usize>k)), i8x16.eq(v128.load(a + <usize>k, 16), v128.load(b + <usize>k, 16))),
      v128.and(i8x16.eq(v128.load(a + <usize>k, 32), v128.load(b + <usize>k, 32)), i8x16.eq(v128.load(a + <usize>k, 48), v128.load(b + <usize>k, 48))),
    );
    if (!i8x16.all_true(x)) return false;
    k += 64;
  }
  while (k + 16 <= len) {
    if (!i8x16.all_true(i8x16.eq(v128.load(a + <usize>k), v128.load(b + <usize>k)))) return false;
    k += 16;
  }
  return k == len || i8x16.all_true(i8x16.eq(v128.load(a + <usize>(len - 16)), v128.load(b + <usize>(len - 16))));
}

/**
 * The id of the name whose bytes are [s, e) of the chunk: its first appearance copies the bytes into
 * the arena and numbers them. A hash of a dozen sampled bytes picks the slot (kernel names are
 * kilobytes long), the whole bytes confirm. -1 once the table is half full or the arena is full.
 */
function nameId(s: i32, e: i32): i32 {
  const len = <u32>(e - s);
  // Three words (the first, middle and last 8 bytes; the name whole if shorter) and the length.
  let h: u64;
  if (len >= 8) h = (load<u64>(IN + <usize>s) * 0x9e3779b97f4a7c15) ^ (load<u64>(IN + <usize>(s + <i32>(len >> 1) - 4)) * 0xc2b2ae3d27d4eb4f) ^ load<u64>(IN + <usize>(e - 8));
  else h = word(s, <i32>len);
  h = (h ^ <u64>len) * 0x9e3779b97f4a7c15;
  let hash = <u32>(h >> 32);
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

/**
 * The record's slots S_PH to S_NAME_ID (26 of them) as an event without members leaves them: ph 0,
 * the name's and dims' ranges -1, flags 0, numbers NaN (the µs values are read only where their flag
 * is set). Written by each scan(); clearRecord() copies them, 16 bytes a step.
 */
const BLANK: usize = STACK + MAX_DEPTH;

// @ts-ignore: decorator
@inline function blank(slot: i32, value: f64): void {
  store<f64>(BLANK + (<usize>(slot - S_PH) << 3), value);
}

function writeBlank(): void {
  for (let k = S_PH; k <= S_NAME_ID; k++) blank(k, NaN);
  blank(S_PH, 0);
  blank(S_NAME_START, -1);
  blank(S_NAME_END, -1);
  blank(S_HAS_TS, 0);
  blank(S_HAS_DUR, 0);
  blank(S_DIMS_START, -1);
  blank(S_DIMS_END, -1);
  blank(S_SHAPE_SET, 0);
  blank(S_NAME_ID, -1);
}

// @ts-ignore: decorator
@inline function clearRecord(): void {
  // Unrolled: a loop in V8's WebAssembly code checks the stack at each turn.
  const to = rec + (<usize>S_PH << 3);
  v128.store(to, v128.load(BLANK));
  v128.store(to, v128.load(BLANK, 16), 16);
  v128.store(to, v128.load(BLANK, 32), 32);
  v128.store(to, v128.load(BLANK, 48), 48);
  v128.store(to, v128.load(BLANK, 64), 64);
  v128.store(to, v128.load(BLANK, 80), 80);
  v128.store(to, v128.load(BLANK, 96), 96);
  v128.store(to, v128.load(BLANK, 112), 112);
  v128.store(to, v128.load(BLANK, 128), 128);
  v128.store(to, v128.load(BLANK, 144), 144);
  v128.store(to, v128.load(BLANK, 160), 160);
  v128.store(to, v128.load(BLANK, 176), 176);
  v128.store(to, v128.load(BLANK, 192), 192);
}

/**
 * Read plain events of the `length`-byte chunk at IN from the `{` at `from`, each followed by `,`
 * and the next `{`, until one is not plain, the tape is full, or something else follows. Returns
 * where it stopped: an event's `{` (stoppedAfterEvent() 0) or just after an event's `}` (1).
 */
/**
 * The trace record's row of a kernel, memcpy or memset, where the importer would keep one
 * (trace-summary.ts use(): a complete event with ts and dur, its duration within 0 to 7 days). False
 * when it is one but its name has no id: the importer then records it itself.
 */
function recordGpuEvent(nameStart: i32, id: i32): bool {
  if (load<f64>(rec + (<usize>S_PH << 3)) != 88 || load<f64>(rec + (<usize>S_HAS_TS << 3)) != 1 || load<f64>(rec + (<usize>S_HAS_DUR << 3)) != 1) return true;
  const durNs = load<f64>(rec + (<usize>S_DUR_US << 3)) * 1000 + load<f64>(rec + (<usize>S_DUR_FRAC << 3));
  if (durNs < 0 || durNs > MAX_DURATION_NS) return true;
  if (nameStart >= 0 && id < 0) return false;
  // The device: args.device, else the pid, else -1; the lane: args.stream, else the tid.
  const device = load<f64>(rec + (<usize>S_DEVICE << 3));
  const pid = load<f64>(rec + (<usize>S_PID << 3));
  const stream = load<f64>(rec + (<usize>S_STREAM << 3));
  opsRecordRow(
    category - CAT_KERNEL,
    nameStart < 0 ? UNNAMED_REF : id,
    load<f64>(rec + (<usize>S_TS_US << 3)),
    load<f64>(rec + (<usize>S_TS_FRAC << 3)),
    durNs,
    isInteger(device) ? device : isInteger(pid) ? pid : -1,
    isInteger(stream) ? stream : load<f64>(rec + (<usize>S_TID << 3)),
  );
  return true;
}

// @ts-ignore: decorator
@inline function isInteger(x: f64): bool {
  return isFinite(x) && Math.trunc(x) == x;
}

function sumCpuOp(nameStart: i32, id: i32): void {
  opsCpuOp(
    nameStart,
    <i32>load<f64>(rec + (<usize>S_NAME_END << 3)),
    id,
    <i32>load<f64>(rec + (<usize>S_HAS_TS << 3)),
    load<f64>(rec + (<usize>S_TS_US << 3)),
    load<f64>(rec + (<usize>S_TS_FRAC << 3)),
    <i32>load<f64>(rec + (<usize>S_HAS_DUR << 3)),
    load<f64>(rec + (<usize>S_DUR_US << 3)),
    load<f64>(rec + (<usize>S_DUR_FRAC << 3)),
    load<f64>(rec + (<usize>S_TID << 3)),
    load<f64>(rec + (<usize>S_EXTERNAL_ID << 3)),
    <i32>load<f64>(rec + (<usize>S_DIMS_START << 3)),
    <i32>load<f64>(rec + (<usize>S_DIMS_END << 3)),
  );
}

/** Keeps the event just read as a record of the tape, for the importer. */
function writeRecord(p: i32, end: i32, id: i32, site: i32, sum: i32): void {
  put(S_NAME_ID, <f64>id);
  put(S_CATEGORY, <f64>category);
  put(S_START, <f64>p);
  put(S_END, <f64>end);
  put(S_SITE, <f64>site);
  put(S_SUM, <f64>sum);
  records++;
}

// @ts-ignore: decorator
@inline function slot(s: i32): f64 {
  return load<f64>(rec + (<usize>s << 3));
}

/**
 * The event just read (of a wanted category), where the tape sums: a cpu_op, a kernel, an API call
 * summed in the summing module (kineto-ops.ts, kineto-sums.ts), the rest kept as records for the
 * importer, which sums them after the scan. True when the scan must stop after it, as the importer
 * must sum it before the next event is summed here: an event the summing left to it, a memcpy or
 * memset (their op log rows are the importer's), an annotation (its range is a row of the trace
 * record, and it tells a generation phase, whose order matters), a GPU event whose name the tape
 * did not number (its row of the trace record, which only the importer can name).
 */
function sumEvent(p: i32, end: i32, nameStart: i32, id: i32): bool {
  // Events that are not complete (ph X) are nothing to the summary (trace-summary.ts use()).
  const complete = slot(S_PH) == 88;
  if (category == CAT_CPU_OP) {
    if (complete) sumCpuOp(nameStart, id);
    return false;
  }
  if (category == CAT_PYTHON) {
    // A frame the importer counts (trace-summary.ts pythonFrame()) tells the summing now, before the
    // events after it are summed: Python stacks are in the trace, and the host clock's base.
    if (complete && slot(S_HAS_TS) == 1 && slot(S_HAS_DUR) == 1 && nameStart >= 0 && slot(S_DUR_US) * 1000 + slot(S_DUR_FRAC) >= 0) opsFramed(slot(S_TS_US));
    writeRecord(p, end, id, -1, -1);
    return false;
  }
  if (category == CAT_CPU_ANNOTATION || category == CAT_GPU_ANNOTATION) {
    writeRecord(p, end, id, -1, -1);
    return true;
  }
  if (!complete) return false;
  const site = category <= CAT_DRIVER ? opsSiteOfEvent(slot(S_EXTERNAL_ID), slot(S_CORRELATION)) : -1;
  if (category == CAT_MEMCPY || category == CAT_MEMSET) {
    recordGpuEvent(nameStart, id);
    writeRecord(p, end, id, site, -1);
    return true;
  }
  const durNs = slot(S_DUR_US) * 1000 + slot(S_DUR_FRAC);
  if (category == CAT_KERNEL) {
    if (!recordGpuEvent(nameStart, id)) {
      writeRecord(p, end, id, site, -1);
      return true;
    }
    const device = slot(S_DEVICE);
    const pid = slot(S_PID);
    const code = opsGpuKernel(
      nameStart,
      <i32>slot(S_NAME_END),
      nameStart < 0 ? -1 : id,
      <i32>slot(S_HAS_TS),
      <i32>slot(S_HAS_DUR),
      slot(S_TS_US),
      slot(S_TS_FRAC),
      durNs,
      isInteger(device) ? device : isInteger(pid) ? pid : -1,
      slot(S_CORRELATION),
      site,
      slot(S_SHAPE),
      slot(S_SHAPE + 1),
      slot(S_SHAPE + 2),
      slot(S_SHAPE + 3),
      slot(S_SHAPE + 4),
      slot(S_SHAPE + 5),
    );
    if (code < 0) {
      writeRecord(p, end, id, site, -1);
      return true;
    }
    if ((code & 1) != 0) writeRecord(p, end, id, site, code >> 1);
    return false;
  }
  // A runtime or driver call.
  const code = opsApiCall(nameStart, <i32>slot(S_NAME_END), nameStart < 0 ? -1 : id, category, <i32>slot(S_HAS_TS), <i32>slot(S_HAS_DUR), slot(S_TS_US), slot(S_TS_FRAC), durNs);
  if (code < 0) {
    writeRecord(p, end, id, site, -1);
    return true;
  }
  if ((code & 1) != 0) writeRecord(p, end, id, site, code >> 1);
  return false;
}

export function scan(from: i32, length: i32): i32 {
  n = length;
  records = 0;
  writeBlank();
  let p = from;
  for (;;) {
    if (records == MAX_RECS || at(p) != 123) break;
    rec = TAPE + (<usize>(records * REC) << 3);
    category = CAT_PENDING;
    clearRecord();
    const end = members(p);
    if (end < 0) break;
    if (category > CAT_SKIP) {
      const nameStart = <i32>load<f64>(rec + (<usize>S_NAME_START << 3));
      const id = nameStart < 0 ? -1 : nameId(nameStart, <i32>load<f64>(rec + (<usize>S_NAME_END << 3)));
      if (summingCpuOps) {
        if (sumEvent(p, end, nameStart, id)) {
          stopKind = AFTER_EVENT;
          return end;
        }
      } else writeRecord(p, end, id, -1, -1);
    }
    // `,` and the next event's `{`; anything else (or the chunk's end) is the caller's.
    let q = ws(end);
    if (q >= 0 && at(q) == 44) q = ws(q + 1);
    else q = FAIL;
    if (q < 0 || at(q) != 123) {
      stopKind = AFTER_EVENT;
      return end;
    }
    p = q;
  }
  stopKind = AT_EVENT;
  return p;
}
