/**
 * The sections of a report as GitHub shows them (job summary and PR comment), each rendered at a
 * chosen level of detail so the callers can fit any profile under GitHub's size limits.
 * Every string that came from a profile goes through gh-text.ts.
 */
import { familyLabel } from '../../model/family-ids.js';
import { deepDiveFacts, deepDiveMatches } from '../../diagnose/ncu-metrics.js';
import { DIAGNOSIS_NOTE } from '../../diagnose/rule.js';
import { metricInfo } from '../../model/metrics.js';
import { rowSubject, type BaselineOrigin, type Comparison, type ComparisonRow, type DeepDiveMatch, type Finding, type KernelChange, type Report, type RowStatus } from '../../model/report.js';
import { codeBlock } from '../escape.js';
import { showHidden } from '../inert-text.js';
import { withMedianInterval } from '../../compare/median-interval.js';
import { CI_PERCENT, ciText, excludedGapsText, launchCallsText, formatNs, formatNumber, formatShare, formatSigned, rankSummary, showsRanks } from '../number-format.js';
import { clip, safeCode, safeLink, safeText, safeUrl } from './text.js';
import { workloadName } from '../dashboard/build-data.js';
import { reportCharts } from './charts.js';
import { reportKernelNames } from '../kernel-display-name.js';
import { comparisonLines, formatMismatch } from '../verdict-lines.js';
import { metricRowNote, rowShiftText } from '../row-lines.js';
import type { ReportEntry } from '../merge-reports.js';
import { isAlert, isQuiet } from '../row-attention.js';
import { explainedText, lockstepText, measuredBasisText, perStepHeadline, perStepNotes } from '../per-step-text.js';
import { stepTimeText } from '../percent-format.js';

/** How much of each section to show. Levels go from richest to leanest. */
export interface Detail {
  findings: number;
  evidence: number;
  commands: boolean;
  rows: number;
  kernels: number;
  kernelChanges: number;
  families: number;
  metrics: number;
  notices: number;
  nameChars: number;
  textChars: number;
}

export const DETAIL_LEVELS: readonly Detail[] = [
  { findings: 40, evidence: 10, commands: true, rows: 80, kernels: 20, kernelChanges: 20, families: 30, metrics: 20, notices: 15, nameChars: 160, textChars: 600 },
  { findings: 20, evidence: 6, commands: true, rows: 40, kernels: 10, kernelChanges: 10, families: 15, metrics: 12, notices: 8, nameChars: 100, textChars: 400 },
  { findings: 10, evidence: 4, commands: true, rows: 15, kernels: 5, kernelChanges: 5, families: 8, metrics: 8, notices: 3, nameChars: 80, textChars: 240 },
  { findings: 5, evidence: 0, commands: false, rows: 8, kernels: 0, kernelChanges: 0, families: 0, metrics: 4, notices: 0, nameChars: 60, textChars: 160 },
];

/** The verdict as a headline, the same in the summary, the comment and report.md. */
export const VERDICT_HEADLINE: Record<Report['verdict'], string> = {
  pass: '✅ Pass',
  warn: '⚠️ Warn',
  fail: '❌ Fail',
  'insufficient-data': '❔ Insufficient data',
  invalid: '🚫 Invalid comparison',
  accepted: '☑️ Accepted regression',
};

export const SEVERITY_ICON: Record<Finding['severity'], string> = { error: '❌', warning: '⚠️', info: 'ℹ️' };
const STATUS_ICON: Record<RowStatus, string> = { fail: '❌', warn: '⚠️', 'insufficient-data': '❔', improved: '🟢', pass: '✅', info: 'ℹ️' };
const STATUS_ORDER: Record<RowStatus, number> = { fail: 0, warn: 1, 'insufficient-data': 2, improved: 3, pass: 4, info: 5 };
const SEVERITY_ORDER: Record<Finding['severity'], number> = { error: 0, warning: 1, info: 2 };

export function verdictLine(verdict: Report['verdict']): string {
  return VERDICT_HEADLINE[verdict];
}

/** What a pass means when nothing was compared: the findings alone decided. */
export const NO_BASELINE_VERDICT = 'no baseline: findings only';

/** A report's headline: a pass with no comparison never reads as a bare pass. */
export function reportVerdictLine(report: Report): string {
  return report.comparison || report.verdict !== 'pass' ? verdictLine(report.verdict) : `${verdictLine(report.verdict)} (${NO_BASELINE_VERDICT})`;
}

/** The line right under the headline when nothing was compared: why, and what to do about it. */
export function noBaselineBanner(entry: ReportEntry): string {
  if (entry.report.comparison) return '';
  const why = missingBaselineText(entry).replace(/^no baseline:\s*/i, '');
  return `> **No baseline, findings only:** ${safeText(why, 700)}.`;
}

