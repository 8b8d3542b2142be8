/**
 * User-defined kernel families, from a JSON config:
 *   { "families": [{ "family": "my-fused-moe", "pattern": "^my_moe_", "flags": "i" }] }
 * Entries are tried in order before the built-in table. A family may be a built-in id (to claim a
 * kernel for it) or a new name (reported as its own family; rules only read the built-in ids).
 */
import { z } from 'zod';
import { InputError } from '../errors.js';
import type { FamilyRule } from './families.js';

const EntrySchema = z.object({
  family: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'a lower-case id (letters, digits, dashes)'),
  pattern: z.string().min(1),
  // `g` and `y` make RegExp.test stateful, which would make classification depend on call order.
  flags: z.string().regex(/^[imsu]*$/, 'a combination of i, m, s, u').default(''),
});

const ConfigSchema = z.object({ families: z.array(EntrySchema) }).strict();

function describeIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
  return `${path.replace(/^\./, '') || 'config'}: ${issue.message}`;
}

/** Parse and validate a family config; `path` names the file in errors. */
export function parseUserFamilies(text: string, path: string): FamilyRule[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new InputError(path, `expected JSON ({ "families": [...] }), got ${(error as Error).message}`);
  }
  const parsed = ConfigSchema.safeParse(json);
  if (!parsed.success) {
    throw new InputError(path, `expected { "families": [{ family, pattern, flags? }] }, got ${describeIssue(parsed.error.issues[0]!)}`);
  }
  return parsed.data.families.map((entry, index) => {
    let pattern: RegExp;
    try {
      pattern = new RegExp(entry.pattern, entry.flags);
    } catch (error) {
      throw new InputError(path, `families[${index}].pattern: expected a valid regular expression, got ${(error as Error).message}`);
    }
    return { family: entry.family, pattern, examples: [] };
  });
}
