/**
 * A healthy reading is a claim like any other, and it needs its evidence: a window that holds decode
 * steps (profiler steps, sampling launches, decode ranges or the workload's decode metrics), a GPU
 * that is busy in the steady window, and no competing finding at warning or above. A rule whose
 * `meta.claim` is `healthy` says only what its kernel mix looks like; `diagnose` keeps its finding
 * only when this module finds the claim's evidence, and otherwise says why in a note.
 */
import type { Profile } from '../model/profile.js';
import type { Severity } from '../model/report.js';
import { DECODE_TOKENS_MAX } from '../classify/classify.js';
import { decodeSteps } from './decode-steps.js';
import { busyReadings, familyTotals } from './profile-measures.js';

/**
 * Findings that do not compete with a healthy reading: unfused norms and RoPE are small elementwise
 * kernels below the linear layers and attention that the reading is about (it says the norms sit
 * below), so both can be true of one run.
 */
const COMPATIBLE_WITH_HEALTHY: ReadonlySet<string> = new Set(['unfused-norm-rope']);

/** Steps, sampling launches or decode ranges that make a decode window. */
export const HEALTH_MIN_DECODE_STEPS = 3;
/** A steady reading below this says the GPU waited, so the kernel mix is not what the run is. */
export const HEALTH_MIN_BUSY_PERCENT = 50;

/**
 * The matmuls of the window take decode-sized inputs: the recorded input shapes (tokens per op at
 * most DECODE_TOKENS_MAX, for the most-used shape), and no GEMM is prefill-shaped. One decode step
 * captured alone (a serving engine's graph replay) shows itself this way.
 */
function decodeSizedInputs(profile: Profile): string | undefined {
  if (familyTotals(profile, ['gemm-prefill']).ns > 0) return undefined;
  const shapes = profile.timeline?.matmulInputs?.shapes ?? [];
  const top = shapes.reduce<(typeof shapes)[number] | undefined>((best, shape) => (!best || shape.ops > best.ops ? shape : best), undefined);
  if (!top || top.rows.length === 0) return undefined;
  const tokens = top.rows.reduce((product, n) => product * n, 1);
  return tokens > 0 && tokens <= DECODE_TOKENS_MAX ? `${top.op} takes ${top.rows.join('×')} tokens` : undefined;
}

/** Why the window is not a decode loop, or undefined when it is. */
function noDecodeWindow(profile: Profile): string | undefined {
  const decode = decodeSteps(profile, { minDecodeSteps: HEALTH_MIN_DECODE_STEPS, minStepGrowth: Number.POSITIVE_INFINITY });
  if (decode.prefillOnly) return `the window holds no decode step (${decode.prefillOnly})`;
  if (decode.signals.length > 0) return undefined;
  const steps = profile.timeline?.steps.length ?? 0;
  if (steps >= HEALTH_MIN_DECODE_STEPS) return undefined;
  if (decodeSizedInputs(profile)) return undefined;
  return 'nothing in the window shows decode steps (no profiler steps, sampling launches, decode ranges, decode metrics or decode-sized matmul inputs)';
}

/** Why the GPU is not shown busy, or undefined when a steady reading says it is (or none says otherwise). */
function notBusy(profile: Profile): string | undefined {
  const low = busyReadings(profile).filter((r) => r.steady && r.percent < HEALTH_MIN_BUSY_PERCENT);
  if (!low.length) return undefined;
  const reading = low[0]!;
  return `the GPU is busy ${Math.round(reading.percent * 10) / 10} % of the steady window (${reading.signal})`;
}

/**
 * Why a health claim is withheld, one clause per missing piece of evidence; empty when it stands.
 * `others` are the run's other findings (id and severity).
 */
export function healthClaimWithheld(profile: Profile, others: ReadonlyArray<{ id: string; severity: Severity }>): string[] {
  const why: string[] = [];
  const window = noDecodeWindow(profile);
  if (window) why.push(window);
  const busy = notBusy(profile);
  if (busy) why.push(busy);
  const competing = [...new Set(others.filter((f) => f.severity !== 'info' && !COMPATIBLE_WITH_HEALTHY.has(f.id)).map((f) => `${f.id} (${f.severity})`))];
  if (competing.length) why.push(`competing finding${competing.length === 1 ? '' : 's'} ${competing.join(', ')}`);
  return why;
}
