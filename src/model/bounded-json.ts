/**
 * JSON.parse with bounds that hold while the text is read: no array longer, no string longer, no
 * nesting deeper and no more values in all than the limits allow. An untrusted report.json of a
 * few compressed megabytes can hold 30 million zeros; JSON.parse would build that array before any
 * schema looked at it. Here the text is scanned first, building nothing, and the scan stops at the
 * first value past a bound, naming where it was (`comparison.baselineSamples.tok_s: more than 200000
 * items`); only text within the bounds is handed to JSON.parse, so memory stays within the limits
 * whatever the file holds, and time is one linear scan plus JSON.parse. Otherwise it reads exactly
 * what JSON.parse reads: the same values, a `__proto__` key as an own property, the same refusals
 * of what is not JSON.
 */

export interface JsonBounds {
  /** Items of one array, or keys of one object. */
  maxItems: number;
  /** Characters of one string (keys included), after escapes are decoded. */
  maxStringChars: number;
  /** Values in the whole document: numbers, strings, booleans, nulls, arrays and objects. */
  maxValues: number;
  maxDepth: number;
  /** Milliseconds the scan may take (checked every few thousand values); none when absent. */
  maxMillis?: number;
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
const HEX = /[0-9a-fA-F]{4}/y;
/** The characters a backslash may escape in a JSON string, besides `u`. */
const SIMPLE_ESCAPES = new Set([0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]);

/**
 * Where the scan is, as the error names it: array indices as themselves, object keys as the
 * position of their opening quote (as `-1 - position`), decoded only when a bound is passed.
 */
function pathOf(text: string, parts: readonly number[]): string {
  let out = '';
  for (const part of parts) {
    if (part >= 0) {
      out += `[${part}]`;
      continue;
    }
    const start = -1 - part;
    let end = start + 1;
    while (text.charCodeAt(end) !== 0x22) end += text.charCodeAt(end) === 0x5c ? 2 : 1;
    const key = JSON.parse(text.slice(start, end + 1)) as string;
    out += /^[A-Za-z_$][\w$]*$/.test(key) ? `${out ? '.' : ''}${key}` : `[${JSON.stringify(key.slice(0, 40))}]`;
  }
  return out;
}

/**
 * One pass over the text that builds nothing: it checks the bounds (and the syntax), and only then
 * JSON.parse builds the values, so what is built is within the bounds and read at JSON.parse's own
 * speed. A pass that built each value itself took some ten times as long on a report of 150,000 rows.
 */
export function parseBoundedJson(text: string, bounds: JsonBounds): unknown {
  let at = 0;
  let values = 0;
  const path: number[] = [];
  const fail = (what: string): never => {
    throw new JsonSyntaxError(`${what} at position ${at}`);
  };
  const bound = (detail: string): never => {
    throw new JsonBoundsError(pathOf(text, path), detail);
  };
  const space = (): void => {
    for (;;) {
      const c = text.charCodeAt(at);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) at += 1;
      else return;
    }
  };
  const deadline = bounds.maxMillis === undefined ? Infinity : Date.now() + bounds.maxMillis;
  const count = (): void => {
    values += 1;
    if (values > bounds.maxValues) bound(`more than ${bounds.maxValues} values in the whole document`);
    // The clock is read every 4,096 values: a global read per value would cost more than the value.
    if ((values & 4095) === 0 && Date.now() >= deadline) bound(`read past its time budget of ${bounds.maxMillis! / 1000} s, at value ${values}`);
  };
  const string = (): void => {
    // at is on the opening quote; `chars` counts the characters as decoded (an escape is one).
    const start = at;
    at += 1;
    let chars = 0;
    for (;;) {
      const c = text.charCodeAt(at);
      // NaN past the end; `c !== c` rather than a global's method, which a VM context makes slow per character.
      if (c !== c) fail('Unterminated string');
      if (c === 0x22) break;
      if (c < 0x20) fail('Bad control character in string literal');
      if (c === 0x5c) {
        const e = text.charCodeAt(at + 1);
        if (e === 0x75) {
          HEX.lastIndex = at + 2;
          if (!HEX.test(text)) {
            at = start;
            fail('Bad escape in string literal');
          }
          at += 6;
        } else if (SIMPLE_ESCAPES.has(e)) at += 2;
        else {
          at = start;
          fail('Bad escape in string literal');
        }
      } else at += 1;
      chars += 1;
      if (chars > bounds.maxStringChars) bound(`a string longer than ${bounds.maxStringChars} characters`);
    }
    at += 1;
  };
  const value = (depth: number): void => {
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
      return;
    }
    if (c === 0x66 && text.startsWith('false', at)) {
      at += 5;
      return;
    }
    if (c === 0x6e && text.startsWith('null', at)) {
      at += 4;
      return;
    }
    NUMBER.lastIndex = at;
    if (!NUMBER.test(text)) fail(Number.isNaN(c) ? 'Unexpected end of JSON input' : `Unexpected token '${text[at]}'`);
    at = NUMBER.lastIndex;
  };
  const array = (depth: number): void => {
    at += 1;
    space();
    if (text.charCodeAt(at) === 0x5d) {
      at += 1;
      return;
    }
    for (let items = 0; ; items++) {
      if (items >= bounds.maxItems) bound(`more than ${bounds.maxItems} items`);
      path.push(items);
      value(depth);
      path.pop();
      space();
      const c = text.charCodeAt(at);
      at += 1;
      if (c === 0x5d) return;
      if (c !== 0x2c) {
        at -= 1;
        fail("Expected ',' or ']' after array element");
      }
    }
  };
  const object = (depth: number): void => {
    at += 1;
    let keys = 0;
    space();
    if (text.charCodeAt(at) === 0x7d) {
      at += 1;
      return;
    }
    for (;;) {
      space();
      if (text.charCodeAt(at) !== 0x22) fail('Expected a double-quoted property name');
      if (keys >= bounds.maxItems) bound(`more than ${bounds.maxItems} keys`);
      const key = at;
      string();
      keys += 1;
      space();
      if (text.charCodeAt(at) !== 0x3a) fail("Expected ':' after property name");
      at += 1;
      path.push(-1 - key);
      value(depth);
      path.pop();
      space();
      const c = text.charCodeAt(at);
      at += 1;
      if (c === 0x7d) return;
      if (c !== 0x2c) {
        at -= 1;
        fail("Expected ',' or '}' after property value");
      }
    }
  };
  // A byte order mark is not JSON (JSON.parse refuses it too).
  value(0);
  space();
  if (at < text.length) fail(`Unexpected non-whitespace character after JSON`);
  // Within the bounds: JSON.parse builds it (a `__proto__` key an own property, fresh strings that
  // do not keep the whole text alive).
  return JSON.parse(text) as unknown;
}
