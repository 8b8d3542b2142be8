/** Captures of one run → one classified Profile. */
import type { Capture, KernelStat, Notice } from '../model/capture.js';
import { mergeApiCalls, mergeEnvironment, mergeKernels, mergeMemops, mergeMetrics, mergeTimeline, summarizeRecordings, isGraphCaptureSetup } from './merge-captures.js';
import type { FamilyShare, Profile, Rank } from '../model/profile.js';
import { createClassifier, familiesInContext, type Classifier } from '../classify/classify.js';
import type { KernelFamily } from '../model/family-ids.js';
import { replaysKernels } from '../ingest/registry.js';
import { neighbourCounts, type GpuSharing } from '../model/gpu-sharing.js';

/** `notices`: what was decided about the inputs before merging (files set aside, mixed inputs allowed). */
export function buildProfile(allCaptures: readonly Capture[], classify: Classifier = createClassifier(), inputNotices: readonly Notice[] = []): Profile {
  const { captures, notices: setUpNotices } = setAsideGraphCaptures(allCaptures);
  // A deep dive (Nsight Compute) replays a few launches of kernels another capture already timed:
  // its kernel rows count only when no other input has kernel times.
  const timedElsewhere = captures.some((c) => !replaysKernels(c) && c.kernels.length > 0);
  const merged = mergeKernels(timedElsewhere ? captures.filter((c) => !replaysKernels(c)) : captures);
  const totalKernelNs = merged.reduce((sum, k) => sum + k.totalNs, 0);
  // The merged kernels are fresh copies: completed in place rather than copied once more.
  const inContext = familiesInContext(
    merged.map((k) => k.name),
    merged.map((k) => classify(k)),
  );
  const kernels = merged.map((kernel, i) =>
    Object.assign(kernel, {
      family: inContext[i] ?? classify(kernel),
      share: totalKernelNs > 0 ? kernel.totalNs / totalKernelNs : 0,
    }),
  );

  const families = familySharesOf(kernels, totalKernelNs);

  const kernelSources = captures.filter((c) => c.kernels.length > 0 && !(timedElsewhere && replaysKernels(c)));
  // Each input keeps its own timeline: the one with the steady work is read; every rank keeps its own in `ranks`.
  const { timeline, notices: timelineNotices } = mergeTimeline(captures);
  const notices = [...inputNotices, ...allCaptures.flatMap((c) => c.notices), ...setUpNotices, ...timelineNotices];
  if (kernelSources.length > 1) {
    notices.push({
      code: 'kernels-summed',
      severity: 'info',
      message: `kernel times from ${kernelSources.length} inputs were summed (${kernelSources.map((c) => `${c.source.path}${c.source.run ? ` run ${c.source.run}` : ''}`).join(', ')})`,
    });
  }
  const gpuTimeUtil = captures.find((c) => c.gpuTimeUtilPercent !== undefined)?.gpuTimeUtilPercent;
  const gpuSharing = gpuSharingOf(allCaptures);
  notices.push(...sharingNotices(gpuSharing), ...unlistedNotices(allCaptures));

  return {
    sources: allCaptures.map((c) => c.source),
    environment: mergeEnvironment(captures),
    totalKernelNs,
    kernels,
    families,
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
    ranks: ranksOf(captures, classify, notices),
    ...(kernels.length > 0 ? { kernelOrigin: timedElsewhere ? ('breakdown' as const) : ('deep-dive' as const) } : {}),
    gpuSharing,
  };
}

/** What the runs' GPU sharing says to people: runs shared, and pids no recording could place. */
function sharingNotices(sharing: GpuSharing | null): Notice[] {
  if (!sharing) return [];
  const notices: Notice[] = [];
  const shared = sharing.runs.filter((run) => run.shared);
  if (shared.length) {
    const who = [...new Set(shared.flatMap((run) => run.neighbours.filter(neighbourCounts).map((n) => (n.pid === null ? 'a process busy before the run\'s own' : `pid ${n.pid}`))))];
    notices.push({ code: 'gpu-shared', severity: 'warning', message: `another process used the GPU during measured run${shared.length === 1 ? '' : 's'} ${shared.map((run) => run.run).join(', ')} of ${sharing.runs.length} (${who.join(', ')})` });
  }
  const unplaced = [...new Set(sharing.runs.flatMap((run) => run.unknownPids))];
  if (unplaced.length) {
    notices.push({ code: 'gpu-process-unplaced', severity: 'info', message: `the GPU listed pid${unplaced.length === 1 ? '' : 's'} ${unplaced.slice(0, 5).join(', ')} that this pid namespace cannot see, first after a run's command started: the job's own (a container sees host pids) or another's; not counted as another's` });
  }
  return notices;
}

