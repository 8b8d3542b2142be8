/**
 * No capture, no pass: capture paths that hold no file (a typo, a step that wrote nothing) fail the
 * run by default. `warn` and `ignore` (action input if-no-captures, CLI flag --if-no-captures, the
 * same choice as upload-artifact's if-no-files-found) let it go on with the findings of an empty
 * capture, warned about or not.
 */
import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { InputError, nearest, systemErrorText, UsageError } from '../errors.js';
import { expandInputSet, type LeftOutInput } from './input-paths.js';
import type { SkippedInput } from '../model/report.js';

export const NO_CAPTURE_POLICIES = ['error', 'warn', 'ignore'] as const;
export type NoCapturePolicy = (typeof NO_CAPTURE_POLICIES)[number];
export const DEFAULT_NO_CAPTURE_POLICY: NoCapturePolicy = 'error';

export interface CaptureGathering {
  policy: NoCapturePolicy;
  /** How the user sets the policy, for the message: `input 'if-no-captures'`, `--if-no-captures`. */
  option: string;
  warn: (line: string) => void;
  /**
   * Strict reading: a capture path that was not found while others were, or a folder's entry that
   * cannot be taken, fails the run (otherwise each is skipped, and the report says so).
   */
  strict?: boolean;
  /** How the user sets strict, for the message: `input 'strict'`, `--strict`. */
  strictOption?: string;
}

/**
 * The capture files under the paths (and which of them were found inside a directory rather than
 * named, and which entries of a folder were left out, each warned about), or one line saying there
 * are none and how to let that pass.
 */
export async function gatherCaptures(paths: readonly string[], how: CaptureGathering): Promise<{ files: string[]; fromDirectories: Set<string>; skipped: SkippedInput[] }> {
  const present: string[] = [];
  const missing: string[] = [];
  for (const path of paths) {
    try {
      await stat(path);
      present.push(path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw new InputError(path, `cannot read the input (${systemErrorText(error)}); expected a capture file or a directory of them`);
      missing.push(path);
    }
  }
  const found = await expandInputSet(present);
  const [first] = found.leftOut;
  if (first && how.strict) throw new InputError(first.path, `${first.reason} (strict reading: an entry of a folder that cannot be read fails the analysis)`);
  for (const entry of found.leftOut) how.warn(`left out ${entry.path}: ${entry.reason}`);
  for (const copy of found.copies) how.warn(`read once: ${copy.path} holds the same bytes as ${copy.of}`);
  if (found.files.length) {
    if (missing.length && how.strict) throw new UsageError(`capture path${missing.length === 1 ? '' : 's'} not found: ${missing.join(', ')} (${how.strictOption ?? 'strict'} fails on any input it cannot read)`);
    if (missing.length && how.policy !== 'ignore') how.warn(`capture path${missing.length === 1 ? '' : 's'} not found: ${missing.join(', ')}`);
    return { files: found.files, fromDirectories: found.fromDirectories, skipped: skippedOf(missing, found.leftOut) };
  }
  // Strict reading fails on a path not found even where the policy lets an empty capture go on (error says more below).
  if (missing.length && how.strict && how.policy !== 'error') throw new UsageError(`capture path${missing.length === 1 ? '' : 's'} not found: ${missing.join(', ')} (${how.strictOption ?? 'strict'} fails on any input it cannot read)`);
  const where = [...missing.map((p) => `${p} (${missingWhy(p)})`), ...present.map((p) => `${p} (no capture file inside${found.leftOut.length ? `; ${found.leftOut.length} left out` : ''})`)].join(', ') || 'no path given';
  const line = `no capture files: ${where}`;
  // A path one letter from one that exists is a typo: name that one, not a policy that lets it pass.
  const typos = present.length ? [] : (await Promise.all(missing.filter((path) => !/[*?[]/.test(path)).map(likelyMeant))).filter((p): p is string => p !== undefined);
  if (how.policy === 'error' && typos.length) throw new UsageError(`${line}; did you mean ${typos.join(', ')}?`);
  if (how.policy === 'error') throw new UsageError(`${line}; check the path and that the profiling step wrote its files (${how.option}: warn or ignore lets an empty capture pass)`);
  if (how.policy === 'warn') how.warn(`${line}; the report holds no measurement (${how.option}: warn)`);
  return { files: [], fromDirectories: new Set(), skipped: skippedOf(missing, found.leftOut) };
}

/** Why a path is missing: a glob is not expanded here (the action's captures input, a quoted pattern). */
function missingWhy(path: string): string {
  if (!/[*?[]/.test(path)) return 'missing';
  const parts = path.split(/[\\/]/);
  const first = parts.findIndex((part) => /[*?[]/.test(part));
  const folder = parts.slice(0, first).join('/') || '.';
  return `missing; a glob, and paths are not expanded here: name the folder that holds the files, ${folder}`;
}

/** The entry beside a missing path whose name is a typo away from it, as the path would be written. */
async function likelyMeant(path: string): Promise<string | undefined> {
  const name = basename(path);
  if (!name || /[*?[]/.test(path)) return undefined;
  let entries: string[];
  try {
    entries = await readdir(dirname(path));
  } catch {
    return undefined;
  }
  const guess = nearest(name, entries);
  return guess === undefined ? undefined : join(dirname(path), guess);
}

/** Paths not found and folder entries left out, as the report lists them (the verdict's first lines). */
function skippedOf(missing: readonly string[], leftOut: readonly LeftOutInput[]): SkippedInput[] {
  return [...missing.map((path) => ({ path, reason: 'not found' })), ...leftOut.map(({ path, reason }) => ({ path, reason }))];
}
