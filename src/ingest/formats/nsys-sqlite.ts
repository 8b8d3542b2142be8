/**
 * Nsight Systems SQLite export (`nsys export --type sqlite x.nsys-rep` → `x.sqlite`), read directly.
 * `CUPTI_ACTIVITY_KIND_KERNEL` rows (integer ns `start`/`end`, `deviceId`, grid and block in
 * blocks and threads) become per-kernel sums and a timeline, with names from `StringIds` through
 * `demangledName` (else `shortName`); `CUPTI_ACTIVITY_KIND_MEMCPY` / `_MEMSET` rows become memops;
 * `TARGET_INFO_GPU.name` names the GPU; `META_DATA_EXPORT` gives the nsys version.
 * An export with no CUDA kernel table (nsys creates tables lazily) is refused in one line.
 * Limits: the timeline's busy time is kernels only; NVTX ranges and API calls are not read.
 */
import type { Database } from 'sql.js';
import { InputError } from '../../errors.js';
import type { CaptureInput, MemopStat } from '../../model/capture.js';
import { defineImporter } from '../common/importer.js';
import { KernelTraceReader } from './rocprof/trace.js';
import { columnNames, integerText, isSqliteHead, queryRows, withDatabase, schemaNames } from '../common/sqlite-db.js';

const EXPORT_HINT = 'or read its tables with: nsys stats --report cuda_gpu_kern_sum,cuda_gpu_trace --format csv --output PREFIX x.sqlite';

/** CUpti_ActivityMemcpyKind: 1 HtoD, 2 DtoH, 8 DtoD (the arrays and peer kinds are "other"). */
function copyKind(kind: unknown): string {
  if (kind === 1) return 'memcpy-htod';
  if (kind === 2) return 'memcpy-dtoh';
  if (kind === 8) return 'memcpy-dtod';
  return 'memcpy-other';
}

function memops(db: Database, tables: Set<string>): MemopStat[] {
  const byKind = new Map<string, MemopStat>();
  const add = (kind: string, name: string, ns: number, bytes: number) => {
    const stat = byKind.get(kind) ?? { kind, name, totalNs: 0, count: 0, bytes: 0 };
    stat.totalNs! += ns;
    stat.count += 1;
    stat.bytes! += bytes;
    byKind.set(kind, stat);
  };
  const NAMES: Record<string, string> = { 'memcpy-htod': '[CUDA memcpy Host-to-Device]', 'memcpy-dtoh': '[CUDA memcpy Device-to-Host]', 'memcpy-dtod': '[CUDA memcpy Device-to-Device]', 'memcpy-other': '[CUDA memcpy other]', memset: '[CUDA memset]' };
  if (tables.has('CUPTI_ACTIVITY_KIND_MEMCPY')) {
    for (const [kind, start, end, bytes] of queryRows(db, 'SELECT copyKind, start, "end", bytes FROM CUPTI_ACTIVITY_KIND_MEMCPY')) {
      const k = copyKind(kind);
      add(k, NAMES[k]!, Number(end) - Number(start), Number(bytes) || 0);
    }
  }
  if (tables.has('CUPTI_ACTIVITY_KIND_MEMSET')) {
    for (const [start, end, bytes] of queryRows(db, 'SELECT start, "end", bytes FROM CUPTI_ACTIVITY_KIND_MEMSET')) add('memset', NAMES['memset']!, Number(end) - Number(start), Number(bytes) || 0);
  }
  return [...byKind.values()];
}

export default defineImporter({
  id: 'nsys-sqlite',
  label: 'Nsight Systems SQLite export',
  sniff(head) {
    return isSqliteHead(head) && /CUPTI_ACTIVITY_KIND_|StringIds|META_DATA_EXPORT|TARGET_INFO_/.test(head);
  },
  async read(file, ctx): Promise<CaptureInput> {
    return withDatabase(file, EXPORT_HINT, (db): CaptureInput => {
      const tables = new Set(schemaNames(db));
      if (!tables.has('StringIds') && !tables.has('META_DATA_EXPORT')) {
        throw new InputError(file.path, `expected an nsys SQLite export (StringIds and META_DATA_EXPORT tables), found none: ${EXPORT_HINT}`);
      }
      if (!tables.has('CUPTI_ACTIVITY_KIND_KERNEL')) {
        throw new InputError(file.path, 'the nsys export holds no CUDA kernel data (no CUPTI_ACTIVITY_KIND_KERNEL table): was the capture made with -t cuda?');
      }
      const columns = new Set(columnNames(db, 'CUPTI_ACTIVITY_KIND_KERNEL'));
      const nameColumn = columns.has('demangledName') ? 'demangledName' : 'shortName';
      const shape = ['gridX', 'gridY', 'gridZ', 'blockX', 'blockY', 'blockZ'].every((c) => columns.has(c)) ? ', k.gridX, k.gridY, k.gridZ, k.blockX, k.blockY, k.blockZ' : '';
      const trace = new KernelTraceReader(file.path, 'Index,KernelName,gpu-id,BeginNs,EndNs', 1, false, ctx);
      trace.fieldWord = 'column';
      const rows = queryRows(db, `SELECT coalesce(s.value, ''), k.deviceId, k.start, k."end"${shape} FROM CUPTI_ACTIVITY_KIND_KERNEL k LEFT JOIN StringIds s ON s.id = k.${nameColumn} ORDER BY k.start`);
      rows.forEach((row, i) => {
        const [name, device, start, end, ...dims] = row;
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
      const gpuNames = tables.has('TARGET_INFO_GPU') ? [...new Set(queryRows(db, 'SELECT name FROM TARGET_INFO_GPU').map((r) => String(r[0] ?? '')).filter(Boolean))] : [];
      const version = tables.has('META_DATA_EXPORT') ? queryRows(db, "SELECT value FROM META_DATA_EXPORT WHERE name = 'EXPORT_PRODUCT_VERSION'")[0]?.[0] : undefined;
      return {
        source: { path: file.path, format: 'nsys-sqlite', tool: 'nsys', parts: ['CUPTI_ACTIVITY_KIND_KERNEL'], ...(version ? { toolVersion: String(version) } : {}) },
        kernels: read.kernels,
        memops: memops(db, tables),
        ...(read.timeline ? { timeline: read.timeline } : {}),
        environment: { vendor: 'nvidia', ...(gpuNames.length ? { gpuName: gpuNames.join(', '), gpuCount: gpuNames.length } : {}) },
      };
    });
  },
});
