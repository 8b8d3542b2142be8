/**
 * The history store: a report's summary is what the dashboard reads of it (the page built from the
 * store is the page built from the reports), a history kept as report files is imported once, and a
 * store that is not one stops with the line it broke on.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDashboard } from '../../src/cli/dashboard-site.js';
import { HISTORY_KERNELS, reportOfSummary, summarizeReport } from '../../src/compare/history-summary.js';
import { InputError } from '../../src/errors.js';
import { appendHistoryLines, readHistoryStore } from '../../src/io/history-store.js';
import { loadReport } from '../../src/io/reports.js';
import type { Report } from '../../src/model/report.js';
import { boundReport } from '../../src/report/bounded-report.js';
import { buildDashboardData, reportIdentity } from '../../src/report/dashboard/build-data.js';
import { serializeReport } from '../../src/report/json.js';
import { makeReport } from '../report/report-factory.js';
import { FIXTURES } from '../helpers/action-workspace.js';
import { nightlyMatrix } from './nightly-factory.js';

const FIXTURE = join(FIXTURES, 'h200-run', 'graph_capture', 'report.json');
const OPTIONS = { generatedAt: '2027-01-01T00:00:00.000Z' };

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'profile-gate-history-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The captured H200 report (a real run), dated and named as nights of a workload. */
async function capturedNights(nights: number): Promise<Report[]> {
  const report = await loadReport(FIXTURE);
  return Array.from({ length: nights }, (_, n) => {
    const time = new Date(Date.parse('2026-11-01T03:00:00Z') + n * 86_400_000).toISOString();
    return { ...report, generatedAt: time, run: { workload: 'h200 graph capture', runId: String(900 + n), commit: String(n % 10).repeat(40), timestamp: time, repository: 'octo/gpu-app' } };
  });
}

async function writeReports(reports: readonly Report[], folder: string): Promise<void> {
  for (const [i, report] of reports.entries()) {
    await mkdir(join(folder, `r${i}`), { recursive: true });
    await writeFile(join(folder, `r${i}`, 'report.json'), serializeReport(report));
  }
}

describe('a report as the store keeps it', () => {
  it('holds the captured run’s median and interval, families, top kernels, findings and verdict, read from its file', async () => {
    const raw = JSON.parse(await readFile(FIXTURE, 'utf8')) as { metrics: Array<{ name: string; samples: number[] }>; kernels: Array<{ name: string; share: number }>; families: Array<{ family: string; share: number }>; findings: Array<{ id: string }>; verdict: string };
    const report = await loadReport(FIXTURE);
    const summary = summarizeReport(report, reportIdentity(report), { readFrom: FIXTURE });
    const samples = [...raw.metrics[0]!.samples].sort((a, b) => a - b);
    expect(samples).toHaveLength(6);
    const decode = summary.metrics.find((m) => m.name === 'decode_tok_s')!;
    expect(decode.median).toBeCloseTo((samples[2]! + samples[3]!) / 2, 9);
    expect(decode.n).toBe(6);
    // Six samples: the widest order-statistic interval (min, max) is the only one that reaches 90% (1 − 2/64).
    expect([decode.low, decode.high]).toEqual([samples[0], samples[5]]);
    const byShare = [...raw.kernels].sort((a, b) => b.share - a.share);
    expect(summary.kernels.map((k) => k.name)).toEqual(byShare.map((k) => k.name));
    expect(summary.kernelCount).toBe(raw.kernels.length);
    expect(summary.families.map((f) => [f.family, f.share])).toEqual(raw.families.map((f) => [f.family, f.share]));
    expect(summary.findings.map((f) => f.id)).toEqual(raw.findings.map((f) => f.id));
    expect(summary.verdict).toBe(raw.verdict);
    expect(summary.provenance).toMatchObject({ tool: report.tool.version, readFrom: FIXTURE });
  });

  it('keeps the top kernels of a long list, by share', () => {
    const report = makeReport({ kernels: 400, workload: 'long' });
    const summary = summarizeReport(report, 'x', { readFrom: 'r.json' });
    expect(summary.kernels).toHaveLength(HISTORY_KERNELS);
    const shares = summary.kernels.map((k) => k.share);
    expect(shares).toEqual([...shares].sort((a, b) => b - a));
    expect(summary.kernelCount).toBe(400);
    expect(reportOfSummary(summary).kernels.map((k) => k.name)).toEqual(summary.kernels.map((k) => k.name));
  });
});

