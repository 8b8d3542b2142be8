import { runInNewContext } from 'node:vm';
import { SHARE_SCALE } from '../../src/report/dashboard/data.js';
import { buildDashboardData, buildSite, renderPageScript, scriptJson, type DashboardData } from '../../src/report/dashboard/index.js';
import { finding } from '../report/report-factory.js';
import { DEFAULT_FAMILIES, DEFAULT_KERNELS, nightlyMatrix, nightlyReport, nightlySeries } from './nightly-factory.js';

const inputsOf = (reports: ReturnType<typeof nightlySeries>) => reports.map((report, i) => ({ report, source: `night-${i}/report.json` }));

describe('dashboard data from a year of nightly runs', () => {
  let data: DashboardData;
  const nights = 150;
  const shiftAt = 120;
  beforeAll(() => {
    const matrix = nightlyMatrix(nights, shiftAt);
    // Shuffled input order: the builder orders by time.
    const inputs = matrix.flatMap((series) => inputsOf(series)).sort((a, b) => a.report.run.commit!.localeCompare(b.report.run.commit!));
    data = buildDashboardData(inputs, [], { generatedAt: '2026-05-01T00:00:00.000Z' });
  });

  it('puts the workload with the open regression first and lists it on top', () => {
    expect(data.workloads.map((w) => w.name)[0]).toBe('llama-3.1-8b · H200 · bf16 · bs1');
    expect(data.regressions).toHaveLength(1);
    const regression = data.regressions[0]!;
    expect(regression.workload).toBe(0);
    expect(regression.index).toBe(shiftAt);
    // The factory's levels: 1512 → 1391 tok/s = −8.0%.
    expect(regression.relative).toBeCloseTo(1391 / 1512 - 1, 2);
    expect(regression.before).toBeGreaterThan(1490);
    expect(regression.after).toBeLessThan(1410);
  });

  it('marks the commit where the shift began', () => {
    const w = data.workloads[0]!;
    expect(w.changes.map((c) => c.index)).toEqual([shiftAt]);
    expect(w.points.commit[shiftAt]).toBe(nightlyReport(nightlyMatrixShape(), shiftAt).run.commit);
    expect(w.points.commit[shiftAt - 1]).toBe(nightlyReport(nightlyMatrixShape(), shiftAt - 1).run.commit);
  });

  it('finds the dip of the 70B and its recovery, and does not call it open', () => {
    const w = data.workloads.find((x) => x.name.startsWith('llama-3.1-70b'))!;
    expect(w.changes.map((c) => c.index)).toEqual([60, 68]);
    expect(w.changes[0]!.relative).toBeLessThan(-0.07);
    expect(w.changes[1]!.relative).toBeGreaterThan(0.07);
    expect(data.regressions.some((r) => data.workloads[r.workload] === w)).toBe(false);
  });

  it('finds nothing on the flat workloads', () => {
    for (const name of ['mistral-7b', 'qwen2.5-14b', 'gemma-2-9b']) {
      const w = data.workloads.find((x) => x.name.startsWith(name))!;
      expect(w.changes).toEqual([]);
      expect(w.familyChanges).toEqual([]);
    }
  });

  it('keeps one point per night, in time order, with the median and its CI', () => {
    const w = data.workloads[0]!;
    expect(w.points.t).toHaveLength(nights);
    expect([...w.points.t].sort((a, b) => a - b)).toEqual(w.points.t);
    const night = nightlyReport(nightlyMatrixShape(), 7);
    const metric = night.metrics[0]!;
    expect(w.points.value[7]).toBeCloseTo(metric.value, 3);
    const sorted = [...metric.samples].sort((a, b) => a - b);
    // n = 10: P(B ≤ 1) = 11/1024 ≤ 0.025 < P(B ≤ 2) = 56/1024, so the CI is [x(2), x(9)].
    expect(w.points.low[7]).toBeCloseTo(sorted[1]!, 3);
    expect(w.points.high[7]).toBeCloseTo(sorted[8]!, 3);
    expect(w.points.n[7]).toBe(10);
  });

  it('stacks the family shares and finds the attention shift in them', () => {
    const w = data.workloads[0]!;
    const fused = w.families.indexOf('attention-fused');
    const softmax = w.families.indexOf('softmax');
    expect(fused).toBeGreaterThanOrEqual(0);
    expect(w.points.shares[0]![fused]! / SHARE_SCALE).toBeCloseTo(0.17, 1);
    expect(w.points.shares[nights - 1]![fused]).toBe(0);
    expect(w.points.shares[nights - 1]![softmax]! / SHARE_SCALE).toBeCloseTo(0.09, 1);
    for (const row of w.points.shares) expect(row.reduce((a, b) => a + b, 0)).toBeGreaterThan(SHARE_SCALE - 10);
    const shifted = w.familyChanges.filter((c) => c.index === shiftAt).map((c) => w.families[c.family]);
    expect(shifted).toEqual(expect.arrayContaining(['attention-fused', 'softmax']));
  });

  it('lists the kernels entering and leaving the top N at the shift', () => {
    const w = data.workloads[0]!;
    const at = w.kernelEvents.filter((e) => e.index === shiftAt).map((e) => [e.kind, w.kernels[e.kernel]!.slice(0, 40)]);
    expect(at).toEqual(
      expect.arrayContaining([
        // void at::native::(anonymous namespace)::cunn_SoftMaxForward<…>, by the short name the CLI prints.
        ['entered', 'cunn_SoftMaxForward<SoftMaxForwardEpilog'],
        ['entered', 'sm90_xmma_gemm_bf16bf16_bf16f32_f32_nn_n'],
        ['left', 'cudnn_generated_fort_native_sdpa_sm90_fl'],
      ]),
    );
    const left = w.kernelEvents.find((e) => e.kind === 'left' && e.index === shiftAt)!;
    expect(left.after).toBe(0);
    // Noise alone (2% of a share) never moves a kernel by 2 points: only the shift is listed.
    expect(new Set(w.kernelEvents.map((e) => e.index))).toEqual(new Set([shiftAt]));
  });

  it('records findings and verdicts per point', () => {
    const w = data.workloads[0]!;
    const unfused = w.findings.findIndex((f) => f.id === 'unfused-attention');
    expect(w.findings[unfused]!.severity).toBe(2);
    expect(w.points.findings[shiftAt - 1]).toEqual([]);
    expect(w.points.findings[shiftAt]).toEqual([unfused]);
    expect(w.points.verdict[shiftAt - 1]).toBe(0);
    expect(w.points.verdict[shiftAt]).toBe(2);
    // What decided each verdict, as the report recorded it: nothing for a pass.
    expect(w.points.decided[shiftAt - 1]).toEqual([]);
    expect(w.points.decided[shiftAt]).toEqual(['finding:unfused-attention']);
  });
});

