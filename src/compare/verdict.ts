/**
 * The one rule for failing: `judge` returns the verdict together with its causes, as data; the
 * job summary, the job's failure message and the CLI render their lines (src/report/verdict-lines.ts).
 *
 * Without a baseline the findings alone decide. A finding counts when it is primary (a secondary one
 * counts only as an error) and its severity is warning or error; info findings never count.
 * - fail: a counted finding whose id is in fail-on, at fail-on-severity or above (default error:
 *   conclusive evidence);
 * - warn: any other counted finding: a warning of a fail-on id below fail-on-severity (evidence
 *   there but not conclusive), or a finding whose id is not in fail-on, an error included;
 * - pass: nothing counted.
 * With a baseline the comparison's rows decide (src/compare/gate.ts makes them; a finding in fail-on
 * fails only when it is new since the baseline, at fail-on-severity): invalid beats fail beats
 * insufficient-data beats warn beats pass.
 * Whether a verdict fails the job is the workflow's choice (`failsJob`, fail-verdicts): fail and
 * invalid by default. A fail that a reviewer accepted on the pull request (src/compare/acceptance.ts)
 * is `accepted`, which passes unless fail-verdicts lists it.
 */
import type { ComparisonRow, DecisionCause, Finding, Verdict } from '../model/report.js';
import { isPrimary, SEVERITY_RANK } from '../model/decision.js';
import type { FindingId } from '../model/finding-ids.js';

export const DEFAULT_FAIL_ON: readonly FindingId[] = ['re-prefill', 'unfused-attention'];

/** The severities fail-on-severity takes: the least severity of a fail-on finding that fails. */
export const FAIL_ON_SEVERITIES = ['error', 'warning'] as const;
export type FailOnSeverity = (typeof FAIL_ON_SEVERITIES)[number];
/** Only conclusive evidence (an error) fails by default; a warning warns. */
export const DEFAULT_FAIL_ON_SEVERITY: FailOnSeverity = 'error';

/** The verdicts a workflow may let fail the job (fail-verdicts); pass never does. */
export const FAILABLE_VERDICTS = ['fail', 'invalid', 'insufficient-data', 'warn', 'accepted'] as const satisfies readonly Verdict[];
export type FailableVerdict = (typeof FAILABLE_VERDICTS)[number];
/**
 * A regression, and a comparison that could not stand (environment mismatch, throttling), fail the
 * job. insufficient-data passes it with a warning annotation (compared too few samples to decide):
 * add it to fail the job on it too. accepted (a fail a reviewer accepted) passes it: add it to refuse
 * acceptances.
 */
export const DEFAULT_FAIL_VERDICTS: readonly FailableVerdict[] = ['fail', 'invalid'];

/** Whether a verdict fails the job under the workflow's fail-verdicts. */
export function failsJob(verdict: Verdict, failVerdicts: readonly string[] = DEFAULT_FAIL_VERDICTS): boolean {
  return verdict !== 'pass' && failVerdicts.includes(verdict);
}

/** What the verdict needs of a finding (a full Finding fits). */
export type VerdictFinding = Pick<Finding, 'id' | 'severity'> & Partial<Pick<Finding, 'message' | 'evidence' | 'basis'>> & { secondary?: boolean };

/** Which findings fail: their ids, and the least severity that fails. */
export interface FailOn {
  ids: readonly string[];
  severity: FailOnSeverity;
}

const RANK = SEVERITY_RANK;

function failOnOf(failOn: readonly string[] | FailOn): FailOn {
  return Array.isArray(failOn) ? { ids: failOn as readonly string[], severity: DEFAULT_FAIL_ON_SEVERITY } : (failOn as FailOn);
}

/** The finding fails the gate under fail-on: its id is listed and its severity reaches fail-on-severity. */
export function failsOn(finding: Pick<VerdictFinding, 'id' | 'severity'>, failOn: readonly string[] | FailOn): boolean {
  const policy = failOnOf(failOn);
  return policy.ids.includes(finding.id) && RANK[finding.severity] >= RANK[policy.severity];
}

