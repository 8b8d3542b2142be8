/**
 * The importer registry and format detection. Order matters only where two formats could both
 * claim a head; the more specific sniff comes first.
 */
import { InputError, UsageError } from '../errors.js';
import { FORMAT_IDS, type Capture, type FormatId } from '../model/capture.js';
import { runImporter, runImporterRuns, type Capabilities, type Importer, type IngestOptions, type ToolSuite, type ToolVendor } from './common/importer.js';
import { openInput, type InputFile } from './common/input-file.js';
import { Readable } from 'node:stream';
import jaxTrace from './formats/jax-trace.js';
import kinetoJson from './formats/kineto-json.js';
import maxBenchmark from './formats/max-benchmark.js';
import maxBenchmarkJson from './formats/max-benchmark-json.js';
import maxGenerate from './formats/max-generate.js';
import maxGpuStatsJson from './formats/max-gpu-stats-json.js';
import gpuSnapshotJsonl from './formats/gpu-snapshot-jsonl.js';
import ncuCsv from './formats/ncu-csv.js';
import nsysGpuTimeUtil from './formats/nsys-gpu-time-util.js';
import nsysStats from './formats/nsys-stats.js';
import nvidiaSmiCsv from './formats/nvidia-smi-csv.js';
import rocmSmiJson from './formats/rocm-smi-json.js';
import rocmSmiCsv from './formats/rocm-smi-csv.js';
import { amdSmiCsv, amdSmiJson } from './formats/amd-smi.js';
import nsysSqlite from './formats/nsys-sqlite.js';
import rocpdSqlite from './formats/rocpd-sqlite.js';
import { isSqliteHead } from './common/sqlite-db.js';
import rocprofCsv from './formats/rocprof-csv.js';
import rocprofJson from './formats/rocprof-json.js';
import workloadMetricsJsonl from './formats/workload-metrics-jsonl.js';

export const IMPORTERS: readonly Importer[] = [
  nsysSqlite,
  rocpdSqlite,
  // Before Kineto: rocprof's results.json is a Chrome trace too.
  rocprofJson,
  // Before Kineto: jax.profiler's trace is a Chrome trace too, with device-named processes.
  jaxTrace,
  kinetoJson,
  maxBenchmarkJson,
  maxGpuStatsJson,
  rocmSmiJson,
  amdSmiJson,
  gpuSnapshotJsonl,
  // Before the workload's metric lines: a console log (CI output) holds the workload's lines beside
  // the tables nsys or ncu print; the tables are what such a file is given for.
  ncuCsv,
  nsysGpuTimeUtil,
  nsysStats,
  workloadMetricsJsonl,
  rocprofCsv,
  nvidiaSmiCsv,
  rocmSmiCsv,
  amdSmiCsv,
  maxGenerate,
  maxBenchmark,
];

/**
 * The formats of a workload's own console, in detection order: its metric lines come before the
 * tables a profiler printed into the same console (`nsys profile --stats=true <workload>`), whose
 * own files the profile step keeps. A file given for analysis is read for its tables instead.
 */
export const CONSOLE_IMPORTERS: readonly Importer[] = [
  ...IMPORTERS.slice(0, IMPORTERS.indexOf(ncuCsv)),
  workloadMetricsJsonl,
  ...IMPORTERS.slice(IMPORTERS.indexOf(ncuCsv)).filter((importer) => importer !== workloadMetricsJsonl),
];

const BY_FORMAT: ReadonlyMap<string, Importer> = new Map(IMPORTERS.map((importer) => [importer.id, importer]));

/**
 * The importer of a format the model knows. Later stages ask it what a capture can hold rather than
 * name formats: a new format declares its capabilities once, on its importer.
 */
function importerOf(format: FormatId): Importer {
  const importer = BY_FORMAT.get(format);
  if (!importer) throw new Error(`format ${format} has no importer in the registry`);
  return importer;
}

/** What captures of `format` can hold, as its importer declares. */
export function capabilitiesOf(format: FormatId): Capabilities {
  return importerOf(format).capabilities;
}

/** The vendor whose tool writes `format`; undefined for vendor-neutral formats. */
export function vendorOf(format: FormatId): ToolVendor | undefined {
  return importerOf(format).vendor;
}

/** The tool suite that writes `format`, where there is one whose commands advice can name. */
export function suiteOf(format: FormatId): ToolSuite | undefined {
  return importerOf(format).suite;
}

/**
 * True when a capture's kernel rows time a profiler's replay of a few chosen launches (a deep dive),
 * not the run: they are no kernel breakdown and never count a run's kernels.
 */
export function replaysKernels(capture: Pick<Capture, 'source'>): boolean {
  return capabilitiesOf(capture.source.format).deepDive === true;
}

/** The importer whose lines may stand among other output, read line by line (a workload's metric lines). */
export function lineImporter(): Importer & { lineRecord(line: string): unknown } {
  const found = IMPORTERS.find((importer) => importer.lineRecord !== undefined);
  if (!found) throw new Error('no importer reads lines among other output');
  return found as Importer & { lineRecord(line: string): unknown };
}

export function importerFor(format: string): Importer {
  const importer = BY_FORMAT.get(format);
  if (!importer) throw new UsageError(`--format ${format}: expected one of ${FORMAT_IDS.join(', ')}`);
  return importer;
}

