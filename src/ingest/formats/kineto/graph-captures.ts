/**
 * CUDA-graph replays tied to their capture, when the capture is inside the same trace.
 *
 * A replayed kernel has no CPU op: its correlation id is that of a `cudaGraphLaunch` call. But when
 * the profiler also recorded the graph's capture (`torch.cuda.graph`, `make_graphed_callables`,
 * torch.compile's cudagraph trees), the capture's launch calls are in the trace, between
 * `cudaStreamBeginCapture` and `cudaStreamEndCapture` on one CPU thread, each with its op's
 * External id and inside its Python frames; no GPU event carries their correlation ids (nothing ran
 * then). Each launch became one node of the graph, and a replay runs its nodes in capture order on
 * one stream: sorted by start time, the i-th GPU event of a replay is the i-th launch of its capture.
 * Kernel launches (runtime and driver API: cuBLAS launches with `cuLaunchKernelEx`) and async
 * memcpy/memset calls are nodes on both sides (a captured `cudaMemcpyAsync` is a memcpy node, and its
 * replays show a `gpu_memcpy` with the graph launch's correlation id); host-function, event and
 * other nodes leave no GPU event, and their calls are not counted.
 *
 * A replay is attributed only when that is sound: it ran on one stream (nodes on several streams
 * need not start in capture order); its node count equals that of exactly one capture completed
 * before its graph launch (a trace cut in mid-replay, a graph captured before profiling began, or
 * two captures of one count are refused); the capture's calls were in time order on its thread, did
 * not overlap another capture there, and launched no graph of their own; and all replays tied to a
 * capture ran the same kernel at each position. Refused replays are counted by reason.
 *
 * Memory: per capture, per launch an op site, a Python site code and a correlation id (24 bytes).
 * GPU events that carry no op are kept (ref, correlation, stream, start, duration) only once a
 * capture has begun, since only then can a replay be tied to it, and at most MAX_DEFERRED of them.
 */

/** GPU events kept for matching at most (40 bytes each: about 84 MB). Past it, the rest are read as without a capture. */
export const MAX_DEFERRED = 1 << 21;

export type ReplayRefusal = 'no-capture' | 'count' | 'ambiguous' | 'streams' | 'capture-order' | 'replays-disagree';

export interface ReplayReading {
  /** Captures whose begin and end are both in the trace. */
  captures: number;
  /** Graph launches in the trace, and those whose replay was tied to a capture. */
  replays: number;
  attributedReplays: number;
  /** GPU events (kernels, memcpy and memset nodes) of the replays tied to a capture. */
  attributedNodes: number;
  /**
   * Replays not tied to a capture, with their GPU events (none counted for `no-capture`: a replay
   * before any capture is read as before, its events not kept), by reason.
   */
  refused: Map<ReplayRefusal, { replays: number; nodes: number }>;
  /** True when more GPU events without an op were met than are kept (those past it are read as before). */
  overflow: boolean;
}

class GrowList {
  values: Float64Array;
  length = 0;
  constructor(size = 64) {
    this.values = new Float64Array(size);
  }
  push(value: number): void {
    if (this.length === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length++] = value;
  }
  at(k: number): number {
    return this.values[k]!;
  }
}

interface Capture {
  /** Begin and end of the capture on the GPU events' clock (for the timeline's set-up gaps). */
  window: { start: number; end: number };
  /** The latest call read on its thread while it was open. */
  lastNs: number;
  opSites: GrowList;
  pythonCodes: GrowList;
  correlations: GrowList;
  /** Why no replay may be tied to it, once known. */
  unsound: boolean;
  /** After finish: the positions that are graph nodes (launches whose correlation no GPU event carries). */
  nodes?: number[];
  /** The GPU event kind (its sum) at each position, from the first replay tied to it. */
  reference?: unknown[];
}

/** One replay's GPU events, by index into the kept arrays, sorted by start. */
interface Replay {
  correlation: number;
  events: number[];
  capture: Capture | undefined;
}

const hostKey = (pid: number, tid: number): string => `${pid}:${tid}`;

export class GraphCaptures<Ref> {
  private readonly open = new Map<string, Capture>();
  private readonly completed: Capture[] = [];
  /** Graph launch correlation id → captures completed when it was read. */
  private readonly capturesAtLaunch = new Map<number, number>();
  /** Correlation ids carried by GPU events since the first capture began (1 bit each). */
  private gpuCorrelations = new Uint8Array(0);
  private readonly gpuCorrelationsFar = new Set<number>();
  private began = false;
  // The GPU events that carry no op, kept while a capture is in the trace.
  private refs: Ref[] = [];
  private readonly correlations = new GrowList(1024);
  private readonly streams = new GrowList(1024);
  private readonly starts = new GrowList(1024);
  private readonly durations = new GrowList(1024);
  private overflow = false;
  private graphLaunches = 0;
  /** Graph launches read before any capture had ended: their graphs were captured earlier. */
  private launchesBeforeCapture = 0;

