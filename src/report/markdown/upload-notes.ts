/**
 * What the job summary says about the run's files beyond the report: where profile-gate's own
 * traces are and how to open them, and each file that was not uploaded, by its path (redacted by
 * the caller) with the kind and the reason, never with anything the file holds.
 */
import { safeCode, safeText } from './text.js';

export interface UploadNotes {
  /** The artifact that holds profile.json and the traces, when it was uploaded. */
  capturesArtifact?: string | undefined;
  /** The traces' paths in that artifact. */
  traces: readonly string[];
  /** Files left out, each by path, kind and reason. */
  withheld: Array<{ path: string; kind: string; reason: string }>;
}

/** Files listed before the rest are counted only. */
const LISTED = 20;

export function renderUploadNotes(notes: UploadNotes): string {
  const parts: string[] = [];
  if (notes.capturesArtifact && notes.traces.length) {
    parts.push(
      `**Traces.** The artifact ${safeCode(notes.capturesArtifact)} holds profile.json (the profile read) and ${notes.traces.length} trace(s) written by profile-gate from the events it read (${notes.traces.slice(0, 3).map((t) => safeCode(t)).join(', ')}${notes.traces.length > 3 ? ', …' : ''}): ` +
        'download it and open a trace in https://ui.perfetto.dev (Open trace file) or chrome://tracing (Load). They hold event names and times only.',
    );
  }
  if (notes.withheld.length) {
    const rows = notes.withheld.slice(0, LISTED).map((w) => `- ${safeCode(w.path)} (${safeText(w.kind, 20)}): ${safeText(w.reason, 300)}`);
    const more = notes.withheld.length > LISTED ? [`- and ${notes.withheld.length - LISTED} more`] : [];
    parts.push(['**Not uploaded.**', ...rows, ...more].join('\n'));
  }
  return parts.length ? `\n\n${parts.join('\n\n')}\n` : '';
}
