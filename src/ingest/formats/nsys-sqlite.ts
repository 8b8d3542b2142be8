/**
 * Nsight Systems SQLite export (`nsys export --type sqlite x.nsys-rep` → `x.sqlite`), read directly.
 * `CUPTI_ACTIVITY_KIND_KERNEL` rows (integer ns `start`/`end`, `deviceId`, grid and block in
 * blocks and threads) become per-kernel sums and a timeline, with names from `StringIds` through
 * `demangledName` (else `shortName`); `CUPTI_ACTIVITY_KIND_MEMCPY` / `_MEMSET` rows become memops;
 * `TARGET_INFO_GPU.name` names the GPU; `META_DATA_EXPORT` gives the nsys version.
 * An export with no CUDA kernel table (nsys creates tables lazily) is refused in one line.
 * `NVTX_EVENTS` push/pop and start/end ranges whose names say decode or prefill (`decode_step_3`) are
 * counted as the timeline's phase ranges (what counts decode steps).
 * Limits: the timeline's busy time is kernels only; other NVTX ranges and API calls are not read. Only
 * real tables are read, in bounded chunks (see common/sqlite-db.ts): a view in their place is refused.
 */
import type { Database } from 'sql.js';
import { InputError } from '../../errors.js';
import type { CaptureInput, MemopStat, PhaseRanges } from '../../model/capture.js';
import { defineImporter } from '../common/importer.js';
import { KernelTraceReader } from '../common/kernel-trace.js';
import { HOST_DEVICE, type TraceEvents } from '../../model/trace-events.js';
import { phaseOfName } from './kineto/generation-facts.js';
import { byStart, columnNames, integerText, isSqliteHead, readTable, schemaNames, tableRows, withDatabase, type TableReadOptions } from '../common/sqlite-db.js';

const EXPORT_HINT = 'or read its tables with: nsys stats --report cuda_gpu_kern_sum,cuda_gpu_trace --format csv --output PREFIX x.sqlite';

/** NvtxEventType: 59 a push/pop range, 60 a start/end range (marks and payloads are not ranges). */
const NVTX_RANGE_TYPES = '59, 60';

/** Where the other events of the export go on the kernels' clock, and the trace record they join. */
interface TraceSink {
  reader: KernelTraceReader;
  trace?: TraceEvents | undefined;
}

/** A row's interval on the kernels' clock, or undefined when its times are not integers. */
function interval(sink: TraceSink, start: unknown, end: unknown): { startNs: number; durNs: number } | undefined {
  const a = sink.reader.offsetOf(integerText(start) ?? String(start));
  const b = sink.reader.offsetOf(integerText(end) ?? String(end));
  return a === undefined || b === undefined || b < a ? undefined : { startNs: a, durNs: b - a };
}

/**
 * NVTX ranges: those whose names say a generation phase (one `decode_step_N` range per decode
 * step) are counted; every range goes into the trace record on its thread.
 */
async function nvtxPhases(db: Database, path: string, strings: ReadonlyMap<string, string>, bounds: TableReadOptions, sink: TraceSink): Promise<PhaseRanges | undefined> {
  const ranges: PhaseRanges = { decode: 0, prefill: 0 };
  const columns = new Set(columnNames(db, 'NVTX_EVENTS'));
  const textId = columns.has('textId') ? 'textId' : 'NULL';
  const timed = columns.has('start') && columns.has('end');
  const thread = columns.has('globalTid') ? 'globalTid' : 'NULL';
  await readTable(db, path, 'NVTX_EVENTS', ['text', textId, timed ? 'start' : 'NULL', timed ? '"end"' : 'NULL', thread], ([text, id, start, end, tid]) => {
    const name = String(text ?? (id !== null && id !== undefined ? (strings.get(String(id)) ?? '') : ''));
    const span = sink.trace && timed && end !== null && end !== undefined ? interval(sink, start, end) : undefined;
    // globalTid packs the process and thread; the low 24 bits are the thread id.
    if (span) sink.trace!.add('range', name, span.startNs, span.durNs, HOST_DEVICE, Number(BigInt.asUintN(24, BigInt(integerText(tid) ?? 0))));
    const phase = phaseOfName(name);
    if (!phase) return;
    ranges[phase] += 1;
    const key = phase === 'decode' ? 'decodeName' : 'prefillName';
    ranges[key] ??= name.slice(0, 200);
  }, { ...bounds, where: `eventType IN (${NVTX_RANGE_TYPES})` });
  return ranges.decode + ranges.prefill > 0 ? ranges : undefined;
}

