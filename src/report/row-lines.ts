/**
 * The sentence of a comparison row, written from the row's data (src/compare/ makes the rows and
 * says nothing in words): a metric's change with its interval and what held it back, a share or a
 * time per step against its threshold, a finding new, resolved or not compared. Renders only.
 */
import { rowSubject, type Comparison, type ComparisonRow, type Finding, type MetricReading, type PerStep, type Report, type ShareReading, type SharedGpuReading, type Side, type StallSide, type TimeReading } from '../model/report.js';
import { formatP, formatPct, formatPctRange, formatPp, formatValue, stepTimeText } from './percent-format.js';
import { KERNEL_TIME_PREFIX } from '../compare/gate-options.js';
import { PROFILER_STEP_METRIC } from '../compare/profiler-steps.js';
import { countsAsFinding, SEVERITY_RANK } from '../model/decision.js';

/** How long a subject may run in a sentence: a templated kernel name (often over 1 KB) keeps its head there; the row keeps it whole. */
const LABEL_WIDTH = 80;

/** A row's target cut for a sentence. */
export function targetLabel(target: string): string {
  const oneLine = target.replace(/\s+/g, ' ');
  return oneLine.length <= LABEL_WIDTH ? oneLine : `${oneLine.slice(0, LABEL_WIDTH - 1)}…`;
}

/** What a row's sentence needs of the report around it. */
export interface RowContext {
  comparison: Pick<Comparison, 'look' | 'perStep'>;
  findings: readonly Finding[];
  /** A kernel's display name (src/report/kernel-display-name.ts). */
  kernelName: (name: string) => string;
}

const SIDE_TEXT: Record<Side, string> = { baseline: 'baseline', current: 'current' };
const SIDE_RUN: Record<Side, string> = { baseline: 'baseline', current: 'current run' };

const MAX_EVIDENCE = 5;
const MAX_MESSAGE = 300;

/**
 * The evidence that decided a finding, in one line: its message (the numbers filled in), its named
 * evidence values and the evidence it rests on (`basis`), each bounded.
 */
