/**
 * The runner of each step role. A role added to StepRole (plan-types.ts) does not compile until it
 * has a row here.
 */
import { benchmarkRunner, benchmarkWarmupRunner } from './benchmark.js';
import { preflightRunner } from './preflight.js';
import { profileRunner, profileStatsRunner } from './profile.js';
import { serveRunner, serveStopRunner } from './serve.js';
import type { StepRunners } from './types.js';
import { measuredRunner, warmupRunner } from './workload.js';

export const STEP_RUNNERS: StepRunners = {
  preflight: preflightRunner,
  warmup: warmupRunner,
  measured: measuredRunner,
  profile: profileRunner,
  'profile-stats': profileStatsRunner,
  serve: serveRunner,
  'benchmark-warmup': benchmarkWarmupRunner,
  benchmark: benchmarkRunner,
  'serve-stop': serveStopRunner,
};
