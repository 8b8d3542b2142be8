/**
 * A GPU the sampler saw shared with another process during measured runs (src/compare/shared-gpu.ts):
 * a PASS is not shown on such runs; the gate decides on the runs the sharing left alone when enough
 * remain, keeps a failure only where it holds there or the sharing was alike on both sides, and is
 * otherwise undecided, naming the process.
 */
import { compare, type GateInput } from '../../src/compare/gate.js';
import { ALIKE_SHARE } from '../../src/compare/shared-gpu.js';
import { parseGateOptions, parseSharedGpu } from '../../src/compare/gate-options.js';
import type { GpuSharing } from '../../src/model/gpu-sharing.js';
import type { ComparisonRow } from '../../src/model/report.js';
import { linesOf } from '../helpers/gate-lines.js';
import { decodeSide } from '../helpers/decode-side.js';

/** The neighbour as the sampler records it in a container: a host pid listed before the run started. */
const NEIGHBOUR = { pid: 4194000, evidence: 'listed-before' as const, device: 0, samples: 6, maxSmPercent: 88, maxMemoryBytes: 9663676416 };

/** Runs 1..n, those in `shared` with the neighbour; one decode_tok_s sample each when `placed`. */
function sharing(n: number, shared: readonly number[], placed = true): GpuSharing {
  return {
    runs: Array.from({ length: n }, (_, i) => ({
      run: i + 1,
      listed: true,
      shared: shared.includes(i + 1),
      neighbours: shared.includes(i + 1) ? [NEIGHBOUR] : [],
      unknownPids: [],
      ...(placed ? { samples: { decode_tok_s: 1 } } : {}),
    })),
  };
}

function side(tokS: readonly number[], gpuSharing?: GpuSharing): GateInput {
  return decodeSide(tokS, gpuSharing ? { gpuSharing } : {});
}
const decodeRow = (rows: readonly ComparisonRow[]) => rows.find((r) => r.metric === 'decode_tok_s')!;

// Quiet runs of one build on an H200 decode vary about ±0.3%.
const QUIET = [800.1, 801.5, 799.2, 800.8, 802.0, 799.6, 800.4, 801.1];
// The same build, its runs 2, 5 and 7 slowed 10-14% by a neighbour's matmul bursts.
const AA_NEIGHBOUR = [800.5, 690.0, 801.2, 799.9, 720.4, 800.7, 705.3, 801.8];
// A build 5% slower, quiet.
const SLOWER = [760.2, 761.0, 759.5, 760.8, 761.6, 759.9, 760.4, 761.2];