describe('what decided a run, as its report recorded it', () => {
  const shape = { workload: 'w', nights: 1, level: () => 100, families: () => DEFAULT_FAMILIES, kernels: () => DEFAULT_KERNELS, seed: 3 };
  const policy = { failOn: ['unfused-norm-rope'], failOnSeverity: 'warning' as const, failVerdicts: ['fail' as const, 'invalid' as const], thresholds: {}, shareThresholds: { warn: 5, fail: 20 }, ruleOptions: {} };

  it('names the causes the report recorded under its own policy, not what another fail-on would pick', () => {
    const night = nightlyReport(shape, 0);
    const report = {
      ...night,
      verdict: 'fail' as const,
      findings: [finding({ id: 'unfused-attention', severity: 'error' }), finding({ id: 'unfused-norm-rope', severity: 'warning' })],
      decision: { causes: [{ kind: 'finding' as const, id: 'unfused-norm-rope', severity: 'warning' as const, status: 'fail' as const, inFailOn: true }], policy },
    };
    const data = buildDashboardData([{ report, source: 'night/report.json' }], []);
    expect(data.workloads[0]!.points.decided).toEqual([['finding:unfused-norm-rope']]);
  });

  it('names the first five causes and counts the rest; checks that kept a comparison from standing by name', () => {
    const night = nightlyReport(shape, 0);
    const rows = Array.from({ length: 7 }, (_, i) => ({ kind: 'row' as const, row: `family:f${i}`, rowKind: 'family-share' as const, status: 'fail' as const, threshold: 5 }));
    const failing = { ...night, verdict: 'fail' as const, decision: { causes: rows, policy } };
    const invalid = { ...nightlyReport(shape, 0), verdict: 'invalid' as const, decision: { causes: [{ kind: 'invalid' as const, check: 'throttling' as const }], policy } };
    const data = buildDashboardData([
      { report: failing, source: 'a/report.json' },
      { report: { ...invalid, generatedAt: '2026-01-01T00:00:00.000Z', run: { ...invalid.run, timestamp: '2026-01-01T00:00:00.000Z' } }, source: 'b/report.json' },
    ], []);
    expect(data.workloads[0]!.points.decided).toEqual([['family:f0', 'family:f1', 'family:f2', 'family:f3', 'family:f4', '+2 more'], ['invalid: throttling']]);
  });
});