export function evidenceText(finding: Pick<Finding, 'message'> & Partial<Pick<Finding, 'evidence' | 'basis'>>): string {
  const message = (finding.message ?? '').replace(/\s+/g, ' ').trim();
  const shown = message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE - 1)}…` : message;
  const entries = Object.entries(finding.evidence ?? {});
  const values = entries.slice(0, MAX_EVIDENCE).map(([key, value]) => `${key} ${String(value)}`);
  if (entries.length > MAX_EVIDENCE) values.push(`${entries.length - MAX_EVIDENCE} more`);
  const parts = [values.length ? `evidence: ${values.join(', ')}` : '', finding.basis?.length ? `rests on ${finding.basis.join('; ')}` : ''].filter(Boolean);
  return [shown, parts.length ? `(${parts.join('; ')})` : ''].filter(Boolean).join(' ');
}

/** The line of a finding that fails: what it is (`lead`), and the evidence that decided it. */
export function failingFindingLine(finding: Pick<Finding, 'message'> & Partial<Pick<Finding, 'evidence' | 'basis'>> | undefined, lead: string): string {
  const evidence = finding ? evidenceText(finding) : '';
  return evidence ? `${lead}: ${evidence}` : lead;
}

/** The strongest counted hit of a finding id (the one whose evidence its line shows). */
export function strongestHit(findings: readonly Finding[], id: string): Finding | undefined {
  return findings.filter((f) => f.id === id && countsAsFinding(f)).reduce<Finding | undefined>((best, f) => (!best || SEVERITY_RANK[f.severity] > SEVERITY_RANK[best.severity] ? f : best), undefined);
}

function formatNoise(sd: number): string {
  return `${(sd * 100).toFixed(sd < 0.001 ? 2 : 1)}%`;
}

/** Which look an adaptive A/B's comparison is, when it is one of several (a run that stopped at its first look says nothing of looks). */
function lookText(look: Comparison['look']): string {
  if (!look || look.of <= 1 || (look.final && look.index <= 1)) return '';
  return ` at look ${look.index} of ${look.of}${look.final ? ', the last' : ''} (alpha ${Number(look.alpha.toPrecision(2))})`;
}

/**
 * What one sample of the metrics is: a timed run, or, for the profiled step time, one step of the
 * profiled window (src/compare/profiler-steps.ts).
 */
export function sampleNoun(metrics: readonly string[]): 'run' | 'step' {
  return metrics.length > 0 && metrics.every((m) => m === PROFILER_STEP_METRIC) ? 'step' : 'run';
}

function leftOutText(reading: MetricReading, noun: 'run' | 'step'): string {
  const stalled = reading.stalled ?? 0;
  const warmup = reading.warmup ?? 0;
  if (!stalled && !warmup) return '';
  const parts = [...(stalled ? [`${stalled} slowest ${noun}${stalled === 1 ? '' : 's'}`] : []), ...(warmup ? [`${warmup} warm-up ${noun}${warmup === 1 ? '' : 's'}`] : [])];
  return ` kept (${parts.join(' and ')} left out; trimmed t-test)`;
}

/** What would decide an undecided row, as the comparison can promise it: an A/B look that is not the last adds runs; nothing else does. */
function decideText(needs: NonNullable<ComparisonRow['insufficient']>, look: Comparison['look']): string {
  if (needs.why === 'shared-gpu') {
    const noise = `runs vary ±${formatNoise(needs.noise[0])} (baseline) and ±${formatNoise(needs.noise[1])} (current)`;
    return needs.addsRuns ? `${noise}; the A/B adds runs, to decide on those the GPU is not shared in` : `${noise}; runs on a GPU no other process uses would decide it`;
  }
  if (needs.addsRuns) return needs.why === 'sides-overlap' || needs.why === 'noisy-side' ? 'the A/B adds runs to decide it (or pin clocks)' : 'the A/B adds runs to decide it';
  const prefix = look?.final ? 'this job adds no more runs; ' : '';
  const maxRuns = look?.final ? ' (max-runs)' : '';
  const noise = `runs vary ±${formatNoise(needs.noise[0])} (baseline) and ±${formatNoise(needs.noise[1])} (current)`;
  if (needs.quieterRunner) {
    const count = needs.runsPerSide === null ? 'no number of runs would at this noise' : `about ${needs.runsPerSide} runs per side would at this noise`;
    return `${noise}; ${prefix}a quieter runner (no other process on the GPU) or pinned clocks would decide it (${count})`;
  }
  if (needs.why === 'sides-overlap' || needs.why === 'noisy-side' || needs.why === 'baseline-ran-faster') return `${noise}; ${prefix}more runs per side (about ${needs.runsPerSide}${maxRuns}) or pinned clocks would decide it`;
  return `${noise}; ${prefix}about ${needs.runsPerSide} runs per side${maxRuns} would decide it`;
}

/** `the sides overlap: 3 of 5 baseline runs are as low as the current median 301.2 tok/s, …` */
function overlapText(row: ComparisonRow, overlap: NonNullable<MetricReading['overlap']>): string {
  const fast: Side = overlap.slow === 'baseline' ? 'current' : 'baseline';
  const median = (side: Side) => formatValue((side === 'baseline' ? row.baseline : row.current) ?? Number.NaN, row.unit);
  const higher = row.direction !== 'lower';
  const parts: string[] = [];
  if (overlap.fastReach) parts.push(`${overlap.fastReach} of ${overlap.fastKept} ${SIDE_TEXT[fast]} runs are as ${higher ? 'low' : 'high'} as the ${SIDE_TEXT[overlap.slow]} median ${median(overlap.slow)}`);
  if (overlap.slowReach) parts.push(`${overlap.slowReach} of ${overlap.slowKept} ${SIDE_TEXT[overlap.slow]} runs are as ${higher ? 'high' : 'low'} as the ${SIDE_TEXT[fast]} median ${median(fast)}`);
  return `the sides overlap: ${parts.join(', and ')}`;
}

function noisyText(noisy: NonNullable<MetricReading['noisy']>): string {
  const fast: Side = noisy.slow === 'baseline' ? 'current' : 'baseline';
  const spreads = noisy.fasterHalf
    ? `the faster half of the ${SIDE_TEXT[noisy.slow]} runs varies ±${formatNoise(noisy.slowSd)} against ±${formatNoise(noisy.fastSd)} of the ${SIDE_TEXT[fast]}'s`
    : `the ${SIDE_TEXT[noisy.slow]} runs vary ±${formatNoise(noisy.slowSd)} against ±${formatNoise(noisy.fastSd)} of the ${SIDE_TEXT[fast]}'s`;
  return `${spreads}: a neighbour slows runs by varying amounts, a change of code by one`;
}

