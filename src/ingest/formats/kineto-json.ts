/**
 * PyTorch profiler / Kineto Chrome trace (`*.pt.trace.json[.gz]`, CUDA/CUPTI and ROCm/roctracer).
 * Mapping: `kernel` (legacy `Kernel`) events → kernels summed by (name, device: args.device or pid),
 * with the grid/block of the shape that took most time; `gpu_memcpy`/`gpu_memset` (legacy
 * `Memcpy`/`Memset`) → memops (kind from the name, bytes from args); `cuda_runtime`/`cuda_driver`
 * → apiCalls; GPU op intervals → timeline (busy = union per device, idle gaps, `ProfilerStep#N`
 * windows, kernel time per tenth of the span; kernels whose correlation id is a cudaGraphLaunch's
 * are graph kernels; collective and host↔device copy time no kernel overlaps; idle gaps that are
 * not the workload; one timeline per device when there are several). `distributedInfo` → the
 * capture's rank, world size and backend. `deviceProperties` → environment; warpSize 64 or hip*
 * calls → AMD.
 * ts/dur are µs (integer or float) and become integer ns; step start times are ns from the first
 * GPU op. Events with dur < 0 or > 7 days (CUPTI overflow) are dropped and counted.
 * `cpu_op` → the op chain that launched each kernel (kernel External id → op, launch-sites.ts);
 * `python_function` (`with_stack=True`) → the line of the workload's Python each kernel was launched
 * from (launch call on a CPU thread, by correlation id → the innermost user frame around it in time,
 * python-frames.ts), per kernel its top sites with their share of its time. CUDA graph replays,
 * which carry no op, take the op and Python line of their graph's capture when the capture is in
 * the trace and the match is sound (graph-captures.ts); otherwise a notice says why not.
 * With `record_shapes`, the activation shapes of the outermost matmul ops, in order of first use,
 * and user annotations whose names say prefill or decode → timeline.matmulInputs / phaseRanges
 * (generation-facts.ts; a bounded number of distinct shapes).
 * The file is streamed (traces can exceed memory and V8's string limit): only events of the
 * categories above are decoded; flow and other events are skipped by their bytes.
 * Limits: step windows come from the GPU projection of the annotation where present, else the CPU
 * range (GPU work lagging the CPU is then counted in the next step); the PyTorch version is not
 * in the trace; skipped events are checked for balanced brackets only.
 */
import { InputError } from '../../errors.js';
import type { CaptureInput, Distributed, Environment, Notice, Timeline } from '../../model/capture.js';
import { defineImporter } from '../common/importer.js';
import { ScanError, scanFile, TraceScanner } from './kineto/json-scanner.js';
import { buildTimeline, deviceTimelines } from '../common/timeline.js';
import { MAX_DEFERRED, type ReplayReading, type ReplayRefusal } from './kineto/graph-captures.js';
import { TraceSummary } from './kineto/trace-summary.js';
import { isJaxTraceHead } from './jax-trace.js';
import { isRocprofTraceHead } from './rocprof-json.js';

const KNOWN_PARTS = ['deviceProperties', 'distributedInfo'];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** CUDA encodes versions as 1000 * major + 10 * minor (12040 → 12.4). */
function cudaVersion(value: unknown): string | undefined {
  if (typeof value === 'string' && value) return value;
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) return undefined;
  return `${Math.floor(value / 1000)}.${Math.floor((value % 1000) / 10)}`;
}

function environmentOf(summary: TraceSummary): Environment {
  const props = summary.members.get('deviceProperties');
  const devices = Array.isArray(props) ? props.filter(isRecord) : [];
  const env: Environment = {};
  const name = devices[0]?.name;
  if (typeof name === 'string' && name) env.gpuName = name;
  if (devices.length) env.gpuCount = devices.length;
  const apiNames = summary.apiNames();
  if (devices.some((d) => d.warpSize === 64) || apiNames.some((n) => n.startsWith('hip'))) env.vendor = 'amd';
  else if (devices.some((d) => d.warpSize === 32) || apiNames.some((n) => n.startsWith('cu'))) env.vendor = 'nvidia';
  if (env.vendor !== 'amd') {
    const cuda = cudaVersion(summary.members.get('cuda_runtime_version'));
    if (cuda) env.cuda = cuda;
  }
  return env;
}

