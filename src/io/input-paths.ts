/** File-system edges shared by the CLI and the action: expanding inputs and writing outputs. */
import { constants, createReadStream } from 'node:fs';
import { createHash } from 'node:crypto';
import { readdir, stat, writeFile, mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { InputError, systemErrorText } from '../errors.js';
import { BASE_SIDE_DIR, REPORT_FILE, RUN_FILE } from '../model/report.js';
import { PROFILE_FILE } from '../report/profile-json.js';
import { CONTEXT_FILE } from '../github/report-artifacts.js';
import { compareText } from '../model/text-order.js';

const SKIPPED_IN_DIRECTORIES = /\.(md|txt|py|sh)$|(^|\/)\./i;

/** The folder of the clean traces profile-gate writes from the captures (io/derived-files.ts). */
export const TRACES_DIR = 'traces';
/**
 * What profile-gate writes beside its report.json (run --out, the action's report folder): in a
 * folder that holds our report, these are ours and no capture. Elsewhere the names are the user's.
 */
const OWN_FILES: ReadonlySet<string> = new Set([RUN_FILE, PROFILE_FILE, CONTEXT_FILE]);

/** Where `profile-gate run` gathers the metric lines of a long workload console (next to its log). */
export function consoleMetricsPath(logPath: string): string {
  return `${logPath.replace(/\.log$/, '')}.metrics.jsonl`;
}

/** Files named directly are taken as they are; directories give their capture files, recursively. */
export async function expandInputs(inputs: readonly string[]): Promise<string[]> {
  return (await expandInputSet(inputs)).files;
}

/** An entry of a folder that could not be taken as an input, and why. */
export interface LeftOutInput {
  path: string;
  reason: string;
}

/** Linux's PATH_MAX: a path of this many bytes or more cannot be opened. */
export const PATH_MAX_BYTES = 4096;

/** A file read once because another input holds the same bytes (`of`, the one read). */
export interface CopiedInput {
  path: string;
  of: string;
}

/** The sha256 of a file's bytes, read as a stream (captures can be gigabytes). */
async function contentHash(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * The files whose bytes another file of the list already holds (a capture copied under another
 * name): read twice, its samples would count twice. Only files of equal, non-zero size are read.
 */
async function copiesAmong(files: readonly string[]): Promise<CopiedInput[]> {
  const bySize = new Map<number, string[]>();
  for (const file of files) {
    const { size } = await stat(file);
    if (size === 0) continue;
    const group = bySize.get(size);
    if (group) group.push(file);
    else bySize.set(size, [file]);
  }
  const copies: CopiedInput[] = [];
  for (const group of bySize.values()) {
    if (group.length < 2) continue;
    const first = new Map<string, string>();
    for (const file of group) {
      const hash = await contentHash(file);
      const of = first.get(hash);
      if (of === undefined) first.set(hash, file);
      else copies.push({ path: file, of });
    }
  }
  return copies;
}

/**
 * As expandInputs, also saying which files were found inside a directory rather than named, and
 * which entries of a folder were left out (a name that is not UTF-8, a path too long to open, an
 * entry gone or unreadable): one such entry never costs the rest of the folder; and which files
 * were read once because another holds the same bytes (`copies`).
 */
export async function expandInputSet(inputs: readonly string[]): Promise<{ files: string[]; fromDirectories: Set<string>; leftOut: LeftOutInput[]; copies: CopiedInput[] }> {
  const found: string[] = [];
  const leftOut: LeftOutInput[] = [];
  await expandPaths(inputs, false, found, leftOut);
  // A file named twice, or named beside its folder, is one capture: read twice, its samples would count twice.
  const seen = new Set<string>();
  const unique = found.filter((file) => !seen.has(resolve(file)) && Boolean(seen.add(resolve(file))));
  // The same bytes under another name (a copy, a hard link) are one capture too.
  const copies = await copiesAmong(unique);
  const copied = new Set(copies.map((copy) => copy.path));
  const files = unique.filter((file) => !copied.has(file));
  const named = new Set(inputs.map((input) => resolve(input)));
  return { files, fromDirectories: new Set(files.filter((file) => !named.has(resolve(file)))), leftOut, copies };
}

/** A file name's bytes as text: printable ASCII as is, every other byte as \xNN. */
function bytesText(name: Buffer): string {
  return [...name].map((byte) => (byte >= 0x20 && byte < 0x7f && byte !== 0x5c ? String.fromCharCode(byte) : `\\x${byte.toString(16).padStart(2, '0')}`)).join('');
}

async function expandPaths(inputs: readonly string[], inFolder: boolean, files: string[], leftOut: LeftOutInput[]): Promise<void> {
  for (const input of inputs) {
    let info;
    try {
      if (Buffer.byteLength(input) >= PATH_MAX_BYTES) throw Object.assign(new Error('path too long'), { code: 'ENAMETOOLONG' });
      info = await stat(input);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      if (!inFolder) throw new InputError(input, `cannot read the input (${systemErrorText(error)}); expected a capture file or a directory of them`);
      // Found in a folder: left out with its reason, and the folder's other files are read.
      const reason =
        code === 'ENAMETOOLONG'
          ? `its path is ${Buffer.byteLength(input)} bytes, more than the system opens (PATH_MAX, ${PATH_MAX_BYTES} bytes)`
          : `cannot read it (${systemErrorText(error)})`;
      leftOut.push({ path: input.length > 300 ? `${input.slice(0, 150)}…${input.slice(-150)}` : input, reason });
      continue;
    }
    if (!info.isDirectory()) {
      files.push(input);
      continue;
    }
    let listed;
    try {
      // Names as bytes: a name that is not UTF-8 would come back as text naming another file.
      listed = await readdir(input, { withFileTypes: true, encoding: 'buffer' });
    } catch (error) {
      throw new InputError(input, `cannot read the folder (${systemErrorText(error)}); expected a folder of capture files that this user may list`);
    }
    const nested: string[] = [];
    const ownFolder = listed.some((entry) => entry.isFile() && entry.name.toString('utf8') === REPORT_FILE);
    // A run's output folder: an A/B job's base build is under base/, the other side of the comparison.
    const runFolder = ownFolder && listed.some((entry) => entry.isFile() && entry.name.toString('utf8') === RUN_FILE);
    const names = new Set(listed.map((entry) => entry.name.toString('utf8')));
    for (const entry of listed) {
      const name = entry.name.toString('utf8');
      if (!Buffer.from(name, 'utf8').equals(entry.name)) {
        leftOut.push({ path: join(input, bytesText(entry.name)), reason: 'its name is not valid UTF-8 (shown with its bytes as \\xNN); rename it to read it' });
        continue;
      }
      // Notes, scripts, hidden files, and a report of ours (a run's output folder holds one) are no capture.
      if (SKIPPED_IN_DIRECTORIES.test(name) || name === REPORT_FILE) continue;
      if (ownFolder && (OWN_FILES.has(name) || (name === TRACES_DIR && entry.isDirectory()))) continue;
      if (runFolder && name === BASE_SIDE_DIR && entry.isDirectory()) continue;
      // A console whose metric lines run gathered beside it: that file is what the analysis reads.
      if (name.endsWith('.log') && names.has(consoleMetricsPath(name))) continue;
      if (entry.isDirectory() || entry.isFile()) nested.push(join(input, name));
    }
    nested.sort((a, b) => compareText(a, b));
    await expandPaths(nested, true, files, leftOut);
  }
}

/** Make the output folder `directory`, or say in one line why it cannot be one (a file there). */
export async function makeOutputFolder(directory: string, what: string): Promise<void> {
  try {
    await mkdir(directory, { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'EEXIST' || code === 'ENOTDIR' ? 'a file, not a folder' : systemErrorText(error);
    throw new InputError(directory, `cannot write ${what} there (${why}); expected a folder, or a path where one can be made`);
  }
}

/** Open for writing, created or truncated, and refused (ELOOP) when the path itself is a symbolic link. */
const WRITE_NO_FOLLOW = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW;

/**
 * Write to a file, or to stdout for `-`. Never through a symbolic link at the target: a checkout
 * may hold `profile-gate/report.md -> ~/.bashrc`, and following it would overwrite a file outside
 * the workspace. Such a target is refused in one line; a folder on the way may be a link.
 */
export async function writeOutput(target: string, text: string): Promise<void> {
  if (target === '-') {
    process.stdout.write(text);
    return;
  }
  try {
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, text, { flag: WRITE_NO_FOLLOW });
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    if (code === 'ELOOP') throw new InputError(target, 'is a symbolic link; expected a path that is not one (an output is never written through a link: remove it, or choose another path)');
    // A full disk or a path that cannot be a file: say which file, in one line.
    throw new InputError(target, `cannot write it (${code ?? 'error'}: ${message.replace(/^\w+: /, '').replace(/, \w+(?: '.*')?$/, '')})`);
  }
}
