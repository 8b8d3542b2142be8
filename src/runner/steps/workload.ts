/**
 * `warmup` and `measured`: the workload itself, unprofiled (a command workload, `max generate`, or
 * the sampler wrapping either). A failure stops the run or leaves a gap, as the plan says.
 */
import { commandRunner } from './command.js';
import type { TimedRunner } from './types.js';

export const warmupRunner: TimedRunner = commandRunner();
export const measuredRunner: TimedRunner = commandRunner();
