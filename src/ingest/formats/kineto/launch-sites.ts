/**
 * Which CPU op launched each kernel, from a Kineto trace's `cpu_op` events: PyTorch writes each op
 * with an `External id`, and each kernel with the External id of the innermost op that launched it.
 * Ops are nested by time on their thread (the trace lists them in start order per thread), so the
 * chain of enclosing ops (`aten::repeat_interleave > aten::copy_`) is known when an op is read.
 * With `record_shapes`, a matmul op's `Input Dims` give its token count M.
 *
 * Memory stays bounded on multi-GB traces: per op only a small site number is kept, by External id
 * (id-table.ts); the distinct sites (chain, tokens) are few. Per kernel, time is summed by site as
 * kernels are read.
 */
import { grown } from '../../../model/columns.js';
import { IdTable, PairIds } from './id-table.js';
import { KeyTimes } from './key-times.js';
import { recordDurNs, recordNsFrom } from './event-reader.js';
import { S_EXTERNAL_ID, S_TID } from './tape.js';

/** The matmul ops whose input shapes give M, and which input holds the activations (addmm: mat1). */
const MATMUL_INPUT: ReadonlyMap<string, number> = new Map([
  ['aten::mm', 0],
  ['aten::matmul', 0],
  ['aten::linear', 0],
  ['aten::bmm', 0],
  ['aten::addmm', 1],
  ['aten::baddbmm', 1],
  ['aten::_addmm_activation', 1],
  ['aten::_scaled_mm', 0],
  ['aten::_grouped_mm', 0],
  ['aten::_scaled_grouped_mm', 0],
]);

/** Ops shown in a chain: the outermost, then the innermost few. */
const CHAIN_HEAD = 1;
const CHAIN_TAIL = 3;
const NO_TOKENS = -1;
/** Kineto writes µs with three decimals: a child's end may pass its parent's by a rounding ns. */
const NEST_SLACK_NS = 2;

/** The ops open on one thread, innermost last, as columns (an op a row: no object per op read). */
class OpenOps {
  length = 0;
  starts = new Float64Array(64);
  ends = new Float64Array(64);
  chains = new Int32Array(64);
  tokens = new Float64Array(64);

  push(start: number, end: number, chain: number, tokens: number): void {
    if (this.length === this.starts.length) {
      const size = this.length * 2;
      this.starts = grown(this.starts, size);
      this.ends = grown(this.ends, size);
      this.chains = grown(this.chains, size);
      this.tokens = grown(this.tokens, size);
    }
    const k = this.length++;
    this.starts[k] = start;
    this.ends[k] = end;
    this.chains[k] = chain;
    this.tokens[k] = tokens;
  }
}

/** True for the ops whose Input Dims are read (the others' are never decoded). */
export function isMatmulOp(opName: string): boolean {
  return MATMUL_INPUT.has(opName);
}

/**
 * The rows of a matmul's activation input from its `Input Dims` JSON (`[[8, 512, 1024], [1024, 1024], …]`):
 * all but the last dim (`[8, 512]`). Undefined when the dims are missing or not a matrix.
 */
export function matmulRows(opName: string, inputDims: string | undefined): number[] | undefined {
  const input = MATMUL_INPUT.get(opName);
  if (input === undefined || inputDims === undefined) return undefined;
  let dims: unknown;
  try {
    dims = JSON.parse(inputDims);
  } catch {
    return undefined;
  }
  const shape = Array.isArray(dims) ? dims[input] : undefined;
  if (!Array.isArray(shape) || shape.length < 2 || !shape.every((d) => Number.isInteger(d) && d >= 0)) return undefined;
  return (shape as number[]).slice(0, -1);
}

/** M of a matmul (its token count): the product of its activation rows (matmulRows). */
export function matmulTokens(opName: string, inputDims: string | undefined): number | undefined {
  return matmulRows(opName, inputDims)?.reduce((product, d) => product * d, 1);
}

/** Told of each matmul op that no other matmul op with recorded shapes encloses. */
export type OutermostMatmul = (opName: string, rows: readonly number[], startNs: number) => void;

/**
 * An op name read from the trace, with its id in the op chains and whether it is a matmul; and the
 * chain it last made and under which parent chain: an op mostly runs under the same parent as its
 * last time, so that its chain is known without a lookup.
 */
export class OpName {
  lastParent = NaN;
  lastChain = -1;

  constructor(
    readonly name: string,
    readonly id: number,
    readonly matmul: boolean,
  ) {}
}

