/** Every diagnosis rule, sorted by id (one file per rule, named after its id). */
import type { Rule } from '../rule.js';
import captureIncludesWarmup from './capture-includes-warmup.js';
import copyHeavy from './copy-heavy.js';
import dominantKernel from './dominant-kernel.js';
import emptyCapture from './empty-capture.js';
import gpuThrottled from './gpu-throttled.js';
import graphLevelTrace from './graph-level-trace.js';
import gridTooSmall from './grid-too-small.js';
import healthyDenseDecode from './healthy-dense-decode.js';
import healthyMoeDecode from './healthy-moe-decode.js';
import hostBound from './host-bound.js';
import kernelComputeBound from './kernel-compute-bound.js';
import kernelLatencyBound from './kernel-latency-bound.js';
import kernelMemoryBound from './kernel-memory-bound.js';
import lowOccupancy from './low-occupancy.js';
import moeRoutingHeavy from './moe-routing-heavy.js';
import quantPrepHeavy from './quant-prep-heavy.js';
import rePrefill from './re-prefill.js';
import uncoalescedAccess from './uncoalesced-access.js';
import unfusedAttention from './unfused-attention.js';
import unfusedNormRope from './unfused-norm-rope.js';

// Keep sorted by id; a test checks it.
export const RULES: readonly Rule<any>[] = [
  captureIncludesWarmup,
  copyHeavy,
  dominantKernel,
  emptyCapture,
  gpuThrottled,
  graphLevelTrace,
  gridTooSmall,
  healthyDenseDecode,
  healthyMoeDecode,
  hostBound,
  kernelComputeBound,
  kernelLatencyBound,
  kernelMemoryBound,
  lowOccupancy,
  moeRoutingHeavy,
  quantPrepHeavy,
  rePrefill,
  uncoalescedAccess,
  unfusedAttention,
  unfusedNormRope,
];
