/**
 * The kernels and API calls of a Kineto trace, summed in WebAssembly beside the event tape
 * (AssemblyScript; compiled with wasm/kineto-ops.ts into one module by wasm/build.mjs).
 *
 * One owner, in file order: the tape calls gpuKernel() and apiCall() for each kernel and API call it
 * reads, the importer sumKernel() and sumApi() for one it read itself (trace-summary.ts), so that
 * what depends on order (the first-seen order of devices, launch shapes and launch sites, the op
 * log's rows) is the file's whoever read the event. What one event does here is what
 * trace-summary.ts's kernel() and apiCall() did with it in JavaScript:
 *  - a kernel: its (name, device) sums (time, count, least, most), its launch shape, its launch
 *    site (the cpu_op summing's, siteOfEvent()), its row of the op log;
 *  - an API call: its name's time and count; a launch call sets the host clock.
 * What needs JavaScript stays there, in order: the tape hands the importer a record of an event
 * whose sums are made here (S_SUM) only when the importer has more to do with it (Python stacks
 * are in the trace, or a CUDA-graph capture began; a graph launch or capture call), and leaves an
 * event to the importer whole (and stops after it) where the importer's checks decide (no time, a
 * bad duration, a timestamp too far from the first, the clock not set yet, a name it did not number).
 *
 * What needs a name's text is asked of JavaScript once per name the tape numbered: kernelEntry()
 * (the importer's index of the kernel name, k << 1, and whether it is a collective), apiEntry() (of
 * the API name, k << API_ROLE_BITS, and what the call is: a kernel launch, a graph launch, its role
 * in a stream capture).
 */
import { Block, Pairs, Table64, zeroed } from './tables';

// @ts-ignore: decorator
@external('env', 'kernelEntry')
declare function kernelEntry(nameStart: i32, nameEnd: i32, nameId: i32): i32;
// @ts-ignore: decorator
@external('env', 'apiEntry')
declare function apiEntry(nameStart: i32, nameEnd: i32, nameId: i32): i32;

/** The tape numbers at most this many names (kineto-tape.ts NAME_SLOTS / 2). */
const TAPE_NAMES: i32 = 8192;
/** HTA drops longer events: CUPTI timestamp overflow, not real work (trace-summary.ts MAX_DURATION_NS). */
const MAX_DURATION_NS: f64 = 7 * 24 * 3600 * 1e9;
/** How far a timed event may start from the trace's first one (trace-summary.ts MAX_FROM_FIRST_NS). */
const MAX_FROM_FIRST_NS: f64 = 30 * 24 * 3600 * 1e9;

/** What gpuKernel() and apiCall() return: left to the importer, or summed (then `ref << 1 | record wanted`). */
const LEFT = -1;

// The op log's kinds (common/timeline.ts).
const OP_KERNEL: i32 = 1;
const OP_COLLECTIVE: i32 = 2;
// What an API call is (apiEntry()'s low bits; trace-summary.ts apiCall()).
const API_LAUNCH: i32 = 1;
const API_GRAPH_LAUNCH: i32 = 2;
const API_CAPTURE_SHIFT: i32 = 2;
/** Bits of what the call is, below the name index: launch, graph launch, two of its capture role. */
const API_ROLE_BITS: i32 = 4;
const CAPTURE_BEGIN: i32 = 1;
// Categories, as categories.ts numbers them.
const CAT_KERNEL: i32 = 2;

// ---------------------------------------------------------------------------------------------
// Clocks, what the trace has shown, counts

/** The GPU and API events' clock (the ts of the first timed one), set by the importer. */
let gpuBaseSet = false;
let gpuBaseUs: f64 = 0;
/** The host clock of Python frames and launch calls: the ts of the first of either. */
let hostBaseSet = false;
let hostBaseUs: f64 = 0;
/** Python frames are in the trace (python-frames.ts active), a capture began (graph-captures.ts active). */
let pythonActive = false;
let capturing = false;
let launchesBeforeFrames: f64 = 0;
let attributed: f64 = 0;
let unlinked: f64 = 0;
/** The categories summed, in the order first seen (trace-summary.ts categories). */
const categoryOrder: usize = zeroed(32);
const categoryKnown: usize = zeroed(32);
let categoryCount: i32 = 0;

