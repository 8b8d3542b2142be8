/** The CLI's exit code for a verdict: the one place analyze, run and report map a verdict to 0 or 1. */
import { failsJob } from '../compare/verdict.js';
import { failureLine, verdictLines, type VerdictSummary } from '../report/verdict-lines.js';
import { EXIT_GATE_FAILED, EXIT_OK } from '../errors.js';
import type { Report } from '../model/report.js';
import { COMPARED_NOTHING } from '../model/verdict-meaning.js';

/**
 * The exit code of a verdict under --fail-verdicts; a verdict that compared nothing and does not fail
 * the run is still said on stderr, never silent.
 */
export function verdictExitCode(report: Report | VerdictSummary, failVerdicts: readonly string[], stderr: (text: string) => void = (text) => void process.stderr.write(text)): number {
  if (failsJob(report.verdict, failVerdicts)) return EXIT_GATE_FAILED;
  if (COMPARED_NOTHING[report.verdict]) {
    stderr(`profile-gate: warning: verdict ${report.verdict}, which does not fail this run (--fail-verdicts does not list it): ${failureLine('lines' in report ? report.lines : verdictLines(report))}\n`);
  }
  return EXIT_OK;
}

