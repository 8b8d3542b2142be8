/** The CLI's default output: diagnosis first, then the numbers it rests on. Plain text; colour only when asked (a TTY). */
import { familyLabel } from '../model/family-ids.js';
import { metricInfo } from '../model/metrics.js';
import { rowSubject, type ComparisonRow, type Finding, type Report } from '../model/report.js';
import { ciText, excludedGapsText, launchCallsText, formatNs, formatNumber, formatShare, formatSigned, rankSummary, shortenName, showsRanks } from './number-format.js';
import { NO_BASELINE_VERDICT } from './markdown/sections.js';
import { isQuiet } from './row-attention.js';
import { reportKernelNames } from './kernel-display-name.js';
import { comparisonLines } from './verdict-lines.js';
import { rowShiftText } from './row-lines.js';
import { DIAGNOSIS_NOTE } from '../diagnose/rule.js';
import { commandInert, withHiddenShown } from './inert-text.js';
import { explainedText, lockstepText, measuredBasisText, perStepHeadline, perStepNotes } from './per-step-text.js';
import { stepTimeText } from './percent-format.js';

const VERDICT_LINE: Record<Report['verdict'], string> = {
  pass: 'PASS',
  warn: 'WARN',
  fail: 'FAIL',
  'insufficient-data': 'INSUFFICIENT DATA',
  invalid: 'INVALID',
  accepted: 'ACCEPTED',
};

const ANSI = { red: 31, green: 32, yellow: 33, gray: 90, bold: 1 } as const;
type Paint = (text: string, style: keyof typeof ANSI) => string;
const plain: Paint = (text) => text;
const ansi: Paint = (text, style) => `\u001b[${ANSI[style]}m${text}\u001b[0m`;

const VERDICT_STYLE: Record<Report['verdict'], keyof typeof ANSI> = { pass: 'green', warn: 'yellow', fail: 'red', 'insufficient-data': 'yellow', invalid: 'red', accepted: 'yellow' };
const STATUS_STYLE: Record<string, keyof typeof ANSI> = { fail: 'red', warn: 'yellow', improved: 'green', pass: 'green', 'insufficient-data': 'yellow', info: 'gray' };
const SEVERITY_STYLE: Record<Finding['severity'], keyof typeof ANSI> = { error: 'red', warning: 'yellow', info: 'gray' };

function evidenceLine(finding: Finding): string {
  return Object.entries(finding.evidence)
    .map(([key, value]) => `${key}=${typeof value === 'number' ? formatNumber(value, 3) : String(value)}`)
    .join('  ');
}

/** A change relative to where it started: `new` from nothing, `gone` to nothing. */
function relativeChange(baselineNs: number, currentNs: number): string {
  if (baselineNs === 0) return currentNs === 0 ? '' : 'new';
  if (currentNs === 0) return 'gone';
  const percent = ((currentNs - baselineNs) / baselineNs) * 100;
  const text = Math.abs(percent) >= 10 ? Math.round(Math.abs(percent)).toString() : Math.abs(percent).toFixed(1);
  return `${percent > 0 ? '+' : percent < 0 ? '−' : '±'}${text} %`;
}

type PerStepBlock = NonNullable<NonNullable<Report['comparison']>['perStep']>;

/**
 * The families and the kernels whose time per step changed most, under a sub-header each, in
 * aligned columns: name, baseline → current, the change and the change relative to the baseline.
 */
function perStepRows(perStep: PerStepBlock, names: (name: string) => string): string[] {
  const groups: Array<[string, Array<{ name: string; baselineNs: number; currentNs: number; deltaNs: number }>]> = [
    ['by family', perStep.families.slice(0, 5).map((f) => ({ ...f, name: familyLabel(f.family) }))],
    ['by kernel', perStep.kernels.slice(0, 5).map((k) => ({ ...k, name: shortenName(names(k.name), 60) }))],
  ];
  const rows = groups.flatMap(([, items]) => items);
  if (!rows.length) return [];
  const width = Math.max(...rows.map((r) => r.name.length));
  const base = Math.max('baseline'.length, ...rows.map((r) => stepTimeText(r.baselineNs).length));
  const current = Math.max('current'.length, ...rows.map((r) => stepTimeText(r.currentNs).length));
  const delta = Math.max('change'.length, ...rows.map((r) => stepTimeText(r.deltaNs, true).length));
  const out = [`  ${pad('', width + 4)}${'baseline'.padStart(base)} → ${pad('current', current)}  ${'change'.padStart(delta)}`];
  for (const [title, items] of groups) {
    if (!items.length) continue;
    out.push(`  ${title}`);
    for (const r of items) {
      out.push(`    ${pad(r.name, width)}  ${stepTimeText(r.baselineNs).padStart(base)} → ${pad(stepTimeText(r.currentNs), current)}  ${stepTimeText(r.deltaNs, true).padStart(delta)}  ${relativeChange(r.baselineNs, r.currentNs)}`.trimEnd());
    }
  }
  return out;
}

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