/** A side's runs left out as its slowest, in words: which, why, beside what kept runs, and whether the side counts as noisy. */
export function stallText(side: StallSide, noun: 'run' | 'step' = 'run'): string {
  const k = side.runs.length;
  const runs = side.runs.map((r) => `${side.side} ${noun} ${r.run}: ${formatPct(r.change)}${r.stall ? '' : ' (its slowest)'}`).join(', ');
  const rest = `±${(side.spread * 100).toFixed(side.spread < 0.001 ? 2 : 1)}%`;
  const stalled = side.runs.filter((r) => r.stall).length;
  const what = stalled === k ? 'as stalled' : stalled ? `as stalled or, to leave out as many ${noun}s of each side, as its slowest` : `to leave out as many ${noun}s of each side as the other`;
  let text = `left out ${runs} ${what}, beside ${side.kept} ${noun}${side.kept === 1 ? '' : 's'} within ${rest} (a stall only slows a ${noun} down)`;
  if (side.found > k) text += `; ${side.found} ${side.side} ${noun}s lie below its fast cluster, more than a stall's share (at most ${Math.round(side.maxShare * 100)}% of a side): ${side.found - k} stayed, so the side counts as noisy`;
  return text;
}

/**
 * A metric row's note, written from its reading: the warm-up runs dropped or kept, the runs left
 * out, what held it back or what it shows below the floor, and a drift. A row of a report from
 * before rows carried their reading shows the note it stored.
 */
export function metricRowNote(row: ComparisonRow): string | undefined {
  const reading = row.reading?.kind === 'metric' ? row.reading : undefined;
  if (!reading) return row.note;
  switch (reading.outcome) {
    case 'not-gated':
      return 'not gated (no threshold)';
    case 'only-in':
      return `only in the ${SIDE_TEXT[reading.side ?? 'baseline']}; not compared`;
    case 'no-relative-change':
      return 'no relative change: the baseline median is not positive';
    default:
  }
  const notes: string[] = [];
  for (const side of ['baseline', 'current'] as const) {
    if (reading.warmupKept?.includes(side)) notes.push(`the first sample of ${side} looks like warm-up but was kept: dropping it would leave fewer than ${reading.minSamples ?? '?'}`);
    const dropped = reading.warmupDropped?.find((d) => d.side === side);
    if (dropped) {
      const list = dropped.values.map((v) => formatValue(v, '')).join(', ');
      notes.push(`dropped ${dropped.values.length === 1 ? 'the first sample' : `the first ${dropped.values.length} samples`} of ${side} as warm-up (${list} vs median ${formatValue(dropped.median, row.unit)})`);
    }
  }
  for (const side of reading.stalls ?? []) notes.push(stallText(side, sampleNoun([row.metric])));
  const floorText = formatPct(row.threshold ?? 0, 0).replace('+', '');
  const held = reading.overlap ? overlapText(row, reading.overlap) : reading.noisy ? noisyText(reading.noisy) : undefined;
  switch (reading.outcome) {
    case 'too-few-samples':
      notes.push(`at least ${reading.minSamples ?? '?'} samples per side are needed`);
      break;
    case 'sides-overlap':
    case 'noisy-side':
      if (held) notes.push(held);
      break;
    case 'not-significant':
      notes.push(`beyond the ${floorText} floor but not significant`);
      break;
    case 'interval-reaches-floor': {
      const { text, worstWorse } = passReach(row, reading);
      notes.push(`${text} reaches ${formatPct(-worstWorse).replace('−', '')} worse, past the ${floorText} floor: a regression at the floor is not ruled out`);
      break;
    }
    case 'interval-reaches-inside-floor':
      notes.push(`${insideFloorText(row)}: a regression at the floor is not shown`);
      break;
    case 'too-few-kept':
      notes.push(fewKeptText(row, reading));
      break;
    case 'baseline-ran-faster':
      if (reading.baselineFaster) notes.push(baselineFasterText(row, reading.baselineFaster));
      break;
    case 'shared-gpu':
      if (reading.sharedGpu) notes.push(`the GPU was shared with another process: ${sharedGpuText(reading.sharedGpu)}`);
      break;
    case 'within-floor':
    case 'drift':
      if (held) notes.push(held);
      if (reading.smallChange) notes.push(`a real but small change, below the ${floorText} floor`);
      break;
    default:
  }
  for (const d of reading.drift ?? []) notes.push(driftText(d));
  if (reading.sharedGpu && reading.outcome !== 'shared-gpu') notes.push(sharedGpuSuffix(reading.sharedGpu).slice(2));
  return notes.length ? notes.join('; ') : undefined;
}

