/**
 * Uploading this job's report artifact through the host's artifact store (the runtime-token upload
 * protocol). Files are checked before success is claimed. Reading artifacts back, of this run or of
 * any other, goes through the REST client in src/github within its limits.
 */
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { ArtifactStore } from '../host.js';

export interface UploadedArtifact {
  name: string;
  id: number;
  size: number;
}

/** Files a reader needs, and the least each must hold to be more than an empty shell. */
const MIN_BYTES: Record<string, number> = { 'report.json': 64, 'report.md': 16 };

/** Throws unless every file exists, is a regular file, and is non-trivial. */
export async function verifyFiles(files: readonly string[]): Promise<void> {
  for (const file of files) {
    let info;
    try {
      info = await stat(file);
    } catch {
      throw new Error(`${file}: missing; expected it in the report artifact`);
    }
    const least = MIN_BYTES[basename(file)] ?? 1;
    if (!info.isFile()) throw new Error(`${file}: not a regular file`);
    if (info.size < least) throw new Error(`${file}: ${info.size} bytes; expected at least ${least}`);
  }
}

export interface UploadOptions {
  retentionDays?: number;
  /** A re-run attempt may find its own artifact from the attempt before; it is replaced. */
  runAttempt: number;
}

export async function uploadArtifact(store: ArtifactStore, name: string, files: readonly string[], rootDirectory: string, options: UploadOptions): Promise<UploadedArtifact> {
  await verifyFiles(files);
  const upload = () => store.upload(name, files, rootDirectory, options.retentionDays ? { retentionDays: options.retentionDays } : {});
  let result;
  try {
    result = await upload();
  } catch (error) {
    const conflict = /\(409\)|already exists/i.test((error as Error).message);
    if (!conflict) throw error;
    if (options.runAttempt <= 1) {
      throw new Error(`an artifact named '${name}' already exists in this run: in a matrix, give each leg its own 'key' (or 'artifact-name')`);
    }
    await store.delete(name);
    result = await upload();
  }
  if (typeof result.id !== 'number' || !result.size) throw new Error(`the artifact service did not confirm '${name}' (id ${String(result.id)}, ${String(result.size)} bytes)`);
  return { name, id: result.id, size: result.size };
}