describe('the page from the store', () => {
  it('is the page from the reports themselves: the captured run and a regressing five-workload matrix', async () => {
    const reports = [...(await capturedNights(12)), ...nightlyMatrix(40).flat()];
    const folder = join(dir, 'reports');
    await writeReports(reports, folder);
    const store = join(dir, 'history.ndjson');
    const built = await buildDashboard({ out: join(dir, 'site'), inputs: [folder], history: store, options: OPTIONS });
    expect(built.added).toBe(reports.length);
    // The store alone, on a later night.
    const later = await buildDashboard({ out: join(dir, 'site-2'), inputs: [], history: store, options: OPTIONS });
    expect(later.added).toBe(0);
    // What the page makes of the reports as read before there was a store: each whole, cut down as read.
    const direct = buildDashboardData(reports.map((report, i) => ({ report: boundReport(report), source: `r${i}` })), [], OPTIONS);
    expect(later.data).toEqual(direct);
    expect(built.data).toEqual(direct);
    // The regressing workload is open on it.
    expect(later.data.regressions.map((r) => later.data.workloads[r.workload]!.name)).toEqual(['llama-3.1-8b · H200 · bf16 · bs1']);
  });

  it('imports a history kept as report files once; a report seen again adds nothing', async () => {
    const reports = await capturedNights(5);
    await writeReports(reports.slice(0, 3), join(dir, 'old'));
    const store = join(dir, 'history.ndjson');
    expect((await buildDashboard({ out: join(dir, 's1'), inputs: [join(dir, 'old')], history: store, options: OPTIONS })).added).toBe(3);
    expect((await buildDashboard({ out: join(dir, 's2'), inputs: [join(dir, 'old')], history: store, options: OPTIONS })).added).toBe(0);
    await writeReports(reports.slice(3), join(dir, 'new'));
    const next = await buildDashboard({ out: join(dir, 's3'), inputs: [join(dir, 'new')], history: store, options: OPTIONS });
    expect(next.added).toBe(2);
    expect(next.data.reportCount).toBe(5);
    const lines = (await readFile(store, 'utf8')).trim().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { run: { runId: string } }).run.runId)).toEqual(['900', '901', '902', '903', '904']);
    // A line appended twice (two branches' appends merged as a union) is one report.
    await writeFile(store, `${lines.join('\n')}\n${lines[1]}\n`);
    expect((await readHistoryStore(store)).summaries).toHaveLength(5);
  });

  it('stops on a line that is not a summary, naming the file and the line', async () => {
    const store = join(dir, 'history.ndjson');
    const [report] = await capturedNights(1);
    const line = JSON.stringify(summarizeReport(report!, 'a', { readFrom: 'x' }));
    await writeFile(store, `${line}\n{"v": 1, "id": "b"\n`);
    await expect(readHistoryStore(store)).rejects.toThrow(new InputError(store, 'one JSON object per line (a history summary)', 'line 2'));
    await writeFile(store, `${line}\n\n{"v": 9, "id": "b"}\n`);
    await expect(readHistoryStore(store)).rejects.toThrow(`${store}:line 3: a history summary: "v": 1`);
    const broken = { ...JSON.parse(line), kernels: [{ name: 'k' }] };
    await writeFile(store, `${JSON.stringify(broken)}\n`);
    await expect(readHistoryStore(store)).rejects.toThrow(`${store}:line 1: a history summary: kernels of a "name", a "family" and a "share"`);
    await expect(readHistoryStore(dir)).rejects.toThrow(`${dir}: a readable history store`);
    expect((await readHistoryStore(join(dir, 'none.ndjson'))).summaries).toEqual([]);
  });
});

