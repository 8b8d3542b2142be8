/**
 * The deep dive: Nsight Compute on the one kernel the analysis points at. The `dominant-kernel`
 * finding carries an ncu command; here it is made safe and complete: only ncu is ever run, the
 * card's clocks are left alone (`--clock-control none`), the output is CSV of the details page,
 * and the workload goes where the command says `<workload>` (or at the end).
 */
import { basename } from 'node:path';
import { DEEP_DIVE_SECTIONS } from '../../diagnose/signals.js';
import { splitShellWords, hasFlag } from './shell-words.js';

export const DEEP_DIVE_FINDING = 'dominant-kernel';
/** How a rule may mark where the workload goes (the longest first: they are replaced as text). */
export const WORKLOAD_PLACEHOLDERS = ['<workload command>', '<workload>', '<command>', '{workload}', '{command}'];
const MARKER = '\u0000workload\u0000';
const DEFAULT_SECTIONS = DEEP_DIVE_SECTIONS.flatMap((section) => ['--section', section]);

export interface DeepDiveTarget {
  findings: ReadonlyArray<{ id: string; command?: string; kernel?: string }>;
  /** The kernel with the most GPU time, for deep-dive: always without a finding. */
  topKernel?: string;
}

export type DeepDiveChoice = { run: true; argv: string[]; why: string } | { run: false; why: string };

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A generic ncu command for one kernel: skip the first launches (warm-up), profile a few. */
export function ncuForKernel(ncu: string, kernel: string, workload: readonly string[]): string[] {
  return [ncu, '--clock-control', 'none', '--csv', '--page', 'details', ...DEFAULT_SECTIONS, '-k', `regex:${escapeRegex(kernel)}`, '--launch-skip', '20', '--launch-count', '4', ...workload];
}

/**
 * Complete a finding's ncu command. Throws when it is not an ncu command (nothing else is run from
 * an analysis) or asks for clock control other than none.
 */
export function completeNcuCommand(command: string, ncu: string, workload: readonly string[]): string[] {
  let marked = command;
  for (const placeholder of WORKLOAD_PLACEHOLDERS) marked = marked.split(placeholder).join(MARKER);
  const words = splitShellWords(marked);
  if (words.length === 0 || basename(words[0]!) !== 'ncu') throw new Error(`the finding's command is not an ncu command: ${command}`);
  const args = words.slice(1);
  const clock = args.findIndex((word) => word === '--clock-control' || word.startsWith('--clock-control='));
  if (clock >= 0) {
    const value = args[clock]!.includes('=') ? args[clock]!.split('=')[1] : args[clock + 1];
    if (value !== 'none') throw new Error(`the finding's command sets --clock-control ${value}; the GPU's clocks must be left alone (--clock-control none)`);
  }
  const required = [...(clock >= 0 ? [] : ['--clock-control', 'none']), ...(hasFlag(args, '--csv') ? [] : ['--csv']), ...(hasFlag(args, '--page') ? [] : ['--page', 'details'])];
  const placeholder = args.indexOf(MARKER);
  if (placeholder >= 0) return [ncu, ...required, ...args.slice(0, placeholder), ...workload, ...args.slice(placeholder + 1)];
  // The rule may already have been told the workload: do not run it twice.
  const endsWithWorkload = workload.length > 0 && args.length >= workload.length && workload.every((word, i) => args[args.length - workload.length + i] === word);
  return [ncu, ...required, ...args, ...(endsWithWorkload ? [] : workload)];
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

export function chooseDeepDive(mode: 'auto' | 'off' | 'always', target: DeepDiveTarget, ncu: string, workload: readonly string[]): DeepDiveChoice {
  if (mode === 'off') return { run: false, why: 'deep-dive: off' };
  const finding = target.findings.find((f) => f.id === DEEP_DIVE_FINDING);
  if (finding?.command) {
    try {
      return { run: true, argv: completeNcuCommand(finding.command, ncu, workload), why: `the ${DEEP_DIVE_FINDING} finding (${finding.kernel ?? 'its kernel'})` };
    } catch (error) {
      return { run: false, why: (error as Error).message };
    }
  }
  const kernel = finding?.kernel ?? (mode === 'always' ? target.topKernel : undefined);
  if (kernel) return { run: true, argv: ncuForKernel(ncu, kernel, workload), why: finding ? `the ${DEEP_DIVE_FINDING} finding (${kernel})` : `deep-dive: always, on the top kernel ${kernel}` };
  return { run: false, why: mode === 'always' ? 'deep-dive: always, but the analysis has no kernels' : `no ${DEEP_DIVE_FINDING} finding: no deep dive needed` };
}
