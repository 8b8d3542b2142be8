/**
 * Several reports of one workflow run (matrix legs: model × GPU × config) seen as one: the worst
 * verdict wins, and the legs are ordered worst first so a reviewer reads the problem before the rest.
 */
import type { Report, Verdict } from '../model/report.js';

/** Where a report's full files can be fetched from. */
export interface ArtifactLink {
  name: string;
  id?: number;
  url?: string;
}

export interface ReportEntry {
  /** What tells this report from the others: the leg key, the workload or the artifact name. */
  label: string;
  report: Report;
  artifact?: ArtifactLink;
  /** Why `report.comparison` is null when it is, e.g. which baseline artifact was missing. */
  baselineNote?: string;
}

export interface MergedReports {
  verdict: Verdict;
  entries: ReportEntry[];
  counts: Record<Verdict, number>;
}

/** Lower is worse. `invalid` (a comparison that could not be trusted) ranks just below a failure. */
export const VERDICT_RANK: Record<Verdict, number> = { fail: 0, invalid: 1, warn: 2, 'insufficient-data': 3, pass: 4 };

export function worstVerdict(verdicts: readonly Verdict[]): Verdict {
  if (verdicts.length === 0) return 'insufficient-data';
  return verdicts.reduce((worst, v) => (VERDICT_RANK[v] < VERDICT_RANK[worst] ? v : worst));
}

/** A label for a report when the caller has none better: its workload, its model, or the fallback. */
export function labelFor(report: Report, fallback: string): string {
  return report.run.workload ?? report.environment.model ?? fallback;
}

export function mergeReports(entries: readonly ReportEntry[]): MergedReports {
  const seen = new Map<string, number>();
  const unique = entries.map((entry) => {
    const count = (seen.get(entry.label) ?? 0) + 1;
    seen.set(entry.label, count);
    return count === 1 ? entry : { ...entry, label: `${entry.label} (${count})` };
  });
  const ordered = unique
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => VERDICT_RANK[a.entry.report.verdict] - VERDICT_RANK[b.entry.report.verdict] || a.index - b.index)
    .map(({ entry }) => entry);
  const counts: Record<Verdict, number> = { fail: 0, invalid: 0, warn: 0, 'insufficient-data': 0, pass: 0 };
  for (const entry of ordered) counts[entry.report.verdict] += 1;
  return { verdict: worstVerdict(ordered.map((e) => e.report.verdict)), entries: ordered, counts };
}

/** Something a reviewer should look at: not a pass, a new finding, or a comparison alert. */
export function needsAttention(entry: ReportEntry): boolean {
  const { report } = entry;
  if (report.verdict !== 'pass') return true;
  if (report.comparison?.newFindings.length) return true;
  return report.comparison?.rows.some((row) => row.status === 'fail' || row.status === 'warn') ?? false;
}
