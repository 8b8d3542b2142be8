/** action.yml and the code agree on every input name, default and output (the runner applies action.yml's defaults). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULTS, INPUTS, OUTPUTS } from '../../src/action/inputs.js';
import { RUN_OPTION_NAMES } from '../../src/runner/run-options.js';
import { actionDefaults, ROOT } from '../helpers/fake-github-runner.js';

describe('action.yml', () => {
  const yml = readFileSync(join(ROOT, 'action.yml'), 'utf8');

  it('declares exactly the inputs the code reads, with the same defaults', () => {
    const declared = actionDefaults('TOKEN');
    const read = new Set<string>([...Object.values(INPUTS), ...RUN_OPTION_NAMES]);
    expect(Object.keys(declared).sort()).toEqual([...read].sort());
    for (const [key, name] of Object.entries(INPUTS)) {
      const fromYml = declared[name] === 'TOKEN' ? '' : declared[name];
      expect([name, fromYml]).toEqual([name, DEFAULTS[key as keyof typeof DEFAULTS]]);
    }
  });

  it('leaves the run options empty, so the engine defaults apply', () => {
    const declared = actionDefaults('TOKEN');
    for (const name of RUN_OPTION_NAMES.filter((n) => !(Object.values(INPUTS) as string[]).includes(n))) {
      expect([name, declared[name]]).toEqual([name, '']);
    }
  });

  it('declares exactly the outputs the code sets', () => {
    const outputs = yml.slice(yml.indexOf('\noutputs:'), yml.indexOf('\nruns:'));
    const names = [...outputs.matchAll(/^ {2}([a-z0-9-]+):\s*$/gm)].map((m) => m[1]);
    expect(names.sort()).toEqual(Object.values(OUTPUTS).sort());
  });
});
