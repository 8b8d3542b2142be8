/**
 * Metric rows: a gated metric regresses only when the change is statistically real (one-sided
 * exact Mann-Whitney, or Student's t on the fast clusters when runs were left out as stalled or
 * warm-up; corrected across the metrics of the run, and a bootstrap CI of the median ratio on the
 * same side of zero) AND at least the metric's practical floor, its whole interval past it, AND
 * neither side's own runs reach the other side's median (with two clock states, medians move by
 * which state more runs fell in; a test cannot tell that from a regression). It passes only when
 * its interval at the stricter pass level lies inside the floor.
 */
import { DESCRIPTIVE_METRICS } from '../model/metrics.js';
import type { ComparisonNote, ComparisonRow, MetricReading, RowStatus, StallSide } from '../model/report.js';
import type { GatedRow, GateMetric } from './gate-input.js';
import { ciLevel, metricFloor, type GateOptions } from './gate-options.js';
import { lookAlpha, RUNS_PER_EXTRA_LOOK } from './sequential.js';
import { adjustPValues, bootstrapMedianRatioCI, DEFAULT_OUTLIER_RULE, DEFAULT_WARMUP_RULE, detectDrift, dropWarmupOutliers, findSlowOutliers, mannWhitneyU, median, mulberry32, relativeRobustSd, relativeSd, seedFor, slowestPositions, symmetricStalls, trimmedTTest } from './statistics.js';
import { medianInterval, medianIntervalMinSamples } from './median-interval.js';

interface Side {
  label: 'baseline' | 'current';
  /** The runs after the warm-up rule, in order: what the interval resamples. */
  runs: number[];
  /** The runs that tell the side's speed: `runs` less the slowest `outliers`. */
  kept: number[];
  dropped: number[];
  /** Runs left out as the side's slowest (stalls, and as many of each side): out of the median, the test's mean and the overlap check. */
  outliers: StalledRun[];
  /** Their values. */
  stalled: number[];
  /** Runs below the side's fast cluster (stalls as the outlier rule finds them), before the cap and the symmetry. */
  found: number;
  /** The runs left out, as data, for the row and the comparison's notes (absent when none were). */
  stall?: StallSide;
  value: number;
  /** The metric's samples as given, unreadable ones included. */
  total: number;
}

/** A run left out: its number as measured (warm-up runs included), its distance below the kept runs' median, and whether the outlier rule found it stalled. */
interface StalledRun {
  run: number;
  change: number;
  stall: boolean;
}

interface Pending {
  name: string;
  unit: string;
  direction: 'higher' | 'lower';
  floor: number;
  base: Side;
  cur: Side;
  /** What the row's note says, as data (src/report/row-lines.ts metricRowNote writes it). */
  said: MetricSaid;
  driftData: NonNullable<MetricReading['drift']>;
  /** Relative change of the medians, current / baseline − 1. */
  delta: number;
  ci: [number, number];
  /** The interval a pass is judged on: the same resamples at `passLevel` (wider). */
  passCi: [number, number];
  pWorse: number;
  pBetter: number;
}

/** What a metric row says of its runs beside its outcome: warm-up runs dropped or kept, runs left out as stalled. */
type MetricSaid = Pick<MetricReading, 'warmupDropped' | 'warmupKept' | 'stalls' | 'minSamples'>;

function say<K extends 'warmupDropped' | 'warmupKept' | 'stalls'>(said: MetricSaid, key: K, item: NonNullable<MetricSaid[K]>[number]): void {
  (said[key] ??= [] as never as NonNullable<MetricSaid[K]>).push(item as never);
}

