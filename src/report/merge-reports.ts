/**
 * Several reports of one workflow run (matrix legs: model × GPU × config) seen as one: the worst
 * verdict wins, and the legs are ordered worst first so a reviewer reads the problem before the rest.
 */
import type { Report, Verdict } from '../model/report.js';
import { isAlert } from './row-attention.js';

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

/**
 * Lower is worse. `invalid` (a comparison that could not be trusted) ranks just below a failure, and
 * `accepted` (a failure a reviewer accepted: still a regression) below that.
 */
export const VERDICT_RANK: Record<Verdict, number> = { fail: 0, invalid: 1, accepted: 2, warn: 3, 'insufficient-data': 4, pass: 5 };

export function worstVerdict(verdicts: readonly Verdict[]): Verdict {
  if (verdicts.length === 0) return 'insufficient-data';
  return verdicts.reduce((worst, v) => (VERDICT_RANK[v] < VERDICT_RANK[worst] ? v : worst));
}

/** A label for a report when the caller has none better: its workload, its model, or the fallback. */
export function labelFor(report: Report, fallback: string): string {
  return report.run.workload ?? report.environment.model ?? captureLabel(report) ?? fallback;
}

/**
 * What the captures were, where nothing names the workload: the folder that holds them (or the one
 * file's name) and the GPU, e.g. `current (NVIDIA H200)`.
 */
export function captureLabel(report: Report): string | undefined {
  const paths = report.sources.map((s) => s.path.replace(/\\/g, '/').replace(/\/+$/, ''));
  if (paths.length === 0) return undefined;
  const parents = new Set(paths.map((p) => p.slice(0, Math.max(0, p.lastIndexOf('/')))));
  const only = parents.size === 1 ? [...parents][0]! : '';
  const name = only ? only.slice(only.lastIndexOf('/') + 1) : paths.length === 1 ? paths[0]!.slice(paths[0]!.lastIndexOf('/') + 1) : '';
  if (!name || name === '.') return undefined;
  const gpu = report.environment.gpuName;
  return gpu ? `${name} (${gpu})` : name;
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
  const counts: Record<Verdict, number> = { fail: 0, invalid: 0, accepted: 0, warn: 0, 'insufficient-data': 0, pass: 0 };
  for (const entry of ordered) counts[entry.report.verdict] += 1;
  return { verdict: worstVerdict(ordered.map((e) => e.report.verdict)), entries: ordered, counts };
}

/** Something a reviewer should look at: not a pass, a new finding, or a comparison alert. */
export function needsAttention(entry: ReportEntry): boolean {
  const { report } = entry;
  if (report.verdict !== 'pass') return true;
  if (report.comparison?.newFindings.length) return true;
  return report.comparison?.rows.some(isAlert) ?? false;
}
