/**
 * The cpu_op events of a Kineto trace, summed in WebAssembly beside the event tape (AssemblyScript
 * source; `node wasm/build.mjs` compiles it into src/ingest/formats/kineto/tape-wasm.ts).
 *
 * The tape (wasm/kineto-tape.ts) calls cpuOp() for each cpu_op event it reads, in file order, and
 * hands the importer no record of it; the importer calls it for a cpu_op it read itself. What one op
 * does here is what launch-sites.ts describes: the ops open on its thread are popped by time, its
 * chain of enclosing ops and its site (chain, token count) are numbered in first-seen order, and its
 * External id is mapped to the site, so that a kernel read later finds the op that launched it
 * (siteOfEvent(), which the tape writes into each GPU and API record as it reads it: the link is the
 * one the trace gives at that point of the file). The trace record (trace-events.ts) is kept here
 * too, so that its rows are in file order whoever read the event: the tape records the GPU events
 * and cpu_ops it reads (recordRow()), the importer the others.
 *
 * What needs a name's text is asked of JavaScript, once per name the tape numbered: opEntry() for
 * the importer's reference for an op name, opOf() for its op id and whether it is a matmul;
 * matmulTokens() for a matmul op's token count from its Input Dims.
 *
 * The kernels and API calls are summed beside the ops, in wasm/kineto-sums.ts (exported from here:
 * one module, one memory).
 *
 * Memory: this module's own (its tables grow from the heap; nothing is freed: they live as long as
 * one trace's import).
 */

// @ts-ignore: decorator
@external('env', 'opEntry')
declare function opEntry(nameStart: i32, nameEnd: i32, nameId: i32): i32;
// @ts-ignore: decorator
@external('env', 'opOf')
declare function opOf(k: i32): i32;
// @ts-ignore: decorator
@external('env', 'matmulTokens')
declare function matmulTokens(k: i32, dimsStart: i32, dimsEnd: i32, inherited: f64, startNs: f64): f64;

const NO_TOKENS: f64 = -1;
/** Kineto writes µs with three decimals: a child's end may pass its parent's by a rounding ns. */
const NEST_SLACK_NS: f64 = 2;
/** Site keys cap the token count (id-table.ts PairIds hold 32-bit integers). */
const TOKEN_KEY_CAP: f64 = 16777215; // 2^24 - 1
/** External ids below this are kept in pages by id; others (corrupt or foreign) in a hash table. */
const DENSE_ID_LIMIT: f64 = 67108864; // 2^26
const PAGE_BITS: i32 = 14;
const PAGE_IDS: i32 = 1 << PAGE_BITS;
/** The tape numbers at most this many names (kineto-tape.ts NAME_SLOTS / 2). */
const TAPE_NAMES: i32 = 8192;

import { Block, grown, isInteger, Pairs, Table64, zeroed } from './tables';

export * from './kineto-sums';

// ---------------------------------------------------------------------------------------------
// Clocks and counts

let haveCpuOpBase = false;
let cpuOpBaseUs: f64 = 0;
let haveTraceBase = false;
let traceBaseUs: f64 = 0;
let ops: f64 = 0;
let unordered: f64 = 0;

export function opCount(): f64 {
  return ops;
}
export function unorderedCount(): f64 {
  return unordered;
}

// ---------------------------------------------------------------------------------------------
// Names: per tape name id, the importer's op-name index k + 1; per k, op id * 2 + matmul, + 1.

const kById: usize = zeroed(<usize>TAPE_NAMES << 2);
const opByK = new Block(1024 << 2);

// @ts-ignore: decorator
@inline function entryOf(nameStart: i32, nameEnd: i32, nameId: i32): i32 {
  if (nameId >= 0 && nameId < TAPE_NAMES) {
    const known = load<i32>(kById + (<usize>nameId << 2));
    if (known != 0) return known - 1;
    const k = opEntry(nameStart, nameEnd, nameId);
    store<i32>(kById + (<usize>nameId << 2), k + 1);
    return k;
  }
  return opEntry(nameStart, nameEnd, nameId);
}

function opPacked(k: i32): i32 {
  const at = opByK.fit((<usize>k + 1) << 2) + (<usize>k << 2);
  let packed = load<i32>(at);
  if (packed == 0) {
    packed = opOf(k) + 1;
    store<i32>(at, packed);
  }
  return packed - 1;
}

// ---------------------------------------------------------------------------------------------
// Chains and sites

