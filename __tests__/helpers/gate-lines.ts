/**
 * The lines a gate result renders to, as a report written from it would show them: the verdict's
 * lines and the comparison's whole account (src/report/verdict-lines.ts). The compare stage writes
 * no English; tests that read sentences read them rendered.
 */
import type { GateResult } from '../../src/compare/gate.js';
import type { Finding, Report } from '../../src/model/report.js';
import { comparisonLines, verdictLines } from '../../src/report/verdict-lines.js';
import { rowNote } from '../../src/report/row-lines.js';
import { emptyReport } from './empty-report.js';

/** What a gate result's sentences need beside it: the current run's findings (their evidence). */
export interface LineInputs {
  findings?: readonly Partial<Finding>[];
}

function fullFinding(f: Partial<Finding>): Finding {
  return { id: 'x', severity: 'warning', title: '', message: '', evidence: {}, advice: '', docs: '', secondary: false, basis: [], ...f } as Finding;
}

/** A report holding the gate result (its verdict, decision and comparison). */
export function reportOf(result: GateResult, inputs: LineInputs = {}): Report {
  return emptyReport({
    verdict: result.verdict,
    comparison: result.comparison,
    findings: (inputs.findings ?? []).map(fullFinding),
    decision: { causes: result.causes, policy: { ...result.policy, ruleOptions: {} } },
  });
}

const asReport = (result: GateResult | Report, inputs: LineInputs): Report => ('schemaVersion' in result ? result : reportOf(result, inputs));

/** The verdict's lines of a gate result or a report. */
export function linesOf(result: GateResult | Report, inputs: LineInputs = {}): string[] {
  return verdictLines(asReport(result, inputs));
}

/** The comparison's whole account of a gate result or a report (the terminal's and the summary's list). */
export function accountOf(result: GateResult | Report, inputs: LineInputs = {}): string[] {
  return comparisonLines(asReport(result, inputs));
}

/** A row's note as the renderer writes it from the row's data (undefined: no row of that key, or no note). */
export function noteOf(result: Pick<GateResult, 'comparison'>, metric: string): string | undefined {
  const row = result.comparison?.rows.find((r) => r.metric === metric);
  return row && rowNote(row, result.comparison!);
}
