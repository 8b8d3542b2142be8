/**
 * Large real captures read or analyzed once per test run, and shared by the test files that assert
 * on them. The first file to ask does the work through the product's own entry points (ingestFile,
 * analyze) and keeps the result as JSON in the run's folder (jest's globalSetup makes it:
 * helpers/shared-cache.mjs); later files, in any worker, read that JSON back. The key is the
 * inputs with their size and modification time. Outside such a run (no folder), the work is done
 * each time.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ingestFile } from '../../src/ingest/registry.js';
import { analyze } from '../../src/pipeline/analyze.js';
import type { Capture } from '../../src/model/capture.js';
import type { Report } from '../../src/model/report.js';

const CACHE_VARIABLE = 'PROFILE_GATE_TEST_CACHE';

function keyOf(kind: string, inputs: readonly string[]): string {
  const files = inputs.map((input) => {
    const path = resolve(input);
    const stat = statSync(path);
    return [path, stat.size, stat.mtimeMs];
  });
  return `${kind}-${createHash('sha256').update(JSON.stringify(files)).digest('hex').slice(0, 32)}.json`;
}

async function once<T>(kind: string, inputs: readonly string[], work: () => Promise<T>): Promise<T> {
  const dir = process.env[CACHE_VARIABLE];
  if (!dir || !existsSync(dir)) return work();
  const file = join(dir, keyOf(kind, inputs));
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as T;
  const result = await work();
  // Another worker may be writing the same key: each writes its own file and renames it in place.
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, JSON.stringify(result));
  renameSync(partial, file);
  // What the caller gets is what later callers get: the JSON form.
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

/** Where the run keeps analyze({ inputs })'s result (undefined outside a run with a folder). */
export function keptReportFile(inputs: readonly string[]): string | undefined {
  const dir = process.env[CACHE_VARIABLE];
  return dir && existsSync(dir) ? join(dir, keyOf('report', inputs)) : undefined;
}

/** ingestFile(path), detected by content, once per test run. */
export function ingestedOnce(path: string): Promise<Capture> {
  return once('capture', [path], () => ingestFile(path));
}

/** analyze({ inputs }) with no other option, once per test run. */
export function analyzedOnce(inputs: readonly string[]): Promise<Report> {
  return once('report', inputs, () => analyze({ inputs }));
}
