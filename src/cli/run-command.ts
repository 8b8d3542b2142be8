/**
 * `profile-gate run`: the CI job on your own box. Same options as the action's inputs (as --flags),
 * prints the plan first, then runs it, analyzes the captures and writes the report into --out.
 */
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { describeError, EXIT_BAD_INPUT, EXIT_OK, EXIT_RUN_FAILED, exitCodeFor, exitCodesText, UsageError } from '../errors.js';
import { REPORT_FILE, RUN_FILE, type Report } from '../model/report.js';
import type { Capture } from '../model/capture.js';
import type { Probe } from '../runner/detect.js';
import { createPlainLogger, type Logger } from '../runner/logger.js';
import { redact, secretsFromEnv } from '../io/secrets.js';
import { parseRunOptions, RUN_OPTION_NAMES, type RunOptions } from '../runner/run-options.js';
import type { UserFamilyRule } from '../classify/families.js';
import { loadFamilies } from '../io/families-file.js';
import { resolveRunMetadata, systemGit } from './run-metadata.js';
import { baseReportPath, prepareRun, runJob, traceInputs, type AnalyzeSide } from '../runner/run-workload.js';
import type { BaselineChoice } from '../pipeline/analyze.js';
import { loadReport } from '../io/reports.js';
import type { GateOptionsInput } from '../compare/gate-options.js';
import { flagOptions, flagsHelp, readFlags, runFlagTexts, valueFlags } from '../options/read.js';
import { gateOf, type OptionValues } from '../options/table.js';
import type { RuleOptions } from '../diagnose/rule-options.js';
import { verdictExitCode } from './verdict-exit.js';
import { flagUsageError, refuseRepeatedFlags } from './flag-errors.js';
import { renderPlan } from '../runner/plan-text.js';
import { ProcessGroups } from '../runner/process-group.js';
import type { HealthCheck, ServeTiming } from '../runner/serve.js';
import { inertLine, inertLines } from '../report/inert-text.js';

export const RUN_HELP = `Usage: profile-gate run [options]

Runs the workload on this machine the way the action does (warm-up, measured runs with GPU
sampling, one profiled run, an optional Nsight Compute deep dive), then analyzes the captures.
The plan is printed first; --dry-run prints only the plan.

${flagsHelp('run', ['run', 'analyze'], 32, RUN_OPTION_NAMES)}

A/B (the base build in the same job, on the same GPU; its report is the baseline):
${flagsHelp('run', ['ab'], 32)}

Gate:
${flagsHelp('run', ['gate', 'diagnose'], 32)}

The report's name (the dashboard groups by it):
${flagsHelp('run', ['run-metadata'], 32)}

${flagsHelp('run', ['run-output'], 32)}

Exit codes: ${exitCodesText()}; 2 also when the plan cannot run.
`;

export interface RunCommandDeps {
  probe?: Probe;
  pythonDir?: string;
  cwd?: string;
  write?: (text: string) => void;
  logger?: Logger;
  groups?: ProcessGroups;
  health?: HealthCheck;
  serveTiming?: ServeTiming;
  analyze?: (inputs: readonly string[], environment: Report['environment'], which: AnalyzeSide, gate: RunGate, onCaptures?: (captures: readonly Capture[]) => void) => Promise<Report>;
  /** Leave SIGINT/SIGTERM alone (when the caller forwards them itself). */
  noSignalHandlers?: boolean;
}

/** What the gate flags ask for; the A/B baseline, when there is one, comes with the head's analysis. */
export interface RunGate {
  baseline: BaselineChoice | null;
  gate: GateOptionsInput;
  /** The diagnosis rules' options (--rule-option). */
  ruleOptions?: RuleOptions;
  /** The user's kernel families (--families). */
  families?: readonly UserFamilyRule[];
  /** The report's run block: the workload's name, the commit, the time. */
  run?: Report['run'];
}

