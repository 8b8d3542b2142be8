/**
 * Kernel name → family. The table is data (families.ts); this file applies it. Names are normalized
 * first, so architecture prefixes and hash suffixes never decide a family.
 * The launch shape (grid/block) is not used: no library we read ties it to the token count as
 * reliably as the tile in the name.
 */
import type { KernelStat } from '../model/capture.js';
import { FAMILY_TABLE, type FamilyRule } from './families.js';
import { normalizeKernelName } from './kernel-name.js';

export type Classifier = (kernel: Pick<KernelStat, 'name'> & Partial<KernelStat>) => string;

/** The family of one name under the given rules, or `other`. */
export function classifyName(name: string, rules: readonly FamilyRule[] = FAMILY_TABLE): string {
  const normalized = normalizeKernelName(name);
  const rule = rules.find((candidate) => candidate.pattern.test(normalized));
  if (!rule) return 'other';
  return rule.shape ? rule.shape(normalized) : rule.family;
}

/** User rules come first, so a team can claim its own kernels. */
export function createClassifier(userRules: readonly FamilyRule[] = []): Classifier {
  const rules = [...userRules, ...FAMILY_TABLE];
  const cache = new Map<string, string>();
  return (kernel) => {
    const cached = cache.get(kernel.name);
    if (cached !== undefined) return cached;
    const family = classifyName(kernel.name, rules);
    cache.set(kernel.name, family);
    return family;
  };
}
