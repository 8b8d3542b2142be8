/**
 * User-defined kernel families, from a JSON config:
 *   { "families": [{ "family": "my-fused-moe", "pattern": "^my_moe_", "flags": "i" }] }
 * Entries are tried in order before the built-in table. A family may be a built-in id (to claim a
 * kernel for it) or a new id (reported as its own family, a UserFamilyId; rules only read the
 * built-in ids). Each id is checked here, at load: one line naming the file and the entry.
 */
import { z } from 'zod';
import { InputError } from '../errors.js';
import { FAMILY_IDS, isBuiltInFamily, userFamilyId, type KernelFamily } from '../model/family-ids.js';
import type { UserFamilyRule } from './families.js';

/** Lower-case words of letters and digits joined by single dashes, as the built-in ids are. */
const FAMILY_ID = /^[a-z0-9]+(-[a-z0-9]+)*$/;
/** Ids are shown in tables and used in threshold keys (`family:<id>`): a short id stays readable. */
const FAMILY_ID_MAX = 60;

const EntrySchema = z.object({
  family: z.string(),
  pattern: z.string().min(1),
  // `g` and `y` make RegExp.test stateful, which would make classification depend on call order.
  flags: z.string().regex(/^[imsu]*$/, 'a combination of i, m, s, u').default(''),
});

const ConfigSchema = z.object({ families: z.array(EntrySchema) }).strict();

function describeIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
  return `${path.replace(/^\./, '') || 'config'}: ${issue.message}`;
}

/** A built-in id spelt another way (`KV_Cache`, `attention fused`): what it would be, normalized. */
function looseSpelling(id: string): string {
  return id
    .trim()
    .toLowerCase()
    .replace(/[\s_.]+/g, '-')
    .replace(/-+/g, '-');
}

/** The family an entry names, or why it cannot be one. */
export function checkFamilyId(id: string): { family: KernelFamily } | { problem: string } {
  if (isBuiltInFamily(id)) return { family: id };
  const meant = looseSpelling(id);
  if (isBuiltInFamily(meant)) return { problem: `'${id}' is the built-in family '${meant}' spelt another way; write '${meant}' to claim kernels for it, or pick a new id` };
  if (!FAMILY_ID.test(id)) return { problem: `expected a family id (lower-case letters and digits joined by single dashes, e.g. my-fused-moe), got ${JSON.stringify(id.slice(0, 80))}` };
  if (id.length > FAMILY_ID_MAX) return { problem: `expected a family id of at most ${FAMILY_ID_MAX} characters, got ${id.length}` };
  return { family: userFamilyId(id) };
}

/** Parse and validate a family config; `path` names the file in errors. */
export function parseUserFamilies(text: string, path: string): UserFamilyRule[] {
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
    const checked = checkFamilyId(entry.family);
    if ('problem' in checked) throw new InputError(path, `families[${index}].family: ${checked.problem} (built-in families: ${FAMILY_IDS.join(', ')})`);
    let pattern: RegExp;
    try {
      pattern = new RegExp(entry.pattern, entry.flags);
    } catch (error) {
      throw new InputError(path, `families[${index}].pattern: expected a valid regular expression, got ${(error as Error).message}`);
    }
    return { family: checked.family, pattern };
  });
}