/** CUpti_ActivityMemcpyKind: 1 HtoD, 2 DtoH, 8 DtoD (the arrays and peer kinds are "other"). */
function copyKind(kind: unknown): string {
  if (kind === 1) return 'memcpy-htod';
  if (kind === 2) return 'memcpy-dtoh';
  if (kind === 8) return 'memcpy-dtod';
  return 'memcpy-other';
}

async function memops(db: Database, path: string, tables: Set<string>, bounds: TableReadOptions, sink: TraceSink): Promise<MemopStat[]> {
  const byKind = new Map<string, MemopStat>();
  const record = (kind: 'memcpy' | 'memset', name: string, start: unknown, end: unknown, device: unknown, stream: unknown) => {
    const span = sink.trace ? interval(sink, start, end) : undefined;
    if (span) sink.trace!.add(kind, name, span.startNs, span.durNs, sink.reader.deviceOf(String(device ?? 0)), Number(stream ?? 0));
  };
  const add = (kind: string, name: string, ns: number, bytes: number) => {
    const stat = byKind.get(kind) ?? { kind, name, totalNs: 0, count: 0, bytes: 0 };
    stat.totalNs! += ns;
    stat.count += 1;
    stat.bytes! += bytes;
    byKind.set(kind, stat);
  };
  const NAMES: Record<string, string> = { 'memcpy-htod': '[CUDA memcpy Host-to-Device]', 'memcpy-dtoh': '[CUDA memcpy Device-to-Host]', 'memcpy-dtod': '[CUDA memcpy Device-to-Device]', 'memcpy-other': '[CUDA memcpy other]', memset: '[CUDA memset]' };
  const placed = (table: string) => {
    const columns = new Set(columnNames(db, table));
    return [columns.has('deviceId') ? 'deviceId' : 'NULL', columns.has('streamId') ? 'streamId' : 'NULL'];
  };
  if (tables.has('CUPTI_ACTIVITY_KIND_MEMCPY')) {
    await readTable(db, path, 'CUPTI_ACTIVITY_KIND_MEMCPY', ['copyKind', 'start', '"end"', 'bytes', ...placed('CUPTI_ACTIVITY_KIND_MEMCPY')], ([kind, start, end, bytes, device, stream]) => {
      const k = copyKind(kind);
      add(k, NAMES[k]!, Number(end) - Number(start), Number(bytes) || 0);
      record('memcpy', NAMES[k]!, start, end, device, stream);
    }, bounds);
  }
  if (tables.has('CUPTI_ACTIVITY_KIND_MEMSET')) {
    await readTable(db, path, 'CUPTI_ACTIVITY_KIND_MEMSET', ['start', '"end"', 'bytes', ...placed('CUPTI_ACTIVITY_KIND_MEMSET')], ([start, end, bytes, device, stream]) => {
      add('memset', NAMES['memset']!, Number(end) - Number(start), Number(bytes) || 0);
      record('memset', NAMES['memset']!, start, end, device, stream);
    }, bounds);
  }
  return [...byKind.values()];
}

