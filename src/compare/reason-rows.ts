/**
 * The link from each of the gate's reasons to the comparison row it is about, kept parallel to
 * `reasons`, so a renderer names a row its own way (a kernel by its display name) without reading
 * the sentence.
 */
import type { Comparison, ReasonRow } from '../model/report.js';

/** Lines put before the comparison's reasons (a skipped input, an acceptance): about no row. */
export function withLeadingReasons(comparison: Comparison, lines: readonly string[]): Comparison {
  if (!lines.length) return comparison;
  return {
    ...comparison,
    reasons: [...lines, ...comparison.reasons],
    ...(comparison.reasonRows ? { reasonRows: [...lines.map((): ReasonRow | null => null), ...comparison.reasonRows] } : {}),
  };
}
