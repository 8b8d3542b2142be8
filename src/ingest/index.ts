/**
 * The importer registry and format detection. Order matters only where two formats could both
 * claim a head; the more specific sniff comes first.
 */
import { InputError, UsageError } from '../errors.js';
import { FORMAT_IDS, type Capture, type FormatId } from '../model/capture.js';
import { runImporter, type Importer } from './importer.js';
import { openInput, type InputFile } from './input-file.js';
import { Readable } from 'node:stream';
import kinetoJson from './kineto-json.js';
import maxBenchmark from './max-benchmark.js';
import maxBenchmarkJson from './max-benchmark-json.js';
import maxGenerate from './max-generate.js';
import maxGpuStatsJson from './max-gpu-stats-json.js';
import gpuSnapshotJsonl from './gpu-snapshot-jsonl.js';
import ncuCsv from './ncu-csv.js';
import nsysGpuTimeUtil from './nsys-gpu-time-util.js';
import nsysStats from './nsys-stats.js';
import nvidiaSmiCsv from './nvidia-smi-csv.js';
import rocmSmiJson from './rocm-smi-json.js';
import rocprofCsv from './rocprof-csv.js';
import workloadMetricsJsonl from './workload-metrics-jsonl.js';

export const IMPORTERS: readonly Importer[] = [
  kinetoJson,
  maxBenchmarkJson,
  maxGpuStatsJson,
  rocmSmiJson,
  gpuSnapshotJsonl,
  workloadMetricsJsonl,
  ncuCsv,
  nsysGpuTimeUtil,
  nsysStats,
  rocprofCsv,
  nvidiaSmiCsv,
  maxGenerate,
  maxBenchmark,
];

export function importerFor(format: string): Importer {
  const importer = IMPORTERS.find((candidate) => candidate.id === format);
  if (!importer) throw new UsageError(`--format ${format}: expected one of ${FORMAT_IDS.join(', ')}`);
  return importer;
}

export function detectFormat(file: InputFile): Importer {
  const importer = IMPORTERS.find((candidate) => candidate.sniff(file.head));
  if (importer) return importer;
  const firstLine = file.head.split(/\r?\n/, 1)[0]?.slice(0, 60) ?? '';
  throw new InputError(
    file.path,
    `unrecognized capture format (starts with ${JSON.stringify(firstLine)}); expected one of ${FORMAT_IDS.join(', ')}, or pass --format NAME`,
    '1',
  );
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

/** Read one capture file: detect its format from its content (or take `format`), then import it. */
export async function ingestFile(path: string, format?: FormatId | string, options: { signal?: AbortSignal } = {}): Promise<Capture> {
  options.signal?.throwIfAborted();
  const opened = await openInput(path);
  const file = options.signal ? abortable(opened, options.signal) : opened;
  if (file.sizeBytes === 0) throw new InputError(path, 'the file is empty; expected a capture');
  const importer = format ? importerFor(format) : detectFormat(file);
  return runImporter(importer, file);
}

export async function ingestText(path: string, text: string, format?: FormatId | string): Promise<Capture> {
  const { inputFromText } = await import('./input-file.js');
  const file = inputFromText(path, text);
  const importer = format ? importerFor(format) : detectFormat(file);
  return runImporter(importer, file);
}