/** The interval a pass was judged on, in words, and its worse end (worse-positive): the pass interval when the row holds one, else the row's. */
function passReach(row: ComparisonRow, reading: MetricReading): { text: string; worstWorse: number } {
  const pass = reading.passInterval;
  const ci = pass?.ci ?? row.ci;
  const worstWorse = ci ? (row.direction === 'higher' ? -ci[0] : ci[1]) : 0;
  if (!pass || pass.level === reading.level) return { text: 'the interval', worstWorse };
  return { text: `its ${Math.round(pass.level * 100)}% interval (${formatPctRange(pass.ci[0], pass.ci[1])}, the level a pass needs)`, worstWorse };
}

/** `the interval reaches 1.3% worse, inside the 3% floor`: the better end of a regression's interval. */
function insideFloorText(row: ComparisonRow): string {
  const bestWorse = row.ci ? (row.direction === 'higher' ? -row.ci[1] : row.ci[0]) : 0;
  const floorText = formatPct(row.threshold ?? 0, 0).replace('+', '');
  return `the interval reaches ${formatPct(bestWorse).replace('+', '')} worse, inside the ${floorText} floor`;
}

/** `with runs left out as stalled, a pass rests on the runs kept: 3 baseline and 3 current, fewer than the 6 …` */
function fewKeptText(row: ComparisonRow, reading: MetricReading): string {
  const [nBase, nCur] = row.samples ?? [0, 0];
  const fail = reading.keptFor === 'fail';
  const level = Math.round((fail ? reading.level ?? 0.9 : reading.passInterval?.level ?? 0.95) * 100);
  return `with runs left out as stalled, a ${fail ? 'fail' : 'pass'} rests on the runs kept (${nBase} baseline, ${nCur} current), fewer than the ${reading.keptNeeded ?? '?'} a ${level}% interval of a median needs without assuming a distribution: a neighbour can slow every one of a few runs alike`;
}

function driftText(d: NonNullable<MetricReading['drift']>[number]): string {
  return `drift within ${SIDE_TEXT[d.side]}: ${formatPct(d.change)} across ${d.samples} samples (Mann-Kendall ${formatP(d.pValue)})`;
}

function baselineFasterText(row: ComparisonRow, faster: NonNullable<MetricReading['baselineFaster']>): string {
  return `a baseline run was ${formatPct(faster.by).replace('+', '')} better than the current median (${formatValue(faster.fastest, row.unit)} against ${formatValue(row.current ?? Number.NaN, row.unit)}): the baseline ran that fast, and a run is never made faster`;
}

/** `1.5 GiB` */
function gibText(bytes: number): string {
  return `${(bytes / 2 ** 30).toFixed(1)} GiB`;
}

/** Who shared the GPU, in words: a process by pid with how busy and how much memory, or work seen before the job's process was on the GPU. */
function whoText(who: SharedGpuReading['sides'][number]['who'][number]): string {
  if (who.evidence === 'busy-before') return `a process it cannot name (the GPU was ${who.maxSmPercent ?? '?'}% busy before the run's own process was on it)`;
  const busy = who.maxSmPercent === null ? 'SM use not reported' : `SM up to ${who.maxSmPercent}%`;
  const memory = who.maxMemoryBytes === null ? '' : `, ${gibText(who.maxMemoryBytes)}`;
  const how = who.evidence === 'listed-before' ? ', on the GPU before the run started' : '';
  return `pid ${who.pid} (${busy}${memory}${how})`;
}

/** `pid 4194000 (SM up to 88%, 9.0 GiB) during current runs 2, 4 of 5; … during baseline run 3 of 5` */
export function sharedGpuText(shared: SharedGpuReading): string {
  return shared.sides
    .map((side) => `${side.who.map(whoText).join(', ') || 'another process'} during ${SIDE_TEXT[side.side]} run${side.runs.length === 1 ? '' : 's'} ${side.runs.join(', ')} of ${side.of}`)
    .join('; ');
}

