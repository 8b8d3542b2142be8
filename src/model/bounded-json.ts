/**
 * JSON.parse with bounds that hold while the text is read: no array longer, no string longer, no
 * nesting deeper and no more values in all than the limits allow. An untrusted report.json of a
 * few compressed megabytes can hold 30 million zeros; JSON.parse would build that array before any
 * schema looked at it. Here the read stops at the first value past a bound, naming where it was
 * (`comparison.baselineSamples.tok_s: more than 200000 items`), so memory stays within the limits
 * whatever the file holds. Otherwise it reads exactly what JSON.parse reads: the same values, a
 * `__proto__` key as an own property, the same refusals of what is not JSON.
 */

export interface JsonBounds {
  /** Items of one array, or keys of one object. */
  maxItems: number;
  /** Characters of one string (keys included), after escapes are decoded. */
  maxStringChars: number;
  /** Values in the whole document: numbers, strings, booleans, nulls, arrays and objects. */
  maxValues: number;
  maxDepth: number;
}

export class JsonBoundsError extends Error {
  constructor(
    readonly path: string,
    readonly detail: string,
  ) {
    super(`${path || 'the document'}: ${detail}`);
  }
}

export class JsonSyntaxError extends Error {}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

function pathOf(parts: ReadonlyArray<string | number>): string {
  let out = '';
  for (const part of parts) out += typeof part === 'number' ? `[${part}]` : /^[A-Za-z_$][\w$]*$/.test(part) ? `${out ? '.' : ''}${part}` : `[${JSON.stringify(part.slice(0, 40))}]`;
  return out;
}

export function parseBoundedJson(text: string, bounds: JsonBounds): unknown {
  let at = 0;
  let values = 0;
  const path: Array<string | number> = [];
  const fail = (what: string): never => {
    throw new JsonSyntaxError(`${what} at position ${at}`);
  };
  const bound = (detail: string): never => {
    throw new JsonBoundsError(pathOf(path), detail);
  };
  const space = (): void => {
    for (;;) {
      const c = text.charCodeAt(at);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) at += 1;
      else return;
    }
  };
  const count = (): void => {
    values += 1;
    if (values > bounds.maxValues) bound(`more than ${bounds.maxValues} values in the whole document`);
  };
  const string = (): string => {
    // at is on the opening quote.
    const start = at;
    at += 1;
    let escaped = false;
    let raw = 0;
    for (;;) {
      const c = text.charCodeAt(at);
      if (Number.isNaN(c)) fail('Unterminated string');
      if (c === 0x22) break;
      if (c < 0x20) fail('Bad control character in string literal');
      if (c === 0x5c) {
        escaped = true;
        at += 1;
      }
      at += 1;
      raw += 1;
      // Every decoded character takes at least one raw character, so this bound is never early.
      if (raw > bounds.maxStringChars && !escaped) bound(`a string longer than ${bounds.maxStringChars} characters`);
      if (raw > 6 * bounds.maxStringChars) bound(`a string longer than ${bounds.maxStringChars} characters`);
    }
    at += 1;
    // Decoded by JSON.parse even without escapes: a fresh string. A slice of `text` would keep the
    // whole document alive for as long as any one name of it is kept (a summary's kernel names).
    let decoded: string;
    try {
      decoded = JSON.parse(text.slice(start, at)) as string;
    } catch {
      at = start;
      return fail('Bad escape in string literal');
    }
    if (escaped && decoded.length > bounds.maxStringChars) bound(`a string longer than ${bounds.maxStringChars} characters`);
    return decoded;
  };
  const value = (depth: number): unknown => {
    space();
    count();
    const c = text.charCodeAt(at);
    if (c === 0x22) return string();
    if (c === 0x7b || c === 0x5b) {
      if (depth >= bounds.maxDepth) bound(`nested deeper than ${bounds.maxDepth} levels`);
      return c === 0x7b ? object(depth + 1) : array(depth + 1);
    }
    if (c === 0x74 && text.startsWith('true', at)) {
      at += 4;
      return true;
    }
    if (c === 0x66 && text.startsWith('false', at)) {
      at += 5;
      return false;
    }
    if (c === 0x6e && text.startsWith('null', at)) {
      at += 4;
      return null;
    }
    NUMBER.lastIndex = at;
    const m = NUMBER.exec(text);
    if (!m) return fail(Number.isNaN(c) ? 'Unexpected end of JSON input' : `Unexpected token '${text[at]}'`);
    at = NUMBER.lastIndex;
    return Number(m[0]);
  };
  const array = (depth: number): unknown[] => {
    at += 1;
    const out: unknown[] = [];
    space();
    if (text.charCodeAt(at) === 0x5d) {
      at += 1;
      return out;
    }
    for (;;) {
      if (out.length >= bounds.maxItems) bound(`more than ${bounds.maxItems} items`);
      path.push(out.length);
      out.push(value(depth));
      path.pop();
      space();
      const c = text.charCodeAt(at);
      at += 1;
      if (c === 0x5d) return out;
      if (c !== 0x2c) {
        at -= 1;
        fail("Expected ',' or ']' after array element");
      }
    }
  };
  const object = (depth: number): Record<string, unknown> => {
    at += 1;
    const out: Record<string, unknown> = {};
    let keys = 0;
    space();
    if (text.charCodeAt(at) === 0x7d) {
      at += 1;
      return out;
    }
    for (;;) {
      space();
      if (text.charCodeAt(at) !== 0x22) fail('Expected a double-quoted property name');
      if (keys >= bounds.maxItems) bound(`more than ${bounds.maxItems} keys`);
      const key = string();
      keys += 1;
      space();
      if (text.charCodeAt(at) !== 0x3a) fail("Expected ':' after property name");
      at += 1;
      path.push(key);
      const v = value(depth);
      path.pop();
      // As JSON.parse: `__proto__` is an own property, never the prototype.
      if (key === '__proto__') Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
      else out[key] = v;
      space();
      const c = text.charCodeAt(at);
      at += 1;
      if (c === 0x7d) return out;
      if (c !== 0x2c) {
        at -= 1;
        fail("Expected ',' or '}' after property value");
      }
    }
  };
  // A byte order mark is not JSON (JSON.parse refuses it too).
  const result = value(0);
  space();
  if (at < text.length) fail(`Unexpected non-whitespace character after JSON`);
  return result;
}