/** Primary findings before secondary ones, errors before warnings before info. */
export function orderFindings(findings: readonly Finding[]): Finding[] {
  return [...findings].sort((a, b) => Number(a.secondary) - Number(b.secondary) || SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);
}

/** Alerts (fail, warn) first, then the rest; stable within a status. */
const orderedRows = new WeakMap<readonly ComparisonRow[], ComparisonRow[]>();

export function orderRows(rows: readonly ComparisonRow[]): ComparisonRow[] {
  // Rendering tries several levels of detail; sort a large comparison once.
  const cached = orderedRows.get(rows);
  if (cached) return cached;
  const ordered = rows
    .map((row, index) => ({ row, index }))
    .sort((a, b) => STATUS_ORDER[a.row.status] - STATUS_ORDER[b.row.status] || a.index - b.index)
    .map(({ row }) => row);
  orderedRows.set(rows, ordered);
  return ordered;
}

export { isAlert, isQuiet };

/**
 * The notes of the measured metrics (warm-up runs dropped, outliers left out, drift), whatever the
 * verdict: they say which runs the medians above rest on.
 */
export function rowNotes(rows: readonly ComparisonRow[], d: Detail, comparison: Pick<Comparison, 'perStep'> = {}): string[] {
  const metrics = rows
    .filter((row) => row.kind === 'metric' && metricRowNote(row))
    .slice(0, Math.max(d.notices, 3))
    .map((row) => `- ${safeText(metricInfo(row.metric).label, 60)}: ${safeText(metricRowNote(row)!, d.textChars)}`);
  // Work that moved between kernels in a faster step: context, never a warning, but said.
  const shifts = rows
    .flatMap((row) => {
      const text = rowShiftText(row, comparison);
      return text ? [`- ${safeText(row.metric.replace(/^kernel-time:/, ''), 80)} ${safeText(text, d.textChars)}`] : [];
    })
    .slice(0, 3);
  return [...metrics, ...shifts];
}

function evidenceText(finding: Finding, d: Detail): string {
  const entries = Object.entries(finding.evidence);
  const shown = entries
    .slice(0, d.evidence)
    .map(([key, value]) => `${safeText(key, 40)} = ${safeText(typeof value === 'number' ? formatNumber(value, 3) : String(value), 80)}`);
  if (entries.length > d.evidence) shown.push(`… ${entries.length - d.evidence} more`);
  return shown.join(', ');
}

/** A command in a fenced block inside a list item; line endings normalized so it cannot leave the item. */
function commandBlock(command: string, indent: string): string {
  const lines = command.replace(/\r\n?/g, '\n').split('\n').slice(0, 12).map((line) => showHidden(line.slice(0, 300)));
  return codeBlock(lines.join('\n'), 'sh').replace(/^/gm, indent);
}

/** The finding's next step and its command: what a reviewer acts on. */
export function nextStepLines(finding: Finding, textChars: number, commands = true): string[] {
  const lines = [`  - Next: ${safeText(finding.advice, textChars)}`];
  if (commands && finding.command) lines.push('', commandBlock(finding.command, '  '), '');
  return lines;
}

export function renderFindingFull(finding: Finding, d: Detail, names: (name: string) => string = (name) => name): string {
  const docs = safeLink('docs', finding.docs);
  const lines = [
    `- ${SEVERITY_ICON[finding.severity]} **${safeText(finding.title, 120)}** (${safeCode(finding.id, 60)}${finding.secondary ? ', secondary' : ''}): ${safeText(finding.message, d.textChars)} ${docs === 'docs' ? '' : docs}`.trimEnd(),
  ];
  if (d.evidence > 0 && Object.keys(finding.evidence).length) lines.push(`  - Evidence: ${evidenceText(finding, d)}`);
  if (d.evidence > 0 && finding.lockstepKernels?.length) {
    const kernels = finding.lockstepKernels.slice(0, d.evidence).map((k) => lockstepText(k, { kernel: (name) => safeCode(names(name), d.nameChars), text: (text) => safeText(text, 120) }));
    lines.push(`  - In lockstep: ${kernels.join('; ')}`);
  }
  if (d.evidence > 0 && finding.basis.length) lines.push(`  - Rests on: ${safeText(finding.basis.join('; '), d.textChars)}`);
  lines.push(...nextStepLines(finding, d.textChars, d.commands));
  return lines.join('\n');
}

/** One line per finding, for the alert block of a PR comment. */
export function renderFindingLine(finding: Finding, textChars: number): string {
  return `- ${SEVERITY_ICON[finding.severity]} **${safeText(finding.title, 120)}** (${safeCode(finding.id, 60)}): ${safeText(finding.message, textChars)}`;
}

