/**
 * rocprofv3 rocpd database (`<name>_results.db`, the default output since ROCm 7.0), read directly.
 * Tables carry a per-session suffix (`rocpd_kernel_dispatch_<uuid>`) with plain-named views over
 * them; the view is used where present, else the single suffixed table. Kernel dispatches (integer ns
 * `start`/`end`, `agent_id`, grid in work-items and workgroup size) joined to
 * `rocpd_info_kernel_symbol` (`display_name`, else `kernel_name`) become per-kernel sums and a
 * timeline, as for `kernel_trace.csv`; `rocpd_info_agent` GPU rows name the GPU.
 * Limits: memory copies, HIP API and counter tables are not read; a database holding several
 * sessions (several suffixes, as `rocpd merge` writes) is refused rather than summed unseen.
 */
import type { Database } from 'sql.js';
import { InputError } from '../../errors.js';
import type { CaptureInput } from '../../model/capture.js';
import { defineImporter } from '../common/importer.js';
import { KernelTraceReader } from './rocprof/trace.js';
import { columnNames, integerText, isSqliteHead, queryRows, withDatabase, quoteName, schemaNames } from '../common/sqlite-db.js';

const EXPORT_HINT = 'or convert it with: rocpd convert -i NAME_results.db --output-format csv (then read NAME_kernel_trace.csv)';

/** The view named `base`, else the one table `base_<suffix>`; undefined when absent. */
function relation(path: string, names: readonly string[], base: string): string | undefined {
  if (names.includes(base)) return base;
  const suffixed = names.filter((name) => name.startsWith(`${base}_`) && /^[0-9a-f_]+$/i.test(name.slice(base.length + 1)));
  if (suffixed.length > 1) {
    throw new InputError(path, `the database holds ${suffixed.length} profiling sessions (${suffixed.slice(0, 2).join(', ')}…); expected one: convert each with rocpd convert and analyze them one at a time`);
  }
  return suffixed[0];
}

function gpuName(db: Database, agents: string | undefined): string[] {
  if (!agents) return [];
  const columns = new Set(columnNames(db, agents));
  const pick = ['product_name', 'model_name', 'name'].filter((c) => columns.has(c)).map((c) => `nullif(${quoteName(c)}, '')`);
  if (pick.length === 0 || !columns.has('type')) return [];
  return [...new Set(queryRows(db, `SELECT coalesce(${pick.join(', ')}) FROM ${quoteName(agents)} WHERE type = 'GPU'`).map((r) => String(r[0] ?? '')).filter(Boolean))];
}

export default defineImporter({
  id: 'rocpd-sqlite',
  label: 'rocprofv3 rocpd SQLite database',
  sniff(head) {
    return isSqliteHead(head) && /rocpd_/.test(head);
  },
  async read(file, ctx): Promise<CaptureInput> {
    return withDatabase(file, EXPORT_HINT, (db): CaptureInput => {
      const names = schemaNames(db);
      const dispatches = relation(file.path, names, 'rocpd_kernel_dispatch');
      const symbols = relation(file.path, names, 'rocpd_info_kernel_symbol');
      if (!dispatches || !symbols) {
        throw new InputError(file.path, `expected rocpd kernel tables (rocpd_kernel_dispatch, rocpd_info_kernel_symbol), found none: was rocprofv3 run with --kernel-trace? ${EXPORT_HINT}`);
      }
      const symbolColumns = new Set(columnNames(db, symbols));
      const name = symbolColumns.has('display_name') ? "coalesce(nullif(s.display_name, ''), s.kernel_name)" : 's.kernel_name';
      const trace = new KernelTraceReader(file.path, 'Kind,Agent_Id,Kernel_Name,Start_Timestamp,End_Timestamp', 1, true, ctx);
      const rows = queryRows(
        db,
        `SELECT ${name}, d.agent_id, d.start, d."end", d.grid_size_x, d.grid_size_y, d.grid_size_z, d.workgroup_size_x, d.workgroup_size_y, d.workgroup_size_z
         FROM ${quoteName(dispatches)} d LEFT JOIN ${quoteName(symbols)} s ON s.id = d.kernel_id ORDER BY d.start`,
      );
      rows.forEach((row, i) => {
        const [kernel, agent, start, end, ...dims] = row;
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
      const gpus = gpuName(db, relation(file.path, names, 'rocpd_info_agent'));
      return {
        source: { path: file.path, format: 'rocpd-sqlite', tool: 'rocprofv3', parts: ['rocpd_kernel_dispatch'] },
        kernels: read.kernels,
        ...(read.timeline ? { timeline: read.timeline } : {}),
        environment: { vendor: 'amd', ...(gpus.length ? { gpuName: gpus.join(', ') } : {}) },
      };
    });
  },
});
