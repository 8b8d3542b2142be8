// jest globalSetup and globalTeardown: one folder per test run where a large real capture, once
// read or analyzed, is kept for every test file that asserts on it (see shared-analysis.ts).
// Workers inherit the variable; the folder goes when the run ends, so nothing outlives the run's code.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const CACHE_VARIABLE = 'PROFILE_GATE_TEST_CACHE';

export function setup() {
  process.env[CACHE_VARIABLE] = mkdtempSync(join(tmpdir(), 'pg-test-run-'));
}

export function teardown() {
  const dir = process.env[CACHE_VARIABLE];
  if (dir) rmSync(dir, { recursive: true, force: true });
  delete process.env[CACHE_VARIABLE];
}
