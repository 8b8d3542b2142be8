import { reasonsFromMask } from '../../src/model/throttle.js';
import { summarizeRecordings, summarizeUtilization } from '../../src/pipeline/merge-captures.js';

describe('reasonsFromMask', () => {
  it('names each NVML bit, idle included', () => {
    expect(reasonsFromMask(0x1)).toEqual(['gpu_idle']);
    expect(reasonsFromMask(0x5)).toEqual(['gpu_idle', 'sw_power_cap']);
    expect(reasonsFromMask(0)).toEqual([]);
  });
  it('keeps unknown bits visible', () => {
    expect(reasonsFromMask(0x1000)).toEqual(['bit_0x1000']);
  });
});

describe('summarizeUtilization', () => {
  it('counts only hardware reasons as throttling', () => {
    const summary = summarizeUtilization([
      { device: 0, gpuPercent: 10, reasons: ['gpu_idle'] },
      { device: 0, gpuPercent: 90, reasons: ['sw_power_cap'] },
    ]);
    expect(summary).toMatchObject({ meanPercent: 50, peakPercent: 90, throttleReasons: ['sw_power_cap'], throttledFraction: 0.5 });
  });
  it('is null without samples', () => {
    expect(summarizeUtilization([])).toBeNull();
  });
});

describe('summarizeUtilization: the active window', () => {
  const samples = (values: number[], device = 0) => values.map((gpuPercent) => ({ device, gpuPercent, reasons: [] }));

  it('leaves out idle start-up and exit around the workload', () => {
    // 3 idle samples of start-up, 4 busy ones, 2 idle at exit: the window is the 4 busy samples.
    const summary = summarizeUtilization(samples([0, 0, 0, 100, 100, 98, 100, 0, 0]))!;
    expect(summary).toMatchObject({ meanPercent: 99.5, sampleCount: 4, totalSampleCount: 9, peakPercent: 100 });
    expect(summary.overallMeanPercent).toBeCloseTo(398 / 9, 10);
  });

  it('keeps idle samples inside the window (a host-bound run stays host-bound)', () => {
    expect(summarizeUtilization(samples([0, 6, 0, 0, 7, 0]))).toMatchObject({ meanPercent: 13 / 4, sampleCount: 4 });
  });

  it('falls back to every sample when fewer than three are active', () => {
    expect(summarizeUtilization(samples([0, 0, 9, 0, 0]))).toMatchObject({ meanPercent: 9 / 5, sampleCount: 5 });
  });

  it('finds each device its own window', () => {
    const summary = summarizeUtilization([...samples([0, 50, 50, 0], 0), ...samples([80, 80, 0, 0], 1)])!;
    expect(summary).toMatchObject({ sampleCount: 4, meanPercent: 65, devices: 2 });
  });
});

describe('summarizeRecordings', () => {
  it('windows each recording on its own, so start-up between runs is not counted', () => {
    const run = (values: number[]) => values.map((gpuPercent) => ({ device: 0, gpuPercent, reasons: [] }));
    // Two measured runs, each with 2 idle samples of start-up before 3 busy ones.
    const summary = summarizeRecordings([run([0, 0, 100, 100, 100]), run([0, 0, 90, 90, 90])])!;
    expect(summary).toMatchObject({ meanPercent: 95, sampleCount: 6, totalSampleCount: 10 });
    // The same samples as one recording keep the second run's start-up inside the window.
    expect(summarizeUtilization([...run([0, 0, 100, 100, 100]), ...run([0, 0, 90, 90, 90])])!.meanPercent).toBeCloseTo(570 / 8, 10);
  });
});

describe('summarizeRecordings: the timed windows a workload reported', () => {
  const at = (pairs: Array<[number, number]>) => pairs.map(([t, gpuPercent]) => ({ t, device: 0, gpuPercent, reasons: [] }));
  // One process sampled every 0.5 s: 30% during set-up and prefill (t 1..3), 100% while timing (3.5..5), then exit.
  const recording = at([[1, 30], [1.5, 40], [2, 30], [2.5, 35], [3, 30], [3.5, 100], [4, 100], [4.5, 100], [5, 100], [5.5, 0]]);

  it('reads utilization over the timed runs: a sample counts when half the period it reports is inside', () => {
    const summary = summarizeRecordings([recording], [{ startS: 3.2, endS: 4.6 }])!;
    // Samples at 3.5, 4 and 4.5 report (3.0, 3.5], (3.5, 4.0], (4.0, 4.5]: 0.3, 0.5, 0.5 s inside. The
    // one at 5 reports (4.5, 5.0], 0.1 s inside: mostly time after the run.
    expect(summary).toMatchObject({ window: 'timed', meanPercent: 100, sampleCount: 3, totalSampleCount: 10 });
  });

  // On the H200 an A/B sampled every 0.5 s around timed runs of 0.17 s read 60 % "in the timed
  // window": every such sample reported mostly the time between runs.
  it('timed runs shorter than the sampling interval give no timed window', () => {
    const windows = [2.3, 3.3, 4.3].map((startS) => ({ startS, endS: startS + 0.17 }));
    expect(summarizeRecordings([recording], windows)).toMatchObject({ window: 'active' });
  });

  it('falls back to the active window when fewer than three samples fall in the timed windows', () => {
    const summary = summarizeRecordings([recording], [{ startS: 3.2, endS: 3.4 }])!;
    expect(summary).toMatchObject({ window: 'active', sampleCount: 9 });
    expect(summary.meanPercent).toBeCloseTo(565 / 9, 10);
  });
});
