/**
 * The trace jax.profiler writes (`plugins/profile/<run>/perfetto_trace.json.gz` with
 * `create_perfetto_trace=True`, and `<host>.trace.json.gz` beside it): a Chrome trace, but not a
 * PyTorch one. Its events carry no `cat`; processes are named by device (`/device:GPU:0`, `/host:CPU`)
 * and a device's threads by stream (`Stream #14(Compute)`). A GPU event is a kernel when its args
 * hold `kernel_details` (`grid:384,1,1 block:128,1,1 …`), a copy with `memcpy_details`, a memset with
 * `Memset_details`; `hlo_module` / `hlo_op` name the XLA program and op that ran it.
 * Kernels and their timeline are read from the device processes; `ts`/`dur` are µs with ns digits.
 * A kernel's XLA program (`hlo_module`: `jit_step` for a jitted function, `jit_dot_general` for one
 * op dispatched on its own) is its `launchedBy`, as a PyTorch trace's launching op is.
 * The file is streamed through the Chrome-trace scanner the Kineto reader uses (traces run to
 * hundreds of MB): each event is decoded alone, only when its bytes may matter (a process name, a
 * complete event). Process names may come anywhere in the list: an event of a process not named yet
 * is remembered by its pid, and when such a pid turns out to be a device, the file is read again
 * with every name known.
 * Limits: copies and memsets are counted and left out of kernel time, as the kernel traces of the
 * other tools leave them; host events (Python frames, PjRt dispatch) are not read; TPU devices are
 * counted and left out.
 */
import { InputError } from '../../errors.js';
import type { CaptureInput } from '../../model/capture.js';
import { defineImporter, type ImportContext } from '../common/importer.js';
import type { InputFile } from '../common/input-file.js';
import { isRecord } from '../common/json-values.js';
import { cleanKernelName, KernelTraceReader } from '../common/kernel-trace.js';
import { scanFile, TraceScanner, type ScanSink } from './kineto/json-scanner.js';
import { compareText } from '../../model/text-order.js';

/** The header KernelTraceReader reads dispatches under; the events give each field by name. */
const DISPATCH_FIELDS = 'Index,KernelName,gpu-id,BeginNs,EndNs,grd,wgr';
const GPU_PROCESS = /^\/device:GPU:(\d+)$/;
const DEVICE_PROCESS = /^\/device:/;
const PROCESS_NAME = Buffer.from('"process_name"');
const COMPLETE = Buffer.from('"X"');

/** True when a Chrome-trace head names jax.profiler's processes (`/device:GPU:0`, `/host:CPU`). */
export function isJaxTraceHead(head: string): boolean {
  const text = head.replace(/^\uFEFF/, '').trimStart();
  if (!text.startsWith('{') || !/"traceEvents"\s*:/.test(text)) return false;
  return /"name"\s*:\s*"process_name"\s*,\s*"args"\s*:\s*\{\s*"name"\s*:\s*"\/(?:device:[A-Z]+:\d+|host:CPU)"/.test(text);
}

/** `grid:384,1,1 block:128,1,1` → the grid in blocks and the block in threads. */
function launchShape(details: unknown): { grid: number[]; block: number[] } | undefined {
  if (typeof details !== 'string') return undefined;
  const grid = /(?:^|\s)grid:(\d+),(\d+),(\d+)/.exec(details);
  const block = /(?:^|\s)block:(\d+),(\d+),(\d+)/.exec(details);
  if (!grid || !block) return undefined;
  return { grid: grid.slice(1, 4).map(Number), block: block.slice(1, 4).map(Number) };
}

/** µs with up to three decimals, as the trace writes them, to whole ns. */
function nanoseconds(value: unknown): number | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return undefined;
  return Math.round(value * 1000);
}

/** The processes named so far: GPU number by pid, and the pids of other devices (TPUs). */
interface Processes {
  gpuOf: Map<unknown, string>;
  otherDevices: Set<unknown>;
}

/** One pass over the trace's events: kernels into the reader, copies counted, process names learnt. */
class JaxEvents implements ScanSink {
  /** Index of the next traceEvents element. */
  private index = 0;
  readonly trace: KernelTraceReader;
  copies = 0;
  /** Per kernel name: ns under each XLA program, for its launchedBy. */
  readonly modules = new Map<string, Map<string, number>>();
  /** Pids of complete events met before their process was named. */
  readonly unnamedPids = new Set<unknown>();

  constructor(
    private readonly path: string,
    private readonly ctx: ImportContext,
    readonly processes: Processes,
  ) {
    this.trace = new KernelTraceReader(path, DISPATCH_FIELDS, 1, false, ctx);
  }

  member(): void {}

  event(bytes: Buffer, start: number, end: number): number {
    const i = this.index++;
    const raw = bytes.subarray(start, end);
    // Only a process name or a complete event matters; the rest is not decoded.
    const named = raw.indexOf(PROCESS_NAME) >= 0;
    if (!named && raw.indexOf(COMPLETE) < 0) return end;
    let event: unknown;
    try {
      event = JSON.parse(raw.toString('utf8'));
    } catch {
      throw new InputError(this.path, 'expected a trace event that is valid JSON', `traceEvents[${i}]`);
    }
    if (!isRecord(event)) return end;
    if (named) this.processName(event);
    if (event['ph'] === 'X') this.complete(event, i);
    return end;
  }