export function setGpuBase(us: f64): void {
  gpuBaseSet = true;
  gpuBaseUs = us;
}

/** The host clock's base, set to `us` if this is the first event on it. */
export function hostBase(us: f64): f64 {
  if (!hostBaseSet) {
    hostBaseSet = true;
    hostBaseUs = us;
  }
  return hostBaseUs;
}

/** A Python frame at `us` is counted: Python stacks are in the trace; the host clock's base. */
export function framed(us: f64): f64 {
  pythonActive = true;
  return hostBase(us);
}

export function setCapturing(): void {
  capturing = true;
}

export function seeCategory(category: i32): void {
  if (load<u8>(categoryKnown + <usize>category) != 0) return;
  store<u8>(categoryKnown + <usize>category, 1);
  store<u8>(categoryOrder + <usize>categoryCount, <u8>category);
  categoryCount++;
}
export function categoriesSeen(): i32 {
  return categoryCount;
}
export function categorySeenAt(k: i32): i32 {
  return <i32>load<u8>(categoryOrder + <usize>k);
}
export function launchesBeforeFrameCount(): f64 {
  return launchesBeforeFrames;
}
export function attributedCount(): f64 {
  return attributed;
}
export function unlinkedCount(): f64 {
  return unlinked;
}

// ---------------------------------------------------------------------------------------------
// Names: per tape name id, the importer's entry (packed as kernelEntry() and apiEntry() give it) + 1.

const kernelById: usize = zeroed(<usize>TAPE_NAMES << 2);
const apiById: usize = zeroed(<usize>TAPE_NAMES << 2);

function entryById(table: usize, nameStart: i32, nameEnd: i32, nameId: i32, api: bool): i32 {
  const at = table + (<usize>nameId << 2);
  const known = load<i32>(at);
  if (known != 0) return known - 1;
  const packed = api ? apiEntry(nameStart, nameEnd, nameId) : kernelEntry(nameStart, nameEnd, nameId);
  store<i32>(at, packed + 1);
  return packed;
}

// ---------------------------------------------------------------------------------------------
// Kernel sums: one per (kernel name, device), numbered in first-seen order.

/**
 * Per sum, SUM_BYTES: name index k (i32 0), first and last launch shape + 1 (4, 8), the shape last
 * added to + 1 (12), first and last site entry + 1 (16, 20), the site entry last added to + 1 (24);
 * device (f64 32), time (40), count (48), least (56), most (64).
 */
const SUM_BYTES: usize = 72;
const sums = new Block(256 * SUM_BYTES);
let sumCount: i32 = 0;
const sumIds = new Pairs();
/** Devices by their bits (-0 as 0, as a Map keys them), numbered in first-seen order. */
const devices = new Table64();
let deviceCount: i32 = 0;
/** Per name index k: the sum last added to + 1 (a kernel name's events are mostly on one device). */
const lastSumOfK = new Block(1024 << 2);

export function kernelSumCount(): i32 {
  return sumCount;
}
export function sumName(s: i32): i32 {
  return load<i32>(sums.at + <usize>s * SUM_BYTES);
}
export function sumDevice(s: i32): f64 {
  return load<f64>(sums.at + <usize>s * SUM_BYTES, 32);
}
export function sumTotalNs(s: i32): f64 {
  return load<f64>(sums.at + <usize>s * SUM_BYTES, 40);
}
export function sumInstances(s: i32): f64 {
  return load<f64>(sums.at + <usize>s * SUM_BYTES, 48);
}
export function sumMinNs(s: i32): f64 {
  return load<f64>(sums.at + <usize>s * SUM_BYTES, 56);
}
export function sumMaxNs(s: i32): f64 {
  return load<f64>(sums.at + <usize>s * SUM_BYTES, 64);
}

