import { InputError } from '../../src/errors.js';
import { parseUserFamilies } from '../../src/classify/user-families.js';
import { createClassifier } from '../../src/classify/classify.js';

const FILE = 'profile-gate.families.json';

function errorOf(text: string): InputError {
  try {
    parseUserFamilies(text, FILE);
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error('expected an InputError');
}

describe('parseUserFamilies', () => {
  it('returns rules in file order, with flags', () => {
    const rules = parseUserFamilies(
      JSON.stringify({ families: [{ family: 'my-attention', pattern: '^myattn_', flags: 'i' }, { family: 'gemv', pattern: 'skinny_gemm' }] }),
      FILE,
    );
    expect(rules.map((r) => r.family)).toEqual(['my-attention', 'gemv']);
    expect(rules[0]!.pattern.test('MYATTN_fwd')).toBe(true);
    expect(rules[1]!.pattern.flags).toBe('');
    const classify = createClassifier(rules);
    expect(classify({ name: 'myattn_decode_v2' })).toBe('my-attention');
    expect(classify({ name: 'skinny_gemm_bf16' })).toBe('gemv');
  });

  it('names the file and the entry index for a bad regex', () => {
    const error = errorOf(JSON.stringify({ families: [{ family: 'ok', pattern: 'fine' }, { family: 'bad', pattern: 'broken(' }] }));
    expect(error.message).toContain(FILE);
    expect(error.message).toContain('families[1].pattern');
  });

  it.each([
    ['not JSON', '{ families: ', 'expected JSON'],
    ['no families key', '{"kernels": []}', 'families'],
    ['a missing pattern', '{"families": [{"family": "x"}]}', 'families[0].pattern'],
    ['an upper-case family', '{"families": [{"family": "MyFamily", "pattern": "x"}]}', 'families[0].family'],
    ['a stateful flag', '{"families": [{"family": "x", "pattern": "x", "flags": "g"}]}', 'families[0].flags'],
  ])('rejects %s with an InputError naming the file', (_what, text, fragment) => {
    const error = errorOf(text);
    expect(error.file).toBe(FILE);
    expect(error.message).toContain(FILE);
    expect(error.message).toContain(fragment);
    expect(error.message).not.toContain('\n');
  });
});
