/**
 * Metric rows: a gated metric regresses only when the change is statistically real (one-sided
 * exact Mann-Whitney, corrected across the metrics of the run, and a bootstrap CI of the median
 * ratio on the same side of zero) AND at least the metric's practical floor AND neither side's own
 * runs reach the other side's median (with two clock states, medians move by which state more runs
 * fell in; the rank test cannot tell that from a regression).
 */
import { DESCRIPTIVE_METRICS } from '../model/metrics.js';
import type { ComparisonRow, RowStatus } from '../model/report.js';
import { formatP, formatPct, formatPctRange, formatValue } from './percent-format.js';
import type { GatedRow, GateMetric } from './gate-input.js';
import { ciLevel, metricFloor, type GateOptions } from './gate-options.js';
import { alphaAtLook } from './sequential.js';
import { adjustPValues, bootstrapMedianRatioCI, DEFAULT_OUTLIER_RULE, DEFAULT_WARMUP_RULE, detectDrift, dropWarmupOutliers, findSlowOutliers, gehanWilcoxon, mannWhitneyU, median, mulberry32, seedFor, type CensoredValue } from './statistics.js';

interface Side {
  label: 'baseline' | 'current';
  kept: number[];
  dropped: number[];
  /** Slow runs far from the side's cluster (stalls), left out of the median, the CI and the overlap check. */
  outliers: string[];
  /** Their values: the rank test counts them as censored runs (each would have been at least as fast). */
  censored: number[];
  value: number;
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
  const outliers: string[] = [];
  const censored: number[] = [];
  let clean = kept;
  if (options.dropOutliers) {
    const found = findSlowOutliers(kept, metric.direction, { ...DEFAULT_OUTLIER_RULE, minKeep: options.minSamples }, { other: other.samples.filter(Number.isFinite), dropped });
    if (found.outliers.length) {
      clean = found.kept;
      const center = median(clean);
      for (const i of found.outliers) {
        // Runs are numbered as measured, the warm-up runs included.
        outliers.push(`${label} run ${i + dropped.length + 1}: ${formatPct(kept[i]! / center - 1)}`);
        censored.push(kept[i]!);
      }
      const rest = `±${(found.restSpread * 100).toFixed(found.restSpread < 0.001 ? 2 : 1)}%`;
      const them = outliers.length === 1 ? 'it' : 'each';
      notes.push(`left out ${outliers.join(', ')}, ${outliers.length === 1 ? 'an outlier' : 'outliers'} against ${rest} for the rest (ranked as censored: ${them} would have run at least that fast)`);
    }
  }
  return { label, kept: clean, dropped, outliers, censored, value: clean.length ? median(clean) : metric.value };
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
 * The one-sided rank tests of the current side against the baseline. Without outliers, the exact
 * Mann-Whitney test of the kept runs. With them, Gehan's test over all runs after the warm-up rule:
 * a stall only says the run would have been at least as fast as measured (a censored value), so it
 * counts where its order against another run is certain and nowhere else; the permutation null
 * moves the stalled runs between the sides with the rest. Without censored runs it is Mann-Whitney.
 */
function rankTest(cur: Side, base: Side, direction: 'higher' | 'lower'): { pWorse: number; pBetter: number } {
  if (!cur.censored.length && !base.censored.length) {
    const test = mannWhitneyU(cur.kept, base.kept);
    return direction === 'higher' ? { pWorse: test.pLess, pBetter: test.pGreater } : { pWorse: test.pGreater, pBetter: test.pLess };
  }
  // Oriented so that larger is faster: a stall's unstalled value lies above what was measured.
  const sign = direction === 'higher' ? 1 : -1;
  const runs = (side: Side): CensoredValue[] => [...side.kept.map((v) => ({ value: sign * v, censored: false })), ...side.censored.map((v) => ({ value: sign * v, censored: true }))];
  const test = gehanWilcoxon(runs(cur), runs(base));
  return { pWorse: test.pLess, pBetter: test.pGreater };
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

/** `decode_tok_s: left out baseline run 3 (−15.0%) …`, metrics that left out the same runs named together. */
function outlierNotes(pending: readonly Pending[]): string[] {
  const byRuns = new Map<string, { names: string[]; text: string }>();
  for (const p of pending) {
    const runs = [...p.base.outliers, ...p.cur.outliers];
    if (!runs.length) continue;
    const key = runs.map((r) => r.slice(0, r.indexOf(':'))).join(',');
    const entry = byRuns.get(key);
    if (entry) entry.names.push(p.name);
    else byRuns.set(key, { names: [p.name], text: p.notes.filter((n) => n.startsWith('left out ')).join('; ') });
  }
  return [...byRuns.values()].map((e) => `${e.names.join(', ')}: ${e.text}`);
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
    const nBase = baseSide.kept.length;
    const nCur = curSide.kept.length;
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
          status: 'insufficient-data',
          note: [...notes, `at least ${options.minSamples} samples per side are needed`].join('; '),
        },
        reason: message,
        undecided: true,
      });
      continue;
    }
    const test = rankTest(curSide, baseSide, direction);
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

function censoredText(p: Pending): string {
  const k = p.base.censored.length + p.cur.censored.length;
  return k ? ` (and ${k} stalled run${k === 1 ? '' : 's'} ranked as censored)` : '';
}

function decide(p: Pending, pWorse: number, pBetter: number, options: GateOptions): GatedRow {
  const worse = worseBy(p.direction, p.delta);
  const [ciLow, ciHigh] = p.ci;
  // The CI must lie wholly on the side of the change, in the direction's terms.
  const ciWorse = p.direction === 'higher' ? ciHigh < 0 : ciLow > 0;
  const ciBetter = p.direction === 'higher' ? ciLow > 0 : ciHigh < 0;
  // An adaptive A/B run spends alpha over its looks; the CI stays at the nominal level (it only adds a condition).
  const alpha = options.look ? alphaAtLook(options.alpha, options.look.index, options.look.of) : options.alpha;
  const significantWorse = pWorse <= alpha && ciWorse;
  const significantBetter = pBetter <= alpha && ciBetter;
  const pValue = worse > 0 ? pWorse : pBetter;
  const floorText = formatPct(p.floor, 0).replace('+', '');
  const change = `${formatValue(p.base.value, p.unit)} → ${formatValue(p.cur.value, p.unit)}, ${formatPct(p.delta)}`;
  const stats = `${Math.round(ciLevel(options.alpha) * 100)}% CI ${formatPctRange(ciLow, ciHigh)}, ${formatP(pValue)}${options.look && options.look.of > 1 ? ` at look ${options.look.index} of ${options.look.of} (alpha ${Number(alpha.toPrecision(2))})` : ''}, ${p.base.kept.length} vs ${p.cur.kept.length} samples${censoredText(p)}`;
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
      reason = `${p.name} looks worse (${change}; ${stats}), but ${overlapping}; more runs per side (in A/B: max-runs) or pinned clocks would decide it`;
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
    reason = `${p.name} looks worse (${change}; ${stats}): beyond the ${floorText} floor but not significant; add samples to decide`;
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
      status,
      ...(notes.length ? { note: notes.join('; ') } : {}),
    },
    ...(reason ? { reason } : {}),
    ...(undecided ? { undecided } : {}),
  };
}
