/**
 * A folder of captures in which one entry cannot be taken: a file whose name is not UTF-8, and a
 * file whose path is longer than PATH_MAX. Each is left out with its own reason; the folder's
 * other captures are read (before, the whole folder failed with "cannot read the input (ENOENT)").
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from '../helpers/cli.js';
import type { Report } from '../../src/model/report.js';
import { linesOf } from '../helpers/gate-lines.js';

const METRICS = '{"metric": "decode_tok_s", "value": 100}\n';

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pg-folder-names-'));
  writeFileSync(join(dir, 'good.jsonl'), METRICS);
  return dir;
}

describe('one entry of a folder that cannot be taken', () => {
  it('a name that is not UTF-8: left out with its bytes named, the rest read', async () => {
    const dir = folder();
    writeFileSync(Buffer.concat([Buffer.from(`${dir}/decode-`), Buffer.from([0xff, 0xfe, 0x41]), Buffer.from('.jsonl')]), METRICS);
    const out = join(dir, 'report.json');
    const r = await cli(['analyze', dir, '--json', out]);
    expect(r.stderr).toBe(`warning: left out ${dir}/decode-\\xff\\xfeA.jsonl: its name is not valid UTF-8 (shown with its bytes as \\xNN); rename it to read it\n`);
    expect(r.code).toBe(0);
    const report = JSON.parse(readFileSync(out, 'utf8')) as Report;
    expect(report.sources.map((s) => s.path)).toEqual([join(dir, 'good.jsonl')]);
    // Recorded as a skipped input: the verdict's first line says so.
    expect(report.skippedInputs).toEqual([{ path: `${dir}/decode-\\xff\\xfeA.jsonl`, reason: 'its name is not valid UTF-8 (shown with its bytes as \\xNN); rename it to read it' }]);
    expect(linesOf(report)[0]).toMatch(/^1 input was skipped, the verdict rests on the rest: .*decode-\\xff\\xfeA\.jsonl/);
    // --strict: the entry fails the analysis, in one line naming it.
    const strict = await cli(['analyze', dir, '--strict']);
    expect(strict.code).toBe(2);
    expect(strict.stderr).toBe(`profile-gate: ${dir}/decode-\\xff\\xfeA.jsonl: its name is not valid UTF-8 (shown with its bytes as \\xNN); rename it to read it (strict reading: an entry of a folder that cannot be read fails the analysis)\n`);
  });

  it('a path longer than PATH_MAX: left out with its length, the rest read', async () => {
    const dir = folder();
    // 17 folders of 250 characters: made one `cd` at a time, as no single path to them can be opened.
    const made = spawnSync('bash', ['-c', 'cd "$1" && for i in $(seq 17); do d=$(printf "d%.0s" $(seq 250)); mkdir "$d" && cd "$d" || exit 1; done && printf "%s" "$2" > deep.jsonl', 'bash', dir, METRICS]);
    expect(made.status).toBe(0);
    const r = await cli(['analyze', dir]);
    expect(r.code).toBe(0);
    // The entry left out is the first one whose path is too long (here the deepest folder), its path shortened in the middle.
    expect(r.stderr).toMatch(new RegExp(`^warning: left out ${dir}/d+…d+(/deep\\.jsonl)?: its path is 4\\d{3} bytes, more than the system opens \\(PATH_MAX, 4096 bytes\\)\\n$`));
    expect(r.stdout).toContain(`  ${join(dir, 'good.jsonl')}: workload-metrics-jsonl`);
    expect(r.stdout).not.toMatch(/ENOENT|ENAMETOOLONG/);
  });
});
