/**
 * Profiler reports a user passes to `analyze` directly (`x.nsys-rep`, `x.ncu-rep`) are binary; their
 * own tool exports them as text. When the tool is on PATH it is run (the exact command printed on
 * stderr) and its CSV is analyzed in the report's place; otherwise one line names the command.
 */
import { spawn } from 'node:child_process';
import { openSync, closeSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { createSystemProbe } from '../runner/detect.js';
import { nsysStatsArgs } from '../runner/profilers.js';
import { formatCommand } from '../runner/shell-words.js';
import { InputError } from '../errors.js';
import type { SkippedInput } from '../model/report.js';

interface ReportKind {
  suffix: string;
  tool: string;
  label: string;
  /** The export command, its stdout the CSV; argv[0] is the tool. */
  exportArgs(tool: string, path: string): string[];
}

const KINDS: readonly ReportKind[] = [
  { suffix: '.nsys-rep', tool: 'nsys', label: 'an Nsight Systems report', exportArgs: nsysStatsArgs },
  { suffix: '.ncu-rep', tool: 'ncu', label: 'an Nsight Compute report', exportArgs: (ncu, path) => [ncu, '--import', path, '--csv', '--page', 'details'] },
];

export function profilerReportKind(path: string): ReportKind | undefined {
  return KINDS.find((kind) => path.toLowerCase().endsWith(kind.suffix));
}

/** Run argv with stdout into `file`; the exit code and the tail of stderr. */
function runToFile(argv: readonly string[], file: string): Promise<{ code: number | null; stderr: string; error?: string }> {
  return new Promise((resolve) => {
    const fd = openSync(file, 'w');
    let stderr = '';
    const child = spawn(argv[0]!, argv.slice(1), { stdio: ['ignore', fd, 'pipe'] });
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
    child.on('error', (error) => {
      closeSync(fd);
      resolve({ code: null, stderr, error: error.message });
    });
    child.on('close', (code) => {
      closeSync(fd);
      resolve({ code, stderr });
    });
  });
}

function lastLine(text: string): string {
  return text.trim().split(/\r?\n/).filter(Boolean).pop()?.slice(0, 300) ?? '';
}

/**
 * Inputs with every profiler report replaced by its exported CSV (in a temporary directory).
 * `log` receives the exact command before it runs. A report found in a folder (`skippable`) whose
 * tool is not on PATH is left out and returned in `skipped` (its export is often beside it), unless
 * nothing else is left to read.
 */
export async function exportProfilerReports(
  inputs: readonly string[],
  log: (line: string) => void,
  skippable: ReadonlySet<string> = new Set(),
): Promise<{ inputs: string[]; skipped: SkippedInput[] }> {
  const probe = createSystemProbe();
  let dir: string | undefined;
  const out: string[] = [];
  const skipped: SkippedInput[] = [];
  let firstMissing: InputError | undefined;
  for (const input of inputs) {
    const kind = profilerReportKind(input);
    if (!kind) {
      out.push(input);
      continue;
    }
    const tool = await probe.which(kind.tool);
    const shown = formatCommand(kind.exportArgs(kind.tool, input));
    if (!tool) {
      const missing = new InputError(input, `${kind.label}, and ${kind.tool} is not on PATH to read it; export it where ${kind.tool} is installed and analyze the CSV: ${shown} > ${basename(input)}.csv`);
      if (!skippable.has(input)) throw missing;
      firstMissing ??= missing;
      skipped.push({ path: input, reason: missing.expected });
      continue;
    }
    dir ??= mkdtempSync(join(tmpdir(), 'profile-gate-export-'));
    const csv = join(dir, `${out.length}-${basename(input)}.csv`);
    log(`${input}: ${kind.label}; running ${shown}`);
    const result = await runToFile(kind.exportArgs(tool, input), csv);
    if (result.code !== 0) {
      const why = result.error ?? (lastLine(result.stderr) || `exit code ${result.code}`);
      throw new InputError(input, `${shown} failed: ${why}`);
    }
    out.push(csv);
  }
  if (out.length === 0 && firstMissing) throw firstMissing;
  return { inputs: out, skipped };
}