/** Secondary findings are explained by a primary one; they count only when they are errors (src/model/decision.ts). */
export { isPrimary };

/** The strongest of a finding id's hits (the one whose evidence its line shows). */
export function strongest<F extends VerdictFinding>(findings: readonly F[]): F | undefined {
  return findings.reduce<F | undefined>((best, f) => (!best || RANK[f.severity] > RANK[best.severity] ? f : best), undefined);
}

/** A check that keeps a comparison from standing, as its cause (what the check saw). */
export type InvalidCheck = Extract<DecisionCause, { kind: 'invalid' }>;

/** What the comparison against a baseline found, as the verdict reads it. */
export interface ComparisonOutcome {
  /** Why the comparison cannot stand (environment mismatch, throttling), one each. */
  invalid: readonly InvalidCheck[];
  /** Each row's status and the cause it gives (src/model/decision.ts rowCause). */
  rows: readonly { status: ComparisonRow['status']; cause?: DecisionCause }[];
  /** Gated metrics the baseline has but the comparison could not compare. */
  noThroughput: boolean;
  /** Why nothing was gated, when nothing was: then a comparison that finds nothing is insufficient-data, not a pass. */
  nothingGated?: Extract<DecisionCause, { kind: 'nothing-gated' }>;
}

export interface Judgement {
  verdict: Verdict;
  /** What decides the verdict, as data, most decisive first: for fail, exactly what fails it. */
  causes: DecisionCause[];
}

function findingsJudgement(findings: readonly VerdictFinding[], failOn: FailOn): Judgement {
  const counted = findings.filter((f) => isPrimary(f) && f.severity !== 'info');
  const byId = new Map<string, VerdictFinding[]>();
  for (const f of counted) byId.set(f.id, [...(byId.get(f.id) ?? []), f]);
  const top = [...byId.values()].map((hits) => strongest(hits)!);
  const cause = (f: VerdictFinding, status: 'fail' | 'warn'): DecisionCause => ({ kind: 'finding', id: f.id, severity: f.severity, status, inFailOn: failOn.ids.includes(f.id) });
  const failing = top.filter((f) => failsOn(f, failOn));
  if (failing.length) return { verdict: 'fail', causes: failing.map((f) => cause(f, 'fail')) };
  const listed = top.filter((f) => failOn.ids.includes(f.id));
  const others = top.filter((f) => !failOn.ids.includes(f.id));
  if (listed.length || others.length) return { verdict: 'warn', causes: [...listed, ...others].map((f) => cause(f, 'warn')) };
  return { verdict: 'pass', causes: [] };
}

/** The verdict and its causes: from the findings alone, or from the comparison when there is a baseline. */
export function judge(findings: readonly VerdictFinding[], failOn: readonly string[] | FailOn = DEFAULT_FAIL_ON, comparison?: ComparisonOutcome): Judgement {
  if (!comparison) return findingsJudgement(findings, failOnOf(failOn));
  const deciding = (status: ComparisonRow['status']) => comparison.rows.filter((r) => r.status === status);
  const causes = (status: ComparisonRow['status']) => deciding(status).flatMap((r) => (r.cause ? [r.cause] : []));
  const has = (status: ComparisonRow['status']) => comparison.rows.some((r) => r.status === status);
  if (comparison.invalid.length) return { verdict: 'invalid', causes: [...comparison.invalid] };
  if (has('fail')) return { verdict: 'fail', causes: causes('fail') };
  if (has('insufficient-data') || comparison.noThroughput) {
    return { verdict: 'insufficient-data', causes: [...causes('insufficient-data'), ...(comparison.noThroughput ? [{ kind: 'no-throughput' } as const] : [])] };
  }
  if (has('warn')) return { verdict: 'warn', causes: causes('warn') };
  if (comparison.nothingGated) return { verdict: 'insufficient-data', causes: [comparison.nothingGated] };
  return { verdict: 'pass', causes: [] };
}