export function detectFormat(file: InputFile, options: IngestOptions = {}): Importer {
  const importer = IMPORTERS.find((candidate) => candidate.sniff(file.head));
  if (importer) return importer;
  // A noheader nvidia-smi log that does not start with a timestamp: its rows match the columns given.
  const cells = file.head.trimStart().split(/\r?\n/, 1)[0]!.split(', ');
  if (options.smiColumns?.length && cells.length === options.smiColumns.length && cells.length > 1) return nvidiaSmiCsv;
  if (isSqliteHead(file.head)) {
    throw new InputError(
      file.path,
      'an SQLite database with neither nsys (CUPTI_ACTIVITY_KIND_KERNEL, StringIds) nor rocprofv3 rocpd tables near its start; pass --format nsys-sqlite or --format rocpd-sqlite, or export it as CSV (nsys stats --format csv --output PREFIX x.sqlite; rocpd convert -i x.db --output-format csv)',
      'byte 0',
    );
  }
  const known = notACapture(file.head);
  if (known) throw new InputError(file.path, known, '1');
  const firstLine = file.head.split(/\r?\n/, 1)[0]?.slice(0, 60) ?? '';
  throw new InputError(
    file.path,
    `unrecognized capture format (starts with ${JSON.stringify(firstLine)}); expected a capture of one of the ${FORMAT_IDS.length} formats analyze --help lists (references/formats.md shows each), or pass --format NAME`,
    '1',
  );
}

/** Files that are often given as captures and are not: what each is, and what to give instead. */
function notACapture(head: string): string | undefined {
  if (/^\s*\{\s*"schemaVersion"\s*:\s*\d+\s*,\s*"tool"\s*:\s*\{\s*"name"\s*:\s*"profile-gate"/.test(head)) {
    return "a profile-gate report.json, not a capture; give it as the baseline (analyze --baseline FILE), or merge reports with profile-gate report --out DIR FILE...";
  }
  // nsys stats -r cuda_gpu_trace: one row per launch, which carries no per-kernel summary.
  const header = head.trimStart().split(/\r?\n/, 1)[0]!.replace(/"/g, '');
  if (/^Start \(\w+\),Duration \(\w+\),CorrId,/.test(header)) {
    return 'an nsys cuda_gpu_trace CSV (one row per launch); export the kernel summary instead: nsys stats --report cuda_gpu_kern_sum --format csv --output PREFIX x.nsys-rep';
  }
  return undefined;
}

/**
 * The file as the importer sees it, stopped when `signal` aborts: its stream throws the signal's
 * reason at the next chunk, and text() before it reads or parses anything.
 */
function abortable(file: InputFile, signal: AbortSignal): InputFile {
  const check = () => {
    if (signal.aborted) throw signal.reason;
  };
  return {
    ...file,
    async text() {
      check();
      const text = await file.text();
      check();
      return text;
    },
    ...(file.chunks
      ? {
          chunks: async function* (into?: Buffer) {
            for await (const chunk of file.chunks!(into)) {
              check();
              yield chunk;
            }
          },
        }
      : {}),
    stream() {
      const source = file.stream();
      return Readable.from(
        (async function* () {
          try {
            for await (const chunk of source) {
              check();
              yield chunk as Buffer;
            }
          } finally {
            source.destroy();
          }
        })(),
      );
    },
  };
}

/**
 * Read one capture file: detect its format from its content (or take `format`), then import it, one
 * capture per run the file holds (nsys stats output of several runs appended gives one each).
 */
export async function ingestFileRuns(path: string, format?: FormatId | string, options: IngestOptions = {}): Promise<Capture[]> {
  options.signal?.throwIfAborted();
  const opened = await openInput(path);
  const file = options.signal ? abortable(opened, options.signal) : opened;
  if (file.sizeBytes === 0) throw new InputError(path, 'the file is empty; expected a capture');
  const importer = format ? importerFor(format) : detectFormat(file, options);
  const runs = await runImporterRuns(importer, file, options);
  const lines = importer.lineRecord ? 0 : lineRecordsIn(file.head);
  if (lines > 0) {
    runs[0]!.notices.push({
      code: 'workload-lines-not-read',
      severity: 'info',
      message: `${path} also holds ${lines} of the workload's metric lines near its start (a console log); they are not read with the ${importer.id} tables: give the workload's lines as their own input to compare its metrics`,
    });
  }
  return runs;
}

/** The workload's metric lines within a head another format claimed. */
function lineRecordsIn(head: string): number {
  const reader = lineImporter();
  return head.split(/\r?\n/).filter((line) => reader.lineRecord(line)).length;
}

/** Read one capture file of one run (a file of several runs is refused: read it with ingestFileRuns). */
export async function ingestFile(path: string, format?: FormatId | string, options: IngestOptions = {}): Promise<Capture> {
  const runs = await ingestFileRuns(path, format, options);
  if (runs.length !== 1) throw new InputError(path, `expected one run in the file, found ${runs.length}: read each as its own capture`);
  return runs[0]!;
}

export async function ingestText(path: string, text: string, format?: FormatId | string, options: IngestOptions = {}): Promise<Capture> {
  const { inputFromText } = await import('./common/input-file.js');
  const file = inputFromText(path, text);
  const importer = format ? importerFor(format) : detectFormat(file);
  return runImporter(importer, file, options);
}