/** What the gate did with the sharing, after the row's own sentence (a refused row says it first). */
function sharedGpuSuffix(shared: SharedGpuReading): string {
  const who = sharedGpuText(shared);
  switch (shared.action) {
    case 'clean-runs':
      return `; decided on the runs the GPU was not shared in: left out the runs another process used it during (${who})`;
    case 'fail-both-sides':
      return `; the GPU was shared on both sides alike (${who}), so the failure stands${shared.failCheck ? `, shown at the ${levelText(shared.failCheck.level)} level too (${failCheckCi(shared.failCheck)}, ${shared.failCheck.kept[0]} vs ${shared.failCheck.kept[1]} runs kept)` : ''}`;
    case 'against-sharing':
      return `; the GPU was shared on the ${shared.sides.map((side) => SIDE_TEXT[side.side]).join(' and ')} side only (${who}), which a neighbour can only have made slower: the change stands`;
    case 'ignored':
      return `; the GPU was shared (${who}), compared on every run as shared-gpu ignore says`;
    case 'refused':
      return '';
  }
}

function metricSentence(row: ComparisonRow, reading: MetricReading, ctx: RowContext): string | undefined {
  const shared = reading.sharedGpu;
  if (shared && reading.outcome === 'shared-gpu') return sharedGpuRefusal(row, shared, reading, ctx);
  const sentence = plainMetricSentence(row, reading, ctx);
  if (!shared) return sentence;
  if (sentence !== undefined) return `${sentence}${sharedGpuSuffix(shared)}`;
  if (reading.outcome !== 'within-floor' || row.delta === null || row.baseline === null || row.current === null) return undefined;
  return `${row.metric} within its floor (${changeText(row)}${row.ci ? `; ${statsText(row, reading, ctx)}` : ''})${sharedGpuSuffix(shared)}`;
}

function changeText(row: ComparisonRow): string {
  return `${formatValue(row.baseline ?? Number.NaN, row.unit)} → ${formatValue(row.current ?? Number.NaN, row.unit)}, ${formatPct(row.delta ?? Number.NaN)}`;
}

function statsText(row: ComparisonRow, reading: MetricReading, ctx: RowContext): string {
  const [ciLow, ciHigh] = row.ci ?? [Number.NaN, Number.NaN];
  const [nBase, nCur] = row.samples ?? [0, 0];
  const level = Math.round((reading.level ?? 0.95) * 100);
  return `${level}% CI ${formatPctRange(ciLow, ciHigh)}, ${formatP(row.pValue ?? 1)}${lookText(ctx.comparison.look)}, ${nBase} vs ${nCur} samples${leftOutText(reading, sampleNoun([row.metric]))}`;
}

const ALL_RUNS_WORD: Record<ComparisonRow['status'], string> = { fail: 'failed', warn: 'warned', 'insufficient-data': 'been undecided', improved: 'improved', pass: 'passed', info: 'been noted' };

/** `97.5%`, `95%` */
function levelText(level: number): string {
  return `${Number((level * 100).toFixed(1))}%`;
}

function failCheckCi(check: NonNullable<SharedGpuReading['failCheck']>): string {
  return check.ci ? `CI ${formatPctRange(check.ci[0], check.ci[1])}` : 'no interval';
}

/** Why a failure under sharing on both sides is not shown: the look, what the stricter level said, or the runs kept. */
function failNotShownText(row: ComparisonRow, check: NonNullable<SharedGpuReading['failCheck']>): string {
  const rule = `on both sides alike, where a failure must also hold at the ${levelText(check.level)} level on at least ${check.keptNeeded} kept runs a side, at the A/B's last look (a neighbour can slow every run of one side alike)`;
  const reachesInside = check.outcome === 'interval-reaches-inside-floor' ? `, which reaches inside the ${formatPct(row.threshold ?? 0, 0).replace('+', '')} floor` : '';
  const what = check.waitsForLastLook
    ? `this look can still add runs`
    : check.status !== 'fail'
      ? `at ${levelText(check.level)} it would have ${ALL_RUNS_WORD[check.status]} (${failCheckCi(check)}${reachesInside})`
      : `it rests on ${check.kept[0]} baseline and ${check.kept[1]} current runs kept`;
  return `${rule}: ${what}`;
}

/** A gated metric undecided because the GPU was shared: that first, and by whom, then what all runs showed. */
function sharedGpuRefusal(row: ComparisonRow, shared: SharedGpuReading, reading: MetricReading, ctx: RowContext): string {
  const allRuns = row.delta !== null && row.baseline !== null && row.current !== null ? `; on all runs ${changeText(row)}${row.ci ? ` (${statsText(row, reading, ctx)})` : ''}, which would have ${ALL_RUNS_WORD[shared.allRuns]}` : '';
  const decide = row.insufficient ? `; ${decideText(row.insufficient, ctx.comparison.look)}` : '';
  const why =
    shared.refusedFor === 'fail-not-shown' && shared.failCheck
      ? failNotShownText(row, shared.failCheck)
      : shared.refusedFor === 'runs-not-told-apart'
        ? "the runs' samples are not told apart, so the shared ones cannot be left out"
        : 'too few runs it left alone remain on each side to decide on them';
  return `${row.metric} undecided: the GPU was shared with another process, ${sharedGpuText(shared)}, and ${why}${allRuns}${decide}`;
}

