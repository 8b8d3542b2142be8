/**
 * Environment fingerprint: the facts that must match for two runs' numbers to be comparable
 * (GPU, driver, CUDA/ROCm, engine and version, model, dtype, batch and sequence config).
 * A key known on one side only is not a mismatch: captures differ in what they record.
 */
import type { Environment } from '../model/capture.js';

export const FINGERPRINT_KEYS = [
  'gpuName',
  'gpuCount',
  'vendor',
  'driver',
  'cuda',
  'rocm',
  'engine',
  'engineVersion',
  'model',
  'dtype',
  'batch',
  'sequence',
] as const;
export type FingerprintKey = (typeof FINGERPRINT_KEYS)[number];
export type Fingerprint = Partial<Record<FingerprintKey, string>>;

/** Versions compared by dotted components, so `13.0` (one tool) matches `13.0.48` (another). */
const VERSION_KEYS: ReadonlySet<FingerprintKey> = new Set(['driver', 'cuda', 'rocm', 'engineVersion']);

function normalize(key: FingerprintKey, value: unknown): string {
  let text = String(value).trim().replace(/\s+/g, ' ').toLowerCase();
  // nvidia-smi says "NVIDIA H200", some traces say "H200".
  if (key === 'gpuName') text = text.replace(/^(nvidia|amd)\s+/, '');
  return text;
}

export function fingerprint(environment: Environment): Fingerprint {
  const result: Fingerprint = {};
  for (const key of FINGERPRINT_KEYS) {
    const value = environment[key];
    if (value !== undefined && value !== null && String(value).trim() !== '') result[key] = normalize(key, value);
  }
  return result;
}

/** One line for the report: `gpuName=h200 driver=580.159.04 …` (only the keys that are known). */
export function describeFingerprint(environment: Environment): string {
  const print = fingerprint(environment);
  return FINGERPRINT_KEYS.filter((key) => print[key] !== undefined)
    .map((key) => `${key}=${print[key]}`)
    .join(' ');
}

function sameValue(key: FingerprintKey, a: string, b: string): boolean {
  if (a === b) return true;
  if (!VERSION_KEYS.has(key)) return false;
  const pa = a.split('.');
  const pb = b.split('.');
  const common = Math.min(pa.length, pb.length);
  return pa.slice(0, common).every((part, i) => part === pb[i]);
}

export interface EnvironmentMismatch {
  key: FingerprintKey;
  baseline: string;
  current: string;
}

/** Keys known on both sides whose values differ, as the captures spelled them. */
export function environmentMismatches(baseline: Environment, current: Environment): EnvironmentMismatch[] {
  const a = fingerprint(baseline);
  const b = fingerprint(current);
  const mismatches: EnvironmentMismatch[] = [];
  for (const key of FINGERPRINT_KEYS) {
    const before = a[key];
    const after = b[key];
    if (before === undefined || after === undefined || sameValue(key, before, after)) continue;
    mismatches.push({ key, baseline: String(baseline[key]).trim(), current: String(current[key]).trim() });
  }
  return mismatches;
}

/** The mismatches not covered by the allowance (true allows all, a list allows those keys). */
export function blockingMismatches(mismatches: readonly EnvironmentMismatch[], allow: boolean | readonly string[]): EnvironmentMismatch[] {
  if (allow === true) return [];
  if (allow === false) return [...mismatches];
  return mismatches.filter((m) => !allow.includes(m.key));
}
