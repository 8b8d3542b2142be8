/**
 * Orders of text that do not depend on the machine (src/model/text-order.ts), and the meta check
 * that the product sorts with them rather than with the runner's locale.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { compareNatural, compareText } from '../../src/model/text-order.js';
import { ROOT } from '../helpers/fake-github-runner.js';

describe('text order', () => {
  it('compareText orders by code units, as `<` does, whatever the locale', () => {
    const names = ['b', 'B', 'a', 'A', 'é', 'e', 'Z', '_x', '10', '9', 'ä', 'z', 'å'];
    expect([...names].sort(compareText)).toEqual(['10', '9', 'A', 'B', 'Z', '_x', 'a', 'b', 'e', 'z', 'ä', 'å', 'é']);
    expect(compareText('gemm', 'gemm')).toBe(0);
  });

  it('compareNatural orders runs of digits by their value and the rest by code units', () => {
    expect(['gpu10', 'gpu9', 'gpu1', 'gpu', 'gpu01', 'gpu2b', 'gpu2a'].sort(compareNatural)).toEqual(['gpu', 'gpu01', 'gpu1', 'gpu2a', 'gpu2b', 'gpu9', 'gpu10']);
    expect(['/opt/max/2025.10.1/bin', '/opt/max/2025.3.10/bin', '/opt/max/2025.3.1/bin'].sort(compareNatural)).toEqual([
      '/opt/max/2025.3.1/bin',
      '/opt/max/2025.3.10/bin',
      '/opt/max/2025.10.1/bin',
    ]);
    // Runs longer than a double holds exactly, and leading zeros.
    expect(compareNatural('agent 12345678901234567890', 'agent 12345678901234567891')).toBe(-1);
    expect(compareNatural('agent 007', 'agent 7')).toBe(-1);
    expect(compareNatural('agent 7', 'agent 007')).toBe(1);
    expect(compareNatural('agent 7', 'agent 7')).toBe(0);
  });

  it('the product sorts no text by the runner\'s locale: no localeCompare and no Intl.Collator in src/', () => {
    const sources = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
    // Code, not comments (text-order.ts says why in one).
    const users = sources(join(ROOT, 'src')).filter((file) => /\.localeCompare\(|\bIntl\.Collator\b/.test(readFileSync(file, 'utf8').replace(/^\s*(\/\*\*|\*|\/\/).*$/gm, '')));
    expect(users.map((file) => relative(ROOT, file))).toEqual([]);
  });
});