/** The 8B shape of nightlyMatrix, to rebuild one night independently of the builder. */
function nightlyMatrixShape() {
  return {
    workload: 'llama-3.1-8b · H200 · bf16 · bs1',
    nights: 150,
    seed: 11,
    level: (n: number) => (n < 120 ? 1512 : 1391),
    families: () => DEFAULT_FAMILIES,
    kernels: () => DEFAULT_KERNELS,
  };
}

describe('dashboard data from hostile or odd reports', () => {
  const base = { workload: 'w', nights: 1, level: () => 100, families: () => DEFAULT_FAMILIES, kernels: () => DEFAULT_KERNELS };

  it('groups by model and GPU when the run names no workload', () => {
    const a = nightlyReport({ ...base, seed: 1 }, 0);
    const b = nightlyReport({ ...base, seed: 2 }, 1);
    const data = buildDashboardData(
      [a, b].map((report) => ({ report: { ...report, run: { ...report.run, workload: undefined } }, source: 'x' })),
      [],
    );
    expect(data.workloads.map((w) => w.name)).toEqual(['llama-3.1-8b · NVIDIA H200']);
    expect(data.workloads[0]!.points.t).toHaveLength(2);
  });

  it('drops unsafe links and commits, and flattens and clamps hostile text', () => {
    const report = nightlyReport({ ...base, kernels: () => [{ name: `<img src=x onerror=alert(1)>${'A'.repeat(1000)}`, family: 'gemm', part: 1 }], families: () => ({ gemm: 1 }) }, 0);
    const hostile = {
      ...report,
      run: { ...report.run, workload: 'evil\u2028name\n<script>alert(1)</script>', runUrl: 'javascript:alert(1)', commit: 'HEAD; rm -rf /', repository: '../../evil' },
      findings: [finding({ id: 'x<y', title: '<b>bold</b>'.repeat(100) })],
    };
    const data = buildDashboardData([{ report: hostile, source: 'evil/report.json' }], [{ source: 'bad\nfile', reason: 'nope' }], { serverUrl: 'javascript:alert(1)' });
    const w = data.workloads[0]!;
    expect(w.name).toBe('evil name <script>alert(1)</script>');
    expect(w.points.run).toEqual(['']);
    expect(w.points.commit).toEqual(['']);
    expect(w.points.repo).toEqual([-1]);
    expect(w.kernels[0]!.length).toBeLessThanOrEqual(300);
    expect(w.kernels[0]!.startsWith('<img src=x onerror=alert(1)>')).toBe(true);
    expect(w.findings[0]!.title.length).toBeLessThanOrEqual(160);
    expect(data.serverUrl).toBe('https://github.com');
    expect(data.skipped).toEqual([{ source: 'bad file', reason: 'nope' }]);
  });

  it('time per decode step by family per night, where the capture counts its steps; null where it does not', () => {
    // Nights 0 and 1 hold 2,000 ms of kernel time over 1,000 profiler steps: a family's totalNs / 1,000
    // per step. Night 2 has no timeline and no sampling kernel: its steps are unknown.
    const steps = Array.from({ length: 1000 }, (_, i) => ({ name: `ProfilerStep#${i + 1}`, startNs: i * 3e6, durNs: 3e6, gpuBusyNs: 2e6, kernels: 100 }));
    const timeline = { spanNs: 3e9, busyNs: 2e9, devices: 1, idleGaps: { count: 0, totalNs: 0, longestNs: 0 }, kernelLaunches: 100_000, graphLaunches: 0, graphKernels: 0, steps, busyByDecile: [], excludedGaps: [], activeSpanNs: 3e9 };
    const reports = nightlySeries({ ...base, nights: 3 }).map((r, i) => (i < 2 ? { ...r, timeline } : r));
    const w = buildDashboardData(inputsOf(reports), []).workloads[0]!;
    expect(w.points.stepBasis).toEqual(['profiler-steps', 'profiler-steps', '']);
    expect(w.points.steps).toEqual([1000, 1000, null]);
    expect(w.points.stepNs[2]).toBeNull();
    for (const night of [0, 1]) {
      const expected = w.families.map((family) => Math.round(reports[night]!.families.filter((f) => f.family === family).reduce((sum, f) => sum + f.totalNs, 0) / 1000));
      expect(w.points.stepNs[night]).toEqual(expected);
      // Time per step adds up to all kernel time per step: 2,000,000,000 ns / 1,000 = 2 ms.
      expect(w.points.stepNs[night]!.reduce((a, b) => a + b, 0)).toBeCloseTo(2_000_000, -1);
    }
  });

  it('counts the same report read twice once', () => {
    const reports = nightlySeries({ ...base, nights: 5 });
    const data = buildDashboardData([...inputsOf(reports), ...inputsOf(reports.slice(1, 3))], []);
    expect(data.reportCount).toBe(5);
    expect(data.workloads[0]!.points.t).toHaveLength(5);
  });

  it('takes the direction of a lower-is-better metric: a latency that went up is the regression', () => {
    const reports = nightlySeries({ ...base, nights: 40 }).map((r, i) => ({
      ...r,
      metrics: [{ name: 'ttft_ms', unit: 'ms', direction: 'lower' as const, samples: [40, 41, 39, 40, 42].map((v) => (i >= 25 ? v * 1.2 : v) + (i % 3) * 0.1), value: 0 }],
    }));
    const data = buildDashboardData(inputsOf(reports), [], { metric: 'ttft_ms' });
    expect(data.metric).toMatchObject({ name: 'ttft_ms', unit: 'ms', direction: 'lower' });
    expect(data.regressions.map((r) => [r.index, Math.round(r.relative * 100)])).toEqual([[25, 20]]);
    const better = buildDashboardData(inputsOf(reports), [], { metric: 'decode_tok_s' });
    expect(better.regressions).toEqual([]);
  });

  it('keeps runs without the metric as gaps', () => {
    const reports = nightlySeries({ ...base, nights: 12 }).map((r, i) => (i === 5 ? { ...r, metrics: [] } : r));
    const w = buildDashboardData(inputsOf(reports), []).workloads[0]!;
    expect(w.points.value[5]).toBeNull();
    expect(w.points.value.filter((v) => v !== null)).toHaveLength(11);
  });

  it('embeds data that cannot break out of a script and parses back to the same value', () => {
    const value = { text: '</script><script>alert(1)</script>\u2028\u2029&' };
    const json = scriptJson(value);
    expect(json).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(json)).toEqual(value);
  });
});

