/**
 * A diagnosis rule, in the manner of a lint rule: a stable id (== file name), a severity, a title,
 * declared default options, and a pure `check` that returns hits with their evidence numbers.
 * The docs link is derived from the id, never written by hand.
 */
import type { Profile } from '../model/profile.js';
import type { DeepDiveRequest, LockstepKernel, Severity } from '../model/report.js';
import type { FindingId } from '../model/finding-ids.js';
import type { NoticeCode } from '../model/notice-codes.js';
import type { Evidence, EvidenceNeed } from './evidence.js';

export const REFERENCES_URL = 'https://github.com/profile-gate/profile-gate/blob/main/references/rules';

/** Where a rule sits in the cost order of the escalation: utilization, then kernels, then a deep dive. */
export type RuleStage = 'capture' | 'utilization' | 'kernels' | 'deep-dive';

export interface RuleMeta<Options> {
  /** One of the closed list in src/model/finding-ids.ts, and the rule's file name. */
  id: FindingId;
  severity: Severity;
  title: string;
  stage: RuleStage;
  /** What the rule catches, one sentence, for `profile-gate rules` and the docs check. */
  description: string;
  /**
   * The evidence the rule reads: each entry must be present (an array entry: any one of its kinds).
   * The rule does not run without it, and its findings name it as their basis.
   */
  needs: readonly EvidenceNeed[];
  /** Its finding (warning or error) explains the whole run, as host-bound does: kernel findings below it are secondary. */
  explainsRun?: true;
  defaults: Options;
  /**
   * `healthy`: the rule reads a kernel mix as healthy. Its finding stands only with the claim's own
   * evidence (a decode window, a busy GPU, no competing warning; src/diagnose/health-claim.ts).
   */
  claim?: 'healthy';
  /** What each number option measures, so a value set by the user is checked against its range (rule-options.ts). */
  units: { [K in NumericKeys<Options>]: OptionUnit };
}

/**
 * What a number option measures, and so the values it may take: a `fraction` (a share) in [0, 1], a
 * `percent` (or percentage points) in [0, 100], a `count` a whole number, a `ratio` or a time in `ms`
 * any number from 0.
 */
export type OptionUnit = 'fraction' | 'percent' | 'count' | 'ratio' | 'ms';

/** The keys of an options object whose values are numbers. */
export type NumericKeys<Options> = { [K in keyof Options]-?: Options[K] extends number ? K : never }[keyof Options];

export interface RuleHit {
  message: string;
  evidence: Record<string, number | string | boolean>;
  advice: string;
  command?: string;
  /** Override the declared severity for this hit (e.g. info for normal low-bit prep). */
  severity?: Severity;
  kernel?: string;
  /** A deep dive to ask for, as data; `command` is its rendering (deep-dive-request.ts). */
  deepDive?: DeepDiveRequest;
  /** Kernels launched in lockstep with the pattern the finding names (part of it), as data. */
  lockstepKernels?: LockstepKernel[];
  /**
   * A correctness bug shown on strong evidence (e.g. decode without its KV cache): when it stays an
   * error, it leads the findings and is never made secondary to a run-level finding such as host-bound.
   */
  headline?: boolean;
}

export interface RuleContext<Options> {
  profile: Profile;
  options: Options;
  /** What the profile holds, with coverage and strength (src/diagnose/evidence.ts). */
  evidence: Evidence;
  /**
   * Says something about the evidence rather than the run ("host-bound is not established: only
   * whole-process samples"): a notice on the report, never a finding with the rule's id.
   */
  note(message: string): void;
}

export interface Rule<Options = object> {
  meta: RuleMeta<Options>;
  check(context: RuleContext<Options>): RuleHit[];
}

export function defineRule<Options extends object>(rule: Rule<Options>): Rule<Options> {
  return rule;
}

/** The notice code of a rule's note about the evidence (RuleContext.note): never a finding. */
export const DIAGNOSIS_NOTE = 'diagnosis-note' satisfies NoticeCode;

export function docsUrl(id: string): string {
  return `${REFERENCES_URL}/${id}.md`;
}
