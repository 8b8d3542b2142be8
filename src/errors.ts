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

/** A bad command line or action input. */
export class UsageError extends ProfileGateError {
  override name = 'UsageError';
}

export const EXIT_OK = 0;
export const EXIT_GATE_FAILED = 1;
export const EXIT_BAD_INPUT = 2;
export const EXIT_INTERNAL = 3;

export function exitCodeFor(error: unknown): number {
  return error instanceof InputError || error instanceof UsageError ? EXIT_BAD_INPUT : EXIT_INTERNAL;
}

/** One line for a human, never a stack trace for a user's mistake. */
export function describeError(error: unknown): string {
  if (error instanceof InputError || error instanceof UsageError) return error.message.replace(/\s*\n\s*/g, ' ');
  if (error instanceof Error) return `internal error: ${error.message}`.replace(/\s*\n\s*/g, ' ');
  return `internal error: ${String(error)}`;
}
