/**
 * Notices are read by their code, one of a closed set (src/model/notice-codes.ts), never by their
 * message: outside src/ingest/ (which reads the tools' own text to write a notice) no file of src/
 * tests, matches or compares a message. Every code of the set has a producer, and
 * references/notices.md lists each with its meaning. Each detector is tried on a deliberate
 * violation first, so it can fail.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { NOTICE_CODES, knownNoticeCode, type NoticeCode } from '../../src/model/notice-codes.js';
import { ROOT } from '../helpers/fake-github-runner.js';

const SRC = join(ROOT, 'src');
const PAGE = join(ROOT, 'references', 'notices.md');
const CODES = Object.keys(NOTICE_CODES) as NoticeCode[];

/** A message read to decide: tested by a regex, matched, searched, or compared. */
const MESSAGE_READ = [
  /\.(?:test|exec)\([^)]*\.message\b/,
  /\.message\s*\.\s*(?:match|matchAll|includes|startsWith|endsWith|search|indexOf|split)\(/,
  /\.message\s*[!=]==?/,
  /[!=]==?\s*[\w.?]*\.message\b/,
  /\b(?:match|includes|startsWith|endsWith)\([^)]*\.message\b/,
];

function messageReads(text: string): string[] {
  return text.split('\n').filter((line) => !/^\s*(\/\/|\*)/.test(line) && MESSAGE_READ.some((pattern) => pattern.test(line)));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const FILES = sourceFiles(SRC).map((path) => ({ path: relative(SRC, path), text: readFileSync(path, 'utf8') }));

/**
 * The files that write a code: ones that deal in notices and hold the code as a quoted literal. The
 * set itself and the rules (which read codes) do not count.
 */
function producers(code: string): string[] {
  const literal = new RegExp(`['"\`]${code.replace(/[-]/g, '\\-')}['"\`]`);
  return FILES.filter(({ path, text }) => path !== 'model/notice-codes.ts' && !path.startsWith('diagnose/rules/') && /notice/i.test(text) && literal.test(text)).map(({ path }) => path);
}

/** references/notices.md as the set writes it. */
function noticesPage(): string {
  return [
    '# Notice codes',
    '',
    '<!-- Generated from src/model/notice-codes.ts: UPDATE_NOTICES_PAGE=1 npm test -- __tests__/meta/notice-codes.test.ts -->',
    '',
    "A report's `notices` say what was decided about the inputs and what the tools themselves said:",
    'fallbacks, skipped reports, files set aside, notes of the diagnosis. Each has a `code`, a',
    '`severity` (`info`, `warning` or `error`) and a `message` for people. Automation reads the code:',
    'the message may change wording between versions, the codes below do not change meaning. A',
    'report written by an older version reads with its codes kept, and a code this version does not',
    'know reads as `other`, its message kept.',
    '',
    '| code | meaning |',
    '|---|---|',
    ...CODES.map((code) => `| \`${code}\` | ${NOTICE_CODES[code].replace(/\|/g, '\\|')} |`),
    '',
  ].join('\n');
}

describe('notice codes', () => {
  it('the detector finds a message read to decide (a deliberate violation)', () => {
    expect(messageReads("const notice = profile.notices.find((n) => /compil/i.test(n.message));")).toHaveLength(1);
    expect(messageReads('if (notice.message.startsWith(CONSOLE_NOTICE)) return;')).toHaveLength(1);
    expect(messageReads("return notices.some((n) => n.message === 'nsys not found');")).toHaveLength(1);
    expect(messageReads("const found = n.message.includes('No GPU kernel data');")).toHaveLength(1);
    // Rendering a message, or reading a code, is no such read.
    expect(messageReads('for (const notice of notices) out.push(`- ${notice.severity}: ${safeText(notice.message, 80)}`);')).toEqual([]);
    expect(messageReads("const notice = profile.notices.find((n) => n.code === 'max-no-kernel-data');")).toEqual([]);
  });

  it('no file of src/ outside src/ingest/ reads a message to decide', () => {
    const found = FILES.filter(({ path }) => !path.startsWith('ingest/')).flatMap(({ path, text }) => messageReads(text).map((line) => `src/${path}: ${line.trim()}`));
    expect(found).toEqual([]);
  });

  it('every code has a producer in src/', () => {
    // The detector: a code no file writes is found missing (a deliberate violation).
    expect(producers('never-written-anywhere')).toEqual([]);
    expect(producers('max-no-kernel-data')).toEqual(['ingest/formats/max/console.ts']);
    // `other` is what migration gives a code it does not know.
    expect(knownNoticeCode('a-code-of-a-later-version')).toBe('other');
    const unproduced = CODES.filter((code) => code !== 'other' && producers(code).length === 0);
    expect(unproduced).toEqual([]);
  });

  it('references/notices.md lists every code with its meaning', () => {
    const page = noticesPage();
    if (process.env['UPDATE_NOTICES_PAGE'] === '1') writeFileSync(PAGE, page);
    expect(readFileSync(PAGE, 'utf8')).toBe(page);
    for (const code of CODES) expect(page).toContain(`| \`${code}\` |`);
  });
});