const chainIds = new Pairs();
const siteIds = new Pairs();
/** Per chain: parent chain and op id (i32 pairs). Per site: chain (i32) and token count (f64). */
let chainNodes: usize = zeroed(1024 << 3);
let chainNodesBytes: usize = 1024 << 3;
let siteChains: usize = zeroed(1024 << 2);
let siteChainsBytes: usize = 1024 << 2;
let siteTokens: usize = zeroed(1024 << 3);
let siteTokensBytes: usize = 1024 << 3;

/** Per op id: the parent chain it was last seen under and its chain + 1 (an op mostly recurs under one parent). */
const lastChainOfOp = new Block(1024 << 3);

function chainOf(parent: i32, op: i32): i32 {
  const cacheAt = lastChainOfOp.fit((<usize>op + 1) << 3) + (<usize>op << 3);
  const cached = load<i32>(cacheAt, 4);
  if (cached != 0 && load<i32>(cacheAt) == parent) return cached - 1;
  const id = chainIds.intern(parent + 1, op);
  store<i32>(cacheAt, parent);
  store<i32>(cacheAt, id + 1, 4);
  const at = <usize>id << 3;
  if (at >= chainNodesBytes) {
    chainNodes = grown(chainNodes, chainNodesBytes, chainNodesBytes << 1);
    chainNodesBytes <<= 1;
  }
  store<i32>(chainNodes + at, parent);
  store<i32>(chainNodes + at, op, 4);
  return id;
}

/** Per chain: the token key it was last seen with and its site + 1 (a chain mostly recurs with one count). */
const lastSiteOfChain = new Block(1024 << 3);

function siteOf(chain: i32, tokens: f64): i32 {
  // As a JavaScript Int32Array stores Math.min(tokens + 1, cap): NaN (an overflowed product) is 0.
  const plusOne = tokens + 1;
  const key = <i32>(isNaN(plusOne) ? 0 : plusOne < TOKEN_KEY_CAP ? plusOne : TOKEN_KEY_CAP);
  const cacheAt = lastSiteOfChain.fit((<usize>chain + 1) << 3) + (<usize>chain << 3);
  const cached = load<i32>(cacheAt, 4);
  if (cached != 0 && load<i32>(cacheAt) == key) return cached - 1;
  const before = siteIds.size;
  const id = siteIds.intern(chain, key);
  store<i32>(cacheAt, key);
  store<i32>(cacheAt, id + 1, 4);
  if (siteIds.size != before) {
    if ((<usize>id << 3) >= siteTokensBytes) {
      siteChains = grown(siteChains, siteChainsBytes, siteChainsBytes << 1);
      siteChainsBytes <<= 1;
      siteTokens = grown(siteTokens, siteTokensBytes, siteTokensBytes << 1);
      siteTokensBytes <<= 1;
    }
    store<i32>(siteChains + (<usize>id << 2), chain);
    store<f64>(siteTokens + (<usize>id << 3), tokens);
  }
  return id;
}

export function chainCount(): i32 {
  return chainIds.size;
}
export function chainParent(chain: i32): i32 {
  return load<i32>(chainNodes + (<usize>chain << 3));
}
export function chainOp(chain: i32): i32 {
  return load<i32>(chainNodes + (<usize>chain << 3), 4);
}
export function siteCount(): i32 {
  return siteIds.size;
}
export function siteChain(site: i32): i32 {
  return load<i32>(siteChains + (<usize>site << 2));
}
export function siteTokenCount(site: i32): f64 {
  return load<f64>(siteTokens + (<usize>site << 3));
}

// ---------------------------------------------------------------------------------------------
// External id → site (id-table.ts IdTable): site + 1 per id in pages of PAGE_IDS, 0 none; 2 bytes
// an id until a site number passes 65,534, then 4 (only the pages an id reached are made: each
// fresh page of memory costs the process a fault).

let wide = false;
let pages: usize = zeroed(64 << 2);
let pagesBytes: usize = 64 << 2;
/** Ids past DENSE_ID_LIMIT (integers: one representation each), by their bits. */
const sparse = new Table64();

function setSite(id: f64, site: i32): void {
  if (id >= DENSE_ID_LIMIT) {
    sparse.set(reinterpret<u64>(id), site);
    return;
  }
  if (site + 1 > 0xffff && !wide) widen();
  const n = <i32>id;
  const page = n >>> PAGE_BITS;
  if ((<usize>page << 2) >= pagesBytes) {
    let size = pagesBytes << 1;
    while ((<usize>page << 2) >= size) size <<= 1;
    pages = grown(pages, pagesBytes, size);
    pagesBytes = size;
  }
  let base = load<usize>(pages + (<usize>page << 2));
  if (base == 0) {
    base = zeroed(<usize>PAGE_IDS << (wide ? 2 : 1));
    store<usize>(pages + (<usize>page << 2), base);
  }
  if (wide) store<i32>(base + (<usize>(n & (PAGE_IDS - 1)) << 2), site + 1);
  else store<u16>(base + (<usize>(n & (PAGE_IDS - 1)) << 1), <u16>(site + 1));
}

