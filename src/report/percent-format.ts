/** Number formats for the verdict's lines and notes (src/report/row-lines.ts, verdict-lines.ts). */

/** 0.0512 → "+5.1%". */
export function formatPct(fraction: number, digits = 1): string {
  const value = fraction * 100;
  const text = Math.abs(value).toFixed(digits);
  if (Number(text) === 0) return `${(0).toFixed(digits)}%`;
  return `${value < 0 ? '−' : '+'}${text}%`;
}

/**
 * Decimals that keep an interval's two ends apart: a tight interval printed at one decimal reads
 * "−17.1% … −17.1%", which looks like no interval at all. One decimal by default, up to three.
 */
export function rangeDigits(low: number, high: number, digits = 1, most = 3): number {
  let d = digits;
  while (d < most && low.toFixed(d) === high.toFixed(d) && low !== high) d += 1;
  return d;
}

/** An interval of fractions as percents: "−17.13% … −17.05%". */
export function formatPctRange(low: number, high: number): string {
  const digits = rangeDigits(low * 100, high * 100);
  return `${formatPct(low, digits)} … ${formatPct(high, digits)}`;
}

/** 4.25 → "+4.3 pp". */
export function formatPp(pp: number): string {
  const text = Math.abs(pp).toFixed(1);
  if (Number(text) === 0) return '0.0 pp';
  return `${pp < 0 ? '−' : '+'}${text} pp`;
}

/** A p-value with its relation: "p<0.001", "p=0.012". */
export function formatP(p: number): string {
  if (p < 0.001) return 'p<0.001';
  return `p=${p.toPrecision(2).replace(/\.?0+$/, '') || '0'}`;
}

/** A readable number with its unit: 358.4 tok/s, 12.3 ms. */
export function formatValue(value: number, unit: string): string {
  const abs = Math.abs(value);
  const digits = abs >= 100 ? 1 : abs >= 1 ? 2 : 4;
  return `${value.toFixed(digits)}${unit ? ` ${unit}` : ''}`;
}

/** A time per step for people: `0.53 ms`, `84 µs`; signed with `+`/`−` when asked. */
export function stepTimeText(ns: number, signed = false): string {
  const abs = Math.abs(ns);
  const sign = signed ? (ns > 0 ? '+' : ns < 0 ? '−' : '±') : ns < 0 ? '−' : '';
  const body = abs >= 1e6 ? `${(abs / 1e6).toFixed(abs >= 1e8 ? 0 : 2)} ms` : abs >= 1e3 ? `${(abs / 1e3).toFixed(abs >= 1e5 ? 0 : 1)} µs` : `${Math.round(abs)} ns`;
  return `${sign}${body}`;
}
