/**
 * A lower bound for summing the Kineto tape's records in WebAssembly (bench reference,
 * AssemblyScript): the tape (wasm/kineto-tape.ts, re-exported unchanged) and, beside it, sumRecords()
 * doing per record what the importer's summing does on its common path, with no string made and no
 * call into JavaScript:
 *  - kernels, copies and API calls: sums by name id (total, count, min, max); a kernel's launch shape
 *    and its launch site's time in pair tables; GPU ops appended to an op log;
 *  - cpu_op: the thread's open ops popped by time, the op's chain (parent, name) and site interned,
 *    its External id mapped to the site;
 *  - python_function: the thread's open frames popped by time and the frame pushed;
 *  - every kernel, copy, cpu_op and range appended to a capped trace record.
 * Left out, so that this stays a lower bound: names decoded, matmul shapes, graph captures, step
 * windows, collective kinds, a frame's kind, the checks on each value, and every result's reading.
 *
 * Memory: the tape's, then from SUM on the tables below (the caller grows memory to SUM_END first).
 */
export * from '../../wasm/kineto-tape';
import { tapeAt, recordCount } from '../../wasm/kineto-tape';

// The tape's record layout and categories (wasm/kineto-tape.ts keeps them private to the module,
// as src/ingest/formats/kineto/tape.ts mirrors them for JavaScript).
const REC = 29;
const S_CATEGORY = 0;
const S_PH = 3;
const S_PID = 6;
const S_TID = 7;
const S_TS_US = 9;
const S_TS_FRAC = 10;
const S_DUR_US = 12;
const S_DUR_FRAC = 13;
const S_DEVICE = 14;
const S_STREAM = 15;
const S_CORRELATION = 16;
const S_EXTERNAL_ID = 17;
const S_SHAPE = 21;
const S_SHAPE_SET = 27;
const S_NAME_ID = 28;
const CAT_KERNEL = 2;
const CAT_MEMCPY = 3;
const CAT_MEMSET = 4;
const CAT_RUNTIME = 5;
const CAT_DRIVER = 6;
const CAT_CPU_ANNOTATION = 7;
const CAT_CPU_OP = 9;
const CAT_PYTHON = 10;
const PH_X: f64 = 88;

const NAMES: u32 = 16384; // the tape's name ids
const SUM: usize = 16 << 20;
const BY_NAME: usize = SUM; // 4 f64 per name id
const PAIRS: usize = BY_NAME + <usize>NAMES * 32; // pair tables: key i64, value f64 (16 bytes a slot)
const PAIR_SLOTS: u32 = 1 << 16;
const CHAINS: usize = PAIRS;
const SITES: usize = CHAINS + <usize>PAIR_SLOTS * 16;
const SITE_TIMES: usize = SITES + <usize>PAIR_SLOTS * 16;
const SHAPES: usize = SITE_TIMES + <usize>PAIR_SLOTS * 16;
const STACKS: usize = SHAPES + <usize>PAIR_SLOTS * 16; // per thread slot: 256 entries of (end f64, chain f64)
const THREADS: u32 = 256;
const DEPTH: u32 = 256;
const THREAD_KEYS: usize = STACKS + <usize>THREADS * DEPTH * 16; // thread key f64, depth i32 (16 bytes)
const ID_PAGES: usize = THREAD_KEYS + <usize>THREADS * 16 * 2; // External id >> 14 → page offset (i32), 1 << 16 pages
const OPS: usize = ID_PAGES + (1 << 18); // op log: start, end, correlation f64, device i32, kind i32 (32 bytes)
const OP_CAP: u32 = 400000;
const TRACE: usize = OPS + <usize>OP_CAP * 32; // trace record: start, dur, lane f64, device, kind, name i32 (40 bytes)
const TRACE_CAP: u32 = 400000;
const PAGES: usize = TRACE + <usize>TRACE_CAP * 40; // id pages: 1 << 14 ids of i32 each
const PAGE_IDS: u32 = 1 << 14;
const SUM_END: usize = PAGES + (48 << 20);

let baseUs: f64 = NaN;
let ops: u32 = 0;
let traced: u32 = 0;
let chains: u32 = 0;
let sites: u32 = 0;
let pagesUsed: u32 = 0;
let total: f64 = 0;

export function sumEnd(): usize {
  return SUM_END;
}
export function result(): f64 {
  return total + <f64>ops + <f64>traced + <f64>chains + <f64>sites;
}

