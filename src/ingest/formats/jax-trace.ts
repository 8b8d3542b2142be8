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
 * Limits: copies and memsets are counted and left out of kernel time, as the kernel traces of the
 * other tools leave them; host events (Python frames, PjRt dispatch) are not read; TPU devices are
 * counted and left out.
 */
import { InputError } from '../../errors.js';
import type { CaptureInput } from '../../model/capture.js';
import { defineImporter } from '../common/importer.js';
import { isRecord, parseJsonDocument } from '../common/json-values.js';
import { cleanKernelName, KernelTraceReader } from '../common/kernel-trace.js';

/** The header KernelTraceReader reads dispatches under; the events give each field by name. */
const DISPATCH_FIELDS = 'Index,KernelName,gpu-id,BeginNs,EndNs,grd,wgr';
const GPU_PROCESS = /^\/device:GPU:(\d+)$/;
const DEVICE_PROCESS = /^\/device:/;

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

export default defineImporter({
  id: 'jax-trace',
  label: 'JAX profiler trace (jax.profiler, Perfetto JSON)',
  sniff: isJaxTraceHead,
  capabilities: { kernels: 'expected', timeline: true },
  async read(file, ctx): Promise<CaptureInput> {
    const doc = parseJsonDocument(file.path, await file.text(), 'a complete JAX profiler trace');
    if (!isRecord(doc) || !Array.isArray(doc['traceEvents'])) {
      throw new InputError(file.path, 'expected a JAX profiler trace: an object with a "traceEvents" array', 'byte 0');
    }
    const events = doc['traceEvents'] as unknown[];
    // Processes first: metadata events may come anywhere in the list.
    const gpuOf = new Map<unknown, string>();
    const otherDevices = new Set<unknown>();
    for (const event of events) {
      if (!isRecord(event) || event['ph'] !== 'M' || event['name'] !== 'process_name' || !isRecord(event['args'])) continue;
      const name = event['args']['name'];
      if (typeof name !== 'string') continue;
      const gpu = GPU_PROCESS.exec(name);
      if (gpu) gpuOf.set(event['pid'], gpu[1]!);
      else if (DEVICE_PROCESS.test(name)) otherDevices.add(event['pid']);
    }
    const trace = new KernelTraceReader(file.path, DISPATCH_FIELDS, 1, false, ctx);
    let copies = 0;
    // Per kernel name: ns under each XLA program, for its launchedBy.
    const modules = new Map<string, Map<string, number>>();
    for (let i = 0; i < events.length; i++) {
      const event = events[i];
      if (!isRecord(event) || event['ph'] !== 'X') continue;
      const agent = gpuOf.get(event['pid']);
      if (agent === undefined) {
        if (otherDevices.has(event['pid'])) ctx.count('non-gpu-device-event', 'data-loss', 'events of a device other than a GPU (a TPU) are left out');
        continue;
      }
      const args = isRecord(event['args']) ? event['args'] : {};
      if (!('kernel_details' in args)) {
        copies += 1;
        ctx.count('copy-event', 'info', 'GPU copies and memsets (memcpy_details, Memset_details) are left out of kernel time');
        continue;
      }
      const where = `traceEvents[${i}]`;
      const name = event['name'];
      if (typeof name !== 'string' || name.trim() === '') throw new InputError(file.path, 'expected a kernel name in "name"', where);
      const start = nanoseconds(event['ts']);
      const duration = nanoseconds(event['dur']);
      if (start === undefined) throw new InputError(file.path, `expected "ts" in µs as a non-negative number, got ${JSON.stringify(event['ts'])}`, where);
      if (duration === undefined) throw new InputError(file.path, `expected "dur" in µs as a non-negative number, got ${JSON.stringify(event['dur'])}`, where);
      const shape = launchShape(args['kernel_details']);
      trace.addDispatch({ name, agent, start: String(start), end: String(start + duration), ...(shape ? { ...shape, gridInBlocks: true } : {}) }, where);
      const module = args['hlo_module'];
      if (typeof module === 'string' && module.trim() !== '') {
        const key = cleanKernelName(name);
        const byModule = modules.get(key) ?? new Map<string, number>();
        modules.set(key, byModule.set(module.trim(), (byModule.get(module.trim()) ?? 0) + duration));
      }
    }
    const read = trace.finish();
    if (read.kernels.length === 0) {
      const seen = gpuOf.size === 0 ? 'no /device:GPU process' : copies > 0 ? `only ${copies} copies` : 'no GPU events';
      throw new InputError(file.path, `expected GPU kernel events (ph "X" on a /device:GPU process, with kernel_details args) in the JAX trace, found ${seen}`, 'byte 0');
    }
    const kernels = read.kernels.map((kernel) => {
      const byModule = modules.get(kernel.name);
      if (!byModule) return kernel;
      const [module, ns] = [...byModule.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]!;
      const all = [...byModule.values()].reduce((sum, v) => sum + v, 0);
      return { ...kernel, launchedBy: module, launchedByShare: all > 0 ? ns / all : 1 };
    });
    return {
      source: { path: file.path, format: 'jax-trace', tool: 'jax.profiler', parts: ['kernels', 'timeline'] },
      kernels,
      ...(read.timeline ? { timeline: read.timeline } : {}),
      ...(read.trace ? { trace: read.trace } : {}),
      ...(read.deviceTimelines && read.deviceTimelines.length > 1 ? { deviceTimelines: read.deviceTimelines } : {}),
    };
  },
});
