/**
 * A GPU shared with another process during measured runs, as the GPU sampler saw it
 * (src/model/gpu-sharing.ts), set against the gated metrics' rows. A neighbour slows the runs it
 * touches by amounts no model of noise predicts, so a PASS on such runs is not shown:
 * - with `shared-gpu: refuse` (the default), a gated metric is decided again on the runs the
 *   sharing left alone, when each run's samples are known and enough clean runs remain on both
 *   sides (minSamples); the runs left out are named. Otherwise it is undecided (insufficient-data,
 *   why `shared-gpu`), except a failure seen under sharing alike on both sides (each side's share of
 *   shared runs within ALIKE_SHARE of the other's), which stands when it is shown more strictly than
 *   a pass (failCheckOf): a neighbour on both sides does not make one side slower, but it can slow
 *   every run of one side by chance; and a change found against the sharing (a failure with only
 *   the baseline shared, an improvement with only the current), which a neighbour can only have
 *   made smaller.
 * - with `shared-gpu: ignore`, every row stands as decided on all runs, and the sharing is named.
 * Rows of a metric no side saw sharing for are untouched. Pure; the rows come from compareMetrics.
 */
import { neighbourCounts, type GpuSharing, type SharedRun } from '../model/gpu-sharing.js';
import type { ComparisonRow, SharedGpuReading, Side } from '../model/report.js';
import type { GatedRow, GateInput, GateMetric } from './gate-input.js';
import { ciLevel, type GateOptions } from './gate-options.js';
import { medianIntervalMinSamples } from './median-interval.js';
import { compareMetrics, type MetricComparison } from './metric-rows.js';
import { relativeRobustSd } from './statistics.js';

/** The largest gap between the sides' shares of shared runs at which the sharing counts as alike on both. */
export const ALIKE_SHARE = 0.25;

/** Who shared the GPU, at most this many per side on a row (the busiest first). */
const WHO_SHOWN = 3;

type Who = SharedGpuReading['sides'][number]['who'][number];

function sharedRuns(sharing: GpuSharing | null | undefined): SharedRun[] {
  return sharing?.runs.filter((run) => run.shared) ?? [];
}

/** The neighbours that counted on a side, one per process (or per busy-before), with their highest readings, busiest first. */
function whoOf(runs: readonly SharedRun[]): Who[] {
  const byKey = new Map<string, Who>();
  const higher = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));
  for (const neighbour of runs.flatMap((run) => run.neighbours.filter(neighbourCounts))) {
    const key = `${neighbour.evidence}:${neighbour.pid}`;
    const was = byKey.get(key);
    const who = { pid: neighbour.pid, evidence: neighbour.evidence, maxSmPercent: neighbour.maxSmPercent, maxMemoryBytes: neighbour.maxMemoryBytes };
    byKey.set(key, was ? { ...was, maxSmPercent: higher(was.maxSmPercent, who.maxSmPercent), maxMemoryBytes: higher(was.maxMemoryBytes, who.maxMemoryBytes) } : who);
  }
  return [...byKey.values()].sort((a, b) => (b.maxSmPercent ?? -1) - (a.maxSmPercent ?? -1)).slice(0, WHO_SHOWN);
}

function sideOf(side: Side, sharing: GpuSharing | null | undefined): SharedGpuReading['sides'][number] | undefined {
  const runs = sharedRuns(sharing);
  if (!sharing || runs.length === 0) return undefined;
  return { side, runs: runs.map((run) => run.run), of: sharing.runs.length, who: whoOf(runs) };
}

/**
 * The metric's samples of the runs the sharing left alone, and how many it left out; undefined when
 * the side's samples are not placed in runs (or do not add up to the metric's). A side without a
 * recording of its processes keeps every sample: nothing was seen there to leave out.
 */
function cleanSamples(metric: GateMetric, sharing: GpuSharing | null | undefined): { samples: number[]; leftOut: number } | undefined {
  if (!sharing || sharedRuns(sharing).length === 0) return { samples: [...metric.samples], leftOut: 0 };
  const counts = sharing.runs.map((run) => run.samples?.[metric.name]);
  if (counts.some((n) => n === undefined)) return undefined;
  if (counts.reduce<number>((sum, n) => sum + n!, 0) !== metric.samples.length) return undefined;
  const samples: number[] = [];
  let at = 0;
  sharing.runs.forEach((run, i) => {
    const n = counts[i]!;
    if (!run.shared) samples.push(...metric.samples.slice(at, at + n));
    at += n;
  });
  return { samples, leftOut: metric.samples.length - samples.length };
}

/** Each side's share of shared runs within ALIKE_SHARE of the other's, both sides shared and both recorded. */
function alikeOnBothSides(current: GpuSharing | null | undefined, baseline: GpuSharing | null | undefined): boolean {
  const share = (sharing: GpuSharing | null | undefined) => (sharing && sharing.runs.length ? sharedRuns(sharing).length / sharing.runs.length : 0);
  const [c, b] = [share(current), share(baseline)];
  return c > 0 && b > 0 && Math.abs(c - b) <= ALIKE_SHARE;
}

