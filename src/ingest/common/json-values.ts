/**
 * Top-level JSON values in a text that may hold one document, JSON lines, or several documents
 * written back to back (a shell loop around a `--json` tool). Each value comes with its first line,
 * so a bad one can be named. Text between values (a tool's `WARNING:` lines) is reported apart.
 */
import { InputError } from '../../errors.js';

export interface JsonValue {
  value: unknown;
  line: number;
}

export interface JsonValues {
  values: JsonValue[];
  /** Lines of text outside any JSON value, with their line numbers. */
  strayLines: Array<{ line: number; text: string }>;
  /** Set when the text ends inside a value (a recorder stopped mid-write). */
  truncatedAt?: number;
}

export function splitJsonValues(path: string, text: string): JsonValues {
  const values: JsonValue[] = [];
  const strayLines: JsonValues['strayLines'] = [];
  let line = 1;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const ch = text[i]!;
    if (ch === '\n') {
      line += 1;
      i += 1;
      continue;
    }
    if (ch === ' ' || ch === '\t' || ch === '\r') {
      i += 1;
      continue;
    }
    if (ch !== '{' && ch !== '[') {
      const end = text.indexOf('\n', i);
      const stop = end < 0 ? n : end;
      strayLines.push({ line, text: text.slice(i, stop).trimEnd() });
      i = stop;
      continue;
    }
    const startLine = line;
    const start = i;
    let depth = 0;
    let inString = false;
    for (; i < n; i += 1) {
      const c = text[i]!;
      if (c === '\n') line += 1;
      if (inString) {
        if (c === '\\') i += 1;
        else if (c === '"') inString = false;
        continue;
      }
      if (c === '"') inString = true;
      else if (c === '{' || c === '[') depth += 1;
      else if (c === '}' || c === ']') {
        depth -= 1;
        if (depth === 0) break;
      }
    }
    if (i >= n) return { values, strayLines, truncatedAt: startLine };
    i += 1;
    try {
      values.push({ value: JSON.parse(text.slice(start, i)), line: startLine });
    } catch (error) {
      throw new InputError(path, `expected valid JSON (${(error as Error).message})`, String(startLine));
    }
  }
  return { values, strayLines };
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A finite number from a JSON number or a numeric string; undefined otherwise. */
export function numberFrom(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && value.trim() !== '') {
    const parsed = Number(value.trim());
    return Number.isFinite(parsed) ? parsed : undefined;
  }
  return undefined;
}

/** A 0..100 percentage, or undefined when missing or outside that range (a sensor glitch, never clipped). */
export function percentFrom(value: unknown): number | undefined {
  const number = numberFrom(value);
  return number !== undefined && number >= 0 && number <= 100 ? number : undefined;
}

/**
 * One whole-file JSON document (a Chrome trace that is read at once): parsed, or one InputError that
 * names the byte where the engine says the JSON broke, `what` saying what a complete file is.
 */
export function parseJsonDocument(path: string, text: string, what: string): unknown {
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    const message = (error as Error).message;
    const at = /position (\d+)/.exec(message)?.[1];
    throw new InputError(path, `expected ${what} (${message.split('\n')[0]})`, at ? `byte ${at}` : undefined);
  }
}
