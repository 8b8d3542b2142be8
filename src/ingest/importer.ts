/**
 * An importer reads one capture format into a Capture. It is small: a cheap `sniff` over the first
 * bytes (content, never the file name) plus `read`. Detection loops over the registry in order.
 */
import { CaptureSchema, type Capture, type CaptureInput, type FormatId, type ImportStat } from '../model/capture.js';
import type { InputFile } from './input-file.js';

export interface ImportContext {
  readonly path: string;
  /** Count a recoverable problem (a skipped row, a clipped value). Shown in the report's sources. */
  count(name: string, severity: ImportStat['severity'], detail?: string): void;
}

export interface Importer {
  id: FormatId;
  label: string;
  /** True when the head of the file is this format. Must be cheap and exact. */
  sniff(head: string): boolean;
  read(file: InputFile, ctx: ImportContext): Promise<CaptureInput>;
}

export function defineImporter(importer: Importer): Importer {
  return importer;
}

export function createImportContext(path: string): ImportContext & { stats(): ImportStat[] } {
  const counters = new Map<string, ImportStat>();
  return {
    path,
    count(name, severity, detail) {
      const existing = counters.get(name);
      if (existing) existing.count += 1;
      else counters.set(name, { name, severity, count: 1, ...(detail ? { detail } : {}) });
    },
    stats: () => [...counters.values()],
  };
}

/** Run one importer on one file and validate what it built against the model. */
export async function runImporter(importer: Importer, file: InputFile): Promise<Capture> {
  const ctx = createImportContext(file.path);
  const raw = await importer.read(file, ctx);
  const parsed = CaptureSchema.parse(raw);
  parsed.source.stats = [...parsed.source.stats, ...ctx.stats()];
  return parsed;
}