/** The warm-up rule, and the runs the outlier rule finds below the side's fast cluster (not yet left out). */
function warmSide(label: Side['label'], metric: GateMetric, options: GateOptions, said: MetricSaid, other: GateMetric): { runs: number[]; dropped: number[]; stalls: Set<number> } {
  const samples = metric.samples.filter(Number.isFinite);
  const rule = { ...DEFAULT_WARMUP_RULE, minKeep: options.minSamples };
  const { kept, dropped } = options.dropWarmup ? dropWarmupOutliers(samples, metric.direction, rule) : { kept: samples, dropped: [] };
  if (options.dropWarmup && !dropped.length && dropWarmupOutliers(samples, metric.direction, { ...rule, minKeep: 2 }).dropped.length) {
    say(said, 'warmupKept', label);
    said.minSamples = options.minSamples;
  }
  if (dropped.length) say(said, 'warmupDropped', { side: label, values: [...dropped], median: median(kept) });
  const stalls = options.dropOutliers ? new Set(findSlowOutliers(kept, metric.direction, { ...DEFAULT_OUTLIER_RULE, minRuns: options.minSamples + 1 }, { other: other.samples.filter(Number.isFinite) }).outliers) : new Set<number>();
  return { runs: kept, dropped, stalls };
}

/** The side with its `k` slowest runs left out (the same k on both sides: `symmetricStalls`). */
function trimSide(label: Side['label'], metric: GateMetric, warm: ReturnType<typeof warmSide>, k: number): Side {
  const { runs, dropped, stalls } = warm;
  const out = new Set(slowestPositions(runs, k, metric.direction));
  const kept = runs.filter((_, i) => !out.has(i));
  const center = kept.length ? median(kept) : Number.NaN;
  // Runs are numbered as measured, the warm-up runs included.
  const outliers: StalledRun[] = [...out].map((i) => ({ run: i + dropped.length + 1, change: runs[i]! / center - 1, stall: stalls.has(i) }));
  return { label, runs, kept, dropped, outliers, stalled: [...out].map((i) => runs[i]!), found: stalls.size, value: kept.length ? center : metric.value, total: metric.samples.length };
}

/**
 * The runs left out of each side, as data: the stalls the rule found, and the clean runs taken out
 * so that both sides lose as many; a side with more runs below its fast cluster than were left out
 * (more than a stall's share) counts as noisy (src/report/row-lines.ts writes it).
 */
function stallData(base: Side, cur: Side, rule: { maxShare: number }): void {
  for (const side of [base, cur]) {
    if (!side.outliers.length) continue;
    side.stall = { side: side.label, runs: side.outliers.map((r) => ({ ...r })), kept: side.kept.length, spread: relativeSpreadOf(side.kept), found: side.found, maxShare: rule.maxShare };
  }
}

function relativeSpreadOf(values: readonly number[]): number {
  if (!values.length) return 0;
  const center = median(values);
  return Math.abs(center) > 0 ? Math.max(...values.map((v) => Math.abs(v / center - 1))) : 0;
}

function infoRow(name: string, base: GateMetric | undefined, cur: GateMetric | undefined): ComparisonRow {
  const metric = (cur ?? base)!;
  const baseline = base ? base.value : null;
  const current = cur ? cur.value : null;
  return {
    metric: name,
    kind: 'metric',
    unit: metric.unit,
    direction: metric.direction,
    baseline,
    current,
    delta: baseline !== null && current !== null && baseline !== 0 ? current / baseline - 1 : null,
    ci: null,
    threshold: null,
    status: 'info',
  };
}

/**
 * The one-sided test of the current side against the baseline. With nothing left out, the exact
 * Mann-Whitney test of the runs. With runs left out (as many slowest runs of each side, stalls
 * among them, or a warm-up run), the kept runs are often 2 to 4, and no rank test of so few can
 * reach the gate's level however far apart they lie: Yuen's trimmed t-test compares them, its
 * spread winsorized (the runs left out counted at the slowest kept one, so slow runs beyond those
 * left out widen it), pooled over both sides and taken as at least the outlier rule's 0.2%.
 */
