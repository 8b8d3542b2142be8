/**
 * Which line of the workload's Python launched each kernel, from a Kineto trace recorded with
 * `with_stack=True`. PyTorch's Python tracer writes one `python_function` event per Python call
 * (`models/llama.py(123): forward`, `<built-in method … of Tensor object at 0x…>`,
 * `nn.Module: LlamaAttention_0`), on the thread that made it, nested by time. A kernel's launch is a
 * `cuda_runtime`/`cuda_driver` event on a CPU thread with the kernel's correlation id; the launch is
 * attributed to the innermost *user* frame enclosing it in time on the same thread.
 *
 * The user's frame. Between the workload's code and the launch sit the runtime's own frames, which
 * name no line the user could change: Python built-ins (`<built-in …>`), code the runtime generated
 * (`<string>`, `<frozen …>`, FX's `<eval_with_key>.N`, Inductor's output files in its cache), the
 * standard library's wrappers (contextlib, functools, threading, …), and the PyTorch stack itself
 * (torch/, functorch/, triton/, torchvision/, torchaudio/: the profiler, nn.Module's `_call_impl`,
 * dynamo, Inductor's launchers). Those are skipped; the innermost frame left is the user's. Model
 * libraries (transformers/, vllm/, sglang/) are kept: their model code is the code the user runs,
 * and their frame names the layer (`vllm/model_executor/models/llama.py(343): forward`). The
 * innermost enclosing `nn.Module` (its class, without PyTorch's `_0` instance suffix) is kept as
 * context; the modules torch itself wraps around compiled code (GraphModule, OptimizedModule) are not.
 * PyTorch strips the sys.path entry a file was found under, so a file under site-packages reads
 * `torch/nn/functional.py`; a path that still holds `site-packages/` is cut after it.
 *
 * The line is where the function starts: the tracer records a frame's line when it is entered (in
 * the repeated-KV H200 capture, `llama_decode.py(142): sdpa` is the `def sdpa` line of the source it
 * ran, and the `repeat_interleave` calls are six lines below).
 *
 * Order: Kineto writes the CPU side first (cpu_op, then python_function), then the GPU activities,
 * where each kernel comes just before its launch call. So frames are complete when launches are
 * read; kernels wait, by correlation id, for their launch (usually the next event or two), and a
 * kernel read after its launch finds it in a table by correlation id. Launches read before any Python
 * event (a file written in another order) are counted and left unattributed.
 *
 * CUDA-graph replays: a kernel of a replay is given the line of the `cudaGraphLaunch` call, marked
 * `graphReplay`, unless the graph's capture is in the trace (graph-captures.ts): then it is given the
 * line of the capture's launch that made its node, marked `graphReplay` and `graphCapture`.
 *
 * Memory: per thread, the user frames only (two times, a parent and a site: 24 bytes each); per
 * correlation id, 2 bytes; kernels only while they wait for their launch.
 */
import type { PythonSite } from '../../../model/capture.js';
import { IdTable } from './id-table.js';
import { KeyTimes } from './key-times.js';

/** What one python_function event's name says. */
export type FrameKind =
  | { kind: 'skip' }
  | { kind: 'module'; module: string }
  | { kind: 'user'; function: string; file: string; line: number };

/** Time of one kernel (name, device) per Python site code; kept on the kernel's running sums. */
export type PythonSiteTimes = KeyTimes;

const FRAME = /^(.*)\((\d+)\): (.+)$/s;
const MODULE = /^nn\.Module: (.+?)(?:_\d+)?$/s;
/** Modules torch wraps around compiled or traced code: they name no layer of the model. */
const WRAPPER_MODULES = new Set(['GraphModule', 'OptimizedModule']);
/** The PyTorch stack between the model and the GPU (first path component of the file). */
const RUNTIME_PACKAGES = new Set(['torch', 'functorch', 'triton', 'torchvision', 'torchaudio']);
/**
 * Standard-library modules that wrap calls or run them (context managers, decorators, threads,
 * process bootstraps). torch imports each of them at start-up, so a workload file of the same name
 * would shadow it and break the import: a frame of that name is the standard library's.
 */
