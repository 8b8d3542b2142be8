/**
 * User family patterns run in a backtracking engine on kernel names a pull request chooses:
 * `^(a+)+$` on a 31-character name took 39 s. Shapes that can grow without bound are refused at
 * load, the rest see a bounded head of the name, and the analyze time budget covers them.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '../../src/errors.js';
import { createClassifier } from '../../src/classify/classify.js';
import { USER_PATTERN_NAME_CHARS } from '../../src/classify/families.js';
import { parseUserFamilies, patternProblem } from '../../src/classify/user-families.js';
import { userFamilyId } from '../../src/model/family-ids.js';
import { cli } from '../helpers/cli.js';

const FILE = 'families.json';
const config = (...patterns: string[]) => JSON.stringify({ families: patterns.map((pattern, i) => ({ family: `team-${i}`, pattern })) });

test.each([
  ['^(a+)+$', /repeated group that holds a quantifier/],
  ['(a|ab)*c', /repeated group that holds an alternation/],
  ['(\\w+\\s?)*$', /repeated group that holds a quantifier/],
  ['(x)\\1', /backreference/],
  ['(?<x>a)\\k<x>', /backreference/],
  ['.*a.*b', /at most 1 open-ended repeat .* got 2/],
  ['\\w+_\\w+$', /got 2/],
])('%s is refused at load in one line naming the file and the entry', (pattern, why) => {
  let error: unknown;
  try {
    parseUserFamilies(config('^ok_', pattern), FILE);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(InputError);
  const message = (error as Error).message;
  expect(message.split('\n')).toHaveLength(1);
  expect(message.startsWith(`${FILE}: families[1].pattern: `)).toBe(true);
  expect(message).toMatch(why);
});

test.each(['^my_moe_', 'gemm.*fp8', '^.*gemm.*fp8', 'fused_moe|moe_align', '(?:foo|bar)_kernel', '^sm90_\\w+_\\w+', '[a-z]+_(?:gemm|gemv)', '(ab)+', '[(+*]+x', '(?:ab)?c', 'a{2,8}b'])('%s is accepted', (pattern) => {
  expect(patternProblem(pattern)).toBeUndefined();
  expect(parseUserFamilies(config(pattern), FILE)).toHaveLength(1);
});

test('an accepted pattern sees at most the head of a long name, so one test stays short', () => {
  const [rule] = parseUserFamilies(config('^.*x.*y'), FILE);
  const classify = createClassifier([rule!]);
  const long = 'x'.repeat(50_000);
  const started = Date.now();
  expect(classify({ name: long })).toBe('other');
  expect(Date.now() - started).toBeLessThan(1_000);
  expect(classify({ name: `${'a'.repeat(USER_PATTERN_NAME_CHARS - 2)}xy` })).toBe(userFamilyId('team-0'));
  expect(classify({ name: `${'a'.repeat(USER_PATTERN_NAME_CHARS)}xy` })).toBe('other');
});

test('the classifier asks the time budget before each new name', () => {
  let asked = 0;
  const classify = createClassifier([], () => {
    if (++asked > 2) throw new Error('budget spent');
  });
  classify({ name: 'a' });
  classify({ name: 'a' });
  classify({ name: 'b' });
  expect(() => classify({ name: 'c' })).toThrow('budget spent');
  expect(asked).toBe(3);
});

test('`analyze --families` refuses the exponential pattern with exit 2 and one line', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pg-families-'));
  const families = join(dir, 'families.json');
  writeFileSync(families, config('^(a+)+$'));
  const capture = join(import.meta.dirname, '..', 'fixtures', 'h200-stacks', 'repeat_kv', 'repeatkv_node.kern_sum.csv');
  const { code, stderr } = await cli(['analyze', '--families', families, capture]);
  expect(code).toBe(2);
  expect(stderr.trim().split('\n')).toHaveLength(1);
  expect(stderr).toContain(`${families}: families[0].pattern: a repeated group that holds a quantifier`);
});

test('the analyze time budget stops the classification of many names under a slow accepted pattern', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pg-families-budget-'));
  // 3,000 distinct 1 KiB names that the pattern fails on after scanning each: slow in total, never one at a time.
  const rows = Array.from({ length: 3000 }, (_, i) => `0.1,1000,1,1000.0,1000.0,1000,1000,0.0,${'x'.repeat(1000)}_${i}`);
  const capture = join(dir, 'kern_sum.csv');
  writeFileSync(capture, ['Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name', ...rows].join('\n'));
  const { analyze } = await import('../../src/pipeline/analyze.js');
  const [rule] = parseUserFamilies(config('^.*x.*y'), FILE);
  const started = Date.now();
  const error = await analyze({ inputs: [capture], families: [rule!], timeoutMs: 200 }).catch((e: unknown) => e);
  expect((error as Error).message).toMatch(/expected the analysis to finish within 0\.2 s \(the analyze time budget\); it was stopped /);
  // Classifying every name takes seconds; stopped, it ends within a name of the budget.
  expect(Date.now() - started).toBeLessThan(2_000);
}, 60_000);
