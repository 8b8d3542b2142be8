/**
 * Metric rows: a gated metric regresses only when the change is statistically real (one-sided
 * exact Mann-Whitney, or Student's t on the fast clusters when runs were left out as stalled or
 * warm-up; corrected across the metrics of the run, and a bootstrap CI of the median ratio on the
 * same side of zero) AND at least the metric's practical floor AND neither side's own runs reach
 * the other side's median (with two clock states, medians move by which state more runs fell in;
 * a test cannot tell that from a regression).
 */
import { DESCRIPTIVE_METRICS } from '../model/metrics.js';
import type { ComparisonRow, RowStatus } from '../model/report.js';
import { formatP, formatPct, formatPctRange, formatValue } from './percent-format.js';
import type { GatedRow, GateMetric } from './gate-input.js';
import { ciLevel, metricFloor, type GateOptions } from './gate-options.js';
import { lookAlpha } from './sequential.js';
import { adjustPValues, bootstrapMedianRatioCI, DEFAULT_OUTLIER_RULE, DEFAULT_WARMUP_RULE, detectDrift, dropWarmupOutliers, findSlowOutliers, mannWhitneyU, median, mulberry32, seedFor, pooledTTest } from './statistics.js';

interface Side {
  label: 'baseline' | 'current';
  kept: number[];
  dropped: number[];
  /** Runs below the side's fast cluster (stalls), left out of the median, the test, the CI and the overlap check. */
  outliers: StalledRun[];
  /** Their values (each would have run at least that fast). */
  stalled: number[];
  /** The note that names the stalled runs, as rendered once (absent when none were left out). */
  stallNote?: string;
  value: number;
  /** The metric's samples as given, unreadable ones included. */
  total: number;
}

/** A run left out as stalled: its number as measured (warm-up runs included) and its distance below the fast cluster's median. */
interface StalledRun {
  run: number;
  change: number;
}

interface Pending {
  name: string;
  unit: string;
  direction: 'higher' | 'lower';
  floor: number;
  base: Side;
  cur: Side;
  notes: string[];
  drift: string[];
  /** Relative change of the medians, current / baseline − 1. */
  delta: number;
  ci: [number, number];
  pWorse: number;
  pBetter: number;
}

function prepareSide(label: Side['label'], metric: GateMetric, options: GateOptions, notes: string[], other: GateMetric): Side {
  const samples = metric.samples.filter(Number.isFinite);
  const rule = { ...DEFAULT_WARMUP_RULE, minKeep: options.minSamples };
  const { kept, dropped } = options.dropWarmup ? dropWarmupOutliers(samples, metric.direction, rule) : { kept: samples, dropped: [] };
  if (options.dropWarmup && !dropped.length && dropWarmupOutliers(samples, metric.direction, { ...rule, minKeep: 2 }).dropped.length) {
    notes.push(`the first sample of ${label} looks like warm-up but was kept: dropping it would leave fewer than ${options.minSamples}`);
  }
  if (dropped.length) {
    const list = dropped.map((v) => formatValue(v, '')).join(', ');
    notes.push(`dropped ${dropped.length === 1 ? 'the first sample' : `the first ${dropped.length} samples`} of ${label} as warm-up (${list} vs median ${formatValue(median(kept), metric.unit)})`);
  }
  const outliers: StalledRun[] = [];
  const stalled: number[] = [];
  let stallNote: string | undefined;
  let clean = kept;
  if (options.dropOutliers) {
    const found = findSlowOutliers(kept, metric.direction, { ...DEFAULT_OUTLIER_RULE, minRuns: options.minSamples + 1 }, { other: other.samples.filter(Number.isFinite) });
    if (found.outliers.length) {
      clean = found.kept;
      const center = median(clean);
      for (const i of found.outliers) {
        // Runs are numbered as measured, the warm-up runs included.
        outliers.push({ run: i + dropped.length + 1, change: kept[i]! / center - 1 });
        stalled.push(kept[i]!);
      }
      const rest = `±${(found.restSpread * 100).toFixed(found.restSpread < 0.001 ? 2 : 1)}%`;
      const runs = outliers.map((r) => `${label} run ${r.run}: ${formatPct(r.change)}`).join(', ');
      stallNote = `left out ${runs} as stalled, below the fast cluster of ${clean.length} run${clean.length === 1 ? '' : 's'} within ${rest} (a stall only slows a run down)`;
      notes.push(stallNote);
    }
  }
  return { label, kept: clean, dropped, outliers, stalled, ...(stallNote ? { stallNote } : {}), value: clean.length ? median(clean) : metric.value, total: metric.samples.length };
}

