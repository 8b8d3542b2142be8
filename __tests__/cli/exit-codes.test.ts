/** The exit codes: one table in src/errors.ts, and every place that lists them says the same codes. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXIT_CODES, EXIT_INTERNAL, EXIT_RUN_FAILED, exitCodeFor, InputError, UsageError } from '../../src/errors.js';
import { cli } from '../helpers/cli.js';

const ROOT = join(import.meta.dirname, '..', '..');
const CODES = EXIT_CODES.map((c) => c.code);

/** The backticked codes of the README's "Exit codes:" list item (it wraps over several lines). */
function readmeCodes(): number[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('- Exit codes:');
  expect(start).toBeGreaterThanOrEqual(0);
  const rest = readme.slice(start + 2);
  const item = rest.slice(0, rest.search(/\n(?! )/));
  return [...item.matchAll(/`(\d+)`/g)].map((m) => Number(m[1]));
}

/** The "N meaning" codes of a help text's "Exit codes:" line. */
function helpCodes(help: string): number[] {
  const line = help.split('\n').find((l) => l.startsWith('Exit codes:'));
  expect(line).toBeDefined();
  return [...line!.matchAll(/(?:: |, )(\d+) /g)].map((m) => Number(m[1]));
}

describe('exit codes', () => {
  it('are distinct, and include the internal error and the failed run', () => {
    expect(new Set(CODES).size).toBe(CODES.length);
    expect(CODES).toEqual(expect.arrayContaining([EXIT_INTERNAL, EXIT_RUN_FAILED]));
  });

  it('the README lists exactly the codes the table defines', () => {
    expect(readmeCodes()).toEqual(CODES);
  });

  it.each(['analyze', 'run'])('%s --help lists every code', async (command) => {
    const { code, stdout } = await cli([command, '--help']);
    expect(code).toBe(0);
    expect(helpCodes(stdout)).toEqual(CODES);
  });

  it('the run orchestration reference names every code run can exit with', () => {
    const text = readFileSync(join(ROOT, 'references', 'steps', 'run-orchestration.md'), 'utf8').replace(/\s+/g, ' ');
    const sentence = text.slice(text.indexOf('`profile-gate run` exits'));
    const listed = [...sentence.slice(0, sentence.indexOf('.') + 1).matchAll(/(?:exits |, |or )(\d+) \(/g)].map((m) => Number(m[1]));
    expect(listed).toEqual(CODES);
  });

  it('a user mistake is 2, anything else 3', () => {
    expect(exitCodeFor(new UsageError('--x: bad'))).toBe(2);
    expect(exitCodeFor(new InputError('f.csv', 'a header'))).toBe(2);
    expect(exitCodeFor(new TypeError('oops'))).toBe(EXIT_INTERNAL);
  });
});
