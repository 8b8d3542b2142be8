/**
 * The files profile-gate writes from its own model of what it read, for upload in place of the
 * captures: profile.json (the normalized profile) and, for each capture with a timeline, a clean
 * Chrome-trace JSON (report/chrome-trace.ts) under traces/. Every name in them passes through the
 * job's redaction; a trace's file name is its number and format, never the capture's name.
 */
import { basename, join } from 'node:path';
import type { Capture } from '../model/capture.js';
import type { Report } from '../model/report.js';
import { renderChromeTrace } from '../report/chrome-trace.js';
import { PROFILE_FILE, renderProfileJson, type TraceFileEntry } from '../report/profile-json.js';
import { TOOL_VERSION } from '../version.js';
import { ingestFile } from '../ingest/registry.js';
import { TRACES_DIR, writeOutput } from './input-paths.js';
import { redact, type SecretSet } from './secrets.js';

export { TRACES_DIR };

export interface DerivedFiles {
  profile: string;
  traces: string[];
  /** Trace inputs that could not be read, each a line naming the file (redacted), never quoting it. */
  unread: string[];
}

export interface DerivedOptions {
  /**
   * Files that hold the run's timeline but were not analysis inputs (the nsys SQLite export beside
   * the stats the analysis read): read here for their events only.
   */
  traceInputs?: readonly string[];
}

/** Writes profile.json and traces/N-format.trace.json into `dir`; the report given is already redacted. */
export async function writeDerivedFiles(dir: string, report: Report, captures: readonly Capture[], secrets: SecretSet, options: DerivedOptions = {}): Promise<DerivedFiles> {
  const entries: TraceFileEntry[] = [];
  const traces: string[] = [];
  const unread: string[] = [];
  const more: Capture[] = [];
  for (const path of options.traceInputs ?? []) {
    try {
      more.push(await ingestFile(path));
    } catch {
      unread.push(`no clean trace of ${redact(basename(path), secrets)}: it could not be read as a capture`);
    }
  }
  let n = 0;
  for (const capture of [...captures, ...more]) {
    if (!capture.trace || capture.trace.count === 0) continue;
    n += 1;
    const file = `${TRACES_DIR}/${n}-${capture.source.format}.trace.json`;
    const text = renderChromeTrace(capture.trace, {
      name: (name) => redact(name, secrets),
      source: { format: capture.source.format, tool: capture.source.tool },
      generator: `profile-gate ${TOOL_VERSION}`,
    });
    const path = join(dir, ...file.split('/'));
    await writeOutput(path, text);
    traces.push(path);
    entries.push({ file, format: capture.source.format, capture: redact(basename(capture.source.path), secrets), events: capture.trace.count });
  }
  const profile = join(dir, PROFILE_FILE);
  await writeOutput(profile, redact(renderProfileJson(report, entries), secrets));
  return { profile, traces, unread };
}
