/**
 * Rule options reach the rules from the command line (`--rule-option RULE.OPTION=VALUE`), checked
 * against the options each rule declares; on a real H200 capture whose copies take 58 % of kernel
 * time (a GQA decode repeating its KV heads every step).
 */
import { join } from 'node:path';
import { actionText, readOptions } from '../../src/options/read.js';
import { cli } from '../helpers/cli.js';

const ROOT = join(import.meta.dirname, '..', '..');
const repeatKv = join(ROOT, '__tests__', 'fixtures', 'h200-stacks', 'repeat_kv', 'repeatkv_node.kern_sum.csv');

interface Finding {
  id: string;
  command?: string;
}

async function findings(...flags: string[]): Promise<Finding[]> {
  const { code, stdout, stderr } = await cli(['analyze', '--json', '-', ...flags, repeatKv]);
  expect(stderr).toBe('');
  expect(code).toBe(0);
  return (JSON.parse(stdout) as { findings: Finding[] }).findings;
}

describe('--rule-option', () => {
  it("sets a rule's threshold: copy-heavy at its default 25 %, not at 90 %", async () => {
    expect((await findings()).map((f) => f.id)).toContain('copy-heavy');
    expect((await findings('--rule-option', 'copy-heavy.minCopyShare=0.9')).map((f) => f.id)).not.toContain('copy-heavy');
  });

  it("sets the workload the printed deep-dive command ends with (the option nine rules declare)", async () => {
    const byDefault = (await findings()).find((f) => f.id === 'dominant-kernel');
    expect(byDefault?.command).toContain('<workload command>');
    const set = (await findings('--rule-option', 'dominant-kernel.workload=python decode.py --steps 64')).find((f) => f.id === 'dominant-kernel');
    expect(set?.command).toContain('python decode.py --steps 64');
    expect(set?.command).not.toContain('<workload command>');
  });

  it.each([
    ['copy-heavy.minShare=0.3', "--rule-option: copy-heavy.minShare=0.3: rule copy-heavy has no option 'minShare' (known: minCopyShare)"],
    ['copy-heavy.minCopyShare=lots', '--rule-option: copy-heavy.minCopyShare=lots: expected a number written as a plain decimal such as 0.25 (the default), got "lots"'],
    // A percent for a fraction: the fail-on rule could never fire, and nothing would say so.
    ['unfused-attention.minSoftmaxShare=2', '--rule-option: unfused-attention.minSoftmaxShare=2: expected a fraction from 0 to 1 (a share: 0.3 for 30 %) (the default is 0.002), got 2'],
    ['unfused-attention.minSoftmaxShare=0x10', '--rule-option: unfused-attention.minSoftmaxShare=0x10: expected a number written as a plain decimal such as 0.002 (the default), got "0x10"'],
    ['unfused-attention.minSoftmaxShare=1e308', '--rule-option: unfused-attention.minSoftmaxShare=1e308: expected a number written as a plain decimal'],
    ['unfused-attention.minSoftmaxShare=NaN', '--rule-option: unfused-attention.minSoftmaxShare=NaN: expected a number written as a plain decimal'],
    ['unfused-attention.minSoftmaxShare=-0.1', '--rule-option: unfused-attention.minSoftmaxShare=-0.1: expected a number written as a plain decimal'],
    ['host-bound.maxMeanUtilPercent=140', '--rule-option: host-bound.maxMeanUtilPercent=140: expected a percent from 0 to 100'],
    ['re-prefill.minDecodeSteps=2.5', '--rule-option: re-prefill.minDecodeSteps=2.5: expected a whole number'],
    ['transfer-bound.minCopyMs=99999999999999999', '--rule-option: transfer-bound.minCopyMs=99999999999999999: expected a number up to 9007199254740991'],
    ['copy-heavy.minCopyShare=0.3,copy-heavy.minCopyShare=0.5', '--rule-option: copy-heavy.minCopyShare=0.5: copy-heavy.minCopyShare is already set to 0.3; give each option once'],
    ['copy-hevy.minCopyShare=0.3', "--rule-option: copy-hevy.minCopyShare=0.3: unknown rule 'copy-hevy' (known: "],
    ['minCopyShare=0.3', '--rule-option: minCopyShare=0.3: expected RULE.OPTION=VALUE, e.g. copy-heavy.minCopyShare=0.3'],
  ])('refuses %s in one line naming the flag, exit 2', async (item, message) => {
    const { code, stderr } = await cli(['analyze', '--json', '-', '--rule-option', item, repeatKv]);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('takes the same option twice with the same value, and a plain decimal at the edges of its range', async () => {
    const ids = (await findings('--rule-option', 'copy-heavy.minCopyShare=1', '--rule-option', 'copy-heavy.minCopyShare=1.0')).map((f) => f.id);
    expect(ids).not.toContain('copy-heavy');
    expect((await findings('--rule-option', 'copy-heavy.minCopyShare=0')).map((f) => f.id)).toContain('copy-heavy');
  });

  it("the action's rule-options input goes through the same parser: one line, the input named", () => {
    const { problems } = readOptions(actionText((name) => (name === 'rule-options' ? 'unfused-attention.minSoftmaxShare=2\ncopy-heavy.minCopyShare=0.3' : '')), 'action');
    expect(problems).toEqual(["input 'rule-options': unfused-attention.minSoftmaxShare=2: expected a fraction from 0 to 1 (a share: 0.3 for 30 %) (the default is 0.002), got 2"]);
  });
});
