/**
 * The CLI door to the engine: parse arguments, run, render, and map the outcome to an exit code
 * (0 ok, 1 the gate failed, 2 bad input or usage). Errors a user can cause print one line.
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stat } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { analyze, type AnalyzeOptions, type BaselineChoice } from '../pipeline/analyze.js';
import { captureFormatOf, loadReport } from '../io/reports.js';
import { flagOptions, flagsHelp, readFlags } from '../options/read.js';
import { COMMANDS, gateOf, type Command, type OptionValues } from '../options/table.js';
import { DEFAULT_FAIL_VERDICTS } from '../compare/verdict.js';
import { verdictExitCode } from './verdict-exit.js';
import { describeError, EXIT_OK, exitCodeFor, exitCodesText, UsageError } from '../errors.js';
import type { Report } from '../model/report.js';
import { renderSummary } from '../report/markdown/summary.js';
import { renderTerminal } from '../report/terminal.js';
import { inertLine } from '../report/inert-text.js';
import { serializeReport } from '../report/json.js';
import { TOOL_VERSION } from '../version.js';
import { expandInputs, writeOutput } from '../io/input-paths.js';
import { gatherCaptures } from '../io/gather-captures.js';
import { loadFamilies } from '../io/families-file.js';
import { exportProfilerReports } from './profiler-reports.js';
import { resolveRunMetadata, systemGit } from './run-metadata.js';
import { flagUsageError, refuseRepeatedFlags } from './flag-errors.js';

const HELP = `profile-gate ${TOOL_VERSION}: GPU inference performance as a CI gate

Usage:
  profile-gate analyze [options] INPUT...   analyze capture files (or directories of them) into one report
  profile-gate demo [--json F] [--markdown F]  the bundled real H200 captures: a head run gated against its baseline
  profile-gate run [options]                the whole CI job on this GPU box: warm-up, measured and
                                            profiled runs, then analyze (see profile-gate run --help)
  profile-gate report --out DIR REPORT...   merge report.json files (matrix legs) into one summary and comment
  profile-gate dashboard --out DIR INPUT... a static dashboard from many report.json files (or --from-artifacts)
  profile-gate scrub --out DIR PATH...      copy a run's files without secrets or environment, ready to upload
  profile-gate --version
  profile-gate COMMAND --help               the options of one command

analyze options:
${flagsHelp('analyze', ['output', 'analyze'], 23)}

gate options (analyze):
${flagsHelp('analyze', ['gate', 'diagnose'], 23)}

run metadata (analyze; the dashboard groups and labels reports by them):
${flagsHelp('analyze', ['run-metadata'], 23)}

INPUT may be a capture file, a directory of them, or an Nsight report (x.nsys-rep, x.ncu-rep): with
nsys or ncu on PATH it is exported first (nsys stats / ncu --import … --csv), the command shown.

Exit codes: ${exitCodesText()}. Bad input includes an unreadable file and an analysis past --timeout.
`;

const ANALYZE_HELP = `Usage: profile-gate analyze [options] INPUT...

${HELP.slice(HELP.indexOf('analyze options:'))}`;

const DEMO_HELP = `Usage: profile-gate demo [options]

The bundled real H200 captures (samples/), analyzed as the gate would on a pull request: the
fused-attention run is the baseline, the unfused-attention run the head. No GPU needed. A failing
verdict is shown, and the demo still exits 0.

${flagsHelp('demo', 'all', 23)}
`;

/** The demo's last lines: the same analysis on your own captures. */
const DEMO_NEXT = `Next, on your own captures (an nsys kernel summary, a PyTorch profiler trace, metric lines):
  profile-gate analyze --json base.json BASELINE_CAPTURES...
  profile-gate analyze --baseline base.json CAPTURES...
Every input format, with a minimal file of each: references/formats.md
`;

/** A command of its own module, with its --help. */
interface CommandModule {
  help: string;
  run(args: string[]): Promise<number>;
}

/**
 * The commands kept in modules of their own, loaded only when named: every run of the CLI would
 * otherwise compile the runner, the dashboard and the scrubber (about half the bundle) before an
 * `analyze` reads its first byte.
 */
