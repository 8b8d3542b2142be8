/**
 * The verdict in words: every sentence that says why a report passed, warned or failed is written
 * here, from the data the analysis recorded (the decision's causes, the rows, the comparison's
 * notes, the skipped inputs, the acceptance). The terminal, the job summary, the PR comment, the
 * CLI's `report`, the action's failure message, mode report and the dashboard all read these lines.
 */
import type { AcceptanceNote, Acceptance, ComparisonNote, ComparisonRow, DecisionCause, Report, Side, ThrottleReading } from '../model/report.js';
import { claimName } from '../compare/acceptance.js';
import { MIN_HISTORY_REPORTS } from '../compare/between-jobs.js';
import { withoutQuotedText } from '../errors.js';
import { formatPct, formatValue } from './percent-format.js';
import { droppedMetricsLine } from './data-loss.js';
import { refusalText } from './per-step-text.js';
import { reportKernelNames } from './kernel-display-name.js';
import { failingFindingLine, rowContext, rowSentence, sampleNoun, sharedGpuText, stallText, strongestHit, targetLabel, type RowContext } from './row-lines.js';

const SIDE_RUN: Record<Side, string> = { baseline: 'baseline', current: 'current run' };

/**
 * The verdict's first line when inputs were left out: how many, which (the first few) and why, and
 * that --strict (input strict) fails instead. Undefined when none was.
 */
export function skippedInputsLine(skipped: readonly { path: string; reason: string }[], shown = 3): string | undefined {
  if (!skipped.length) return undefined;
  // A reason never quotes the file (a report from elsewhere may still): quotes are dropped here too.
  const items = skipped.slice(0, shown).map((s) => `${s.path} (${withoutQuotedText(s.reason).replace(/\s+/g, ' ').slice(0, 200)})`);
  const more = skipped.length > shown ? `, and ${skipped.length - shown} more` : '';
  return `${skipped.length} input${skipped.length === 1 ? ' was' : 's were'} skipped, the verdict rests on the rest: ${items.join('; ')}${more}; strict (--strict) fails instead`;
}

/** A verdict with its lines: one report's (verdictLines), or a merge's (each failing leg's, labelled). */
export interface VerdictSummary {
  verdict: Report['verdict'];
  lines: readonly string[];
}

/** One line for a failing job: the verdict's lines, at most `max` of them. */
export function failureLine(lines: readonly string[], max = 3): string {
  const shown = lines.slice(0, max).join('; ');
  const more = lines.length > max ? `; and ${lines.length - max} more` : '';
  return (shown || 'failed') + more;
}

function list(items: readonly string[], max = 5): string {
  const shown = items.slice(0, max).map((m) => m.replace(/\s+/g, ' ').slice(0, 80));
  return shown.join(', ') + (items.length > max ? `, and ${items.length - max} more` : '');
}

/** The verdict's first line when a fail was accepted. */
export function acceptedLine(acceptance: Acceptance): string {
  const reason = acceptance.reason ? `: ${acceptance.reason}` : '';
  return `accepted by ${claimName(acceptance)} on ${acceptance.at}, covering ${list(acceptance.covers)}${reason}; the failing rows stay below, and the job passes unless fail-verdicts lists accepted`;
}

/** An acceptance that did not apply, in a line. */
export function acceptanceNoteLine(note: AcceptanceNote): string {
  switch (note.kind) {
    case 'invalid':
      return `the acceptance by ${claimName(note)} does not apply: the comparison is invalid, so nothing was compared to accept`;
    case 'no-failing-row':
      return `the acceptance by ${claimName(note)} does not apply: the report records no failing row to accept`;
    case 'partial': {
      const unknown = note.unknown.length ? `; ${list(note.unknown)} names no failing row` : '';
      return `the acceptance by ${claimName(note)} covers ${note.covers.length ? list(note.covers) : 'no failing row'}, not ${list(note.left)}${unknown}: not accepted`;
    }
    case 'refused':
      return note.text;
  }
}

/** What leads every account of the verdict: the acceptance, then what was left out of the inputs. */
function leadingLines(report: Report): string[] {
  return [
    ...(report.acceptance ? [acceptedLine(report.acceptance)] : []),
    ...(report.acceptanceNotes ?? []).map(acceptanceNoteLine),
    skippedInputsLine(report.skippedInputs),
    droppedMetricsLine(report.sources),
  ].filter((line): line is string => line !== undefined);
}

/** An environment key whose values differ, in words: `key: baseline → current` (an older report's line as it stored it). */
export function formatMismatch(m: { key: string; baseline: string; current: string } | string): string {
  return typeof m === 'string' ? m : `${m.key}: ${m.baseline} → ${m.current}`;
}