/** Pages of 4 bytes an id from then on, the values so far copied. */
function widen(): void {
  wide = true;
  for (let at: usize = 0; at < pagesBytes; at += 4) {
    const narrow = load<usize>(pages + at);
    if (narrow == 0) continue;
    const page = zeroed(<usize>PAGE_IDS << 2);
    for (let k = 0; k < PAGE_IDS; k++) store<i32>(page + (<usize>k << 2), <i32>load<u16>(narrow + (<usize>k << 1)));
    store<usize>(pages + at, page);
  }
}

function getSite(id: f64): i32 {
  if (!(id >= 0)) return -1;
  if (id >= DENSE_ID_LIMIT) return sparse.get(reinterpret<u64>(id));
  const n = <i32>id;
  const page = n >>> PAGE_BITS;
  if ((<usize>page << 2) >= pagesBytes) return -1;
  const base = load<usize>(pages + (<usize>page << 2));
  if (base == 0) return -1;
  if (wide) return load<i32>(base + (<usize>(n & (PAGE_IDS - 1)) << 2)) - 1;
  return <i32>load<u16>(base + (<usize>(n & (PAGE_IDS - 1)) << 1)) - 1;
}

/** The site of the op an event's External id names, or -1 (none, or an op not read yet). */
export function siteOfEvent(externalId: f64, correlation: f64): i32 {
  // Old traces give GPU events the correlation id as External id: that names no op.
  if (!isInteger(externalId) || externalId == correlation) return -1;
  return getSite(externalId);
}

// ---------------------------------------------------------------------------------------------
// Ops open per thread: threads by tid (NaN one thread, -0 the same as 0, as a JavaScript Map
// keys them), each a stack of (start, end, tokens, chain) rows of 32 bytes.

/** Stack index by thread key. */
const threads = new Table64();
let threadCount: i32 = 0;
/** Per stack: base, length, capacity (rows), 12 bytes → 16. */
let stacks: usize = zeroed(64 << 4);
let stacksBytes: usize = 64 << 4;
let lastThreadBits: u64 = 0;
let lastStack: i32 = -1;

// @ts-ignore: decorator
@inline function threadKey(tid: f64): u64 {
  if (isNaN(tid)) return 0x7ff8000000000000;
  return reinterpret<u64>(tid == 0 ? 0 : tid);
}

function stackOf(tid: f64): i32 {
  const key = threadKey(tid);
  if (lastStack >= 0 && key == lastThreadBits) return lastStack;
  let index = threads.get(key);
  if (index < 0) {
    index = threadCount++;
    threads.set(key, index);
    if ((<usize>threadCount << 4) > stacksBytes) {
      stacks = grown(stacks, stacksBytes, stacksBytes << 1);
      stacksBytes <<= 1;
    }
    const s = stacks + (<usize>index << 4);
    store<usize>(s, zeroed(64 << 5));
    store<i32>(s, 0, 4);
    store<i32>(s, 64, 8);
  }
  lastThreadBits = key;
  lastStack = index;
  return index;
}

// ---------------------------------------------------------------------------------------------
// The trace record (model/trace-events.ts), written here in file order: the tape records the GPU
// events and cpu_ops it reads, the importer the events it reads itself and the ranges (the tape
// stops after an annotation, so that they come in order). Columns of `capacity` rows, made once;
// each class (GPU events, host events) kept up to its cap. A row's name is a reference: >= 0 the
// tape's name id, < 0 the importer's name -(ref + 1); the importer numbers the names at the end.

// Kinds, as TRACE_EVENT_KINDS numbers them.
const KIND_RANGE: i32 = 3;
const KIND_CPU_OP: i32 = 4;
const HOST_DEVICE: i32 = -1;

let gpuCap: f64 = 0;
let hostCap: f64 = 0;
let gpuKept: f64 = 0;
let hostKept: f64 = 0;
/** Events seen per kind, kept or not (5 f64). */
const seen: usize = zeroed(5 << 3);
let rowCount: i32 = 0;
let rowStart: usize = 0;
let rowDur: usize = 0;
let rowLane: usize = 0;
let rowDevice: usize = 0;
let rowName: usize = 0;
let rowKind: usize = 0;

