import { renderMergedSummary, renderSummary, SUMMARY_LIMIT_BYTES } from '../../../src/report/markdown/summary.js';
import { mergeReports } from '../../../src/report/merge-reports.js';
import { finding, HOSTILE, makeReport, OUR_TAGS, rawTags, row, tableCells, tablesOf, withoutFences } from '../report-factory.js';

const bytes = (s: string): number => Buffer.byteLength(s, 'utf8');

describe('renderSummary', () => {
  const report = makeReport({
    verdict: 'fail',
    workload: 'llama-8b-h200',
    findings: [
      finding({ id: 'gpu-throttled', severity: 'info', title: 'Info only', secondary: false }),
      finding({ id: 'unfused-attention', severity: 'error', title: 'Unfused attention', command: 'nsys profile -o run python serve.py' }),
      finding({ basis: ['timeline (thin: fewer than 20 launches on the timeline): 9.8 ms of per-launch timeline over 1 device'] }),
    ],
    rows: [
      row({ metric: 'ttft_ms', unit: 'ms', direction: 'lower', status: 'pass' }),
      row({ metric: 'decode_tok_s', status: 'fail', delta: -0.12, ci: [-0.15, -0.09], current: 88 }),
      row({ metric: 'family:gemv', kind: 'family-share', unit: 'pp', delta: 4.2, ci: [3, 5], threshold: 3, status: 'warn' }),
    ],
  });
  const md = renderSummary(report, {
    artifact: { name: 'profile-gate-llama', id: 77, url: 'https://github.com/o/r/actions/runs/9/artifacts/77' },
    links: { runUrl: 'https://github.com/o/r/actions/runs/9' },
  });

  it('puts the verdict first and the sections in the reviewer order', () => {
    expect(md.split('\n')[0]).toBe('## profile-gate: ❌ Fail · llama\\-8b\\-h200');
    const order = ['### Findings', '### Comparison with the baseline', '### Top kernels', '### Kernel families', '### Utilization and throughput', '### Baseline', '### Artifacts'].map((h) =>
      md.indexOf(h),
    );
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('lists error findings before warnings and info, with evidence and the next command', () => {
    const unfused = md.indexOf('Unfused attention');
    const host = md.indexOf('Host\\-bound decode');
    const info = md.indexOf('Info only');
    expect(unfused).toBeGreaterThan(0);
    expect(unfused).toBeLessThan(host);
    expect(host).toBeLessThan(info);
    expect(md).toContain('Evidence: gpu\\_busy = 0\\.310, launches = 12000');
    // What the finding rests on, thinness included.
    expect(md).toContain('  - Rests on: timeline \\(thin: fewer than 20 launches on the timeline\\): 9\\.8 ms of per\\-launch timeline over 1 device');
    expect(md).toContain('  ```sh\n  nsys profile -o run python serve.py\n  ```');
  });

  it('shows comparison alerts first with baseline, current, delta, CI and threshold', () => {
    const rows = md.split('\n').filter((l) => l.startsWith('| ') && /(pass|warn|fail)\s\|$/.test(l));
    expect(rows[0]).toBe('| Decode throughput | 100 tok/s | 88 tok/s | -12.0% | -15.0% … -9.0% | −5% | ❌ fail |');
    expect(rows[1]).toContain('family: GEMV \\(decode linear\\)');
    expect(rows[1]).toContain('+4.2 pp');
    expect(rows[2]).toContain('Time to first token');
    expect(md).toContain('**2 alerts.**');
  });

  it('shows family share deltas next to the families', () => {
    expect(md).toContain('| share | Δ share | total | kernels | family |');
    expect(md).toMatch(/\| 50\.0% \| \+4\.2 pp \| .* \| GEMV \\\(decode linear\\\) \|/);
  });

  it('shows throughput with the order-statistic interval of its median', () => {
    // Samples 97..103 (n=10): the 90% interval is [x(2), x(9)] (coverage 1 - 2·11/1024 = 0.979;
    // j=3 would give 0.891, under 90%). Sorted: 97 98 99 100 100 100 101 101 102 103 → [98, 102].
    expect(md).toContain('| Decode throughput | 100 tok/s | 98 … 102 tok/s | 10 |');
    expect(md).toContain('GPU utilization: mean 87.5%, peak 100% over the active window (120 of 130 samples, 1 GPU; 80% over all samples)');
  });

  it('names the baseline used and links the artifact and the run', () => {
    expect(md).toContain('- Used: main@<wbr>abc1234 \\(run 41\\) (<code>baseline/report.json</code>)');
    expect(md).toContain('- Why: latest successful push run on main');
    expect(md).toContain('[profile\\-gate\\-llama](https://github.com/o/r/actions/runs/9/artifacts/77) (id 77)');
    expect(md).toContain('[Workflow run](https://github.com/o/r/actions/runs/9)');
  });

  it('lists the environment keys that differ, from their data (an older report as it stored them)', () => {
    const base = makeReport({ rows: [] });
    const withMismatch = (environmentMismatch: NonNullable<typeof base.comparison>['environmentMismatch']) => renderSummary({ ...base, comparison: { ...base.comparison!, environmentMismatch } });
    expect(withMismatch([{ key: 'driver', baseline: '580.159.04', current: '570.86.15' }, { key: 'dtype', baseline: 'bfloat16', current: 'float16' }])).toContain('- Environment differs: driver: 580\\.159\\.04 → 570\\.86\\.15; dtype: bfloat16 → float16');
    expect(withMismatch(['batch: 1 → 8'])).toContain('- Environment differs: batch: 1 → 8');
  });

  it('says which baseline was missing when there is no comparison', () => {
    const none = renderSummary(makeReport({ rows: null }), { baselineNote: "no artifact 'profile-gate-main' on the default branch" });
    expect(none).toContain('No comparison: no artifact &#39;profile\\-gate\\-main&#39; on the default branch.');
    expect(none).toContain('### Baseline\n\nNone: no artifact');
    const defaulted = renderSummary(makeReport({ rows: null }));
    expect(defaulted).toContain('No comparison: no baseline report was given');
  });
});

describe('size limits', () => {
  const longName = (i: number): string => `${HOSTILE}_${i}_${'x'.repeat(4000)}`;

  it('stays under 1 MiB with 10,000 distinct kernels, 10,000 rows and 500 findings', () => {
    const report = makeReport({
      kernels: 10_000,
      kernelName: longName,
      findings: Array.from({ length: 500 }, (_, i) => finding({ id: `rule-${i}`, severity: i % 2 ? 'warning' : 'error', message: HOSTILE.repeat(50) })),
      rows: Array.from({ length: 10_000 }, (_, i) => row({ metric: `kernel:${longName(i)}`, kind: 'kernel-share', unit: 'pp', status: i % 3 ? 'pass' : 'fail' })),
      verdict: 'fail',
    });
    expect(report.kernels).toHaveLength(10_000);
    const md = renderSummary(report);
    expect(bytes(md)).toBeLessThan(SUMMARY_LIMIT_BYTES);
    expect(md).toContain('10000 distinct kernels');
    expect(md).toContain('more rows');
    expect(md).toContain('more findings in report.json');
  });

  it('stays under 1 MiB when 200 such reports are merged, and keeps every verdict in the table', () => {
    const big = makeReport({ kernels: 10_000, kernelName: longName, rows: [row({ status: 'fail' })], verdict: 'fail', findings: [finding()] });
    const merged = mergeReports(Array.from({ length: 200 }, (_, i) => ({ label: `leg-${i}`, report: big })));
    const md = renderMergedSummary(merged);
    expect(bytes(md)).toBeLessThan(SUMMARY_LIMIT_BYTES);
    expect(md.split('\n')[0]).toBe('## profile-gate: ❌ Fail · 200 reports (200 fail)');
    expect(md).toContain('| leg\\-199 | ❌ Fail |');
  });

  it('honours a smaller budget by dropping detail, never by cutting a block', () => {
    const report = makeReport({ kernels: 500, rows: Array.from({ length: 300 }, (_, i) => row({ metric: `kernel:k${i}`, kind: 'kernel-share' })) });
    const full = renderSummary(report);
    const small = renderSummary(report, { budgetBytes: 6000 });
    expect(bytes(full)).toBeGreaterThan(6000);
    expect(bytes(small)).toBeLessThanOrEqual(6000);
    expect(small).toContain('### Findings');
    expect((small.match(/```/g) ?? []).length % 2).toBe(0);
  });
});

describe('hostile names', () => {
  const report = makeReport({
    kernels: 3,
    kernelName: () => HOSTILE,
    workload: HOSTILE,
    findings: [finding({ message: `Kernel ${HOSTILE} dominates`, kernel: HOSTILE, advice: HOSTILE, evidence: { [HOSTILE]: HOSTILE }, docs: 'javascript:alert(1)' })],
    rows: [row({ metric: `kernel:${HOSTILE}`, kind: 'kernel-share', status: 'warn' }), row({ metric: `family:${HOSTILE}`, kind: 'family-share' })],
  });
  const md = renderSummary(report, { artifact: { name: HOSTILE, url: 'https://github.com/o/r/x)(y' } });

  it('never emits HTML of its own', () => {
    expect(rawTags(md).filter((t) => !OUR_TAGS.has(t))).toEqual([]);
    expect(md).not.toContain('<script');
    // Only our own folds: the full kernel names, each closed on a line of its own.
    const outside = withoutFences(md);
    expect(outside.match(/<details>/g)?.length ?? 0).toBe(outside.match(/^<\/details>$/gm)?.length ?? 0);
    expect(outside.match(/<\/details>/g)?.length ?? 0).toBe(outside.match(/^<\/details>$/gm)?.length ?? 0);
    expect(md).not.toContain('profile-gate:other');
  });

  it('keeps every table row at its column count', () => {
    const tables = tablesOf(md);
    expect(tables.length).toBeGreaterThanOrEqual(4);
    for (const table of tables) {
      const columns = tableCells(table[0]!).length;
      for (const line of table) expect(tableCells(line)).toHaveLength(columns);
    }
    expect(md.split('\n').filter((l) => l.startsWith('|') && l.includes('<code>evil&#124;kernel')).length).toBe(4);
  });

  it('never lets a name start a heading, mention a user or reference an issue', () => {
    expect(md.split('\n').some((l) => l.startsWith('# heading'))).toBe(false);
    expect(md).not.toMatch(/@octocat/);
    expect(md).not.toMatch(/(?<!&)#12/);
    expect(md).not.toMatch(/(?<!\\)\$x/);
  });

  it('never links a non-http URL and encodes parentheses in links', () => {
    expect(md).not.toContain('javascript:');
    expect(md).toContain('(https://github.com/o/r/x%29%28y)');
  });
});