function plainMetricSentence(row: ComparisonRow, reading: MetricReading, ctx: RowContext): string | undefined {
  const name = row.metric;
  if (reading.outcome === 'only-in') return `${name} is only in the ${SIDE_TEXT[reading.side ?? 'baseline']}; not compared`;
  if (reading.outcome === 'too-few-samples') {
    const [nBase, nCur] = row.samples ?? [0, 0];
    return `${name}: ${nBase} baseline and ${nCur} current samples; at least ${reading.minSamples ?? '?'} per side are needed`;
  }
  if (reading.outcome === 'within-floor' || row.baseline === null || row.current === null || row.delta === null || !row.ci) return undefined;
  if (reading.outcome === 'drift') {
    return `${name}: ${(reading.drift ?? []).map(driftText).join('; ')}; the samples are not stable`;
  }
  const [ciLow, ciHigh] = row.ci;
  const floor = row.threshold ?? 0;
  const floorText = formatPct(floor, 0).replace('+', '');
  const change = `${formatValue(row.baseline, row.unit)} → ${formatValue(row.current, row.unit)}, ${formatPct(row.delta)}`;
  const [nBase, nCur] = row.samples ?? [0, 0];
  const level = Math.round((reading.level ?? 0.95) * 100);
  const stats = `${level}% CI ${formatPctRange(ciLow, ciHigh)}, ${formatP(row.pValue ?? 1)}${lookText(ctx.comparison.look)}, ${nBase} vs ${nCur} samples${leftOutText(reading, sampleNoun([row.metric]))}`;
  const decide = row.insufficient ? `; ${decideText(row.insufficient, ctx.comparison.look)}` : '';
  switch (reading.outcome) {
    case 'regressed':
      return `${name} regressed (${change}; ${stats}), beyond the ${floorText} floor`;
    case 'improved':
      return `${name} improved (${change}; ${stats})`;
    case 'sides-overlap':
    case 'noisy-side': {
      const why = reading.overlap ? overlapText(row, reading.overlap) : reading.noisy ? noisyText(reading.noisy) : 'the sides overlap';
      return `${name} looks worse (${change}; ${stats}), but ${why}${decide}`;
    }
    case 'not-significant':
      return `${name} looks worse (${change}; ${stats}): beyond the ${floorText} floor but not significant${decide}`;
    case 'interval-reaches-floor': {
      const { text, worstWorse } = passReach(row, reading);
      const hide = formatPct(-worstWorse).replace('−', '');
      return `${name} undecided (${change}; ${stats}): ${text} reaches ${hide} worse, past the ${floorText} floor, so a regression at the floor is not ruled out${decide}`;
    }
    case 'interval-reaches-inside-floor':
      return `${name} looks worse (${change}; ${stats}), but ${insideFloorText(row)}, so a regression at the floor is not shown${decide}`;
    case 'too-few-kept':
      return `${name} undecided (${change}; ${stats}): ${fewKeptText(row, reading)}${decide}`;
    case 'baseline-ran-faster': {
      const why = reading.baselineFaster ? baselineFasterText(row, reading.baselineFaster) : 'a baseline run was better than the current median by the floor';
      return `${name} undecided (${change}; ${stats}): ${why}${decide}`;
    }
  }
}

/** The subject of a share or time row in a sentence: a kernel by its display name, anything else by its key, cut. */
function subjectLabel(row: ComparisonRow, target: string, ctx: RowContext): string {
  const subject = rowSubject(row);
  return subject?.type === 'kernel' ? `kernel ${ctx.kernelName(subject.id)}` : targetLabel(target);
}

function shareSentence(row: ComparisonRow, ctx: RowContext): string | undefined {
  if ((row.status !== 'fail' && row.status !== 'warn') || row.baseline === null || row.current === null || row.delta === null) return undefined;
  const limit = row.status === 'fail' ? (row.reading?.kind === 'share' ? row.reading.fail : undefined) : row.threshold;
  if (limit === undefined || limit === null) return undefined;
  const of = row.unit.startsWith('% of ') ? row.unit.slice('% of '.length) : 'GPU time';
  return `${subjectLabel(row, row.metric, ctx)} share of ${of} ${row.baseline.toFixed(1)}% → ${row.current.toFixed(1)}% (${formatPp(row.delta)}), at or beyond the ${limit} pp ${row.status} threshold`;
}

