/**
 * The display names of a report's kernels (the short names of classify/kernel-display-name.ts,
 * distinct across the report), for the tables and the verdict's lines.
 */
import { rowSubject, type Report } from '../model/report.js';
import { kernelDisplayName, kernelDisplayNames } from '../classify/kernel-display-name.js';

export { kernelDisplayName, kernelDisplayNames };

const SHOWN_KERNELS = 50;

/** Every kernel name a report shows (its kernels, compared kernel shares and times per step, kernel changes). */
function namesOf(report: Report): string[] {
  const rows = (report.comparison?.rows ?? []).filter((r) => r.kind === 'kernel-share' || r.kind === 'kernel-time').flatMap((r) => {
    const subject = rowSubject(r);
    return subject?.type === 'kernel' ? [subject.id] : [];
  });
  const changes = (report.comparison?.kernelChanges ?? []).map((c) => c.name);
  const dives = report.deepDive.map((d) => d.kernel);
  const perStep = (report.comparison?.perStep?.kernels ?? []).map((k) => k.name);
  // Tables show the top kernels only (20 at the richest level); a profile may hold 100,000.
  return [...report.kernels.slice(0, SHOWN_KERNELS).map((k) => k.name), ...rows, ...changes, ...dives, ...perStep];
}

const cache = new WeakMap<Report, Map<string, string>>();

/** The display names of a report's kernels, distinct across the report; a name it lacks maps to its short form. */
export function reportKernelNames(report: Report): (name: string) => string {
  let names = cache.get(report);
  if (!names) cache.set(report, (names = kernelDisplayNames(namesOf(report))));
  const known = names;
  return (name) => known.get(name) ?? kernelDisplayName(name);
}
