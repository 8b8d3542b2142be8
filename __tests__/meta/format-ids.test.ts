/**
 * Formats are known to ingest/ alone: a later stage asks what a capture can hold (the registry's
 * capabilities, vendor, suite, the importer's own sniff), never which format it is. Here no file of
 * src/ outside src/ingest/ compares a format id: `=== 'ncu-csv'`, `!== 'max-generate'`,
 * `case 'kineto-json':`. The detector is tried on a deliberate violation first, so it can fail.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { FORMAT_IDS } from '../../src/model/capture.js';
import { ROOT } from '../helpers/fake-github-runner.js';

const SRC = join(ROOT, 'src');
const ids = FORMAT_IDS.map((id) => id.replace(/[-]/g, '\\-')).join('|');
const quoted = `(?:'(?:${ids})'|"(?:${ids})"|\`(?:${ids})\`)`;
/** A comparison with a format id on either side, or a switch case on one. */
const COMPARISON = new RegExp(`(?:[!=]==?\\s*${quoted})|(?:${quoted}\\s*[!=]==?)|(?:\\bcase\\s+${quoted}\\s*:)`);

function comparisons(text: string): string[] {
  return text.split('\n').filter((line) => COMPARISON.test(line) && !/^\s*(\/\/|\*)/.test(line));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('format ids outside ingest/', () => {
  it('the detector finds a comparison of a format id (a deliberate violation)', () => {
    expect(comparisons("const replayed = capture.source.format === 'ncu-csv';")).toHaveLength(1);
    expect(comparisons('if ("max-generate" !== s.format) return;')).toHaveLength(1);
    expect(comparisons("    case 'kineto-json':")).toHaveLength(1);
    // Naming a format as data is no comparison: a planned output says what it is.
    expect(comparisons("outputs: [{ path: file, kind: 'gpu-snapshot-jsonl', analysis: true }],")).toEqual([]);
    expect(comparisons("if (kind === 'workload-console') return;")).toEqual([]);
  });

  it('no file of src/ outside src/ingest/ compares one', () => {
    const found = sourceFiles(SRC)
      .filter((path) => !relative(SRC, path).startsWith('ingest/'))
      .flatMap((path) => comparisons(readFileSync(path, 'utf8')).map((line) => `${relative(ROOT, path)}: ${line.trim()}`));
    expect(found).toEqual([]);
  });
});
