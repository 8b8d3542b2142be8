/**
 * rocprofv3 rocpd database (`<name>_results.db`, the default output since ROCm 7.0), read directly.
 * Tables carry a per-session suffix (`rocpd_kernel_dispatch_<uuid>`) with plain-named views over
 * them; the real table is read (a plain-named table, else the single suffixed one), never a view, in
 * bounded chunks (see common/sqlite-db.ts). Kernel dispatches (integer ns
 * `start`/`end`, `agent_id`, grid in work-items and workgroup size) joined to
 * `rocpd_info_kernel_symbol` (`display_name`, else `kernel_name`) become per-kernel sums and a
 * timeline, as for `kernel_trace.csv`; `rocpd_info_agent` GPU rows name the GPU.
 * Limits: memory copies, HIP API and counter tables are not read; a database holding several
 * sessions (several suffixes, as `rocpd merge` writes) is refused rather than summed unseen.
 */
import type { Database, SqlValue } from 'sql.js';
import { InputError } from '../../errors.js';
import type { CaptureInput } from '../../model/capture.js';
import { defineImporter } from '../common/importer.js';
import { KernelTraceReader } from '../common/kernel-trace.js';
import { byStart, columnNames, integerText, isSqliteHead, quoteName, readTable, schemaNames, tableNames, tableRows, withDatabase, type TableReadOptions } from '../common/sqlite-db.js';

const EXPORT_HINT = 'or convert it with: rocpd convert -i NAME_results.db --output-format csv (then read NAME_kernel_trace.csv)';

/**
 * The table named `base`, else the one table `base_<suffix>`, else the view named `base` (which
 * readTable refuses, naming it); undefined when absent.
 */
function relation(path: string, names: readonly string[], tables: readonly string[], base: string): string | undefined {
  if (tables.includes(base)) return base;
  const suffixed = tables.filter((name) => name.startsWith(`${base}_`) && /^[0-9a-f_]+$/i.test(name.slice(base.length + 1)));
  if (suffixed.length > 1) {
    throw new InputError(path, `the database holds ${suffixed.length} profiling sessions (${suffixed.slice(0, 2).join(', ')}…); expected one: convert each with rocpd convert and analyze them one at a time`);
  }
  return suffixed[0] ?? (names.includes(base) ? base : undefined);
}

async function gpuName(db: Database, path: string, agents: string | undefined, bounds: TableReadOptions): Promise<string[]> {
  if (!agents) return [];
  const columns = new Set(columnNames(db, agents));
  const pick = ['product_name', 'model_name', 'name'].filter((c) => columns.has(c)).map((c) => `nullif(${quoteName(c)}, '')`);
  if (pick.length === 0 || !columns.has('type')) return [];
  const rows = await tableRows(db, path, agents, [`coalesce(${pick.join(', ')}, NULL)`], { ...bounds, where: "type = 'GPU'" });
  return [...new Set(rows.map((r) => String(r[0] ?? '')).filter(Boolean))];
}

export default defineImporter({
  id: 'rocpd-sqlite',
  label: 'rocprofv3 rocpd SQLite database',
  capabilities: { kernels: 'expected', timeline: true },
  vendor: 'amd',
  suite: 'rocprof',
  sniff(head) {
    return isSqliteHead(head) && /rocpd_/.test(head);
  },
  async read(file, ctx): Promise<CaptureInput> {
    return withDatabase(file, EXPORT_HINT, async (db): Promise<CaptureInput> => {
      const bounds: TableReadOptions = { signal: ctx.options.signal };
      const names = schemaNames(db);
      const tables = tableNames(db);
      const dispatches = relation(file.path, names, tables, 'rocpd_kernel_dispatch');
      const symbols = relation(file.path, names, tables, 'rocpd_info_kernel_symbol');
      if (!dispatches || !symbols) {
        throw new InputError(file.path, `expected rocpd kernel tables (rocpd_kernel_dispatch, rocpd_info_kernel_symbol), found none: was rocprofv3 run with --kernel-trace? ${EXPORT_HINT}`);
      }
      const symbolColumns = new Set(columnNames(db, symbols));
      const name = symbolColumns.has('display_name') ? "coalesce(nullif(display_name, ''), kernel_name)" : 'kernel_name';
      const trace = new KernelTraceReader(file.path, 'Kind,Agent_Id,Kernel_Name,Start_Timestamp,End_Timestamp', 1, true, ctx);
      // Symbols by id read first: a join would let the file choose how much work each chunk is.
      const kernelNames = new Map<string, SqlValue>();
      await readTable(db, file.path, symbols, ['id', name], ([id, kernel]) => void kernelNames.set(String(id), kernel ?? null), bounds);
      const rows = await tableRows(db, file.path, dispatches, ['kernel_id', 'agent_id', 'start', '"end"', 'grid_size_x', 'grid_size_y', 'grid_size_z', 'workgroup_size_x', 'workgroup_size_y', 'workgroup_size_z'], bounds);
      rows.sort((a, b) => byStart(a[2], b[2]));
      rows.forEach((row, i) => {
        const [kernelId, agent, start, end, ...dims] = row;
        const kernel = kernelNames.get(String(kernelId));
        if (kernel === null || kernel === undefined) ctx.count('kernel-without-symbol', 'data-loss', 'dispatches whose kernel_id has no kernel symbol are named ""');
        trace.addDispatch(
          {
            name: String(kernel ?? ''),
            agent: String(agent ?? 0),
            start: integerText(start) ?? String(start),
            end: integerText(end) ?? String(end),
            grid: dims.slice(0, 3).map(Number),
            block: dims.slice(3).map(Number),
          },
          `${dispatches} row ${i + 1}`,
        );
      });
      const read = trace.finish();
      if (read.kernels.length === 0) throw new InputError(file.path, `the rocpd database holds no kernel dispatches (${dispatches} is empty)`);
      const gpus = await gpuName(db, file.path, relation(file.path, names, tables, 'rocpd_info_agent'), bounds);
      return {
        source: { path: file.path, format: 'rocpd-sqlite', tool: 'rocprofv3', parts: ['rocpd_kernel_dispatch'] },
        kernels: read.kernels,
        ...(read.timeline ? { timeline: read.timeline } : {}),
        ...(read.trace ? { trace: read.trace } : {}),
        environment: { vendor: 'amd', ...(gpus.length ? { gpuName: gpus.join(', ') } : {}) },
      };
    });
  },
});