async function defaultAnalyze(inputs: readonly string[], environment: Report['environment'], which: AnalyzeSide, gate: RunGate, onCaptures?: (captures: readonly Capture[]) => void): Promise<Report> {
  const { analyze } = await import('../pipeline/analyze.js');
  const baseline = which.side === 'base' ? null : which.baseline ?? gate.baseline;
  const skipped = which.side === 'head' && which.skipped?.length ? { skippedInputs: which.skipped } : {};
  return analyze({
    inputs,
    environment,
    baseline,
    gate: gate.gate,
    ...skipped,
    ...(gate.ruleOptions ? { diagnose: { options: gate.ruleOptions } } : {}),
    ...(gate.families ? { families: gate.families } : {}),
    ...(gate.run ? { run: gate.run } : {}),
    ...(onCaptures ? { onCaptures } : {}),
  });
}

async function gateFromFlags(file: string | undefined, flags: OptionValues, abRun: boolean): Promise<RunGate> {
  if (file !== undefined && abRun) throw new UsageError('--baseline: an A/B run (--base-workdir/--base-run) compares with its own base build; give one or the other');
  return {
    baseline: file !== undefined ? { report: await loadReport(file), origin: 'file', path: file, reason: '--baseline given on the command line' } : null,
    gate: gateOf(flags),
    ...(Object.keys(flags.ruleOptions).length ? { ruleOptions: flags.ruleOptions } : {}),
  };
}

async function writeReport(report: Report, outDir: string, write: (text: string) => void): Promise<void> {
  const [{ serializeReport }, { renderSummary }, { renderTerminal }, { writeOutput }] = await Promise.all([
    import('../report/json.js'),
    import('../report/markdown/summary.js'),
    import('../report/terminal.js'),
    import('../io/input-paths.js'),
  ]);
  await writeOutput(join(outDir, REPORT_FILE), serializeReport(report));
  await writeOutput(join(outDir, 'report.md'), renderSummary(report));
  write(`\n${renderTerminal(report)}`);
}

/**
 * The report's name when --workload is not given: the model, else a command workload's command
 * (not the folder its console was read from).
 */
function workloadName(options: RunOptions): string | undefined {
  if (options.model) return undefined;
  const command = options.run?.trim();
  if (!command) return undefined;
  return command.length > 60 ? `${command.slice(0, 59)}…` : command;
}

const STRING_FLAGS = new Set<string>(valueFlags('run'));

/** `--max-args --max-length 2048`: the value of a string flag may start with a dash (parseArgs refuses that). */
function joinFlagValues(argv: readonly string[]): string[] {
  const joined: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const word = argv[i]!;
    if (STRING_FLAGS.has(word) && i + 1 < argv.length) joined.push(`${word}=${argv[++i]}`);
    else joined.push(word);
  }
  return joined;
}

function parseRunArgs(argv: string[]) {
  const config = {
    args: joinFlagValues(argv),
    strict: true,
    allowPositionals: false,
    options: {
      ...flagOptions('run'),
      help: { type: 'boolean' as const, short: 'h' },
    },
  };
  const parsed = parseArgs(config);
  refuseRepeatedFlags(config, 'run');
  return parsed;
}

