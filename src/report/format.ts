/** Number formatting shared by every renderer. */
import { CI_LEVEL } from '../compare/options.js';

/** The confidence level of every interval shown, in percent (the gate's: 1 − 2·alpha). */
export const CI_PERCENT = Math.round(CI_LEVEL * 100);

export function formatNs(ns: number): string {
  if (!Number.isFinite(ns)) return 'n/a';
  const abs = Math.abs(ns);
  if (abs >= 1e9) return `${(ns / 1e9).toFixed(2)} s`;
  if (abs >= 1e6) return `${(ns / 1e6).toFixed(2)} ms`;
  if (abs >= 1e3) return `${(ns / 1e3).toFixed(2)} us`;
  return `${Math.round(ns)} ns`;
}

export function formatShare(share: number, digits = 1): string {
  return Number.isFinite(share) ? `${(share * 100).toFixed(digits)}%` : 'n/a';
}

export function formatNumber(value: number, digits = 2): string {
  if (!Number.isFinite(value)) return 'n/a';
  if (Number.isInteger(value)) return String(value);
  const abs = Math.abs(value);
  if (abs >= 1000) return value.toFixed(0);
  if (abs >= 100) return value.toFixed(1);
  return value.toFixed(digits);
}

export function formatSigned(value: number, unit: string, digits = 1): string {
  if (!Number.isFinite(value)) return 'n/a';
  return `${value >= 0 ? '+' : ''}${value.toFixed(digits)}${unit}`;
}

/** Shorten long (templated) kernel names for tables; the full name stays in report.json. */
export function shortenName(name: string, max = 96): string {
  const oneLine = name.replace(/\s+/g, ' ');
  return oneLine.length <= max ? oneLine : `${oneLine.slice(0, max - 1)}…`;
}
