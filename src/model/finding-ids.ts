/**
 * The finding ids: one per diagnosis rule (src/diagnose/rules/<id>.ts), a closed type, so a misspelt
 * id in the code fails to compile and a misspelt id from a user (fail-on) is refused with the known
 * list. The rule registry and this list are held equal by __tests__/meta/rule-parity.test.ts.
 * A stored report may carry ids of another version; it is read as text (FindingSchema's `id`), and
 * anything that acts on an id (failing the job, the action's `findings` output) checks it first.
 */

export const FINDING_IDS = [
  'capture-includes-warmup',
  'communication-bound',
  'copy-heavy',
  'dominant-kernel',
  'empty-capture',
  'gpu-throttled',
  'graph-level-trace',
  'grid-too-small',
  'healthy-dense-decode',
  'healthy-moe-decode',
  'host-bound',
  'kernel-compute-bound',
  'kernel-latency-bound',
  'kernel-memory-bound',
  'low-occupancy',
  'moe-routing-heavy',
  'quant-prep-heavy',
  'rank-imbalance',
  're-prefill',
  'transfer-bound',
  'uncoalesced-access',
  'unfused-attention',
  'unfused-norm-rope',
] as const;

export type FindingId = (typeof FINDING_IDS)[number];

const KNOWN: ReadonlySet<string> = new Set(FINDING_IDS);

export function isFindingId(id: string): id is FindingId {
  return KNOWN.has(id);
}

/** "unknown finding id 'x' (known: a, b, …)": one line, the whole list. */
export function unknownFindingId(id: string): string {
  return `unknown finding id '${id}' (known: ${FINDING_IDS.join(', ')})`;
}