/**
 * A change found against the sharing: a failure with only the baseline shared, or an improvement with
 * only the current shared. A neighbour only slows the runs it shares (it takes SMs, memory bandwidth
 * and power), so it made the side it shared slower, which works against the change found: the
 * change is at least what was measured.
 */
function againstSharing(status: ComparisonRow['status'], sides: readonly SharedGpuReading['sides'][number][], unshared: GpuSharing | null | undefined): boolean {
  const only = sides.length === 1 ? sides[0]!.side : undefined;
  // The other side must have been seen unshared: a side with no listing may have had a neighbour too.
  const seenClean = Boolean(unshared?.runs.length && unshared.runs.every((run) => run.listed));
  return seenClean && ((status === 'fail' && only === 'baseline') || (status === 'improved' && only === 'current'));
}

type FailCheck = NonNullable<SharedGpuReading['failCheck']>;

/**
 * The two-sided level at which a failure under a neighbour on both sides is judged again: 1 − alpha/2
 * (97.5% at the default alpha 0.05), its nearer end twice as sure as a pass's (95%). Each run sees
 * the neighbour's own load, and a side's runs can share its luck (all slowed): the runs' interval
 * does not hold that. At the pass level one simulated A/A job in about 28,000 still failed on a side
 * slowed throughout; at this level none of 48,000 (bench/README.md, "A failure under a neighbour on
 * both sides").
 */
export function sharedFailLevel(alpha: number): number {
  return 1 - alpha / 2;
}

/**
 * A failure under a neighbour on both sides, judged again: the comparison at sharedFailLevel
 * (`strict`, compareMetrics at the alpha whose interval has that level) must fail too, each side must
 * keep as many runs as a distribution-free 90% interval of a median needs (5), and an A/B decides it
 * at its last look, on every run it can take. A neighbour that slows about half the runs slows every
 * run of one side now and then: a few such runs look like a change of code, and each look of an A/B
 * is another chance of such luck.
 */
function failCheckOf(strictRow: ComparisonRow | undefined, options: GateOptions): FailCheck {
  const kept: [number, number] = strictRow?.samples ? [strictRow.samples[0], strictRow.samples[1]] : [0, 0];
  const keptNeeded = medianIntervalMinSamples(ciLevel(options.alpha));
  const waitsForLastLook = canAddRuns(options);
  const shown = !waitsForLastLook && strictRow?.status === 'fail' && Math.min(...kept) >= keptNeeded;
  const outcome = strictRow?.reading?.kind === 'metric' ? strictRow.reading.outcome : null;
  return { shown, level: sharedFailLevel(options.alpha), ci: strictRow?.ci ?? null, status: strictRow?.status ?? 'insufficient-data', outcome, kept, keptNeeded, waitsForLastLook };
}

/** Worse-positive bound of the interval: the largest regression it allows (null without one). */
function couldHide(row: ComparisonRow): number | null {
  if (!row.ci) return null;
  return row.direction === 'lower' ? row.ci[1] : -row.ci[0];
}

/** An A/B look that is not the last: it can still add runs. */
function canAddRuns(options: GateOptions): boolean {
  return Boolean(options.look && options.look.of > 1 && !options.look.final);
}

/**
 * The row undecided for the sharing: its numbers kept, the sharing as the reason. `moreRunsHelp`:
 * more runs may decide it (clean runs, where runs are told apart; or a failure's last look).
 */
function refused(row: ComparisonRow, sharedGpu: SharedGpuReading, base: GateMetric, cur: GateMetric, moreRunsHelp: boolean, options: GateOptions): GatedRow {
  const addsRuns = moreRunsHelp && canAddRuns(options);
  const insufficient: NonNullable<ComparisonRow['insufficient']> = row.insufficient
    ? { ...row.insufficient, why: 'shared-gpu', runsPerSide: null, addsRuns, quieterRunner: true }
    : { why: 'shared-gpu', noise: [relativeRobustSd(base.samples), relativeRobustSd(cur.samples)], couldHide: couldHide(row), runsPerSide: null, addsRuns, quieterRunner: true };
  const reading = row.reading?.kind === 'metric' ? row.reading : { kind: 'metric' as const };
  return {
    row: { ...row, status: 'insufficient-data', insufficient, reading: { ...reading, outcome: 'shared-gpu', sharedGpu } },
    ...(moreRunsHelp ? { undecided: true } : {}),
  };
}

/** A gated metric's row on both sides: the ones sharing can change. */
function isGated(row: ComparisonRow): boolean {
  return row.kind === 'metric' && row.threshold !== null && row.baseline !== null && row.current !== null && row.status !== 'info';
}

/**
 * The metric rows with the GPU's sharing applied (see the module's comment). `metrics` is
 * compareMetrics of the same sides and options.
 */
