/**
 * Adaptive A/B with real processes: a stand-in workload whose speed is set per side, with a stalled
 * run. While the comparison is undecided the run adds ABBA pairs up to max-runs, each a new look
 * whose alpha is its share of the test's (src/compare/sequential.ts).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ProcessGroups } from '../../src/runner/process.js';
import type { Report } from '../../src/model/report.js';
import { runCli } from '../helpers/cli.js';
import { PYTHON, standInProbe, standInPythonDir, tempDir } from './stand-ins.js';

const SPEED = join(dirname(fileURLToPath(import.meta.url)), '..', 'helpers', 'stand-in-speed.py');
const probe = standInProbe({ vendor: 'none' });
const pythonDir = standInPythonDir({ snapshot: false });

/** head/ and base/ checkouts whose work.sh prints the side's set speed; `stalls` are the base's stalled runs. */
function checkouts(headTokS: number, baseTokS: number, stalls: string): string {
  const work = tempDir('adaptive');
  for (const [side, tokS, stallRuns] of [['head', headTokS, ''], ['base', baseTokS, stalls]] as const) {
    mkdirSync(join(work, side));
    writeFileSync(join(work, side, 'work.sh'), `${PYTHON} ${SPEED} --tok-s ${tokS} --counter ../${side}.count --stall-runs '${stallRuns}' --seed ${side === 'head' ? 2 : 3}\necho ${side} >> ../order.log\n`);
  }
  return work;
}

const run = (work: string, extra: string[]) =>
  runCli(['--engine', 'command', '--run', 'bash work.sh', '--base-workdir', '../base', '--runs', '3', '--warmup-runs', '0', '--profiler', 'none', '--deep-dive', 'off', '--out', 'o', '--quiet', ...extra], {
    probe,
    pythonDir,
    cwd: join(work, 'head'),
    groups: new ProcessGroups({ graceMs: 300 }),
  });

describe('adaptive A/B', () => {
  it('a 6% slower head with a stalled base run: undecided at 3 runs, ABBA pairs added until it fails', async () => {
    const work = checkouts(336.5, 358, '3');
    const { code, stdout, stderr } = await run(work, ['--max-runs', '7']);
    expect(stderr).toBe('');
    expect(stdout).toContain('adaptive    while a gated metric is undecided, up to 2 more ABBA pairs (max-runs 7 per side), alpha spent over the looks');
    expect(code).toBe(1);
    // 3 planned runs ABBA, then two pairs base, head, head, base.
    expect(readFileSync(join(work, 'order.log'), 'utf8').trim().split('\n')).toEqual(['base', 'head', 'head', 'base', 'base', 'head', 'base', 'head', 'head', 'base', 'base', 'head', 'head', 'base']);
    const head = JSON.parse(readFileSync(join(work, 'head', 'o', 'report.json'), 'utf8')) as Report;
    const decode = head.comparison!.rows.find((r) => r.metric === 'decode_tok_s')!;
    // Look 1 (3 vs 3, the stall kept: it cannot go under 3) overlaps; look 2 (4 vs 5 after the stall
    // is left out: exact p = 1/126) is above its alpha 0.005; look 3 (6 vs 7, p = 1/1716) fails.
    expect(head.comparison!.look).toMatchObject({ index: 3, of: 3 });
    expect(decode.status).toBe('fail');
    expect(decode.samples).toEqual([6, 7]);
    expect(decode.note).toMatch(/left out baseline run 3: −15\.\d%, an outlier against ±0\.\d+% for the rest/);
    expect(head.comparison!.reasons[0]).toMatch(/decode_tok_s regressed .*at look 3 of 3/);
  }, 60_000);

  it('decided at the planned look: no run is added', async () => {
    const work = checkouts(358, 358, '3');
    const { code, stderr } = await run(work, ['--max-runs', '7']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(readFileSync(join(work, 'order.log'), 'utf8').trim().split('\n')).toHaveLength(6);
    const head = JSON.parse(readFileSync(join(work, 'head', 'o', 'report.json'), 'utf8')) as Report;
    expect(head.comparison!.look).toMatchObject({ index: 1, of: 3 });
    expect(head.verdict).toBe('pass');
  }, 60_000);
});
