/** A `--families` file (input `families`): read, then parsed into the user's family rules. */
import { readFile } from 'node:fs/promises';
import { parseUserFamilies } from '../classify/user-families.js';
import type { UserFamilyRule } from '../classify/families.js';
import { InputError, systemErrorText } from '../errors.js';

export async function loadFamilies(path: string): Promise<UserFamilyRule[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new InputError(path, `cannot read the families file (${systemErrorText(error)})`);
  }
  return parseUserFamilies(text, path);
}