function sideTest(cur: Side, base: Side, direction: 'higher' | 'lower'): { pWorse: number; pBetter: number } {
  if (leftOut(cur) || leftOut(base)) {
    const minSd = DEFAULT_OUTLIER_RULE.minSpread * Math.max(Math.abs(cur.value), Math.abs(base.value));
    const test = trimmedTTest(cur.runs, base.runs, cur.stalled.length, base.stalled.length, direction, minSd);
    return direction === 'higher' ? { pWorse: test.pLess, pBetter: test.pGreater } : { pWorse: test.pGreater, pBetter: test.pLess };
  }
  const test = mannWhitneyU(cur.kept, base.kept);
  return direction === 'higher' ? { pWorse: test.pLess, pBetter: test.pGreater } : { pWorse: test.pGreater, pBetter: test.pLess };
}

/** Runs of the side left out as slower than the rest: stalled, or dropped as warm-up (a slow first run is a stall the process start made). */
function leftOut(side: Side): number {
  return side.stalled.length + side.dropped.length;
}

/** Worse-is-positive: the change as a regression fraction for this metric's direction. */
function worseBy(direction: 'higher' | 'lower', delta: number): number {
  return direction === 'higher' ? -delta : delta;
}

export interface MetricComparison {
  rows: GatedRow[];
  /** Gated metrics present on both sides. */
  compared: number;
  /** Gated metrics the baseline has. */
  gatedInBaseline: number;
  /** Runs left out as outliers, one note per set of runs (metrics from the same runs share it). */
  outlierNotes: Extract<ComparisonNote, { kind: 'left-out' }>[];
}

/** What one metric left out as stalled: which runs of which side. */
export interface MetricStalls {
  name: string;
  sides: readonly StallSide[];
}

/**
 * Metrics that left out the same runs (the same run numbers of the same sides) named together,
 * under the first one's data: grouped by the run numbers alone.
 */
export function groupStalls(stalls: readonly MetricStalls[]): Extract<ComparisonNote, { kind: 'left-out' }>[] {
  const byRuns = new Map<string, Extract<ComparisonNote, { kind: 'left-out' }>>();
  for (const s of stalls) {
    const runs = (side: Side['label']) => s.sides.find((x) => x.side === side)?.runs.map((r) => r.run) ?? [];
    if (!runs('baseline').length && !runs('current').length) continue;
    const key = JSON.stringify([runs('baseline'), runs('current')]);
    const entry = byRuns.get(key);
    if (entry) entry.metrics.push(s.name);
    else byRuns.set(key, { kind: 'left-out', metrics: [s.name], sides: [...s.sides] });
  }
  return [...byRuns.values()];
}

function outlierNotes(pending: readonly Pending[]): Extract<ComparisonNote, { kind: 'left-out' }>[] {
  return groupStalls(pending.map((p) => ({ name: p.name, sides: [p.base.stall, p.cur.stall].filter((x) => x !== undefined) })));
}

