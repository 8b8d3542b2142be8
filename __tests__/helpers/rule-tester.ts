/**
 * Rule tests as data, in the manner of ESLint's RuleTester: every rule test file gives `passing`
 * cases (no hit) and `failing` cases (the hits expected, by evidence values, never by English).
 * The tester checks the cases themselves too: both lists non-empty, no duplicates, only declared
 * options, every failing case names at least one evidence value.
 */
import type { Rule, RuleHit } from '../../src/diagnose/rule.js';
import { checkRule, type CheckedHit } from '../../src/diagnose/run-rules.js';
import type { Severity } from '../../src/model/report.js';
import { profileOf, type ProfileSpec } from './profile-builder.js';

export interface RuleCase<Options> {
  name: string;
  profile: ProfileSpec;
  options?: Partial<Options>;
}

export interface ExpectedHit {
  /** The effective severity (the hit's override, else the rule's). */
  severity?: Severity;
  /** Evidence values that must be present and equal (numbers within 5e-4 relative). */
  evidence: Record<string, number | string | boolean>;
  command?: RegExp;
  /** The finding's message must match. */
  message?: RegExp;
  /** The finding's advice must match. */
  advice?: RegExp;
  kernel?: string;
}

export interface FailingCase<Options> extends RuleCase<Options> {
  hits: readonly ExpectedHit[];
}

export interface RuleCases<Options> {
  passing: readonly RuleCase<Options>[];
  failing: readonly FailingCase<Options>[];
}

/** Problems with the test cases themselves; thrown before any test runs. */
export function validateCases<Options extends object>(rule: Rule<Options>, cases: RuleCases<Options>): void {
  const id = rule.meta.id;
  if (cases.passing.length === 0) throw new Error(`${id}: at least one passing case is required`);
  if (cases.failing.length === 0) throw new Error(`${id}: at least one failing case is required`);
  const names = new Set<string>();
  const bodies = new Map<string, string>();
  const declared = Object.keys(rule.meta.defaults);
  for (const testCase of [...cases.passing, ...cases.failing]) {
    if (names.has(testCase.name)) throw new Error(`${id}: duplicate case name "${testCase.name}"`);
    names.add(testCase.name);
    const body = JSON.stringify({ profile: testCase.profile, options: testCase.options ?? {} });
    const twin = bodies.get(body);
    if (twin) throw new Error(`${id}: case "${testCase.name}" duplicates "${twin}"`);
    bodies.set(body, testCase.name);
    for (const key of Object.keys(testCase.options ?? {})) {
      if (!declared.includes(key)) throw new Error(`${id}: case "${testCase.name}" sets unknown option "${key}" (declared: ${declared.join(', ')})`);
    }
  }
  for (const testCase of cases.failing) {
    if (testCase.hits.length === 0) throw new Error(`${id}: failing case "${testCase.name}" expects no hit`);
    for (const hit of testCase.hits) {
      if (Object.keys(hit.evidence).length === 0) throw new Error(`${id}: failing case "${testCase.name}" asserts no evidence`);
    }
  }
}

function optionsFor<Options extends object>(rule: Rule<Options>, overrides?: Partial<Options>): Options {
  return { ...rule.meta.defaults, ...(overrides ?? {}) };
}

/** The rule as the runner calls it: only with the evidence it needs, thin evidence lowering severity. */
export function runRule<Options extends object>(rule: Rule<Options>, testCase: RuleCase<Options>): CheckedHit[] {
  return checkRule(rule, profileOf(testCase.profile), optionsFor(rule, testCase.options));
}

function expectWellFormed(hit: RuleHit): void {
  for (const text of [hit.message, hit.advice, hit.command ?? 'x']) {
    expect(text.trim().length).toBeGreaterThan(0);
    expect(text).not.toMatch(/undefined|NaN|\{\{|\[object /);
  }
  for (const value of Object.values(hit.evidence)) {
    if (typeof value === 'number') expect(Number.isFinite(value)).toBe(true);
  }
}

function expectEvidence(actual: RuleHit['evidence'], expected: ExpectedHit['evidence']): void {
  for (const [key, value] of Object.entries(expected)) {
    expect(Object.keys(actual)).toContain(key);
    const got = actual[key];
    if (typeof value === 'number' && typeof got === 'number') {
      const tolerance = 5e-4 * Math.max(1, Math.abs(value));
      if (Math.abs(got - value) > tolerance) throw new Error(`evidence ${key}: expected ${value}, got ${got}`);
    } else {
      expect({ [key]: got }).toEqual({ [key]: value });
    }
  }
}

export function testRule<Options extends object>(rule: Rule<Options>, cases: RuleCases<Options>): void {
  validateCases(rule, cases);
  describe(rule.meta.id, () => {
    describe('passing', () => {
      it.each(cases.passing.map((c) => [c.name, c] as const))('%s', (_name, testCase) => {
        expect(runRule(rule, testCase)).toEqual([]);
      });
    });
    describe('failing', () => {
      it.each(cases.failing.map((c) => [c.name, c] as const))('%s', (_name, testCase) => {
        const hits = runRule(rule, testCase);
        expect(hits).toHaveLength(testCase.hits.length);
        testCase.hits.forEach((expected, index) => {
          const hit = hits[index]!;
          expectWellFormed(hit);
          if (expected.severity) expect(hit.severity).toBe(expected.severity);
          expect(hit.basis.length).toBeGreaterThan(rule.meta.needs.length > 0 ? 0 : -1);
          expectEvidence(hit.evidence, expected.evidence);
          if (expected.command) expect(hit.command).toMatch(expected.command);
          if (expected.message) expect(hit.message).toMatch(expected.message);
          if (expected.advice) expect(hit.advice).toMatch(expected.advice);
          if (expected.kernel) expect(hit.kernel).toBe(expected.kernel);
        });
      });
    });
  });
}
