/**
 * The verdict when there is no baseline to compare against: the findings alone decide.
 * An error finding named in `failOn` fails; any other error or warning finding warns.
 * Also the order in which row outcomes combine into one verdict when there is a baseline.
 */
import type { Finding, Verdict } from '../model/report.js';

export const DEFAULT_FAIL_ON: readonly string[] = ['re-prefill', 'unfused-attention'];

/** What the verdict needs of a finding (a full Finding fits). */
export type VerdictFinding = Pick<Finding, 'id' | 'severity'> & { secondary?: boolean };

/** Secondary findings are explained by a primary one; they count only when they are errors. */
export function isPrimary(finding: VerdictFinding): boolean {
  return !finding.secondary || finding.severity === 'error';
}

export function verdictFromFindings(findings: readonly VerdictFinding[], failOn: readonly string[] = DEFAULT_FAIL_ON): Verdict {
  const primary = findings.filter(isPrimary);
  if (primary.some((f) => failOn.includes(f.id) && f.severity !== 'info')) return 'fail';
  if (primary.some((f) => f.severity === 'error' || f.severity === 'warning')) return 'warn';
  return 'pass';
}

/** invalid beats fail beats insufficient-data beats warn beats pass. */
export function combineVerdict(flags: { invalid: boolean; fail: boolean; insufficient: boolean; warn: boolean }): Verdict {
  if (flags.invalid) return 'invalid';
  if (flags.fail) return 'fail';
  if (flags.insufficient) return 'insufficient-data';
  if (flags.warn) return 'warn';
  return 'pass';
}
