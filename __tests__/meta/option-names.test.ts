/**
 * Messages name options as the user writes them (`fail-on`, `--allow-environment-mismatch`), never
 * by the engine's field names (`failOn`, `allowEnvironmentMismatch`), which no user can type.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ALL_OPTIONS } from '../../src/options/table.js';
import { ROOT } from '../helpers/fake-github-runner.js';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

/** The camelCase names of options that have a user-facing spelling. */
const FIELDS = [...new Set(ALL_OPTIONS.map((row) => row.key as string))].filter((f) => /[a-z][A-Z]/.test(f));

/** The text of string and template literals on a line of code (comments left out). */
function literals(line: string): string[] {
  const code = line.replace(/^\s*(\/\/|\*|\/\*).*$/, '');
  return [...code.matchAll(/(['`])((?:\\.|(?!\1)[^\\])*)\1/g)].map((m) => m[2]!.replace(/\$\{[^}]*\}/g, ' '));
}

describe('option names in messages', () => {
  it('knows the field names it looks for', () => {
    expect(FIELDS).toEqual(expect.arrayContaining(['failOn', 'failOnSeverity', 'allowEnvironmentMismatch', 'allowThrottled']));
  });

  it('no message in src/ names an option by its field name', () => {
    const found: string[] = [];
    for (const file of sources(join(ROOT, 'src'))) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          for (const text of literals(line)) {
            // A word of prose: the field name with a space (or an opening bracket) before it.
            const hit = FIELDS.find((f) => new RegExp(`(^|[\\s(])${f}\\b(?!:)`).test(text) && /\s/.test(text.trim()));
            if (hit) found.push(`${file.slice(ROOT.length + 1)}:${i + 1}: ${hit}`);
          }
        });
    }
    expect(found).toEqual([]);
  });
});
