/**
 * `nsys stats` output, CSV or column layout, one table or a whole stdout stream. Tables map as:
 * cuda_gpu_kern_sum / gpukernsum / cuda_gpu_kern_gb_sum → kernels (rows aggregated by name, so the
 * 2022.x GridXYZ/BlockXYZ split rows become one kernel); cuda_gpu_sum / gpusum → kernels
 * (CUDA_KERNEL) and memops (MEMORY_OPER) when no kernel or memop table is present;
 * cuda_api_sum / cudaapisum → apiCalls; cuda_gpu_mem_time_sum / cuda_gpu_mem_size_sum → memops.
 * Other reports (osrt_sum, nvtx_sum, …) are listed in source.parts only. `SKIPPED:` lines become
 * notices. Times are converted from the header's unit (`--timeunit`) to ns; the Time (%) column is
 * never read as a share (shares are recomputed downstream from totals), only added up to tell a
 * kernel table cut short at a row boundary (its rows fall short of 100 %, with a notice).
 * The output is read line by line from the file's stream: only the aggregated rows are held (and a
 * table of calls named by neither report nor columns, until its rows say whether it is cuda_api_sum).
 * A file holding two tables of one kind holds two runs (outputs appended, e.g. `nsys profile
 * --stats=true` consoles pasted under Markdown headings): each run becomes its own capture, from the
 * line where it starts (its heading or nsys's first line of it), never summed into the other.
 * A `...` line under a table (a pasted excerpt) ends it, with a notice that rows are missing.
 */
import { ownValue } from '../../model/own-key.js';
import { InputError } from '../../errors.js';
import type { CaptureInput, Notice } from '../../model/capture.js';
import { defineImporter } from '../common/importer.js';
import { buildMemops, CANONICAL, collectTable, type Collected, type Kind } from './nsys/collect.js';
import { findColumns, type Columns } from './nsys/columns.js';
import { NsysScanner, type NsysRow, type NsysTableHead, type RowSink } from './nsys/tables.js';
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

/** The tables, notices and rows of one run of the file, from the line where it starts. */
interface Run {
  startLine: number;
  /** The heading or nsys line that opens it (none for the first run). */
  mark?: string;
  collected: Collected;
  parts: string[];
  /** What each read table holds (its kind) or, unread, its report: one of each per run. */
  seen: Set<string>;
}

