/**
 * `profile-gate scrub --out DIR PATH...`: the files of a run made ready to leave the runner, as the
 * action's upload does (src/io/scrub-uploads.ts), for a workflow that uploads `profile-gate run`'s
 * folder itself. Secrets are this process's credential-named variables, --redact-env names and
 * credential shapes; the profilers' own reports stay out unless --raw-reports.
 */
import { readdir, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { InputError, systemErrorText, UsageError, EXIT_OK } from '../errors.js';
import { secretsFromEnv } from '../io/secrets.js';
import { scrubForUpload } from '../io/scrub-uploads.js';
import { makeOutputFolder } from '../io/input-paths.js';
import { refuseRepeatedFlags } from './flag-errors.js';
import { flagOptions, flagsHelp, readFlags } from '../options/read.js';

export const SCRUB_HELP = `Usage: profile-gate scrub --out DIR [options] PATH...

Copies the files under each PATH into DIR, keeping their layout, as the action uploads them: every
secret and environment value taken out of text, gzip and SQLite files; the profilers' own reports
(.nsys-rep, .ncu-rep, .qdrep, Perfetto) left out unless --raw-reports (they embed the workload's
whole environment); any file that still holds a secret value of this environment left out. Secrets
are the values of variables named like credentials (…_TOKEN, …_SECRET, …_API_KEY, …PASSWORD…), of
the variables named in --redact-env, and credential-shaped tokens.

${flagsHelp('scrub', 'all', 24, ['out'])}
`;

async function filesUnder(path: string): Promise<string[]> {
  let info;
  try {
    info = await stat(path);
  } catch (error) {
    throw new InputError(path, `cannot read it (${systemErrorText(error)}); expected a file or a folder to scrub`);
  }
  if (!info.isDirectory()) return [resolve(path)];
  const entries = await readdir(path, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => resolve(entry.parentPath, entry.name)).sort();
}

/** A path as the user would type it: relative to the working folder when inside it, else whole (never `../../x`). */
function shownPath(file: string): string {
  const rel = relative(process.cwd(), file);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : file;
}

export async function runScrubCommand(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const config = { args: argv, allowPositionals: true, strict: true, options: flagOptions('scrub') };
  const { values, positionals } = parseArgs(config);
  refuseRepeatedFlags(config, 'scrub');
  const options = readFlags(values, 'scrub', env);
  if (!options.outDir) throw new UsageError('scrub: --out DIR is required');
  if (!positionals.length) throw new UsageError('scrub: expected at least one PATH to scrub');
  const out = resolve(options.outDir);
  await makeOutputFolder(out, 'the scrubbed files');
  const secrets = secretsFromEnv(env, options.redactEnv);
  const files: { file: string; target: string }[] = [];
  for (const path of positionals) {
    const base = resolve(path);
    for (const file of await filesUnder(path)) {
      if (file === out || file.startsWith(`${out}${sep}`)) continue;
      const rel = file === base ? (base.split(sep).pop() ?? 'file') : join(base.split(sep).pop() ?? '', relative(base, file));
      files.push({ file, target: join(out, rel) });
    }
  }
  const { staged, withheld } = await scrubForUpload(files, { secrets, rawReports: options.uploadRawReports });
  const redactions = staged.reduce((sum, file) => sum + file.redactions, 0);
  process.stdout.write(`scrub: ${staged.length} file(s) written to ${out}, ${redactions} secret or environment value(s) taken out, ${withheld.length} left out\n`);
  for (const { file, reason } of withheld) process.stdout.write(`  left out ${shownPath(file)}: ${reason}\n`);
  return EXIT_OK;
}