export function compareMetrics(current: readonly GateMetric[], baseline: readonly GateMetric[], options: GateOptions): MetricComparison {
  const baseByName = new Map(baseline.map((m) => [m.name, m]));
  const curByName = new Map(current.map((m) => [m.name, m]));
  const names = [...new Set([...baseByName.keys(), ...curByName.keys()])].filter((n) => !DESCRIPTIVE_METRICS.has(n));
  const rows: GatedRow[] = [];
  const pending: Pending[] = [];
  let compared = 0;
  let gatedInBaseline = 0;

  for (const name of names) {
    const base = baseByName.get(name);
    const cur = curByName.get(name);
    const floor = metricFloor(options, name);
    if (floor === undefined) {
      if (base && cur) rows.push({ row: { ...infoRow(name, base, cur), reading: { kind: 'metric', outcome: 'not-gated' } } });
      continue;
    }
    if (base) gatedInBaseline += 1;
    if (!base || !cur) {
      const side = base ? 'baseline' : 'current';
      rows.push({ row: { ...infoRow(name, base, cur), reading: { kind: 'metric', outcome: 'only-in', side } } });
      continue;
    }
    compared += 1;
    const direction = cur.direction;
    const said: MetricSaid = {};
    const baseWarm = warmSide('baseline', base, options, said, cur);
    const curWarm = warmSide('current', cur, options, said, base);
    // As many runs of each side left out, within a stall's share: a neighbour slows both sides.
    const k = options.dropOutliers
      ? symmetricStalls(
          { baseline: baseWarm.stalls.size, current: curWarm.stalls.size },
          { baseline: baseWarm.dropped.length, current: curWarm.dropped.length },
          { baseline: baseWarm.runs.length + baseWarm.dropped.length, current: curWarm.runs.length + curWarm.dropped.length },
          { ...DEFAULT_OUTLIER_RULE, minRuns: options.minSamples + 1 },
        )
      : { baseline: 0, current: 0 };
    const baseSide = trimSide('baseline', base, baseWarm, k.baseline);
    const curSide = trimSide('current', cur, curWarm, k.current);
    stallData(baseSide, curSide, DEFAULT_OUTLIER_RULE);
    for (const side of [baseSide, curSide]) if (side.stall) say(said, 'stalls', side.stall);
    if (!(baseSide.value > 0) || !(curSide.value >= 0)) {
      // A ratio of medians needs a positive baseline (e.g. failed_requests at 0 has no relative change).
      rows.push({ row: { ...infoRow(name, base, cur), delta: null, reading: { kind: 'metric', outcome: 'no-relative-change' } } });
      continue;
    }
    // Stalled runs were measured: they count towards the minimum, though the fast clusters decide.
    const nBase = baseSide.kept.length + baseSide.stalled.length;
    const nCur = curSide.kept.length + curSide.stalled.length;
    const delta = curSide.value / baseSide.value - 1;
    if (nBase < options.minSamples || nCur < options.minSamples) {
      rows.push({
        row: {
          metric: name,
          kind: 'metric',
          unit: cur.unit,
          direction,
          baseline: baseSide.value,
          current: curSide.value,
          delta,
          ci: null,
          threshold: floor,
          pValue: null,
          samples: [nBase, nCur],
          leftOut: [base.samples.length - nBase, cur.samples.length - nCur],
          status: 'insufficient-data',
          insufficient: {
            why: 'too-few-samples',
            noise: [relativeRobustSd(baseSide.runs), relativeRobustSd(curSide.runs)],
            couldHide: null,
            runsPerSide: options.minSamples,
            addsRuns: Boolean(options.look && options.look.of > 1 && !options.look.final),
            quieterRunner: false,
          },
          reading: { kind: 'metric', outcome: 'too-few-samples', minSamples: options.minSamples, ...said },
        },
        undecided: true,
      });
      continue;
    }
    const test = sideTest(curSide, baseSide, direction);
    // The kept runs are resampled: as many runs of each side were left out, so neither is favoured, and
    // slow runs beyond a stall's share are among the kept ones and widen the interval.
    const interval = bootstrapMedianRatioCI(curSide.kept, baseSide.kept, {
      level: ciLevel(options.alpha),
      resamples: options.bootstrapResamples,
      random: mulberry32(seedFor(options.seed, name)),
      strictLevel: passLevel(options.alpha),
    });
    const driftData: Pending['driftData'] = [];
    for (const side of [baseSide, curSide]) {
      const found = detectDrift(side.kept, { alpha: options.drift.alpha, minChange: options.drift.minChangePct / 100 });
      if (found.drift) driftData.push({ side: side.label, change: found.change, samples: side.kept.length, pValue: found.pValue });
    }
    pending.push({
      name,
      unit: cur.unit,
      direction,
      floor,
      base: baseSide,
      cur: curSide,
      said,
      driftData,
      delta,
      ci: [interval.low - 1, interval.high - 1],
      passCi: [interval.strict!.low - 1, interval.strict!.high - 1],
      pWorse: test.pWorse,
      pBetter: test.pBetter,
    });
  }

  // One correction per direction: a regression family (what fails) and an improvement family.
  const adjWorse = adjustPValues(pending.map((p) => p.pWorse), options.correction);
  const adjBetter = adjustPValues(pending.map((p) => p.pBetter), options.correction);
  pending.forEach((p, i) => rows.push(decide(p, adjWorse[i]!, adjBetter[i]!, options)));
  return { rows, compared, gatedInBaseline, outlierNotes: outlierNotes(pending) };
}