function sumOf(k: i32, device: f64): i32 {
  const lastAt = lastSumOfK.fit((<usize>k + 1) << 2) + (<usize>k << 2);
  const last = load<i32>(lastAt) - 1;
  if (last >= 0 && load<f64>(sums.at + <usize>last * SUM_BYTES, 32) == device) return last;
  const bits = reinterpret<u64>(device == 0 ? 0 : device);
  let d = devices.get(bits);
  if (d < 0) {
    d = deviceCount++;
    devices.set(bits, d);
  }
  const s = sumIds.intern(k, d);
  if (s == sumCount) {
    const at = sums.fit(<usize>(s + 1) * SUM_BYTES) + <usize>s * SUM_BYTES;
    store<i32>(at, k);
    store<f64>(at, device == 0 ? 0 : device, 32);
    store<f64>(at, Infinity, 56);
    sumCount++;
  }
  store<i32>(lastAt, s + 1);
  return s;
}

// ---------------------------------------------------------------------------------------------
// Launch shapes (grid x,y,z then block x,y,z) per sum and the time in each, in first-seen order:
// entries of SHAPE_BYTES (six dims, ns 48, next entry + 1 56, sum
// 60), found by an open-addressing table of entry + 1 hashed on the sum and the dims.

const SHAPE_BYTES: usize = 64;
const shapes = new Block(256 * SHAPE_BYTES);
let shapeCount: i32 = 0;
let shapeSlots: usize = zeroed(512 << 2);
let shapeMask: u32 = 511;

/** Equal, or both absent (NaN), as sameDim() compares. */
// @ts-ignore: decorator
@inline function sameDim(a: f64, b: f64): bool {
  return a == b || (a != a && b != b);
}

/** A dim's bits for hashing: every NaN one, -0 as 0 (they compare equal). */
// @ts-ignore: decorator
@inline function dimBits(x: f64): u64 {
  return x != x ? 0x7ff8000000000000 : reinterpret<u64>(x == 0 ? 0 : x);
}

function shapeHash(s: i32, g0: f64, g1: f64, g2: f64, b0: f64, b1: f64, b2: f64): u32 {
  let h: u64 = <u64>s * 0x9e3779b97f4a7c15;
  h = (h ^ dimBits(g0)) * 0xc2b2ae3d27d4eb4f;
  h = (h ^ dimBits(g1)) * 0x9e3779b97f4a7c15;
  h = (h ^ dimBits(g2)) * 0xc2b2ae3d27d4eb4f;
  h = (h ^ dimBits(b0)) * 0x9e3779b97f4a7c15;
  h = (h ^ dimBits(b1)) * 0xc2b2ae3d27d4eb4f;
  h = (h ^ dimBits(b2)) * 0x9e3779b97f4a7c15;
  return <u32>(h >> 32);
}

function sameShape(e: i32, g0: f64, g1: f64, g2: f64, b0: f64, b1: f64, b2: f64): bool {
  const at = shapes.at + <usize>e * SHAPE_BYTES;
  return (
    sameDim(load<f64>(at), g0) &&
    sameDim(load<f64>(at, 8), g1) &&
    sameDim(load<f64>(at, 16), g2) &&
    sameDim(load<f64>(at, 24), b0) &&
    sameDim(load<f64>(at, 32), b1) &&
    sameDim(load<f64>(at, 40), b2)
  );
}