function sideShare(side: { share: number | null }): string {
  return side.share === null ? 'an unknown share' : `${Math.round(side.share * 100)}%`;
}

function sideClock(side: { clockMhz: number | null }): string {
  return side.clockMhz !== null ? `${Math.round(side.clockMhz).toLocaleString('en-US')} MHz` : 'unknown';
}

/** `sw_power_cap in 28% of baseline and 31% of current samples; mean SM clock 1,902 MHz (baseline) vs 1,899 MHz (current)` */
function conditions(power: Extract<ThrottleReading, { type: 'power' }>): string {
  const clocks = power.baseline.clockMhz !== null || power.current.clockMhz !== null ? `; mean SM clock ${sideClock(power.baseline)} (baseline) vs ${sideClock(power.current)} (current)` : '';
  return `${power.reasons.join(', ')} in ${sideShare(power.baseline)} of baseline and ${sideShare(power.current)} of current samples${clocks}`;
}

/** What a throttle problem saw, and what to do about it. */
function throttleProblem(reading: ThrottleReading): { what: string; remedy: string } {
  if (reading.type === 'fault') return { what: `the ${reading.side} run was throttled (${reading.reasons.join(', ')}: thermal or hardware protection)`, remedy: 'its numbers are not representative: rerun on a sound, cool GPU' };
  const differs = reading.differs.map((d) => {
    if (d.what === 'share-unknown') return d.sampled ? `the throttled share of the ${SIDE_RUN[d.side]} is unknown` : `the ${SIDE_RUN[d.side]} has no GPU sampling to compare with`;
    if (d.what === 'share-gap') return `the throttled shares differ by ${Math.round(d.points)} points (more than ${Math.round(d.maxPoints)})`;
    return `the mean SM clocks differ by ${(d.gap * 100).toFixed(1)}% (more than ${(d.maxGap * 100).toFixed(1)}%)`;
  });
  return { what: `the sides ran under different power conditions (${conditions(reading)}): ${differs.join(', and ')}`, remedy: 'rerun both under the same load' };
}

/** A throttling note: the power regime the sides were compared under, or a problem allowed. */
function throttleNote(note: Extract<ComparisonNote, { kind: 'throttling' }>): string {
  const reading = note.reading;
  if (note.allowed || reading.type === 'fault' || reading.differs.length) return `${throttleProblem(reading).what}; allowed by --allow-throttled`;
  if (reading.sameJob) return `power regime: ${conditions(reading)}; an A/B in one job meets it on both sides, so they are compared`;
  const alike = reading.alike;
  const within = alike ? ` (throttled shares within ${Math.round(alike.maxPoints)} points${alike.maxGap !== undefined ? `, clocks within ${(alike.maxGap * 100).toFixed(1)}%` : ''})` : '';
  return `power regime: ${conditions(reading)}; alike on both sides${within}, so they are compared`;
}

const NO_THROUGHPUT = 'no gated metric is present on both sides';

/** `decode_tok_s, tpot_ms: left out baseline run 3: −15.0% …`: the runs left out as outliers. */
function leftOutNote(note: Extract<ComparisonNote, { kind: 'left-out' }>): string {
  return `${note.metrics.join(', ')}: ${note.sides.map((side) => stallText(side, sampleNoun(note.metrics))).join('; ')}`;
}

/** The noise between jobs the floors were widened by (a baseline from another job with the default branch's history). */
function betweenJobsLine(betweenJobs: NonNullable<NonNullable<Report['comparison']>['betweenJobs']>): string {
  if (betweenJobs.metrics.length) {
    const parts = betweenJobs.metrics.map((r) => `${r.metric} ±${(r.spread * 100).toFixed(1)}% (floor ${(r.floor * 100).toFixed(1)}%)`);
    return `a comparison between jobs: the last ${betweenJobs.reports} reports of the default branch vary ${parts.join(', ')} between jobs, and the floors cover it; an A/B run in one job (base-workdir) takes that noise out`;
  }
  return `a comparison between jobs: ${betweenJobs.reports} earlier report${betweenJobs.reports === 1 ? '' : 's'} of the default branch, too few (${MIN_HISTORY_REPORTS} needed) to estimate the noise between jobs; the floors are as set`;
}

