/**
 * Several traces of one run: each keeps its own timeline, time-based rules read the one holding the
 * steady work, and a graph-capture trace is set-up. The pair is real: TraceLens's vLLM gpt-oss-20b
 * FULL-graph decode on MI300X, the capture of the graph and the execution of the step, from one
 * commit (fixtures/external-3/PROVENANCE.md). Busy fractions were computed with python from the raw
 * files: execution 10,717.7 µs of GPU ops over a 10,743.2 µs span (0.998); capture 7 kernels,
 * 19.6 µs, 28.8 µs of GPU ops over 57.8 ms (0.0005).
 */
import { join } from 'node:path';
import type { Report } from '../../src/model/report.js';
import { timelineThinBecause } from '../../src/diagnose/evidence.js';
import { analyzedOnce } from '../helpers/shared-analysis.js';

const kineto = (name: string) => join(import.meta.dirname, '..', 'fixtures', name.startsWith('hta_') ? 'kineto' : 'external-3/kineto', name);
const CAPTURE = kineto('tracelens_gfx942_vllm_gptoss20b_decode_fullgraph_bs32_capture.json.gz');
const EXECUTION = kineto('tracelens_gfx942_vllm_gptoss20b_decode_fullgraph_bs32_execution.json.gz');
const SMALL = kineto('hta_mi250_rocm6.2_minitoy_train_kineto.json');

const ids = (report: Report) => [...new Set(report.findings.map((f) => f.id))].sort();
const busyFraction = (report: Report) => report.timeline!.busyNs / report.timeline!.activeSpanNs!;
const notice = (report: Report, code: string) => report.notices.find((n) => n.code === code);

describe('a vLLM graph-capture trace beside the execution trace of the same step', () => {
  let captureFirst: Report;
  let executionFirst: Report;
  beforeAll(async () => {
    captureFirst = await analyzedOnce([CAPTURE, EXECUTION]);
    executionFirst = await analyzedOnce([EXECUTION, CAPTURE]);
  }, 60_000);

  it('reads the execution timeline in both orders: 99.8 % busy, not host-bound', () => {
    for (const report of [captureFirst, executionFirst]) {
      expect(busyFraction(report)).toBeCloseTo(0.9976, 3);
      expect(ids(report)).not.toContain('host-bound');
    }
  });

  it('gives the same verdict in both orders', () => {
    expect(ids(captureFirst)).toEqual(ids(executionFirst));
    expect(captureFirst.timeline).toEqual(executionFirst.timeline);
    expect(captureFirst.totalKernelNs).toBe(executionFirst.totalKernelNs);
  });

  it('names the capture as set-up and counts the kernels both files hold, each once', () => {
    for (const report of [captureFirst, executionFirst]) {
      expect(notice(report, 'graph-capture-setup')?.message).toContain('tracelens_gfx942_vllm_gptoss20b_decode_fullgraph_bs32_capture.json.gz is a graph-capture trace');
      // 10,674.517 µs in the execution trace's 425 kernels and 19.633 µs in the capture's 7 set-up
      // kernels (fills and a gather): the capture's kernels ran, so they are in the total.
      expect(report.totalKernelNs).toBe(10_694_150);
      expect(report.kernels.reduce((sum, k) => sum + k.instances, 0)).toBe(432);
      // Both traces are rank 0 of one process: the capture is not a second rank 0.
      expect(notice(report, 'ranks-of-different-jobs')).toBeUndefined();
    }
  });
});

describe('the graph-capture trace alone', () => {
  let report: Report;
  beforeAll(async () => {
    report = await analyzedOnce([CAPTURE]);
  }, 60_000);

  it('is named as set-up and is not called host-bound: 0.02 ms of kernel time say nothing about waiting', () => {
    expect(notice(report, 'graph-capture-setup')?.message).toContain('run only when the graph is replayed');
    expect(report.totalKernelNs).toBeCloseTo(19_633, -1);
    expect(ids(report)).not.toContain('host-bound');
  });

  it('marks its timeline thin in the evidence', () => {
    expect(timelineThinBecause(report.timeline!)).toBe('under 1.0 ms of GPU time on the timeline');
  });
});

describe('two traces with timelines: the one with the most kernel time is read, whatever the order', () => {
  it('reads the vLLM execution (10.7 ms of kernels) over the HTA MI250 toy training (14 kernels, 111 µs) in both orders, and says so', async () => {
    const reports = [await analyzedOnce([SMALL, EXECUTION]), await analyzedOnce([EXECUTION, SMALL])];
    for (const report of reports) {
      expect(busyFraction(report)).toBeCloseTo(0.9976, 3);
      expect(notice(report, 'several-timelines')?.message).toMatch(/time-based analysis reads \S*tracelens_gfx942_vllm_gptoss20b_decode_fullgraph_bs32_execution\.json\.gz/);
      expect(ids(report)).not.toContain('host-bound');
    }
    expect(reports[0]!.timeline).toEqual(reports[1]!.timeline);
    expect(ids(reports[0]!)).toEqual(ids(reports[1]!));
  }, 60_000);
});