/** Time of one kernel (name, device) per launch site; kept on the kernel's running sums. */
export type SiteTimes = KeyTimes;

export interface Attribution {
  launchedBy: string;
  launchedByShare: number;
  tokens?: number;
}

export class LaunchSites {
  private readonly opNames: string[] = [];
  private readonly opNameIds = new Map<string, number>();
  /** Chain nodes: parent chain (-1 at the root) and op name id. */
  private readonly chainParent: number[] = [];
  private readonly chainName: number[] = [];
  /** Chain by (parent + 1, op name id). */
  private readonly chainIds = new PairIds();
  /** Sites: a chain and the token count of its innermost matmul (-1: none). */
  private readonly siteChain: number[] = [];
  private readonly siteTokens: number[] = [];
  /** Site by (chain, token count + 1, capped). */
  private readonly siteIds = new PairIds();
  /** Per chain, the token count of its last site and that site + 1 (0: none yet): a chain's ops mostly have one. */
  private chainSiteTokens = new Float64Array(1024);
  private chainSite = new Int32Array(1024);
  private readonly open = new Map<number, OpenOps>();
  /** The last thread's open ops: consecutive ops are mostly on one thread. */
  private lastThread = NaN;
  private lastOpen: OpenOps | undefined;
  /** External id → site. */
  private readonly siteById = new IdTable();
  /** Ops read; ops whose start went back in time on their thread (their chain may be cut short). */
  ops = 0;
  unordered = 0;
  /**
   * Kernel launches linked to an op (graph replays tied to their capture's launches included), and
   * the others: no External id (CUDA graph replays), an old trace's correlation-as-id, or an op not
   * read before the kernel (PyTorch writes ops first).
   */
  attributed = 0;
  unlinked = 0;

  constructor(private readonly outermostMatmul?: OutermostMatmul) {}

  /** An op's name as interned once per distinct name (opName): what op() needs of it. */
  opName(name: string): OpName {
    return new OpName(name, this.nameId(name), isMatmulOp(name));
  }

  /**
   * One cpu_op event, read in place from its record (tape.ts's slots), its times in ns from
   * `baseUs`: numbers read here rather than passed, as a double passed to a call that is not
   * inlined is boxed, an allocation per op. `inputDims` is the raw JSON of its Input Dims, when
   * recorded (matmul ops only).
   */
  op(op: OpName, r: Float64Array, at: number, baseUs: number, inputDims: string | undefined): void {
    const start = recordNsFrom(r, at, baseUs);
    const end = start + recordDurNs(r, at);
    const thread = r[at + S_TID]!;
    const externalId = r[at + S_EXTERNAL_ID]!;
    this.ops++;
    // Object.is: NaN (no numeric tid) is one thread, as it is to the Map.
    const stack = this.lastOpen !== undefined && Object.is(thread, this.lastThread) ? this.lastOpen : this.openOn(thread);
    let depth = stack.length;
    // Counted without a branch: the first op out of order does not undo the caller's optimized code.
    this.unordered += depth > 0 && start < stack.starts[depth - 1]! ? 1 : 0;
    // Closed ops leave; so does one this op is not inside (µs rounding can cross ends by a ns or two).
    const ends = stack.ends;
    while (depth > 0) {
      const lastEnd = ends[depth - 1]!;
      if (lastEnd > start + NEST_SLACK_NS && end <= lastEnd + NEST_SLACK_NS) break;
      depth--;
    }
    stack.length = depth;
    const parent = depth > 0 ? stack.chains[depth - 1]! : -1;
    let chain = op.lastChain;
    if (op.lastParent !== parent) {
      chain = op.lastChain = this.chainOf(parent, op.id);
      op.lastParent = parent;
    }
    const inherited = depth > 0 ? stack.tokens[depth - 1]! : NO_TOKENS;
    const tokens = op.matmul ? this.matmulTokens(op.name, inputDims, inherited, start) : inherited;
    stack.push(start, end, chain, tokens);
    if (Number.isInteger(externalId) && externalId >= 0) this.siteById.set(externalId, this.siteOf(chain, tokens));
  }

  /** The open ops of a thread other than the last one's. */
  private openOn(thread: number): OpenOps {
    let stack = this.open.get(thread);
    if (!stack) this.open.set(thread, (stack = new OpenOps()));
    this.lastThread = thread;
    this.lastOpen = stack;
    return stack;
  }

