/**
 * Merging captures of one run. Kernels are summed by name (and device), metric samples are pooled
 * (several generate logs are repeated samples), utilization samples are pooled, and of several
 * timelines the one holding the steady work is read (a notice names it) rather than averaged.
 */
import type { ApiStat, Capture, Environment, KernelStat, MemopStat, Notice, TimedWindow, Timeline, UtilSample } from '../model/capture.js';
import { metricInfo } from '../model/metrics.js';
import type { Metric, Utilization } from '../model/profile.js';
import { median, mean } from '../model/averages.js';
import { HARDWARE_THROTTLE_REASONS } from '../model/throttle.js';
import { compareText } from '../model/text-order.js';

export function mergeKernels(captures: readonly Capture[]): KernelStat[] {
  // Keyed by device, then name: a joined key string per kernel would copy every name (29 MB for 100,000).
  const byDevice = new Map<number | undefined, Map<string, KernelStat>>();
  const merged: KernelStat[] = [];
  for (const capture of captures) {
    for (const kernel of capture.kernels) {
      let byName = byDevice.get(kernel.device);
      if (!byName) byDevice.set(kernel.device, (byName = new Map()));
      const existing = byName.get(kernel.name);
      if (!existing) {
        // Object.assign, not a spread: V8 gives each spread copy that later gains keys (buildProfile
        // adds family and share) a hidden class of its own, 27 MB for 100,000 kernels.
        const copy = Object.assign({}, kernel);
        byName.set(kernel.name, copy);
        merged.push(copy);
        continue;
      }
      const heavierShape = kernel.totalNs > existing.totalNs;
      existing.totalNs += kernel.totalNs;
      existing.instances += kernel.instances;
      if (kernel.minNs !== undefined) existing.minNs = Math.min(existing.minNs ?? Infinity, kernel.minNs);
      if (kernel.maxNs !== undefined) existing.maxNs = Math.max(existing.maxNs ?? 0, kernel.maxNs);
      if (heavierShape && kernel.grid) existing.grid = kernel.grid;
      if (heavierShape && kernel.block) existing.block = kernel.block;
      if (heavierShape && kernel.launchedBy !== undefined) Object.assign(existing, { launchedBy: kernel.launchedBy, launchedByShare: kernel.launchedByShare });
      if (heavierShape && kernel.tokens !== undefined) existing.tokens = kernel.tokens;
      if (heavierShape && kernel.pythonSites !== undefined) existing.pythonSites = kernel.pythonSites;
    }
  }
  return merged.sort((a, b) => b.totalNs - a.totalNs || compareText(a.name, b.name));
}

function mergeByName<T extends { name: string }>(rows: T[], add: (into: T, from: T) => void): T[] {
  const byName = new Map<string, T>();
  for (const row of rows) {
    const existing = byName.get(row.name);
    if (existing) add(existing, row);
    else byName.set(row.name, { ...row });
  }
  return [...byName.values()];
}

export function mergeMemops(captures: readonly Capture[]): MemopStat[] {
  return mergeByName(
    captures.flatMap((c) => c.memops),
    (into, from) => {
      into.count += from.count;
      if (from.totalNs !== undefined) into.totalNs = (into.totalNs ?? 0) + from.totalNs;
      if (from.bytes !== undefined) into.bytes = (into.bytes ?? 0) + from.bytes;
    },
  );
}

export function mergeApiCalls(captures: readonly Capture[]): ApiStat[] {
  return mergeByName(
    captures.flatMap((c) => c.apiCalls),
    (into, from) => {
      into.calls += from.calls;
      into.totalNs += from.totalNs;
    },
  ).sort((a, b) => b.totalNs - a.totalNs);
}

export function mergeMetrics(captures: readonly Capture[]): Metric[] {
  const samples = new Map<string, number[]>();
  for (const capture of captures) {
    for (const sample of capture.metrics) {
      if (!Number.isFinite(sample.value)) continue;
      const list = samples.get(sample.name) ?? [];
      list.push(sample.value);
      samples.set(sample.name, list);
    }
  }
  return [...samples.entries()].map(([name, values]) => {
    const info = metricInfo(name);
    return { name, unit: info.unit, direction: info.direction, samples: values, value: median(values) };
  });
}

