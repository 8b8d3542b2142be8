/**
 * The decision's causes as data, derived from what the report holds: a comparison row's cause is
 * the row itself (key, kind, subject, status, threshold), so whoever makes the rows decides what
 * they say, and renderers write the sentence. Also the record a report written before schema 3 gets
 * when it is migrated: built from its rows' statuses, never from its wording.
 */
import type { ComparisonRow, Decision, DecisionCause, Severity, Verdict } from './report.js';
import { rowSubject } from './report.js';

/** Severities in order: a finding's strongest hit is the one of highest rank. */
export const SEVERITY_RANK: Record<Severity, number> = { info: 0, warning: 1, error: 2 };

/** What the decision reads of a finding. */
export interface DecidingFinding {
  id: string;
  severity: Severity;
  secondary?: boolean | undefined;
}

/** Secondary findings are explained by a primary one; they count only when they are errors. */
export function isPrimary(finding: Omit<DecidingFinding, 'id'>): boolean {
  return !finding.secondary || finding.severity === 'error';
}

/** A finding that counts: primary, warning or error (info findings never count). */
export function countsAsFinding(finding: Omit<DecidingFinding, 'id'>): boolean {
  return finding.severity !== 'info' && isPrimary(finding);
}

/** The severity of a finding id's strongest counted hit; undefined when none counts. */
export function strongestSeverity(findings: readonly DecidingFinding[], id: string): Severity | undefined {
  let best: Severity | undefined;
  for (const f of findings) if (f.id === id && countsAsFinding(f) && (!best || SEVERITY_RANK[f.severity] > SEVERITY_RANK[best])) best = f.severity;
  return best;
}

/** The cause a comparison row gives the verdict: the row's key, kind, subject, status and threshold (a finding row: its hit's severity too). */
export function rowCause(row: Pick<ComparisonRow, 'metric' | 'kind' | 'status' | 'threshold' | 'subject'>, severity?: Severity): DecisionCause {
  const subject = rowSubject(row);
  return {
    kind: 'row',
    row: row.metric,
    rowKind: row.kind,
    status: row.status,
    ...(subject ? { subject } : {}),
    threshold: row.threshold,
    ...(severity ? { severity } : {}),
  };
}

/**
 * Which row statuses decide each verdict (src/compare/verdict.ts judge: fail beats insufficient-data
 * beats warn); a pass is decided by none, and which check made a comparison invalid was not recorded.
 */
const DECIDING: Readonly<Record<Verdict, readonly ComparisonRow['status'][]>> = {
  fail: ['fail'],
  accepted: ['fail'],
  'insufficient-data': ['insufficient-data'],
  warn: ['warn'],
  pass: [],
  invalid: [],
};

/**
 * The decision of a report that did not record one (schema 2 and before), from data alone: with a
 * comparison, the rows whose status decided the verdict; without one, the findings that count,
 * each with the verdict's status and no word on fail-on (the policy that picked among them was not
 * recorded, so all are named: an acceptance then covers them all). An invalid comparison names no check: the report
 * did not record which.
 */
export function decisionFromRows(report: {
  verdict: Verdict;
  findings: readonly DecidingFinding[];
  comparison: { rows: readonly ComparisonRow[] } | null;
}): Decision {
  const deciding = DECIDING[report.verdict];
  if (report.comparison) {
    const causes = report.comparison.rows
      .filter((r) => deciding.includes(r.status))
      .map((r) => rowCause(r, r.kind === 'finding' ? strongestSeverity(report.findings, rowSubject(r)?.id ?? '') : undefined));
    return { causes, policy: null };
  }
  if (!deciding.length) return { causes: [], policy: null };
  const status = report.verdict === 'warn' ? 'warn' : 'fail';
  const ids = [...new Set(report.findings.filter(countsAsFinding).map((f) => f.id))];
  const causes = ids.map((id): DecisionCause => ({ kind: 'finding', id, severity: strongestSeverity(report.findings, id)!, status }));
  return { causes, policy: null };
}

/** How a cause is named where a row key is expected: the row's key, or `finding:<id>`. */
export function causeKey(cause: DecisionCause): string | undefined {
  if (cause.kind === 'row') return cause.row;
  if (cause.kind === 'finding') return `finding:${cause.id}`;
  return undefined;
}
