/**
 * Finding ids are a closed type (src/model/finding-ids.ts): the typecheck (tsc -p tsconfig.test.json)
 * fails when a misspelt id stops being an error, because each `@ts-expect-error` below would then be
 * unused. At run time, isFindingId is the check every door uses.
 */
import type { RuleMeta } from '../../src/diagnose/rule.js';
import { FINDING_IDS, isFindingId, type FindingId } from '../../src/model/finding-ids.js';

describe('finding ids', () => {
  it('a misspelt id fails to compile in a fail-on list and in a rule', () => {
    // @ts-expect-error a typo in a list of finding ids
    const failOn: readonly FindingId[] = ['unfused-atention'];
    // @ts-expect-error a typo in a rule's id
    const meta: Pick<RuleMeta<object>, 'id'> = { id: 're-prefil' };
    expect([failOn, meta.id]).toEqual([['unfused-atention'], 're-prefil']);
  });

  it('isFindingId knows the registry ids and nothing else', () => {
    expect(FINDING_IDS.every(isFindingId)).toBe(true);
    expect(['unfused-atention', '', 'Host-Bound', '$(id)'].filter(isFindingId)).toEqual([]);
  });
});