/** Below this a sample counts as idle when finding the active window (process start-up, weight loading, exit). */
export const ACTIVE_UTIL_PERCENT = 1;
/** With fewer active samples than this the whole recording is the window (a host-bound run rarely leaves idle). */
const MIN_WINDOW_SAMPLES = 3;

/**
 * The samples between each device's first and last active sample. A sampler that wraps the whole workload
 * command also records start-up and exit, where the GPU is idle for reasons that say nothing about the run.
 */
export function activeWindow(samples: readonly UtilSample[]): UtilSample[] {
  const byDevice = new Map<number, UtilSample[]>();
  for (const sample of samples) {
    const list = byDevice.get(sample.device) ?? [];
    list.push(sample);
    byDevice.set(sample.device, list);
  }
  const window: UtilSample[] = [];
  for (const list of byDevice.values()) {
    const first = list.findIndex((s) => s.gpuPercent >= ACTIVE_UTIL_PERCENT);
    let last = list.length - 1;
    while (last >= 0 && list[last]!.gpuPercent < ACTIVE_UTIL_PERCENT) last -= 1;
    window.push(...(first >= 0 ? list.slice(first, last + 1) : []));
  }
  return window.length >= MIN_WINDOW_SAMPLES ? window : [...samples];
}

export function summarizeUtilization(samples: readonly UtilSample[], timed: readonly TimedWindow[] = []): Utilization | null {
  return summarizeRecordings([samples], timed);
}

/** The typical time between samples of one recording (0 when unknown). */
function medianSpacing(recording: readonly UtilSample[]): number {
  const times = recording.map((s) => s.t).filter((t): t is number => t !== undefined);
  const gaps = times.slice(1).map((t, i) => t - times[i]!).filter((gap) => gap > 0);
  return gaps.length ? median(gaps) : 0;
}

/**
 * The samples that fall in the workload's timed windows. A sample reports the period before its
 * time stamp, so it counts for a window when at least half of that period lies inside it: with a
 * 0.5 s interval and 0.2 s timed runs, no sample reports a timed run, and none is passed off as one.
 */
export function timedSamples(recording: readonly UtilSample[], timed: readonly TimedWindow[]): UtilSample[] {
  const interval = medianSpacing(recording);
  if (interval <= 0) return recording.filter((s) => s.t !== undefined && timed.some((w) => s.t! > w.startS && s.t! <= w.endS));
  const inside = (t: number, w: TimedWindow) => Math.min(t, w.endS) - Math.max(t - interval, w.startS);
  return recording.filter((s) => s.t !== undefined && timed.some((w) => inside(s.t!, w) >= interval / 2));
}

/**
 * Several recordings (one per input file, e.g. one per measured run): each gets its own active window,
 * so the idle start-up of the second run does not count against the first.
 */
export function summarizeRecordings(recordings: ReadonlyArray<readonly UtilSample[]>, timed: readonly TimedWindow[] = []): Utilization | null {
  const samples = recordings.flat();
  if (samples.length === 0) return null;
  const inTimed = timed.length ? recordings.flatMap((recording) => timedSamples(recording, timed)) : [];
  const useTimed = inTimed.length >= MIN_WINDOW_SAMPLES;
  const window = useTimed ? inTimed : recordings.flatMap((recording) => (recording.length ? activeWindow(recording) : []));
  const devices = new Set(samples.map((s) => s.device));
  const hardware = new Set<string>();
  let throttled = 0;
  for (const sample of window) {
    const reasons = sample.reasons.filter((r) => HARDWARE_THROTTLE_REASONS.has(r));
    reasons.forEach((r) => hardware.add(r));
    if (reasons.length) throttled += 1;
  }
  const clocks = window.map((s) => s.smClockMhz).filter((v): v is number => v !== undefined);
  const power = samples.map((s) => s.powerW).filter((v): v is number => v !== undefined);
  return {
    window: useTimed ? 'timed' : 'active',
    meanPercent: mean(window.map((s) => s.gpuPercent)),
    peakPercent: Math.max(...samples.map((s) => s.gpuPercent)),
    sampleCount: window.length,
    overallMeanPercent: mean(samples.map((s) => s.gpuPercent)),
    totalSampleCount: samples.length,
    devices: devices.size,
    throttleReasons: [...hardware].sort(),
    throttledFraction: throttled / window.length,
    ...(clocks.length ? { meanSmClockMhz: mean(clocks) } : {}),
    ...(power.length ? { peakPowerW: Math.max(...power) } : {}),
  };
}

