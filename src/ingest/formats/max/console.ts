/**
 * Pieces of MAX console output shared by `max generate --profile` and `max benchmark --profile`:
 * the ranked GPU kernel and Python/CPU tables (`=== Top N ... ===`) and the notes and errors the
 * profiler prints. Times in those tables are rounded to 2 decimals of s/ms/us (whole ns), so sums
 * are compared with a tolerance of half a last digit per value.
 */
import { InputError } from '../../../errors.js';
import type { CpuFunction, KernelStat, Notice } from '../../../model/capture.js';
import type { NoticeCode } from '../../../model/notice-codes.js';
import type { ImportContext } from '../../common/importer.js';
import { nsPerUnit } from '../../common/text-tables.js';

/** Name of the row that stands for the kernels a top-N table leaves out. */
export const UNLISTED_KERNELS = '[other kernels not listed]';

export const GPU_TITLE = /^=== Top (\d+) GPU kernels \((\d+(?:\.\d+)?)% of GPU time, (\d+(?:\.\d+)?) (s|ms|us|ns) total\) ===\s*$/;
export const CPU_TITLE = /^=== Top (\d+) Python\/CPU functions \((\d+(?:\.\d+)?)% of CPU time, (\d+(?:\.\d+)?) (s|ms|us|ns) total\) ===\s*$/;
export const CPU_EMPTY = /^=== Python\/CPU functions: no samples captured ===\s*$/;
const HEADER = /^\s*%\s+total\s+calls\s+(kernel|function)\s*$/;
const ROW = /^\s*(\d+(?:\.\d+)?)%\s+(\d+(?:\.\d+)?) (s|ms|us|ns)\s+(\d+(?:\/\d+)?)  (\S.*?)\s*$/;
const LOOKS_LIKE_ROW = /^\s*\d+(?:\.\d+)?%/;

interface TimedValue {
  ns: number;
  /** Half of the last printed digit, in ns: how far the rounded value may be from the truth. */
  slackNs: number;
}

function timed(value: string, unit: string): TimedValue {
  const scale = nsPerUnit(unit)!;
  const slack = unit === 'ns' ? 0.5 : 0.005 * scale;
  return { ns: Number(value) * scale, slackNs: slack };
}

interface RankedRow {
  /** 0-based line index. */
  index: number;
  percent: number;
  time: TimedValue;
  calls: string;
  name: string;
}

interface RankedTable {
  rows: RankedRow[];
  /** Index of the first line after the table. */
  next: number;
}

/** Read the header and rows that follow a `=== Top N ... ===` title at `lines[titleIndex]`. */
function readRankedTable(path: string, lines: readonly string[], titleIndex: number, limit: number, what: string): RankedTable {
  let i = titleIndex + 1;
  while (i < lines.length && lines[i]!.trim() === '') i++;
  if (i >= lines.length || !HEADER.test(lines[i]!)) {
    const got = i < lines.length ? JSON.stringify(lines[i]!.trim().slice(0, 60)) : 'end of file';
    throw new InputError(path, `expected the "%  total  calls  ${what}" header after the table title, got ${got}`, String(i + 1));
  }
  i++;
  const rows: RankedRow[] = [];
  for (; i < lines.length; i++) {
    const line = lines[i]!;
    const match = ROW.exec(line);
    if (match) {
      rows.push({ index: i, percent: Number(match[1]), time: timed(match[2]!, match[3]!), calls: match[4]!, name: match[5]! });
      continue;
    }
    if (LOOKS_LIKE_ROW.test(line)) {
      throw new InputError(path, `expected a table row "pct%  time unit  calls  ${what}", got ${JSON.stringify(line.trim().slice(0, 60))}`, String(i + 1));
    }
    break;
  }
  if (rows.length > limit) {
    throw new InputError(path, `expected at most ${limit} rows as the title says, got ${rows.length}`, String(titleIndex + 1));
  }
  return { rows, next: i };
}

export interface GpuKernelTable {
  kernels: KernelStat[];
  next: number;
}

/**
 * The GPU kernel table. Its title gives the total over all kernels while the rows show only the top
 * N, so the remainder becomes one `[other kernels not listed]` row (instances 0) and shares stay right.
 */