/** How the step moved, as the time rows were judged against it: measured, else all kernel time per step. */
export function stepMoveText(perStep: Pick<PerStep, 'measured' | 'kernelDeltaNs'>): string {
  const measured = perStep.measured;
  if (measured) return `measured ${stepTimeText(measured.deltaNs, true)}${measured.per === 'step' ? '/step' : ' per token'}`;
  return `all kernels ${stepTimeText(perStep.kernelDeltaNs ?? 0, true)}/step, no step time measured`;
}

/** Why a `kernel-time:` row was not compared, in words. */
function notComparedText(reading: TimeReading, perStep: PerStep | undefined): string {
  const sides = reading.sides ?? [];
  if (reading.notCompared === 'refused') return 'the windows hold different kinds of step (see the time per step)';
  if (reading.notCompared === 'no-kernels') return sides.length > 1 ? 'neither side has a kernel capture' : `the ${SIDE_RUN[sides[0] ?? 'baseline']} has no kernel capture`;
  return sides.map((side) => `the ${SIDE_RUN[side]}'s steps are unknown (${perStep?.[side].text ?? 'no step evidence'})`).join('; ');
}

/**
 * A `kernel-time:` row's note, written from its reading and the comparison's time per step: the
 * sides' steps, its share of GPU time, whether neither side ran it and a shift of work; or why it was
 * not compared. A row of a report from before rows carried these shows the note it stored.
 */
function timeRowNote(row: ComparisonRow, reading: TimeReading, perStep: PerStep | undefined): string | undefined {
  if (reading.notCompared) return `not compared: ${notComparedText(reading, perStep)}`;
  if (!reading.shares || !perStep) return row.note;
  const notes = [
    `steps: baseline ${perStep.baseline.steps} (${perStep.baseline.basis}), current ${perStep.current.steps} (${perStep.current.basis})`,
    `share of GPU time ${reading.shares[0].toFixed(1)}% → ${reading.shares[1].toFixed(1)}%`,
  ];
  if (reading.neitherRan) notes.push('neither side ran it');
  const shift = shiftText(reading, perStep);
  if (shift) notes.push(shift);
  return notes.join('; ');
}

/** A time row's growth read as a shift of work, in words: why it is context and not a regression. */
export function shiftText(reading: TimeReading, perStep: PerStep | undefined): string | undefined {
  if (reading.shift?.within === 'step' && perStep) return `a shift: it grew in a step that got faster (${stepMoveText(perStep)}), so it took over work; context, not a regression`;
  if (reading.shift?.within === 'family') {
    return `a shift within its family: ${reading.shift.family} GPU time per step changed ${stepTimeText(reading.shift.familyDeltaNs, true)}, so other kernels of it gave up the work; context, not a regression`;
  }
  return undefined;
}

/** A comparison row's shift of work, in words, with its change in time per step; undefined for a row that is no shift. */
export function rowShiftText(row: ComparisonRow, comparison: Pick<Comparison, 'perStep'>): string | undefined {
  if (row.reading?.kind !== 'time' || !row.reading.shift) return undefined;
  const text = shiftText(row.reading, comparison.perStep);
  if (!text) return undefined;
  return row.delta === null ? text : `${stepTimeText(row.delta * 1e6, true)}/step, ${text}`;
}

/** A share row's note: what changed beside the share (a new or gone family or kernel, a kernel in or out of the top, its family). */
function shareRowNote(row: ComparisonRow, reading: ShareReading): string | undefined {
  const what = rowSubject(row)?.type === 'kernel' ? 'kernel' : 'family';
  const notes: string[] = [];
  if (reading.change === 'new') notes.push(`new ${what}`);
  if (reading.change === 'gone') notes.push(`${what} gone`);
  if (reading.change === 'entered-top') notes.push(`entered the top ${reading.top ?? '?'}`);
  if (reading.change === 'left-top') notes.push(`left the top ${reading.top ?? '?'}`);
  if (reading.family) notes.push(`family ${reading.family.baseline} → ${reading.family.current}`);
  if (reading.context === 'rest-shrank') {
    notes.push(`the rest of the GPU time shrank: its own time alone moves the share ${formatPp(reading.ownDelta ?? 0)}, not a regression`);
  }
  return notes.length ? notes.join('; ') : row.note;
}