/**
 * GPU utilization recordings that list no process in any sample (a sampler or tool that cannot,
 * or a listing that failed throughout): a neighbour there is not seen, which is said rather than
 * read as a GPU the job had to itself.
 */
function unlistedNotices(captures: readonly Capture[]): Notice[] {
  const unlisted = captures.filter((c) => c.utilization.length > 0 && (c.gpuProcesses?.listedSamples ?? 0) === 0);
  if (!unlisted.length) return [];
  const paths = unlisted.slice(0, 3).map((c) => c.source.path).join(', ');
  const more = unlisted.length > 3 ? ` and ${unlisted.length - 3} more` : '';
  return [{ code: 'gpu-processes-unlisted', severity: 'info', message: `${unlisted.length} GPU recording${unlisted.length === 1 ? '' : 's'} listed no GPU process (${paths}${more}): another process on the GPU would not be seen there, and the gate judges those runs by their times alone` }];
}

/**
 * Each GPU recording that listed the GPU's processes is one measured run, in input order. A metric's
 * samples are placed in runs only when as many inputs carry it as there are recordings: the runner
 * lists each run's files together, and a folder sorts the runs' consoles as it sorts their
 * recordings (measured-1, measured-10, measured-2 …), so the k-th of each is the same run. Else the
 * runs' samples are not told apart, and no run can be left out alone.
 */
export function gpuSharingOf(captures: readonly Capture[]): GpuSharing | null {
  const recordings = captures.filter((c) => c.gpuProcesses !== undefined);
  if (recordings.length === 0) return null;
  const carriers = new Map<string, number[]>();
  for (const capture of captures) {
    const counts = new Map<string, number>();
    for (const sample of capture.metrics) if (Number.isFinite(sample.value)) counts.set(sample.name, (counts.get(sample.name) ?? 0) + 1);
    for (const [name, count] of counts) carriers.set(name, [...(carriers.get(name) ?? []), count]);
  }
  const placed = [...carriers].filter(([, counts]) => counts.length === recordings.length);
  return {
    runs: recordings.map((recording, i) => {
      const seen = recording.gpuProcesses!;
      return {
        run: i + 1,
        listed: seen.listedSamples > 0,
        shared: seen.neighbours.some(neighbourCounts),
        neighbours: seen.neighbours,
        unknownPids: seen.unknownPids,
        ...(placed.length ? { samples: Object.fromEntries(placed.map(([name, counts]) => [name, counts[i]!])) } : {}),
      };
    }),
  };
}

/**
 * Graph-capture traces (set-up: a stream capture, no replay) are named as such. Beside an input that
 * holds kernel work, their timeline, API calls and rank are set aside, so that their mostly idle
 * timeline and capture-time launches do not stand for the steady loop and a capture of rank 0 is not
 * read as a second rank 0; the few set-up kernels they ran did run, so they stay in the kernel total.
 */
function setAsideGraphCaptures(captures: readonly Capture[]): { captures: readonly Capture[]; notices: Notice[] } {
  const setUp = captures.filter(isGraphCaptureSetup);
  if (setUp.length === 0) return { captures, notices: [] };
  const setAside = captures.some((c) => !setUp.includes(c) && c.kernels.length > 0);
  const notices: Notice[] = setUp.map((c) => {
    const kernelMs = (c.kernels.reduce((sum, k) => sum + k.totalNs, 0) / 1e6).toFixed(3);
    const what = `${c.source.path} is a graph-capture trace (stream capture, no graph replay; ${kernelMs} ms of kernel time): set-up, not the steady work`;
    return {
      code: 'graph-capture-setup',
      severity: 'info',
      message: setAside
        ? `${what}; its kernels count in the total, its timeline and API calls are left out`
        : `${what}. The captured kernels run only when the graph is replayed: profile the replayed steps to see them`,
    };
  });
  if (!setAside) return { captures, notices };
  return {
    captures: captures.map((c) => {
      if (!setUp.includes(c)) return c;
      const { distributed: _distributed, ...rest } = c;
      return { ...rest, timeline: undefined, deviceTimelines: [], apiCalls: [] };
    }),
    notices,
  };
}

