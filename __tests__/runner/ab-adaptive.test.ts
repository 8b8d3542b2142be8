/**
 * Adaptive A/B with real processes: a stand-in workload whose speed is set per side, with a stalled
 * run. While the comparison is undecided the run adds ABBA pairs up to max-runs, each a new look
 * whose alpha is its share of the test's (src/compare/sequential.ts).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { metricRowNote } from '../../src/report/row-lines.js';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ProcessGroups } from '../../src/runner/process-group.js';
import type { Report } from '../../src/model/report.js';
import { cli, runCli } from '../helpers/cli.js';
import { PYTHON, standInProbe, standInPythonDir, tempDir } from './stand-ins.js';
import { accountOf, linesOf } from '../helpers/gate-lines.js';

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
    // Look 1 (3 vs 3, the stall kept: a side of 3 keeps every run) is undecided. Look 2 (the stall
    // left out, and the head's slowest run with it: 4 vs 4 runs 6% apart) would fail, but 4 kept runs
    // are fewer than the 5 a 90% interval of a median needs, and the change (−6%) is no deeper than
    // the stalled run (−15%): it adds a pair. Look 3, the last (6 vs 6 kept), fails at what the
    // earlier looks left of alpha.
    expect(head.comparison!.look).toMatchObject({ index: 3, of: 3, final: true });
    expect(decode.status).toBe('fail');
    expect(decode.samples).toEqual([6, 6]);
    expect(decode.leftOut).toEqual([1, 1]);
    expect(metricRowNote(decode)).toMatch(/left out baseline run 3: −15\.\d% as stalled, beside 6 runs/);
    expect(accountOf(head)[0]).toMatch(/decode_tok_s regressed .*at look 3 of 3, the last \(alpha 0\.005\)/);
  }, 60_000);

  it('a job that adds no run after its first look reads its samples as analyze does (one verdict for one set of samples)', async () => {
    // 3 vs 3 runs 24.6% apart, no overlap: exact p = 1/20 = 0.05. Look 1 of 3 alone tests at 0.04,
    // but a 30 s budget leaves no room for a pair, so look 1 is the last and tests at all of alpha.
    const work = checkouts(270, 358, '');
    const { code, stderr } = await run(work, ['--max-runs', '7', '--timeout-minutes', '0.5']);
    expect(stderr).toBe('');
    expect(readFileSync(join(work, 'order.log'), 'utf8').trim().split('\n')).toHaveLength(6);
    const out = join(work, 'head', 'o');
    const head = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
    expect(head.comparison!.look).toMatchObject({ index: 1, of: 3, final: true, alpha: 0.05 });
    expect(head.verdict).toBe('fail');
    expect(code).toBe(1);
    const runJson = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')) as { analysisInputs: string[] };
    const inputs = runJson.analysisInputs.map((p) => (p.startsWith('/') ? p : join(out, p)));
    const analyzed = await cli(['analyze', ...inputs, '--baseline', join(out, 'base', 'baseline-report.json'), '--json', join(work, 'analyze.json')]);
    expect(analyzed.code).toBe(1);
    const single = JSON.parse(readFileSync(join(work, 'analyze.json'), 'utf8')) as Report;
    const line = (report: Report) => accountOf(report).find((r) => r.startsWith('decode_tok_s '));
    expect(line(single)).toMatch(/^decode_tok_s regressed \(.*−24\.\d%; .*p=0\.05, 3 vs 3 samples\), beyond the 3% floor$/);
    expect(line(head)).toBe(line(single));
    expect(linesOf(head)).toEqual(linesOf(single));
  }, 60_000);

  it('decided at the planned look: no run is added', async () => {
    const work = checkouts(358, 358, '3');
    const { code, stderr } = await run(work, ['--max-runs', '7']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(readFileSync(join(work, 'order.log'), 'utf8').trim().split('\n')).toHaveLength(6);
    const head = JSON.parse(readFileSync(join(work, 'head', 'o', 'report.json'), 'utf8')) as Report;
    expect(head.comparison!.look).toMatchObject({ index: 1, of: 3, final: true });
    expect(head.verdict).toBe('pass');
  }, 60_000);
});
