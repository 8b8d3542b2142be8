/**
 * A finding's request for an Nsight Compute deep dive, as data: which kernel (its name, its key and
 * the filter ncu selects it by), which launch, which sections. `profile-gate run` turns it into
 * argv; people read it as a command. Both come from `ncuArgs` here, so the two never disagree.
 */
import { escapeRegex, kernelKey, kernelStem } from '../classify/kernel-name.js';
import type { DeepDiveRequest } from '../model/report.js';

export type { DeepDiveRequest };

/** Sections of a first deep dive: the bound (SpeedOfLight), the grid and occupancy, bytes moved and warp stalls. */
export const DEEP_DIVE_SECTIONS = ['SpeedOfLight', 'Occupancy', 'LaunchStats', 'MemoryWorkloadAnalysis', 'WarpStateStats'] as const;

/** Launches to skip so the profiled one is in steady state: the middle of the captured launches. */
export function steadyLaunchSkip(instances: number): number {
  return Math.max(0, Math.min(instances - 1, Math.floor(instances / 2)));
}

/**
 * How ncu selects the kernel. A C++ kernel with a distinguishing functor is matched on its
 * demangled name by the function name and the functor only: tools disagree about everything else
 * (nsys writes `at::native::elementwise_kernel<(int)128, …>`, ncu `at::elementwise_kernel<128, …>`).
 * A C++ kernel without one is matched on ncu's function base (the bare function name); a plain
 * name on itself.
 */
export function ncuKernelFilter(raw: string): { nameRegex: string; demangled: boolean } {
  const key = kernelKey(raw);
  const templated = /^([A-Za-z_][A-Za-z0-9_]*)<([A-Za-z_][A-Za-z0-9_]*)>$/.exec(key);
  if (templated) return { nameRegex: `(^|[^A-Za-z0-9_])${templated[1]}<.*${escapeRegex(templated[2]!)}`, demangled: true };
  if (/[<(]/.test(raw) || raw.trim().startsWith('_Z')) return { nameRegex: `^${escapeRegex(key)}$`, demangled: false };
  return { nameRegex: kernelStem(raw).regex, demangled: false };
}

export function deepDiveRequest(kernel: string, instances: number, sections: readonly string[] = DEEP_DIVE_SECTIONS): DeepDiveRequest {
  return { kernel, kernelKey: kernelKey(kernel), ...ncuKernelFilter(kernel), launchSkip: steadyLaunchSkip(instances), launchCount: 1, sections: [...sections] };
}

/** ncu's arguments for the request, before the workload: clocks left alone, CSV of the details page. */
export function ncuArgs(request: DeepDiveRequest): string[] {
  return [
    '--clock-control', 'none',
    '--kernel-name', `regex:${request.nameRegex}`,
    ...(request.demangled ? ['--kernel-name-base', 'demangled'] : []),
    '--launch-skip', String(request.launchSkip),
    '--launch-count', String(request.launchCount),
    ...request.sections.flatMap((section) => ['--section', section]),
    '--csv', '--page', 'details',
  ];
}

/** A word as a POSIX shell reads it back: bare when safe, else single-quoted. */
function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The request as a command line to read and copy; the workload is left as written. */
export function renderNcuCommand(request: DeepDiveRequest, workload: string): string {
  // The filter is always quoted after `regex:`, as ncu's documentation writes it.
  return ['ncu', ...ncuArgs(request).map((word) => (word.startsWith('regex:') ? `regex:'${word.slice(6).replace(/'/g, `'\\''`)}'` : shellWord(word))), workload].join(' ');
}

/** A rule hit's deep-dive fields: the request, and the command people read. */
export function askDeepDive(request: DeepDiveRequest, workload: string): { deepDive: DeepDiveRequest; command: string } {
  return { deepDive: request, command: renderNcuCommand(request, workload) };
}
