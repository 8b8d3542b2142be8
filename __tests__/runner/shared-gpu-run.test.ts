/**
 * `profile-gate run` carries what the GPU sampler saw of other processes from each measured run's
 * recording into the report: the stand-in gpu_snapshot.py (no GPU) lists a neighbour, a host pid
 * listed before the command started, in the recordings $STAND_IN_NEIGHBOUR_OUT names.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ProcessGroups } from '../../src/runner/process-group.js';
import type { Report } from '../../src/model/report.js';
import { runCli } from '../helpers/cli.js';
import { standInProbe, standInPythonDir, standInToolsDir, tempDir, TINY_WORKLOAD, useStandInMaxOnPath } from './stand-ins.js';

const tools = standInToolsDir();
const probe = standInProbe({ vendor: 'nvidia', nsys: tools.nsys, ncu: tools.ncu });
const pythonDir = standInPythonDir({ snapshot: true });
let restorePath: () => void;
beforeAll(() => {
  restorePath = useStandInMaxOnPath();
  // The head's second measured run only (the base side's files are under o/base/).
  process.env.STAND_IN_NEIGHBOUR_OUT = '/o/captures/measured-2\\.gpu\\.jsonl$';
});
afterAll(() => {
  restorePath();
  delete process.env.STAND_IN_NEIGHBOUR_OUT;
});

/** Two checkouts of one build; each run prints its throughput line. */
function sameBuildTwice(): string {
  const work = tempDir('shared');
  for (const side of ['head', 'base']) {
    mkdirSync(join(work, side));
    // Steps long enough for the stand-in sampler (0.1 s) to record each run twice or more.
    writeFileSync(join(work, side, 'work.sh'), `python3 ${TINY_WORKLOAD} --steps 4 --step-ms 60 --print-metrics\n`);
  }
  return work;
}

describe('run: a neighbour on the GPU during a measured run', () => {
  it('is carried per run into the report, and the gated metric is decided without that run', async () => {
    const work = sameBuildTwice();
    const { stderr } = await runCli(['--engine', 'command', '--run', 'bash work.sh', '--base-workdir', '../base', '--runs', '4', '--warmup-runs', '0', '--profiler', 'none', '--out', 'o', '--quiet', '--threshold', 'decode_tok_s=40'], {
      probe,
      pythonDir,
      cwd: join(work, 'head'),
      groups: new ProcessGroups({ graceMs: 300 }),
    });
    expect(stderr).toBe('');
    const head = JSON.parse(readFileSync(join(work, 'head', 'o', 'report.json'), 'utf8')) as Report;
    const base = JSON.parse(readFileSync(join(work, 'head', 'o', 'base', 'baseline-report.json'), 'utf8')) as Report;
    // The sampler wrapped each measured run with --gpu-free-before: nothing of the job is on the GPU when it starts.
    const recording = readFileSync(join(work, 'head', 'o', 'captures', 'measured-2.gpu.jsonl'), 'utf8').split('\n')[0]!;
    expect(JSON.parse(recording)).toMatchObject({ version: 2, processes: true, gpu_free_before: true });

    const runs = head.gpuSharing!.runs;
    // The A/B may add pairs while undecided: four runs or more, the second the shared one.
    expect(runs.length).toBeGreaterThanOrEqual(4);
    expect(runs.filter((r) => r.shared).map((r) => r.run)).toEqual([2]);
    expect(runs[1]).toMatchObject({ run: 2, listed: true, shared: true, samples: { decode_tok_s: 1 } });
    expect(runs[1]!.neighbours).toEqual([{ pid: 4194000, evidence: 'listed-before', device: 0, samples: expect.any(Number), maxSmPercent: 73, maxMemoryBytes: 8 * 2 ** 30 }]);
    expect(runs[1]!.neighbours[0]!.samples).toBeGreaterThanOrEqual(2);
    expect(base.gpuSharing!.runs.every((r) => r.listed && !r.shared)).toBe(true);
    expect(head.notices.filter((n) => n.code === 'gpu-shared').map((n) => n.severity)).toEqual(['warning']);
    expect(base.notices.filter((n) => n.code === 'gpu-shared')).toEqual([]);

    const decode = head.comparison!.rows.find((r) => r.metric === 'decode_tok_s')!;
    expect(decode.reading).toMatchObject({ sharedGpu: { action: 'clean-runs', sides: [{ side: 'current', runs: [2], of: runs.length, who: [{ pid: 4194000, evidence: 'listed-before', maxSmPercent: 73 }] }] } });
    // The shared run's sample is counted as left out of the current side.
    expect(decode.leftOut![1]).toBeGreaterThanOrEqual(1);
    expect(decode.status).not.toBe('fail');
  });
});
