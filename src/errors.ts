/**
 * Typed errors. Every error a user can cause is an InputError or UsageError: one line, exit code 2.
 * Anything else is a bug and is reported as such.
 */
export class ProfileGateError extends Error {
  override name = 'ProfileGateError';
}

/** Longest `expected` text kept in a message: a quoted line of a hostile file can be megabytes. */
export const MAX_EXPECTED_CHARS = 400;

/**
 * One line of bounded length: parser messages (JSON.parse, csv-parse) quote the input, line breaks
 * included. A cut falls between words when a space is near the end, never inside a word that has one.
 */
export function oneBoundedLine(text: string, max = MAX_EXPECTED_CHARS): string {
  const line = text.replace(/\s*[\r\n]+\s*/g, ' ');
  if (line.length <= max) return line;
  const kept = line.slice(0, max - 1);
  const space = kept.lastIndexOf(' ');
  return `${space >= max - 80 ? kept.slice(0, space).replace(/[,;:]$/, '') : kept}…`;
}

/** Edit distance with transpositions (optimal string alignment): `--basline` is 1 from `--baseline`. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i += 1) {
    for (let j = 1; j < cols; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/** The one known word nearest to `word`, when it is near enough to be a typo of it (and no other is as near). */
export function nearest(word: string, known: readonly string[]): string | undefined {
  const limit = Math.max(1, Math.min(3, Math.floor(word.length / 4)));
  const scored = known.map((candidate) => ({ candidate, distance: editDistance(word, candidate) })).filter((s) => s.distance <= limit);
  if (!scored.length) return undefined;
  const best = Math.min(...scored.map((s) => s.distance));
  const at = scored.filter((s) => s.distance === best);
  return at.length === 1 ? at[0]!.candidate : undefined;
}

/** A file or input that is not what it should be. The message names where and what was expected. */
export class InputError extends ProfileGateError {
  override name = 'InputError';
  constructor(
    readonly file: string,
    readonly expected: string,
    readonly location?: string,
  ) {
    super(`${file}${location ? `:${location}` : ''}: ${oneBoundedLine(expected)}`);
  }
}

/**
 * An InputError's expectation without what it quoted from the file (`got "…"`, `starts with "…"`):
 * what a report, a summary or a comment says of a skipped input, which must not carry the file's
 * bytes (they may hold anything, a secret included).
 */
export function withoutQuotedText(expected: string): string {
  return expected.replace(/"(?:[^"\\\n]|\\.)*"/g, '"…"');
}

/** A bad command line or action input. */
export class UsageError extends ProfileGateError {
  override name = 'UsageError';
}

// Every exit code of the CLI (analyze, run, report, dashboard, demo), here and nowhere else: the
// README's exit-code line and the help texts list them, and a test holds the README to this table.
// Apart from these, a `run` stopped by SIGINT or SIGTERM exits as the shell convention has it,
// 128 + the signal's number (runner/process-group.ts, which imports node built-ins and its own small
// modules only, to run on its own).

/** Success: the gate passed or warned, or there was nothing to gate. */
export const EXIT_OK = 0;
/** The gate's verdict is fail. */
export const EXIT_GATE_FAILED = 1;
/** Bad input or usage: one line on stderr naming the file or flag and what was expected. */
export const EXIT_BAD_INPUT = 2;
/** An internal error: a bug in profile-gate, never the user's input. */
export const EXIT_INTERNAL = 3;
/** `run` only: the workload's run itself failed or timed out (distinct from 1, the gate failed). */
export const EXIT_RUN_FAILED = 4;

/** The codes with what each means, in order, as the help texts and the README say them. */
export const EXIT_CODES: ReadonlyArray<{ code: number; meaning: string }> = [
  { code: EXIT_OK, meaning: 'ok' },
  { code: EXIT_GATE_FAILED, meaning: 'the gate failed' },
  { code: EXIT_BAD_INPUT, meaning: 'bad input or usage' },
  { code: EXIT_INTERNAL, meaning: 'internal error (a bug)' },
  { code: EXIT_RUN_FAILED, meaning: 'the run failed (run only)' },
];

/** "0 ok, 1 the gate failed, …" for help texts. */
export function exitCodesText(): string {
  return EXIT_CODES.map(({ code, meaning }) => `${code} ${meaning}`).join(', ');
}

/** The exit code of an error: 2 for the user's mistake, 3 for a bug. */
export function exitCodeFor(error: unknown): number {
  return error instanceof InputError || error instanceof UsageError ? EXIT_BAD_INPUT : EXIT_INTERNAL;
}

/** One line for a human, never a stack trace for a user's mistake. */
export function describeError(error: unknown): string {
  if (error instanceof InputError || error instanceof UsageError) return error.message.replace(/\s*\n\s*/g, ' ');
  if (error instanceof Error) return `internal error: ${error.message}`.replace(/\s*\n\s*/g, ' ');
  return `internal error: ${String(error)}`;
}

/** Why the system refused a read, in words: `no such file` rather than ENOENT (the code where it has no words here). */
export function systemErrorText(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return 'no such file or folder';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'it is a folder';
    case 'ENOTDIR':
      return 'a part of the path is not a folder';
    case 'ELOOP':
      return 'too many symbolic links';
    case 'ENAMETOOLONG':
      return 'the name is too long';
    case 'EMFILE':
    case 'ENFILE':
      return 'too many open files';
    case undefined:
      return error instanceof Error ? error.message : 'error';
    default:
      return code;
  }
}