/** `distributedInfo` → the capture's rank; absent or without a whole rank, undefined. */
function distributedOf(summary: TraceSummary): Distributed | undefined {
  const info = summary.members.get('distributedInfo');
  if (!isRecord(info) || !Number.isInteger(info.rank) || (info.rank as number) < 0) return undefined;
  const out: Distributed = { rank: info.rank as number };
  if (Number.isInteger(info.world_size) && (info.world_size as number) > 0) out.worldSize = info.world_size as number;
  if (typeof info.backend === 'string' && info.backend) out.backend = info.backend;
  return out;
}

const REFUSAL_TEXT: Record<ReplayRefusal, string> = {
  'no-capture': 'replayed before any capture in the trace ended (captured before the trace began)',
  count: 'ran a different number of kernels and copies than any capture before them (a graph captured before the trace began, or a replay cut by the trace)',
  ambiguous: 'match several captures of the same launch count',
  streams: 'ran on several streams (their start order need not follow the capture\'s)',
  'capture-order': 'match a capture whose calls are out of time order, overlap another capture on the thread, or launch a graph',
  'replays-disagree': 'disagree with other replays of their capture on the kernel at some position',
};

/** Why some CUDA graph replays were not tied to a capture in the trace, as the tail of a notice. */
function replayReason(reading: ReplayReading | undefined): string | undefined {
  if (!reading || reading.captures === 0) return 'the graph capture is not in the trace';
  const refused = [...reading.refused].filter(([, count]) => count.replays > 0);
  const parts = refused.map(([reason, count]) => `${count.replays} ${REFUSAL_TEXT[reason]}`);
  const notTied = reading.replays - reading.attributedReplays;
  const unexplained = notTied - refused.reduce((sum, [, count]) => sum + count.replays, 0);
  if (reading.overflow) parts.push(`${unexplained} came after the first ${MAX_DEFERRED} GPU events without an op, which are all that is kept for matching`);
  else if (unexplained > 0) parts.push(`${unexplained} left no GPU event in the trace`);
  if (notTied <= 0) return undefined;
  const captures = `${reading.captures} graph capture${reading.captures === 1 ? '' : 's'}`;
  return `the trace holds ${captures}, but ${notTied} of ${reading.replays} replays are not tied to one: ${parts.join('; ')}`;
}

/** Where kernels could not be tied to the op that launched them, say so rather than guess. */
function attributionNotices(summary: TraceSummary): Notice[] {
  const sites = summary.launchSites;
  const total = sites.attributed + sites.unlinked;
  // A stray launch or two (a profiler warm-up kernel) is not worth a line.
  if (sites.ops === 0 || sites.unlinked < Math.max(1, 0.01 * total)) return [];
  const reason = summary.launchCounts().graphLaunches > 0 ? replayReason(summary.replays) : undefined;
  return [
    {
      code: 'kineto-launch-op-unavailable',
      severity: 'info',
      message:
        `${sites.unlinked} of ${total} kernel launches could not be tied to the CPU op that launched them` +
        (reason ? ` (CUDA graph replays: ${reason})` : '') +
        '; their launching op is not available.',
    },
  ];
}

/** Replays whose op and Python line come from their graph's capture: an inference, so it is said. */
function replayNotices(summary: TraceSummary): Notice[] {
  const reading = summary.replays;
  if (!reading || reading.attributedReplays === 0) return [];
  return [
    {
      code: 'kineto-graph-replays-from-capture',
      severity: 'info',
      message:
        `${reading.attributedNodes} GPU events of ${reading.attributedReplays} CUDA graph replays were tied to the launches of their graph's capture in this trace ` +
        '(the i-th kernel or copy of a replay, by start time on its one stream, to the i-th launch of the capture): their launching op and Python line are the capture\'s.',
    },
  ];
}