describe('shared-gpu: a neighbour seen during measured runs', () => {
  it('A/A with the neighbour on some current runs: decided on the clean runs, which pass, and names what was left out', () => {
    const gated = compare(side(AA_NEIGHBOUR, sharing(8, [2, 5, 7])), side(QUIET, sharing(8, [])));
    const row = decodeRow(gated.comparison!.rows);
    expect(row.status).toBe('pass');
    expect(gated.verdict).toBe('pass');
    // 5 clean current runs against all 8 baseline runs; the 3 shared ones counted as left out.
    expect(row.samples).toEqual([8, 5]);
    expect(row.leftOut).toEqual([0, 3]);
    expect(row.reading).toMatchObject({ kind: 'metric', sharedGpu: { action: 'clean-runs', sides: [{ side: 'current', runs: [2, 5, 7], of: 8 }] } });
    expect(linesOf(gated)[0]).toMatch(
      /^no regression: 1 gated metric within its floor, no new findings, the GPU was shared with another process \(pid 4194000 \(SM up to 88%, 9\.0 GiB, on the GPU before the run started\) during current runs 2, 5, 7 of 8\): decided on the runs it was not shared in$/,
    );
  });

  it('the same A/A with its runs not told apart (no per-run samples): never a FAIL, undecided naming the process', () => {
    const gated = compare(side(AA_NEIGHBOUR, sharing(8, [2, 5, 7], false)), side(QUIET, sharing(8, [], false)));
    const row = decodeRow(gated.comparison!.rows);
    expect(row.status).toBe('insufficient-data');
    expect(row.insufficient).toMatchObject({ why: 'shared-gpu', runsPerSide: null, quieterRunner: true, addsRuns: false });
    expect(row.reading).toMatchObject({ outcome: 'shared-gpu', sharedGpu: { action: 'refused' } });
    expect(gated.verdict).toBe('insufficient-data');
    expect(gated.comparison!.undecided).toEqual([]);
    expect(linesOf(gated)[0]).toMatch(/^decode_tok_s undecided: the GPU was shared with another process, pid 4194000 \(SM up to 88%, 9\.0 GiB, on the GPU before the run started\) during current runs 2, 5, 7 of 8, and the runs' samples are not told apart, so the shared ones cannot be left out; on all runs .*, which would have passed; runs vary ±\d\.\d% \(baseline\) and ±\d\.\d% \(current\); runs on a GPU no other process uses would decide it$/);
  });

  it('a 5% regression hidden by a neighbour on every baseline run is not a PASS', () => {
    // The neighbour slowed each baseline run by about as much as the regression costs.
    const baseShared = [760.9, 759.1, 762.0, 760.3, 761.7, 758.8, 760.6, 761.4];
    // Unseen, the sides look alike and pass: the case the sampler's evidence exists for.
    expect(compare(side(SLOWER), side(baseShared)).verdict).toBe('pass');
    const gated = compare(side(SLOWER, sharing(8, [])), side(baseShared, sharing(8, [1, 2, 3, 4, 5, 6, 7, 8])));
    const row = decodeRow(gated.comparison!.rows);
    expect(row.reading).toMatchObject({ outcome: 'shared-gpu', sharedGpu: { action: 'refused', allRuns: 'pass', sides: [{ side: 'baseline', runs: [1, 2, 3, 4, 5, 6, 7, 8], of: 8 }] } });
    expect(gated.verdict).toBe('insufficient-data');
    expect(linesOf(gated)[0]).toMatch(/^decode_tok_s undecided: the GPU was shared with another process, pid 4194000 .* during baseline runs 1, 2, 3, 4, 5, 6, 7, 8 of 8, and too few runs it left alone remain on each side to decide on them; on all runs .*, which would have passed; /);
  });

  it('a regression with the neighbour on some current runs: decided on the clean runs, where it fails', () => {
    const current = [760.2, 652.0, 759.5, 760.8, 700.3, 759.9, 681.7, 761.2];
    const gated = compare(side(current, sharing(8, [2, 5, 7])), side(QUIET, sharing(8, [])));
    const row = decodeRow(gated.comparison!.rows);
    expect(row.status).toBe('fail');
    expect(row.samples).toEqual([8, 5]);
    expect(row.delta!).toBeCloseTo(760.2 / 800.6 - 1, 3);
    expect(row.reading).toMatchObject({ outcome: 'regressed', sharedGpu: { action: 'clean-runs' } });
    expect(linesOf(gated)[0]).toMatch(/^decode_tok_s regressed \(.*\), beyond the 3% floor; decided on the runs the GPU was not shared in: left out the runs another process used it during \(pid 4194000 .* during current runs 2, 5, 7 of 8\)$/);
  });

  it('too few clean runs on a side: undecided, and the A/B may add runs to find clean ones', () => {
    const gated = compare(side(SLOWER.slice(0, 4), sharing(4, [1, 2, 3])), side(QUIET.slice(0, 4), sharing(4, [])), { look: { index: 1, of: 3 } });
    const row = decodeRow(gated.comparison!.rows);
    expect(row.status).toBe('insufficient-data');
    expect(row.insufficient).toMatchObject({ why: 'shared-gpu', addsRuns: true });
    expect(row.reading).toMatchObject({ sharedGpu: { refusedFor: 'too-few-clean-runs' } });
    expect(gated.comparison!.undecided).toEqual(['decode_tok_s']);
    expect(linesOf(gated)[0]).toMatch(/; the A\/B adds runs, to decide on those the GPU is not shared in$/);
  });

  it('a failure under sharing alike on both sides stands; on one side only it is undecided', () => {
    const alike = compare(side(SLOWER, sharing(8, [1, 2, 3, 4], false)), side(QUIET, sharing(8, [3, 4, 5, 6, 7], false)));
    expect(4 / 8 - 5 / 8).toBeLessThanOrEqual(ALIKE_SHARE);
    expect(decodeRow(alike.comparison!.rows)).toMatchObject({ status: 'fail', reading: { outcome: 'regressed', sharedGpu: { action: 'fail-both-sides', allRuns: 'fail' } } });
    expect(alike.verdict).toBe('fail');
    expect(linesOf(alike)[0]).toMatch(/; the GPU was shared on both sides alike \(pid 4194000 .* during baseline runs 3, 4, 5, 6, 7 of 8; pid 4194000 .* during current runs 1, 2, 3, 4 of 8\), so the failure stands, shown at the 97\.5% level too \(CI −5\.\d% … −4\.\d%, 8 vs 8 runs kept\)$/);
    // Judged again at 97.5%, on all 8 runs a side (none left out as stalls: quiet runs).
    expect(decodeRow(alike.comparison!.rows).reading).toMatchObject({ sharedGpu: { failCheck: { shown: true, level: 0.975, status: 'fail', kept: [8, 8], keptNeeded: 5 } } });

    const oneSide = compare(side(SLOWER, sharing(8, [1, 2, 3, 4, 5, 6], false)), side(QUIET, sharing(8, [1], false)));
    expect(decodeRow(oneSide.comparison!.rows)).toMatchObject({ status: 'insufficient-data', reading: { sharedGpu: { action: 'refused', allRuns: 'fail' } } });
    expect(oneSide.verdict).toBe('insufficient-data');
  });

  it('under a neighbour on both sides, an A/B fails at its last look only: an earlier look adds runs', () => {
    const every = sharing(8, [1, 2, 3, 4, 5, 6, 7, 8], false);
    const early = compare(side(SLOWER, every), side(QUIET, every), { look: { index: 1, of: 3 } });
    const row = decodeRow(early.comparison!.rows);
    expect(row.status).toBe('insufficient-data');
    expect(row.insufficient).toMatchObject({ why: 'shared-gpu', addsRuns: true });
    expect(row.reading).toMatchObject({ sharedGpu: { allRuns: 'fail', refusedFor: 'fail-not-shown', failCheck: { shown: false, waitsForLastLook: true } } });
    expect(early.comparison!.undecided).toEqual(['decode_tok_s']);
    expect(linesOf(early)[0]).toMatch(/at the A\/B's last look \(a neighbour can slow every run of one side alike\): this look can still add runs; /);
    // The same runs at the last look: the 5% regression, shown at 97.5% on 8 runs a side, fails.
    const last = compare(side(SLOWER, every), side(QUIET, every), { look: { index: 3, of: 3, final: true } });
    expect(decodeRow(last.comparison!.rows)).toMatchObject({ status: 'fail', reading: { sharedGpu: { action: 'fail-both-sides', failCheck: { shown: true, waitsForLastLook: false } } } });
    expect(last.verdict).toBe('fail');
  });

  it('under a neighbour on both sides, a failure resting on 3 kept runs a side is undecided: the neighbour can slow every run of one side alike', () => {
    // A/A: one build on both sides, every run of both sides shared. The neighbour slowed the
    // baseline's runs 2 and 5 and, by chance, all five current runs by 4-12%; each side's 2 slowest
    // runs are left out as stalls, leaving 3 current runs 7-9% under the baseline's 3 fastest.
    const base = [1.0214, 0.9873, 1.0076, 1, 0.9379].map((x) => 800 * x);
    const cur = [0.8835, 0.8891, 0.9604, 0.9205, 0.9245].map((x) => 800 * x);
    const every = sharing(5, [1, 2, 3, 4, 5], false);
    // Unseen, the run times alone fail it: the case this rule exists for.
    expect(compare(side(cur), side(base)).verdict).toBe('fail');
    const gated = compare(side(cur, every), side(base, every));
    const row = decodeRow(gated.comparison!.rows);
    expect(row.status).toBe('insufficient-data');
    expect(row.reading).toMatchObject({ outcome: 'shared-gpu', sharedGpu: { action: 'refused', allRuns: 'fail', refusedFor: 'fail-not-shown', failCheck: { shown: false, level: 0.975, keptNeeded: 5 } } });
    const check = (row.reading as { sharedGpu: { failCheck: { kept: number[] } } }).sharedGpu.failCheck;
    expect(Math.min(...check.kept)).toBeLessThan(5);
    expect(gated.verdict).toBe('insufficient-data');
    expect(linesOf(gated)[0]).toMatch(
      /^decode_tok_s undecided: the GPU was shared with another process, pid 4194000 .* during baseline runs 1, 2, 3, 4, 5 of 5; .* during current runs 1, 2, 3, 4, 5 of 5, and on both sides alike, where a failure must also hold at the 97\.5% level on at least 5 kept runs a side, at the A\/B's last look \(a neighbour can slow every run of one side alike\): it rests on 3 baseline and 3 current runs kept; on all runs .*, which would have failed/,
    );
  });

  it('under a neighbour on both sides, a failure whose 97.5% interval reaches inside the floor is undecided', () => {
    // A/A, 13 runs a side, every run shared: 5 runs a side slowed 4-17% and left out as stalls;
    // the current side's 8 kept runs sit 3-5% under the baseline's, a 90% interval just past the 3% floor.
    const base = [0.9856, 0.839, 1.0023, 1.015, 0.8786, 0.8924, 1.0021, 0.9102, 1, 1.0095, 0.9637, 1.0134, 1.0161].map((x) => 800 * x);
    const cur = [0.9661, 0.9669, 0.9772, 0.9771, 0.9676, 0.9263, 0.834, 0.9366, 0.9187, 0.9537, 0.8652, 0.917, 0.9675].map((x) => 800 * x);
    const every = sharing(13, Array.from({ length: 13 }, (_, i) => i + 1), false);
    const gated = compare(side(cur, every), side(base, every));
    const row = decodeRow(gated.comparison!.rows);
    expect(row.reading).toMatchObject({ sharedGpu: { allRuns: 'fail', refusedFor: 'fail-not-shown', failCheck: { shown: false, level: 0.975, status: 'insufficient-data', outcome: 'interval-reaches-inside-floor' } } });
    const check = (row.reading as { sharedGpu: { failCheck: { ci: [number, number]; kept: number[] } } }).sharedGpu.failCheck;
    // The interval at 97.5% reaches inside the 3% floor (its better end above −3%).
    expect(check.ci[1]).toBeGreaterThan(-0.03);
    expect(row.ci![1]).toBeLessThanOrEqual(-0.03);
    expect(linesOf(gated)[0]).toMatch(/: at 97\.5% it would have been undecided \(CI −\d\.\d% … −\d\.\d%, which reaches inside the 3% floor\); on all runs .*, which would have failed/);
  });

  it('a failure with only the baseline shared stands (the neighbour slowed the baseline, against the regression); an improvement with only the baseline shared does not', () => {
    const gated = compare(side(SLOWER, sharing(8, [], false)), side(QUIET, sharing(8, [1, 2, 3, 4, 5], false)));
    expect(decodeRow(gated.comparison!.rows)).toMatchObject({ status: 'fail', reading: { outcome: 'regressed', sharedGpu: { action: 'against-sharing', allRuns: 'fail' } } });
    expect(linesOf(gated)[0]).toMatch(/; the GPU was shared on the baseline side only \(pid 4194000 .* during baseline runs 1, 2, 3, 4, 5 of 8\), which a neighbour can only have made slower: the change stands$/);
    // The same runs the other way round: the head "improved" against a baseline the neighbour slowed.
    const flipped = compare(side(QUIET, sharing(8, [], false)), side(SLOWER, sharing(8, [1, 2, 3, 4, 5], false)));
    expect(decodeRow(flipped.comparison!.rows)).toMatchObject({ status: 'insufficient-data', reading: { sharedGpu: { action: 'refused', allRuns: 'improved' } } });
    // And with only the current shared, that improvement stands.
    const improved = compare(side(QUIET, sharing(8, [1, 2, 3, 4, 5], false)), side(SLOWER, sharing(8, [], false)));
    expect(decodeRow(improved.comparison!.rows)).toMatchObject({ status: 'improved', reading: { sharedGpu: { action: 'against-sharing' } } });
    // A current side never listed may have had a neighbour too: the failure is not shown against sharing then.
    const unseen = compare(side(SLOWER), side(QUIET, sharing(8, [1, 2, 3, 4, 5], false)));
    expect(decodeRow(unseen.comparison!.rows)).toMatchObject({ status: 'insufficient-data', reading: { sharedGpu: { action: 'refused', allRuns: 'fail' } } });
  });

  it('shared-gpu ignore: decided on every run, the sharing named', () => {
    const gated = compare(side(SLOWER, sharing(8, [1, 2, 3, 4, 5, 6], false)), side(QUIET, sharing(8, [], false)), { sharedGpu: 'ignore' });
    expect(decodeRow(gated.comparison!.rows)).toMatchObject({ status: 'fail', reading: { outcome: 'regressed', sharedGpu: { action: 'ignored' } } });
    expect(linesOf(gated)[0]).toMatch(/; the GPU was shared \(pid 4194000 .*\), compared on every run as shared-gpu ignore says$/);
  });

  it('samples that do not add up to the runs are not placed: no run is left out on a guess', () => {
    const wrong = sharing(8, [2, 5, 7]);
    wrong.runs[0]!.samples = { decode_tok_s: 2 };
    const gated = compare(side(AA_NEIGHBOUR, wrong), side(QUIET, sharing(8, [])));
    expect(decodeRow(gated.comparison!.rows)).toMatchObject({ status: 'insufficient-data', reading: { sharedGpu: { action: 'refused' } } });
  });

  it('the option takes refuse or ignore, refuse by default; anything else is refused naming the option', () => {
    expect(parseGateOptions({}).sharedGpu).toBe('refuse');
    expect(parseSharedGpu(' Ignore ', '--shared-gpu')).toBe('ignore');
    expect(() => parseSharedGpu('warn', '--shared-gpu')).toThrow('--shared-gpu: expected one of refuse, ignore, got "warn"');
    expect(() => parseGateOptions({ sharedGpu: 'warn' })).toThrow(/^gate option sharedGpu: expected one of refuse, ignore/);
  });

  it('no sharing seen on either side leaves the rows as they were', () => {
    const seen = compare(side(SLOWER, sharing(8, [])), side(QUIET, sharing(8, [])));
    const unseen = compare(side(SLOWER), side(QUIET));
    expect(seen.comparison!.rows).toEqual(unseen.comparison!.rows);
    expect(seen.verdict).toBe('fail');
  });
});
