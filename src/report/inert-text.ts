/**
 * Text from outside (file names, kernel names, model names, messages that quote them) made inert
 * where it is printed as plain text: a terminal, the CLI's output, the Actions log.
 *
 * - Characters that act instead of showing are written as escapes (`\n`, `\x1b`, `\u202e`): line
 *   breaks (a new line could start a workflow command), ESC and the other C0/C1 controls (terminal
 *   sequences: clipboard writes, screen clears, colours, title changes), bidi embeddings, overrides
 *   and isolates, zero-width characters and invisible operators (text that reads other than it is,
 *   "Trojan Source"), and the invisible tag characters.
 * - The runner acts on a line that starts with `::` (after spaces) and on `##[` anywhere in a line;
 *   in a printed line, the first is written `\x3a:` and the second `##\x5b`.
 * Nothing is inserted: an escape replaces the character it stands for, so it can be read back.
 */

// C0 controls, DEL and C1 controls; ALM; MVS; ZWSP..RLM; LS, PS, LRE..RLO; WJ..nominal digit shapes; BOM/ZWNBSP; tags.
// eslint-disable-next-line no-control-regex
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\u{e0000}-\u{e007f}]/gu;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeOne(char: string): string {
  const named = NAMED[char];
  if (named) return named;
  const code = char.codePointAt(0)!;
  if (code < 0x100) return `\\x${code.toString(16).padStart(2, '0')}`;
  if (code < 0x10000) return `\\u${code.toString(16).padStart(4, '0')}`;
  return `\\u{${code.toString(16)}}`;
}

/** True when the text holds a character that `showHidden` escapes. */
export function hasHidden(text: string): boolean {
  HIDDEN.lastIndex = 0;
  return HIDDEN.test(text);
}

/** Every control, bidi, zero-width and tag character written as an escape; the rest unchanged. */
export function showHidden(text: string): string {
  return text.replace(HIDDEN, escapeOne);
}

/** A line whose own text cannot be a workflow command: `::` at its start and `##[` written as escapes. */
export function commandInert(line: string): string {
  return line.replace(/^(\s*):(?=:)/, '$1\\x3a').replace(/##\[/g, '##\\x5b');
}

/** One line for a log or a terminal, from text that may hold anything. */
export function inertLine(text: string): string {
  return commandInert(showHidden(text));
}

/** Text of several lines that we built (a plan, a table) around outside names: each line made inert. */
export function inertLines(text: string): string {
  return text
    .split(/\r\n|\r|\n/)
    .map(inertLine)
    .join('\n');
}

/** A copy of `value` with every string in it passed through `showHidden` (for a renderer of plain text). */
export function withHiddenShown<T>(value: T): T {
  if (typeof value === 'string') return (hasHidden(value) ? showHidden(value) : value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => withHiddenShown(item)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = Object.getPrototypeOf(value) === null ? Object.create(null) : {};
    // Defined, not assigned: an own `__proto__` key (JSON.parse makes one) stays a key.
    for (const [key, item] of Object.entries(value)) Object.defineProperty(out, key, { value: withHiddenShown(item), enumerable: true, writable: true, configurable: true });
    return out as T;
  }
  return value;
}
