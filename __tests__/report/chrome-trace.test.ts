/**
 * The clean trace profile-gate writes from the events it read: it holds to the Chrome trace event
 * format Perfetto's JSON loader takes (traceEvents; ph, ts, dur, pid, tid), and read back by
 * profile-gate's own Kineto importer it gives the kernel totals of the source capture. Expected
 * totals come from the data: the nsys export's numbers as Python's sqlite3 read them (see
 * __tests__/ingest/sqlite.test.ts), the Kineto trace's from its JSON parsed here.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { ingestFile } from '../../src/ingest/registry.js';
import { renderChromeTrace } from '../../src/report/chrome-trace.js';
import { TraceEvents } from '../../src/model/trace-events.js';
import type { Capture } from '../../src/model/capture.js';

const FIXTURES = join(process.cwd(), '__tests__', 'fixtures');
const NSYS = join(FIXTURES, 'sqlite', 'nsys_h200_dense_decode_built.sqlite');
const KINETO = join(FIXTURES, 'kineto', 'dense_decode.trace.json.gz');
const SECRET_KINETO = join(FIXTURES, 'h200-secret', 'secret_torch.trace.json.gz');
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const render = (trace: TraceEvents, name: (s: string) => string = (s) => s) => renderChromeTrace(trace, { name, source: { format: 'test' }, generator: 'profile-gate test' });

/** The Chrome trace event format as Perfetto's JSON importer reads it: what each event must hold. */
function schemaProblems(text: string): string[] {
  const problems: string[] = [];
  const doc = JSON.parse(text) as Record<string, unknown>;
  if (!Array.isArray(doc.traceEvents)) return ['traceEvents is not an array'];
  doc.traceEvents.forEach((e: Record<string, unknown>, i: number) => {
    const bad = (what: string) => problems.push(`event ${i}: ${what}`);
    if (typeof e.ph !== 'string') bad('ph');
    if (!Number.isInteger(e.pid)) bad('pid');
    if (!Number.isInteger(e.tid)) bad('tid');
    if (typeof e.name !== 'string') bad('name');
    if (e.ph === 'X') {
      if (typeof e.ts !== 'number' || !Number.isFinite(e.ts) || e.ts < 0) bad('ts');
      if (typeof e.dur !== 'number' || !Number.isFinite(e.dur) || e.dur < 0) bad('dur');
      if (typeof e.cat !== 'string') bad('cat');
    } else if (e.ph === 'M') {
      if (!['process_name', 'thread_name'].includes(e.name as string) || typeof (e.args as Record<string, unknown>)?.name !== 'string') bad('metadata');
    } else bad(`unexpected ph ${String(e.ph)}`);
    const allowed = new Set(['ph', 'cat', 'name', 'pid', 'tid', 'ts', 'dur', 'args']);
    for (const key of Object.keys(e)) if (!allowed.has(key)) bad(`unknown field ${key}`);
  });
  return problems;
}

async function readBack(text: string): Promise<Capture> {
  const file = join(mkdtempSync(join(tmpdir(), 'pg-trace-')), 'clean.trace.json');
  writeFileSync(file, text);
  return ingestFile(file);
}

const byName = (capture: Capture) => {
  const out = new Map<string, { ns: number; n: number }>();
  for (const k of capture.kernels) {
    const known = out.get(k.name) ?? { ns: 0, n: 0 };
    known.ns += k.totalNs;
    known.n += k.instances;
    out.set(k.name, known);
  }
  return out;
};

