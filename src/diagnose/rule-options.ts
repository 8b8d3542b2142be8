/**
 * Rule options as a user sets them: `rule.key=value` items (`--rule-option copy-heavy.minCopyShare=0.3`,
 * input `rule-options`). Each rule's declared defaults are its option schema: a key it does not
 * declare is refused, and a value takes the type of its default (a number, or text).
 */
import { UsageError } from '../errors.js';
import type { Rule } from './rule.js';
import { RULES } from './rules/index.js';

export type RuleOptions = Record<string, Record<string, number | string>>;

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
        parsed = Number(value);
        if (value === '' || !Number.isFinite(parsed)) throw new UsageError(`${name}: ${item}: expected a number (the default is ${String(defaults[key])}), got ${JSON.stringify(value)}`);
      } else if (value === '') throw new UsageError(`${name}: ${item}: expected a value`);
      (options[id] ??= Object.create(null) as Record<string, number | string>)[key] = parsed;
    }
  }
  return options;
}
