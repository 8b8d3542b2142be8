/**
 * User-defined kernel families, from a JSON config:
 *   { "families": [{ "family": "my-fused-moe", "pattern": "^my_moe_", "flags": "i" }] }
 * Entries are tried in order before the built-in table. A family may be a built-in id (to claim a
 * kernel for it) or a new id (reported as its own family, a UserFamilyId; rules only read the
 * built-in ids). Each id is checked here, at load: one line naming the file and the entry.
 *
 * Patterns run in JavaScript's backtracking engine on names from the capture, which a pull request
 * chooses. So a pattern whose work can grow without bound is refused at load (patternProblem), and
 * the rest are tested on at most USER_PATTERN_NAME_CHARS characters of a name.
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

/** Open-ended repeats (`*`, `+`, `{n,}`, and `{n,m}` past this) a pattern may hold, counting one for an unanchored start. */
const MAX_PATTERN_DEGREE = 2;
const WIDE_REPEAT = 64;

interface GroupScan {
  quantified: boolean;
  alternation: boolean;
}

/**
 * Why a pattern could backtrack without bound, or undefined. Refused: a backreference, a repeated
 * group that holds a quantifier or an alternation (`(a+)+`, `(a|ab)*`: exponential), and more than
 * MAX_PATTERN_DEGREE open-ended repeats, an unanchored start counting as one (`.*a.*b` tries every
 * start, every split: cubic).
 */
export function patternProblem(source: string): string | undefined {
  const stack: GroupScan[] = [{ quantified: false, alternation: false }];
  let closed: GroupScan | undefined;
  let openEnded = 0;
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (c === '\\') {
      const next = source[i + 1] ?? '';
      if (/[1-9]/.test(next) || next === 'k') return `a backreference (${source.slice(i, i + 2)}) can take exponential time; match without it`;
      // \u{…} and \p{…} hold braces that are not a quantifier.
      const braced = /^[upP]\{[^}]*\}/.exec(source.slice(i + 1));
      i += braced ? 1 + braced[0].length : 2;
      closed = undefined;
      continue;
    }
    if (c === '[') {
      i += 1;
      if (source[i] === '^') i += 1;
      if (source[i] === ']') i += 1;
      while (i < source.length && source[i] !== ']') i += source[i] === '\\' ? 2 : 1;
      i += 1;
      closed = undefined;
      continue;
    }
    if (c === '(') {
      stack.push({ quantified: false, alternation: false });
      i += 1;
      const prefix = /^\?(?::|=|!|<=|<!|<[^>]*>)/.exec(source.slice(i));
      if (prefix) i += prefix[0].length;
      closed = undefined;
      continue;
    }
    if (c === ')') {
      closed = stack.length > 1 ? stack.pop() : undefined;
      i += 1;
      continue;
    }
    if (c === '|') {
      stack[stack.length - 1]!.alternation = true;
      i += 1;
      closed = undefined;
      continue;
    }
    const braces = c === '{' ? /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i)) : null;
    if (c === '*' || c === '+' || c === '?' || braces) {
      const max = braces ? (braces[2] === undefined ? Number(braces[1]) : braces[3] === '' ? Infinity : Number(braces[3])) : c === '?' ? 1 : Infinity;
      if (max > 1 && closed && (closed.quantified || closed.alternation)) {
        const what = closed.quantified ? 'a repeated group that holds a quantifier (as in (a+)+)' : 'a repeated group that holds an alternation (as in (a|ab)*)';
        return `${what} can take exponential time; repeat a character class instead`;
      }
      if (max > WIDE_REPEAT) openEnded += 1;
      for (const group of stack) group.quantified = true;
      i += braces ? braces[0].length : 1;
      if (source[i] === '?') i += 1;
      closed = undefined;
      continue;
    }
    i += 1;
    closed = undefined;
  }
  const degree = openEnded + (source.startsWith('^') ? 0 : 1);
  if (degree > MAX_PATTERN_DEGREE) {
    return `expected at most ${MAX_PATTERN_DEGREE - 1} open-ended repeat (*, +, {n,}) in a pattern not anchored with ^, or ${MAX_PATTERN_DEGREE} in one that is, got ${openEnded}: such a pattern takes time growing as a power of the name's length; anchor it with ^ or drop a leading .*`;
  }
  return undefined;
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
    const problem = patternProblem(entry.pattern);
    if (problem) throw new InputError(path, `families[${index}].pattern: ${problem} (got ${JSON.stringify(entry.pattern.slice(0, 80))})`);
    let pattern: RegExp;
    try {
      pattern = new RegExp(entry.pattern, entry.flags);
    } catch (error) {
      throw new InputError(path, `families[${index}].pattern: expected a valid regular expression, got ${(error as Error).message}`);
    }
    return { family: checked.family, pattern };
  });
}