describe('appending to the store', () => {
  it('says where the new lines begin: read from there, they alone are read, numbered after the lines before them', async () => {
    const store = join(dir, 'history.ndjson');
    // Ids of more bytes than characters: the offset is in bytes.
    const [a, b, c] = (await capturedNights(3)).map((report, i) => summarizeReport(report, `night ${i} · h200`, { readFrom: `r${i}` }));
    const line = (summary: unknown): string => `${JSON.stringify(summary)}\n`;
    // A store edited by hand, its last line left without a newline.
    await writeFile(store, line(a).trimEnd());
    const held = await readHistoryStore(store);
    expect(held.lines).toBe(1);
    const offset = await appendHistoryLines(
      store,
      (async function* () {
        yield line(b);
        yield line(c);
      })(),
    );
    expect(offset).toBe(Buffer.byteLength(line(a)));
    const added = await readHistoryStore(store, { offset, after: held });
    expect(added.summaries.map((s) => s.id)).toEqual(['night 1 · h200', 'night 2 · h200']);
    expect(added.lines).toBe(3);
    expect((await readHistoryStore(store)).summaries.map((s) => s.id)).toEqual(['night 0 · h200', 'night 1 · h200', 'night 2 · h200']);
    // Nothing appended: the end of the store, where nothing is read.
    const all = await readHistoryStore(store);
    const none = await appendHistoryLines(store, []);
    expect(none).toBe(Buffer.byteLength(line(a) + line(b) + line(c)));
    expect((await readHistoryStore(store, { offset: none, after: all })).summaries).toEqual([]);
    // A broken line among the new ones is named by its line in the file.
    const broken = await appendHistoryLines(store, [line(a), '{"v": 1\n']);
    await expect(readHistoryStore(store, { offset: broken, after: all })).rejects.toThrow(new InputError(store, 'one JSON object per line (a history summary)', 'line 5'));
  });

  it('leaves the store as it was when making the lines fails, after batches were written', async () => {
    const store = join(dir, 'history.ndjson');
    const failing = (function* () {
      for (let i = 0; i < 40; i++) yield `${JSON.stringify({ i, pad: 'x'.repeat(60_000) })}\n`;
      throw new Error('the 41st report could not be read');
    })();
    await expect(appendHistoryLines(store, failing)).rejects.toThrow('the 41st report could not be read');
    await expect(readFile(store, 'utf8')).rejects.toThrow(/ENOENT/);
    // A store edited by hand (no newline at its end) is cut back to its very bytes.
    await writeFile(store, '{"held":0}');
    const again = (function* () {
      for (let i = 0; i < 40; i++) yield `${JSON.stringify({ i, pad: 'x'.repeat(60_000) })}\n`;
      throw new Error('the 41st report could not be read');
    })();
    await expect(appendHistoryLines(store, again)).rejects.toThrow('the 41st report could not be read');
    expect(await readFile(store, 'utf8')).toBe('{"held":0}');
  });

  it('writes lines made one at a time, in batches of whole lines, in order, after what the store held', async () => {
    const store = join(dir, 'data', 'history.ndjson');
    await appendHistoryLines(store, []);
    await expect(readFile(store, 'utf8')).rejects.toThrow(/ENOENT/);
    await appendHistoryLines(store, ['{"held":0}\n']);
    // 40 lines of 60 kB: 2.4 MB, more than one batch.
    const made: number[] = [];
    let beforeLast = '';
    const lines = (function* () {
      for (let i = 1; i <= 40; i++) {
        if (i === 40) beforeLast = readFileSync(store, 'utf8');
        made.push(i);
        yield `${JSON.stringify({ i, pad: 'x'.repeat(60_000) })}\n`;
      }
    })();
    await appendHistoryLines(store, lines);
    const read = (await readFile(store, 'utf8')).split('\n');
    expect(read.at(-1)).toBe('');
    const values = read.slice(0, -1).map((line) => JSON.parse(line) as { held?: number; i?: number; pad?: string });
    expect(values[0]).toEqual({ held: 0 });
    expect(values.slice(1).map((v) => v.i)).toEqual(made);
    expect(values.slice(1).every((v) => v.pad?.length === 60_000)).toBe(true);
    // Written as made: whole lines were in the file before the last one was made.
    expect(beforeLast.length).toBeGreaterThan(1_000_000);
    expect(beforeLast.endsWith('\n')).toBe(true);
  });
});
