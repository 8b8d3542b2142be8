/**
 * The display names of a report's kernels (the short names of classify/kernel-display-name.ts,
 * distinct across the report) and the gate's reasons with them.
 */
import { rowSubject, type Report } from '../model/report.js';
import { kernelDisplayName, kernelDisplayNames } from '../classify/kernel-display-name.js';

export { kernelDisplayName, kernelDisplayNames };

const SHOWN_KERNELS = 50;

/** Every kernel name a report shows (its kernels, compared kernel shares, kernel changes). */
function namesOf(report: Report): string[] {
  const rows = (report.comparison?.rows ?? []).filter((r) => r.kind === 'kernel-share').flatMap((r) => {
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

/**
 * The gate's reasons with kernel names in their short form: a reason about a kernel's share opens
 * with the name cut at the gate's width, which tells nothing apart; the comparison links each reason
 * to its row and says how much of the reason names it. With a comparison, its whole account (notes
 * included); without one, the lines that decide the verdict.
 */
export function readableReasons(report: Report): string[] {
  const reasons = report.comparison?.reasons ?? report.verdictReasons;
  const links = report.comparison?.reasonRows;
  // A report written before the links (or one whose reasons were edited apart from them) shows its reasons as written.
  if (!links || links.length !== reasons.length) return reasons;
  const kernels = new Map((report.comparison?.rows ?? []).filter((r) => r.kind === 'kernel-share').map((r) => [r.metric, r]));
  if (kernels.size === 0) return reasons;
  const names = reportKernelNames(report);
  return reasons.map((reason, i) => {
    const link = links[i];
    if (!link || link.nameEnd === undefined || !kernels.has(link.row)) return reason;
    const subject = rowSubject(kernels.get(link.row)!);
    return subject?.type === 'kernel' ? `kernel ${names(subject.id)}${reason.slice(link.nameEnd)}` : reason;
  });
}
