import fc from 'fast-check';
import { JsonBoundsError, parseBoundedJson, type JsonBounds } from '../../src/model/bounded-json.js';

const WIDE: JsonBounds = { maxItems: 1e9, maxStringChars: 1e9, maxValues: 1e9, maxDepth: 1000 };

/** What JSON.parse gives, or that it refused. */
function reference(text: string): { value: unknown } | 'refused' {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return 'refused';
  }
}

function bounded(text: string): { value: unknown } | 'refused' {
  try {
    return { value: parseBoundedJson(text, WIDE) };
  } catch (error) {
    if (error instanceof JsonBoundsError) throw error;
    return 'refused';
  }
}

describe('JSON read within bounds', () => {
  it('reads what JSON.parse reads, the same values (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.boolean(), (value, pretty) => {
        const text = JSON.stringify(value, null, pretty ? 2 : undefined);
        expect(bounded(text)).toEqual(reference(text));
      }),
      { numRuns: 500, seed: 25 },
    );
  });

  it('refuses what JSON.parse refuses (property, and known cases)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer({ min: 0, max: 200 }), fc.string({ maxLength: 3 }), (value, cut, noise) => {
        const text = JSON.stringify(value);
        const broken = text.slice(0, cut % (text.length + 1)) + noise + text.slice(cut % (text.length + 1));
        expect(bounded(broken)).toEqual(reference(broken));
      }),
      { numRuns: 1000, seed: 25 },
    );
    for (const text of ['', ' ', '[1,]', '{"a":1,}', '01', '-', '1.', '.5', '"\\x"', '"a\nb"', '\ufeff{}', '[1 2]', '{"a" 1}', 'nul', 'truex', '"\\ud800"', '1e', '[', '{"a":[1,{"b":2}]}', ' \t\n\r[] ']) {
      expect([text, bounded(text)]).toEqual([text, reference(text)]);
    }
  });

  it('keeps a __proto__ key as an own property, as JSON.parse does', () => {
    const value = parseBoundedJson('{"__proto__": {"polluted": true}, "a": 1}', WIDE) as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__', 'a']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('stops at the first value past a bound and names where it was', () => {
    const bounds: JsonBounds = { maxItems: 1000, maxStringChars: 50, maxValues: 5000, maxDepth: 8 };
    const samples = `{"comparison": {"baselineSamples": {"tok/s": [${new Array(5000).fill(0).join(',')}]}}}`;
    expect(() => parseBoundedJson(samples, bounds)).toThrow(new JsonBoundsError('comparison.baselineSamples["tok/s"]', 'more than 1000 items'));
    expect(() => parseBoundedJson(`{"kernels": [{"name": "${'x'.repeat(51)}"}]}`, bounds)).toThrow('kernels[0].name: a string longer than 50 characters');
    // Escapes count as what they decode to: 50 escaped characters are 50 characters.
    expect(parseBoundedJson(`"${'\\u0041'.repeat(50)}"`, bounds)).toBe('A'.repeat(50));
    expect(() => parseBoundedJson(`"${'\\u0041'.repeat(51)}"`, bounds)).toThrow(/longer than 50/);
    expect(() => parseBoundedJson(`{"k": ${'['.repeat(9)}${']'.repeat(9)}}`, bounds)).toThrow(/nested deeper than 8 levels/);
    const many = `[${new Array(10).fill(`[${new Array(900).fill(1).join(',')}]`).join(',')}]`;
    expect(() => parseBoundedJson(many, bounds)).toThrow(/^the document: more than 5000 values in the whole document$|more than 5000 values/);
    expect(() => parseBoundedJson(`{${Array.from({ length: 1001 }, (_, i) => `"k${i}":0`).join(',')}}`, bounds)).toThrow('more than 1000 keys');
  });
});
