/**
 * The parsers of option text shared by rows of the option table. Each takes the text and the
 * option's name as the user spells it (`--strict`, `input 'strict'`), and throws a UsageError
 * that starts with that name.
 */
import { UsageError } from '../errors.js';

export type ValueParser<T> = (text: string, name: string) => T;

/** The text as given, quoted in a message, bounded (an input may be long). */
export function got(text: string): string {
  return `got ${JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text)}`;
}

/** Comma- or newline-separated items, trimmed, empty ones left out. */
export function listItems(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((item) => item.trim())
    .filter(Boolean);
}

export const text: ValueParser<string> = (value) => value;
export const trimmed: ValueParser<string> = (value) => value.trim();

export function nonEmpty(what: string): ValueParser<string> {
  return (value, name) => {
    if (value === '') throw new UsageError(`${name}: expected ${what}`);
    return value;
  };
}

export const booleanText: ValueParser<boolean> = (value, name) => {
  const word = value.trim().toLowerCase();
  if (word === 'true') return true;
  if (word === 'false') return false;
  throw new UsageError(`${name}: expected true or false, ${got(value)}`);
};

export function oneOf<const T extends string>(values: readonly T[]): ValueParser<T> {
  return (value, name) => {
    const word = value.trim();
    if (!(values as readonly string[]).includes(word)) throw new UsageError(`${name}: expected one of ${values.join(', ')}, ${got(value)}`);
    return word as T;
  };
}

/** `pattern` with `expected` as the message when it does not match (the empty text included, unless allowed by the pattern). */
export function matching(pattern: RegExp, expected: string, trim = false): ValueParser<string> {
  return (value, name) => {
    const word = trim ? value.trim() : value;
    if (!pattern.test(word)) throw new UsageError(`${name}: expected ${expected}, ${got(value)}`);
    return word;
  };
}

/** A list of items, each checked by `item` (an empty text: no items). */
export function list(item: RegExp = /./, expected = 'a list'): ValueParser<string[]> {
  return (value, name) => {
    const items = listItems(value);
    const bad = items.find((i) => !item.test(i));
    if (bad !== undefined) throw new UsageError(`${name}: expected ${expected}, got ${JSON.stringify(bad)}`);
    return items;
  };
}

/** The parser's value, or undefined for an empty text (the option is not set). */
export function optional<T>(parser: ValueParser<T>): ValueParser<T | undefined> {
  return (value, name) => (value.trim() === '' ? undefined : parser(value, name));
}

/** A whole number of at least 1. */
export const positiveInt: ValueParser<number> = (value, name) => {
  const word = value.trim();
  if (!/^\d+$/.test(word) || Number(word) < 1) throw new UsageError(`${name}: expected a positive whole number, ${got(value)}`);
  return Number(word);
};

/** A whole number from 1 to `max`; empty: undefined (the default is derived at run time). */
export function optionalPositiveInt(max = Number.MAX_SAFE_INTEGER, expected = 'a positive whole number'): ValueParser<number | undefined> {
  return (value, name) => {
    const word = value.trim();
    if (word === '') return undefined;
    const n = Number(word);
    if (!/^\d+$/.test(word) || n < 1 || n > max) throw new UsageError(`${name}: expected ${expected}, ${got(value)}`);
    return n;
  };
}

/** A positive number of seconds; empty: undefined (no budget). */
export const optionalPositiveSeconds: ValueParser<number | undefined> = (value, name) => {
  const word = value.trim();
  if (word === '') return undefined;
  const n = Number(word);
  if (!/^\d+(\.\d+)?$/.test(word) || !(n > 0)) throw new UsageError(`${name}: expected a positive number of seconds, ${got(value)}`);
  return n;
};