function addShape(s: i32, g0: f64, g1: f64, g2: f64, b0: f64, b1: f64, b2: f64, ns: f64): void {
  const sum = sums.at + <usize>s * SUM_BYTES;
  const last = load<i32>(sum, 12) - 1;
  if (last >= 0 && sameShape(last, g0, g1, g2, b0, b1, b2)) {
    store<f64>(shapes.at + <usize>last * SHAPE_BYTES, load<f64>(shapes.at + <usize>last * SHAPE_BYTES, 48) + ns, 48);
    return;
  }
  let slot = shapeHash(s, g0, g1, g2, b0, b1, b2) & shapeMask;
  for (;;) {
    const e = load<i32>(shapeSlots + (<usize>slot << 2)) - 1;
    if (e < 0) break;
    if (load<i32>(shapes.at + <usize>e * SHAPE_BYTES, 60) == s && sameShape(e, g0, g1, g2, b0, b1, b2)) {
      store<f64>(shapes.at + <usize>e * SHAPE_BYTES, load<f64>(shapes.at + <usize>e * SHAPE_BYTES, 48) + ns, 48);
      store<i32>(sum, e + 1, 12);
      return;
    }
    slot = (slot + 1) & shapeMask;
  }
  const e = shapeCount++;
  const at = shapes.fit(<usize>(e + 1) * SHAPE_BYTES) + <usize>e * SHAPE_BYTES;
  store<f64>(at, g0);
  store<f64>(at, g1, 8);
  store<f64>(at, g2, 16);
  store<f64>(at, b0, 24);
  store<f64>(at, b1, 32);
  store<f64>(at, b2, 40);
  store<f64>(at, ns, 48);
  store<i32>(at, s, 60);
  const tail = load<i32>(sum, 8) - 1;
  if (tail < 0) store<i32>(sum, e + 1, 4);
  else store<i32>(shapes.at + <usize>tail * SHAPE_BYTES, e + 1, 56);
  store<i32>(sum, e + 1, 8);
  store<i32>(sum, e + 1, 12);
  store<i32>(shapeSlots + (<usize>slot << 2), e + 1);
  if (<u32>shapeCount * 2 > shapeMask + 1) reindexShapes();
}

function reindexShapes(): void {
  const size = (shapeMask + 1) << 1;
  shapeSlots = zeroed(<usize>size << 2);
  shapeMask = size - 1;
  for (let e = 0; e < shapeCount; e++) {
    const at = shapes.at + <usize>e * SHAPE_BYTES;
    let slot = shapeHash(load<i32>(at, 60), load<f64>(at), load<f64>(at, 8), load<f64>(at, 16), load<f64>(at, 24), load<f64>(at, 32), load<f64>(at, 40)) & shapeMask;
    while (load<i32>(shapeSlots + (<usize>slot << 2)) != 0) slot = (slot + 1) & shapeMask;
    store<i32>(shapeSlots + (<usize>slot << 2), e + 1);
  }
}

/** The sum's launch shape with the most time (the first of equals), or -1 (LaunchShapes.best()). */
export function bestShape(s: i32): i32 {
  let best = -1;
  let bestNs: f64 = 0;
  for (let e = load<i32>(sums.at + <usize>s * SUM_BYTES, 4) - 1; e >= 0; e = load<i32>(shapes.at + <usize>e * SHAPE_BYTES, 56) - 1) {
    const ns = load<f64>(shapes.at + <usize>e * SHAPE_BYTES, 48);
    if (best < 0 || ns > bestNs) {
      best = e;
      bestNs = ns;
    }
  }
  return best;
}
export function shapeDim(e: i32, k: i32): f64 {
  return load<f64>(shapes.at + <usize>e * SHAPE_BYTES + (<usize>k << 3));
}

// ---------------------------------------------------------------------------------------------
// Time per launch site per sum, in first-seen order: entries of 16 bytes
// (site 0, next entry + 1 4, ns 8), found by (sum, site).

const siteEntries = new Block(256 << 4);
let siteEntryCount: i32 = 0;
const siteEntryIds = new Table64();

function addSite(s: i32, site: i32, ns: f64): void {
  const sum = sums.at + <usize>s * SUM_BYTES;
  const last = load<i32>(sum, 24) - 1;
  if (last >= 0 && load<i32>(siteEntries.at + (<usize>last << 4)) == site) {
    store<f64>(siteEntries.at + (<usize>last << 4), load<f64>(siteEntries.at + (<usize>last << 4), 8) + ns, 8);
    return;
  }
  const key = (<u64><u32>s << 32) | <u64><u32>site;
  let e = siteEntryIds.get(key);
  if (e < 0) {
    e = siteEntryCount++;
    siteEntryIds.set(key, e);
    siteEntries.fit(<usize>siteEntryCount << 4);
    store<i32>(siteEntries.at + (<usize>e << 4), site);
    const tail = load<i32>(sum, 20) - 1;
    if (tail < 0) store<i32>(sum, e + 1, 16);
    else store<i32>(siteEntries.at + (<usize>tail << 4), e + 1, 4);
    store<i32>(sum, e + 1, 20);
  }
  store<f64>(siteEntries.at + (<usize>e << 4), load<f64>(siteEntries.at + (<usize>e << 4), 8) + ns, 8);
  store<i32>(sum, e + 1, 24);
}

