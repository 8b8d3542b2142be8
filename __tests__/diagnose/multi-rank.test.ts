/**
 * Communication, ranks and transfers diagnosed on real traces, through the engine as the CLI runs it.
 * No two ranks of one real job are in the fixtures: the two-rank sets are derived from the real DDP
 * rank-1 trace by the transformations below (documented in fixtures/multi-rank/SOURCES.md; the real files are in fixtures/external-2/).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import type { Report } from '../../src/model/report.js';
import { renderSummary } from '../../src/report/markdown/summary.js';
import { renderTerminal } from '../../src/report/terminal.js';
import { writeTempFile } from '../ingest/profiler-temp-file.js';
import { analyzedOnce } from '../helpers/shared-analysis.js';

const dir = fileURLToPath(new URL('../fixtures/external-2/', import.meta.url));
const kinetoDir = fileURLToPath(new URL('../fixtures/kineto/', import.meta.url));
const DDP = `${dir}kineto/hta_v100_ddp_rank1_ws2_nccl_allreduce.json.gz`;
const run = (...inputs: string[]) => analyzedOnce(inputs);
const finding = (report: Report, id: string) => report.findings.filter((f) => f.id === id);

interface Trace {
  distributedInfo: Record<string, unknown>;
  traceEvents: Array<{ ts?: number; dur?: number }>;
}
const ddpTrace = (): Trace => JSON.parse(gunzipSync(readFileSync(DDP)).toString('utf8'));

/** Derived: the same trace, labelled as another rank of the same job. */
function relabelled(rank: number): string {
  const trace = ddpTrace();
  trace.distributedInfo = { ...trace.distributedInfo, rank };
  return writeTempFile(`derived_rank${rank}.json`, JSON.stringify(trace));
}

/** Derived: every timestamp and duration stretched by `factor` around the first event (a uniformly slower rank). */
function slowed(rank: number, factor: number): string {
  const trace = ddpTrace();
  trace.distributedInfo = { ...trace.distributedInfo, rank };
  const t0 = trace.traceEvents.reduce((min, e) => (typeof e.ts === 'number' && e.ts < min ? e.ts : min), Infinity);
  for (const e of trace.traceEvents) {
    if (typeof e.ts === 'number') e.ts = t0 + (e.ts - t0) * factor;
    if (typeof e.dur === 'number') e.dur = e.dur * factor;
  }
  return writeTempFile(`derived_slow_rank${rank}.json`, JSON.stringify(trace));
}

describe('communication on real traces', () => {
  it('DDP V100 (NCCL 36.5 %, idle 42 %): communication-bound with training advice, not host-bound', async () => {
    const report = await run(DDP);
    const [hit] = finding(report, 'communication-bound');
    expect(hit).toMatchObject({ severity: 'warning', evidence: { workload: 'training', rank: 1, hiddenFraction: 0 } });
    expect(hit!.evidence.exposedShare).toBeCloseTo(0.206, 3);
    expect(hit!.advice).toMatch(/bucket/);
    // The 42 % idle is said as well: it is not collective time.
    expect(hit!.message).toMatch(/idle a further 42\.3% of the active span/);
    expect(finding(report, 'host-bound')).toEqual([]);
    expect(report.ranks).toHaveLength(1);
    expect(report.ranks[0]).toMatchObject({ rank: 1, worldSize: 2, backend: 'nccl', device: 1 });
  });

  it('vLLM TP4 (all-reduce ≈10 %, GPU 89 % busy): at most an info that reports the share', async () => {
    const report = await run(`${dir}kineto/vllm_tp4_h100_rank0_1000isl_10osl_32con.pt.trace.json.gz`);
    const hits = finding(report, 'communication-bound');
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ severity: 'info', evidence: { workload: 'inference' } });
    expect(hits[0]!.evidence.collectiveShare).toBeGreaterThan(0.1);
    expect(hits[0]!.evidence.collectiveShare).toBeLessThan(0.11);
    expect(report.findings.filter((f) => f.severity !== 'info').map((f) => f.id)).toEqual([]);
  });

  it('AlexNet A100: transfer-bound (55.5 ms of copies against 10.7 ms of kernels), the 10 s gap named set-up', async () => {
    const report = await run(`${dir}kineto/hta_a100_alexnet_critical_path.json.gz`);
    expect(finding(report, 'transfer-bound')).toMatchObject([{ severity: 'warning', evidence: { copyMs: 55.503, kernelMs: 10.692, setUpGap: true } }]);
    expect(report.timeline!.excludedGaps.some((g) => g.reason === 'set-up' && g.durNs > 10e9)).toBe(true);
    // One capture that is not a distributed job (rank 0, no world size): no rank rows.
    expect(renderTerminal(report)).not.toMatch(/rank 0: /);
    expect(renderTerminal(report)).toMatch(/5 idle gaps \(12\.78 s, set-up, between-repetitions\) left out: active span 141\.09 ms/);
    expect(finding(report, 'communication-bound')).toEqual([]);
  });
});

describe('several ranks', () => {
  it('two ranks of one job (derived): each its own breakdown and timeline, no straggler', async () => {
    const report = await run(relabelled(0), DDP);
    expect(report.ranks.map((r) => r.rank)).toEqual([0, 1]);
    for (const rank of report.ranks) {
      expect(rank.totalKernelNs).toBe(977_859_000);
      expect(rank.timeline!.communication!.exposedNs).toBe(357_343_000);
      expect(rank.families.find((f) => f.family === 'collective')!.share).toBeCloseTo(0.3654, 4);
    }
    // The profile's totals are the sum of the ranks; the shares are unchanged.
    expect(report.totalKernelNs).toBe(2 * 977_859_000);
    expect(finding(report, 'rank-imbalance')).toEqual([]);
    expect(finding(report, 'communication-bound')).toHaveLength(1);
    expect(finding(report, 'communication-bound')[0]!.evidence.ranksMeasured).toBe(2);
    // One row per rank in the terminal and the job summary.
    for (const text of [renderTerminal(report), renderSummary(report)]) {
      expect(text).toMatch(/rank 0 of 2: 977\.86 ms of kernels, collectives 36\.5%, exposed communication 20\.6% of the active span, busy 57\.7%/);
      expect(text).toMatch(/rank 1 of 2: /);
    }
  });

  it('a rank slowed by 25 % (derived) is the straggler, by its compute and its steps', async () => {
    // Given rank 1 first: the ranks still come in rank order, and rank 0's timeline is the run's.
    const report = await run(DDP, slowed(0, 1.25));
    expect(report.ranks.map((r) => r.rank)).toEqual([0, 1]);
    expect(report.timeline!.spanNs).toBeCloseTo(1.25 * 1_732_965_000, -3);
    const [hit] = finding(report, 'rank-imbalance');
    expect(hit).toMatchObject({ severity: 'warning', evidence: { slowRank: 0, ranks: 2, extraFamily: 'gemm' } });
    expect(hit!.evidence.computeExcess).toBeCloseTo(0.25, 2);
    expect(hit!.evidence.stepExcess).toBeCloseTo(0.25, 2);
  });

  it('traces of different jobs (128-rank trainer rank 0, 2-rank DDP rank 1) are not compared as one job', async () => {
    const report = await run(`${kinetoDir}hta_sampled_rank0_ws128_trimmed.json`, DDP);
    expect(report.notices.map((n) => n.code)).toContain('ranks-of-different-jobs');
    expect(report.ranks.map((r) => [r.rank, r.worldSize])).toEqual([
      [0, 128],
      [1, 2],
    ]);
    expect(finding(report, 'rank-imbalance')).toEqual([]);
  });
});