/** The comparison's notes in words, in their order: environment, throttling, noise between jobs, runs left out, a refused time per step, a side without kernels, missing metrics. */
export function comparisonNoteLines(comparison: NonNullable<Report['comparison']>): string[] {
  const notes = comparison.notes;
  const of = <K extends ComparisonNote['kind']>(kind: K) => notes.filter((n): n is Extract<ComparisonNote, { kind: K }> => n.kind === kind);
  return [
    ...of('environment-allowed').map((n) => `environment differs, allowed: ${n.mismatches.map(formatMismatch).join('; ')}`),
    ...of('throttling').map(throttleNote),
    ...(comparison.betweenJobs ? [betweenJobsLine(comparison.betweenJobs)] : []),
    ...of('left-out').map(leftOutNote),
    ...(comparison.perStep?.refused ? [refusalText(comparison.perStep.refused, comparison.perStep)] : []),
    ...of('no-kernel-capture').map((n) => `kernel shares not compared: the ${SIDE_RUN[n.side]} has no kernel capture`),
    ...(of('no-throughput').length ? [NO_THROUGHPUT] : []),
    ...comparison.rows.flatMap(hostBoundStepLine),
  ];
}

/** A profiled step whose floor the host set (src/compare/profiler-steps.ts): said whatever its status, as a +60 % that passes must not pass unexplained. */
function hostBoundStepLine(row: ComparisonRow): string[] {
  const regime = row.reading?.kind === 'metric' ? row.reading.profiledStep : undefined;
  if (!regime?.hostBound) return [];
  const floor = row.threshold === null ? '' : `: it fails only past a ${formatPct(row.threshold, 0).replace('+', '')} floor`;
  return [`${row.metric}: no run lines give a step time, so the profiled steps measure it; the baseline's kernels fill ${Math.round(regime.kernelShare * 100)}% of its step, so the host sets its length, which moves between processes far more than a GPU's${floor}`];
}

/** The line of a passing comparison: what was compared and found within its thresholds. */
function passLine(report: Report): string {
  const rows = report.comparison?.rows ?? [];
  const metricCount = rows.filter((r) => r.kind === 'metric' && r.status === 'pass').length;
  const improvedCount = rows.filter((r) => r.kind === 'metric' && r.status === 'improved').length;
  // Say what was compared: a pass on kernel time alone must not read as "0 metrics within their floors".
  const metricPart = metricCount
    ? `${metricCount} gated metric${metricCount === 1 ? '' : 's'} within ${metricCount === 1 ? 'its floor' : 'their floors'}${improvedCount ? `, ${improvedCount} improved` : ''}`
    : improvedCount
      ? `${improvedCount} gated metric${improvedCount === 1 ? '' : 's'} improved`
      : 'no throughput or latency compared';
  const parts = [metricPart];
  const gate = report.comparison?.kernelGate;
  const shareWarn = report.decision.policy?.shareThresholds.warn;
  if (gate?.mode === 'time') parts.push('no kernel time per step grew past its threshold in a step that did not get faster');
  else if (gate?.mode === 'fallback' && !gate.throughputImproved) parts.push(shareWarn !== undefined ? `no kernel share grew by ${shareWarn} pp or more` : 'no kernel share grew past its threshold');
  parts.push('no new findings');
  const shared = rows.find((r) => r.kind === 'metric' && r.status === 'pass' && r.reading?.kind === 'metric' && r.reading.sharedGpu)?.reading;
  if (shared?.kind === 'metric' && shared.sharedGpu) {
    const how = shared.sharedGpu.action === 'ignored' ? 'compared on every run (shared-gpu ignore)' : 'decided on the runs it was not shared in';
    parts.push(`the GPU was shared with another process (${sharedGpuText(shared.sharedGpu)}): ${how}`);
  }
  return `no regression: ${parts.join(', ')}`;
}

/** Why nothing was gated, and what would gate. */
function nothingGatedLine(cause: Extract<DecisionCause, { kind: 'nothing-gated' }>): string {
  const metrics = cause.oneSided.length ? `no throughput or latency on both sides (${cause.oneSided.join(', ')} on one side only)` : 'no throughput or latency samples on both sides';
  const time = cause.time === 'thresholds-not-compared' ? 'no time-per-step threshold could be compared' : cause.time === 'no-threshold' ? 'no time-per-step or kernel threshold set' : 'no kernels on both sides';
  return `nothing gated: ${metrics} and ${time}; kernel shares are context only. Add metric lines ({"metric": "decode_tok_s", "value": N}) or a threshold such as kernel-time:family:<id>=+0.1ms; fail-verdicts insufficient-data fails the job on this`;
}

