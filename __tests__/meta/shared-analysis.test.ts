/** The test run's shared analyses (helpers/shared-analysis.ts): made once, kept for the run, equal to a fresh one. */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { analyze } from '../../src/pipeline/analyze.js';
import { analyzedOnce, keptReportFile } from '../helpers/shared-analysis.js';

const CAPTURE = join(import.meta.dirname, '..', 'fixtures', 'nsys', 'nsys_healthy_kern_sum.csv');

it('jest gives the run a folder, where an analysis is kept once and read back equal to a fresh one', async () => {
  const dir = process.env['PROFILE_GATE_TEST_CACHE'];
  expect(dir).toBeDefined();
  expect(existsSync(dir!)).toBe(true);
  // Other files of the run add their own analyses to the folder meanwhile: this capture's file is the one watched.
  const file = keptReportFile([CAPTURE])!;
  expect(file.startsWith(dir!)).toBe(true);
  const first = await analyzedOnce([CAPTURE]);
  expect(existsSync(file)).toBe(true);
  const written = statSync(file).mtimeMs;
  const second = await analyzedOnce([CAPTURE]);
  // Read back, not made again: the kept file is the same write.
  expect(statSync(file).mtimeMs).toBe(written);
  const fresh = await analyze({ inputs: [CAPTURE], now: () => new Date(first.generatedAt) });
  expect(second).toEqual(JSON.parse(JSON.stringify(fresh)));
  expect(first).toEqual(second);
});