/** Starts a trace: its record's caps per class (all the rows it can keep: the columns are made once). */
export function init(gpu: f64, host: f64): void {
  gpuCap = gpu;
  hostCap = host;
  const rows = <usize>(gpu + host);
  rowStart = heap.alloc(rows << 3);
  rowDur = heap.alloc(rows << 3);
  rowLane = heap.alloc(rows << 3);
  rowDevice = heap.alloc(rows << 2);
  rowName = heap.alloc(rows << 2);
  rowKind = heap.alloc(rows);
}

/** ToInt32, as an Int32Array stores a number. */
function toInt32(x: f64): i32 {
  if (!isFinite(x)) return 0;
  if (Math.abs(x) < 9.2e18) return <i32><i64>x;
  let m = Math.trunc(x) % 4294967296;
  if (m < 0) m += 4294967296;
  return <i32><u32>m;
}

/**
 * One event for the trace record (TraceEvents.addKind): counted as seen, kept when its class is
 * under its cap and its start and duration are times; its start on the record's one clock, the ts
 * of the first event recorded.
 */
export function recordRow(kind: i32, name: i32, tsUs: f64, tsFrac: f64, durNs: f64, device: f64, lane: f64): void {
  if (!haveTraceBase) {
    haveTraceBase = true;
    traceBaseUs = tsUs;
  }
  const startNs = (tsUs - traceBaseUs) * 1000 + tsFrac;
  store<f64>(seen + (<usize>kind << 3), load<f64>(seen + (<usize>kind << 3)) + 1);
  const host = kind >= KIND_RANGE;
  if ((host ? hostKept >= hostCap : gpuKept >= gpuCap) || !isFinite(startNs) || !isFinite(durNs) || durNs < 0) return;
  if (host) hostKept += 1;
  else gpuKept += 1;
  const at = <usize>rowCount;
  store<f64>(rowStart + (at << 3), startNs);
  store<f64>(rowDur + (at << 3), durNs);
  store<f64>(rowLane + (at << 3), isFinite(lane) ? lane : 0);
  store<i32>(rowDevice + (at << 2), toInt32(device));
  store<i32>(rowName + (at << 2), name);
  store<u8>(rowKind + at, <u8>kind);
  rowCount++;
}

export function rows(): i32 {
  return rowCount;
}

/** Rows kept of the host class (ranges, cpu_ops) when `host` is 1, else of the GPU class. */
export function rowsKept(host: i32): f64 {
  return host ? hostKept : gpuKept;
}

/** By name number (numberNames()): the reference it stands for, and the first row that had it. */
let numberRefs: usize = 0;
let firstRows: usize = 0;

/**
 * Numbers the rows' name references in order of first use, in place (0 for the first row's, 1 for
 * the next reference not seen before, …), and keeps each number's reference and first row
 * (numberRefsAt(), firstRowsAt()): the importer then names each number once, and no pass over the
 * rows is left to JavaScript. Returns how many numbers, or -1 (nothing changed) where the
 * references spread wider than a table by their offset from the least would fit
 * (TraceEvents.fromColumns then numbers them itself).
 */
export function numberNames(): i32 {
  if (rowCount == 0) return 0;
  let least = load<i32>(rowName);
  let most = least;
  for (let row = 1; row < rowCount; row++) {
    const ref = load<i32>(rowName + (<usize>row << 2));
    if (ref < least) least = ref;
    if (ref > most) most = ref;
  }
  const span = <i64>most - <i64>least + 1;
  if (span > (<i64>rowCount << 2) + 65536) return -1;
  // The number + 1 of each reference (0: not seen yet), by its offset from the least.
  const numberOf = zeroed(<usize>span << 2);
  const numbersBytes = <usize>min<i64>(span, <i64>rowCount) << 2;
  numberRefs = zeroed(numbersBytes);
  firstRows = zeroed(numbersBytes);
  let numbers: i32 = 0;
  for (let row = 0; row < rowCount; row++) {
    const at = rowName + (<usize>row << 2);
    const ref = load<i32>(at);
    const slot = numberOf + (<usize>(ref - least) << 2);
    let number = load<i32>(slot) - 1;
    if (number < 0) {
      number = numbers++;
      store<i32>(slot, number + 1);
      store<i32>(numberRefs + (<usize>number << 2), ref);
      store<i32>(firstRows + (<usize>number << 2), row);
    }
    store<i32>(at, number);
  }
  return numbers;
}

export function numberRefsAt(): usize {
  return numberRefs;
}
export function firstRowsAt(): usize {
  return firstRows;
}

/** A column's written rows, `width` bytes each, with the allocator's header before it (scrub()). */
function wipeColumn(at: usize, width: usize): void {
  memory.fill(at - 16, 0, 16 + <usize>rowCount * width);
}

