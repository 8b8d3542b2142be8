import { z } from 'zod';
import { ownValue } from './own-key.js';

/** The canonical throughput and latency metrics, with the unit and the direction that is better. */
export type Direction = 'higher' | 'lower';

export interface MetricInfo {
  unit: string;
  direction: Direction;
  label: string;
}

export const METRIC_CATALOG = {
  decode_tok_s: { unit: 'tok/s', direction: 'higher', label: 'Decode throughput' },
  prefill_tok_s: { unit: 'tok/s', direction: 'higher', label: 'Prefill throughput' },
  ttft_ms: { unit: 'ms', direction: 'lower', label: 'Time to first token' },
  tpot_ms: { unit: 'ms', direction: 'lower', label: 'Time per output token' },
  itl_ms: { unit: 'ms', direction: 'lower', label: 'Inter-token latency' },
  latency_ms: { unit: 'ms', direction: 'lower', label: 'Total latency' },
  request_throughput: { unit: 'req/s', direction: 'higher', label: 'Request throughput' },
  startup_ms: { unit: 'ms', direction: 'lower', label: 'Startup time' },
  prompt_tokens: { unit: 'tokens', direction: 'higher', label: 'Prompt size' },
  output_tokens: { unit: 'tokens', direction: 'higher', label: 'Output size' },
  failed_requests: { unit: 'requests', direction: 'lower', label: 'Failed requests' },
  // The median step of the profiled window (its ProfilerStep#N ranges as the GPU saw them): the gate's
  // step time where neither side's workload states one (src/compare/profiler-steps.ts).
  profiler_step_ms: { unit: 'ms', direction: 'lower', label: 'Step time under the profiler' },
  // What the workload says its profiled window holds: the step count of time per step (diagnose/step-count.ts).
  profile_steps: { unit: 'steps', direction: 'higher', label: 'Steps in the profiled window' },
} as const satisfies Record<string, MetricInfo>;

/**
 * The metrics this version knows: the only names an importer writes into a capture (a workload's
 * metric line of another name is dropped and counted). A profile and a report carry names as
 * strings: a report of another version may hold a name this one does not know, which is compared
 * and shown by its name (metricInfo's fallback).
 */
export type MetricName = keyof typeof METRIC_CATALOG;

export const METRIC_NAMES = Object.keys(METRIC_CATALOG) as MetricName[];

export const MetricNameSchema = z.enum(METRIC_NAMES as [MetricName, ...MetricName[]]);

export function isMetricName(name: string): name is MetricName {
  return ownValue<MetricInfo>(METRIC_CATALOG, name) !== undefined;
}

/** Metrics that describe the workload rather than its speed; they are reported but never gated. */
export const DESCRIPTIVE_METRICS: ReadonlySet<string> = new Set<MetricName>(['prompt_tokens', 'output_tokens', 'profile_steps']);

export function metricInfo(name: string): MetricInfo {
  return ownValue(METRIC_CATALOG as Record<string, MetricInfo>, name) ?? { unit: '', direction: 'higher', label: name };
}
