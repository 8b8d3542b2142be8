/**
 * What each verdict says about the comparison, stated once for both doors. A Record over Verdict,
 * so a new verdict does not typecheck until it is placed here.
 */
import type { Verdict } from './report.js';

/** A verdict that compared nothing (too few samples, or a comparison no run can make valid): said aloud even when it does not fail the job. */
export const COMPARED_NOTHING: Readonly<Record<Verdict, boolean>> = {
  'insufficient-data': true,
  invalid: true,
  pass: false,
  warn: false,
  fail: false,
  accepted: false,
};

/** A verdict that a pull request's acceptances can change (fail), or must be told they cannot (invalid): only then are they read. */
export const ACCEPTANCES_READ: Readonly<Record<Verdict, boolean>> = {
  fail: true,
  invalid: true,
  pass: false,
  warn: false,
  'insufficient-data': false,
  accepted: false,
};
