/** @type {import('jest').Config} */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  // tsconfig's isolatedModules: ts-jest transpiles each file alone; `npx tsc` (CI) typechecks.
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.test.json', diagnostics: { ignoreCodes: [151002] } }] },
  testMatch: ['<rootDir>/__tests__/**/*.test.ts'],
  // One worker per core (jest's own default leaves one core idle: on 2 cores, one file at a time).
  maxWorkers: '100%',
  // A test slower than this shows itself; the few that need longer say so, with why, beside them.
  testTimeout: 20000,
  // The run's folder where large captures, read or analyzed once, are shared between test files.
  globalSetup: '<rootDir>/__tests__/helpers/global-setup.mjs',
  globalTeardown: '<rootDir>/__tests__/helpers/global-teardown.mjs',
};