const STDLIB_MODULES = new Set([
  'abc', 'asyncio', 'collections', 'concurrent', 'contextlib', 'copy', 'copyreg', 'dataclasses', 'enum', 'functools',
  'importlib', 'inspect', 'itertools', 'logging', 'multiprocessing', 'operator', 'os', 'pickle', 'queue', 'runpy',
  'selectors', 'threading', 'traceback', 'types', 'typing', 'unittest', 'warnings', 'weakref',
]);
/** Code the runtime wrote: Inductor/Triton output kept in their caches. */
const GENERATED_FILE = /(?:^|\/)(?:torchinductor_[^/]*|inductor_cache|torch_compile_cache|\.triton|triton_cache)\//;
/** An absolute path into a Python install's own library (no site-packages left after trimming). */
const STDLIB_PATH = /(?:^|\/)lib\/python3(?:\.\d+)?\//;
/** Files in angle brackets are generated (`<string>`, `<frozen os>`), but for code typed by the user. */
const USER_PSEUDO_FILE = /^<(?:stdin|ipython-input-[^>]*)>$/;
const PACKAGES_DIR = /^.*\/(?:site|dist)-packages\//;

/** Reads one python_function name into the frame it stands for (see the header for the rule). */
export function classifyFrame(name: string): FrameKind {
  const module = MODULE.exec(name);
  if (module) return WRAPPER_MODULES.has(module[1]!) ? { kind: 'skip' } : { kind: 'module', module: module[1]! };
  const frame = FRAME.exec(name);
  if (!frame) return { kind: 'skip' }; // <built-in …> and anything else that names no source line
  const file = frame[1]!.replace(/\\/g, '/').replace(PACKAGES_DIR, '').replace(/^\.\//, '');
  if (!isUserFile(file)) return { kind: 'skip' };
  return { kind: 'user', function: frame[3]!, file, line: Number(frame[2]) };
}

function isUserFile(file: string): boolean {
  if (file.startsWith('<')) return USER_PSEUDO_FILE.test(file);
  if (GENERATED_FILE.test(file) || STDLIB_PATH.test(file)) return false;
  const top = file.startsWith('/') ? undefined : file.split('/')[0]!.replace(/\.py$/, '');
  return top === undefined || !(RUNTIME_PACKAGES.has(top) || STDLIB_MODULES.has(top));
}

/** Kineto writes µs with three decimals: a child's end may pass its parent's by a rounding ns. */
const NEST_SLACK_NS = 2;
const NO_FRAME = -1;
/** Site code = site * 4 + these flags: the launch was a graph replay; its line is its capture's launch. */
const GRAPH_REPLAY = 1;
const FROM_CAPTURE = 2;

/** One CPU thread's user frames, in start order, and the stack of frames open while reading. */
class ThreadFrames {
  starts = new Float64Array(256);
  ends = new Float64Array(256);
  /** Index of the enclosing user frame, -1 at the root. */
  parents = new Int32Array(256);
  sites = new Int32Array(256);
  count = 0;
  lastStart = -Infinity;
  readonly openEnd: number[] = [];
  readonly openUser: number[] = [];
  readonly openModule: number[] = [];

  add(start: number, end: number, parent: number, site: number): number {
    if (this.count === this.starts.length) {
      const size = this.count * 2;
      this.starts = grow(this.starts, new Float64Array(size));
      this.ends = grow(this.ends, new Float64Array(size));
      this.parents = grow(this.parents, new Int32Array(size));
      this.sites = grow(this.sites, new Int32Array(size));
    }
    const at = this.count++;
    this.starts[at] = start;
    this.ends[at] = end;
    this.parents[at] = parent;
    this.sites[at] = site;
    return at;
  }

  /** Site of the innermost user frame open at `ts`, or NO_FRAME. */
  siteAt(ts: number): number {
    let lo = 0;
    let hi = this.count - 1;
    let at = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.starts[mid]! <= ts + NEST_SLACK_NS) {
        at = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    // The last frame to start before ts, or the nearest of its ancestors still open at ts.
    while (at >= 0 && this.ends[at]! < ts - NEST_SLACK_NS) at = this.parents[at]!;
    return at < 0 ? NO_FRAME : this.sites[at]!;
  }
}

function grow<T extends Float64Array | Int32Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

export class PythonFrames {
  private readonly threads = new Map<number, Map<number, ThreadFrames>>();
  /** The last thread looked up, by (pid, tid). */
  private lastPid = NaN;
  private lastTid = NaN;
  private lastThread: ThreadFrames | undefined;
  private readonly siteFrames: Array<Extract<FrameKind, { kind: 'user' }>> = [];
  private readonly siteModules: number[] = [];
  /** (frame, module) → site; frames are the interned objects of their names, numbered on first use. */
  private readonly siteIds = new Map<number, number>();
  private readonly frameIds = new Map<FrameKind, number>();
  private readonly moduleNames: string[] = [];
  private readonly moduleIds = new Map<string, number>();
  /** Correlation id → launch site code + 1 (0: the launch was read, outside any user frame). */
  private readonly launchSites = new IdTable();
  /** Kernels read before their launch: correlation id → (their site times, ns) pairs. */
  private readonly waiting = new Map<number, Array<PythonSiteTimes | number>>();
  /** python_function events read. */
  frames = 0;
  /** Launch calls read before the first Python event: not attributed. */
  launchesBeforeFrames = 0;
  /** Kernel launches given a user frame; the others (no launch read, or a launch outside user code). */
  attributed = 0;
  unattributed = 0;

  /** True once the trace has shown Python events: only then are launches and kernels kept. */
  get active(): boolean {
    return this.frames > 0;
  }

  /**
   * One python_function event: [start, end] ns on thread (pid, tid). `frame` is the one object its
   * name was read into (interned by name), so that sites are told apart by identity. Returns false
   * for an event that starts before the previous one on its thread: its nesting is unknown, and it is dropped.
   */
  frame(pid: number, tid: number, start: number, end: number, frame: FrameKind): boolean {
    this.frames++;
    const thread = this.thread(pid, tid);
    if (start < thread.lastStart) return false;
    thread.lastStart = start;
    if (frame.kind === 'skip') return true; // changes neither the user frame nor the module in effect
    const { openEnd, openUser, openModule } = thread;
    while (openEnd.length) {
      const last = openEnd.length - 1;
      if (openEnd[last]! > start + NEST_SLACK_NS && end <= openEnd[last]! + NEST_SLACK_NS) break;
      openEnd.pop();
      openUser.pop();
      openModule.pop();
    }
    const user = openUser.length ? openUser[openUser.length - 1]! : -1;
    const module = openModule.length ? openModule[openModule.length - 1]! : -1;
    openEnd.push(end);
    if (frame.kind === 'module') {
      openUser.push(user);
      openModule.push(this.moduleId(frame.module));
    } else {
      openUser.push(thread.add(start, end, user, this.siteOf(frame, module)));
      openModule.push(module);
    }
    return true;
  }

  /**
   * One kernel launch call at `ts` ns on thread (pid, tid). Returns its site code (-1: outside any
   * user frame, or no Python events yet), which a graph capture keeps for the kernels of its replays.
   */
  launch(pid: number, tid: number, ts: number, correlation: number, graph: boolean): number {
    if (!this.active) {
      this.launchesBeforeFrames++;
      return -1;
    }
    const site = this.threads.get(pid)?.get(tid)?.siteAt(ts) ?? NO_FRAME;
    const code = site === NO_FRAME ? -1 : site * 4 + (graph ? GRAPH_REPLAY : 0);
    if (!Number.isInteger(correlation) || correlation < 0) return code;
    this.launchSites.set(correlation, code + 1);
    const kernels = this.waiting.get(correlation);
    if (!kernels) return code;
    this.waiting.delete(correlation);
    for (let k = 0; k < kernels.length; k += 2) this.add(kernels[k] as PythonSiteTimes, code, kernels[k + 1] as number);
    return code;
  }

  /**
   * A graph replay's kernel, tied to the launch its graph's capture made (`code`, as launch()
   * returned it then): the capture's line, marked as replayed from a capture.
   */
  replayed(times: PythonSiteTimes, code: number, durNs: number): void {
    this.add(times, code < 0 ? -1 : (code & ~GRAPH_REPLAY) | GRAPH_REPLAY | FROM_CAPTURE, durNs);
  }

  /** One kernel of `durNs` with its launch's correlation id; `times` are its (name, device) sums'. */
  kernel(times: PythonSiteTimes, correlation: number, durNs: number): void {
    if (!Number.isInteger(correlation) || correlation < 0) {
      this.unattributed++;
      return;
    }
    const known = this.launchSites.get(correlation);
    if (known >= 0) return this.add(times, known - 1, durNs);
    const list = this.waiting.get(correlation);
    if (list) list.push(times, durNs);
    else this.waiting.set(correlation, [times, durNs]);
  }

  /** At the end of the trace: kernels whose launch never came are unattributed. */
  finish(): void {
    for (const list of this.waiting.values()) this.unattributed += list.length / 2;
    this.waiting.clear();
  }

  /** The sites of one kernel's time, most first: at most `limit`, each at least `minShare` of it. */
  sites(times: PythonSiteTimes | undefined, totalNs: number, limit = 3, minShare = 0.01): PythonSite[] {
    if (!times || times.size === 0 || !(totalNs > 0)) return [];
    const ranked = Array.from(times.keys.subarray(0, times.size), (code, k) => [code, times.ns[k]!] as const).sort((a, b) => b[1] - a[1] || a[0] - b[0]);
    const out: PythonSite[] = [];
    for (const [code, ns] of ranked.slice(0, limit)) {
      const share = Math.min(1, ns / totalNs);
      if (share < minShare) break;
      const site = code >> 2;
      const frame = this.siteFrames[site]!;
      const module = this.siteModules[site]!;
      const out1: PythonSite = { function: frame.function, file: frame.file, line: frame.line, share: Math.round(share * 1e4) / 1e4 };
      if (module >= 0) out1.module = this.moduleNames[module]!;
      if (code & GRAPH_REPLAY) out1.graphReplay = true;
      if (code & FROM_CAPTURE) out1.graphCapture = true;
      out.push(out1);
    }
    return out;
  }

  private add(times: PythonSiteTimes, code: number, durNs: number): void {
    if (code < 0) {
      this.unattributed++;
      return;
    }
    this.attributed++;
    times.add(code, durNs);
  }

  private thread(pid: number, tid: number): ThreadFrames {
    // Consecutive frames are mostly on one thread. Object.is: NaN (no numeric id) is one thread, as it is to the Map.
    if (this.lastThread !== undefined && Object.is(pid, this.lastPid) && Object.is(tid, this.lastTid)) return this.lastThread;
    let byTid = this.threads.get(pid);
    if (!byTid) this.threads.set(pid, (byTid = new Map()));
    let thread = byTid.get(tid);
    if (!thread) byTid.set(tid, (thread = new ThreadFrames()));
    this.lastPid = pid;
    this.lastTid = tid;
    this.lastThread = thread;
    return thread;
  }

  private moduleId(name: string): number {
    let id = this.moduleIds.get(name);
    if (id === undefined) {
      id = this.moduleNames.push(name) - 1;
      this.moduleIds.set(name, id);
    }
    return id;
  }

  private siteOf(frame: Extract<FrameKind, { kind: 'user' }>, module: number): number {
    let frameId = this.frameIds.get(frame);
    if (frameId === undefined) this.frameIds.set(frame, (frameId = this.frameIds.size));
    const key = frameId * 2 ** 21 + module + 1;
    let id = this.siteIds.get(key);
    if (id === undefined) {
      id = this.siteFrames.push(frame) - 1;
      this.siteModules.push(module);
      this.siteIds.set(key, id);
    }
    return id;
  }
}