/**
 * When one side's own runs reach the other side's median, the medians' difference can come from
 * which state more runs fell in (two clock or power states) rather than the code. A run of the
 * faster-looking side can only be slowed (a stall, a neighbour), so the slower side's runs at the
 * faster side's level are evidence the build runs that fast, and always count; the faster side's
 * runs at the slower side's level count only as a state, a third of its runs or more: one slowed
 * run of a busy GPU is no second state. Says which runs, or undefined when the sides do not overlap so.
 */
function overlap(p: Pending, worse: number): NonNullable<MetricReading['overlap']> | undefined {
  // In "worse is larger" terms, so one comparison serves both directions.
  const bad = (value: number) => (p.direction === 'higher' ? -value : value);
  const [slow, fast] = worse > 0 ? [p.cur, p.base] : [p.base, p.cur];
  // Within half the floor counts as reaching: run-to-run jitter is not a state of its own.
  const margin = (p.floor / 2) * fast.value;
  const fastReach = fast.kept.filter((v) => bad(v) >= bad(slow.value) - margin).length;
  const slowReach = slow.kept.filter((v) => bad(v) <= bad(fast.value) + margin).length;
  const shownFast = fastReach && fastReach * 3 >= fast.kept.length ? fastReach : 0;
  if (!shownFast && !slowReach) return undefined;
  return { slow: slow.label, fastReach: shownFast, fastKept: fast.kept.length, slowReach, slowKept: slow.kept.length };
}

/**
 * The two-sided level of the interval a pass is judged on: 1 − alpha (95% at the default 0.05), so
 * its worse end errs on one side at alpha / 2, half what a fail's test is held to. A pass is the
 * claim a reader stops at; beside a busy GPU's neighbour, a 90% interval of a few runs lay inside a
 * 3% floor for up to 1 simulated 5% regression in 100 (bench/README.md, "The trials that missed").
 */
export function passLevel(alpha: number): number {
  return 1 - alpha;
}

/** Runs per side beyond which a job is not the way to decide a metric: a quieter runner (or pinned clocks) is. */
export const MAX_PRACTICAL_RUNS = 30;

type Insufficient = NonNullable<ComparisonRow['insufficient']>;

/**
 * What an undecided row is missing, as data: each side's run-to-run noise, the largest regression
 * the interval still allows, and the runs per side at which an interval as wide per run (its width
 * shrinks as 1/√n) would decide it: lie inside the floor (pass) when the change is within it, or
 * clear of the floor (fail) when it is beyond. At least one A/B pair more than the runs already taken.
 */
function insufficientOf(p: Pending, why: Insufficient['why'], worse: number, options: GateOptions, ci: [number, number] = p.ci, keptNeeded = 0): Insufficient {
  const [low, high] = ci;
  const worstWorse = p.direction === 'higher' ? -low : high;
  const bestWorse = p.direction === 'higher' ? -high : low;
  const n = Math.min(p.base.runs.length, p.cur.runs.length);
  // A pass needs the worse end inside the floor; a fail the better end past it.
  const reach = worse < p.floor ? (worstWorse - worse) / (p.floor - worse) : (worse - bestWorse) / (worse - p.floor);
  let runs: number | null = Number.isFinite(reach) && reach > 0 ? Math.ceil(n * reach * reach) : null;
  if (runs !== null) runs = Math.max(runs, n + RUNS_PER_EXTRA_LOOK);
  // Too few kept runs: at least as many more as the side with fewest kept lacks (its stalls may recur).
  if (keptNeeded) runs = Math.max(runs ?? 0, n + keptNeeded - Math.min(p.base.kept.length, p.cur.kept.length), n + RUNS_PER_EXTRA_LOOK);
  const look = options.look;
  return {
    why,
    noise: [relativeRobustSd(p.base.runs), relativeRobustSd(p.cur.runs)],
    couldHide: Number.isFinite(worstWorse) ? worstWorse : null,
    runsPerSide: runs,
    addsRuns: Boolean(look && look.of > 1 && !look.final),
    quieterRunner: runs === null || runs > MAX_PRACTICAL_RUNS,
  };
}