/** The sum's first site entry, or -1; then siteNext(e) until -1. */
export function siteFirst(s: i32): i32 {
  return load<i32>(sums.at + <usize>s * SUM_BYTES, 16) - 1;
}
export function siteNext(e: i32): i32 {
  return load<i32>(siteEntries.at + (<usize>e << 4), 4) - 1;
}
export function siteKey(e: i32): i32 {
  return load<i32>(siteEntries.at + (<usize>e << 4));
}
export function siteNs(e: i32): f64 {
  return load<f64>(siteEntries.at + (<usize>e << 4), 8);
}

/**
 * A graph replay's kernel, counted unlinked when read, now tied to the site of the launch its
 * graph's capture made (launch-sites.ts replayed()).
 */
export function siteReplayed(s: i32, site: i32, ns: f64): void {
  if (site < 0) return;
  unlinked -= 1;
  attributed += 1;
  addSite(s, site, ns);
}

/**
 * One kernel's sums (trace-summary.ts kernel()): `k` the importer's index of its name, `site` its
 * launch site (-1 none). Returns its sum. The op log's row is the caller's.
 */
export function sumKernel(k: i32, device: f64, durNs: f64, site: i32, g0: f64, g1: f64, g2: f64, b0: f64, b1: f64, b2: f64): i32 {
  const s = sumOf(k, device);
  const at = sums.at + <usize>s * SUM_BYTES;
  store<f64>(at, load<f64>(at, 40) + durNs, 40);
  store<f64>(at, load<f64>(at, 48) + 1, 48);
  if (durNs < load<f64>(at, 56)) store<f64>(at, durNs, 56);
  if (durNs > load<f64>(at, 64)) store<f64>(at, durNs, 64);
  if (g0 == g0 || b0 == b0) addShape(s, g0, g1, g2, b0, b1, b2, durNs);
  if (site >= 0) {
    attributed += 1;
    addSite(s, site, durNs);
  } else unlinked += 1;
  return s;
}

// ---------------------------------------------------------------------------------------------
// The op log's rows of the kernels summed here (common/timeline.ts OpLog), in file order: the
// importer moves them into its op log after each scan (opRowsTaken()), before it sums the events the
// scan left it. Five f64 a row: start, end, correlation, device (as read), kind.

const OP_ROW_BYTES: usize = 40;
/** Rows one scan writes at most: a kernel past them is left to the importer, and the scan stops. */
const OP_ROWS: i32 = 16384;
const opRows: usize = zeroed(<usize>OP_ROWS * OP_ROW_BYTES);
let opRowCount: i32 = 0;

export function opRowsAt(): usize {
  return opRows;
}
export function opRowsWritten(): i32 {
  return opRowCount;
}
export function opRowsTaken(): void {
  opRowCount = 0;
}

// ---------------------------------------------------------------------------------------------
// API calls: time and count per name index k.

const apiSums = new Block(256 << 4);

export function sumApi(k: i32, durNs: f64): void {
  const at = apiSums.fit((<usize>k + 1) << 4) + (<usize>k << 4);
  store<f64>(at, load<f64>(at) + durNs);
  store<f64>(at, load<f64>(at, 8) + 1, 8);
}
export function apiTotalNs(k: i32): f64 {
  const at = <usize>k << 4;
  return at < apiSums.bytes ? load<f64>(apiSums.at + at) : 0;
}
export function apiCalls(k: i32): f64 {
  const at = <usize>k << 4;
  return at < apiSums.bytes ? load<f64>(apiSums.at + at, 8) : 0;
}

// ---------------------------------------------------------------------------------------------
// The tape's events

/**
 * The checks trace-summary.ts use() makes of a timed GPU or API event before it sums it: a ts and a
 * dur, a duration within 0 to 7 days, the clock set, the start within 30 days of it. Returns the
 * start (ns on the clock), or NaN where the importer must see the event.
 */
