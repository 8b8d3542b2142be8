/**
 * Parser fuzzing, shared by the jest test (fuzz-parsers.test.ts, 60 cases per parser) and
 * the bench (bench/fuzz-parsers.mjs, which compiles this file with tsc and runs 10,000+ per parser).
 * Cases (fuzz-cases.ts) are mutations of the real fixtures under __tests__/fixtures, written to a
 * file and read by ingestFile with the format forced (so the parser itself is exercised, not only
 * detection). The oracle here: every outcome is a Capture that holds up (schema, finite and
 * non-negative numbers, totals that add up, a report that can be built from it) or an InputError of
 * one line naming the file. Mutations that keep the file valid (CRLF, BOMs, UTF-16, trailing
 * whitespace, gzip) must give the same Capture as the original, and be detected as the same format.
 */
import { writeFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { buildProfile } from '../../src/pipeline/build-profile.js';
import { reportFromProfile } from '../../src/pipeline/analyze.js';
import { EXIT_BAD_INPUT, exitCodeFor, InputError } from '../../src/errors.js';
import { detectFormat, ingestFile } from '../../src/ingest/registry.js';
import { openInput } from '../../src/ingest/common/input-file.js';
import { CaptureSchema, type Capture, type FormatId } from '../../src/model/capture.js';
import type { FuzzCase, Seed } from './fuzz-cases.js';

export { caseArbitrary, loadSeeds, type CaseOptions, type FuzzCase, type Seed } from './fuzz-cases.js';

export type Outcome = { ok: true; capture: Capture } | { ok: false; error: unknown };

export async function ingestOutcome(path: string, format?: FormatId): Promise<Outcome> {
  try {
    return { ok: true, capture: await ingestFile(path, format) };
  } catch (error) {
    return { ok: false, error };
  }
}

/** Durations and totals; `startNs` is a position (a step may start before the first GPU op). */
const TIME_KEY = /^(?!start)\w*Ns$/;

/** Problems with a Capture: non-finite or negative numbers where none may be, totals that do not add up. */
export function captureProblems(capture: Capture): string[] {
  const problems: string[] = [];
  const parsed = CaptureSchema.safeParse(capture);
  if (!parsed.success) problems.push(`does not pass CaptureSchema: ${parsed.error.issues[0]!.path.join('.')}: ${parsed.error.issues[0]!.message}`);
  const visit = (value: unknown, path: string): void => {
    if (problems.length > 20) return;
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) problems.push(`${path} is ${value}`);
      const key = path.slice(path.lastIndexOf('.') + 1);
      if (TIME_KEY.test(key) && value < 0) problems.push(`${path} is a negative time (${value})`);
    } else if (Array.isArray(value)) value.forEach((item, i) => visit(item, `${path}[${i}]`));
    else if (value && typeof value === 'object') for (const [key, item] of Object.entries(value)) visit(item, `${path}.${key}`);
  };
  visit(capture, 'capture');
  capture.kernels.forEach((k, i) => {
    if (k.minNs !== undefined && k.maxNs !== undefined && k.minNs > k.maxNs) problems.push(`kernels[${i}] minNs ${k.minNs} > maxNs ${k.maxNs}`);
  });
  const t = capture.timeline;
  if (t) {
    if (t.idleGaps.longestNs > t.idleGaps.totalNs) problems.push(`timeline longest gap ${t.idleGaps.longestNs} > total gaps ${t.idleGaps.totalNs}`);
    if (t.busyNs > t.spanNs * Math.max(1, t.devices) + 1) problems.push(`timeline busy ${t.busyNs} > span ${t.spanNs} × ${t.devices} devices`);
  }
  // The later stages add the parts up: the sums must stay finite and agree.
  let profileTotal = 0;
  try {
    const profile = buildProfile([capture]);
    const kernelSum = profile.kernels.reduce((sum, k) => sum + k.totalNs, 0);
    const familySum = profile.families.reduce((sum, f) => sum + f.totalNs, 0);
    profileTotal = profile.totalKernelNs;
    if (!Number.isFinite(profile.totalKernelNs)) problems.push(`totalKernelNs is ${profile.totalKernelNs}`);
    else {
      const tolerance = Math.max(1, profile.totalKernelNs * 1e-9);
      if (Math.abs(kernelSum - profile.totalKernelNs) > tolerance) problems.push(`totalKernelNs ${profile.totalKernelNs} ≠ sum of kernels ${kernelSum}`);
      if (Math.abs(familySum - profile.totalKernelNs) > tolerance) problems.push(`totalKernelNs ${profile.totalKernelNs} ≠ sum of families ${familySum}`);
      const shares = profile.kernels.reduce((sum, k) => sum + k.share, 0);
      if (profile.totalKernelNs > 0 && Math.abs(shares - 1) > 1e-6) problems.push(`kernel shares add up to ${shares}`);
    }
    reportFromProfile(profile, { now: () => new Date(0) });
  } catch (error) {
    problems.push(`building the report failed (total ${profileTotal}): ${(error as Error).message.slice(0, 300)}`);
  }
  return problems;
}