function infoRow(name: string, base: GateMetric | undefined, cur: GateMetric | undefined, note: string): ComparisonRow {
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
    note,
  };
}

/**
 * The one-sided test of the current side against the baseline. Without stalls, the exact
 * Mann-Whitney test of the runs. With stalls on either side, the fast clusters are what tell each
 * build's speed, and they are often 2 or 3 runs: no rank test of 2 against 4 runs can reach the
 * gate's level (1/15 at best), however far apart they lie. They are compared by Student's t-test:
 * the clusters are clean runs of one workload on one kind of machine, whose jitter is one quantity,
 * estimated from both clusters together (a 2-run cluster alone has one degree of freedom) and taken
 * as at least the outlier rule's 0.2% spread. The distance between the clusters against that
 * jitter is the evidence; the floor, not the test's level, keeps a wrong cluster from failing a job.
 */
function sideTest(cur: Side, base: Side, direction: 'higher' | 'lower'): { pWorse: number; pBetter: number } {
  if (leftOut(cur) || leftOut(base)) {
    const minSd = DEFAULT_OUTLIER_RULE.minSpread * Math.max(Math.abs(cur.value), Math.abs(base.value));
    const test = pooledTTest(cur.kept, base.kept, minSd);
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
  /** Runs left out as outliers, one line per set of runs (metrics from the same runs share it), for the reasons. */
  outlierNotes: string[];
}

/** What one metric left out as stalled, as data (which runs of which side) beside its rendered note. */
export interface MetricStalls {
  name: string;
  baselineRuns: readonly number[];
  currentRuns: readonly number[];
  /** The rendered note(s); shown for the group, never read to group. */
  text: string;
}

/**
 * `decode_tok_s, tpot_ms: left out baseline run 3: −15.0% …`: metrics that left out the same runs
 * (the same run numbers of the same sides) named together, under the first one's note. Grouped by
 * the run numbers alone, so the wording of the notes cannot split or merge a group.
 */
export function groupStalls(stalls: readonly MetricStalls[]): string[] {
  const byRuns = new Map<string, { names: string[]; text: string }>();
  for (const s of stalls) {
    if (!s.baselineRuns.length && !s.currentRuns.length) continue;
    const key = JSON.stringify([s.baselineRuns, s.currentRuns]);
    const entry = byRuns.get(key);
    if (entry) entry.names.push(s.name);
    else byRuns.set(key, { names: [s.name], text: s.text });
  }
  return [...byRuns.values()].map((e) => `${e.names.join(', ')}: ${e.text}`);
}

function outlierNotes(pending: readonly Pending[]): string[] {
  return groupStalls(
    pending.map((p) => ({
      name: p.name,
      baselineRuns: p.base.outliers.map((r) => r.run),
      currentRuns: p.cur.outliers.map((r) => r.run),
      text: [p.base.stallNote, p.cur.stallNote].filter((n) => n !== undefined).join('; '),
    })),
  );
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
      if (base && cur) rows.push({ row: infoRow(name, base, cur, 'not gated (no threshold)') });
      continue;
    }
    if (base) gatedInBaseline += 1;
    if (!base || !cur) {
      const side = base ? 'baseline' : 'current';
      rows.push({ row: infoRow(name, base, cur, `only in the ${side}; not compared`), reason: `${name} is only in the ${side}; not compared` });
      continue;
    }
    compared += 1;
    const direction = cur.direction;
    const notes: string[] = [];
    const baseSide = prepareSide('baseline', base, options, notes, cur);
    const curSide = prepareSide('current', cur, options, notes, base);
    if (!(baseSide.value > 0) || !(curSide.value >= 0)) {
      // A ratio of medians needs a positive baseline (e.g. failed_requests at 0 has no relative change).
      rows.push({ row: { ...infoRow(name, base, cur, 'no relative change: the baseline median is not positive'), delta: null } });
      continue;
    }
    // Stalled runs were measured: they count towards the minimum, though the fast clusters decide.
    const nBase = baseSide.kept.length + baseSide.stalled.length;
    const nCur = curSide.kept.length + curSide.stalled.length;
    const delta = curSide.value / baseSide.value - 1;
    if (nBase < options.minSamples || nCur < options.minSamples) {
      const message = `${name}: ${nBase} baseline and ${nCur} current samples; at least ${options.minSamples} per side are needed`;
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
          note: [...notes, `at least ${options.minSamples} samples per side are needed`].join('; '),
        },
        reason: message,
        undecided: true,
      });
      continue;
    }
    const test = sideTest(curSide, baseSide, direction);
    const interval = bootstrapMedianRatioCI(curSide.kept, baseSide.kept, {
      level: ciLevel(options.alpha),
      resamples: options.bootstrapResamples,
      random: mulberry32(seedFor(options.seed, name)),
    });
    const drift: string[] = [];
    for (const side of [baseSide, curSide]) {
      const found = detectDrift(side.kept, { alpha: options.drift.alpha, minChange: options.drift.minChangePct / 100 });
      if (found.drift) drift.push(`drift within ${side.label}: ${formatPct(found.change)} across ${side.kept.length} samples (Mann-Kendall ${formatP(found.pValue)})`);
    }
    pending.push({
      name,
      unit: cur.unit,
      direction,
      floor,
      base: baseSide,
      cur: curSide,
      notes,
      drift,
      delta,
      ci: [interval.low - 1, interval.high - 1],
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
 * When one side's own runs reach the other side's median (a baseline run as slow as the current's
 * typical run), the medians' difference can come from which state more runs fell in: two clock or
 * power states, or a heavy tail. Says which runs, or undefined when the sides do not overlap so.
 */
function overlap(p: Pending, worse: number): string | undefined {
  // In "worse is larger" terms, so one comparison serves both directions.
  const bad = (value: number) => (p.direction === 'higher' ? -value : value);
  const [slow, fast] = worse > 0 ? [p.cur, p.base] : [p.base, p.cur];
  // Within half the floor counts as reaching: run-to-run jitter is not a state of its own.
  const margin = (p.floor / 2) * fast.value;
  const fastReach = fast.kept.filter((v) => bad(v) >= bad(slow.value) - margin).length;
  const slowReach = slow.kept.filter((v) => bad(v) <= bad(fast.value) + margin).length;
  const parts: string[] = [];
  if (fastReach) parts.push(`${fastReach} of ${fast.kept.length} ${fast.label} runs are as ${p.direction === 'higher' ? 'low' : 'high'} as the ${slow.label} median ${formatValue(slow.value, p.unit)}`);
  if (slowReach) parts.push(`${slowReach} of ${slow.kept.length} ${slow.label} runs are as ${p.direction === 'higher' ? 'high' : 'low'} as the ${fast.label} median ${formatValue(fast.value, p.unit)}`);
  return parts.length ? `the sides overlap: ${parts.join(', and ')}` : undefined;
}

function stalledText(p: Pending): string {
  const stalled = p.base.stalled.length + p.cur.stalled.length;
  const warmup = p.base.dropped.length + p.cur.dropped.length;
  if (!stalled && !warmup) return '';
  const parts = [...(stalled ? [`${stalled} stalled run${stalled === 1 ? '' : 's'}`] : []), ...(warmup ? [`${warmup} warm-up run${warmup === 1 ? '' : 's'}`] : [])];
  return ` in the fast clusters (${parts.join(' and ')} left out; t-test)`;
}

/**
 * Which look this is, when it is one of several: a run that stops at its first look tests as a
 * single comparison does, and says nothing of looks, so the same samples read the same.
 */
function lookText(options: GateOptions, alpha: number): string {
  const look = options.look;
  if (!look || look.of <= 1 || (look.final && look.index <= 1)) return '';
  return ` at look ${look.index} of ${look.of}${look.final ? ', the last' : ''} (alpha ${Number(alpha.toPrecision(2))})`;
}

/** What would decide an undecided row, as this comparison can promise it: an A/B look that is not the last adds runs; nothing else does. */
function moreRuns(options: GateOptions): { test: string; overlap: string } {
  const look = options.look;
  if (look && look.of > 1 && !look.final) return { test: 'the A/B adds runs to decide it', overlap: 'the A/B adds runs to decide it (or pin clocks)' };
  if (look?.final) return { test: 'this job adds no more runs; more runs per side (max-runs) would decide it', overlap: 'this job adds no more runs; more runs per side (max-runs) or pinned clocks would decide it' };
  return { test: 'more runs per side would decide it', overlap: 'more runs per side or pinned clocks would decide it' };
}

function decide(p: Pending, pWorse: number, pBetter: number, options: GateOptions): GatedRow {
  const worse = worseBy(p.direction, p.delta);
  const [ciLow, ciHigh] = p.ci;
  // The CI must lie wholly on the side of the change, in the direction's terms.
  const ciWorse = p.direction === 'higher' ? ciHigh < 0 : ciLow > 0;
  const ciBetter = p.direction === 'higher' ? ciLow > 0 : ciHigh < 0;
  // An adaptive A/B run spends alpha over its looks; the CI stays at the nominal level (it only adds a condition).
  const alpha = lookAlpha(options.alpha, options.look);
  const significantWorse = pWorse <= alpha && ciWorse;
  const significantBetter = pBetter <= alpha && ciBetter;
  const pValue = worse > 0 ? pWorse : pBetter;
  const floorText = formatPct(p.floor, 0).replace('+', '');
  const change = `${formatValue(p.base.value, p.unit)} → ${formatValue(p.cur.value, p.unit)}, ${formatPct(p.delta)}`;
  const stats = `${Math.round(ciLevel(options.alpha) * 100)}% CI ${formatPctRange(ciLow, ciHigh)}, ${formatP(pValue)}${lookText(options, alpha)}, ${p.base.kept.length} vs ${p.cur.kept.length} samples${stalledText(p)}`;
  const more = moreRuns(options);
  const notes = [...p.notes];
  const decided = (significantWorse && worse >= p.floor) || (significantBetter && -worse >= p.floor);
  const overlapping = decided && options.overlapCheck ? overlap(p, worse) : undefined;
  let status: RowStatus;
  let reason: string | undefined;
  let undecided = false;
  if (overlapping) {
    // Significant and past the floor, yet one side's own runs reach the other's median: not decided.
    status = worse > 0 ? 'warn' : 'pass';
    notes.push(overlapping);
    if (worse > 0) {
      undecided = true;
      reason = `${p.name} looks worse (${change}; ${stats}), but ${overlapping}; ${more.overlap}`;
    }
  } else if (significantWorse && worse >= p.floor) {
    status = 'fail';
    reason = `${p.name} regressed (${change}; ${stats}), beyond the ${floorText} floor`;
  } else if (significantBetter && -worse >= p.floor) {
    status = 'improved';
    reason = `${p.name} improved (${change}; ${stats})`;
  } else if (worse >= p.floor) {
    status = 'warn';
    undecided = true;
    notes.push(`beyond the ${floorText} floor but not significant`);
    reason = `${p.name} looks worse (${change}; ${stats}): beyond the ${floorText} floor but not significant; ${more.test}`;
  } else {
    status = 'pass';
    if (significantWorse || significantBetter) notes.push(`a real but small change, below the ${floorText} floor`);
  }
  if (p.drift.length) {
    notes.push(...p.drift);
    if (status === 'pass' || status === 'improved') {
      status = 'warn';
      reason = `${p.name}: ${p.drift.join('; ')}; the samples are not stable`;
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
      ...(notes.length ? { note: notes.join('; ') } : {}),
    },
    ...(reason ? { reason } : {}),
    ...(undecided ? { undecided } : {}),
  };
}