function startIfSummable(hasTs: i32, hasDur: i32, tsUs: f64, tsFrac: f64, durNs: f64): f64 {
  if (hasTs != 1 || hasDur != 1 || !gpuBaseSet || durNs < 0 || durNs > MAX_DURATION_NS) return NaN;
  const startNs = (tsUs - gpuBaseUs) * 1000 + tsFrac;
  return Math.abs(startNs) <= MAX_FROM_FIRST_NS ? startNs : NaN;
}

/**
 * A complete kernel event the tape read (`nameId` >= 0, its name numbered): summed, with its row of
 * the op log (unless the rows are full: then left to the importer). Returns LEFT (the importer sums it: the tape stops after it), or s << 1 | 1 when the
 * importer has more to do with it (Python stacks, a capture), s << 1 when not.
 */
export function gpuKernel(nameStart: i32, nameEnd: i32, nameId: i32, hasTs: i32, hasDur: i32, tsUs: f64, tsFrac: f64, durNs: f64, device: f64, correlation: f64, site: i32, g0: f64, g1: f64, g2: f64, b0: f64, b1: f64, b2: f64): i32 {
  // The op log's rows full: the importer takes them in, then sums this kernel.
  if (nameId < 0 || nameId >= TAPE_NAMES || opRowCount == OP_ROWS) return LEFT;
  const startNs = startIfSummable(hasTs, hasDur, tsUs, tsFrac, durNs);
  if (startNs != startNs) return LEFT;
  seeCategory(CAT_KERNEL);
  const packed = entryById(kernelById, nameStart, nameEnd, nameId, false);
  const s = sumKernel(packed >> 1, device, durNs, site, g0, g1, g2, b0, b1, b2);
  const row = opRows + <usize>opRowCount * OP_ROW_BYTES;
  store<f64>(row, startNs);
  store<f64>(row, startNs + durNs, 8);
  store<f64>(row, correlation, 16);
  store<f64>(row, device, 24);
  store<f64>(row, <f64>((packed & 1) != 0 ? OP_COLLECTIVE : OP_KERNEL), 32);
  opRowCount++;
  return (s << 1) | (pythonActive || capturing ? 1 : 0);
}

/**
 * A complete runtime or driver call the tape read: summed. Returns LEFT (the importer sums it: the
 * tape stops after it), or k << 1 | 1 when the importer has more to do with it (a graph launch, a
 * capture call, a kernel launch once Python stacks are in the trace), k << 1 when not.
 */
export function apiCall(nameStart: i32, nameEnd: i32, nameId: i32, category: i32, hasTs: i32, hasDur: i32, tsUs: f64, tsFrac: f64, durNs: f64): i32 {
  if (nameId < 0 || nameId >= TAPE_NAMES) return LEFT;
  const startNs = startIfSummable(hasTs, hasDur, tsUs, tsFrac, durNs);
  if (startNs != startNs) return LEFT;
  seeCategory(category);
  const packed = entryById(apiById, nameStart, nameEnd, nameId, true);
  const k = packed >> API_ROLE_BITS;
  sumApi(k, durNs);
  const launch = (packed & API_LAUNCH) != 0;
  const graphLaunch = (packed & API_GRAPH_LAUNCH) != 0;
  const capture = (packed >> API_CAPTURE_SHIFT) & 3;
  if (!launch && !graphLaunch && capture == 0) return k << 1;
  // The importer's apiCall() takes the host clock for a launch and for a capture call.
  hostBase(tsUs);
  if (capture == CAPTURE_BEGIN) capturing = true;
  // What the importer does with the call (trace-summary.ts apiCall()): a graph launch always tells
  // it something; a capture call once a capture began (this one, or one before: graph-captures.ts
  // has none open before); a kernel launch once Python frames are in the trace (python-frames.ts),
  // and before that it is only counted.
  const wanted = graphLaunch || (capture != 0 && capturing) || (launch && pythonActive);
  if (!wanted && launch) launchesBeforeFrames += 1;
  return (k << 1) | (wanted ? 1 : 0);
}
