/**
 * `benchmark-warmup` and `benchmark`: `max benchmark` against the running server, which is watched
 * while they run (its death fails the step at once instead of at the benchmark's own timeout).
 */
import { commandRunner } from './command.js';
import type { TimedRunner } from './types.js';

export const benchmarkWarmupRunner: TimedRunner = commandRunner({ watchServer: true });
export const benchmarkRunner: TimedRunner = commandRunner({ watchServer: true });