  private processName(event: Record<string, unknown>): void {
    if (event['ph'] !== 'M' || event['name'] !== 'process_name' || !isRecord(event['args'])) return;
    const name = event['args']['name'];
    if (typeof name !== 'string') return;
    const gpu = GPU_PROCESS.exec(name);
    if (gpu) this.processes.gpuOf.set(event['pid'], gpu[1]!);
    else if (DEVICE_PROCESS.test(name)) this.processes.otherDevices.add(event['pid']);
  }

  private complete(event: Record<string, unknown>, i: number): void {
    const { ctx, path } = this;
    const agent = this.processes.gpuOf.get(event['pid']);
    if (agent === undefined) {
      if (this.processes.otherDevices.has(event['pid'])) ctx.count('non-gpu-device-event', 'data-loss', 'events of a device other than a GPU (a TPU) are left out');
      else this.unnamedPids.add(event['pid']);
      return;
    }
    const args = isRecord(event['args']) ? event['args'] : {};
    if (!('kernel_details' in args)) {
      this.copies += 1;
      ctx.count('copy-event', 'info', 'GPU copies and memsets (memcpy_details, Memset_details) are left out of kernel time');
      return;
    }
    const where = `traceEvents[${i}]`;
    const name = event['name'];
    if (typeof name !== 'string' || name.trim() === '') throw new InputError(path, 'expected a kernel name in "name"', where);
    const start = nanoseconds(event['ts']);
    const duration = nanoseconds(event['dur']);
    if (start === undefined) throw new InputError(path, `expected "ts" in µs as a non-negative number, got ${JSON.stringify(event['ts'])}`, where);
    if (duration === undefined) throw new InputError(path, `expected "dur" in µs as a non-negative number, got ${JSON.stringify(event['dur'])}`, where);
    const shape = launchShape(args['kernel_details']);
    this.trace.addDispatch({ name, agent, start: String(start), end: String(start + duration), ...(shape ? { ...shape, gridInBlocks: true } : {}) }, where);
    const module = args['hlo_module'];
    if (typeof module === 'string' && module.trim() !== '') {
      const key = cleanKernelName(name);
      const byModule = this.modules.get(key) ?? new Map<string, number>();
      this.modules.set(key, byModule.set(module.trim(), (byModule.get(module.trim()) ?? 0) + duration));
    }
  }
}

/** One streamed pass over the file; its stats are counted only by the pass whose reading is kept. */
async function pass(file: InputFile, ctx: ImportContext, processes: Processes): Promise<{ events: JaxEvents; sawTraceEvents: boolean }> {
  const events = new JaxEvents(file.path, ctx, processes);
  const scanner = new TraceScanner(events, { everyEvent: true });
  await scanFile(file, scanner);
  return { events, sawTraceEvents: scanner.sawTraceEvents };
}

export default defineImporter({
  id: 'jax-trace',
  label: 'JAX profiler trace (jax.profiler, Perfetto JSON)',
  sniff: isJaxTraceHead,
  capabilities: { kernels: 'expected', timeline: true },
  async read(file, ctx): Promise<CaptureInput> {
    const processes: Processes = { gpuOf: new Map(), otherDevices: new Set() };
    // Counts go to a scratch context until the pass that is kept is known.
    const counted = new Map<string, { args: Parameters<ImportContext['count']>; n: number }>();
    const scratch: ImportContext = {
      path: ctx.path,
      options: ctx.options,
      ...(ctx.isCollective ? { isCollective: (name: string) => ctx.isCollective!(name) } : {}),
      count: (...args) => {
        const seen = counted.get(args[0]);
        if (seen) seen.n += 1;
        else counted.set(args[0], { args, n: 1 });
      },
    };
    let read = await pass(file, scratch, processes);
    const late = [...read.events.unnamedPids].some((pid) => processes.gpuOf.has(pid) || processes.otherDevices.has(pid));
    if (late) {
      // A device named after some of its events: read again, every name known.
      counted.clear();
      read = await pass(file, scratch, processes);
    }
    for (const { args, n } of counted.values()) for (let k = 0; k < n; k++) ctx.count(...args);
    if (!read.sawTraceEvents) throw new InputError(file.path, 'expected a JAX profiler trace: an object with a "traceEvents" array', 'byte 0');
    const { events } = read;
    const result = events.trace.finish();
    if (result.kernels.length === 0) {
      const seen = processes.gpuOf.size === 0 ? 'no /device:GPU process' : events.copies > 0 ? `only ${events.copies} copies` : 'no GPU events';
      throw new InputError(file.path, `expected GPU kernel events (ph "X" on a /device:GPU process, with kernel_details args) in the JAX trace, found ${seen}`, 'byte 0');
    }
    const kernels = result.kernels.map((kernel) => {
      const byModule = events.modules.get(kernel.name);
      if (!byModule) return kernel;
      const [module, ns] = [...byModule.entries()].sort((a, b) => b[1] - a[1] || compareText(a[0], b[0]))[0]!;
      const all = [...byModule.values()].reduce((sum, v) => sum + v, 0);
      return { ...kernel, launchedBy: module, launchedByShare: all > 0 ? ns / all : 1 };
    });
    return {
      source: { path: file.path, format: 'jax-trace', tool: 'jax.profiler', parts: ['kernels', 'timeline'] },
      kernels,
      ...(result.timeline ? { timeline: result.timeline } : {}),
      ...(result.trace ? { trace: result.trace } : {}),
      ...(result.deviceTimelines && result.deviceTimelines.length > 1 ? { deviceTimelines: result.deviceTimelines } : {}),
    };
  },
});
