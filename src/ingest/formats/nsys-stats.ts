/**
 * `nsys stats` output, CSV or column layout, one table or a whole stdout stream. Tables map as:
 * cuda_gpu_kern_sum / gpukernsum / cuda_gpu_kern_gb_sum → kernels (rows aggregated by name, so the
 * 2022.x GridXYZ/BlockXYZ split rows become one kernel); cuda_gpu_sum / gpusum → kernels
 * (CUDA_KERNEL) and memops (MEMORY_OPER) when no kernel or memop table is present;
 * cuda_api_sum / cudaapisum → apiCalls; cuda_gpu_mem_time_sum / cuda_gpu_mem_size_sum → memops.
 * Other reports (osrt_sum, nvtx_sum, …) are listed in source.parts only. `SKIPPED:` lines become
 * notices. Times are converted from the header's unit (`--timeunit`) to ns; the Time (%) column is
 * never read (shares are recomputed downstream from totals).
 * The output is read line by line from the file's stream: only the aggregated rows are held (and a
 * table of calls named by neither report nor columns, until its rows say whether it is cuda_api_sum).
 * A file holding two tables of one kind holds two runs (outputs appended): it is refused at the
 * line where the second run starts (its Markdown heading or nsys's first line of it).
 * A `...` line under a table (a pasted excerpt) ends it, with a notice that rows are missing.
 */
import { ownValue } from '../../model/own-key.js';
import { InputError } from '../../errors.js';
import type { CaptureInput, Notice } from '../../model/capture.js';
import { defineImporter } from '../common/importer.js';
import { buildMemops, CANONICAL, collectTable, type Collected, type Kind } from './nsys/collect.js';
import { findColumns, type Columns } from './nsys/columns.js';
import { NsysScanner, type NsysMessage, type NsysRow, type NsysTableHead, type RowSink } from './nsys/tables.js';
import { lineBatches } from '../common/text-lines.js';

const REPORT_KINDS: Record<string, Kind> = {
  cuda_gpu_kern_sum: 'kernels',
  cuda_gpu_kern_gb_sum: 'kernels',
  gpukernsum: 'kernels',
  cuda_gpu_sum: 'gpu',
  gpusum: 'gpu',
  cuda_api_sum: 'api',
  cudaapisum: 'api',
  cuda_gpu_mem_time_sum: 'mem-time',
  gpumemtimesum: 'mem-time',
  cuda_gpu_mem_size_sum: 'mem-size',
  gpumemsizesum: 'mem-size',
};
const CUDA_API = /^cu(da)?[A-Z]/;

/**
 * What a table is: from the report nsys named, else from its columns. Undefined = not read.
 * `byRows`: a table of calls named by neither, which is cuda_api_sum when most names are CUDA calls.
 */
function classify(table: NsysTableHead, columns: Columns): { kind?: Kind; part: string; byRows?: true } {
  const report = table.report;
  const kind = report ? ownValue(REPORT_KINDS, report) : undefined;
  if (report && kind) return { kind, part: report };
  if (report) return { part: report };
  const { total, size, count, countLabel, name, nameLabel, category, style } = columns;
  if (style !== undefined || nameLabel === 'Range') return { part: 'nvtx_sum' };
  if (total && category !== undefined && name !== undefined) return { kind: 'gpu', part: CANONICAL.gpu };
  if (size && nameLabel === 'Operation') return { kind: 'mem-size', part: CANONICAL['mem-size'] };
  if (total && count !== undefined && nameLabel === 'Operation') return { kind: 'mem-time', part: CANONICAL['mem-time'] };
  if (total && countLabel === 'Instances' && nameLabel === 'Name') return { kind: 'kernels', part: CANONICAL.kernels };
  if (total && (countLabel === 'Num Calls' || countLabel === 'Calls') && name !== undefined) return { part: 'osrt_sum', byRows: true };
  return { part: 'unknown-table' };
}

function apiOrOsrt(rows: readonly NsysRow[], name: number): { kind?: Kind; part: string } {
  const apiLike = rows.filter((row) => CUDA_API.test(row.cells[name]!.trim())).length;
  return apiLike * 2 > rows.length ? { kind: 'api', part: CANONICAL.api } : { part: 'osrt_sum' };
}

const READ_REPORTS = new Set(Object.keys(REPORT_KINDS));

/**
 * Where the second run of a file begins, given the tables seen so far (the last one repeating a
 * report of the first run): the first table whose report already appeared opens the second run,
 * and the run begins at the first heading or nsys run line after the table before it.
 */
function secondRunStart(seen: readonly { part: string; line: number }[], marks: readonly NsysMessage[], repeatLine: number): { line: number; mark?: string } {
  const parts = new Set<string>();
  let first = seen.findIndex((t) => {
    const again = parts.has(t.part);
    parts.add(t.part);
    return again;
  });
  if (first < 0) first = seen.length - 1;
  const opening = seen[first]?.line ?? repeatLine;
  const before = first > 0 ? seen[first - 1]!.line : 0;
  const mark = marks.find((m) => m.line > before && m.line < opening);
  return mark ? { line: mark.line, mark: mark.message } : { line: opening };
}

