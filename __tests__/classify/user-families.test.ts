import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '../../src/errors.js';
import { userFamilyId } from '../../src/model/family-ids.js';
import { ReportSchema } from '../../src/model/report.js';
import { cli } from '../helpers/cli.js';
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
    ['an upper-case family', '{"families": [{"family": "MyFamily", "pattern": "x"}]}', 'families[0].family: expected a family id (lower-case letters and digits joined by single dashes, e.g. my-fused-moe), got "MyFamily"'],
    ['a built-in id spelt another way', '{"families": [{"family": "ok", "pattern": "a"}, {"family": "KV_Cache", "pattern": "x"}]}', "families[1].family: 'KV_Cache' is the built-in family 'kv-cache' spelt another way"],
    ['a doubled dash', '{"families": [{"family": "my--moe", "pattern": "x"}]}', 'families[0].family: expected a family id'],
    ['a family that is not text', '{"families": [{"family": 7, "pattern": "x"}]}', 'families[0].family'],
    ['a very long id', `{"families": [{"family": "${'a'.repeat(61)}", "pattern": "x"}]}`, 'families[0].family: expected a family id of at most 60 characters, got 61'],
    ['a stateful flag', '{"families": [{"family": "x", "pattern": "x", "flags": "g"}]}', 'families[0].flags'],
  ])('rejects %s with an InputError naming the file', (_what, text, fragment) => {
    const error = errorOf(text);
    expect(error.file).toBe(FILE);
    expect(error.message).toContain(FILE);
    expect(error.message).toContain(fragment);
    expect(error.message).not.toContain('\n');
  });
});

describe('a user family end to end (profile-gate analyze --families)', () => {
  const ROOT = join(import.meta.dirname, '..', '..');
  const capture = join(ROOT, '__tests__', 'fixtures', 'h200-captures', 'healthy_decode', 'healthy_node.stats_kern_api.csv');

  function config(families: unknown): string {
    const path = join(mkdtempSync(join(tmpdir(), 'pg-families-')), 'families.json');
    writeFileSync(path, JSON.stringify({ families }));
    return path;
  }

  it('claims the kernels it names as its own family, through the report and its renderings', async () => {
    const file = config([{ family: 'team-nvjet', pattern: '^nvjet_' }]);
    const dir = mkdtempSync(join(tmpdir(), 'pg-families-'));
    const [json, markdown] = [join(dir, 'report.json'), join(dir, 'report.md')];
    const { code, stdout, stderr } = await cli(['analyze', '--families', file, '--json', json, '--markdown', markdown, capture]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const report = ReportSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
    // PROVENANCE.md of healthy_decode: the top kernel is cuBLAS's nvjet_sm90_tst_256x8_64x6_4x1_v_bz_TNT.
    expect(report.kernels[0]).toMatchObject({ name: 'nvjet_sm90_tst_256x8_64x6_4x1_v_bz_TNT', family: 'team-nvjet' });
    const nvjet = report.kernels.filter((k) => k.name.startsWith('nvjet_'));
    expect(nvjet.length).toBeGreaterThan(0);
    expect(nvjet.every((k) => k.family === userFamilyId('team-nvjet'))).toBe(true);
    expect(report.kernels.filter((k) => !k.name.startsWith('nvjet_')).some((k) => k.family === userFamilyId('team-nvjet'))).toBe(false);
    const row = report.families.find((f) => f.family === userFamilyId('team-nvjet'))!;
    expect(row.totalNs).toBe(nvjet.reduce((sum, k) => sum + k.totalNs, 0));
    // The families table shows it by its own id (markdown-escaped); a built-in family by its label.
    const md = readFileSync(markdown, 'utf8');
    expect(md).toMatch(/\| 5 \| team\\-nvjet \|\n/);
    expect(md).toContain('| Normalization |');
    expect(stdout).toContain('team-nvjet');
  });

  it('a malformed family is one line on stderr naming the file and the entry, exit 2', async () => {
    const file = config([{ family: 'fine', pattern: 'x' }, { family: 'Attention_Fused', pattern: '^fmha' }]);
    const { code, stdout, stderr } = await cli(['analyze', '--families', file, capture]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.split('\n')).toEqual([expect.stringMatching(new RegExp(`^profile-gate: ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: families\\[1\\]\\.family: 'Attention_Fused' is the built-in family 'attention-fused' spelt another way`)), '']);
  });
});
