/** The rule tester rejects bad test cases before any rule runs. */
import rule from '../../src/diagnose/rules/dominant-kernel.js';
import { K } from '../helpers/profile-builder.js';
import { validateCases, type RuleCases } from '../helpers/rule-tester.js';

type Options = typeof rule.meta.defaults;
const passing = { name: 'spread', profile: { kernels: [[K.decodeGemm, 30, 10], [K.copy, 70, 10]] as const } };
const failing = { name: 'dominant', profile: { kernels: [[K.decodeGemm, 90, 10], [K.copy, 10, 10]] as const }, hits: [{ evidence: { share: 0.9 } }] };

describe('validateCases', () => {
  it('accepts well-formed cases', () => {
    expect(() => validateCases(rule, { passing: [passing], failing: [failing] })).not.toThrow();
  });

  it.each<[string, RuleCases<Options>, RegExp]>([
    ['no passing case', { passing: [], failing: [failing] }, /passing case is required/],
    ['no failing case', { passing: [passing], failing: [] }, /failing case is required/],
    ['a repeated name', { passing: [passing, { ...passing, profile: { util: [1] } }], failing: [failing] }, /duplicate case name "spread"/],
    ['the same case twice', { passing: [passing, { ...passing, name: 'again' }], failing: [failing] }, /"again" duplicates "spread"/],
    ['an undeclared option', { passing: [{ ...passing, options: { maxShare: 1 } as Partial<Options> }], failing: [failing] }, /unknown option "maxShare"/],
    ['a failing case without hits', { passing: [passing], failing: [{ ...failing, hits: [] }] }, /expects no hit/],
    ['a hit without evidence', { passing: [passing], failing: [{ ...failing, hits: [{ evidence: {} }] }] }, /asserts no evidence/],
  ])('rejects %s', (_what, cases, message) => {
    expect(() => validateCases(rule, cases)).toThrow(message);
  });
});
