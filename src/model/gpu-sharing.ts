/**
 * Whether another process shared the GPU during each measured run, as the GPU sampler saw it
 * (gpu-snapshot version 2), and the rule that says a run was shared. The Profile and the Report
 * carry it; the gate (src/compare/shared-gpu.ts) reads it.
 */
import { z } from 'zod';
import { GpuNeighbourSchema, type GpuNeighbour } from './capture.js';

/**
 * A process is counted as a neighbour once listed in this many samples of a run: a context still
 * being torn down after the job's previous run may be listed once. Work seen while no process of the
 * command was on the GPU yet (busy-before) counts from one sample: nothing of the job was there.
 */
export const MIN_NEIGHBOUR_SAMPLES = 2;

/**
 * A listed process counts once its highest SM utilization in the run reaches this: a process holds
 * its CUDA context while it pauses, so being listed is not being busy. NVML's probe on an H100
 * (driver 580.159.04) read an idle neighbour's context at 0-1 % SM, and a neighbour running random
 * bf16 matmul bursts at up to 11-20 % within four half-second samples (50 % beside a decode). Where
 * the sampler cannot read per-process SM use (nvidia-smi), a listed process counts.
 */
export const BUSY_SM_PERCENT = 2;

/** Whether a neighbour as seen in a run counts as the GPU shared (MIN_NEIGHBOUR_SAMPLES, BUSY_SM_PERCENT). */
export function neighbourCounts(neighbour: GpuNeighbour): boolean {
  if (neighbour.evidence === 'busy-before') return true;
  return neighbour.samples >= MIN_NEIGHBOUR_SAMPLES && (neighbour.maxSmPercent === null || neighbour.maxSmPercent >= BUSY_SM_PERCENT);
}

/**
 * One measured run as its GPU recording saw it: its number (1-based, in the order the recordings
 * were read), whether the recording could list the GPU's processes at all (`listed`), whether
 * another's work counted as sharing the GPU (`shared`), the neighbours seen (counted or not), the
 * pids it could not place, and the metric samples the run gave, by metric (absent where the runs'
 * samples cannot be told apart: then no run can be left out on its own).
 */
export const SharedRunSchema = z.object({
  run: z.number().int().positive(),
  listed: z.boolean(),
  shared: z.boolean(),
  neighbours: z.array(GpuNeighbourSchema),
  unknownPids: z.array(z.number().int().nonnegative()).default([]),
  samples: z.record(z.string(), z.number().int().nonnegative()).optional(),
});
export type SharedRun = z.infer<typeof SharedRunSchema>;

/** The measured runs of one side as the GPU sampler saw them (schema 5; absent where no recording listed the GPU's processes). */
export const GpuSharingSchema = z.object({ runs: z.array(SharedRunSchema) });
export type GpuSharing = z.infer<typeof GpuSharingSchema>;