/**
 * Each side's median interval of its kept runs, at the gate's level, lies apart from the other's by
 * more than the overlap check's reach (half the floor): null intervals (too few runs) are not apart.
 */
function intervalsApart(p: Pending, options: GateOptions): boolean {
  const a = medianInterval(p.base.kept, ciLevel(options.alpha));
  const b = medianInterval(p.cur.kept, ciLevel(options.alpha));
  if (!a || !b) return false;
  const gap = Math.max(b.low - a.high, a.low - b.high);
  return gap > (p.floor / 2) * p.base.value;
}

/** A side's kept runs spread this many times the other's (taken as at least `NOISY_SIDE_MIN_SD`): a neighbour's varying slowdowns, not one change of code. */
export const NOISY_SIDE_RATIO = 3;
/** The least spread a side is taken to have for that ratio: 0.1%, above the quiet H200's largest within-process sd (0.07%). */
export const NOISY_SIDE_MIN_SD = 0.001;

/** …and its spread is at least this share of the change: slowdowns that vary by about the change itself, not jitter around a step. */
export const NOISY_SIDE_CHANGE_SHARE = 1 / 6;

/**
 * The slower-looking side's runs spread far more than the other's, by about the change itself: a
 * neighbour slows runs by varying amounts, a change of code slows them by one (with its jitter, or
 * a drift, far smaller than the step). The spread is over all the side's runs after the warm-up
 * rule, robust (a median of deviations): a minority of stalls does not move it, a side whose runs
 * most were slowed by varying amounts does. With `fasterHalf`, only the side's faster half is
 * measured (each side's, for the ratio; its plain sd): a change of code moves the runs the
 * neighbour spared together, to one level, while a side the neighbour slowed throughout has no
 * such level. Its text, or undefined.
 */
function noisySide(p: Pending, worse: number, fasterHalf = false): NonNullable<MetricReading['noisy']> | undefined {
  const [slow, fast] = worse > 0 ? [p.cur, p.base] : [p.base, p.cur];
  if (slow.runs.length < 3) return undefined;
  // The faster half holds no stalls to resist: its plain sd, which two runs that happen to agree do not make 0.
  const spreadOf = (runs: readonly number[]) => (fasterHalf ? relativeSd(fasterHalfOf(runs, p.direction)) : relativeRobustSd(runs));
  const slowSd = spreadOf(slow.runs);
  const fastSd = spreadOf(fast.runs);
  if (!(slowSd > NOISY_SIDE_RATIO * Math.max(fastSd, NOISY_SIDE_MIN_SD))) return undefined;
  if (!(slowSd >= NOISY_SIDE_CHANGE_SHARE * Math.abs(worse))) return undefined;
  return { slow: slow.label, slowSd, fastSd, ...(fasterHalf ? { fasterHalf: true } : {}) };
}

/** The better half of a side's runs (rounded up): the runs a neighbour slowed least. */
function fasterHalfOf(runs: readonly number[], direction: 'higher' | 'lower'): number[] {
  const sorted = [...runs].sort((a, b) => (direction === 'higher' ? b - a : a - b));
  return sorted.slice(0, Math.ceil(sorted.length / 2));
}