export async function runCommandWith(argv: string[], deps: RunCommandDeps = {}): Promise<number> {
  // The terminal is a CI job's log: the workload's lines lose their secrets there too.
  const secrets = secretsFromEnv(process.env);
  const writeRaw = deps.write ?? ((text: string) => void process.stdout.write(text));
  const write = (text: string) => writeRaw(redact(text, secrets));
  try {
    let parsed;
    try {
      parsed = parseRunArgs(argv);
    } catch (error) {
      // `run -- python serve.py` is how many tools take a command; this one takes it as one flag.
      const separator = argv.indexOf('--');
      if (separator >= 0) {
        const command = argv.slice(separator + 1).join(' ');
        throw new UsageError(`run: the workload command goes in --run, not after --: profile-gate run --engine command --run ${JSON.stringify(command || 'COMMAND')}`);
      }
      throw flagUsageError(error, 'run', Object.keys(flagOptions('run')));
    }
    const { values } = parsed;
    if (values.help) {
      write(RUN_HELP);
      return EXIT_OK;
    }
    const options = parseRunOptions(runFlagTexts(values), 'cli');
    const flags = readFlags(values, 'run');
    const runGate: RunGate = {
      ...(await gateFromFlags(flags.baselineFile, flags, options.base !== undefined)),
      ...(flags.families ? { families: await loadFamilies(resolve(deps.cwd ?? process.cwd(), flags.families)) } : {}),
      run: resolveRunMetadata({ workload: flags.workload || workloadName(options) }, process.env, systemGit),
    };
    const plan = await prepareRun(options, {
      outDir: flags.out,
      ...(deps.cwd ? { cwd: deps.cwd } : {}),
      ...(deps.probe ? { probe: deps.probe } : {}),
      ...(deps.pythonDir ? { pythonDir: deps.pythonDir } : {}),
    });
    write(inertLines(renderPlan(plan)));
    if (flags.dryRun) return plan.problems.length ? EXIT_BAD_INPUT : EXIT_OK;
    if (plan.problems.length) throw new UsageError(`the plan cannot run: ${plan.problems.join('; ')}`);

    const logger = deps.logger ?? createPlainLogger(write, { showOutput: !flags.quiet });
    const groups = deps.groups ?? new ProcessGroups();
    let job: Promise<unknown> | undefined;
    // On a signal: the groups are stopped, then run.json (marked cancelled) is written before the exit.
    const restoreSignals = deps.noSignalHandlers
      ? () => undefined
      : groups.forwardSignals({ settle: () => job ?? Promise.resolve(), beforeExit: (signal) => write(`\nprofile-gate: ${signal}: stopped the workload's process groups; ${join(plan.outDir, RUN_FILE)} says what finished\n`) });
    const analyze = deps.analyze ?? defaultAnalyze;
    // The captures of the head's last analysis: what profile.json and the clean traces are written from.
    let read: readonly Capture[] = [];
    let result;
    try {
      const running = runJob(plan, {
        logger,
        groups,
        secrets,
        ...(deps.health ? { health: deps.health } : {}),
        ...(deps.serveTiming ? { serveTiming: deps.serveTiming } : {}),
        analyze: (inputs, which) =>
          analyze(inputs, plan.environment, which, runGate, (captures) => {
            if (which.side !== 'base') read = captures;
          }),
      });
      job = running;
      result = await running;
    } finally {
      restoreSignals();
    }
    const { run } = result;
    write(`\nrun ${run.outcome} in ${run.seconds.toFixed(1)} s; ${run.analysisInputs.length} capture file(s); details in ${join(plan.outDir, RUN_FILE)}\n`);
    if (run.outcome !== 'ok') {
      process.stderr.write(`profile-gate: run ${run.outcome}: ${inertLine(run.message ?? '')}\n`);
      return EXIT_RUN_FAILED;
    }
    if (!result.report) return EXIT_OK;
    if (result.baseReport) write(`\nthe base build's report (the baseline): ${baseReportPath(plan)}\n`);
    await writeReport(result.report, plan.outDir, write);
    const { writeDerivedFiles } = await import('../io/derived-files.js');
    const derived = await writeDerivedFiles(plan.outDir, result.report, read, secrets, { traceInputs: traceInputs(run) });
    for (const line of derived.unread) write(`profile-gate: ${line}\n`);
    write(`\nprofile.json and ${derived.traces.length} clean trace(s) written from the captures: ${derived.traces.length ? `${join(plan.outDir, 'traces')} (open in https://ui.perfetto.dev or chrome://tracing); ` : ''}these, not the raw captures, are what to share\n`);
    if (flags.strict && result.lost?.length) {
      // A planned capture that was not made fails a strict run, as an unreadable input fails a strict analyze.
      process.stderr.write(`profile-gate: --strict: ${inertLine(result.lost.map((entry) => `${entry.path}: ${entry.reason}`).join('; '))}\n`);
      return EXIT_RUN_FAILED;
    }
    return verdictExitCode(result.report, flags.failVerdicts);
  } catch (error) {
    process.stderr.write(`profile-gate: ${inertLine(describeError(error))}\n`);
    return exitCodeFor(error);
  }
}

/** `profile-gate run …` */
export function runCommand(argv: string[]): Promise<number> {
  return runCommandWith(argv);
}