/**
 * Zeroes every byte this instance wrote, so that the memory reads as a fresh one to the next
 * instance given it (src/ingest/formats/kineto/wasm-runtime.ts): the statics and the tables made
 * before init(), the written rows of each column, the tables grown after. A column's unwritten
 * rows were never touched: they stay zero, and stay out of the resident set.
 */
export function scrub(): void {
  const top = heap.alloc(0) + 16;
  if (rowStart == 0) {
    memory.fill(0, 0, top);
    return;
  }
  memory.fill(0, 0, rowStart);
  wipeColumn(rowStart, 8);
  wipeColumn(rowDur, 8);
  wipeColumn(rowLane, 8);
  wipeColumn(rowDevice, 4);
  wipeColumn(rowName, 4);
  wipeColumn(rowKind, 1);
  const columnsEnd = rowKind + <usize>(gpuCap + hostCap);
  memory.fill(columnsEnd, 0, top - columnsEnd);
}

export function rowsSeen(kind: i32): f64 {
  return load<f64>(seen + (<usize>kind << 3));
}
export function rowStartAt(): usize {
  return rowStart;
}
export function rowDurAt(): usize {
  return rowDur;
}
export function rowLaneAt(): usize {
  return rowLane;
}
export function rowDeviceAt(): usize {
  return rowDevice;
}
export function rowNameAt(): usize {
  return rowName;
}
export function rowKindAt(): usize {
  return rowKind;
}

// ---------------------------------------------------------------------------------------------

/**
 * One cpu_op event (ph X), as the tape or the importer read it: name range and tape id, ts and dur
 * (whole µs and ns), thread, External id, Input Dims range. Its row of the trace record names it by
 * the importer's reference for its name (opEntry()).
 */
export function cpuOp(nameStart: i32, nameEnd: i32, nameId: i32, hasTs: i32, tsUs: f64, tsFrac: f64, hasDur: i32, durUs: f64, durFrac: f64, tid: f64, externalId: f64, dimsStart: i32, dimsEnd: i32): void {
  if (hasTs != 1 || hasDur != 1 || nameStart < 0) return;
  if (!haveCpuOpBase) {
    haveCpuOpBase = true;
    cpuOpBaseUs = tsUs;
  }
  const durNs = durUs * 1000 + durFrac;
  const k = entryOf(nameStart, nameEnd, nameId);
  recordRow(KIND_CPU_OP, -(k + 1), tsUs, tsFrac, durNs, HOST_DEVICE, tid);
  // Its place among the ops open on its thread (launch-sites.ts op()).
  const packed = opPacked(k);
  const start = (tsUs - cpuOpBaseUs) * 1000 + tsFrac;
  const end = start + durNs;
  ops += 1;
  const stack = stacks + (<usize>stackOf(tid) << 4);
  let rowsAt = load<usize>(stack);
  let depth = load<i32>(stack, 4);
  if (depth > 0 && start < load<f64>(rowsAt + (<usize>(depth - 1) << 5))) unordered += 1;
  // Closed ops leave; so does one this op is not inside (µs rounding can cross ends by a ns or two).
  while (depth > 0) {
    const lastEnd = load<f64>(rowsAt + (<usize>(depth - 1) << 5), 8);
    if (lastEnd > start + NEST_SLACK_NS && end <= lastEnd + NEST_SLACK_NS) break;
    depth--;
  }
  const top = rowsAt + (<usize>(depth - 1) << 5);
  const parent = depth > 0 ? load<i32>(top, 24) : -1;
  const chain = chainOf(parent, packed >> 1);
  const inherited = depth > 0 ? load<f64>(top, 16) : NO_TOKENS;
  // Without Input Dims (a trace recorded without shapes) a matmul has no M of its own: no call to ask.
  const tokens = (packed & 1) != 0 && dimsStart >= 0 ? matmulTokens(k, dimsStart, dimsEnd, inherited, start) : inherited;
  const capacity = load<i32>(stack, 8);
  if (depth == capacity) {
    rowsAt = grown(rowsAt, <usize>capacity << 5, <usize>capacity << 6);
    store<usize>(stack, rowsAt);
    store<i32>(stack, capacity << 1, 8);
  }
  const row = rowsAt + (<usize>depth << 5);
  store<f64>(row, start);
  store<f64>(row, end, 8);
  store<f64>(row, tokens, 16);
  store<i32>(row, chain, 24);
  store<i32>(stack, depth + 1, 4);
  if (isInteger(externalId) && externalId >= 0) setSite(externalId, siteOf(chain, tokens));
}
