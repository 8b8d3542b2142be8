/**
 * What a comparison row of each status asks of a reader, stated once for every renderer: an alert
 * to look at (fail, warn), a note (improved, undecided), or quiet (pass, shown for information).
 * A Record over RowStatus, so a new status does not typecheck until it is placed here.
 */
import type { ComparisonRow, RowStatus } from '../model/report.js';

export type RowAttention = 'alert' | 'note' | 'quiet';

export const ROW_ATTENTION: Readonly<Record<RowStatus, RowAttention>> = {
  fail: 'alert',
  warn: 'alert',
  'insufficient-data': 'note',
  improved: 'note',
  pass: 'quiet',
  info: 'quiet',
};

export function isAlert(row: Pick<ComparisonRow, 'status'>): boolean {
  return ROW_ATTENTION[row.status] === 'alert';
}

/** Rows that need no look: a pass, or a row shown for information only. */
export function isQuiet(row: Pick<ComparisonRow, 'status'>): boolean {
  return ROW_ATTENTION[row.status] === 'quiet';
}