/** Longest message we accept as "one line a human reads". */
export const MAX_MESSAGE = 1000;

export function errorProblems(error: unknown, path: string): string[] {
  if (!(error instanceof InputError)) {
    return [`threw ${(error as Error)?.constructor?.name ?? typeof error} instead of an InputError: ${String((error as Error)?.stack ?? error).slice(0, 600)}`];
  }
  const problems: string[] = [];
  if (exitCodeFor(error) !== EXIT_BAD_INPUT) problems.push(`the CLI would exit ${exitCodeFor(error)}, not ${EXIT_BAD_INPUT}`);
  if (/[\r\n]/.test(error.message)) problems.push(`message spans lines: ${JSON.stringify(error.message.slice(0, 300))}`);
  if (!error.message.startsWith(path)) problems.push(`message does not start with the file: ${JSON.stringify(error.message.slice(0, 200))}`);
  if (error.message.length > MAX_MESSAGE) problems.push(`message is ${error.message.length} characters long`);
  return problems;
}

/** The capture with the file path taken out, for comparing two files with the same content. */
export function withoutPath(capture: Capture, path: string): unknown {
  return JSON.parse(JSON.stringify(capture).split(JSON.stringify(path).slice(1, -1)).join('<file>'));
}

export interface CaseResult {
  problems: string[];
  ms: number;
  ok: boolean;
}

/**
 * Run one case: write it to `path`, ingest it with the seed's format, check the outcome. `original`
 * is the seed's own outcome (for preserving mutations).
 */
export async function runCase(c: FuzzCase, path: string, original: Outcome): Promise<CaseResult> {
  writeFileSync(path, c.bytes);
  const started = performance.now();
  const outcome = await ingestOutcome(path, c.seed.format);
  const ms = performance.now() - started;
  const problems = outcome.ok ? captureProblems(outcome.capture) : errorProblems(outcome.error, path);
  if (c.preserving) {
    if (original.ok && !outcome.ok) problems.push(`the original reads, this valid variant fails: ${(outcome.error as Error).message.slice(0, 300)}`);
    if (!original.ok && outcome.ok) problems.push(`the original fails (${(original.error as Error).message.slice(0, 200)}), this valid variant reads`);
    if (original.ok && outcome.ok && !isDeepStrictEqual(withoutPath(outcome.capture, path), withoutPath(original.capture, original.capture.source.path))) {
      problems.push(`the valid variant reads differently: ${firstDifference(withoutPath(original.capture, original.capture.source.path), withoutPath(outcome.capture, path))}`);
    }
    if (original.ok) {
      try {
        const detected = detectFormat(await openInput(path)).id;
        if (detected !== c.seed.format) problems.push(`detected as ${detected}, not ${c.seed.format}`);
      } catch (error) {
        problems.push(`not detected: ${(error as Error).message.slice(0, 200)}`);
      }
    }
  }
  return { problems, ms, ok: outcome.ok };
}

function firstDifference(a: unknown, b: unknown, path = ''): string {
  if (isDeepStrictEqual(a, b)) return '';
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const key of keys) {
      const inner = firstDifference((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], `${path}.${key}`);
      if (inner) return inner;
    }
  }
  return `${path || 'top'}: ${JSON.stringify(a)?.slice(0, 160)} vs ${JSON.stringify(b)?.slice(0, 160)}`;
}

/** A seed's own outcome, read from a file holding exactly its text. */
export async function seedOutcome(seed: Seed, path: string): Promise<Outcome> {
  writeFileSync(path, seed.bytes ?? Buffer.from(seed.text, 'utf8'));
  return ingestOutcome(path, seed.format);
}
