/**
 * The cases of the parser fuzzing: seeds (the real fixtures each importer claims) and the fast-check
 * mutations of them, those that may break a file and those that keep it valid. The oracle that
 * judges a case is in fuzz-harness.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { IMPORTERS } from '../../src/ingest/registry.js';
import { decodeBytes } from '../../src/ingest/common/input-file.js';
import type { FormatId } from '../../src/model/capture.js';

export interface Seed {
  format: FormatId;
  /** Path relative to the fixtures folder. */
  name: string;
  /** The decoded text (gzip undone). */
  text: string;
  /** The bytes of a binary capture (SQLite), which text mutations would only garble. */
  bytes?: Buffer;
}

/** Binary captures are mutated byte by byte; every text mutation would only break them. */
function isBinary(bytes: Buffer): boolean {
  return bytes.subarray(0, 16).toString('latin1') === 'SQLite format 3\u0000';
}

/** Fixtures that are text captures: everything but provenance notes, scripts and binary reports. */
const SKIP_EXTENSIONS = new Set(['.md', '.py', '.sh', '.nsys-rep', '.ncu-rep', '.tsv']);

function walk(dir: string, out: string[]): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, out);
    else if (entry.isFile() && !SKIP_EXTENSIONS.has(extname(entry.name))) out.push(path);
  }
  return out;
}

/** Every fixture up to `maxBytes` (decoded) whose content one importer claims, by format. */
export function loadSeeds(fixturesDir: string, maxBytes: number): Map<FormatId, Seed[]> {
  const seeds = new Map<FormatId, Seed[]>();
  for (const path of walk(fixturesDir, []).sort()) {
    let bytes = readFileSync(path);
    if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = gunzipSync(bytes);
    if (bytes.length === 0 || bytes.length > maxBytes) continue;
    const text = decodeBytes(bytes);
    const importer = IMPORTERS.find((candidate) => candidate.sniff(text.slice(0, 64 * 1024)));
    if (!importer) continue;
    const list = seeds.get(importer.id) ?? [];
    list.push({ format: importer.id, name: relative(fixturesDir, path), text, ...(isBinary(bytes) ? { bytes } : {}) });
    seeds.set(importer.id, list);
  }
  return seeds;
}

export interface FuzzCase {
  seed: Seed;
  mutation: string;
  bytes: Buffer;
  /** The mutation keeps the file valid: the result must equal the original's. */
  preserving: boolean;
}

// ---------------------------------------------------------------------------------------------
// Encodings

function utf16le(text: string, bom: boolean): Buffer {
  const body = Buffer.from(text, 'utf16le');
  return bom ? Buffer.concat([Buffer.from([0xff, 0xfe]), body]) : body;
}

function utf16be(text: string, bom: boolean): Buffer {
  const body = Buffer.from(text, 'utf16le');
  body.swap16();
  return bom ? Buffer.concat([Buffer.from([0xfe, 0xff]), body]) : body;
}

const utf8 = (text: string) => Buffer.from(text, 'utf8');
const crlf = (text: string) => text.replace(/\r?\n/g, '\r\n');
/** UTF-16 without a BOM is recognized by its zero bytes: the first two characters must be ASCII. */
const asciiStart = (text: string) => /^[\x01-\x7f]{2}/.test(text);

// ---------------------------------------------------------------------------------------------
// Mutations. Each is an arbitrary of FuzzCase for one seed.

/** Values at the edges of what a number can be, and text where a number should be. */
export const HOSTILE_NUMBERS = [
  '1e308',
  '1.7976931348623157e308',
  '1e309',
  '-1e308',
  '-0',
  '-0.0',
  '1e-320',
  '5e-324',
  '9007199254740993',
  '18446744073709551616',
  '-1',
  '-12.5',
  '-1000000',
  'NaN',
  'nan',
  'Infinity',
  '-Infinity',
  'inf',
  '-inf',
  '',
  '0x1F',
  '1,234',
  '1.2.3',
  '١٢٣',
  '1e',
  '.',
  '-',
];

const NUMBER_TOKEN = /-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/g;

function numberTokens(text: string): Array<{ index: number; length: number }> {
  const found: Array<{ index: number; length: number }> = [];
  for (const m of text.matchAll(NUMBER_TOKEN)) {
    found.push({ index: m.index!, length: m[0].length });
    if (found.length >= 4000) break;
  }
  return found;
}

function lines(text: string): string[] {
  return text.split('\n');
}

function fuzzCase(seed: Seed, mutation: string, bytes: Buffer, preserving: boolean): FuzzCase {
  // fast-check prints counterexamples with this, not with the megabytes of the case.
  return { seed, mutation, bytes, preserving, [fc.toStringMethod]: () => `${seed.name}: ${mutation} (${bytes.length} bytes)` } as FuzzCase;
}
const preserve = (seed: Seed, mutation: string, bytes: Buffer): FuzzCase => fuzzCase(seed, mutation, bytes, true);
const mangle = (seed: Seed, mutation: string, bytes: Buffer): FuzzCase => fuzzCase(seed, mutation, bytes, false);

