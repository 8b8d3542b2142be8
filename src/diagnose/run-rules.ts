/**
 * Run every rule over a profile. A rule runs only when the evidence it needs is there; its findings
 * name that evidence, and a finding that rests on thin evidence is lowered one step (an error
 * becomes a warning, a warning a note). Findings are ordered by the cost order of the escalation
 * and by severity; when the run is host-bound or throttled, kernel-level findings are marked
 * secondary, because the kernel mix is then not what limits the run. A headline hit that stays an
 * error (a correctness bug on strong evidence) comes first and is never secondary.
 */
import type { Profile } from '../model/profile.js';
import type { Notice } from '../model/capture.js';
import type { Finding, Severity } from '../model/report.js';
import { describeEvidence, evidenceFor, gatherEvidence, type Evidence } from './evidence.js';
import { DIAGNOSIS_NOTE, docsUrl, type Rule, type RuleHit, type RuleStage } from './rule.js';
import { RULES } from './rules/index.js';
import { healthClaimWithheld } from './health-claim.js';
import { rankDeepDiveFindings } from './deep-dive-rank.js';

export interface DiagnoseConfig {
  /** Per-rule option overrides, keyed by rule id. */
  options?: Record<string, Record<string, unknown>>;
  /** Rule ids to skip. */
  disabled?: readonly string[];
}

const STAGE_ORDER: Record<RuleStage, number> = { capture: 0, utilization: 1, kernels: 2, 'deep-dive': 3 };
const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };
const LOWER: Record<Severity, Severity> = { error: 'warning', warning: 'info', info: 'info' };

export interface CheckedHit extends RuleHit {
  severity: Severity;
  basis: string[];
}

/**
 * One rule over one profile, evidence gate and severity cap included (what the rule tester runs too).
 * The rule's notes about the evidence go into `notes`, when given.
 */
export function checkRule<Options extends object>(rule: Rule<Options>, profile: Profile, options: Options, evidence: Evidence = gatherEvidence(profile), notes?: Notice[]): CheckedHit[] {
  const used = evidenceFor(rule.meta.needs, evidence);
  if (used === null) return [];
  const thin = used.some((e) => e.strength === 'thin');
  const basis = used.map(describeEvidence);
  const note = (message: string) => notes?.push({ code: DIAGNOSIS_NOTE, severity: 'info', message: `${rule.meta.id}: ${message}` });
  return rule.check({ profile, options, evidence, note }).map(({ headline, ...hit }) => {
    const declared = hit.severity ?? rule.meta.severity;
    const severity = thin ? LOWER[declared] : declared;
    return { ...hit, severity, basis, ...(headline && severity === 'error' ? { headline: true } : {}) };
  });
}

export function runRules(profile: Profile, config: DiagnoseConfig = {}, rules: readonly Rule<any>[] = RULES): Finding[] {
  return diagnose(profile, config, rules).findings;
}

/** The findings of every rule, and the rules' notes about the evidence (notices, never findings). */
export function diagnose(profile: Profile, config: DiagnoseConfig = {}, rules: readonly Rule<any>[] = RULES): { findings: Finding[]; notes: Notice[] } {
  const disabled = new Set(config.disabled ?? []);
  const evidence = gatherEvidence(profile);
  let findings: Array<Finding & { stage: RuleStage; headline: boolean }> = [];
  const claims = new Set(rules.filter((rule) => rule.meta.claim === 'healthy').map((rule) => rule.meta.id as string));
  const notes: Notice[] = [];
  for (const rule of rules) {
    if (disabled.has(rule.meta.id)) continue;
    const options = { ...rule.meta.defaults, ...(config.options?.[rule.meta.id] ?? {}) };
    for (const hit of checkRule(rule, profile, options, evidence, notes)) {
      findings.push({
        id: rule.meta.id,
        severity: hit.severity,
        title: rule.meta.title,
        message: hit.message,
        evidence: hit.evidence,
        advice: hit.advice,
        ...(hit.command ? { command: hit.command } : {}),
        ...(hit.kernel ? { kernel: hit.kernel } : {}),
        ...(hit.deepDive ? { deepDive: hit.deepDive } : {}),
        ...(hit.lockstepKernels?.length ? { lockstepKernels: hit.lockstepKernels } : {}),
        docs: docsUrl(rule.meta.id),
        secondary: false,
        basis: hit.basis,
        stage: rule.meta.stage,
        headline: hit.headline === true,
      });
    }
  }
  if (claims.size) {
    const others = findings.filter((f) => !claims.has(f.id));
    findings = findings.filter((finding) => {
      if (!claims.has(finding.id)) return true;
      const why = healthClaimWithheld(profile, others);
      if (why.length) notes.push({ code: DIAGNOSIS_NOTE, severity: 'info', message: `${finding.id}: not claimed, its kernel mix alone does not make a healthy run: ${why.join('; ')}` });
      return why.length === 0;
    });
  }
  findings = rankDeepDiveFindings(profile, findings);
  // Findings of rules that explain the whole run make the kernel findings below them secondary.
  const explainsRun = new Set<string>(rules.filter((rule) => rule.meta.explainsRun).map((rule) => rule.meta.id));
  const runLevel = findings.some((f) => explainsRun.has(f.id) && f.severity !== 'info');
  for (const finding of findings) {
    if (runLevel && !finding.headline && (finding.stage === 'kernels' || finding.stage === 'deep-dive')) finding.secondary = true;
  }
  findings.sort(
    (a, b) =>
      Number(b.headline) - Number(a.headline) ||
      Number(a.secondary) - Number(b.secondary) ||
      STAGE_ORDER[a.stage] - STAGE_ORDER[b.stage] ||
      // Deep-dive findings keep the order of their kernels' shares (deep-dive-rank.ts).
      (a.stage === 'deep-dive' ? 0 : SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]),
  );
  return { findings: findings.map(({ stage: _stage, headline: _headline, ...finding }) => finding), notes };
}
