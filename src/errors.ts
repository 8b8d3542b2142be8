/**
 * Typed errors. Every error a user can cause is an InputError or UsageError: one line, exit code 2.
 * Anything else is a bug and is reported as such.
 */
export class ProfileGateError extends Error {
  override name = 'ProfileGateError';
}

/** Longest `expected` text kept in a message: a quoted line of a hostile file can be megabytes. */
export const MAX_EXPECTED_CHARS = 400;

/** One line of bounded length: parser messages (JSON.parse, csv-parse) quote the input, line breaks included. */
export function oneBoundedLine(text: string, max = MAX_EXPECTED_CHARS): string {
  const line = text.replace(/\s*[\r\n]+\s*/g, ' ');
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
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
