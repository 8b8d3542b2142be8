/**
 * One step count for every stage: the report's record (pipeline), the gate's time per step
 * (compare), the history summary and the dashboard read the same count of the same real capture,
 * with the record and without it (an older report), and the decode-step evidence reads the same
 * sampling launches. The expected counts are read from the raw files here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { compare } from '../../src/compare/gate.js';
import { summarizeReport } from '../../src/compare/history-summary.js';
import { decodeSteps } from '../../src/diagnose/decode-steps.js';
import { samplingLaunches, stepCountOf } from '../../src/diagnose/step-count.js';
import type { Report } from '../../src/model/report.js';
import { buildProfile } from '../../src/pipeline/build-profile.js';
import { buildDashboardData } from '../../src/report/dashboard/index.js';
import { analyzedOnce, ingestedOnce } from '../helpers/shared-analysis.js';

const HEALTHY = join(import.meta.dirname, '..', 'fixtures', 'h200-captures', 'healthy_decode');

/** The argmax row's Instances of an `nsys stats -r cuda_gpu_kern_sum` CSV, read as text. */
function argmaxLaunches(path: string): number {
  const row = readFileSync(path, 'utf8').split('\n').find((line) => /^\d+(\.\d+)?,\d+,\d+,/.test(line) && line.includes('ArgMaxOps'))!;
  return Number(row.split(',')[2]);
}

/** ProfilerStep ranges and argmax kernel launches of a Chrome trace, read from its JSON. */
function traceCounts(path: string): { steps: number; argmax: number } {
  const events = (JSON.parse(gunzipSync(readFileSync(path)).toString('utf8')) as { traceEvents: Array<{ cat?: string; name?: string }> }).traceEvents;
  return {
    steps: events.filter((e) => e.cat === 'user_annotation' && e.name?.startsWith('ProfilerStep#')).length,
    argmax: events.filter((e) => e.cat === 'kernel' && e.name?.includes('ArgMaxOps')).length,
  };
}

/** The count each stage reads of one report: the gate and the history summary whole, the dashboard its steps and basis. */
function stageCounts(report: Report) {
  const perStep = compare(report, report).comparison!.perStep!;
  const points = buildDashboardData([{ report, source: 'report.json' }], []).workloads[0]!.points;
  return {
    gate: perStep.current,
    history: summarizeReport(report, 'id', { readFrom: 'test' }).steps,
    dashboard: { steps: points.steps[0], basis: points.stepBasis[0] },
  };
}

describe.each([
  {
    name: 'an nsys kernel summary (no timeline): the argmax launches count the steps',
    inputs: ['healthy_node.kern_sum.csv', 'healthy_timed.stdout.jsonl'],
    basis: 'once-per-step-kernel',
    expected: () => {
      const launches = argmaxLaunches(join(HEALTHY, 'healthy_node.kern_sum.csv'));
      return { steps: launches, sampling: launches };
    },
  },
  {
    name: 'a Kineto trace: the profiler steps count them, the argmax launches agree',
    inputs: ['healthy.trace.json.gz', 'healthy_timed.stdout.jsonl'],
    basis: 'profiler-steps',
    expected: () => {
      const counts = traceCounts(join(HEALTHY, 'healthy.trace.json.gz'));
      return { steps: counts.steps, sampling: counts.argmax };
    },
  },
])('the stages agree on $name', ({ inputs, basis, expected }) => {
  let report: Report;
  beforeAll(async () => {
    report = await analyzedOnce(inputs.map((name) => join(HEALTHY, name)));
  }, 60_000);

  it('the report records the count the raw file gives, with the batch as tokens per step', () => {
    const { steps } = expected();
    // PROVENANCE.md of healthy_decode: 32 steps in the nsys capture range, 8 profiler steps in the trace.
    expect(steps).toBe(basis === 'profiler-steps' ? 8 : 32);
    expect(report.stepCount).toMatchObject({ steps, basis, devices: 1, tokensPerStep: 1 });
  });

  it('the gate, the history summary and the dashboard read that count, with the record and counted afresh', () => {
    const { steps } = expected();
    const recorded = report.stepCount!;
    const want = { gate: recorded, history: recorded, dashboard: { steps, basis } };
    expect(stageCounts(report)).toEqual(want);
    // An older report without the record: every stage counts it again, the same way, tokens per step included.
    const { stepCount: _recorded, ...older } = report;
    expect(stepCountOf(older)).toEqual(recorded);
    expect(stageCounts(older)).toEqual(want);
  });

  it('the decode-step evidence reads the same sampling launches as the count', async () => {
    const { sampling } = expected();
    expect(samplingLaunches(report.kernels)?.launches).toBe(sampling);
    const profile = buildProfile(await Promise.all(inputs.map((name) => ingestedOnce(join(HEALTHY, name)))));
    expect(samplingLaunches(profile.kernels)?.launches).toBe(sampling);
    const decode = decodeSteps(profile, { minDecodeSteps: 4, minStepGrowth: Number.POSITIVE_INFINITY });
    expect(decode.samplingLaunches).toBe(sampling);
    expect(decode.signals).toContain('sampling');
  });
});