export default defineImporter({
  id: 'nsys-stats',
  label: 'Nsight Systems stats (nsys stats)',
  capabilities: { kernels: 'expected' },
  vendor: 'nvidia',
  suite: 'nsys',
  sniff(head) {
    return head.split(/\r?\n/, 2000).some(
      (line) =>
        /^\s*"?Time ?\(%\)"?\s*(,|\s{2,})\s*"?Total Time/.test(line) ||
        /^\s*"?Total \((?:[KMG]i?)?B\)"?\s*,\s*"?Count"?\s*,/.test(line) ||
        /^Processing \[.*\] with \[.*[/\\]reports[/\\]\w+\.py\]/.test(line) ||
        /^\[\d+\/\d+\] Executing '\w+(:\w+)?' stats report/.test(line) ||
        /^\s*\*\* .*\((\w+_sum|\w+_trace|gpukernsum|gpusum|cudaapisum|gpumemtimesum|gpumemsizesum)(:[\w-]+)?\):\s*$/.test(line),
    );
  },
  async read(file, ctx) {
    const collected: Collected = {};
    const parts: string[] = [];
    const notices: Notice[] = [];
    const seen: { part: string; line: number }[] = [];
    const openTable = (table: NsysTableHead, columns: Columns, kind: Kind | undefined, part: string): RowSink | undefined => {
      if (!parts.includes(part)) parts.push(part);
      if (part !== 'unknown-table') seen.push({ part, line: table.headerLine });
      if (!kind) return undefined;
      const sink = collectTable(file.path, table, kind, columns, collected, ctx);
      if (!sink) {
        // One report appears once per run: a second one means two runs' outputs in one file.
        // Summing them would double the run; keeping one would drop the other unseen.
        const start = secondRunStart(seen, scanner.output.runMarks, table.headerLine);
        const from = start.mark ? `the second run starts here ("${start.mark.length > 60 ? `${start.mark.slice(0, 59)}…` : start.mark}")` : 'the second run starts here';
        throw new InputError(
          file.path,
          `the file holds two nsys runs: ${from}, and its ${part} table on line ${table.headerLine} repeats the first run's; expected one run per file: split the file before line ${start.line} and give each run as its own input (or write each run with nsys stats --output PREFIX)`,
          String(start.line),
        );
      }
      return sink;
    };
    const tableSink = (table: NsysTableHead): RowSink | undefined => {
      const columns = findColumns(table.header);
      const { kind, part, byRows } = classify(table, columns);
      if (!byRows) return openTable(table, columns, kind, part);
      // Only a table of calls named by neither report nor columns is held until its end.
      const rows: NsysRow[] = [];
      return {
        row: (row) => void rows.push(row),
        end() {
          const which = apiOrOsrt(rows, columns.name!);
          const sink = openTable(table, columns, which.kind, which.part);
          if (sink) for (const row of rows) sink.row(row);
          sink?.end?.();
        },
      };
    };
    // A bad value is raised once the whole output is scanned: a malformed row anywhere names itself first.
    let failed: { error: unknown } | undefined;
    const guard = (step: () => void) => {
      if (failed) return;
      try {
        step();
      } catch (error) {
        failed = { error };
      }
    };
    const scanner = new NsysScanner(file.path, (table) => {
      let sink: RowSink | undefined;
      guard(() => void (sink = tableSink(table)));
      if (!sink) return undefined;
      const into = sink;
      return { row: (row) => guard(() => into.row(row)), end: () => guard(() => into.end?.()) };
    });
    for await (const lines of lineBatches(file)) for (const line of lines) scanner.push(line);
    const output = scanner.finish();
    if (failed) throw failed.error;
    for (const skip of output.skipped) {
      const read = skip.report ? READ_REPORTS.has(skip.report) : /CUDA|GPU/.test(skip.message);
      if (!read) {
        ctx.count('report-skipped', 'info', `nsys skipped reports this importer does not read (first: ${skip.message})`);
        continue;
      }
      const kernels = skip.report ? ownValue(REPORT_KINDS, skip.report) === 'kernels' : /kernel/i.test(skip.message);
      notices.push({
        code: 'nsys-report-skipped',
        severity: kernels ? 'warning' : 'info',
        message: `${skip.report ? `${skip.report}: ` : ''}${skip.message}`,
      });
    }
    for (const realigned of output.realigned) {
      notices.push({
        code: 'nsys-columns-realigned',
        severity: 'info',
        message: `${realigned.report ? `${realigned.report}: ` : ''}${realigned.message}`,
      });
    }
    for (const elided of output.elided) {
      const kernels = elided.report ? ownValue(REPORT_KINDS, elided.report) === 'kernels' : false;
      notices.push({
        code: 'nsys-table-excerpt',
        severity: kernels ? 'warning' : 'info',
        message: `${elided.report ? `${elided.report}: ` : ''}the table is cut short at line ${elided.line} ("${elided.message}"): rows after it are not in the file, so totals and shares cover the listed rows only`,
      });
    }
    for (const notice of output.notices) {
      if (/Existing SQLite export found/i.test(notice.message)) {
        notices.push({
          code: 'nsys-existing-export',
          severity: 'warning',
          message: `${notice.message} (the tables may come from an older export; rerun nsys stats with --force-export=true)`,
        });
      }
    }
    if (output.skipped.length === 0 && parts.every((part) => part === 'unknown-table')) {
      const where = output.tables[0] ? String(output.tables[0].headerLine) : '1';
      throw new InputError(file.path, 'expected nsys stats output: a report table such as "Time (%),Total Time (ns),Instances,…" or SKIPPED lines', where);
    }

    const kernels = collected.kernels ?? collected.gpuKernels ?? [];
    const capture: CaptureInput = {
      source: { path: file.path, format: 'nsys-stats', parts, tool: 'nsys', ...(output.toolVersion ? { toolVersion: output.toolVersion } : {}) },
      kernels,
      memops: buildMemops(collected),
      apiCalls: collected.apiCalls ?? [],
      notices,
    };
    return capture;
  },
});
