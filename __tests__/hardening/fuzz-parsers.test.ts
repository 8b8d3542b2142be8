/**
 * Property-based fuzzing of every importer, seeded from the real captures in __tests__/fixtures:
 * truncation, random bytes, byte flips, inserted and deleted runs, duplicate lines and headers,
 * huge lines, hostile numbers (1e308, -0, 1e-320, 2^53+1, NaN, Infinity, negatives), nearly empty
 * files, gzip cut short or with a bad trailer, odd-length UTF-16, Latin-1; and the variants that keep
 * a file valid (CRLF, UTF-8 BOM, UTF-16LE/BE with and without a BOM, trailing whitespace, gzip).
 * Each case: a sound Capture or a one-line InputError naming the file, within 2 s; valid variants
 * read exactly like the original. A modest number of cases per importer here (FUZZ_RUNS, default
 * 60; huge lines up to 500 KB); bench/fuzz-parsers.mjs runs 10,000+ per importer with the same
 * harness (huge lines up to 1 MB). FUZZ_SEED picks another sequence.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { IMPORTERS } from '../../src/ingest/registry.js';
import type { FormatId } from '../../src/model/capture.js';
import { captureProblems, caseArbitrary, errorProblems, loadSeeds, runCase, seedOutcome, type Outcome } from './fuzz-harness.js';

const FIXTURES = resolve(import.meta.dirname, '..', 'fixtures');
const RUNS = Number(process.env.FUZZ_RUNS ?? 60);
const SEED = Number(process.env.FUZZ_SEED ?? 20261130);
const CASE_MS = 2000;

const seeds = loadSeeds(FIXTURES, 256 * 1024);
const dir = mkdtempSync(join(tmpdir(), 'pg-fuzz-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('every importer has real captures to start from', () => {
  expect(IMPORTERS.filter((importer) => !seeds.has(importer.id)).map((importer) => importer.id)).toEqual([]);
  // Several fixtures per text format, so that mutations meet different layouts.
  expect(seeds.get('nsys-stats')!.length).toBeGreaterThanOrEqual(10);
  expect(seeds.get('kineto-json')!.length).toBeGreaterThanOrEqual(3);
});

describe.each(IMPORTERS.map((importer) => importer.id))('%s', (format: FormatId) => {
  const path = join(dir, format);
  const originals = new Map<string, Outcome>();

  it('reads each real capture soundly, or refuses it in one line', async () => {
    for (const seed of seeds.get(format) ?? []) {
      const outcome = await seedOutcome(seed, path);
      originals.set(seed.name, outcome);
      const problems = outcome.ok ? captureProblems(outcome.capture) : errorProblems(outcome.error, path);
      expect({ seed: seed.name, problems }).toEqual({ seed: seed.name, problems: [] });
    }
    // Most fixtures of a format are good captures.
    expect([...originals.values()].filter((o) => o.ok).length).toBeGreaterThan(0);
  });

  it(`mutated: a sound capture or one InputError line, within ${CASE_MS} ms; valid variants read the same`, async () => {
    await fc.assert(
      fc.asyncProperty(caseArbitrary(seeds.get(format) ?? [], { hugeLineMax: 500_000 }), async (c) => {
        const result = await runCase(c, path, originals.get(c.seed.name)!);
        if (result.ms > CASE_MS) result.problems.push(`took ${Math.round(result.ms)} ms`);
        if (result.problems.length) {
          throw new Error(`${c.seed.name}, ${c.mutation} (${c.bytes.length} bytes): ${result.problems.join('; ')}`);
        }
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  });
});