export function findingsSection(report: Report, d: Detail, h: string): string {
  const out = [`${h} Findings`, ''];
  const findings = orderFindings(report.findings);
  if (findings.length === 0) out.push('No findings.');
  const names = reportKernelNames(report);
  for (const finding of findings.slice(0, d.findings)) out.push(renderFindingFull(finding, d, names));
  if (findings.length > d.findings) {
    const rest = findings.slice(d.findings);
    out.push(`- … ${rest.length} more findings in report.json: ${safeText(rest.map((f) => f.id).join(', '), 300)}`);
  }
  // What the evidence could not establish: notes, not findings (they never decide a verdict).
  const notes = report.notices.filter((n) => n.code === DIAGNOSIS_NOTE).slice(0, d.notices);
  if (notes.length) out.push('', 'Notes on the evidence:', ...notes.map((n) => `- ${safeText(n.message, d.textChars)}`));
  return out.join('\n');
}

/** Kernel names as tables show them: the short display name (the full one is in the details and report.json). */
export type KernelNames = (name: string) => string;

/**
 * A short kernel name as inline code that may wrap after `<`, `,` and `_` (`<wbr>`: a break
 * opportunity that adds no character, so a copied name is the name), so a narrow screen wraps the
 * name instead of pushing the table's last columns out of view.
 */
