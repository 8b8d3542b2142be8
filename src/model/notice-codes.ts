/**
 * The closed set of notice codes: every notice a capture, a profile or a report carries has one, and
 * later stages decide by the code (and the severity), never by the message, which is English for a
 * person. Each code says one thing, in one line; references/notices.md lists them (a test holds the
 * page to this table and checks that each code has a producer).
 */
import { z } from 'zod';
import { ownValue } from './own-key.js';

export const NOTICE_CODES = {
  // MAX consoles (ingest/formats/max/console.ts, max-generate.ts, max-benchmark.ts)
  'max-no-kernel-data': 'MAX profiled the run but its nsys capture held no GPU kernel data',
  'max-nsys-failed': 'nsys, run by `max generate --profile`, exited with an error: no kernel data',
  'max-no-nsys-rep': 'MAX found no .nsys-rep where nsys should have written it: no kernel data',
  'max-no-nsys': 'MAX captured only a Python/CPU profile because Nsight Systems was not found',
  'max-no-gpu': 'MAX captured only a Python/CPU profile because it detected no NVIDIA GPU',
  'max-no-cudart': 'MAX captured only a Python/CPU profile because libcudart could not be loaded',
  'max-cpu-only': 'MAX captured only a Python/CPU profile, for a reason it did not name',
  'max-profile-saved': 'where MAX saved the full profile',
  'max-several-profiles': 'one MAX console holds several GPU kernel tables, added together',
  'max-no-cpu-samples': 'the MAX profile captured no Python/CPU samples',
  'max-metrics-cut-off': 'the MAX metrics report is cut off; the metrics printed in full are read',
  'max-benchmark-failed': 'the MAX serving benchmark said it failed',
  'max-benchmark-invalid': "the MAX serving benchmark's result validation failed",
  'max-benchmark-several-results': 'several MAX benchmark result blocks are pooled as samples of one run',
  // Nsight Systems (ingest/formats/nsys-stats.ts, nsys-gpu-time-util.ts)
  'nsys-runs-in-file': 'one nsys stats file holds several runs, one after another: each is read as its own capture',
  'nsys-report-skipped': 'nsys skipped a report this importer reads (a warning when it is the kernel report)',
  'nsys-columns-realigned': 'rows of an nsys table whose values were shifted into their columns',
  'nsys-table-excerpt': 'an nsys table is cut short in the file; totals cover the listed rows only',
  'nsys-existing-export': 'nsys read an existing SQLite export, which may be older than the report',
  'nsys-gpu-util-skipped': 'nsys skipped the gpu_time_util rule',
  'nsys-gpu-util-partial': 'gpu_time_util lists only the regions below its threshold: the figure is a lower bound',
  'nsys-gpu-util-ok': 'gpu_time_util found no region below its threshold',
  // The GPU sampler's recording (ingest/formats/gpu-snapshot-jsonl.ts)
  'gpu-snapshot-warning': 'a warning the GPU sampler recorded',
  'command-failed': 'the command the GPU sampler wrapped exited with an error',
  'no-gpu-samples': 'the GPU sampler recorded no samples',
  // PyTorch profiler traces (ingest/formats/kineto-json.ts)
  'kineto-launch-op-unavailable': 'some kernel launches could not be tied to the CPU op that launched them',
  'kineto-graph-replays-from-capture': "CUDA graph replays were given the op and Python line of their graph's capture",
  'kineto-python-stacks-late': "kernel launches came before the trace's Python stack events and have no Python line",
  'kineto-python-no-user-frame': "no kernel launch ran inside the workload's own Python: no Python line is given",
  // Inputs taken together (pipeline/)
  'gpu-shared': 'another process used the GPU during measured runs (the gate decides without them, or not at all)',
  'gpu-process-unplaced': "the GPU listed pids this namespace cannot see after a run started: the job's own or another's",
  'gpu-processes-unlisted': "GPU recordings that could not list the GPU's processes: another process on the GPU would not be seen there",
  'workload-lines-not-read': "a table capture also holds the workload's metric lines (a console log); they are not read with its tables",
  'unreadable-input': 'an input could not be read and was skipped (not --strict)',
  'same-run-counted-once': 'inputs recording the same kernel launches were set aside so the run counts once',
  'mixed-inputs': 'inputs of different runs were merged because mixed inputs were allowed',
  'several-timelines': 'several inputs carry a timeline; the one read is named',
  'kernels-summed': 'kernel times of several inputs were summed',
  'graph-capture-setup': 'an input is a CUDA graph-capture trace: set-up, not the steady work',
  'ranks-of-different-jobs': "the traces' ranks are not one job: ranks are not compared",
  // Diagnosis (diagnose/run-rules.ts)
  'diagnosis-note': 'what a rule could not establish from the evidence: a note, never a finding',
  // A report read back (report/bounded-report.ts)
  'read-back-in-part': 'a report was read back in part; the artifact holds the whole report',
  // profile-gate run (runner/run-workload.ts)
  'workload-console-unread': "a command workload's console gave no metrics to read (the run's failure quotes it when nothing else was produced)",
  run: 'what the run says about itself: a fallback, a failed step and the data it took, a process stopped',
  // Reading older reports (model/migrate.ts)
  other: 'a notice of an older report whose code this version does not know',
} as const satisfies Record<string, string>;

export type NoticeCode = keyof typeof NOTICE_CODES;

export const NoticeCodeSchema = z.enum(Object.keys(NOTICE_CODES) as [NoticeCode, ...NoticeCode[]]);

/** A code as read from an older report: itself when this version knows it, else `other` (its message stays as written). */
export function knownNoticeCode(code: unknown): NoticeCode {
  return typeof code === 'string' && ownValue<string>(NOTICE_CODES, code) !== undefined ? (code as NoticeCode) : 'other';
}
