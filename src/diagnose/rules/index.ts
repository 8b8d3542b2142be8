/** Every diagnosis rule, sorted by id (one file per rule, named after its id). */
import type { Rule } from '../rule.js';
import captureIncludesWarmup from './capture-includes-warmup.js';
import dominantKernel from './dominant-kernel.js';
import emptyCapture from './empty-capture.js';
import gpuThrottled from './gpu-throttled.js';
import graphLevelTrace from './graph-level-trace.js';
import healthyDenseDecode from './healthy-dense-decode.js';
import healthyMoeDecode from './healthy-moe-decode.js';
import hostBound from './host-bound.js';
import moeRoutingHeavy from './moe-routing-heavy.js';
import quantPrepHeavy from './quant-prep-heavy.js';
import rePrefill from './re-prefill.js';
import unfusedAttention from './unfused-attention.js';
import unfusedNormRope from './unfused-norm-rope.js';

// Keep sorted by id; a test checks it.
export const RULES: readonly Rule<any>[] = [
  captureIncludesWarmup,
  dominantKernel,
  emptyCapture,
  gpuThrottled,
  graphLevelTrace,
  healthyDenseDecode,
  healthyMoeDecode,
  hostBound,
  moeRoutingHeavy,
  quantPrepHeavy,
  rePrefill,
  unfusedAttention,
  unfusedNormRope,
];
