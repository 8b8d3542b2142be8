/** The test run's shared analyses (helpers/shared-analysis.ts): made once, kept for the run, equal to a fresh one. */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { analyze } from '../../src/pipeline/analyze.js';
import { analyzedOnce } from '../helpers/shared-analysis.js';

const CAPTURE = join(import.meta.dirname, '..', 'fixtures', 'nsys', 'nsys_healthy_kern_sum.csv');

it('jest gives the run a folder, where an analysis is kept once and read back equal to a fresh one', async () => {
  const dir = process.env['PROFILE_GATE_TEST_CACHE'];
  expect(dir).toBeDefined();
  expect(existsSync(dir!)).toBe(true);
  const kept = () => readdirSync(dir!).filter((name) => name.startsWith('report-'));
  const before = kept().length;
  const first = await analyzedOnce([CAPTURE]);
  const second = await analyzedOnce([CAPTURE]);
  expect(kept().length).toBeLessThanOrEqual(before + 1);
  expect(kept().length).toBeGreaterThanOrEqual(1);
  const fresh = await analyze({ inputs: [CAPTURE], now: () => new Date(first.generatedAt) });
  expect(second).toEqual(JSON.parse(JSON.stringify(fresh)));
  expect(first).toEqual(second);
});