export interface TerminalOptions {
  topKernels?: number;
  /** ANSI colours (the CLI sets it on a TTY unless NO_COLOR is set). */
  color?: boolean;
}

export function renderTerminal(given: Report, options: TerminalOptions = {}): string {
  // Names and messages come from outside: shown with their control, bidi and zero-width characters
  // as escapes, and no printed line can be read as a workflow command (inert-text.ts).
  const report = withHiddenShown(given);
  const lines: string[] = [];
  const topN = options.topKernels ?? 10;
  const paint = options.color ? ansi : plain;
  const verdict = `${VERDICT_LINE[report.verdict]}${report.comparison || report.verdict !== 'pass' ? '' : ` (${NO_BASELINE_VERDICT})`}`;
  lines.push(`profile-gate ${report.tool.version}: ${paint(paint(verdict, VERDICT_STYLE[report.verdict]), 'bold')}`);
  const names = reportKernelNames(report);
  const where = perStepHeadline(report, { kernel: names, text: (text) => text });
  if (where) lines.push(`  where the time went: ${where}`);
  for (const reason of comparisonLines(report)) lines.push(`  - ${reason}`);
  lines.push('');

  const comparison = report.comparison;
  if (comparison) {
    lines.push(`Comparison with baseline (${comparison.baseline.origin}${comparison.baseline.path ? ` ${comparison.baseline.path}` : ''})`);
    // A kernel's row by its display name, in the key's own form (`kernel:<short>`, `kernel-time:kernel:<short>`).
    const label = (row: ComparisonRow): string => {
      const subject = rowSubject(row);
      if (subject?.type !== 'kernel') return row.metric;
      return `${row.kind === 'kernel-time' ? 'kernel-time:' : ''}kernel:${names(subject.id)}`;
    };
    const shown = comparison.rows.filter((row) => row.kind === 'metric' || !isQuiet(row));
    const accepted = new Set(report.acceptance?.covers ?? []);
    for (const row of shown.slice(0, 12)) {
      const relative = row.kind === 'metric';
      const delta =
        row.delta === null ? 'n/a' : relative ? formatSigned(row.delta * 100, '%') : row.kind === 'finding' ? formatSigned(row.delta, '', 0) : row.kind === 'kernel-time' ? formatSigned(row.delta, ' ms/step', 3) : formatSigned(row.delta, ' pp');
      const ci = row.ci ? ` [${ciText(row.ci, relative ? 100 : 1, relative ? '%' : ' pp')}]` : '';
      const values = `${row.baseline === null ? '—' : formatNumber(row.baseline)} → ${row.current === null ? '—' : formatNumber(row.current)}`;
      const status = `${row.status.toUpperCase()}${row.status === 'fail' && accepted.has(row.metric) ? ' (ACCEPTED)' : ''}`;
      lines.push(`  ${paint(pad(status, 17), STATUS_STYLE[row.status] ?? 'gray')} ${pad(shortenName(label(row), 56), 56)} ${pad(values, 22)} ${delta}${ci}`);
    }
    if (shown.length > 12) lines.push(`  … ${shown.length - 12} more rows in report.json`);
    // Work that moved between kernels in a faster step: context, never a warning, but said.
    const shifts = comparison.rows.flatMap((row) => {
      const text = rowShiftText(row, comparison);
      return text ? [{ row, text }] : [];
    });
    for (const { row, text } of shifts.slice(0, 3)) lines.push(`  context: ${shortenName(label(row), 56)} ${text}`);
    if (shifts.length > 3) lines.push(`  … ${shifts.length - 3} more shifts of work in report.json`);
    lines.push('');
    const perStep = comparison.perStep;
    if (perStep) {
      const per = perStep.unit;
      const side = (s: typeof perStep.baseline) => (s.steps === null ? `unknown (${s.text})` : `${formatNumber(s.steps)} (${s.text})`);
      lines.push(`Time per ${per} (GPU kernel time)`, `  steps: baseline ${side(perStep.baseline)}`, `         current ${side(perStep.current)}`);
      if (perStep.measured) lines.push(`  measured per ${perStep.measured.per}: ${stepTimeText(perStep.measured.baselineNs)} → ${stepTimeText(perStep.measured.currentNs)} (${stepTimeText(perStep.measured.deltaNs, true)}, from ${measuredBasisText(perStep.measured.basis)})`);
      if (perStep.kernelDeltaNs !== null) lines.push(`  kernels: ${stepTimeText(perStep.kernelDeltaNs, true)}/step${explainedText(perStep, '')}`);
      for (const note of perStepNotes(perStep)) lines.push(`  note: ${note}`);
      lines.push(...perStepRows(perStep, names));
      lines.push('');
    }
  }

  lines.push('Diagnosis');
  if (report.findings.length === 0) lines.push('  no findings');
  for (const finding of report.findings) {
    const tag = `${finding.severity.toUpperCase()}${finding.secondary ? ' (secondary)' : ''}`;
    lines.push(`  ${paint(`[${tag}]`, SEVERITY_STYLE[finding.severity])} ${finding.id}: ${finding.message}`);
    lines.push(`      evidence: ${evidenceLine(finding)}`);
    if (finding.lockstepKernels?.length) lines.push(`      in lockstep: ${finding.lockstepKernels.map((k) => lockstepText(k, { kernel: names, text: (text) => text })).join('; ')}`);
    if (finding.basis.length) lines.push(`      rests on: ${finding.basis.join('; ')}`);
    lines.push(`      next: ${finding.advice}`);
    if (finding.command) lines.push(`      $ ${finding.command}`);
  }
  const notes = report.notices.filter((n) => n.code === DIAGNOSIS_NOTE);
  if (notes.length) {
    lines.push('  Notes on the evidence (not findings):');
    for (const note of notes) lines.push(`    - ${note.message}`);
  }
  lines.push('');

  if (report.kernels.length) {
    lines.push(`Top kernels (${report.kernels.length} distinct, ${formatNs(report.totalKernelNs)} GPU kernel time)`);
    lines.push(`  ${pad('share', 7)} ${pad('total', 11)} ${pad('calls', 8)} ${pad('family', 18)} kernel`);
    for (const kernel of report.kernels.slice(0, topN)) {
      lines.push(
        `  ${pad(formatShare(kernel.share), 7)} ${pad(formatNs(kernel.totalNs), 11)} ${pad(String(kernel.instances), 8)} ${pad(kernel.family, 18)} ${shortenName(reportKernelNames(report)(kernel.name))}`,
      );
    }
    lines.push('');
    lines.push('Kernel families');
    for (const family of report.families) {
      lines.push(`  ${pad(formatShare(family.share), 7)} ${pad(formatNs(family.totalNs), 11)} ${pad(family.family, 18)} ${familyLabel(family.family)}`);
    }
    lines.push('');
  }

  const util = report.utilization;
  if (util || report.timeline || report.gpuTimeUtilPercent !== null) {
    lines.push('GPU utilization');
    if (util) {
      lines.push(
        `  sampled: mean ${formatNumber(util.meanPercent, 1)}%, peak ${formatNumber(util.peakPercent, 1)}% over ${util.window === 'timed' ? 'the timed runs' : 'the active window'} (${util.sampleCount} of ${util.totalSampleCount} samples, ${util.devices} GPU); hardware throttle: ${util.throttleReasons.length ? util.throttleReasons.join(', ') : 'none'}`,
      );
    }
    if (report.timeline && report.timeline.spanNs > 0) {
      const t = report.timeline;
      lines.push(`  trace: GPU busy ${formatShare(t.busyNs / (t.spanNs * Math.max(1, t.devices)))} of ${formatNs(t.spanNs)}; ${launchCallsText(t)}${excludedGapsText(t)}`);
    }
    if (showsRanks(report.ranks)) for (const rank of report.ranks) lines.push(`  ${rankSummary(rank)}`);
    if (report.gpuTimeUtilPercent !== null) lines.push(`  nsys gpu_time_util: ${formatNumber(report.gpuTimeUtilPercent, 1)}% in use`);
    lines.push('');
  }

  if (report.metrics.length) {
    lines.push('Throughput and latency (median of samples)');
    for (const metric of report.metrics) {
      const info = metricInfo(metric.name);
      lines.push(`  ${pad(info.label, 24)} ${formatNumber(metric.value)} ${metric.unit}  (n=${metric.samples.length})`);
    }
    lines.push('');
  }

  lines.push('Inputs');
  for (const source of report.sources) {
    const parts = source.parts.length ? ` [${source.parts.join(', ')}]` : '';
    lines.push(`  ${source.path}: ${source.format}${parts}${source.toolVersion ? ` (${source.tool ?? ''} ${source.toolVersion})` : ''}`);
    for (const stat of source.stats) lines.push(`    ${stat.severity}: ${stat.name} x${stat.count}${stat.detail ? ` (${stat.detail})` : ''}`);
  }
  for (const notice of report.notices) if (notice.code !== DIAGNOSIS_NOTE) lines.push(`  ${notice.severity}: ${notice.message}`);
  return `${lines.map(commandInert).join('\n')}\n`;
}