export default defineImporter({
  id: 'nsys-sqlite',
  label: 'Nsight Systems SQLite export',
  capabilities: { kernels: 'expected', timeline: true },
  vendor: 'nvidia',
  suite: 'nsys',
  sniff(head) {
    return isSqliteHead(head) && /CUPTI_ACTIVITY_KIND_|StringIds|META_DATA_EXPORT|TARGET_INFO_/.test(head);
  },
  async read(file, ctx): Promise<CaptureInput> {
    return withDatabase(file, EXPORT_HINT, async (db): Promise<CaptureInput> => {
      const bounds: TableReadOptions = { signal: ctx.options.signal };
      const tables = new Set(schemaNames(db));
      if (!tables.has('StringIds') && !tables.has('META_DATA_EXPORT')) {
        throw new InputError(file.path, `expected an nsys SQLite export (StringIds and META_DATA_EXPORT tables), found none: ${EXPORT_HINT}`);
      }
      if (!tables.has('CUPTI_ACTIVITY_KIND_KERNEL')) {
        throw new InputError(file.path, 'the nsys export holds no CUDA kernel data (no CUPTI_ACTIVITY_KIND_KERNEL table): was the capture made with -t cuda?');
      }
      const columns = new Set(columnNames(db, 'CUPTI_ACTIVITY_KIND_KERNEL'));
      const nameColumn = columns.has('demangledName') ? 'demangledName' : 'shortName';
      const SHAPE = ['gridX', 'gridY', 'gridZ', 'blockX', 'blockY', 'blockZ'];
      const shape = SHAPE.every((c) => columns.has(c)) ? SHAPE : [];
      const trace = new KernelTraceReader(file.path, 'Index,KernelName,gpu-id,BeginNs,EndNs', 1, false, ctx);
      trace.fieldWord = 'column';
      // Names by id read first: a join would let the file choose how much work each chunk is.
      const strings = new Map<string, string>();
      if (tables.has('StringIds')) await readTable(db, file.path, 'StringIds', ['id', 'value'], ([id, value]) => void strings.set(String(id), String(value ?? '')), bounds);
      const rows = await tableRows(db, file.path, 'CUPTI_ACTIVITY_KIND_KERNEL', [nameColumn, 'deviceId', 'start', '"end"', ...shape], bounds);
      rows.sort((a, b) => byStart(a[2], b[2]));
      rows.forEach((row, i) => {
        const [id, device, start, end, ...dims] = row;
        const name = strings.get(String(id)) ?? '';
        if (!name) ctx.count('kernel-without-name', 'data-loss', `kernel rows whose ${nameColumn} is not in StringIds are named ""`);
        const sizes = dims.map(Number);
        trace.addDispatch(
          {
            name: String(name ?? ''),
            agent: String(device ?? 0),
            start: integerText(start) ?? String(start),
            end: integerText(end) ?? String(end),
            ...(sizes.length === 6 ? { grid: sizes.slice(0, 3), block: sizes.slice(3), gridInBlocks: true } : {}),
          },
          `CUPTI_ACTIVITY_KIND_KERNEL row ${i + 1}`,
        );
      });
      const read = trace.finish();
      const sink: TraceSink = { reader: trace, trace: read.trace };
      const phases = tables.has('NVTX_EVENTS') && columnNames(db, 'NVTX_EVENTS').includes('eventType') ? await nvtxPhases(db, file.path, strings, bounds, sink) : undefined;
      if (phases && read.timeline) read.timeline = { ...read.timeline, phaseRanges: phases };
      // Graphs traced whole (nsys's default --cuda-graph-trace=graph): one row per graph launch, and
      // none of the kernels it replays in the kernel table.
      const wholeGraphs = tables.has('CUPTI_ACTIVITY_KIND_GRAPH_TRACE') ? (await tableRows(db, file.path, 'CUPTI_ACTIVITY_KIND_GRAPH_TRACE', ['start'], bounds)).length : 0;
      if (wholeGraphs > 0 && read.timeline) read.timeline = { ...read.timeline, graphLaunches: wholeGraphs, graphKernels: 0 };
      const gpuNames = tables.has('TARGET_INFO_GPU') ? [...new Set((await tableRows(db, file.path, 'TARGET_INFO_GPU', ['name'], bounds)).map((r) => String(r[0] ?? '')).filter(Boolean))] : [];
      const version = tables.has('META_DATA_EXPORT') ? (await tableRows(db, file.path, 'META_DATA_EXPORT', ['value'], { ...bounds, where: "name = 'EXPORT_PRODUCT_VERSION'" }))[0]?.[0] : undefined;
      return {
        source: { path: file.path, format: 'nsys-sqlite', tool: 'nsys', parts: ['CUPTI_ACTIVITY_KIND_KERNEL'], ...(version ? { toolVersion: String(version) } : {}) },
        kernels: read.kernels,
        memops: await memops(db, file.path, tables, bounds, sink),
        ...(read.timeline ? { timeline: read.timeline } : {}),
        ...(read.trace ? { trace: read.trace } : {}),
        environment: { vendor: 'nvidia', ...(gpuNames.length ? { gpuName: gpuNames.join(', '), gpuCount: gpuNames.length } : {}) },
      };
    });
  },
});
