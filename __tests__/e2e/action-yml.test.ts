/** action.yml and the code agree on every output (the inputs: __tests__/options/table.test.ts). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OUTPUTS } from '../../src/action/inputs.js';
import { ROOT } from '../helpers/fake-github-runner.js';

describe('action.yml', () => {
  const yml = readFileSync(join(ROOT, 'action.yml'), 'utf8');

  it('declares exactly the outputs the code sets', () => {
    const outputs = yml.slice(yml.indexOf('\noutputs:'), yml.indexOf('\nruns:'));
    const names = [...outputs.matchAll(/^ {2}([a-z0-9-]+):\s*$/gm)].map((m) => m[1]);
    expect(names.sort()).toEqual(Object.values(OUTPUTS).sort());
  });
});
