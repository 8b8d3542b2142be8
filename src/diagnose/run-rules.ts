/**
 * Run every rule over a profile. Findings are ordered by the cost order of the escalation and by
 * severity; when the run is host-bound or throttled, kernel-level findings are marked secondary,
 * because the kernel mix is then not what limits the run.
 */
import type { Profile } from '../model/profile.js';
import type { Finding, Severity } from '../model/report.js';
import { docsUrl, type Rule, type RuleStage } from './rule.js';
import { RULES } from './rules/index.js';

export interface DiagnoseConfig {
  /** Per-rule option overrides, keyed by rule id. */
  options?: Record<string, Record<string, unknown>>;
  /** Rule ids to skip. */
  disabled?: readonly string[];
}

const STAGE_ORDER: Record<RuleStage, number> = { capture: 0, utilization: 1, kernels: 2, 'deep-dive': 3 };
const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };
/** Findings that explain the whole run; kernel findings below them are secondary. */
const RUN_LEVEL_IDS = new Set(['host-bound', 'gpu-throttled', 'empty-capture']);

export function runRules(profile: Profile, config: DiagnoseConfig = {}, rules: readonly Rule<any>[] = RULES): Finding[] {
  const disabled = new Set(config.disabled ?? []);
  const findings: Array<Finding & { stage: RuleStage }> = [];
  for (const rule of rules) {
    if (disabled.has(rule.meta.id)) continue;
    const options = { ...rule.meta.defaults, ...(config.options?.[rule.meta.id] ?? {}) };
    for (const hit of rule.check({ profile, options })) {
      findings.push({
        id: rule.meta.id,
        severity: hit.severity ?? rule.meta.severity,
        title: rule.meta.title,
        message: hit.message,
        evidence: hit.evidence,
        advice: hit.advice,
        ...(hit.command ? { command: hit.command } : {}),
        ...(hit.kernel ? { kernel: hit.kernel } : {}),
        ...(hit.deepDive ? { deepDive: hit.deepDive } : {}),
        docs: docsUrl(rule.meta.id),
        secondary: false,
        stage: rule.meta.stage,
      });
    }
  }
  const runLevel = findings.some((f) => RUN_LEVEL_IDS.has(f.id) && f.severity !== 'info');
  for (const finding of findings) {
    if (runLevel && (finding.stage === 'kernels' || finding.stage === 'deep-dive')) finding.secondary = true;
  }
  findings.sort(
    (a, b) =>
      Number(a.secondary) - Number(b.secondary) ||
      STAGE_ORDER[a.stage] - STAGE_ORDER[b.stage] ||
      SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity],
  );
  return findings.map(({ stage: _stage, ...finding }) => finding);
}
