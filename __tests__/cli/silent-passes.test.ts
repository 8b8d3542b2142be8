/**
 * No silent pass: each input that once let a regression through with exit 0 is, through the CLI, an
 * exit 1 (the regression is still seen) or an exit 2 (the input is refused, with one line).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from '../helpers/cli.js';

const ROOT = join(import.meta.dirname, '..', '..');
const TIMED = join(ROOT, '__tests__', 'fixtures', 'h200-captures', 'healthy_decode', 'healthy_timed.stdout.jsonl');

function work(): string {
  return mkdtempSync(join(tmpdir(), 'silent-'));
}

/** The real H200 timed runs, each run's tok_s divided by `slower` (1.17: a head 17 % slower), plus extra lines. */
function timedRuns(dir: string, name: string, slower: number, extra: readonly string[] = []): string {
  const lines = readFileSync(TIMED, 'utf8')
    .split('\n')
    .filter((l) => l.includes('"kind": "run"'))
    .map((l) => {
      const run = JSON.parse(l) as { tok_s: number };
      return JSON.stringify({ ...run, tok_s: run.tok_s / slower });
    });
  const path = join(dir, name);
  writeFileSync(path, [...lines, ...extra].join('\n') + '\n');
  return path;
}

async function baselineReport(dir: string): Promise<string> {
  const json = join(dir, 'base.json');
  const { code } = await cli(['analyze', timedRuns(dir, 'base.jsonl', 1), '--json', json]);
  expect(code).toBe(0);
  return json;
}

describe('a metric line that holds no number', () => {
  it.each([
    ['null (a failed measurement)', '{"metric": "ttft_ms", "value": null}', 'ttft_ms null'],
    ['"n/a"', '{"metric": "ttft_ms", "value": "n/a"}', 'ttft_ms "n/a"'],
    ['a number past 2^53', '{"metric": "ttft_ms", "value": 9007199254740993000}', 'ttft_ms 9007199254740993000'],
  ])('%s is dropped alone, named in the first lines, and the 17 %% slower head still fails', async (_what, line, shown) => {
    const dir = work();
    const baseline = await baselineReport(dir);
    const head = timedRuns(dir, 'head.jsonl', 1.17, [line]);
    const json = join(dir, 'head.json');
    const { code, stdout } = await cli(['analyze', head, '--baseline', baseline, '--json', json]);
    expect(code).toBe(1);
    const report = JSON.parse(readFileSync(json, 'utf8')) as { verdict: string; verdictReasons: string[]; metrics: { name: string; samples: number[] }[] };
    expect(report.verdict).toBe('fail');
    // The 15 runs count; only the bad line (line 16 of the file) is left out.
    expect(report.metrics.find((m) => m.name === 'decode_tok_s')?.samples).toHaveLength(15);
    expect(report.verdictReasons[0]).toContain(`data loss: 1 metric record dropped`);
    expect(report.verdictReasons[0]).toContain(`line 16: ${shown}`);
    expect(stdout.split('\n').slice(0, 3).join('\n')).toContain('data loss: 1 metric record dropped');
  }, 30_000);
});