// @ts-ignore: decorator
@inline function mix(key: u64): u32 {
  key ^= key >> 33;
  key *= 0xff51afd7ed558ccd;
  key ^= key >> 33;
  return <u32>key;
}

/** The value slot of `key` in the pair table at `table` (inserted as `fresh` when absent); its address. */
function pairSlot(table: usize, key: u64, fresh: f64): usize {
  let slot = mix(key) & (PAIR_SLOTS - 1);
  for (;;) {
    const at = table + (<usize>slot << 4);
    const k = load<u64>(at);
    if (k == key + 1) return at + 8;
    if (k == 0) {
      store<u64>(at, key + 1);
      store<f64>(at + 8, fresh);
      return at + 8;
    }
    slot = (slot + 1) & (PAIR_SLOTS - 1);
  }
  return 0; // not reached: the table is never full
}

/** The id interned for `key` in the table at `table`, a new one (`next`) when absent. */
// @ts-ignore: decorator
@inline function intern(table: usize, key: u64, next: u32): u32 {
  return <u32>load<f64>(pairSlot(table, key, <f64>next));
}

/** The stack of thread `tid` (its slot), by a small open table of thread keys. */
function threadSlot(tid: f64): u32 {
  let slot = mix(reinterpret<u64>(tid)) & (THREADS - 1);
  for (;;) {
    const at = THREAD_KEYS + (<usize>slot << 4);
    const depth = load<i32>(at + 8);
    if (depth < 0 || load<f64>(at) == tid) {
      if (depth < 0) {
        store<f64>(at, tid);
        store<i32>(at + 8, 0);
      }
      return slot;
    }
    slot = (slot + 1) & (THREADS - 1);
  }
  return 0; // not reached: fewer threads than slots
}

/** Marks every thread slot free. The tables start zeroed (fresh memory), so nothing else is written before use. */
export function reset(): void {
  for (let t: u32 = 0; t < THREADS; t++) store<i32>(THREAD_KEYS + (<usize>t << 4) + 8, -1);
}

/** The site of an External id, -1 when none was set (pages of 1 << 14 ids, made when first set). */
// @ts-ignore: decorator
@inline function siteOf(id: f64): i32 {
  if (!(id >= 0 && id < 4294967296)) return -1;
  const n = <u32>id;
  const page = load<u32>(ID_PAGES + (<usize>(n >> 14) << 2));
  return page == 0 ? -1 : load<i32>(PAGES + <usize>(page - 1) * <usize>PAGE_IDS * 4 + (<usize>(n & (PAGE_IDS - 1)) << 2)) - 1;
}

// @ts-ignore: decorator
@inline function setSite(id: f64, site: u32): void {
  if (!(id >= 0 && id < 4294967296)) return;
  const n = <u32>id;
  const pageAt = ID_PAGES + (<usize>(n >> 14) << 2);
  let page = load<u32>(pageAt);
  if (page == 0) {
    if (pagesUsed == 768) return; // past the pages this bound keeps
    page = ++pagesUsed;
    store<u32>(pageAt, page);
  }
  store<i32>(PAGES + <usize>(page - 1) * <usize>PAGE_IDS * 4 + (<usize>(n & (PAGE_IDS - 1)) << 2), site + 1);
}

// @ts-ignore: decorator
@inline function traceAdd(start: f64, dur: f64, device: i32, lane: f64, kind: i32, name: i32): void {
  if (traced == TRACE_CAP) return;
  const at = TRACE + <usize>traced * 40;
  store<f64>(at, start);
  store<f64>(at + 8, dur);
  store<f64>(at + 16, lane);
  store<i32>(at + 24, device);
  store<i32>(at + 28, kind);
  store<i32>(at + 32, name);
  traced++;
}

