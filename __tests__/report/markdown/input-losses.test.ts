/**
 * What an input lost while it was read reaches the job summary and the PR comment, not only the
 * terminal's Inputs: the real demo's metric lines with their last record cut mid-line.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyze } from '../../../src/pipeline/analyze.js';
import { expandInputs } from '../../../src/io/input-paths.js';
import { renderReportComment } from '../../../src/report/markdown/comment.js';
import { renderSummary } from '../../../src/report/markdown/summary.js';

const SAMPLES = join(import.meta.dirname, '..', '..', '..', 'samples', 'current');

describe('input losses in the markdown', () => {
  it('a metric file cut inside its last record: named with its line in the summary and the comment', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pg-loss-'));
    try {
      const text = readFileSync(join(SAMPLES, 'unfused_timed.stdout.jsonl'), 'utf8').trimEnd();
      const lines = text.split('\n');
      // The last line cut in the middle, with no newline after it: the writer stopped there.
      const last = lines.at(-1)!;
      expect(last.startsWith('{')).toBe(true);
      writeFileSync(join(dir, 'unfused_timed.stdout.jsonl'), `${lines.slice(0, -1).join('\n')}\n${last.slice(0, Math.floor(last.length / 2))}`);
      copyFileSync(join(SAMPLES, 'unfused_timed.util.jsonl'), join(dir, 'unfused_timed.util.jsonl'));
      const report = await analyze({ inputs: await expandInputs([dir]) });
      const stat = report.sources.flatMap((s) => s.stats).find((s) => s.name === 'truncated-last-line');
      expect(stat).toMatchObject({ severity: 'data-loss', count: 1 });
      const expected = `- data-loss: unfused\\_timed\\.stdout\\.jsonl: line ${lines.length} is cut off`;
      expect(renderSummary(report)).toContain(expected);
      expect(renderReportComment(report, { key: 'report' })).toContain(expected);
      // The whole file loses nothing, and says nothing of the kind.
      const whole = await analyze({ inputs: await expandInputs([join(SAMPLES, 'unfused_timed.stdout.jsonl')]) });
      expect(renderSummary(whole)).not.toContain('data-loss');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