/** Mutations that keep the content: Windows line ends and encodings, trailing whitespace, gzip. */
function preservingCase(seed: Seed): fc.Arbitrary<FuzzCase> {
  if (seed.bytes) return fc.constant(preserve(seed, 'gzip', gzipSync(seed.bytes)));
  const text = seed.text;
  const options: Array<fc.Arbitrary<FuzzCase>> = [
    fc.constant(preserve(seed, 'crlf', utf8(crlf(text)))),
    fc.constant(preserve(seed, 'utf8-bom', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8(text)]))),
    fc.constant(preserve(seed, 'utf8-bom+crlf', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8(crlf(text))]))),
    fc.constant(preserve(seed, 'utf16le-bom', utf16le(text, true))),
    // PowerShell's `>` in Windows PowerShell 5: UTF-16LE with a BOM and CRLF.
    fc.constant(preserve(seed, 'utf16le-bom+crlf', utf16le(crlf(text), true))),
    fc.constant(preserve(seed, 'utf16be-bom', utf16be(text, true))),
    fc.constant(preserve(seed, 'gzip', gzipSync(utf8(text)))),
    // Blank or whitespace-only lines after the last line, as editors and shell loops leave them.
    fc.constantFrom('\n', '\n\n\n', '\r\n', '\n  \n', '\n\t\n \n', '\n \n').map((tail) => preserve(seed, `trailing-whitespace(${JSON.stringify(tail)})`, utf8(text.trimEnd() + tail))),
    fc.constant(preserve(seed, 'no-final-newline', utf8(text.trimEnd()))),
  ];
  if (asciiStart(text)) {
    options.push(fc.constant(preserve(seed, 'utf16le', utf16le(text, false))), fc.constant(preserve(seed, 'utf16be', utf16be(text, false))));
  }
  return fc.oneof(...options);
}