describe('the clean trace', () => {
  test('nsys SQLite export: valid Chrome trace; read back, the same 600 kernels and 1,893,526 ns, the 6 copies kept', async () => {
    const capture = await ingestFile(NSYS);
    expect(capture.trace?.count).toBeGreaterThan(600);
    const text = render(capture.trace!);
    expect(schemaProblems(text)).toEqual([]);
    const doc = JSON.parse(text) as { traceEvents: Array<{ ph: string; cat?: string }>; otherData: Record<string, unknown> };
    expect(doc.traceEvents.filter((e) => e.cat === 'kernel')).toHaveLength(600);
    expect(doc.traceEvents.filter((e) => e.cat === 'gpu_memcpy')).toHaveLength(6);
    expect(doc.otherData.eventsCut).toBeUndefined();
    const back = await readBack(text);
    expect(back.source.format).toBe('kineto-json');
    expect(sum(back.kernels.map((k) => k.instances))).toBe(600);
    expect(sum(back.kernels.map((k) => k.totalNs))).toBe(1_893_526);
    expect(byName(back)).toEqual(byName(capture));
  });

  test('Kineto trace: valid Chrome trace; read back, the kernel totals of the source JSON, the CPU ops and steps kept', async () => {
    const source = JSON.parse(gunzipSync(readFileSync(KINETO)).toString('utf8')) as { traceEvents: Array<{ ph?: string; cat?: string; dur?: number; name?: string }> };
    const kernels = source.traceEvents.filter((e) => e.ph === 'X' && e.cat === 'kernel');
    const cpuOps = source.traceEvents.filter((e) => e.ph === 'X' && e.cat === 'cpu_op');
    const expectedNs = sum(kernels.map((e) => Math.round(e.dur! * 1000)));
    const capture = await ingestFile(KINETO);
    const text = render(capture.trace!);
    expect(schemaProblems(text)).toEqual([]);
    const doc = JSON.parse(text) as { traceEvents: Array<{ ph: string; cat?: string; name: string }> };
    expect(doc.traceEvents.filter((e) => e.cat === 'kernel')).toHaveLength(kernels.length);
    expect(doc.traceEvents.filter((e) => e.cat === 'cpu_op')).toHaveLength(cpuOps.length);
    const back = await readBack(text);
    expect(sum(back.kernels.map((k) => k.instances))).toBe(kernels.length);
    expect(Math.abs(sum(back.kernels.map((k) => k.totalNs)) - expectedNs)).toBeLessThanOrEqual(kernels.length);
    expect(byName(back)).toEqual(byName(capture));
    // The steps read back as the source's (ProfilerStep ranges are kept).
    expect(back.timeline?.steps.map((s) => s.name)).toEqual(capture.timeline?.steps.map((s) => s.name));
  });

  test('the trace carries no metadata of the source: a trace with user metadata and an environment loses both', async () => {
    const capture = await ingestFile(SECRET_KINETO);
    const raw = gunzipSync(readFileSync(SECRET_KINETO)).toString('utf8');
    const text = render(capture.trace!);
    const doc = JSON.parse(text) as Record<string, unknown>;
    expect(Object.keys(doc).sort()).toEqual(['displayTimeUnit', 'otherData', 'traceEvents']);
    // The source's top-level members (deviceProperties, distributedInfo, …) are not carried.
    const members = Object.keys(JSON.parse(raw) as Record<string, unknown>).filter((k) => !['traceEvents', 'displayTimeUnit', 'otherData'].includes(k));
    expect(members.length).toBeGreaterThan(0);
    for (const member of members) expect(text).not.toContain(`"${member}"`);
  });

  test('names pass through the redaction; a record past its cap says so in the metadata', () => {
    const trace = new TraceEvents({ gpu: 2, host: 1 });
    trace.add('kernel', 'gemm_hf_secretsecretsecret', 0, 10, 0, 7);
    trace.add('kernel', 'gemm', 20, 10, 0, 7);
    trace.add('kernel', 'gemm', 40, 10, 0, 7);
    trace.add('cpu-op', 'aten::mm', 0, 5, -1, 1);
    trace.add('range', 'ProfilerStep#1', 0, 60, -1, 1);
    const text = render(trace, (s) => s.replace('hf_secretsecretsecret', '***'));
    expect(text).not.toContain('secretsecret');
    expect(schemaProblems(text)).toEqual([]);
    const doc = JSON.parse(text) as { otherData: { events: number; eventsCut?: Record<string, number> } };
    expect(doc.otherData.events).toBe(3);
    expect(doc.otherData.eventsCut).toEqual({ kernel: 1, range: 1 });
  });
});
