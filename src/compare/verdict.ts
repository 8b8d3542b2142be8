/**
 * The one rule for failing, and the lines that say why: `judge` returns the verdict together with
 * its reasons, and the job summary, the job's failure message and the CLI all show those lines.
 *
 * Without a baseline the findings alone decide. A finding counts when it is primary (a secondary one
 * counts only as an error) and its severity is warning or error; info findings never count.
 * - fail: a counted finding whose id is in `failOn`, at warning or error: a warning in failOn fails too;
 * - warn: any other counted finding, an error finding whose id is not in failOn included: only failOn
 *   fails the job;
 * - pass: nothing counted.
 * With a baseline the comparison's rows decide (src/compare/gate.ts makes them; a finding in failOn
 * fails only when it is new since the baseline): invalid beats fail beats insufficient-data beats warn
 * beats pass.
 */
import type { ComparisonRow, Finding, Verdict } from '../model/report.js';

export const DEFAULT_FAIL_ON: readonly string[] = ['re-prefill', 'unfused-attention'];

/** What the verdict needs of a finding (a full Finding fits). */
export type VerdictFinding = Pick<Finding, 'id' | 'severity'> & { secondary?: boolean };

/** Secondary findings are explained by a primary one; they count only when they are errors. */
export function isPrimary(finding: VerdictFinding): boolean {
  return !finding.secondary || finding.severity === 'error';
}

/** What the comparison against a baseline found, as the verdict reads it. */
export interface ComparisonOutcome {
  /** Why the comparison cannot stand (environment mismatch, throttling), one line each. */
  invalid: readonly string[];
  /** Each row's status, and its line where it has one. */
  rows: readonly { status: ComparisonRow['status']; reason?: string | undefined }[];
  /** Gated metrics the baseline has but the comparison could not compare. */
  noThroughput: boolean;
  /** The line a passing comparison says. */
  passLine: string;
}

export interface Judgement {
  verdict: Verdict;
  /** The lines that decide the verdict, most decisive first: for fail, exactly what fails it. */
  reasons: string[];
}

const NO_THROUGHPUT = 'no gated metric is present on both sides';

function findingsJudgement(findings: readonly VerdictFinding[], failOn: readonly string[]): Judgement {
  const counted = findings.filter((f) => isPrimary(f) && f.severity !== 'info');
  const lines = (list: readonly VerdictFinding[], say: (f: VerdictFinding) => string) => [...new Map(list.map((f) => [f.id, say(f)])).values()];
  const failing = counted.filter((f) => failOn.includes(f.id));
  if (failing.length) return { verdict: 'fail', reasons: lines(failing, (f) => `finding ${f.id} (${f.severity}) is in fail-on`) };
  if (counted.length) return { verdict: 'warn', reasons: lines(counted, (f) => `finding ${f.id} (${f.severity}), not in fail-on: warns`) };
  return { verdict: 'pass', reasons: [] };
}

/** The verdict and its reasons: from the findings alone, or from the comparison when there is a baseline. */
export function judge(findings: readonly VerdictFinding[], failOn: readonly string[] = DEFAULT_FAIL_ON, comparison?: ComparisonOutcome): Judgement {
  if (!comparison) return findingsJudgement(findings, failOn);
  const lines = (status: ComparisonRow['status']) => comparison.rows.filter((r) => r.status === status && r.reason).map((r) => r.reason!);
  const has = (status: ComparisonRow['status']) => comparison.rows.some((r) => r.status === status);
  if (comparison.invalid.length) return { verdict: 'invalid', reasons: [...comparison.invalid] };
  if (has('fail')) return { verdict: 'fail', reasons: lines('fail') };
  if (has('insufficient-data') || comparison.noThroughput) return { verdict: 'insufficient-data', reasons: [...lines('insufficient-data'), ...(comparison.noThroughput ? [NO_THROUGHPUT] : [])] };
  if (has('warn')) return { verdict: 'warn', reasons: lines('warn') };
  return { verdict: 'pass', reasons: [comparison.passLine] };
}

/** One line for a failing job: the verdict's reasons, at most `max` of them. */
export function failureLine(reasons: readonly string[], max = 3): string {
  const shown = reasons.slice(0, max).join('; ');
  const more = reasons.length > max ? `; and ${reasons.length - max} more` : '';
  return (shown || 'failed') + more;
}