export function kernelCode(short: string, max: number): string {
  return safeCode(short, max).replace(/(&#60;|&#95;|,)(?!<\/code>)/g, '$1<wbr>');
}

function rowLabel(row: ComparisonRow, d: Detail, names?: KernelNames): string {
  const subject = rowSubject(row);
  if (!subject) return safeText(metricInfo(row.metric).label, d.nameChars);
  const kernel = (name: string) => (names ? kernelCode(names(name), d.nameChars) : safeCode(name, d.nameChars));
  const named =
    subject.type === 'kernel'
      ? `kernel ${kernel(subject.id)}`
      : subject.type === 'family'
        ? `family: ${safeText(familyLabel(subject.id), 60)}`
        : subject.type === 'communication'
          ? 'exposed communication'
          : `finding ${safeCode(subject.id, 60)}`;
  // GPU time per decode step of a family or kernel.
  return row.kind === 'kernel-time' ? `time per step, ${named}` : named;
}

/**
 * Deltas of metrics are relative (0.05 = +5%), of shares in percentage points, of findings in hits;
 * the CI and the threshold share the delta's unit.
 */
function deltaUnit(row: ComparisonRow): { scale: number; unit: string } {
  if (row.kind === 'metric') return { scale: 100, unit: '%' };
  if (row.kind === 'finding') return { scale: 1, unit: '' };
  if (row.kind === 'kernel-time') return { scale: 1, unit: ' ms' };
  return { scale: 1, unit: ' pp' };
}

function valueText(value: number | null, row: ComparisonRow): string {
  if (value === null) return '—';
  // Shares are percentages of GPU time.
  if (row.kind === 'family-share' || row.kind === 'kernel-share') return `${formatNumber(value, 1)}%`;
  if (row.kind === 'finding') return `${formatNumber(value)} ${value === 1 ? 'hit' : 'hits'}`;
  const suffix = row.unit && row.unit.length <= 12 ? ` ${safeText(row.unit, 12)}` : '';
  return `${formatNumber(value)}${suffix}`;
}

/**
 * The direction a row is gated in, as the sign of its threshold: shares fail on growth only, a
 * metric on the change its direction calls worse (a drop of throughput, a rise of latency).
 */
export function gatedSign(row: ComparisonRow): string {
  if (row.kind !== 'metric') return '+';
  const direction = row.direction ?? metricInfo(row.metric).direction;
  return direction === 'higher' ? '−' : '+';
}

/** The failing rows a reviewer accepted (report.acceptance), which stay failing rows marked accepted. */
export function acceptedRows(report: Report): ReadonlySet<string> {
  return new Set(report.acceptance?.covers ?? []);
}

export function comparisonRowCells(row: ComparisonRow, d: Detail, names?: KernelNames, accepted: ReadonlySet<string> = new Set()): string {
  const { scale, unit } = deltaUnit(row);
  const digits = row.kind === 'finding' ? 0 : row.kind === 'kernel-time' ? 3 : 1;
  const delta = row.delta === null ? '—' : formatSigned(row.delta * scale, unit, digits);
  const ci = row.ci ? ciText(row.ci, scale, unit) : '—';
  const threshold = row.threshold === null ? '—' : `${gatedSign(row)}${formatNumber(Math.abs(row.threshold * scale))}${unit}`;
  const status = `${STATUS_ICON[row.status]} ${row.status}${row.status === 'fail' && accepted.has(row.metric) ? ' (accepted)' : ''}`;
  return `| ${rowLabel(row, d, names)} | ${valueText(row.baseline, row)} | ${valueText(row.current, row)} | ${delta} | ${ci} | ${threshold} | ${status} |`;
}

export const COMPARISON_HEADER = '| metric | baseline | current | delta | CI | threshold | status |\n|---|---:|---:|---:|---|---:|---|';

export function missingBaselineText(entry: ReportEntry): string {
  return entry.baselineNote ?? 'no baseline report was given, so the findings alone decided the verdict; to compare, give one (action input baseline: artifact, or --baseline FILE)';
}

export function comparisonSection(entry: ReportEntry, d: Detail, h: string): string {
  const comparison = entry.report.comparison;
  const out = [`${h} Comparison with the baseline`, ''];
  if (!comparison) {
    out.push(`No comparison: ${safeText(missingBaselineText(entry), 400)}.`);
    return out.join('\n');
  }
  const rows = orderRows(comparison.rows);
  const alerts = rows.filter(isAlert).length;
  if (rows.length === 0) out.push('The baseline had no comparable metrics.');
  else {
    out.push(`${alerts ? `**${alerts} alert${alerts === 1 ? '' : 's'}.** ` : ''}Delta: relative for metrics, percentage points for shares; CI: ${CI_PERCENT}% interval of the delta.`, '');
    const names = reportKernelNames(entry.report);
    const accepted = acceptedRows(entry.report);
    const shown = rows.slice(0, d.rows);
    // What needs a look stays in view; the passes (and the rows shown for information) fold away.
    const open = shown.filter((row) => !isQuiet(row));
    const quiet = shown.filter(isQuiet);
    if (open.length) out.push(COMPARISON_HEADER, ...open.map((row) => comparisonRowCells(row, d, names, accepted)));
    if (quiet.length) {
      const what = `${quiet.length} row${quiet.length === 1 ? '' : 's'} with nothing to flag`;
      out.push(...(open.length ? [''] : []), `<details><summary>${what}</summary>`, '', COMPARISON_HEADER, ...quiet.map((row) => comparisonRowCells(row, d, names)), '', '</details>');
    }
    if (rows.length > d.rows) {
      const hiddenAlerts = rows.slice(d.rows).filter(isAlert).length;
      out.push('', `… ${rows.length - d.rows} more rows${hiddenAlerts ? ` (${hiddenAlerts} of them alerts)` : ''} in report.json.`);
    }
    const notes = rowNotes(rows, d, comparison);
    if (notes.length) out.push('', 'How the runs were compared:', ...notes);
  }
  if (comparison.newFindings.length) out.push('', `New findings: ${comparison.newFindings.slice(0, 20).map((id) => safeCode(id, 60)).join(', ')}`);
  if (comparison.resolvedFindings.length) out.push('', `Resolved findings: ${comparison.resolvedFindings.slice(0, 20).map((id) => safeCode(id, 60)).join(', ')}`);
  return out.join('\n');
}

function changeText(change: KernelChange | undefined): string {
  if (!change) return '';
  if (change.change === 'added') return 'new';
  if (change.change === 'removed') return 'gone';
  return `${change.deltaNs >= 0 ? '+' : '−'}${formatNs(Math.abs(change.deltaNs))}`;
}

export function kernelsSection(entry: ReportEntry, d: Detail, h: string): string {
  const { report } = entry;
  if (d.kernels === 0 || report.kernels.length === 0) return '';
  const comparison = report.comparison;
  const changes = new Map((comparison?.kernelChanges ?? []).map((c) => [c.name, c]));
  const familyDelta = new Map(
    (comparison?.rows ?? []).flatMap((r) => {
      const subject = rowSubject(r);
      return r.kind === 'family-share' && r.delta !== null && subject?.type === 'family' ? [[subject.id, r.delta] as const] : [];
    }),
  );
  const withChanges = changes.size > 0;
  const names = reportKernelNames(report);
  const shortened = new Map<string, string>();
  const shown = (name: string): string => {
    const short = names(name);
    if (short !== name.replace(/\s+/g, ' ').trim()) shortened.set(short, name);
    return kernelCode(short, d.nameChars);
  };
  const out = [`${h} Top kernels`, '', `${report.kernels.length} distinct kernels, ${formatNs(report.totalKernelNs)} of GPU kernel time.`, ''];
  out.push(withChanges ? '| share | total | change | calls | family | kernel |\n|---:|---:|---:|---:|---|---|' : '| share | total | calls | family | kernel |\n|---:|---:|---:|---|---|');
  const dived = new Set<string>();
  for (const kernel of report.kernels.slice(0, d.kernels)) {
    const change = withChanges ? ` ${changeText(changes.get(kernel.name)) || '—'} |` : '';
    out.push(`| ${formatShare(kernel.share)} | ${formatNs(kernel.totalNs)} |${change} ${kernel.instances} | ${safeText(kernel.family, 30)} | ${shown(kernel.name)} |`);
    // Under the first row of that name only (an ncu capture may add its own row for the kernel).
    const deepDive = dived.has(kernel.name) ? undefined : deepDiveText(report, kernel.name, d);
    if (deepDive) out.push(`| |${withChanges ? ' |' : ''} | | deep dive | ↳ ${deepDive} |`);
    dived.add(kernel.name);
  }
  if (withChanges && d.kernelChanges > 0) {
    const biggest = [...changes.values()].sort((a, b) => Math.abs(b.deltaNs) - Math.abs(a.deltaNs)).slice(0, d.kernelChanges);
    out.push('', `${h}# Biggest kernel changes`, '', '| change | baseline | current | delta | family | kernel |', '|---|---:|---:|---:|---|---|');
    for (const c of biggest) {
      out.push(`| ${c.change} | ${formatNs(c.baselineNs)} | ${formatNs(c.currentNs)} | ${changeText(c)} | ${safeText(c.family, 30)} | ${shown(c.name)} |`);
    }
    if (changes.size > d.kernelChanges) out.push('', `… ${changes.size - d.kernelChanges} more kernel changes in report.json.`);
  }
  if (shortened.size) {
    // The full names, folded: long template names would push every column off a narrow screen.
    out.push('', '<details><summary>Full kernel names</summary>', '');
    // Each in a code block, which scrolls inside itself: the name stays whole for copying.
    for (const [short, full] of shortened) out.push(`- ${kernelCode(short, d.nameChars)}`, '', codeBlock(clip(full, Math.max(d.nameChars, 2 * d.textChars)), '').replace(/^/gm, '  '), '');
    out.push('', '</details>');
  }
  if (d.families > 0 && report.families.length) {
    const delta = familyDelta.size > 0;
    out.push('', `${h} Kernel families`, '', delta ? '| share | Δ share | total | kernels | family |\n|---:|---:|---:|---:|---|' : '| share | total | kernels | family |\n|---:|---:|---:|---|');
    for (const family of report.families.slice(0, d.families)) {
      const deltaCell = delta ? ` ${familyDelta.has(family.family) ? formatSigned(familyDelta.get(family.family)!, ' pp') : '—'} |` : '';
      out.push(`| ${formatShare(family.share)} |${deltaCell} ${formatNs(family.totalNs)} | ${family.kernels} | ${safeText(familyLabel(family.family), 60)} |`);
    }
    if (report.families.length > d.families) out.push('', `… ${report.families.length - d.families} more families in report.json.`);
  }
  return out.join('\n');
}

/**
 * A kernel's Nsight Compute deep dive in one line: the profiled launch's numbers and the ids of the
 * findings about that kernel. Shown in a row right under the kernel's row of the kernels table.
 */
const deepDiveCache = new WeakMap<Report, DeepDiveMatch[]>();

/** The report's deep dives as analysis matched them; a report written before the matches is matched once here. */
function deepDivesOf(report: Report): DeepDiveMatch[] {
  // A report read back in part keeps the first ncu results only: a dive whose launch was cut is not shown.
  if (report.deepDives) return report.deepDives.filter((dive) => report.deepDive[dive.result] !== undefined);
  let dives = deepDiveCache.get(report);
  if (!dives) deepDiveCache.set(report, (dives = deepDiveMatches(report.deepDive, report.kernels, report.findings)));
  return dives;
}

function deepDiveText(report: Report, kernel: string, d: Detail): string | undefined {
  const dive = deepDivesOf(report).find((k) => k.kernel === kernel);
  const result = dive ? report.deepDive[dive.result] : undefined;
  if (!dive || !result) return undefined;
  const launches = `Nsight Compute, ${dive.launches} launch${dive.launches === 1 ? '' : 'es'}`;
  const text = [`${launches}: ${deepDiveFacts(result).join(' · ')}`, dive.findings.length ? `findings: ${dive.findings.join(', ')}` : ''].filter(Boolean).join(' → ');
  return safeText(text, d.textChars);
}

/** Deep dives on kernels the kernels table does not show (a name the timing capture spells otherwise, or past its rows). */
export function deepDiveSection(report: Report, d: Detail, h: string): string {
  if (d.kernels === 0) return '';
  const shown = new Set(report.kernels.slice(0, d.kernels).map((k) => k.name));
  const rest = deepDivesOf(report).filter((k) => !shown.has(k.kernel));
  if (rest.length === 0) return '';
  const out = [`${h} Deep dive (Nsight Compute)`, ''];
  const names = reportKernelNames(report);
  for (const dive of rest.slice(0, d.kernels)) out.push(`- ${kernelCode(names(dive.kernel), d.nameChars)}: ${deepDiveText(report, dive.kernel, d)}`);
  if (rest.length > d.kernels) out.push(`- … ${rest.length - d.kernels} more profiled kernels in report.json.`);
  return out.join('\n');
}

/** The interval of a median for a report written before metrics carried it. */
function intervalOf(samples: readonly number[]): [number, number] | null {
  return withMedianInterval({ samples }).ci;
}

export function utilizationSection(report: Report, d: Detail, h: string): string {
  const out: string[] = [];
  const u = report.utilization;
  if (u) {
    const throttle = u.throttleReasons.length ? u.throttleReasons.slice(0, 8).map((r) => safeText(r, 40)).join(', ') : 'none';
    out.push(
      `- GPU utilization: mean ${formatNumber(u.meanPercent, 1)}%, peak ${formatNumber(u.peakPercent, 1)}% over ${u.window === 'timed' ? 'the timed runs' : 'the active window'} (${u.sampleCount} of ${u.totalSampleCount} samples, ${u.devices} GPU; ${formatNumber(u.overallMeanPercent, 1)}% over all samples); hardware throttle: ${throttle}`,
    );
  }
  const t = report.timeline;
  if (t && t.spanNs > 0) out.push(`- Trace: GPU busy ${formatShare(t.busyNs / (t.spanNs * Math.max(1, t.devices)))} of ${formatNs(t.spanNs)}; ${launchCallsText(t)}${excludedGapsText(t)}`);
  if (showsRanks(report.ranks)) {
    for (const rank of report.ranks.slice(0, 16)) out.push(`- ${rankSummary(rank)}`);
    if (report.ranks.length > 16) out.push(`- … ${report.ranks.length - 16} more ranks in report.json`);
  }
  if (report.gpuTimeUtilPercent !== null) out.push(`- nsys gpu_time_util: ${formatNumber(report.gpuTimeUtilPercent, 1)}% in use`);
  if (report.metrics.length && d.metrics > 0) {
    if (out.length) out.push('');
    out.push(`| metric | median | ${CI_PERCENT}% CI of the median | samples |`, '|---|---:|---|---:|');
    const compared = new Map((report.comparison?.rows ?? []).filter((r) => r.kind === 'metric').map((r) => [r.metric, r]));
    for (const metric of report.metrics.slice(0, d.metrics)) {
      const unit = safeText(metric.unit, 12);
      // One median per metric: where the comparison left runs out (warm-up, outliers), its median.
      const row = compared.get(metric.name);
      const kept = row?.samples?.[1];
      // A report written before rows said what they left out: the samples past the row's count.
      const leftOut = row?.leftOut?.[1] ?? (kept !== undefined ? metric.samples.length - kept : 0);
      if (row && row.current !== null && kept !== undefined && leftOut > 0) {
        out.push(`| ${safeText(metricInfo(metric.name).label, 60)} | ${formatNumber(row.current)} ${unit} | — (see the comparison) | ${kept} of ${kept + leftOut} |`);
        continue;
      }
      // The interval analysis put on the metric (the dashboard draws the same); older reports lack it.
      const ci = metric.ci !== undefined ? metric.ci : intervalOf(metric.samples);
      const ciText = ci ? `${formatNumber(ci[0])} … ${formatNumber(ci[1])} ${unit}` : metric.samples.length > 1 ? '— (too few samples)' : '—';
      out.push(`| ${safeText(metricInfo(metric.name).label, 60)} | ${formatNumber(metric.value)} ${unit} | ${ciText} | ${metric.samples.length} |`);
    }
    if (report.metrics.length > d.metrics) out.push('', `… ${report.metrics.length - d.metrics} more metrics in report.json.`);
  }
  const notices = report.notices.filter((n) => n.severity !== 'info' && n.code !== DIAGNOSIS_NOTE).slice(0, d.notices);
  // What each input lost while it was read (events dropped, rows missing): the terminal lists them
  // under Inputs; here they are named too, so that no loss is seen only in a log.
  const losses = report.sources.flatMap((source) => source.stats.filter((stat) => stat.severity !== 'info').map((stat) => ({ source, stat })));
  if (notices.length || losses.length) {
    out.push('', 'Capture notes:');
    for (const notice of notices) out.push(`- ${notice.severity}: ${safeText(notice.message, d.textChars)}`);
    // Losses are named at every detail level, three at least, as the metric notes are.
    const shown = Math.max(d.notices, 3);
    for (const { source, stat } of losses.slice(0, shown)) {
      out.push(`- ${stat.severity}: ${safeText(source.path.split(/[\\/]/).pop() ?? source.path, 80)}: ${safeText(stat.detail ?? stat.name, d.textChars)} (${stat.count})`);
    }
    if (losses.length > shown) out.push(`- … ${losses.length - shown} more in report.json (sources[].stats).`);
  }
  if (out.length === 0) return '';
  return [`${h} Utilization and throughput`, '', ...out].join('\n');
}

/** The engine's short origin ids, as a reader of the summary would say them; anything else as given. */
const ORIGIN_TEXT: ReadonlyMap<string, string> = new Map(
  Object.entries({
    'a/b': 'A/B: the base build, run in this job',
    artifact: "the default branch's report artifact",
    file: 'a report file',
  } satisfies Record<BaselineOrigin, string>),
);

export function baselineSection(entry: ReportEntry, h: string): string {
  const comparison = entry.report.comparison;
  const out = [`${h} Baseline`, ''];
  if (!comparison) {
    out.push(`None: ${safeText(missingBaselineText(entry), 400)}.`);
    return out.join('\n');
  }
  const b = comparison.baseline;
  out.push(`- Used: ${safeText(ORIGIN_TEXT.get(b.origin) ?? b.origin, 200)}${b.path ? ` (${safeCode(b.path, 160)})` : ''}${b.generatedAt ? `, generated ${safeText(b.generatedAt, 40)}` : ''}`);
  out.push(`- Why: ${safeText(b.reason, 400)}`);
  if (comparison.environmentMismatch.length) out.push(`- Environment differs: ${comparison.environmentMismatch.slice(0, 10).map((m) => safeText(formatMismatch(m), 120)).join('; ')}`);
  return out.join('\n');
}

export interface RunLinks {
  /** The workflow run (its page lists every artifact). */
  runUrl?: string;
  /** The profile-gate dashboard whose series this report joins (the action's dashboard-url). */
  dashboardUrl?: string;
}

/** The dashboard link, naming the series (the dashboard groups reports by workload) this report is a point of. */
export function dashboardLink(entries: readonly ReportEntry[], links: RunLinks): string | undefined {
  if (!links.dashboardUrl || !safeUrl(links.dashboardUrl)) return undefined;
  const series = [...new Set(entries.map((e) => workloadName(e.report)))];
  const what = series.length === 1 ? `the ${series[0]} series` : `${series.length} series`;
  return `${safeLink('Dashboard', links.dashboardUrl)}: ${safeText(what, 140)} over time`;
}

export function artifactLine(entry: ReportEntry): string | undefined {
  const a = entry.artifact;
  if (!a) return undefined;
  const id = a.id !== undefined ? ` (id ${a.id})` : '';
  return `${safeLink(a.name, a.url, 100)}${id}: report.json and report.md (profile.json and the traces are in the artifact of the same name with -captures)`;
}

export function artifactsSection(entries: readonly ReportEntry[], links: RunLinks, h: string): string {
  const dashboard = dashboardLink(entries, links);
  // Outside a CI job (the CLI) there is no artifact, no run and no job to point to.
  if (!entries.some((e) => e.artifact) && !links.runUrl && !dashboard) return '';
  const out = [`${h} Artifacts`, ''];
  for (const entry of entries) {
    const line = artifactLine(entry);
    if (line) out.push(`- ${entries.length > 1 ? `${safeText(entry.label, 80)}: ` : ''}${line}`);
  }
  if (!entries.some((e) => e.artifact)) out.push('- No artifact was uploaded; report.json and report.md are in the report directory of the job.');
  if (links.runUrl) out.push(`- ${safeLink('Workflow run', links.runUrl)} (every artifact of the run)`);
  if (dashboard) out.push(`- ${dashboard}`);
  return out.join('\n');
}

/**
 * Who accepted a failing verdict, in one quoted line above the reasons: the login, the way (the label
 * or a link to the comment), when, and the reason given. The failing rows stay in view below it.
 */
export function acceptanceBanner(report: Report): string {
  const a = report.acceptance;
  if (!a) return '';
  const how = a.via === 'cli' ? 'locally, --accepted-by' : a.via;
  const via = a.url ? safeLink(how, a.url) : how;
  const reason = a.reason ? `: “${safeText(a.reason, 300)}”` : '';
  const rows = a.covers.length === 1 ? '1 failing row' : `${a.covers.length} failing rows`;
  // The login is shown, not mentioned: an updated comment must not ping the accepter again.
  return `> ☑️ **Accepted by ${safeText(`@${a.by}`, 60)}** (${via}, ${safeText(a.at, 40)}) — the regression stays visible: ${rows} accepted, marked below${reason}.`;
}

export function reasonsBlock(report: Report, max = 3): string {
  const reasons = comparisonLines(report);
  // A failing line carries the evidence that decided it (src/compare/verdict.ts): room for it. The
  // first few lead the first screen; the comparison below holds every row.
  const more = reasons.length > max ? [`- and ${reasons.length - max} more: see the comparison`] : [];
  const list = [...reasons.slice(0, max).map((r) => `- ${safeText(r, 700)}`), ...more].join('\n');
  const banner = acceptanceBanner(report);
  return banner ? `${banner}\n\n${list}` : list;
}

/** The one sentence on where the time went per decode step (report/per-step-text.ts), or ''. */
export function perStepLine(report: Report): string {
  const names = reportKernelNames(report);
  // The short display name in a code span: copyable as written (no <wbr> or other breaks inside).
  const sentence = perStepHeadline(report, { kernel: (name) => safeCode(names(name), 120), text: (text) => safeCode(text, 160) });
  return sentence ? `**Where the time went:** ${sentence}` : '';
}

function stepCountText(side: NonNullable<NonNullable<Report['comparison']>['perStep']>['baseline']): string {
  const tokens = side.tokensPerStep !== undefined ? `, ${formatNumber(side.tokensPerStep)} token${side.tokensPerStep === 1 ? '' : 's'} per step` : '';
  return side.steps === null ? `unknown: ${safeText(side.text, 300)}` : `${formatNumber(side.steps)} steps from ${safeText(side.text, 300)}${tokens}`;
}

/** Time per step by family and kernel, each side, with the step counts they rest on. */
export function perStepSection(report: Report, d: Detail, h: string): string {
  const perStep = report.comparison?.perStep;
  if (!perStep || d.families === 0) return '';
  // Per step; per launch without a comparison per step; per device over the whole window where that was compared.
  const per = perStep.unit;
  const lines = [`${h} Time per ${per}`, ''];
  lines.push(`- Baseline steps: ${stepCountText(perStep.baseline)}`, `- Current steps: ${stepCountText(perStep.current)}`);
  const measured = perStep.measured;
  if (measured) {
    lines.push(`- Measured time per ${measured.per}: ${stepTimeText(measured.baselineNs)} → ${stepTimeText(measured.currentNs)} (${stepTimeText(measured.deltaNs, true)}), from ${measuredBasisText(measured.basis)}`);
  }
  if (perStep.kernelDeltaNs !== null) {
    const share = explainedText(perStep);
    lines.push(`- GPU kernel time per step: ${stepTimeText(perStep.kernelDeltaNs, true)}${share}`);
  }
  for (const note of perStepNotes(perStep)) lines.push(`- ${safeText(note, 300)}`);
  if (perStep.families.length) {
    lines.push('', '| family | baseline | current | delta per step |', '|---|---:|---:|---:|');
    for (const f of perStep.families.slice(0, d.families)) lines.push(`| ${safeText(familyLabel(f.family), 60)} | ${stepTimeText(f.baselineNs)} | ${stepTimeText(f.currentNs)} | ${stepTimeText(f.deltaNs, true)} |`);
  }
  const names = reportKernelNames(report);
  const kernels = perStep.kernels.slice(0, Math.max(3, Math.min(d.kernels, 10)));
  if (kernels.length) {
    lines.push('', `| kernel | launches per ${per} | baseline | current | delta per ${per} | launched from |`, '|---|---:|---:|---:|---:|---|');
    for (const k of kernels) {
      const from = [k.launchedBy ?? '', k.site ?? ''].filter(Boolean).join(' / ');
      lines.push(
        `| ${kernelCode(names(k.name), d.nameChars)} | ${formatNumber(k.baselineLaunches)} → ${formatNumber(k.currentLaunches)} | ${stepTimeText(k.baselineNs)} | ${stepTimeText(k.currentNs)} | ${stepTimeText(k.deltaNs, true)} | ${from ? safeCode(from, 160) : '—'} |`,
      );
    }
  }
  return lines.join('\n');
}

/** The report's charts (mermaid), at the levels of detail that show the kernel families. */
export function chartsSection(report: Report, d: Detail, h: string): string {
  const charts = d.families > 0 ? reportCharts(report) : [];
  return charts.length ? [`${h} Charts`, '', charts.join('\n\n')].join('\n') : '';
}

/**
 * One report's sections in reading order, as the summary and the comment both show them; the
 * comment draws the charts above its details, so it leaves them out here.
 */
export function entrySections(entry: ReportEntry, d: Detail, h: string, options: { charts?: boolean } = {}): string {
  const sections = [
    findingsSection(entry.report, d, h),
    options.charts ? chartsSection(entry.report, d, h) : '',
    comparisonSection(entry, d, h),
    perStepSection(entry.report, d, h),
    kernelsSection(entry, d, h),
    deepDiveSection(entry.report, d, h),
    utilizationSection(entry.report, d, h),
    baselineSection(entry, h),
  ];
  return sections.filter(Boolean).join('\n\n');
}
