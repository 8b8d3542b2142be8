/**
 * `profile-gate report --out DIR REPORT.json|DIR...`: several reports (matrix legs, or artifacts
 * fetched with `gh run download`) merged into the job summary and the PR comment the action would
 * write, as DIR/summary.md and DIR/comment.md. Exit code 1 when the merged verdict fails.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { findReportFiles, labelFor, loadReport } from '../io/reports.js';
import { boundReport } from '../report/bounded-report.js';
import { writeOutput } from '../io/input-paths.js';
import { failureLine, verdictLines } from '../report/verdict-lines.js';
import { InputError, UsageError } from '../errors.js';
import { refuseRepeatedFlags } from './flag-errors.js';
import { flagOptions, flagsHelp, readFlags } from '../options/read.js';
import type { AcceptedBy } from '../options/table.js';
import { applyAcceptance, type AcceptanceClaim } from '../compare/acceptance.js';
import { verdictExitCode } from './verdict-exit.js';
import type { Report } from '../model/report.js';
import { renderComment } from '../report/markdown/comment.js';
import { mergeReports, type ReportEntry } from '../report/merge-reports.js';
import { renderMergedSummary } from '../report/markdown/summary.js';
import { inertLine } from '../report/inert-text.js';
import { countText } from '../report/number-format.js';

export const REPORT_HELP = `Usage: profile-gate report --out DIR [options] REPORT.json|DIR...

Merges report.json files (directories are searched, e.g. the output of 'gh run download') into
DIR/summary.md (the job summary) and DIR/comment.md (the sticky PR comment), as mode report does.
Exit code 1 when the merged verdict is one of --fail-verdicts.

A report it cannot read (a newer profile-gate wrote it, a field is misspelt) is exit 2, naming it;
--allow-unreadable-reports merges the others instead, naming each one left out on stderr.

${flagsHelp('report', 'all', 24, ['out', 'key', 'prefix', 'run-url', 'dashboard-url', 'fail-verdicts', 'allow-unreadable-reports', 'accepted-by'])}
`;

/** `--accepted-by LOGIN[:REASON]` as a claim covering every failing row. */
function acceptedByClaim(accepted: AcceptedBy, now: Date = new Date()): AcceptanceClaim {
  return { by: accepted.login, via: 'cli', at: now.toISOString(), targets: [], ...(accepted.reason ? { reason: accepted.reason } : {}) };
}

export async function runReportCommand(args: string[]): Promise<number> {
  const config = { args: args, allowPositionals: true, strict: true, options: flagOptions('report') };
  const { values, positionals } = parseArgs(config);
  refuseRepeatedFlags(config, 'report');
  const options = readFlags(values, 'report');
  const out = options.outDir;
  if (!out) throw new UsageError('report: expected --out DIR; see profile-gate --help');
  const claim = options.acceptedBy ? acceptedByClaim(options.acceptedBy) : undefined;
  if (positionals.length === 0) throw new UsageError('report: expected at least one report.json or a directory of them');
  const files = await findReportFiles(positionals);
  if (files.length === 0) throw new UsageError(`report: no report.json under ${positionals.join(', ')}`);
  const entries: ReportEntry[] = [];
  for (const found of files) {
    // One at a time, cut down at once to what the merged summary shows (as mode report does).
    // The acceptance covers what the report records as failing it (all of it, before the cut), under the policy that judged it.
    let read: Report;
    try {
      read = await loadReport(found.path);
    } catch (error) {
      // A leg left out could be the failing one: only the user's flag lets the others speak for it.
      if (!(error instanceof InputError) || !options.allowUnreadableReports) throw error;
      process.stderr.write(`profile-gate: warning: skipped a report: ${inertLine(error.message.replace(/[\r\n]+/g, ' '))}\n`);
      continue;
    }
    const report = boundReport(claim ? applyAcceptance(read, { claims: [claim] }) : read);
    entries.push({ label: labelFor(found, report, options.artifactPrefix), report });
  }
  if (entries.length === 0) throw new UsageError(`report: none of the ${files.length} report(s) under ${positionals.join(', ')} could be read`);
  const merged = mergeReports(entries);
  const links = { ...(options.runUrl ? { runUrl: options.runUrl } : {}), ...(options.dashboardUrl ? { dashboardUrl: options.dashboardUrl } : {}) };
  await writeOutput(join(out, 'summary.md'), renderMergedSummary(merged, { links }));
  await writeOutput(join(out, 'comment.md'), renderComment(merged, { key: options.commentKey, links }));
  // A failing leg says why, in the verdict's own lines (reports of older versions carry none).
  const why = (report: Report) => {
    const said = report.verdict !== 'pass' ? verdictLines(report) : [];
    return said.length ? `: ${failureLine(said)}` : '';
  };
  // Labels and reasons come from the reports (a fork's artifact among them): printed inert.
  const lines = merged.entries.map((e) => inertLine(`  ${e.report.verdict.padEnd(17)} ${e.label}${why(e.report)}`.replace(/[\r\n]+/g, ' ')));
  process.stdout.write(`profile-gate report: ${merged.verdict} (${countText(merged.entries.length, 'report')})\n${lines.join('\n')}\nwrote ${join(out, 'summary.md')} and ${join(out, 'comment.md')}\n`);
  return verdictExitCode({ verdict: merged.verdict, lines: merged.entries.flatMap((e) => verdictLines(e.report)) }, options.failVerdicts);
}