const COMMAND_MODULES: ReadonlyMap<string, () => Promise<CommandModule>> = new Map([
  ['run', () => import('./run-command.js').then((m) => ({ help: m.RUN_HELP, run: m.runCommand }))],
  ['report', () => import('./report-command.js').then((m) => ({ help: m.REPORT_HELP, run: m.runReportCommand }))],
  ['dashboard', () => import('./dashboard-command.js').then((m) => ({ help: m.DASHBOARD_HELP, run: m.runDashboardCommand }))],
  ['scrub', () => import('./scrub-command.js').then((m) => ({ help: m.SCRUB_HELP, run: m.runScrubCommand }))],
]);

/** Each command's own --help. */
async function commandHelp(command: string): Promise<string | undefined> {
  if (command === 'analyze') return ANALYZE_HELP;
  if (command === 'demo') return DEMO_HELP;
  return (await COMMAND_MODULES.get(command)?.())?.help;
}

/** On a terminal, unless NO_COLOR is set (https://no-color.org) or TERM is dumb. */
export function wantsColor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env['NO_COLOR']) return false;
  if (env['FORCE_COLOR'] && env['FORCE_COLOR'] !== '0') return true;
  return Boolean(stream.isTTY) && env['TERM'] !== 'dumb';
}

/** Where the bundled sample captures live: <package root>/samples, both from src/cli and dist/cli. */
export function samplesDirectory(): string {
  return join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'samples');
}

interface Outputs {
  json?: string;
  markdown?: string;
  top: number;
}

function outputsOf(options: Pick<OptionValues, 'json' | 'markdown' | 'top'>): Outputs {
  return { ...(options.json ? { json: options.json } : {}), ...(options.markdown ? { markdown: options.markdown } : {}), top: options.top };
}

/** Both on stdout would glue JSON and markdown into one stream no reader can split. */
function checkOutputs(outputs: { json?: string | undefined; markdown?: string | undefined }): void {
  if (outputs.json === '-' && outputs.markdown === '-') throw new UsageError('--json - and --markdown - both write to stdout; send one of them to a file');
}

/**
 * A report written over a capture would destroy it: an output named among the inputs, or one where a
 * capture already is (`--json` given no file name takes the next word, the first capture, as it).
 */
async function refuseOutputOverInput(outputs: { json?: string | undefined; markdown?: string | undefined }, files: readonly string[]): Promise<void> {
  const inputs = new Set(files.map((file) => resolve(file)));
  for (const [flag, target] of [['--json', outputs.json], ['--markdown', outputs.markdown]] as const) {
    if (!target || target === '-') continue;
    if (inputs.has(resolve(target))) {
      throw new UsageError(`${flag} ${target}: it is one of the inputs; expected a new file to write the report to (the capture would be overwritten)`);
    }
    const isFile = await stat(target).then((info) => info.isFile(), () => false);
    const format = isFile ? await captureFormatOf(target) : undefined;
    if (format) {
      throw new UsageError(`${flag} ${target}: a capture (${format}) is there; expected a new file to write the report to, or a report to replace (was the file name left out after ${flag}?)`);
    }
  }
}

async function emit(report: Report, outputs: Outputs, failVerdicts: readonly string[] = DEFAULT_FAIL_VERDICTS): Promise<number> {
  if (outputs.json) await writeOutput(outputs.json, serializeReport(report));
  if (outputs.markdown) await writeOutput(outputs.markdown, renderSummary(report));
  if (outputs.json !== '-' && outputs.markdown !== '-') process.stdout.write(renderTerminal(report, { topKernels: outputs.top, color: wantsColor(process.stdout) }));
  return verdictExitCode(report, failVerdicts);
}