  /** True once a capture has begun: GPU events without an op are then kept for matching. */
  get active(): boolean {
    return this.began;
  }

  /** The window of each completed capture, on the GPU events' clock. */
  windows(): Array<{ start: number; end: number }> {
    return this.completed.map((capture) => capture.window);
  }

  /**
   * `cudaStreamBeginCapture` (or its driver or HIP twin) at `ns` on CPU thread (pid, tid);
   * `clockNs`: the same moment on the GPU events' clock.
   */
  begin(pid: number, tid: number, ns: number, clockNs: number): void {
    this.began = true;
    const key = hostKey(pid, tid);
    const known = this.open.get(key);
    const capture: Capture = { window: { start: clockNs, end: clockNs }, lastNs: ns, opSites: new GrowList(), pythonCodes: new GrowList(), correlations: new GrowList(), unsound: false };
    if (known) {
      // Two streams captured at once on one thread: which launch went to which is not known.
      known.unsound = true;
      capture.unsound = true;
    }
    this.open.set(key, capture);
  }

  /** `cudaStreamEndCapture` at `ns` on (pid, tid), its call ending at `clockEndNs` on the GPU events' clock. */
  end(pid: number, tid: number, ns: number, clockEndNs: number): void {
    const key = hostKey(pid, tid);
    const capture = this.open.get(key);
    if (!capture) return; // began before the trace: its launches before this are not all here
    this.inOrder(capture, ns);
    capture.window.end = clockEndNs;
    this.open.delete(key);
    this.completed.push(capture);
  }

  /**
   * A call that makes a graph node when captured (a kernel launch, an async memcpy or memset) at
   * `ns` on (pid, tid), with the op site and Python site code it was launched from (-1: none).
   */
  launch(pid: number, tid: number, ns: number, correlation: number, opSite: number, pythonCode: number): void {
    if (this.open.size === 0) return;
    const capture = this.open.get(hostKey(pid, tid));
    if (!capture) return;
    this.inOrder(capture, ns);
    capture.opSites.push(opSite);
    capture.pythonCodes.push(pythonCode);
    capture.correlations.push(correlation);
  }

  /** A graph launch call: its replay may be tied to the captures completed before it. */
  graphLaunch(pid: number, tid: number, correlation: number): void {
    const inside = this.open.size ? this.open.get(hostKey(pid, tid)) : undefined;
    if (inside) inside.unsound = true; // a child graph: its nodes are not the capture's launches
    this.graphLaunches++;
    if (this.completed.length === 0) this.launchesBeforeCapture++;
    else if (Number.isFinite(correlation)) this.capturesAtLaunch.set(correlation, this.completed.length);
  }

  /** Every GPU event, once a capture has begun: a launch whose correlation one carries ran then, outside the graph. */
  gpuEvent(correlation: number): void {
    if (!Number.isInteger(correlation) || correlation < 0) return;
    if (correlation >= 1 << 30) {
      this.gpuCorrelationsFar.add(correlation);
      return;
    }
    const byte = correlation >> 3;
    if (byte >= this.gpuCorrelations.length) {
      let size = Math.max(1024, this.gpuCorrelations.length);
      while (size <= byte) size *= 2;
      const grown = new Uint8Array(size);
      grown.set(this.gpuCorrelations);
      this.gpuCorrelations = grown;
    }
    this.gpuCorrelations[byte]! |= 1 << (correlation & 7);
  }

  /**
   * Keep a GPU event that carries no op (`ref`: its sums) until the end; false when it is not kept
   * (no capture has begun, or the store is full), and the caller reads it as before.
   */
  defer(ref: Ref, correlation: number, stream: number, startNs: number, durNs: number): boolean {
    if (!this.began || !Number.isInteger(correlation) || correlation < 0) return false;
    if (this.refs.length >= MAX_DEFERRED) {
      this.overflow = true;
      return false;
    }
    this.refs.push(ref);
    this.correlations.push(correlation);
    this.streams.push(stream);
    this.starts.push(startNs);
    this.durations.push(durNs);
    return true;
  }

