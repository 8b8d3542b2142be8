/**
 * The sticky PR comment: the verdict and the alerts first, everything else folded in <details>,
 * a link to the full report, and a hidden marker that lets the next run find and update it.
 * GitHub refuses a comment over 65,536 characters, so the body is fitted under a budget.
 */
import { createHash } from 'node:crypto';
import type { Report } from '../../model/report.js';
import { fitBlocks, fitRows, type BudgetedBlock } from './budget.js';
import {
  acceptanceBanner,
  acceptedRows,
  comparisonRowCells,
  COMPARISON_HEADER,
  entrySections,
  isAlert,
  orderFindings,
  noBaselineBanner,
  orderRows,
  perStepLine,
  reasonsBlock,
  reportVerdictLine,
  rowNotes,
  dashboardLink,
  nextStepLines,
  renderFindingLine,
  verdictLine,
  DETAIL_LEVELS,
  type Detail,
  type RunLinks,
} from './sections.js';
import { safeLink, safeText } from './text.js';
import { acceptHint, type AcceptWays } from './accept-hint.js';

export { acceptHint } from './accept-hint.js';
import { countsText, legsTable } from './summary.js';
import { reportCharts } from './charts.js';
import { reportKernelNames } from '../kernel-display-name.js';
import { labelFor, mergeReports, needsAttention, type ArtifactLink, type MergedReports, type ReportEntry } from '../merge-reports.js';
import { countText } from '../number-format.js';

export const COMMENT_LIMIT_CHARS = 65_536;
export const COMMENT_BUDGET_CHARS = 60_000;

export type CommentPolicy = 'auto' | 'always' | 'on-regression' | 'off';
export const COMMENT_POLICIES: readonly CommentPolicy[] = ['auto', 'always', 'on-regression', 'off'];