function newRun(startLine: number, mark?: string): Run {
  return { startLine, ...(mark !== undefined ? { mark } : {}), collected: {}, parts: [], seen: new Set() };
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
    const runs: Run[] = [newRun(1)];
    let lastTableLine = 0;
    const openTable = (table: NsysTableHead, columns: Columns, kind: Kind | undefined, part: string): RowSink | undefined => {
      let run = runs.at(-1)!;
      if (part !== 'unknown-table') {
        // One report appears once per run: a second one opens the next run (outputs appended), which
        // begins at the first heading or nsys run line after the table before it.
        const key = kind ?? part;
        if (run.seen.has(key)) {
          const mark = scanner.output.runMarks.find((m) => m.line > lastTableLine && m.line < table.headerLine);
          run = newRun(mark?.line ?? table.headerLine, mark?.message);
          runs.push(run);
        }
        run.seen.add(key);
        lastTableLine = table.headerLine;
      }
      if (!run.parts.includes(part)) run.parts.push(part);
      if (!kind) return undefined;
      return collectTable(file.path, table, kind, columns, run.collected, ctx);
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
    // Each notice goes with the run whose lines hold it.
    const runAt = (line: number): Run => [...runs].reverse().find((run) => run.startLine <= line) ?? runs[0]!;
    const notices = new Map<Run, Notice[]>(runs.map((run) => [run, []]));
    const notice = (line: number, entry: Notice) => void notices.get(runAt(line))!.push(entry);
    for (const skip of output.skipped) {
      const read = skip.report ? READ_REPORTS.has(skip.report) : /CUDA|GPU/.test(skip.message);
      if (!read) {
        ctx.count('report-skipped', 'info', `nsys skipped reports this importer does not read (first: ${skip.message})`);
        continue;
      }
      const kernels = skip.report ? ownValue(REPORT_KINDS, skip.report) === 'kernels' : /kernel/i.test(skip.message);
      notice(skip.line, {
        code: 'nsys-report-skipped',
        severity: kernels ? 'warning' : 'info',
        message: `${skip.report ? `${skip.report}: ` : ''}${skip.message}`,
      });
    }
    for (const realigned of output.realigned) {
      notice(realigned.line, {
        code: 'nsys-columns-realigned',
        severity: 'info',
        message: `${realigned.report ? `${realigned.report}: ` : ''}${realigned.message}`,
      });
    }
    for (const elided of output.elided) {
      const kernels = elided.report ? ownValue(REPORT_KINDS, elided.report) === 'kernels' : false;
      notice(elided.line, {
        code: 'nsys-table-excerpt',
        severity: kernels ? 'warning' : 'info',
        message: `${elided.report ? `${elided.report}: ` : ''}the table is cut short at line ${elided.line} ("${elided.message}"): rows after it are not in the file, so totals and shares cover the listed rows only`,
      });
    }
    // A table cut at a row boundary reads as whole; its own Time (%) column says what is missing.
    for (const run of runs) {
      for (const table of run.collected.shortTables ?? []) {
        if (output.elided.some((e) => e.line > table.headerLine && e.line <= table.lastLine + 1)) continue;
        notices.get(run)!.push({
          code: 'nsys-table-excerpt',
          severity: 'warning',
          message: `${table.part}: the ${table.rows} rows of the table at line ${table.headerLine} add up to ${table.percent} % in its Time (%) column, not 100 %: rows after line ${table.lastLine} are missing (the file is cut short), so totals and shares cover the listed rows only`,
        });
      }
    }
    for (const line of output.notices) {
      if (/Existing SQLite export found/i.test(line.message)) {
        notice(line.line, {
          code: 'nsys-existing-export',
          severity: 'warning',
          message: `${line.message} (the tables may come from an older export; rerun nsys stats with --force-export=true)`,
        });
      }
    }
    if (output.skipped.length === 0 && runs.every((run) => run.parts.every((part) => part === 'unknown-table'))) {
      const where = output.tables[0] ? String(output.tables[0].headerLine) : '1';
      throw new InputError(file.path, 'expected nsys stats output: a report table such as "Time (%),Total Time (ns),Instances,…" or SKIPPED lines', where);
    }
    if (runs.length > 1) {
      const starts = runs.map((run) => `line ${run.startLine}${run.mark ? ` ("${run.mark.length > 60 ? `${run.mark.slice(0, 59)}…` : run.mark}")` : ''}`);
      notices.get(runs[0]!)!.unshift({
        code: 'nsys-runs-in-file',
        severity: 'info',
        message: `the file holds ${runs.length} nsys runs, one after another (from ${starts.join(', ')}): each is read as its own capture, as if given as its own file`,
      });
    }

    return runs.map((run, i): CaptureInput => ({
      source: {
        path: file.path,
        format: 'nsys-stats',
        parts: run.parts,
        tool: 'nsys',
        ...(output.toolVersion ? { toolVersion: output.toolVersion } : {}),
        ...(runs.length > 1 ? { run: i + 1 } : {}),
      },
      kernels: run.collected.kernels ?? run.collected.gpuKernels ?? [],
      memops: buildMemops(run.collected),
      apiCalls: run.collected.apiCalls ?? [],
      // Nsight Systems traces CUDA: the GPU is NVIDIA's, which a baseline of another vendor must see.
      environment: { vendor: 'nvidia' },
      notices: notices.get(run)!,
    }));
  },
});
