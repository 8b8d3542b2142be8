/**
 * Annotations: a few lines on the run page for warning and error findings. GitHub shows at most
 * 10 errors and 10 warnings per step and cuts messages at 4,096 characters; we stay well inside,
 * leaving room for the action's own notices. Annotations render as plain text: the text is only
 * bounded and stripped of control characters (the workflow-command escaping is the adapter's job).
 */
import type { Finding } from '../../model/report.js';
import { orderFindings } from './sections.js';
import { plainText } from './text.js';
import type { ReportEntry } from '../merge-reports.js';

export const ANNOTATION_LIMITS = { perLevel: 10, messageChars: 4096, titleChars: 200 } as const;

export interface Annotation {
  level: 'error' | 'warning';
  title: string;
  message: string;
}

export interface AnnotationOptions {
  /** Findings shown per level; one more line says how many were left out. Capped at GitHub's 10. */
  perLevel?: number;
}

function annotationFor(finding: Finding, label: string | undefined): Annotation {
  const lines = [finding.message, `Next: ${finding.advice}`];
  if (finding.command) lines.push(`Run: ${finding.command}`);
  const where = label ? ` [${label}]` : '';
  return {
    level: finding.severity === 'error' ? 'error' : 'warning',
    title: plainText(`profile-gate${where}: ${finding.title} (${finding.id})`, ANNOTATION_LIMITS.titleChars).replace(/\n/g, ' '),
    message: plainText(lines.join('\n'), ANNOTATION_LIMITS.messageChars),
  };
}

export function buildAnnotations(entries: readonly ReportEntry[], options: AnnotationOptions = {}): Annotation[] {
  const perLevel = Math.max(1, Math.min(options.perLevel ?? 5, ANNOTATION_LIMITS.perLevel - 1));
  const labelled = entries.length > 1;
  const out: Annotation[] = [];
  for (const level of ['error', 'warning'] as const) {
    const found = entries.flatMap((entry) =>
      orderFindings(entry.report.findings)
        .filter((f) => f.severity === level)
        .map((finding) => ({ finding, label: labelled ? entry.label : undefined })),
    );
    // Primary findings of every report before any secondary one.
    found.sort((a, b) => Number(a.finding.secondary) - Number(b.finding.secondary));
    for (const { finding, label } of found.slice(0, perLevel)) out.push(annotationFor(finding, label));
    if (found.length > perLevel) {
      out.push({
        level,
        title: `profile-gate: ${found.length - perLevel} more ${level} findings`,
        message: plainText(`Not annotated: ${found.slice(perLevel).map((f) => f.finding.id).join(', ')}. See the job summary.`, ANNOTATION_LIMITS.messageChars),
      });
    }
  }
  return out;
}
