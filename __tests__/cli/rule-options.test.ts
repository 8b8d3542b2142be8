/**
 * Rule options reach the rules from the command line (`--rule-option RULE.OPTION=VALUE`), checked
 * against the options each rule declares; on a real H200 capture whose copies take 58 % of kernel
 * time (a GQA decode repeating its KV heads every step).
 */
import { join } from 'node:path';
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
    ['copy-heavy.minCopyShare=lots', '--rule-option: copy-heavy.minCopyShare=lots: expected a number (the default is 0.25), got "lots"'],
    ['copy-hevy.minCopyShare=0.3', "--rule-option: copy-hevy.minCopyShare=0.3: unknown rule 'copy-hevy' (known: "],
    ['minCopyShare=0.3', '--rule-option: minCopyShare=0.3: expected RULE.OPTION=VALUE, e.g. copy-heavy.minCopyShare=0.3'],
  ])('refuses %s in one line naming the flag, exit 2', async (item, message) => {
    const { code, stderr } = await cli(['analyze', '--json', '-', '--rule-option', item, repeatKv]);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
  });
});
