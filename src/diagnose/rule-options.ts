/**
 * Rule options as a user sets them: `rule.key=value` items (`--rule-option copy-heavy.minCopyShare=0.3`,
 * input `rule-options`). Each rule's declared defaults are its option schema: a key it does not
 * declare is refused, and a value takes the type of its default (a number, or text). A number is a
 * plain decimal (no 0x10, 1e308, NaN or Infinity) within the range of its declared unit (a share in
 * [0, 1], a percent in [0, 100], a count whole): a percent given for a share would make the rule
 * never fire, silently. One option given twice with different values is refused, not last-wins.
 */
import { UsageError } from '../errors.js';
import type { OptionUnit, Rule } from './rule.js';
import { RULES } from './rules/index.js';

export type RuleOptions = Record<string, Record<string, number | string>>;

/** Digits with an optional fraction: what a threshold is written as (no sign, exponent, hex, NaN or Infinity). */
const PLAIN_DECIMAL = /^(?:\d+(?:\.\d*)?|\.\d+)$/;

/** What a value of this unit must be, when it is not; undefined when it fits. */
function outOfRange(value: number, unit: OptionUnit): string | undefined {
  if (value > Number.MAX_SAFE_INTEGER) return `a number up to ${Number.MAX_SAFE_INTEGER}`;
  if (unit === 'fraction' && value > 1) return 'a fraction from 0 to 1 (a share: 0.3 for 30 %)';
  if (unit === 'percent' && value > 100) return 'a percent from 0 to 100';
  if (unit === 'count' && !Number.isInteger(value)) return 'a whole number';
  return undefined;
}

/** `copy-heavy.minCopyShare=0.3` items (several texts, each comma- or newline-separated) → { 'copy-heavy': { minCopyShare: 0.3 } }. */
export function parseRuleOptions(texts: string | readonly string[], name: string, rules: readonly Rule<any>[] = RULES): RuleOptions {
  const options: RuleOptions = Object.create(null) as RuleOptions;
  for (const text of typeof texts === 'string' ? [texts] : texts) {
    // A text value may hold commas (a workload command): items are split at newlines and at commas
    // that start another `rule.key=` item.
    for (const part of text.split(/\n|,(?=\s*[a-z0-9-]+\.[A-Za-z]+=)/)) {
      const item = part.trim();
      if (!item) continue;
      const match = /^([a-z0-9-]+)\.([A-Za-z][A-Za-z0-9]*)=(.*)$/s.exec(item);
      if (!match) throw new UsageError(`${name}: ${item}: expected RULE.OPTION=VALUE, e.g. copy-heavy.minCopyShare=0.3`);
      const [, id, key, raw] = match as unknown as [string, string, string, string];
      const rule = rules.find((r) => r.meta.id === id);
      if (!rule) throw new UsageError(`${name}: ${item}: unknown rule '${id}' (known: ${rules.map((r) => r.meta.id).join(', ')})`);
      const defaults = rule.meta.defaults as Record<string, unknown>;
      const declared = Object.keys(defaults);
      if (!Object.hasOwn(defaults, key)) {
        throw new UsageError(`${name}: ${item}: rule ${id} has no option '${key}' (${declared.length ? `known: ${declared.join(', ')}` : 'it takes none'})`);
      }
      const value = raw.trim();
      let parsed: number | string = value;
      if (typeof defaults[key] === 'number') {
        if (!PLAIN_DECIMAL.test(value)) throw new UsageError(`${name}: ${item}: expected a number written as a plain decimal such as ${String(defaults[key])} (the default), got ${JSON.stringify(value)}`);
        parsed = Number(value);
        const unit = (rule.meta.units as Record<string, OptionUnit | undefined>)[key] ?? 'ratio';
        const problem = outOfRange(parsed, unit);
        if (problem) throw new UsageError(`${name}: ${item}: expected ${problem} (the default is ${String(defaults[key])}), got ${value}`);
      } else if (value === '') throw new UsageError(`${name}: ${item}: expected a value`);
      const set = (options[id] ??= Object.create(null) as Record<string, number | string>);
      if (Object.hasOwn(set, key) && set[key] !== parsed) {
        throw new UsageError(`${name}: ${item}: ${id}.${key} is already set to ${String(set[key])}; give each option once`);
      }
      set[key] = parsed;
    }
  }
  return options;
}
