/**
 * Orders of text that are the same on every machine, for sorting names, paths and tie-breaks.
 *
 * Why not `localeCompare`: without a locale it follows the runner's (with LANG=sv_SE `ä` sorts
 * after `z`, with de_DE before it), so a tie broken by it could order a capture's kernels, the
 * dashboard's workloads or the reports read from a folder differently from one machine to the
 * next; and its first call in a process sets up ICU's collator, 9-13 ms on this project's VM,
 * paid by every import that sorts its kernels (bench/README.md).
 */

/** By UTF-16 code units, as `<` compares strings (`B` before `a`). */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const isDigit = (code: number): boolean => code >= 48 && code <= 57;

/**
 * Runs of ASCII digits by their value (`gpu9` before `gpu10`, `2025.3.1` before `2025.10.1`), the
 * rest by code units; text that reads alike (`01` and `1`) last by code units, so the order is total.
 */
export function compareNatural(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(j);
    if (isDigit(x) && isDigit(y)) {
      // Two runs of digits: by value, without leading zeros (any length, no overflow).
      let endA = i;
      while (endA < a.length && isDigit(a.charCodeAt(endA))) endA++;
      let endB = j;
      while (endB < b.length && isDigit(b.charCodeAt(endB))) endB++;
      let startA = i;
      while (startA < endA - 1 && a.charCodeAt(startA) === 48) startA++;
      let startB = j;
      while (startB < endB - 1 && b.charCodeAt(startB) === 48) startB++;
      const byLength = endA - startA - (endB - startB);
      if (byLength !== 0) return byLength < 0 ? -1 : 1;
      const byDigits = compareText(a.slice(startA, endA), b.slice(startB, endB));
      if (byDigits !== 0) return byDigits;
      i = endA;
      j = endB;
    } else {
      if (x !== y) return x < y ? -1 : 1;
      i++;
      j++;
    }
  }
  if (a.length - i !== b.length - j) return a.length - i < b.length - j ? -1 : 1;
  return compareText(a, b);
}
