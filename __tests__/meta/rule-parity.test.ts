/**
 * Rule, test and reference page stay one-to-one: every rule in RULES has a source file named after
 * its id, a test file, and a page with the fixed headings whose Options section names each default.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { RULES } from '../../src/diagnose/rules/index.js';
import { docsUrl } from '../../src/diagnose/rule.js';
import { FINDING_IDS } from '../../src/model/finding-ids.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const HEADINGS = ['## Summary', '## Evidence', '## Why it matters', '## How to fix', '## Options'];
const ids = RULES.map((r) => r.meta.id);

function page(id: string): string {
  return readFileSync(`${ROOT}references/rules/${id}.md`, 'utf8');
}

function section(text: string, heading: string): string {
  const start = text.indexOf(`${heading}\n`);
  const rest = text.slice(start + heading.length + 1);
  const next = rest.search(/^## /m);
  return next < 0 ? rest : rest.slice(0, next);
}

describe('rule registry', () => {
  it('is sorted by id, with unique kebab-case ids', () => {
    expect(ids).toEqual([...ids].sort());
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z]+(?:-[a-z]+)*$/);
  });

  it('is the closed list of finding ids the model declares (what fail-on accepts)', () => {
    expect(ids).toEqual([...FINDING_IDS]);
  });

  it('lists every rule file, and only rule files', () => {
    const files = readdirSync(`${ROOT}src/diagnose/rules`)
      .filter((f) => f.endsWith('.ts') && f !== 'index.ts')
      .map((f) => f.replace(/\.ts$/, ''))
      .sort();
    expect(files).toEqual([...ids].sort());
  });

  it('has no page without a rule', () => {
    const pages = readdirSync(`${ROOT}references/rules`).filter((f) => f.endsWith('.md')).map((f) => f.replace(/\.md$/, ''));
    expect(pages.sort()).toEqual([...ids].sort());
  });
});

describe.each(RULES.map((r) => [r.meta.id, r] as const))('%s', (id, rule) => {
  it('has a test file', () => {
    expect(existsSync(`${ROOT}__tests__/diagnose/rules/${id}.test.ts`)).toBe(true);
  });

  it('declares complete metadata', () => {
    expect(rule.meta.title.length).toBeGreaterThan(0);
    expect(rule.meta.description).toMatch(/\.$/);
    for (const value of Object.values(rule.meta.defaults as Record<string, unknown>)) {
      expect(typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))).toBe(true);
    }
    expect(docsUrl(id)).toMatch(new RegExp(`/references/rules/${id}\\.md$`));
  });

  it('has a reference page with the fixed headings, in order', () => {
    const text = page(id);
    expect(text.startsWith(`# ${id}\n`)).toBe(true);
    const found = text.split('\n').filter((line) => line.startsWith('## '));
    expect(found).toEqual(HEADINGS);
  });

  it('names every default option on its page', () => {
    const options = section(page(id), '## Options');
    for (const key of Object.keys(rule.meta.defaults as Record<string, unknown>)) expect(options).toContain(`\`${key}\``);
    if (Object.keys(rule.meta.defaults as Record<string, unknown>).length === 0) expect(options).toMatch(/none/i);
  });
});