const STATUS_WORD: Record<ComparisonRow['status'], string> = { fail: 'failed', warn: 'warned', 'insufficient-data': 'undecided', improved: 'improved', info: 'noted', pass: 'passed' };

/** A deciding row with no sentence of its own (a report migrated from before rows carried their reading): its key, status and values. */
function fallbackRowLine(cause: Extract<DecisionCause, { kind: 'row' }>, row: ComparisonRow | undefined): string {
  const values = row && row.baseline !== null && row.current !== null ? ` (${formatValue(row.baseline, row.unit)} → ${formatValue(row.current, row.unit)})` : '';
  return `${targetLabel(cause.row)} ${STATUS_WORD[cause.status]}${values}`;
}

/** A report's comparison rows by key (a report may hold 100,000 of them: looked up, never searched). */
function rowsByKey(report: Report): Map<string, ComparisonRow> {
  return new Map((report.comparison?.rows ?? []).map((row) => [row.metric, row]));
}

/** A cause of the verdict in one line. */
export function causeLine(cause: DecisionCause, report: Report, ctx: RowContext = rowContext(report, reportKernelNames(report)), rows: ReadonlyMap<string, ComparisonRow> = rowsByKey(report)): string {
  switch (cause.kind) {
    case 'row': {
      const row = rows.get(cause.row);
      return (row && rowSentence(row, ctx)) ?? fallbackRowLine(cause, row);
    }
    case 'finding': {
      const lead = `finding ${cause.id} (${cause.severity})`;
      if (cause.status === 'fail') return failingFindingLine(strongestHit(report.findings, cause.id), `${lead} is in fail-on`);
      if (cause.inFailOn === undefined) return `${lead}: warns`;
      const severity = report.decision.policy ? ` ${report.decision.policy.failOnSeverity}` : '';
      return cause.inFailOn ? `${lead} is in fail-on, below fail-on-severity${severity}: warns` : `${lead}, not in fail-on: warns`;
    }
    case 'invalid': {
      if (cause.check === 'environment') {
        const keys = cause.mismatches?.length ? ` (${cause.mismatches.map(formatMismatch).join('; ')})` : '';
        return `environment differs${keys}; compare like with like or allow the keys with --allow-environment-mismatch (action input allow-environment-mismatch)`;
      }
      const problem = cause.throttle ? throttleProblem(cause.throttle) : { what: 'a side was throttled', remedy: 'rerun on a sound GPU' };
      return `${problem.what}; ${problem.remedy}, or allow it with --allow-throttled (action input allow-throttled)`;
    }
    case 'no-throughput':
      return NO_THROUGHPUT;
    case 'nothing-gated':
      return nothingGatedLine(cause);
  }
}

/**
 * The lines that decide the verdict, most decisive first: what was accepted or left out, then each
 * cause (for fail, exactly what fails it); a passing comparison says what it compared.
 */
export function verdictLines(report: Report): string[] {
  const ctx = rowContext(report, reportKernelNames(report));
  const rows = rowsByKey(report);
  const causes = report.decision.causes.map((cause) => causeLine(cause, report, ctx, rows));
  const pass = report.verdict === 'pass' && report.comparison ? [passLine(report)] : [];
  return [...leadingLines(report), ...causes, ...pass];
}

const ORDER: Record<ComparisonRow['status'], number> = { fail: 0, 'insufficient-data': 1, warn: 2, improved: 3, info: 4, pass: 5 };

/**
 * The comparison's whole account, for the summary and the terminal: what leads, why nothing was
 * gated (when so), the checks that keep it from standing, each row that has a sentence (most
 * decisive first), the notes, and a pass's line. Without a comparison, the verdict's lines.
 */
export function comparisonLines(report: Report): string[] {
  const comparison = report.comparison;
  if (!comparison) return verdictLines(report);
  const ctx = rowContext(report, reportKernelNames(report));
  const nothingGated = report.decision.causes.filter((c) => c.kind === 'nothing-gated').map((c) => causeLine(c, report, ctx));
  const invalid = report.decision.causes.filter((c) => c.kind === 'invalid').map((c) => causeLine(c, report, ctx));
  const rows = [...comparison.rows]
    .map((row) => ({ row, line: rowSentence(row, ctx) }))
    .filter((r): r is { row: ComparisonRow; line: string } => r.line !== undefined)
    .sort((a, b) => ORDER[a.row.status] - ORDER[b.row.status])
    .map((r) => r.line);
  const pass = report.verdict === 'pass' ? [passLine(report)] : [];
  return [...leadingLines(report), ...nothingGated, ...invalid, ...rows, ...comparisonNoteLines(comparison), ...pass];
}
