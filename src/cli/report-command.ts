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
import { failureLine } from '../compare/verdict.js';
import { UsageError } from '../errors.js';
import { DEFAULT_FAIL_VERDICTS_TEXT, parseFailVerdicts } from '../compare/gate-options.js';
import { DEFAULT_FAIL_ON, DEFAULT_FAIL_ON_SEVERITY, DEFAULT_FAIL_VERDICTS } from '../compare/verdict.js';
import { applyAcceptance, type AcceptanceClaim } from '../compare/acceptance.js';
import { verdictExitCode } from './verdict-exit.js';
import type { Report } from '../model/report.js';
import { renderComment } from '../report/markdown/comment.js';
import { mergeReports, type ReportEntry } from '../report/merge-reports.js';
import { renderMergedSummary } from '../report/markdown/summary.js';
import { inertLine } from '../report/inert-text.js';

export const REPORT_USAGE = `profile-gate report --out DIR [--key KEY] [--prefix PREFIX] [--run-url URL] [--dashboard-url URL] [--fail-verdicts LIST] [--accepted-by LOGIN[:REASON]] REPORT.json|DIR...
  Merge report.json files (directories are searched, e.g. the output of 'gh run download') into
  DIR/summary.md (the job summary) and DIR/comment.md (the sticky PR comment, marker key KEY,
  default 'report'). --run-url and --dashboard-url are linked from both (the run's artifacts; the
  dashboard and the reports' series on it). A report is labelled by its folder below DIR (the artifact), less PREFIX (default 'profile-gate-').
  --accepted-by accepts every failing report's failing rows in LOGIN's name (verdict accepted), as a
  pull request label or comment would: to see locally what an acceptance shows.
  Exit code 1 when the merged verdict is one of --fail-verdicts (default ${DEFAULT_FAIL_VERDICTS_TEXT}).`;

/** `--accepted-by LOGIN[:REASON]` as a claim covering every failing row. */
export function acceptedByClaim(arg: string, now: Date = new Date()): AcceptanceClaim {
  const at = arg.indexOf(':');
  const login = (at < 0 ? arg : arg.slice(0, at)).trim();
  const reason = at < 0 ? '' : arg.slice(at + 1).trim();
  if (!/^[A-Za-z0-9-]{1,39}$/.test(login)) throw new UsageError(`--accepted-by ${JSON.stringify(arg)}: expected a GitHub login, optionally followed by :REASON (e.g. octocat:slower on purpose)`);
  return { by: login, via: 'cli', at: now.toISOString(), targets: [], ...(reason ? { reason: reason.slice(0, 300) } : {}) };
}

export async function runReportCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      out: { type: 'string' },
      key: { type: 'string', default: 'report' },
      prefix: { type: 'string', default: 'profile-gate-' },
      'run-url': { type: 'string' },
      'dashboard-url': { type: 'string' },
      'fail-verdicts': { type: 'string' },
      'accepted-by': { type: 'string' },
    },
  });
  if (!values.out) throw new UsageError('report: expected --out DIR; see profile-gate --help');
  const failVerdicts = values['fail-verdicts'] !== undefined ? parseFailVerdicts(values['fail-verdicts'], '--fail-verdicts') : DEFAULT_FAIL_VERDICTS;
  const claim = values['accepted-by'] !== undefined ? acceptedByClaim(values['accepted-by']) : undefined;
  if (positionals.length === 0) throw new UsageError('report: expected at least one report.json or a directory of them');
  const files = await findReportFiles(positionals);
  if (files.length === 0) throw new UsageError(`report: no report.json under ${positionals.join(', ')}`);
  const entries: ReportEntry[] = [];
  for (const found of files) {
    // One at a time, cut down at once to what the merged summary shows (as mode report does).
    const read = boundReport(await loadReport(found.path));
    const report = claim ? applyAcceptance(read, { claims: [claim], failOn: { ids: DEFAULT_FAIL_ON, severity: DEFAULT_FAIL_ON_SEVERITY } }) : read;
    entries.push({ label: labelFor(found, report, values.prefix), report });
  }
  const merged = mergeReports(entries);
  const links = { ...(values['run-url'] ? { runUrl: values['run-url'] } : {}), ...(values['dashboard-url'] ? { dashboardUrl: values['dashboard-url'] } : {}) };
  await writeOutput(join(values.out, 'summary.md'), renderMergedSummary(merged, { links }));
  await writeOutput(join(values.out, 'comment.md'), renderComment(merged, { key: values.key, links }));
  // A failing leg says why, in the verdict's own lines (reports of older versions carry none).
  const why = (report: Report) => (report.verdict !== 'pass' && report.verdictReasons.length ? `: ${failureLine(report.verdictReasons)}` : '');
  // Labels and reasons come from the reports (a fork's artifact among them): printed inert.
  const lines = merged.entries.map((e) => inertLine(`  ${e.report.verdict.padEnd(17)} ${e.label}${why(e.report)}`.replace(/[\r\n]+/g, ' ')));
  process.stdout.write(`profile-gate report: ${merged.verdict} (${merged.entries.length} reports)\n${lines.join('\n')}\nwrote ${join(values.out, 'summary.md')} and ${join(values.out, 'comment.md')}\n`);
  return verdictExitCode({ verdict: merged.verdict, verdictReasons: merged.entries.flatMap((e) => e.report.verdictReasons) }, failVerdicts);
}