function familySharesOf(kernels: ReadonlyArray<{ family: KernelFamily; totalNs: number; instances: number }>, totalKernelNs: number): FamilyShare[] {
  const families = new Map<KernelFamily, FamilyShare>();
  for (const kernel of kernels) {
    const entry = families.get(kernel.family) ?? { family: kernel.family, totalNs: 0, share: 0, kernels: 0, instances: 0 };
    entry.totalNs += kernel.totalNs;
    entry.kernels += 1;
    entry.instances += kernel.instances;
    families.set(kernel.family, entry);
  }
  for (const entry of families.values()) entry.share = totalKernelNs > 0 ? entry.totalNs / totalKernelNs : 0;
  return [...families.values()].sort((a, b) => b.totalNs - a.totalNs);
}

function rankOf(kernels: readonly KernelStat[], classify: Classifier, fields: Omit<Rank, 'totalKernelNs' | 'families'>): Rank {
  const totalKernelNs = kernels.reduce((sum, k) => sum + k.totalNs, 0);
  const families = familiesInContext(
    kernels.map((k) => k.name),
    kernels.map((k) => classify(k)),
  );
  const classified = kernels.map((k, i) => ({ family: families[i] ?? classify(k), totalNs: k.totalNs, instances: k.instances }));
  return { ...fields, totalKernelNs, families: familySharesOf(classified, totalKernelNs) };
}

/**
 * Each rank its own breakdown and timeline. Captures that name their rank (Kineto
 * `distributedInfo`) are grouped by it; a capture with kernels on several devices and no rank is
 * split by device, each with its own timeline where the trace gives one. Ranks whose world sizes or
 * backends disagree, or a rank given twice, are not one job: a notice says so.
 */
function ranksOf(captures: readonly Capture[], classify: Classifier, notices: Notice[]): Rank[] {
  const ranked = captures.filter((c) => c.distributed);
  if (ranked.length > 0) {
    const byRank = new Map<number, Capture[]>();
    for (const c of ranked) byRank.set(c.distributed!.rank, [...(byRank.get(c.distributed!.rank) ?? []), c]);
    const worldSizes = new Set(ranked.map((c) => c.distributed!.worldSize ?? 0));
    const backends = new Set(ranked.map((c) => c.distributed!.backend ?? ''));
    const repeated = [...byRank.entries()].filter(([, list]) => list.filter((c) => c.kernels.length > 0).length > 1).map(([rank]) => rank);
    if (ranked.length > 1 && (worldSizes.size > 1 || backends.size > 1 || repeated.length > 0)) {
      const why = repeated.length > 0 ? `rank ${repeated[0]} is given twice` : `world sizes ${[...worldSizes].join(' and ')}${backends.size > 1 ? `, backends ${[...backends].join(' and ')}` : ''}`;
      notices.push({
        code: 'ranks-of-different-jobs',
        severity: 'warning',
        message: `the traces' ranks are not one job (${why}): each is shown on its own and ranks are not compared (${ranked.map((c) => c.source.path).join(', ')})`,
      });
    }
    return [...byRank.entries()]
      .sort((a, b) => a[0] - b[0])
      .flatMap(([, list]) =>
        list.map((c) => {
          const d = c.distributed!;
          return rankOf(c.kernels, classify, {
            rank: d.rank,
            ...(d.worldSize !== undefined ? { worldSize: d.worldSize } : {}),
            ...(d.backend !== undefined ? { backend: d.backend } : {}),
            ...(d.host !== undefined ? { host: d.host } : {}),
            ...(c.kernels.length > 0 && new Set(c.kernels.map((k) => k.device)).size === 1 && c.kernels[0]!.device !== undefined ? { device: c.kernels[0]!.device } : {}),
            sources: [c.source.path],
            timeline: c.timeline ?? null,
          });
        }),
      );
  }
  const split = captures.find((c) => !replaysKernels(c) && new Set(c.kernels.map((k) => k.device ?? 0)).size > 1);
  if (!split) return [];
  const devices = [...new Set(split.kernels.map((k) => k.device ?? 0))].sort((a, b) => a - b);
  return devices.map((device) =>
    rankOf(
      split.kernels.filter((k) => (k.device ?? 0) === device),
      classify,
      { device, sources: [split.source.path], timeline: split.deviceTimelines.find((d) => d.device === device)?.timeline ?? null },
    ),
  );
}
