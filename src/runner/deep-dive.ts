/**
 * The deep dive: Nsight Compute on the one kernel the analysis points at. A finding asks for it
 * with a structured request (kernel key and filter, launch skip, sections); here it becomes argv:
 * only ncu is ever run, the card's clocks are left alone (`--clock-control none`), the output is
 * CSV of the details page, and the workload follows ncu's own arguments.
 */
import { matchKernel } from '../classify/kernel-name.js';
import { deepDiveRequest, ncuArgs, type DeepDiveRequest } from '../diagnose/deep-dive-request.js';

export interface DeepDiveTarget {
  findings: ReadonlyArray<{ id: string; kernel?: string; deepDive?: DeepDiveRequest }>;
  /** The kernel with the most GPU time and its launches, for deep-dive: always without a finding. */
  topKernel?: { name: string; instances: number };
}

export type DeepDiveChoice = { run: true; argv: string[]; why: string; request: DeepDiveRequest } | { run: false; why: string };

/** The ncu command line of a request: ncu, its arguments, then the workload. */
export function ncuArgv(ncu: string, request: DeepDiveRequest, workload: readonly string[]): string[] {
  return [ncu, ...ncuArgs(request), ...workload];
}

/**
 * Send ncu's own output (the CSV) to `file` with --log-file, so the workload's stdout stays out of
 * it; a --log-file the command already had is replaced.
 */
export function withNcuLogFile(argv: readonly string[], file: string): string[] {
  const rest: string[] = [];
  for (let i = 1; i < argv.length; i += 1) {
    if (argv[i] === '--log-file') i += 1;
    else if (!argv[i]!.startsWith('--log-file=')) rest.push(argv[i]!);
  }
  return [argv[0]!, '--log-file', file, ...rest];
}

/** The first finding that asks for a deep dive (findings come in the escalation's order), else the top kernel when asked always. */
export function chooseDeepDive(mode: 'auto' | 'off' | 'always', target: DeepDiveTarget, ncu: string, workload: readonly string[]): DeepDiveChoice {
  if (mode === 'off') return { run: false, why: 'deep-dive: off' };
  const finding = target.findings.find((f) => f.deepDive);
  if (finding?.deepDive) {
    return { run: true, argv: ncuArgv(ncu, finding.deepDive, workload), why: `the ${finding.id} finding (${finding.deepDive.kernel})`, request: finding.deepDive };
  }
  if (mode === 'always' && target.topKernel) {
    const request = deepDiveRequest(target.topKernel.name, target.topKernel.instances);
    return { run: true, argv: ncuArgv(ncu, request, workload), why: `deep-dive: always, on the top kernel ${target.topKernel.name}`, request };
  }
  return { run: false, why: mode === 'always' ? 'deep-dive: always, but the analysis has no kernels' : 'no finding asks for a deep dive' };
}

/** What ncu was asked for, in words, so a deep dive that attached nothing says where to look. */
export function askedText(request: DeepDiveRequest): string {
  return `ncu was asked for launch ${request.launchSkip + 1} of the kernels matching ${request.nameRegex}${request.demangled ? ' (demangled names)' : ''}`;
}

/**
 * Why the deep dive read from `file` does not attach to the kernel it was asked for: no profiled
 * launch in it, or launches of other kernels only. Undefined when one of its launches is that kernel.
 */
export function deepDiveMismatch(launches: ReadonlyArray<{ kernel: string }>, request: DeepDiveRequest, file: string): string | undefined {
  if (launches.length === 0) return `the deep dive's ${file} was read but holds no profiled launch; the report has no Nsight Compute section (${askedText(request)}).`;
  const wanted = [{ name: request.kernel, totalNs: 0 }];
  if (launches.some((launch) => matchKernel(launch.kernel, wanted))) return undefined;
  const names = [...new Set(launches.map((launch) => launch.kernel))];
  const short = (name: string) => (name.length > 120 ? `${name.slice(0, 120)}…` : name);
  const shown = names.slice(0, 3).map(short).join('; ');
  return `the deep dive's ${file} holds launches of ${shown}${names.length > 3 ? ` and ${names.length - 3} more` : ''}, none of them ${short(request.kernel)} (key ${request.kernelKey}), the kernel it was run for (${askedText(request)}).`;
}