/** The baseline's fastest kept run beats the current's median by the floor or more: the baseline ran that fast, so a regression at the floor is not ruled out. Its text, or undefined. */
function baselineRanFaster(p: Pending): NonNullable<MetricReading['baselineFaster']> | undefined {
  const better = (a: number, b: number) => (p.direction === 'higher' ? a / b - 1 : b / a - 1);
  const fastest = p.direction === 'higher' ? Math.max(...p.base.kept) : Math.min(...p.base.kept);
  const by = better(fastest, p.cur.value);
  if (!(by >= p.floor)) return undefined;
  return { fastest, by };
}

function decide(p: Pending, pWorse: number, pBetter: number, options: GateOptions): GatedRow {
  const worse = worseBy(p.direction, p.delta);
  const [ciLow, ciHigh] = p.ci;
  // The CI must lie wholly on the side of the change, in the direction's terms.
  const ciWorse = p.direction === 'higher' ? ciHigh < 0 : ciLow > 0;
  const ciBetter = p.direction === 'higher' ? ciLow > 0 : ciHigh < 0;
  // A pass is shown, not assumed: the worst end of its interval, at the stricter pass level, lies
  // inside the floor. A fail is shown too: the whole interval lies past the floor (below).
  const passWorst = p.direction === 'higher' ? -p.passCi[0] : p.passCi[1];
  const withinFloor = passWorst < p.floor;
  const pastFloorWorse = p.direction === 'higher' ? ciHigh <= -p.floor : ciLow >= p.floor;
  // An adaptive A/B run spends alpha over its looks; the CI stays at the nominal level (it only adds a condition).
  const alpha = lookAlpha(options.alpha, options.look);
  const significantWorse = pWorse <= alpha && ciWorse;
  const significantBetter = pBetter <= alpha && ciBetter;
  const pValue = worse > 0 ? pWorse : pBetter;
  const decided = (significantWorse && worse >= p.floor) || (significantBetter && -worse >= p.floor);
  // The interval's nearer end lies past the floor too: the whole interval is a change beyond it.
  const intervalPastFloor = ciLow >= p.floor || ciHigh <= -p.floor;
  // Significant with each side's median interval apart from the other's is decided: runs of one
  // side reaching the other's median do not hold it back. A noisy side is another matter: a side
  // the neighbour slowed throughout lies apart too. With the whole interval past the floor, a noisy
  // side is held back only while its faster half too varies by about the change.
  const sidesOverlap = decided && options.overlapCheck && !intervalsApart(p, options) ? overlap(p, worse) : undefined;
  const noisyAll = decided && options.overlapCheck && !sidesOverlap ? noisySide(p, worse) : undefined;
  const noisy = noisyAll && intervalPastFloor ? noisySide(p, worse, true) : noisyAll;
  const overlapping = sidesOverlap ?? noisy;
  // With runs left out as stalled, a pass rests on a side's fastest runs, and beside a neighbour
  // that slows about half the runs, every one of a few kept runs can have been slowed by about the
  // same amount: their bootstrap interval cannot show it. An A/B look that can still add runs does
  // not stop on such a pass: it takes runs until each such side keeps as many as a
  // distribution-free interval of a median needs at the pass level (6 at 95%). A single comparison,
  // or the last look, decides from the runs it has.
  const keptNeeded = medianIntervalMinSamples(passLevel(options.alpha));
  const canAddRuns = Boolean(options.look && options.look.of > 1 && !options.look.final);
  const fewKept = canAddRuns && [p.base, p.cur].some((side) => side.stalled.length > 0 && side.kept.length < keptNeeded);
  // A fail rests on the kept runs as much: a look that can add runs does not fail on fewer kept
  // runs of such a side than an interval of a median needs at the fail level (5 at 90%), while the
  // change is no larger than the deepest run left out as stalled (what slowed those runs could have
  // slowed all the few kept ones alike; a change beyond it, it could not).
  const failKeptNeeded = medianIntervalMinSamples(ciLevel(options.alpha));
  const stallDepth = Math.max(0, ...[p.base, p.cur].flatMap((side) => side.outliers.map((run) => Math.abs(run.change))));
  const fewKeptToFail = canAddRuns && worse <= stallDepth && [p.base, p.cur].some((side) => side.stalled.length > 0 && side.kept.length < failKeptNeeded);
  const ranFaster = withinFloor && !decided && !fewKept ? baselineRanFaster(p) : undefined;
  // What the row's sentence reads (src/report/row-lines.ts writes it).
  const reading: MetricReading = {
    kind: 'metric',
    outcome: 'within-floor',
    level: ciLevel(options.alpha),
    stalled: p.base.stalled.length + p.cur.stalled.length,
    warmup: p.base.dropped.length + p.cur.dropped.length,
    ...p.said,
  };
  // Undecided unless a branch below decides it.
  let status: RowStatus = 'insufficient-data';
  let insufficient: Insufficient | undefined;
  if (overlapping && worse > 0) {
    // Significant and past the floor, yet the sides overlap or the slower one is noisy: not decided.
    insufficient = insufficientOf(p, sidesOverlap ? 'sides-overlap' : 'noisy-side', worse, options);
    reading.outcome = sidesOverlap ? 'sides-overlap' : 'noisy-side';
  } else if (significantWorse && worse >= p.floor && pastFloorWorse && fewKeptToFail) {
    insufficient = insufficientOf(p, 'too-few-kept', worse, options, p.ci, failKeptNeeded);
    reading.outcome = 'too-few-kept';
    reading.keptNeeded = failKeptNeeded;
    reading.keptFor = 'fail';
  } else if (significantWorse && worse >= p.floor && pastFloorWorse) {
    status = 'fail';
    reading.outcome = 'regressed';
  } else if (significantWorse && worse >= p.floor) {
    // Significant and past the floor at its median, but the interval reaches inside the floor: a
    // regression at the floor is not shown (noise of a busy GPU makes such medians by chance).
    insufficient = insufficientOf(p, 'interval-reaches-inside-floor', worse, options);
    reading.outcome = 'interval-reaches-inside-floor';
  } else if (significantBetter && -worse >= p.floor && !overlapping) {
    status = 'improved';
    reading.outcome = 'improved';
  } else if (worse >= p.floor) {
    insufficient = insufficientOf(p, 'not-significant', worse, options);
    reading.outcome = 'not-significant';
  } else if (!withinFloor) {
    insufficient = insufficientOf(p, 'interval-reaches-floor', worse, options, p.passCi);
    reading.outcome = 'interval-reaches-floor';
  } else if (fewKept) {
    insufficient = insufficientOf(p, 'too-few-kept', worse, options, p.passCi, keptNeeded);
    reading.outcome = 'too-few-kept';
    reading.keptNeeded = keptNeeded;
    reading.keptFor = 'pass';
  } else if (ranFaster) {
    insufficient = insufficientOf(p, 'baseline-ran-faster', worse, options);
    reading.outcome = 'baseline-ran-faster';
  } else {
    status = 'pass';
    if (significantWorse || significantBetter) reading.smallChange = true;
  }
  if (worse < p.floor && status !== 'improved') reading.passInterval = { level: passLevel(options.alpha), ci: p.passCi };
  if (sidesOverlap) reading.overlap = sidesOverlap;
  if (noisy) reading.noisy = noisy;
  if (ranFaster) reading.baselineFaster = ranFaster;
  if (p.driftData.length) {
    reading.drift = p.driftData;
    if (status === 'pass' || status === 'improved') {
      status = 'warn';
      reading.outcome = 'drift';
    }
  }
  return {
    row: {
      metric: p.name,
      kind: 'metric',
      unit: p.unit,
      direction: p.direction,
      baseline: p.base.value,
      current: p.cur.value,
      delta: p.delta,
      ci: p.ci,
      threshold: p.floor,
      pValue,
      samples: [p.base.kept.length, p.cur.kept.length],
      leftOut: [p.base.total - p.base.kept.length, p.cur.total - p.cur.kept.length],
      status,
      ...(insufficient ? { insufficient } : {}),
      reading,
    },
    ...(insufficient ? { undecided: true } : {}),
  };
}
