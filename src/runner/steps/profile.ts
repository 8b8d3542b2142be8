/**
 * `profile` runs the workload under the profiler (also the deep dive's ncu run); `profile-stats`
 * turns its report into tables, and is skipped when the profiled run of its side failed. Either
 * failing leaves the report without a kernel profile. In serve mode the profiled run is a traced
 * benchmark window, and fails when the server dies under it.
 */
import { commandRunner } from './command.js';
import type { TimedRunner } from './types.js';

const lacks = () => 'kernel profile';

export const profileRunner: TimedRunner = { ...commandRunner({ watchServer: true }), lacks };

export const profileStatsRunner: TimedRunner = {
  ...commandRunner(),
  lacks,
  skipWhy: (step, progress) => (progress.failed('profile', step.side) ? 'the profiled run failed' : undefined),
};
