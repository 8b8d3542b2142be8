/**
 * The display names of a report's kernels (the short names of classify/kernel-display-name.ts,
 * distinct across the report) and the gate's reasons with them.
 */
import { rowSubject, type ComparisonRow, type DecisionPolicy, type Report } from '../model/report.js';
import { formatPp } from '../compare/percent-format.js';
import { targetLabel } from '../compare/per-step.js';
import { KERNEL_TIME_PREFIX } from '../compare/gate-options.js';
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

/**
 * A kernel share row's sentence, written from the row: the kernel by its display name, the shares,
 * and the threshold it reached (the fail threshold from the policy that judged it). Undefined where
 * the row reached none, or the policy is not recorded (a report migrated from before it was).
 */
function shareSentence(row: ComparisonRow, name: string, policy: DecisionPolicy | null): string | undefined {
  if (row.baseline === null || row.current === null || row.delta === null) return undefined;
  const limit = row.status === 'fail' && policy ? (Object.hasOwn(policy.thresholds, row.metric) ? policy.thresholds[row.metric] : policy.shareThresholds.fail) : row.status === 'warn' ? row.threshold : undefined;
  if (limit === undefined || limit === null) return undefined;
  const of = row.unit.startsWith('% of ') ? row.unit.slice('% of '.length) : 'GPU time';
  return `kernel ${name} share of ${of} ${row.baseline.toFixed(1)}% → ${row.current.toFixed(1)}% (${formatPp(row.delta)}), at or beyond the ${limit} pp ${row.status} threshold`;
}

/**
 * The gate's reasons with kernel names in their short form: the comparison links each reason to its
 * row, and a kernel share row's sentence is written here from the row, the kernel by its display
 * name (the gate's own cuts the name at a width that tells nothing apart). With a comparison, its
 * whole account (notes included); without one, the lines that decide the verdict.
 */
export function readableReasons(report: Report): string[] {
  const reasons = report.comparison?.reasons ?? report.verdictReasons;
  const links = report.comparison?.reasonRows;
  // A report written before the links (or one whose reasons were edited apart from them) shows its reasons as written.
  if (!links || links.length !== reasons.length) return reasons;
  const kernels = new Map((report.comparison?.rows ?? []).filter((r) => r.kind === 'kernel-share' || r.kind === 'kernel-time').map((r) => [r.metric, r]));
  if (kernels.size === 0) return reasons;
  const names = reportKernelNames(report);
  return reasons.map((reason, i) => {
    const row = links[i] ? kernels.get(links[i]!.row) : undefined;
    const subject = row ? rowSubject(row) : undefined;
    if (!row || subject?.type !== 'kernel') return reason;
    if (row.kind === 'kernel-time') {
      // The gate opens a time row's sentence with its target cut at a fixed width (targetLabel).
      const label = targetLabel(row.metric.slice(KERNEL_TIME_PREFIX.length));
      return reason.startsWith(label) ? `kernel ${names(subject.id)}${reason.slice(label.length)}` : reason;
    }
    return shareSentence(row, names(subject.id), report.decision.policy) ?? reason;
  });
}