/** Where Python stacks are in the trace but could not name the line of some or all launches. */
function pythonNotices(summary: TraceSummary): Notice[] {
  const python = summary.python;
  if (!python.active) return [];
  if (python.launchesBeforeFrames > 0) {
    return [
      {
        code: 'kineto-python-stacks-late',
        severity: 'info',
        message: `${python.launchesBeforeFrames} kernel launches came before the trace's Python stack events (python_function) in the file; they are not tied to a line of Python.`,
      },
    ];
  }
  if (python.attributed === 0 && python.unattributed > 0) {
    return [
      {
        code: 'kineto-python-no-user-frame',
        severity: 'info',
        message: `The trace holds ${python.frames} Python stack events, but none of its ${python.unattributed} kernel launches ran inside the workload's own Python (only inside torch, the standard library or built-ins, or on a thread without stacks); no Python line is given.`,
      },
    ];
  }
  return [];
}

/** The matmul shapes and phase-naming ranges of the window (generation-facts.ts), where the trace has them. */
function generationOf(summary: TraceSummary): Pick<Timeline, 'matmulInputs' | 'phaseRanges'> {
  const matmulInputs = summary.generation.matmulInputs();
  const phaseRanges = summary.generation.phaseRanges();
  return { ...(matmulInputs ? { matmulInputs } : {}), ...(phaseRanges ? { phaseRanges } : {}) };
}

/** summary.finish(): what it refuses (a ScanError) becomes an InputError at its byte. */
function finishSummary(summary: TraceSummary, path: string): void {
  try {
    summary.finish();
  } catch (error) {
    if (error instanceof ScanError) throw new InputError(path, error.expected, `byte ${error.offset}`);
    throw error;
  }
}

export default defineImporter({
  id: 'kineto-json',
  label: 'PyTorch profiler / Kineto trace (JSON)',
  capabilities: { kernels: 'expected', timeline: true, ranks: true },
  sniff(head) {
    const text = head.replace(/^\uFEFF/, '').trimStart();
    // rocprof v1 and jax.profiler write Chrome traces too.
    if (!text.startsWith('{') || isRocprofTraceHead(head) || isJaxTraceHead(head)) return false;
    // Keys, not words: a profile-gate report lists "deviceProperties" among a source's parts.
    return /"traceEvents"\s*:/.test(text) || (/"schemaVersion"\s*:/.test(text) && /"deviceProperties"\s*:/.test(text));
  },
  async read(file, ctx): Promise<CaptureInput> {
    const summary = new TraceSummary(ctx, { bytes: file.sizeBytes, gzip: file.gzip });
    const scanner = new TraceScanner(summary);
    // The modules' memories go back to their pools whatever the outcome (wasm-runtime.ts).
    try {
      await scanFile(file, scanner);
      finishSummary(summary, file.path);
      if (!scanner.sawTraceEvents) {
        throw new InputError(file.path, 'expected a Kineto trace with a top-level "traceEvents" array, found none', `byte ${scanner.bytesSeen}`);
      }
      const counts = { ...summary.launchCounts(), graphCorrelations: summary.graphCorrelations, captureWindows: summary.captureWindows() };
      const notices = [...attributionNotices(summary), ...replayNotices(summary), ...pythonNotices(summary)];
      const windows = summary.stepWindows();
      const hasTimeline = summary.ops.count > 0 || windows.length > 0 || counts.kernelLaunches > 0;
      const distributed = distributedOf(summary);
      return {
        source: {
          path: file.path,
          format: 'kineto-json',
          tool: 'pytorch-profiler',
          parts: [...KNOWN_PARTS.filter((key) => summary.members.has(key)), ...summary.categories],
        },
        ...(distributed ? { distributed } : {}),
        kernels: summary.kernelStats(),
        memops: summary.memopStats(),
        apiCalls: summary.apiStats(),
        ...(hasTimeline ? { timeline: { ...buildTimeline(summary.ops, windows, counts), ...generationOf(summary) }, deviceTimelines: deviceTimelines(summary.ops, windows, counts) } : {}),
        environment: environmentOf(summary),
        ...(notices.length ? { notices } : {}),
        ...(summary.trace.count ? { trace: summary.trace.seal() } : {}),
      };
    } finally {
      scanner.release();
      summary.release();
    }
  },
});
