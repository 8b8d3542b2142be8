/**
 * Fitting rendered reports under a size limit: each report gets an equal share of what is left and
 * is rendered at the richest level of detail that fits its share. Whole blocks are kept or dropped,
 * never cut, so no table, fence or <details> is ever left open.
 */
import { DETAIL_LEVELS, type Detail } from './sections.js';

const MIN_RENDERED_SHARE = 400;

export type Measure = (text: string) => number;

export interface BudgetedBlock {
  /** The block at a level of detail. */
  render(detail: Detail): string;
  /** A one-line stand-in when even the leanest level does not fit. */
  minimal(): string;
}

/**
 * Join `head`, the blocks and `tail` with blank lines, within `budget` as counted by `measure`.
 * Blocks that do not fit even as one line are counted in a closing line instead.
 */
export function fitBlocks(head: string, blocks: readonly BudgetedBlock[], tail: string, budget: number, measure: Measure): string {
  const omittedLine = (n: number): string => `… ${n} more report${n === 1 ? '' : 's'} omitted to stay within GitHub's size limit; see the artifacts.`;
  const parts = [head];
  let used = measure(head) + measure(tail) + measure(omittedLine(blocks.length)) + 8;
  for (let i = 0; i < blocks.length; i++) {
    const share = (budget - used) / (blocks.length - i);
    const block = blocks[i]!;
    let chosen: string | undefined;
    // Below this share not even the leanest level fits; skip rendering it.
    if (share >= MIN_RENDERED_SHARE) for (const detail of DETAIL_LEVELS) {
      const text = block.render(detail);
      if (measure(text) + 2 <= share) {
        chosen = text;
        break;
      }
    }
    chosen ??= block.minimal();
    if (measure(chosen) + 2 > budget - used) {
      parts.push(omittedLine(blocks.length - i));
      break;
    }
    parts.push(chosen);
    used += measure(chosen) + 2;
  }
  if (tail) parts.push(tail);
  return parts.filter(Boolean).join('\n\n');
}

/** Table rows until a budget is spent; then one line saying how many were left out. */
export function fitRows(rows: readonly string[], budget: number, measure: Measure, what: string): string[] {
  const out: string[] = [];
  let used = 0;
  for (let i = 0; i < rows.length; i++) {
    const size = measure(rows[i]!) + 1;
    if (used + size > budget) {
      out.push(`\n… ${rows.length - i} more ${what}.`);
      break;
    }
    out.push(rows[i]!);
    used += size;
  }
  return out;
}