  /**
   * At the end of the trace: each kept GPU event goes to `attribute` (with the op site and Python
   * code of its capture launch) or, when its replay is not tied to a capture or it is no replay, to
   * `fallback`, exactly once.
   */
  finish(
    isGraphLaunch: (correlation: number) => boolean,
    attribute: (ref: Ref, opSite: number, pythonCode: number, durNs: number) => void,
    fallback: (ref: Ref, correlation: number, durNs: number) => void,
  ): ReplayReading {
    for (const capture of this.completed) {
      const nodes: number[] = [];
      for (let k = 0; k < capture.correlations.length; k++) if (!this.ranOutsideGraph(capture.correlations.at(k))) nodes.push(k);
      capture.nodes = nodes;
    }
    const reading: ReplayReading = { captures: this.completed.length, replays: this.graphLaunches, attributedReplays: 0, attributedNodes: 0, refused: new Map(), overflow: this.overflow };
    if (this.launchesBeforeCapture) reading.refused.set('no-capture', { replays: this.launchesBeforeCapture, nodes: 0 });
    const refuse = (reason: ReplayRefusal, replay: Replay): void => {
      const known = reading.refused.get(reason) ?? { replays: 0, nodes: 0 };
      known.replays++;
      known.nodes += replay.events.length;
      reading.refused.set(reason, known);
      for (const k of replay.events) fallback(this.refs[k]!, replay.correlation, this.durations.at(k));
    };

    const matched: Replay[] = [];
    for (const replay of this.replays()) {
      if (!isGraphLaunch(replay.correlation)) {
        for (const k of replay.events) fallback(this.refs[k]!, replay.correlation, this.durations.at(k));
        continue;
      }
      const reason = this.match(replay);
      if (reason === 'no-capture') for (const k of replay.events) fallback(this.refs[k]!, replay.correlation, this.durations.at(k));
      else if (reason) refuse(reason, replay);
      else matched.push(replay);
    }
    // All replays tied to one capture must agree on the kernel at each position.
    const disagreeing = new Set<Capture>();
    for (const replay of matched) {
      const capture = replay.capture!;
      const kinds = replay.events.map((k) => this.refs[k]);
      if (!capture.reference) capture.reference = kinds;
      else if (kinds.some((kind, i) => kind !== capture.reference![i])) disagreeing.add(capture);
    }
    for (const replay of matched) {
      const capture = replay.capture!;
      if (disagreeing.has(capture)) {
        refuse('replays-disagree', replay);
        continue;
      }
      reading.attributedReplays++;
      reading.attributedNodes += replay.events.length;
      replay.events.forEach((k, i) => {
        const launch = capture.nodes![i]!;
        attribute(this.refs[k]!, capture.opSites.at(launch), capture.pythonCodes.at(launch), this.durations.at(k));
      });
    }
    this.refs = [];
    return reading;
  }

  /** Why a replay may not be tied to a capture, or undefined (and its capture set) when it may. */
  private match(replay: Replay): ReplayRefusal | undefined {
    const before = this.capturesAtLaunch.get(replay.correlation) ?? 0;
    if (before === 0) return 'no-capture';
    const stream = this.streams.at(replay.events[0]!);
    if (replay.events.some((k) => this.streams.at(k) !== stream)) return 'streams';
    const size = replay.events.length;
    const candidates = this.completed.slice(0, before).filter((capture) => capture.nodes!.length === size);
    if (candidates.length === 0) return 'count';
    if (candidates.length > 1) return 'ambiguous';
    if (candidates[0]!.unsound) return 'capture-order';
    replay.capture = candidates[0];
    return undefined;
  }

  /** The kept GPU events grouped by correlation id, each group sorted by start (then file order). */
  private replays(): Replay[] {
    const order = Array.from({ length: this.refs.length }, (_, k) => k);
    const corr = this.correlations.values;
    const start = this.starts.values;
    order.sort((a, b) => corr[a]! - corr[b]! || start[a]! - start[b]! || a - b);
    const out: Replay[] = [];
    for (const k of order) {
      const last = out[out.length - 1];
      if (last && last.correlation === corr[k]) last.events.push(k);
      else out.push({ correlation: corr[k]!, events: [k], capture: undefined });
    }
    return out;
  }

  private ranOutsideGraph(correlation: number): boolean {
    if (!Number.isInteger(correlation) || correlation < 0) return false;
    if (correlation >= 1 << 30) return this.gpuCorrelationsFar.has(correlation);
    const byte = correlation >> 3;
    return byte < this.gpuCorrelations.length && (this.gpuCorrelations[byte]! & (1 << (correlation & 7))) !== 0;
  }

  private inOrder(capture: Capture, ns: number): void {
    if (ns < capture.lastNs) capture.unsound = true;
    else capture.lastNs = ns;
  }
}