/** Marker keys: letters, digits and . _ / - only, so a key can never close the HTML comment. */
export function sanitizeCommentKey(key: string): string {
  const clean = key
    .replace(/[^A-Za-z0-9._/-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 100);
  return clean || 'default';
}

/**
 * The marker of one key's comment, one-to-one with the key: a key the sanitizing changed (`llama fp8`,
 * `llama+fp8`) also carries a short hash of itself, so two keys never share a comment. A key that
 * needs no change keeps the marker it always had.
 */
export function commentMarker(key: string): string {
  const clean = sanitizeCommentKey(key);
  const suffix = clean === key ? '' : `~${createHash('sha256').update(key).digest('hex').slice(0, 10)}`;
  return `<!-- profile-gate:${clean}${suffix} -->`;
}

export interface CommentOptions {
  /** Distinguishes the comments of matrix legs, or of the merged report. */
  key: string;
  /** How a reviewer accepts an intended regression here (inputs accept-label, accept-command; '' for off). */
  accept?: AcceptWays;
  links?: RunLinks;
  budgetChars?: number;
}

export interface SingleCommentOptions extends CommentOptions {
  label?: string;
  artifact?: ArtifactLink;
  baselineNote?: string;
}

export type CommentAction = 'post' | 'update-only' | 'skip';

export interface CommentDecision {
  action: CommentAction;
  reason: string;
}

/**
 * Whether to comment. `auto`: on pull request events. `on-regression`: create only when something
 * needs attention; an existing comment is still updated so it never shows a stale regression.
 */
export function decideComment(policy: CommentPolicy, pullRequestEvent: boolean, merged: MergedReports): CommentDecision {
  switch (policy) {
    case 'off':
      return { action: 'skip', reason: "the comment input is 'off'" };
    case 'always':
      return { action: 'post', reason: "the comment input is 'always'" };
    case 'auto':
      return pullRequestEvent ? { action: 'post', reason: 'a pull request event' } : { action: 'skip', reason: 'not a pull request event' };
    case 'on-regression':
      return merged.entries.some(needsAttention)
        ? { action: 'post', reason: 'something needs attention' }
        : { action: 'update-only', reason: 'nothing changed: only an existing comment is refreshed' };
  }
}

const measure = (text: string): number => text.length;

function alertLines(entry: ReportEntry, labelled: boolean, textChars: number): string[] {
  const lines: string[] = [];
  const prefix = labelled ? `**${safeText(entry.label, 80)}** · ` : '';
  const rows = orderRows(entry.report.comparison?.rows ?? []).filter(isAlert);
  const findings = orderFindings(entry.report.findings).filter((f) => f.severity !== 'info' && !f.secondary);
  if (labelled && (rows.length || findings.length || entry.report.verdict !== 'pass')) {
    lines.push(`${prefix}${verdictLine(entry.report.verdict)}${entry.report.comparison ? '' : ' (no baseline)'}`);
    if (entry.report.acceptance) lines.push('', acceptanceBanner(entry.report));
  }
  const detail: Detail = { ...DETAIL_LEVELS[2]!, nameChars: 80 };
  // The findings first: the top one's next step is what the reviewer does next, so it stays on the
  // first screen above the table of every alerting row.
  for (const [i, finding] of findings.slice(0, 10).entries()) {
    lines.push(renderFindingLine(finding, textChars));
    if (i === 0) lines.push(...nextStepLines(finding, Math.max(textChars, 600)));
  }
  if (findings.length > 10) lines.push(`- … ${findings.length - 10} more findings in the details.`);
  if (rows.length) {
    const names = reportKernelNames(entry.report);
    lines.push('', COMPARISON_HEADER, ...rows.slice(0, 10).map((row) => comparisonRowCells(row, detail, names, acceptedRows(entry.report))));
    if (rows.length > 10) lines.push('', `… ${rows.length - 10} more alerts in the details and the artifact.`);
    // Which runs the alerting medians rest on (warm-up dropped, outliers, drift): a failure keeps them.
    const notes = rowNotes(rows.slice(0, 10), detail);
    if (notes.length) lines.push('', ...notes);
    lines.push('');
  }
  return lines;
}

function entryDetails(entry: ReportEntry, d: Detail, labelled: boolean): string {
  const body = entrySections(entry, d, labelled ? '####' : '###');
  const head = labelled ? [`### ${verdictLine(entry.report.verdict)} · ${safeText(entry.label, 100)}`, perStepLine(entry.report), reasonsBlock(entry.report)] : [];
  return [...head, body].filter(Boolean).join('\n\n');
}

function footer(merged: MergedReports, links: RunLinks): string {
  const parts: string[] = [];
  for (const entry of merged.entries.slice(0, 20)) {
    if (!entry.artifact) continue;
    const label = merged.entries.length > 1 ? `${entry.label}: ${entry.artifact.name}` : entry.artifact.name;
    parts.push(safeLink(label, entry.artifact.url, 120));
  }
  if (links.runUrl) parts.push(safeLink('job summary and all artifacts', links.runUrl));
  const dashboard = dashboardLink(merged.entries, links);
  if (dashboard) parts.push(dashboard);
  return parts.length ? `Full report: ${parts.join(' · ')}` : 'Full report: report.json and report.md in the job’s report directory.';
}

export function renderReportComment(report: Report, options: SingleCommentOptions): string {
  const entry: ReportEntry = {
    label: options.label ?? labelFor(report, ''),
    report,
    ...(options.artifact ? { artifact: options.artifact } : {}),
    ...(options.baselineNote ? { baselineNote: options.baselineNote } : {}),
  };
  return renderComment(mergeReports([entry]), options);
}

export function renderComment(merged: MergedReports, options: CommentOptions): string {
  const budget = Math.min(options.budgetChars ?? COMMENT_BUDGET_CHARS, COMMENT_BUDGET_CHARS);
  const links = options.links ?? {};
  const labelled = merged.entries.length > 1;
  const first = merged.entries[0];
  const heading = labelled || !first
    ? `## profile-gate: ${verdictLine(merged.verdict)} · ${countText(merged.entries.length, 'report')}${labelled ? ` (${countsText(merged)})` : ''}`
    : `## profile-gate: ${reportVerdictLine(first.report)}${first.label ? ` · ${safeText(first.label, 100)}` : ''}`;
  const banner = !labelled && first ? noBaselineBanner(first) : '';
  // Every leg in one line each, passes included: what ran is as much the news as what failed.
  const legs = labelled ? `\n${legsTable(merged, budget * 0.15, measure)}\n` : '';
  const where = !labelled && first ? perStepLine(first.report) : '';
  const head = [commentMarker(options.key), heading, banner ? `\n${banner}\n` : '', legs, where ? `${where}\n` : '', !labelled && first ? reasonsBlock(first.report) : ''].filter(Boolean).join('\n');
  const tail = [acceptHint(merged, options.accept), footer(merged, links)].filter(Boolean).join('\n\n');

  const alerts = merged.entries.flatMap((entry) => alertLines(entry, labelled, 300));
  const alertBudget = budget * 0.4;
  const alertBlock = alerts.length
    ? fitRows(alerts, alertBudget, measure, 'lines of alerts; see the job summary').join('\n').trim()
    : first
      ? 'No regressions and no findings.'
      : 'No report was found.';

  // Pictures of one report, where they beat a table: its throughput runs and its family shares.
  const charts = !labelled && first ? reportCharts(first.report) : [];
  const chartBlock = charts.length && measure(charts.join('\n\n')) < budget * 0.15 ? charts.join('\n\n') : '';
  const used = measure(head) + measure(alertBlock) + measure(chartBlock) + measure(tail) + 20;
  const open = `<details><summary>Details: findings, comparison, kernels, utilization, baseline</summary>`;
  const close = '</details>';
  const blocks: BudgetedBlock[] = merged.entries.map((entry) => ({
    render: (d) => entryDetails(entry, d, labelled),
    minimal: () => `${safeText(entry.label, 80)}: details omitted to stay within GitHub's comment size limit; see the job summary.`,
  }));
  // The blank lines around the block content are what makes GitHub render markdown inside <details>.
  const details = blocks.length ? `${fitBlocks(open, blocks, close, budget - used, measure)}` : '';
  const body = [head, alertBlock, chartBlock, details, tail].filter(Boolean).join('\n\n');
  if (measure(body) <= budget) return `${body}\n`;
  // Unreachable with the caps above; kept so that no input can ever produce a refused comment.
  return `${[head, `Too large to show here; ${tail}`].join('\n\n')}\n`;
}