export function mergeEnvironment(captures: readonly Capture[]): Environment {
  const environment: Environment = {};
  for (const capture of captures) {
    for (const [key, value] of Object.entries(capture.environment)) {
      if (value !== undefined && (environment as Record<string, unknown>)[key] === undefined) {
        (environment as Record<string, unknown>)[key] = value;
      }
    }
  }
  return environment;
}

/** Stream capture with no replay: the trace records a CUDA/HIP graph being built, set-up rather than the steady work. */
const BEGIN_CAPTURE = /^(?:cuda|hip)StreamBeginCapture/;
const GRAPH_LAUNCH = /^(?:cuda|hip)GraphLaunch/;

/**
 * A graph-capture trace: the host recorded a stream capture and never replayed a graph. The kernels
 * launched while capturing do not run then (only a few set-up kernels do), so its timeline says
 * nothing about how busy the GPU stays in the steady loop.
 */
export function isGraphCaptureSetup(capture: Capture): boolean {
  if (!capture.apiCalls.some((call) => BEGIN_CAPTURE.test(call.name))) return false;
  if (capture.apiCalls.some((call) => GRAPH_LAUNCH.test(call.name) && call.calls > 0)) return false;
  return (capture.timeline?.graphLaunches ?? 0) === 0;
}

function kernelNsOf(capture: Capture): number {
  return capture.kernels.reduce((sum, k) => sum + k.totalNs, 0);
}

/**
 * The timeline that time-based rules read. Each input keeps its own timeline and window (several
 * traces are never spliced onto one clock); the one read is the one holding the steady work: the
 * most kernel time, among the lowest rank's inputs when traces name their ranks (every rank keeps
 * its own in `ranks`). Ties go to the path that sorts first, so the order of the inputs never
 * changes the choice.
 */
export function mergeTimeline(captures: readonly Capture[]): { timeline: Timeline | null; notices: Notice[] } {
  let candidates = captures.filter((c) => c.timeline);
  if (candidates.length === 0) return { timeline: null, notices: [] };
  const ranked = candidates.filter((c) => c.distributed);
  if (ranked.length > 0) {
    const lowest = Math.min(...ranked.map((c) => c.distributed!.rank));
    candidates = ranked.filter((c) => c.distributed!.rank === lowest);
  }
  const chosen = [...candidates].sort((a, b) => kernelNsOf(b) - kernelNsOf(a) || (b.timeline!.busyNs - a.timeline!.busyNs) || compareText(a.source.path, b.source.path))[0]!;
  const withTimeline = captures.filter((c) => c.timeline).length;
  if (withTimeline <= 1) return { timeline: chosen.timeline!, notices: [] };
  const why = ranked.length > 0 ? `rank ${chosen.distributed!.rank}'s input with the most kernel time` : 'the input with the most kernel time';
  return {
    timeline: chosen.timeline!,
    notices: [
      {
        code: 'several-timelines',
        severity: 'info',
        message: `${withTimeline} inputs carry a timeline, each on its own clock; time-based analysis reads ${chosen.source.path} (${why}, ${(kernelNsOf(chosen) / 1e6).toFixed(3)} ms)`,
      },
    ],
  };
}