/**
 * A row's note, beside its sentence: what a metric's runs were (metricRowNote), a time per step's
 * steps, share and shift, a share's change of rank or family. Written from the row's reading; a row
 * of an older report shows the note it stored.
 */
export function rowNote(row: ComparisonRow, comparison?: Pick<Comparison, 'perStep'>): string | undefined {
  const reading = row.reading;
  if (reading?.kind === 'metric') return metricRowNote(row);
  if (reading?.kind === 'time') return timeRowNote(row, reading, comparison?.perStep);
  if (reading?.kind === 'share') return shareRowNote(row, reading);
  return row.note;
}

function timeSentence(row: ComparisonRow, ctx: RowContext): string | undefined {
  const reading = row.reading?.kind === 'time' ? row.reading : undefined;
  const target = row.metric.startsWith(KERNEL_TIME_PREFIX) ? row.metric.slice(KERNEL_TIME_PREFIX.length) : row.metric;
  const label = subjectLabel(row, target, ctx);
  const perStep = ctx.comparison.perStep;
  if (reading?.notCompared) return `${label} time per step not compared: ${notComparedText(reading, perStep)}`;
  if ((row.status !== 'fail' && row.status !== 'warn') || row.baseline === null || row.current === null || row.delta === null || !reading || reading.warn === undefined) return undefined;
  const what = `${label} GPU time per step ${stepTimeText(row.baseline * 1e6)} → ${stepTimeText(row.current * 1e6)} (${stepTimeText(row.delta * 1e6, true)})`;
  const move = perStep ? ` (${stepMoveText(perStep)})` : '';
  if (row.status === 'warn') return `${what}, at or beyond the +${stepTimeText(reading.warn * 1e6)} warn threshold, in a step that did not get faster${move}`;
  const failNs = (row.threshold ?? 0) * 1e6;
  const of = reading.of === 'step' ? `the baseline's ${stepTimeText((reading.baseMs ?? 0) * 1e6)} step` : `the baseline's ${stepTimeText((reading.baseMs ?? 0) * 1e6)} of kernels per step`;
  const why = reading.basis === 'floor' ? ` (the ${reading.floorUs} µs floor)` : reading.basis === 'relative' ? ` (${reading.pct} % of ${of})` : '';
  return `${what}, at or beyond the +${stepTimeText(failNs)}${why} fail threshold, in a step that did not get faster${move}`;
}

function findingSentence(row: ComparisonRow, ctx: RowContext): string | undefined {
  const reading = row.reading?.kind === 'finding' ? row.reading : undefined;
  const id = rowSubject(row)?.id ?? row.metric.replace(/^finding:/, '');
  if (!reading) return undefined;
  if (reading.change === 'resolved') return `finding ${id} resolved`;
  if (reading.change === 'present' || reading.change === 'explained' || (row.status !== 'fail' && row.status !== 'warn')) return undefined;
  const hit = strongestHit(ctx.findings, id);
  const severity = reading.severity ?? hit?.severity ?? 'warning';
  if (reading.change === 'unseen') {
    const head = `finding ${id} (${severity}${reading.fails ? ', in fail-on' : ''}), not compared: the baseline has no kernel capture to show it`;
    return reading.fails ? failingFindingLine(hit, head) : head;
  }
  if (reading.fails) return failingFindingLine(hit, `new finding ${id} (${severity}, in fail-on)`);
  return `new finding ${id} (${severity}${reading.inFailOn ? `; in fail-on, below fail-on-severity ${reading.failOnSeverity}` : ''})`;
}

/** A row's sentence where the row has one to say (it decided, improved, or was not compared), else undefined. */
export function rowSentence(row: ComparisonRow, ctx: RowContext): string | undefined {
  switch (row.kind) {
    case 'metric':
      return row.reading?.kind === 'metric' ? metricSentence(row, row.reading, ctx) : undefined;
    case 'family-share':
    case 'kernel-share':
      return shareSentence(row, ctx);
    case 'kernel-time':
      return timeSentence(row, ctx);
    case 'finding':
      return findingSentence(row, ctx);
  }
}

/** The context a report gives its rows' sentences. */
export function rowContext(report: Pick<Report, 'comparison' | 'findings'>, kernelName: (name: string) => string): RowContext {
  return { comparison: report.comparison ?? {}, findings: report.findings, kernelName };
}