/** Sums the `recordCount()` records of the last scan(). */
export function sumRecords(): void {
  const count = recordCount();
  const tape = tapeAt();
  for (let k = 0; k < count; k++) {
    const r = tape + <usize>k * REC * 8;
    const category = <i32>load<f64>(r + (S_CATEGORY << 3));
    if (category == 0 || load<f64>(r + (S_PH << 3)) != PH_X) continue;
    const tsUs = load<f64>(r + (S_TS_US << 3));
    if (isNaN(baseUs)) baseUs = tsUs;
    const start = (tsUs - baseUs) * 1000 + load<f64>(r + (S_TS_FRAC << 3));
    const dur = load<f64>(r + (S_DUR_US << 3)) * 1000 + load<f64>(r + (S_DUR_FRAC << 3));
    const nameId = <i32>load<f64>(r + (S_NAME_ID << 3));
    const tid = load<f64>(r + (S_TID << 3));
    if (category == CAT_CPU_OP) {
      const slot = threadSlot(tid);
      const keyAt = THREAD_KEYS + (<usize>slot << 4);
      let depth = load<i32>(keyAt + 8);
      const stack = STACKS + <usize>slot * DEPTH * 16;
      const end = start + dur;
      while (depth > 0) {
        const lastEnd = load<f64>(stack + (<usize>(depth - 1) << 4));
        if (lastEnd > start + 2 && end <= lastEnd + 2) break;
        depth--;
      }
      const parent = depth > 0 ? <u32>load<f64>(stack + (<usize>(depth - 1) << 4) + 8) + 1 : 0;
      const chain = intern(CHAINS, (<u64>parent << 32) | <u64>(<u32>nameId), chains);
      if (chain == chains) chains++;
      const site = intern(SITES, <u64>chain << 24, sites);
      if (site == sites) sites++;
      if (depth < <i32>DEPTH) {
        store<f64>(stack + (<usize>depth << 4), end);
        store<f64>(stack + (<usize>depth << 4) + 8, <f64>chain);
        depth++;
      }
      store<i32>(keyAt + 8, depth);
      setSite(load<f64>(r + (S_EXTERNAL_ID << 3)), site);
      traceAdd(start, dur, -1, tid, CAT_CPU_OP, nameId);
      continue;
    }
    if (category == CAT_PYTHON) {
      const slot = threadSlot(tid + load<f64>(r + (S_PID << 3)) * 4294967296);
      const keyAt = THREAD_KEYS + (<usize>slot << 4);
      let depth = load<i32>(keyAt + 8);
      const stack = STACKS + <usize>slot * DEPTH * 16;
      const end = start + dur;
      while (depth > 0 && load<f64>(stack + (<usize>(depth - 1) << 4)) <= start) depth--;
      if (depth < <i32>DEPTH) {
        store<f64>(stack + (<usize>depth << 4), end);
        store<f64>(stack + (<usize>depth << 4) + 8, <f64>nameId);
        depth++;
      }
      store<i32>(keyAt + 8, depth);
      continue;
    }
    const device = load<f64>(r + (S_DEVICE << 3));
    const correlation = load<f64>(r + (S_CORRELATION << 3));
    if (nameId >= 0 && nameId < <i32>NAMES) {
      const sums = BY_NAME + (<usize>nameId << 5);
      store<f64>(sums, load<f64>(sums) + dur);
      store<f64>(sums + 8, load<f64>(sums + 8) + 1);
      if (dur < load<f64>(sums + 16) || load<f64>(sums + 8) == 1) store<f64>(sums + 16, dur);
      if (dur > load<f64>(sums + 24)) store<f64>(sums + 24, dur);
    }
    if (category == CAT_KERNEL || category == CAT_MEMCPY || category == CAT_MEMSET) {
      if (category == CAT_KERNEL) {
        if (load<f64>(r + (S_SHAPE_SET << 3)) == 1) {
          let h: u64 = <u64>(<u32>nameId);
          for (let d = 0; d < 6; d++) h = h * 31 + <u64>(<i64>load<f64>(r + ((S_SHAPE + d) << 3)));
          const shapeAt = pairSlot(SHAPES, h, 0);
          store<f64>(shapeAt, load<f64>(shapeAt) + dur);
        }
        const site = siteOf(load<f64>(r + (S_EXTERNAL_ID << 3)));
        if (site >= 0) {
          const timeAt = pairSlot(SITE_TIMES, (<u64>(<u32>nameId) << 32) | <u64>site, 0);
          store<f64>(timeAt, load<f64>(timeAt) + dur);
        }
      }
      if (ops < OP_CAP) {
        const at = OPS + (<usize>ops << 5);
        store<f64>(at, start);
        store<f64>(at + 8, start + dur);
        store<f64>(at + 16, correlation);
        store<i32>(at + 24, <i32>device);
        store<i32>(at + 28, category);
        ops++;
      }
      const stream = load<f64>(r + (S_STREAM << 3));
      traceAdd(start, dur, <i32>device, stream, category, nameId);
    } else if (category == CAT_RUNTIME || category == CAT_DRIVER) {
      total += correlation;
    } else if (category == CAT_CPU_ANNOTATION) {
      traceAdd(start, dur, -1, tid, category, nameId);
    }
  }
}
