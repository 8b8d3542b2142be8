/** Captures of one run → one classified Profile. */
import type { Capture } from '../model/capture.js';
import { mergeApiCalls, mergeEnvironment, mergeKernels, mergeMemops, mergeMetrics, mergeTimeline, summarizeRecordings } from '../model/merge.js';
import type { FamilyShare, Profile } from '../model/profile.js';
import { createClassifier, type Classifier } from './classify.js';

export function buildProfile(captures: readonly Capture[], classify: Classifier = createClassifier()): Profile {
  // An Nsight Compute capture replays a few launches of kernels another capture already timed: its
  // kernel rows count only when no other input has kernel times.
  const timedElsewhere = captures.some((c) => c.source.format !== 'ncu-csv' && c.kernels.length > 0);
  const merged = mergeKernels(timedElsewhere ? captures.filter((c) => c.source.format !== 'ncu-csv') : captures);
  const totalKernelNs = merged.reduce((sum, k) => sum + k.totalNs, 0);
  // The merged kernels are fresh copies: completed in place rather than copied once more.
  const kernels = merged.map((kernel) =>
    Object.assign(kernel, {
      family: classify(kernel),
      share: totalKernelNs > 0 ? kernel.totalNs / totalKernelNs : 0,
    }),
  );

  const families = new Map<string, FamilyShare>();
  for (const kernel of kernels) {
    const entry = families.get(kernel.family) ?? { family: kernel.family, totalNs: 0, share: 0, kernels: 0, instances: 0 };
    entry.totalNs += kernel.totalNs;
    entry.kernels += 1;
    entry.instances += kernel.instances;
    families.set(kernel.family, entry);
  }
  for (const entry of families.values()) entry.share = totalKernelNs > 0 ? entry.totalNs / totalKernelNs : 0;

  const kernelSources = captures.filter((c) => c.kernels.length > 0 && !(timedElsewhere && c.source.format === 'ncu-csv'));
  const { timeline, notices: timelineNotices } = mergeTimeline(captures);
  const notices = [...captures.flatMap((c) => c.notices), ...timelineNotices];
  if (kernelSources.length > 1) {
    notices.push({
      code: 'kernels-summed',
      severity: 'info',
      message: `kernel times from ${kernelSources.length} inputs were summed (${kernelSources.map((c) => c.source.path).join(', ')})`,
    });
  }
  const gpuTimeUtil = captures.find((c) => c.gpuTimeUtilPercent !== undefined)?.gpuTimeUtilPercent;

  return {
    sources: captures.map((c) => c.source),
    environment: mergeEnvironment(captures),
    totalKernelNs,
    kernels,
    families: [...families.values()].sort((a, b) => b.totalNs - a.totalNs),
    memops: mergeMemops(captures),
    apiCalls: mergeApiCalls(captures),
    metrics: mergeMetrics(captures),
    utilization: summarizeRecordings(
      captures.map((c) => c.utilization),
      captures.flatMap((c) => c.timedWindows),
    ),
    timeline,
    cpuFunctions: captures.flatMap((c) => c.cpuFunctions),
    notices,
    ncu: captures.flatMap((c) => c.ncu),
    gpuTimeUtilPercent: gpuTimeUtil ?? null,
    ...(kernels.length > 0 ? { kernelOrigin: timedElsewhere ? ('breakdown' as const) : ('deep-dive' as const) } : {}),
  };
}
