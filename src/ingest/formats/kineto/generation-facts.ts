/**
 * What a Kineto trace says about the forward passes in its window, for telling decode steps from a
 * single prefill or forward:
 * - with `record_shapes`, the activation shapes of the outermost matmul ops (`aten::linear`, or an
 *   `aten::mm` that no linear encloses), in order of first use: a generate loop without a KV cache
 *   shows one shape per step, growing by a token (8×512, 8×513, …);
 * - user annotations whose names say a generation phase (SGLang's `step[EXTEND bs=15 toks=15360]`,
 *   `step[DECODE …]`), counted.
 *
 * Memory stays bounded on multi-GB traces: one entry per distinct shape (at most MAX_SHAPES; the
 * ops of any further shape are only counted) and one entry per distinct annotation name.
 */
import type { MatmulInputs, PhaseRanges } from '../../../model/capture.js';

/** Distinct shapes kept; a re-prefill over this many steps has long shown itself. */
export const MAX_SHAPES = 512;
/** Characters kept of an annotation name shown as an example. */
const NAME_CHARS = 200;

/** Annotation names that say decode: a decode step, or a batch with decode requests in it. */
const DECODE_NAME = /decode|(?:^|[^a-z])generation_[1-9]/i;
/** A VAE or image/audio decoder is no token decode. */
const NOT_TOKEN_DECODE = /vae|image|latent|video|audio|jpe?g|png/i;
/** Annotation names that say prefill: SGLang's EXTEND mode, a batch with context (prompt) requests. */
const PREFILL_NAME = /prefill|extend|(?:^|[^a-z])context_[1-9]/i;

interface ShapeSum {
  op: string;
  rows: number[];
  ops: number;
  firstNs: number;
  lastNs: number;
}

export type Phase = 'decode' | 'prefill' | undefined;

/** The generation phase an annotation's name says, if any. */
export function phaseOfName(name: string): Phase {
  if (DECODE_NAME.test(name) && !NOT_TOKEN_DECODE.test(name)) return 'decode';
  if (PREFILL_NAME.test(name)) return 'prefill';
  return undefined;
}

export class GenerationFacts {
  private readonly shapes = new Map<string, ShapeSum>();
  private otherOps = 0;
  private readonly ranges = { decode: 0, prefill: 0, decodeName: undefined as string | undefined, prefillName: undefined as string | undefined };

  /** One outermost matmul op with its activation shape less the feature dim. */
  matmul(op: string, rows: readonly number[], startNs: number): void {
    const key = `${op}|${rows.join(',')}`;
    const known = this.shapes.get(key);
    if (known) {
      known.ops++;
      if (startNs < known.firstNs) known.firstNs = startNs;
      if (startNs > known.lastNs) known.lastNs = startNs;
      return;
    }
    if (this.shapes.size >= MAX_SHAPES) {
      this.otherOps++;
      return;
    }
    this.shapes.set(key, { op, rows: [...rows], ops: 1, firstNs: startNs, lastNs: startNs });
  }

  /** One annotation range whose name says a phase (phaseOfName). */
  range(phase: Phase, name: string): void {
    if (phase === 'decode') {
      this.ranges.decode++;
      this.ranges.decodeName ??= name.slice(0, NAME_CHARS);
    } else if (phase === 'prefill') {
      this.ranges.prefill++;
      this.ranges.prefillName ??= name.slice(0, NAME_CHARS);
    }
  }

  matmulInputs(): MatmulInputs | undefined {
    if (this.shapes.size === 0) return undefined;
    const shapes = [...this.shapes.values()].sort((a, b) => a.firstNs - b.firstNs);
    // Times from the first of these ops: the CPU ops' clock starts at the first op read, and a trace
    // need not list its threads' ops in time order.
    const origin = shapes[0]!.firstNs;
    return { shapes: shapes.map((shape) => ({ ...shape, firstNs: shape.firstNs - origin, lastNs: shape.lastNs - origin })), otherOps: this.otherOps };
  }

  phaseRanges(): PhaseRanges | undefined {
    const { decode, prefill, decodeName, prefillName } = this.ranges;
    if (decode === 0 && prefill === 0) return undefined;
    return { decode, prefill, ...(decodeName !== undefined ? { decodeName } : {}), ...(prefillName !== undefined ? { prefillName } : {}) };
  }
}
