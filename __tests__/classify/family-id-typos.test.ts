/**
 * Built-in family ids are a closed type: the typecheck (tsc -p tsconfig.test.json) fails when a
 * misspelt id stops being an error, because each `@ts-expect-error` below would then be unused.
 */
import type { FamilyRule } from '../../src/classify/families.js';
import { isBuiltInFamily, kernelFamily, userFamilyId, type KernelFamily } from '../../src/model/family-ids.js';
import type { Kernel } from '../../src/model/profile.js';

describe('family ids', () => {
  it('a misspelt built-in id fails to compile wherever the code names a family', () => {
    // @ts-expect-error a typo in a row of the built-in table
    const row: FamilyRule = { family: 'nrom', pattern: /rms_norm/, examples: [] };
    const kernel = { name: 'k', family: 'attention-fused' } as Pick<Kernel, 'name' | 'family'>;
    // @ts-expect-error a typo in a rule's comparison
    const typo = kernel.family === 'atention-fused';
    // @ts-expect-error a typo in a list of families a rule reads
    const list: readonly KernelFamily[] = ['gemm-decod'];
    expect([row.family, typo, list]).toEqual(['nrom', false, ['gemm-decod']]);
    expect(kernel.family === 'attention-fused').toBe(true);
  });

  it('a user family is its own id at run time, and never taken for a built-in one', () => {
    const mine: KernelFamily = userFamilyId('my-fused-moe');
    expect(mine).toBe('my-fused-moe');
    expect(isBuiltInFamily(mine)).toBe(false);
    expect(isBuiltInFamily(kernelFamily('gemv'))).toBe(true);
    expect(kernelFamily('my-fused-moe')).toBe(mine);
  });
});