async function runAnalyze(args: string[], defaultInputs?: string[]): Promise<number> {
  const config = { args, allowPositionals: true, strict: true, options: flagOptions('analyze') };
  const { values, positionals } = parseArgs(config);
  refuseRepeatedFlags(config, 'analyze');
  const options = readFlags(values, 'analyze', process.env);
  checkOutputs(options);
  const run = resolveRunMetadata(options, process.env, systemGit);
  const inputs = positionals.length ? positionals : defaultInputs;
  if (!inputs?.length) throw new UsageError('analyze: expected at least one INPUT (a capture file or a directory); see profile-gate --help');
  const families = options.families ? await loadFamilies(options.families) : [];
  const baseline: BaselineChoice | null = options.baselineFile
    ? { report: await loadReport(options.baselineFile), origin: 'file', path: options.baselineFile, reason: '--baseline given on the command line' }
    : null;
  const { files, fromDirectories, skipped } = await gatherCaptures(inputs, {
    policy: options.ifNoCaptures,
    option: '--if-no-captures',
    warn: (line) => process.stderr.write(`warning: ${inertLine(line)}\n`),
    ...(options.strict ? { strict: true, strictOption: '--strict' } : {}),
  });
  await refuseOutputOverInput(options, files);
  const exported = await exportProfilerReports(files, (line) => process.stderr.write(`profile-gate: ${inertLine(line)}\n`), options.strict ? new Set() : fromDirectories);
  for (const left of exported.skipped) process.stderr.write(`warning: ${inertLine(`left out ${left.path}: ${left.reason}`)}\n`);
  const leftOut = [...skipped, ...exported.skipped];
  const analyzeOptions: AnalyzeOptions = {
    inputs: exported.inputs,
    ...(options.allowMixed ? { allowMixed: true } : {}),
    ...(options.strict ? {} : { skippable: fromDirectories }),
    ...(options.smiColumns ? { ingest: { smiColumns: options.smiColumns } } : {}),
    ...(options.format ? { format: options.format } : {}),
    ...(leftOut.length ? { skippedInputs: leftOut } : {}),
    families,
    run,
    baseline,
    gate: gateOf(options),
    diagnose: { options: options.ruleOptions },
    ...(options.analyzeTimeoutSeconds !== undefined ? { timeoutMs: options.analyzeTimeoutSeconds * 1000 } : {}),
  };
  const report = await analyze(analyzeOptions);
  return emit(report, outputsOf(options), options.failVerdicts);
}

/**
 * The bundled real captures, analyzed as the gate would on a pull request: the healthy run is the
 * baseline, the unfused-attention variant the head. A failing verdict is shown, not turned into exit 1.
 */
async function runDemo(args: string[]): Promise<number> {
  const config = { args, strict: true, options: flagOptions('demo') };
  const { values } = parseArgs(config);
  refuseRepeatedFlags(config, 'demo');
  const options = readFlags(values, 'demo');
  checkOutputs(options);
  const samples = samplesDirectory();
  const baselineDir = join(samples, 'baseline');
  const baseline = await analyze({ inputs: await expandInputs([baselineDir]) });
  const report = await analyze({
    inputs: await expandInputs([join(samples, 'current')]),
    baseline: { report: baseline, origin: 'file', path: baselineDir, reason: 'the bundled fused-attention run of the same workload on the same H200' },
  });
  // With `-` stdout holds the document alone; the words around it go to stderr.
  const aside = options.json === '-' || options.markdown === '-' ? process.stderr : process.stdout;
  aside.write(`Demo: ${join(samples, 'current')} against the baseline ${baselineDir} (real H200 captures; see samples/README.md)\n\n`);
  await emit(report, outputsOf(options));
  if (report.verdict === 'fail') aside.write('\nIn CI this verdict fails the job (exit code 1); the demo exits 0.\n');
  aside.write(`\n${DEMO_NEXT}`);
  return EXIT_OK;
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    const help = command && (rest.includes('--help') || rest.includes('-h')) ? await commandHelp(command) : undefined;
    if (help) {
      process.stdout.write(help);
      return EXIT_OK;
    }
    const commandModule = command === undefined ? undefined : COMMAND_MODULES.get(command);
    if (commandModule) return await (await commandModule()).run(rest);
    switch (command) {
      case 'analyze':
        return await runAnalyze(rest);
      case 'demo':
        return await runDemo(rest);
      case '--version':
      case 'version':
        process.stdout.write(`${TOOL_VERSION}\n`);
        return EXIT_OK;
      case undefined:
        throw new UsageError('expected a command: analyze, run, report, dashboard, scrub or demo (profile-gate --help lists them)');
      case '--help':
      case '-h':
      case 'help':
        process.stdout.write(HELP);
        return EXIT_OK;
      default:
        throw new UsageError(`unknown command ${JSON.stringify(command)}; expected analyze, run, report, dashboard, scrub, demo or --help`);
    }
  } catch (error) {
    const known = (COMMANDS as readonly string[]).includes(command ?? '') ? (command as Command) : undefined;
    const wrapped = flagUsageError(error, known ?? 'profile-gate', known ? Object.keys(flagOptions(known)) : []);
    process.stderr.write(`profile-gate: ${inertLine(describeError(wrapped))}\n`);
    return exitCodeFor(wrapped);
  }
}
