/**
 * Metric records an importer dropped for a value that is no number (a failed measurement written as
 * `null`, `"n/a"`, a number past 2^53): the rest of the file still counts, and the verdict's first
 * lines say what was left out, so a comparison that rests on fewer samples never reads as whole.
 */
import type { Source } from '../model/capture.js';
import { UNREADABLE_METRIC_STAT } from '../ingest/formats/workload-metrics-jsonl.js';

/** The verdict's line on dropped metric records, or undefined when none was dropped. */
export function droppedMetricsLine(sources: readonly Pick<Source, 'path' | 'stats'>[], shown = 3): string | undefined {
  const hits = sources.flatMap((source) => source.stats.filter((s) => s.name === UNREADABLE_METRIC_STAT).map((s) => ({ path: source.path, stat: s })));
  if (!hits.length) return undefined;
  const total = hits.reduce((sum, h) => sum + h.stat.count, 0);
  const items = hits.slice(0, shown).map((h) => `${h.path} (${h.stat.count}; ${(h.stat.detail ?? '').replace(/\s+/g, ' ').slice(0, 200)})`);
  const more = hits.length > shown ? `, and ${hits.length - shown} more files` : '';
  return `data loss: ${total} metric record${total === 1 ? '' : 's'} dropped for a value that is no number, the other records count: ${items.join('; ')}${more}`;
}