describe('the site files', () => {
  it('are index.html, data.js, dashboard.js and dashboard.css, with the data on a global', () => {
    const { files, data } = buildSite(inputsOf(nightlySeries({ workload: 'w', nights: 10, level: () => 100, families: () => DEFAULT_FAMILIES, kernels: () => DEFAULT_KERNELS })), [], { title: 'Nightly <perf>' });
    expect(files.map((f) => f.path)).toEqual(['index.html', 'data.js', 'dashboard.js', 'dashboard.css']);
    const html = files[0]!.content;
    expect(html).toContain('<title>Nightly &lt;perf&gt;</title>');
    expect(html).toMatch(/<script src="data.js"><\/script>\s*<script src="dashboard.js"><\/script>/);
    expect(html).not.toMatch(/https?:\/\//);
    const sandbox: { window: Record<string, unknown> } = { window: {} };
    runInNewContext(files[1]!.content, sandbox);
    expect(sandbox.window['PROFILE_GATE_DASHBOARD']).toEqual(JSON.parse(JSON.stringify(data)));
  });

  it('has a page script that parses and uses no HTML-parsing sink', () => {
    const script = renderPageScript();
    expect(() => new Function(script)).not.toThrow();
    expect(script).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function/);
    // No host but the SVG namespace: nothing is loaded from anywhere.
    expect(script).not.toMatch(/https?:\/\/(?!www\.w3\.org\/2000\/svg)[A-Za-z0-9]/);
  });
});

describe('a report dated in the future (issue 25 item 14)', () => {
  it('is placed no later than the page is made, so it does not stay the newest point for ever', () => {
    const series = nightlySeries({ workload: 'w', nights: 5, start: '2026-11-01T00:00:00.000Z', level: () => 100, families: () => DEFAULT_FAMILIES, kernels: () => DEFAULT_KERNELS });
    const future = { ...series[4]!, run: { ...series[4]!.run, timestamp: '2099-01-01T00:00:00.000Z', commit: 'f'.repeat(40) } };
    const page = '2026-12-02T00:00:00.000Z';
    const data = buildDashboardData(inputsOf([...series.slice(0, 4), future]), [], { generatedAt: page });
    const times = data.workloads[0]!.points.t;
    expect(times).toHaveLength(5);
    expect(Math.max(...times)).toBe(Date.parse(page));
    // Without a page time, the report's own claim stands.
    const unclamped = buildDashboardData(inputsOf([...series.slice(0, 4), future]), []);
    expect(Math.max(...unclamped.workloads[0]!.points.t)).toBe(Date.parse('2099-01-01T00:00:00.000Z'));
  });
});
