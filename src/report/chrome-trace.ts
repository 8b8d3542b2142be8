/**
 * A clean Chrome-trace / Perfetto JSON of one capture, written by profile-gate from the events it
 * read (model/trace-events.ts): kernels, copies and fills on their device and stream, ranges and CPU
 * ops on their thread. Nothing else of the profiler's file is carried: no metadata, environment,
 * command line, process table or unknown field. Names go through the caller's `name` (the
 * redaction). Opens in https://ui.perfetto.dev and chrome://tracing; profile-gate reads it back as
 * a Kineto trace (same categories and args).
 */
import { HOST_DEVICE, type TraceEventKind, type TraceEvents } from '../model/trace-events.js';

/** The host's events go under one process id no GPU has (GPUs are their device number, as Kineto writes them). */
export const HOST_PID = 1_000_000;

/** The Kineto category of each kind, so the trace reads back as the events it was written from. */
const CATEGORY: Record<TraceEventKind, string> = {
  kernel: 'kernel',
  memcpy: 'gpu_memcpy',
  memset: 'gpu_memset',
  range: 'user_annotation',
  'cpu-op': 'cpu_op',
};

export interface ChromeTraceOptions {
  /** What each name becomes (the redaction); called once per distinct name. */
  name: (text: string) => string;
  /** The capture's format and the tool that made it, for the metadata. */
  source: { format: string; tool?: string | undefined };
  generator: string;
}

/** µs with ns digits, as Chrome traces count time. */
const micros = (ns: number): string => (ns / 1000).toFixed(3);

/** The trace as JSON text; events in start order, times from the first event kept. */
export function renderChromeTrace(trace: TraceEvents, options: ChromeTraceOptions): string {
  const names = new Map<string, string>();
  const nameOf = (text: string): string => {
    let json = names.get(text);
    if (json === undefined) names.set(text, (json = JSON.stringify(options.name(text))));
    return json;
  };
  const events = [...trace.events()].sort((a, b) => a.startNs - b.startNs);
  const origin = events.length ? events[0]!.startNs : 0;
  const lanes = new Map<string, { pid: number; tid: number; label: string }>();
  const processes = new Map<number, string>();
  const lines: string[] = [];
  for (const e of events) {
    const host = e.device === HOST_DEVICE;
    const pid = host ? HOST_PID : e.device;
    const tid = e.lane;
    processes.set(pid, host ? 'Host' : `GPU ${e.device}`);
    const laneKey = `${pid}:${tid}`;
    if (!lanes.has(laneKey)) lanes.set(laneKey, { pid, tid, label: host ? `thread ${tid}` : `stream ${tid}` });
    const args = host ? '' : `,"args":{"device":${e.device},"stream":${tid}}`;
    lines.push(`{"ph":"X","cat":"${CATEGORY[e.kind]}","name":${nameOf(e.name)},"pid":${pid},"tid":${tid},"ts":${micros(e.startNs - origin)},"dur":${micros(e.durNs)}${args}}`);
  }
  const meta: string[] = [];
  for (const [pid, label] of processes) meta.push(`{"ph":"M","name":"process_name","pid":${pid},"tid":0,"args":{"name":${JSON.stringify(label)}}}`);
  for (const { pid, tid, label } of lanes.values()) meta.push(`{"ph":"M","name":"thread_name","pid":${pid},"tid":${tid},"args":{"name":${JSON.stringify(label)}}}`);
  const cut = trace.dropped();
  const otherData = {
    generator: options.generator,
    source: options.source,
    events: events.length,
    ...(Object.keys(cut).length ? { eventsCut: cut, note: 'only the first events of each class were kept; eventsCut counts those left out' } : {}),
  };
  return `{"traceEvents":[\n${[...meta, ...lines].join(',\n')}\n],\n"displayTimeUnit":"ns",\n"otherData":${JSON.stringify(otherData)}}\n`;
}