  /** A matmul op's token count (its own M, else the enclosing op's); tells the outermost ones' shapes. */
  private matmulTokens(name: string, inputDims: string | undefined, inherited: number, start: number): number {
    const rows = matmulRows(name, inputDims);
    if (!rows) return inherited;
    if (inherited === NO_TOKENS) this.outermostMatmul?.(name, rows, start);
    return rows.reduce((product, d) => product * d, 1);
  }

  /** The site of the op an event's External id names, or -1 (none, or an op not read). */
  siteOfEvent(externalId: number, correlation: number): number {
    // Old traces give GPU events the correlation id as External id: that names no op.
    if (!Number.isInteger(externalId) || externalId === correlation) return -1;
    return this.siteById.get(externalId);
  }

  /** Add one kernel launch's time to its site; returns false when the launch links to no op. */
  kernel(times: SiteTimes, externalId: number, correlation: number, durNs: number): boolean {
    const site = this.siteOfEvent(externalId, correlation);
    // Both counts updated on either way, so that the first launch of the other kind does not send
    // the caller's optimized code back to the interpreter.
    const linked = site >= 0 ? 1 : 0;
    this.attributed += linked;
    this.unlinked += 1 - linked;
    if (site >= 0) times.add(site, durNs);
    return site >= 0;
  }

  /**
   * A kernel counted unlinked when read (a graph replay's), now tied to the site of the launch its
   * graph's capture made for it (graph-captures.ts).
   */
  replayed(times: SiteTimes, site: number, durNs: number): void {
    if (site < 0) return;
    this.unlinked--;
    this.attributed++;
    times.add(site, durNs);
  }

  /** The site with the most time, as a chain of op names, with its share and tokens. */
  attribution(times: SiteTimes | undefined, totalNs: number): Attribution | undefined {
    if (!times || times.size === 0) return undefined;
    let best = -1;
    let bestNs = -1;
    for (let k = 0; k < times.size; k++) {
      if (times.ns[k]! > bestNs) [best, bestNs] = [times.keys[k]!, times.ns[k]!];
    }
    const chain = this.siteChain[best]!;
    // Launches from the same chain with other token counts count towards the chain's share.
    let chainNs = 0;
    for (let k = 0; k < times.size; k++) if (this.siteChain[times.keys[k]!] === chain) chainNs += times.ns[k]!;
    const out: Attribution = { launchedBy: this.chainText(chain), launchedByShare: totalNs > 0 ? Math.min(1, chainNs / totalNs) : 1 };
    const tokens = this.siteTokens[best]!;
    if (tokens !== NO_TOKENS) out.tokens = tokens;
    return out;
  }

  // Interning without a closure per call: these run once or twice per op read.
  private nameId(name: string): number {
    const known = this.opNameIds.get(name);
    if (known !== undefined) return known;
    const id = this.opNames.length;
    this.opNames.push(name);
    this.opNameIds.set(name, id);
    return id;
  }

  private chainOf(parent: number, name: number): number {
    const id = this.chainIds.intern(parent + 1, name);
    if (id === this.chainParent.length) {
      this.chainParent.push(parent);
      this.chainName.push(name);
    }
    return id;
  }

  private siteOf(chain: number, tokens: number): number {
    if (chain < this.chainSite.length && this.chainSite[chain] !== 0 && this.chainSiteTokens[chain] === tokens) return this.chainSite[chain]! - 1;
    const id = this.siteIds.intern(chain, Math.min(tokens + 1, 2 ** 24 - 1));
    if (chain >= this.chainSite.length) {
      const size = Math.max(chain + 1, this.chainSite.length * 2);
      this.chainSiteTokens = grown(this.chainSiteTokens, size);
      this.chainSite = grown(this.chainSite, size);
    }
    this.chainSite[chain] = id + 1;
    this.chainSiteTokens[chain] = tokens;
    if (id === this.siteChain.length) {
      this.siteChain.push(chain);
      this.siteTokens.push(tokens);
    }
    return id;
  }

  private chainText(chain: number): string {
    const names: string[] = [];
    for (let node = chain; node >= 0; node = this.chainParent[node]!) names.push(this.opNames[this.chainName[node]!]!);
    names.reverse();
    if (names.length <= CHAIN_HEAD + CHAIN_TAIL) return names.join(' > ');
    return [...names.slice(0, CHAIN_HEAD), '…', ...names.slice(-CHAIN_TAIL)].join(' > ');
  }
}