export function applySharedGpu(current: GateInput, baseline: GateInput, metrics: MetricComparison, options: GateOptions): MetricComparison {
  const sides = [sideOf('baseline', baseline.gpuSharing), sideOf('current', current.gpuSharing)].filter((s) => s !== undefined);
  if (sides.length === 0) return metrics;
  const baseByName = new Map(baseline.metrics.map((m) => [m.name, m]));
  const curByName = new Map(current.metrics.map((m) => [m.name, m]));

  // The gated metrics whose clean runs are enough on both sides: compared again together, so the
  // correction across metrics stays as it was.
  // Each gated metric's runs told apart on both sides (placed), and those with enough clean runs.
  type Kept = { samples: number[]; leftOut: number };
  const placed = new Map<string, { base: Kept; cur: Kept }>();
  const clean = new Map<string, { base: Kept; cur: Kept }>();
  if (options.sharedGpu === 'refuse') {
    for (const { row } of metrics.rows) {
      const base = baseByName.get(row.metric);
      const cur = curByName.get(row.metric);
      if (!isGated(row) || !base || !cur) continue;
      const b = cleanSamples(base, baseline.gpuSharing);
      const c = cleanSamples(cur, current.gpuSharing);
      if (!b || !c) continue;
      placed.set(row.metric, { base: b, cur: c });
      if (b.samples.length >= options.minSamples && c.samples.length >= options.minSamples) clean.set(row.metric, { base: b, cur: c });
    }
  }
  const withClean = (list: readonly GateMetric[], side: 'base' | 'cur') =>
    list.map((m) => {
      const kept = clean.get(m.name)?.[side];
      return kept ? { ...m, samples: kept.samples } : m;
    });
  const again = clean.size ? compareMetrics(withClean(current.metrics, 'cur'), withClean(baseline.metrics, 'base'), options) : undefined;
  const againByName = new Map((again?.rows ?? []).map((r) => [r.row.metric, r]));

  // The comparison at sharedFailLevel, made once when a failure under sharing on both sides needs it.
  let strict: Map<string, ComparisonRow> | undefined;
  const rows = metrics.rows.map((gated): GatedRow => {
    const { row } = gated;
    const base = baseByName.get(row.metric);
    const cur = curByName.get(row.metric);
    if (!isGated(row) || !base || !cur || row.reading?.kind !== 'metric') return gated;
    const reading = row.reading;
    const sharedGpu = (action: SharedGpuReading['action']): SharedGpuReading => ({ action, allRuns: row.status, sides: sides.map((s) => ({ ...s, runs: [...s.runs], who: [...s.who] })) });
    if (options.sharedGpu === 'ignore') {
      return { ...gated, row: { ...row, reading: { ...reading, sharedGpu: sharedGpu('ignored') } } };
    }
    const kept = clean.get(row.metric);
    const decided = againByName.get(row.metric);
    if (kept && decided && decided.row.reading?.kind === 'metric') {
      const leftOut = decided.row.leftOut ?? [0, 0];
      return {
        ...decided,
        row: {
          ...decided.row,
          leftOut: [leftOut[0] + kept.base.leftOut, leftOut[1] + kept.cur.leftOut],
          reading: { ...decided.row.reading, sharedGpu: sharedGpu('clean-runs') },
        },
      };
    }
    if (row.status === 'fail' && alikeOnBothSides(current.gpuSharing, baseline.gpuSharing)) {
      // ciLevel(a) = 1 − 2a: the alpha whose interval is at sharedFailLevel.
      strict ??= new Map(compareMetrics(current.metrics, baseline.metrics, { ...options, alpha: (1 - sharedFailLevel(options.alpha)) / 2 }).rows.map((r) => [r.row.metric, r.row]));
      const failCheck = failCheckOf(strict.get(row.metric), options);
      if (failCheck.shown) return { ...gated, row: { ...row, reading: { ...reading, sharedGpu: { ...sharedGpu('fail-both-sides'), failCheck } } } };
      return refused(row, { ...sharedGpu('refused'), refusedFor: 'fail-not-shown', failCheck }, base, cur, true, options);
    }
    if (againstSharing(row.status, sides, sides[0]?.side === 'baseline' ? current.gpuSharing : baseline.gpuSharing)) {
      return { ...gated, row: { ...row, reading: { ...reading, sharedGpu: sharedGpu('against-sharing') } } };
    }
    const told = placed.has(row.metric);
    return refused(row, { ...sharedGpu('refused'), refusedFor: told ? 'too-few-clean-runs' : 'runs-not-told-apart' }, base, cur, told, options);
  });
  const recomputed = new Set(clean.keys());
  return {
    ...metrics,
    rows,
    // A metric compared again on its clean runs names its own stalls in its row; the all-runs note would count runs it no longer has.
    outlierNotes: metrics.outlierNotes.map((note) => ({ ...note, metrics: note.metrics.filter((m) => !recomputed.has(m)) })).filter((note) => note.metrics.length > 0),
  };
}