/** Mutations that may break the file: the outcome must still be a sound Capture or an InputError. */
function manglingCase(seed: Seed, settings: CaseOptions): fc.Arbitrary<FuzzCase> {
  // A binary capture gets byte-level damage only: text mutations would just garble it.
  if (seed.bytes) return fc.oneof(...byteMutations(seed, seed.bytes, 4096));
  const bytes = utf8(seed.text);
  const n = bytes.length;
  const textLines = lines(seed.text);
  const tokens = numberTokens(seed.text);
  const at = fc.integer({ min: 0, max: n });
  const lineAt = fc.integer({ min: 0, max: Math.max(0, textLines.length - 1) });

  const options: Array<fc.Arbitrary<FuzzCase>> = [
    ...byteMutations(seed, bytes, 512),
    fc.tuple(lineAt, lineAt).map(([from, to]) => {
      const copy = [...textLines];
      copy.splice(to, 0, textLines[from]!);
      return mangle(seed, `duplicate-line ${from + 1}→${to + 1}`, utf8(copy.join('\n')));
    }),
    fc.integer({ min: 0, max: Math.max(0, textLines.length - 1) }).map((to) => {
      // The first non-blank line is the header of most text formats: repeat it.
      const header = textLines.find((line) => line.trim() !== '') ?? '';
      const copy = [...textLines];
      copy.splice(to, 0, header);
      return mangle(seed, `duplicate-header→${to + 1}`, utf8(copy.join('\n')));
    }),
    fc.constant(null).map(() => {
      // A header with one of its columns twice.
      const index = textLines.findIndex((line) => line.includes(','));
      if (index < 0) return mangle(seed, 'duplicate-column(none)', bytes);
      const copy = [...textLines];
      const first = copy[index]!.split(',')[0]!;
      copy[index] = `${copy[index]!.replace(/\r$/, '')},${first}`;
      return mangle(seed, 'duplicate-column', utf8(copy.join('\n')));
    }),
    fc.tuple(lineAt, fc.integer({ min: 1, max: 20 })).map(([from, count]) => {
      const copy = [...textLines];
      copy.splice(from, count);
      return mangle(seed, `drop-lines ${from + 1}+${count}`, utf8(copy.join('\n')));
    }),
    fc.tuple(lineAt, fc.integer({ min: 100_000, max: settings.hugeLineMax }), fc.constantFrom('a', '9', ',', '"', ' ', '{', '[', '-', '\\')).map(([where, length, ch]) => {
      const copy = [...textLines];
      copy.splice(where, 0, ch.repeat(length));
      return mangle(seed, `huge-line ${JSON.stringify(ch)}×${length}@${where + 1}`, utf8(copy.join('\n')));
    }),
    fc.tuple(at, fc.integer({ min: 100_000, max: settings.hugeLineMax })).map(([i, length]) => {
      // A line made longer in the middle (a kernel name of a megabyte).
      const copy = Buffer.concat([bytes.subarray(0, i), Buffer.alloc(length, 0x78), bytes.subarray(i)]);
      return mangle(seed, `long-run@${i}×${length}`, copy);
    }),
    fc.constantFrom('', ' ', '\n', '\r\n\r\n', '\ufeff', '\0', '{}', '[]', 'null', '""').map((content) => mangle(seed, `nearly-empty ${JSON.stringify(content)}`, utf8(content))),
    fc.constant(mangle(seed, 'bom-only-utf16', Buffer.from([0xff, 0xfe]))),
    at.map((cut) => {
      const gz = gzipSync(bytes);
      const end = Math.min(cut, gz.length - 1);
      return mangle(seed, `gzip-cut@${end}/${gz.length}`, gz.subarray(0, end));
    }),
    fc.integer({ min: 1, max: 8 }).map((k) => {
      // gzip whose deflate body is fine but whose trailer (CRC, length) is damaged.
      const gz = Buffer.from(gzipSync(bytes));
      for (let j = 1; j <= Math.min(k, gz.length - 10); j++) gz.writeUInt8(gz.readUInt8(gz.length - j) ^ 0xff, gz.length - j);
      return mangle(seed, `gzip-bad-trailer(${k})`, gz);
    }),
    fc.constant(null).map(() => {
      // Odd length UTF-16: the last byte of a character is missing.
      const body = utf16le(seed.text, true);
      return mangle(seed, 'utf16-odd-length', body.subarray(0, body.length - 1));
    }),
    fc.constant(mangle(seed, 'latin1', Buffer.from(seed.text, 'latin1'))),
  ];
  if (tokens.length) {
    const token = fc.integer({ min: 0, max: tokens.length - 1 });
    options.push(
      fc.array(fc.tuple(token, fc.constantFrom(...HOSTILE_NUMBERS)), { minLength: 1, maxLength: 6 }).map((edits) => {
        // Replace from the end so earlier offsets stay valid.
        const chosen = [...new Map(edits.map(([i, value]) => [i, value])).entries()].sort((a, b) => b[0] - a[0]);
        let text = seed.text;
        for (const [i, value] of chosen) {
          const { index, length } = tokens[i]!;
          text = text.slice(0, index) + value + text.slice(index + length);
        }
        return mangle(seed, `numbers ${chosen.map(([i, v]) => `${i}=${JSON.stringify(v)}`).join(' ')}`, utf8(text));
      }),
      token.map((i) => {
        // A negative duration or count: a minus sign in front of a number.
        const { index } = tokens[i]!;
        return mangle(seed, `negate#${i}`, utf8(seed.text.slice(0, index) + '-' + seed.text.slice(index)));
      }),
    );
  }
  return fc.oneof(...options);
}

/** Byte-level damage: cut short, noise, flipped, inserted and deleted bytes (up to `maxDelete`). */
function byteMutations(seed: Seed, bytes: Buffer, maxDelete: number): Array<fc.Arbitrary<FuzzCase>> {
  const n = bytes.length;
  const at = fc.integer({ min: 0, max: n });
  return [
    at.map((cut) => mangle(seed, `truncate@${cut}`, bytes.subarray(0, cut))),
    fc.uint8Array({ minLength: 0, maxLength: 4096 }).map((random) => mangle(seed, 'random-bytes', Buffer.from(random))),
    fc.array(fc.tuple(fc.integer({ min: 0, max: Math.max(0, n - 1) }), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 16 }).map((flips) => {
      const copy = Buffer.from(bytes);
      for (const [i, value] of flips) if (i < copy.length) copy[i] = value;
      return mangle(seed, `byte-flips(${flips.length})`, copy);
    }),
    fc.tuple(at, fc.uint8Array({ minLength: 1, maxLength: 64 })).map(([i, insert]) => mangle(seed, `insert@${i}`, Buffer.concat([bytes.subarray(0, i), Buffer.from(insert), bytes.subarray(i)]))),
    fc.tuple(at, fc.integer({ min: 1, max: maxDelete })).map(([i, length]) => mangle(seed, `delete@${i}+${length}`, Buffer.concat([bytes.subarray(0, i), bytes.subarray(i + length)]))),
  ];
}

export interface CaseOptions {
  /** Longest line the huge-line mutations write (characters). */
  hugeLineMax: number;
}

/** Cases for one parser: one in four keeps the file valid. */
export function caseArbitrary(seeds: readonly Seed[], options: CaseOptions = { hugeLineMax: 1_000_000 }): fc.Arbitrary<FuzzCase> {
  const seed = fc.constantFrom(...seeds);
  return fc.oneof({ arbitrary: seed.chain(preservingCase), weight: 1 }, { arbitrary: seed.chain((s) => manglingCase(s, options)), weight: 3 });
}
