/** Rule options as text: each rule's declared defaults are its schema (a number, or text). */
import { parseRuleOptions } from '../../src/diagnose/rule-options.js';
import { RULES } from '../../src/diagnose/rules/index.js';

describe('parseRuleOptions', () => {
  it('every declared option is a number or text, so a value given as text can take its type', () => {
    const kinds = RULES.flatMap((rule) => Object.entries(rule.meta.defaults as Record<string, unknown>).map(([key, value]) => [`${rule.meta.id}.${key}`, typeof value]));
    expect(kinds.filter(([, kind]) => kind !== 'number' && kind !== 'string')).toEqual([]);
    expect(kinds.filter(([key]) => key!.endsWith('.workload'))).toHaveLength(9);
  });

  it('reads items from several texts, split at newlines and at commas that start an item', () => {
    expect(parseRuleOptions(['copy-heavy.minCopyShare=0.3, host-bound.maxMeanUtilPercent=35', 'dominant-kernel.workload=python a.py --x 1,2\ndominant-kernel.minShare=0.5'], '--rule-option')).toEqual({
      'copy-heavy': { minCopyShare: 0.3 },
      'host-bound': { maxMeanUtilPercent: 35 },
      'dominant-kernel': { workload: 'python a.py --x 1,2', minShare: 0.5 },
    });
    expect(parseRuleOptions('', "input 'rule-options'")).toEqual({});
  });

  it('refuses an empty text value and a key the rule inherits rather than declares', () => {
    expect(() => parseRuleOptions('dominant-kernel.workload=', '--rule-option')).toThrow('--rule-option: dominant-kernel.workload=: expected a value');
    expect(() => parseRuleOptions('copy-heavy.toString=1', '--rule-option')).toThrow("rule copy-heavy has no option 'toString'");
  });
});
