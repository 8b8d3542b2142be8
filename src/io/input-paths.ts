/** File-system edges shared by the CLI and the action: expanding inputs and writing outputs. */
import { readdir, stat, writeFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { InputError } from '../errors.js';
import { REPORT_FILE } from '../model/report.js';

const SKIPPED_IN_DIRECTORIES = /\.(md|txt|py|sh)$|(^|\/)\./i;

/** Files named directly are taken as they are; directories give their capture files, recursively. */
export async function expandInputs(inputs: readonly string[]): Promise<string[]> {
  return (await expandInputSet(inputs)).files;
}

/** As expandInputs, also saying which files were found inside a directory rather than named. */
export async function expandInputSet(inputs: readonly string[]): Promise<{ files: string[]; fromDirectories: Set<string> }> {
  const files = await expandPaths(inputs);
  const named = new Set(inputs);
  return { files, fromDirectories: new Set(files.filter((file) => !named.has(file))) };
}

async function expandPaths(inputs: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  for (const input of inputs) {
    let info;
    try {
      info = await stat(input);
    } catch (error) {
      throw new InputError(input, `cannot read the input (${(error as NodeJS.ErrnoException).code ?? 'error'}); expected a capture file or a directory of them`);
    }
    if (!info.isDirectory()) {
      files.push(input);
      continue;
    }
    let listed;
    try {
      listed = await readdir(input, { withFileTypes: true });
    } catch (error) {
      throw new InputError(input, `cannot read the folder (${(error as NodeJS.ErrnoException).code ?? 'error'}); expected a folder of capture files that this user may list`);
    }
    const entries = listed.sort((a, b) => a.name.localeCompare(b.name));
    const nested: string[] = [];
    for (const entry of entries) {
      // Notes, scripts, hidden files, and a report of ours (a run's output folder holds one) are no capture.
      if (SKIPPED_IN_DIRECTORIES.test(entry.name) || entry.name === REPORT_FILE) continue;
      if (entry.isDirectory() || entry.isFile()) nested.push(join(input, entry.name));
    }
    files.push(...(await expandPaths(nested)));
  }
  return files;
}

/** Write to a file, or to stdout for `-`. */
export async function writeOutput(target: string, text: string): Promise<void> {
  if (target === '-') {
    process.stdout.write(text);
    return;
  }
  try {
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, text);
  } catch (error) {
    // A full disk or a path that cannot be a file: say which file, in one line.
    const { code, message } = error as NodeJS.ErrnoException;
    throw new InputError(target, `cannot write it (${code ?? 'error'}: ${message.replace(/^\w+: /, '').replace(/, \w+(?: '.*')?$/, '')})`);
  }
}
