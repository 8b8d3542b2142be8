/**
 * The job summary: what a reviewer reads on the run page. In order: the verdict, the findings with
 * their evidence and next command, the comparison (alerts first), top kernels and families with
 * their deltas, utilization and throughput, the baseline, and the artifacts.
 * GitHub drops a step summary over 1 MiB, so the output is fitted under a byte budget.
 */
import type { Report } from '../../model/report.js';
import { fitBlocks, fitRows, type BudgetedBlock } from './budget.js';
import {
  artifactLine,
  artifactsSection,
  dashboardLink,
  entrySections,
  isAlert,
  noBaselineBanner,
  perStepLine,
  reasonsBlock,
  reportVerdictLine,
  verdictLine,
  type RunLinks,
} from './sections.js';
import { safeLink, safeText, utf8Bytes } from './text.js';
import { acceptHint, type AcceptWays } from './accept-hint.js';
import { countText, formatNumber, formatSigned } from '../number-format.js';
import { labelFor, mergeReports, type ArtifactLink, type MergedReports, type ReportEntry } from '../merge-reports.js';

/** GitHub's per-step summary limit. */
export const SUMMARY_LIMIT_BYTES = 1024 * 1024;
/** What we allow ourselves, leaving room for anything else the step appends. */
export const SUMMARY_BUDGET_BYTES = SUMMARY_LIMIT_BYTES - 64 * 1024;

export interface SummaryOptions {
  links?: RunLinks;
  budgetBytes?: number;
  /** How a reviewer accepts an intended regression here: a failing summary prints the line to copy. */
  accept?: AcceptWays;
}

export interface SingleSummaryOptions extends SummaryOptions {
  label?: string;
  artifact?: ArtifactLink;
  baselineNote?: string;
}

function title(entry: ReportEntry): string {
  return `profile-gate: ${reportVerdictLine(entry.report)}${entry.label ? ` · ${safeText(entry.label, 100)}` : ''}`;
}

export function renderSummary(report: Report, options: SingleSummaryOptions = {}): string {
  const entry: ReportEntry = {
    label: options.label ?? labelFor(report, ''),
    report,
    ...(options.artifact ? { artifact: options.artifact } : {}),
    ...(options.baselineNote ? { baselineNote: options.baselineNote } : {}),
  };
  return renderMergedSummary(mergeReports([entry]), options);
}

function decodeCell(entry: ReportEntry): string {
  const metric = entry.report.metrics.find((m) => m.name === 'decode_tok_s');
  if (!metric) return '—';
  const row = entry.report.comparison?.rows.find((r) => r.metric === 'decode_tok_s' && r.delta !== null);
  return `${formatNumber(metric.value)}${row ? ` (${formatSigned(row.delta! * 100, '%')})` : ''}`;
}

/** One row per report: verdict, findings, alerts and decode throughput. */
export function legsTable(merged: MergedReports, budget: number, measure: (s: string) => number): string {
  const rows = merged.entries.map((entry) => {
    const errors = entry.report.findings.filter((f) => f.severity === 'error').length;
    const warnings = entry.report.findings.filter((f) => f.severity === 'warning').length;
    const alerts = entry.report.comparison?.rows.filter(isAlert).length ?? 0;
    return `| ${safeText(entry.label, 80)} | ${verdictLine(entry.report.verdict)} | ${countText(errors, 'error')}, ${countText(warnings, 'warning')} | ${entry.report.comparison ? alerts : 'no baseline'} | ${decodeCell(entry)} |`;
  });
  const header = ['| report | verdict | findings | alerts | decode tok/s (Δ) |', '|---|---|---|---:|---:|'];
  return [...header, ...fitRows(rows, budget, measure, 'reports in the artifacts')].join('\n');
}

export function countsText(merged: MergedReports): string {
  return Object.entries(merged.counts)
    .filter(([, n]) => n > 0)
    .map(([verdict, n]) => `${n} ${verdict}`)
    .join(', ');
}

export function renderMergedSummary(merged: MergedReports, options: SummaryOptions = {}): string {
  const budget = options.budgetBytes ?? SUMMARY_BUDGET_BYTES;
  const links = options.links ?? {};
  if (merged.entries.length === 0) {
    return `## profile-gate: ${verdictLine(merged.verdict)}\n\nNo report was found to summarize.\n`;
  }
  if (merged.entries.length === 1) {
    const entry = merged.entries[0]!;
    const reasons = reasonsBlock(entry.report);
    const head = [`## ${title(entry)}`, noBaselineBanner(entry), perStepLine(entry.report), reasons].filter(Boolean).join('\n\n');
    const tail = [acceptHint(merged, options.accept), artifactsSection([entry], links, '###')].filter(Boolean).join('\n\n');
    const block: BudgetedBlock = {
      render: (d) => entrySections(entry, d, '###', { charts: true }),
      minimal: () => 'Details omitted to stay within the job summary size limit; see report.md in the artifact.',
    };
    return `${fitBlocks(head, [block], tail, budget, utf8Bytes)}\n`;
  }

  const head = [
    `## profile-gate: ${verdictLine(merged.verdict)} · ${countText(merged.entries.length, 'report')} (${countsText(merged)})`,
    legsTable(merged, budget * 0.25, utf8Bytes),
  ].join('\n\n');
  const blocks: BudgetedBlock[] = merged.entries.map((entry) => ({
    render: (d) => {
      const artifact = artifactLine(entry);
      return [`### ${verdictLine(entry.report.verdict)} · ${safeText(entry.label, 100)}`, perStepLine(entry.report), reasonsBlock(entry.report), entrySections(entry, d, '####', { charts: true }), artifact ? `Artifact: ${artifact}` : '']
        .filter(Boolean)
        .join('\n\n');
    },
    minimal: () => `### ${verdictLine(entry.report.verdict)} · ${safeText(entry.label, 100)}\n\nDetails omitted to stay within the size limit; see its artifact.`,
  }));
  const dashboard = dashboardLink(merged.entries, links);
  const tail = [acceptHint(merged, options.accept), links.runUrl ? `${safeLink('Workflow run', links.runUrl)}: every report artifact of the run.` : '', dashboard ? `${dashboard}.` : ''].filter(Boolean).join('\n\n');
  return `${fitBlocks(head, blocks, tail, budget, utf8Bytes)}\n`;
}