export function readGpuKernelTable(path: string, lines: readonly string[], titleIndex: number, ctx: ImportContext): GpuKernelTable {
  const title = GPU_TITLE.exec(lines[titleIndex]!)!;
  const total = timed(title[3]!, title[4]!);
  const { rows, next } = readRankedTable(path, lines, titleIndex, Number(title[1]), 'kernel');
  if (rows.length === 0 && total.ns > 0) {
    throw new InputError(path, 'expected kernel rows under the GPU kernel table header', String(next + 1));
  }
  const kernels: KernelStat[] = rows.map((row) => {
    if (row.calls.includes('/')) {
      throw new InputError(path, `expected a whole number of kernel calls, got ${row.calls}`, String(row.index + 1));
    }
    return { name: row.name, totalNs: Math.round(row.time.ns), instances: Number(row.calls) };
  });
  const listedNs = rows.reduce((sum, row) => sum + row.time.ns, 0);
  const slackNs = rows.reduce((sum, row) => sum + row.time.slackNs, total.slackNs);
  const remainderNs = total.ns - listedNs;
  if (remainderNs < -slackNs) {
    throw new InputError(
      path,
      `expected the kernel rows to add up to at most the title's ${title[3]} ${title[4]} total, got ${(listedNs / nsPerUnit(title[4]!)!).toFixed(2)} ${title[4]}`,
      String(titleIndex + 1),
    );
  }
  if (remainderNs > slackNs) {
    kernels.push({ name: UNLISTED_KERNELS, totalNs: Math.round(remainderNs), instances: 0 });
    // A top-N table lists N rows whenever more kernels ran: fewer rows and time left over mean it was cut.
    if (rows.length < Number(title[1])) {
      ctx.count(
        'kernel-rows-missing',
        'data-loss',
        `the GPU table (line ${titleIndex + 1}) is titled the top ${title[1]} kernels but holds ${rows.length} rows: it is cut short, and ${Math.round(remainderNs)} ns of its total are kept as "${UNLISTED_KERNELS}"`,
      );
      return { kernels, next };
    }
    ctx.count(
      'unlisted-kernels',
      'info',
      `the GPU table lists the top ${rows.length} kernels; ${Math.round(remainderNs)} ns of other kernels are kept as "${UNLISTED_KERNELS}"`,
    );
  }
  return { kernels, next };
}

export interface CpuTable {
  functions: CpuFunction[];
  next: number;
}

export function readCpuTable(path: string, lines: readonly string[], titleIndex: number): CpuTable {
  const title = CPU_TITLE.exec(lines[titleIndex]!)!;
  const { rows, next } = readRankedTable(path, lines, titleIndex, Number(title[1]), 'function');
  const functions = rows.map((row) => ({ name: row.name, totalNs: Math.round(row.time.ns), calls: row.calls, percent: row.percent }));
  return { functions, next };
}

const CPU_ONLY_NOTES: [RegExp, NoticeCode][] = [
  [/Nsight Systems.*not found/i, 'max-no-nsys'],
  [/no NVIDIA GPU detected/i, 'max-no-gpu'],
  [/libcudart could not be loaded/i, 'max-no-cudart'],
];

/** A profiler note or error line, as a Notice; undefined for any other line. */
export function profilerNotice(line: string): Notice | undefined {
  const text = line.trim();
  if (/^Note: .*only Python\/CPU profile will be captured/.test(text)) {
    const code = CPU_ONLY_NOTES.find(([pattern]) => pattern.test(text))?.[1] ?? 'max-cpu-only';
    return { code, severity: 'warning', message: text.replace(/^Note: /, '') };
  }
  if (text.startsWith('No GPU kernel data found in profile (')) {
    return { code: 'max-no-kernel-data', severity: 'error', message: text };
  }
  if (/^--profile: nsys exited with rc=/.test(text)) {
    return { code: 'max-nsys-failed', severity: 'error', message: text };
  }
  if (/^--profile: no \.nsys-rep found at /.test(text)) {
    return { code: 'max-no-nsys-rep', severity: 'error', message: text };
  }
  const saved = /^Full profile saved to: (.+)$/.exec(text);
  if (saved) return { code: 'max-profile-saved', severity: 'info', message: `Full profile saved to ${saved[1]}` };
  return undefined;
}

/** `MAX 26.4.0` as `max --version` prints it. */
export function maxVersion(line: string): string | undefined {
  return /^MAX (\d+\.\d+[\w.+-]*)\s*$/.exec(line.trim())?.[1];
}
