/**
 * Nsight Compute `ncu --csv` output, `--page details` (default) or `--page raw`, → one NcuResult per
 * profiled launch (ID) and per-kernel sums.
 * details: one row per (result, section, metric) and one per fired rule; metric rows are short
 * (trailing comma) so the reader tolerates ragged rows. Metrics are kept per (section, name) with
 * values in base units (see ncu-units.ts); rule rows carry type, description and estimated speedup.
 * raw: row 1 names the metrics, row 2 their units, then one row per result (section "raw").
 * kernels: per kernel name, instances = results, totalNs = sum of Duration (`gpu__time_duration.sum`).
 * `==PROF==`/`==WARNING==` lines and application output around the CSV are skipped.
 * Limits: ncu durations come from replayed launches (clocks locked to base by default), so they
 * describe one launch's shape, not production time; values printed under a non-English locale
 * (`27.595.520`) stay text.
 */
import { parse } from 'csv-parse/sync';
import { InputError } from '../../errors.js';
import type { CaptureInput, KernelStat, NcuResult } from '../../model/capture.js';
import { defineImporter, type ImportContext } from '../common/importer.js';
import { ncuNumber, normalizeNcuValue } from './ncu/units.js';

const HEADER_START = '"ID","Process ID","Process Name","Host Name","Kernel Name"';
const IDENTITY_COLUMNS = new Set(['ID', 'Process ID', 'Process Name', 'Host Name', 'Kernel Name', 'Kernel Time', 'Context', 'Stream', 'Block Size', 'Grid Size', 'Device', 'CC']);
const DURATION_NAMES = ['gpu__time_duration.sum', 'gpu__time_duration.avg', 'Duration'];

interface Row {
  cells: string[];
  line: number;
}

/** The CSV records after the header, each with its first line; other lines are counted and skipped. */
function csvRows(path: string, lines: string[], headerIndex: number, ctx: ImportContext): { header: string[]; rows: Row[] } {
  const chunks: string[] = [];
  const starts: number[] = [];
  const lineOf: number[] = [];
  let open = false;
  for (let i = headerIndex; i < lines.length; i += 1) {
    const line = lines[i]!;
    if (!open) {
      if (line.trim() === '') continue;
      if (!line.startsWith('"')) {
        if (/^==[A-Z]+==/.test(line)) ctx.count('profiler-message', 'info', line.slice(0, 120));
        else ctx.count('non-csv-line', 'info', 'application output between CSV rows is skipped');
        continue;
      }
      starts.push(i + 1);
    }
    chunks.push(line);
    lineOf.push(i + 1);
    // An odd number of quotes leaves a field open: the record continues on the next line.
    if ((line.split('"').length - 1) % 2 === 1) open = !open;
  }
  let records: string[][];
  try {
    // The delimiter is named: discovering it costs ~1 µs a byte until the first record ends.
    records = parse(chunks.join('\n'), { relax_column_count: true, record_delimiter: '\n' });
  } catch (error) {
    const at = (error as { lines?: number }).lines;
    const line = at !== undefined ? lineOf[Math.min(at, lineOf.length) - 1] : undefined;
    throw new InputError(path, `expected a well-formed ncu CSV (${(error as Error).message.split('\n')[0]})`, line ? String(line) : undefined);
  }
  const [header, ...rest] = records;
  return { header: header!, rows: rest.map((cells, k) => ({ cells, line: starts[k + 1]! })) };
}

function dim3(text: string | undefined): [number, number, number] | undefined {
  const match = /^\(\s*(\d+),\s*(\d+),\s*(\d+)\s*\)$/.exec(text?.trim() ?? '');
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
}

function resultFor(results: Map<number, NcuResult>, cells: string[], col: Map<string, number>): NcuResult | null {
  const cell = (name: string): string | undefined => {
    const index = col.get(name);
    const value = index === undefined ? undefined : cells[index]?.trim();
    return value === '' ? undefined : value;
  };
  const idText = cell('ID');
  if (idText === undefined || !/^\d+$/.test(idText)) return null;
  const id = Number(idText);
  let result = results.get(id);
  if (!result) {
    result = { id, kernel: cell('Kernel Name') ?? '', metrics: [], rules: [] };
    for (const [key, column] of [['device', 'Device'], ['cc', 'CC'], ['grid', 'Grid Size'], ['block', 'Block Size']] as const) {
      const value = cell(column);
      if (value !== undefined) result[key] = value;
    }
    results.set(id, result);
  }
  return result;
}

function readDetails(path: string, header: string[], rows: Row[], ctx: ImportContext): Map<number, NcuResult> {
  const col = new Map(header.map((name, i) => [name, i]));
  for (const name of ['Section Name', 'Metric Name', 'Metric Unit', 'Metric Value']) {
    if (!col.has(name)) throw new InputError(path, `expected a "${name}" column in the ncu details header`);
  }
  const at = (cells: string[], name: string): string => cells[col.get(name) ?? -1]?.trim() ?? '';
  const results = new Map<number, NcuResult>();
  for (const { cells, line } of rows) {
    const result = resultFor(results, cells, col);
    if (!result) throw new InputError(path, `expected a result ID in the first column, got ${JSON.stringify(cells[0] ?? '')}`, String(line));
    const section = at(cells, 'Section Name');
    const ruleName = at(cells, 'Rule Name');
    if (ruleName) {
      const speedup = ncuNumber(at(cells, 'Estimated Speedup'));
      const speedupType = at(cells, 'Estimated Speedup Type');
      result.rules.push({
        section,
        name: ruleName,
        type: at(cells, 'Rule Type'),
        description: at(cells, 'Rule Description'),
        ...(speedupType ? { speedupType } : {}),
        ...(speedup !== undefined ? { estimatedSpeedupPercent: speedup } : {}),
      });
      continue;
    }
    const name = at(cells, 'Metric Name');
    if (!name) {
      ctx.count('empty-row', 'info', 'rows with neither a metric nor a rule are skipped');
      continue;
    }
    result.metrics.push({ section, name, ...normalizeNcuValue(at(cells, 'Metric Unit'), at(cells, 'Metric Value')) });
  }
  return results;
}

function readRaw(path: string, header: string[], rows: Row[], ctx: ImportContext): Map<number, NcuResult> {
  const [units, ...data] = rows;
  if (!units || units.cells[0]?.trim() !== '') {
    throw new InputError(path, 'expected the ncu --page raw units row (empty ID cell) right after the header', String(units?.line ?? 2));
  }
  const col = new Map(header.map((name, i) => [name, i]));
  const metricColumns = header.map((name, i) => ({ name, i })).filter(({ name }) => !IDENTITY_COLUMNS.has(name));
  const results = new Map<number, NcuResult>();
  for (const { cells, line } of data) {
    const result = resultFor(results, cells, col);
    if (!result) throw new InputError(path, `expected a result ID in the first column, got ${JSON.stringify(cells[0] ?? '')}`, String(line));
    if (cells.length !== header.length) ctx.count('ragged-raw-row', 'data-loss', `a raw row has ${cells.length} fields, the header ${header.length}`);
    for (const { name, i } of metricColumns) {
      const text = cells[i]?.trim() ?? '';
      if (text === '') continue;
      result.metrics.push({ section: 'raw', name, ...normalizeNcuValue(units.cells[i] ?? '', text) });
    }
  }
  return results;
}

function durationNs(result: NcuResult): number | undefined {
  for (const name of DURATION_NAMES) {
    const metric = result.metrics.find((m) => m.name === name && m.unit === 'ns' && typeof m.value === 'number');
    if (metric) return metric.value as number;
  }
  return undefined;
}

function kernelStats(results: NcuResult[], ctx: ImportContext): KernelStat[] {
  const byName = new Map<string, KernelStat & { heaviest: number }>();
  for (const result of results) {
    let ns = durationNs(result);
    if (ns !== undefined && ns < 0) {
      ctx.count('negative-duration', 'data-loss', `result ${result.id} has a negative Duration (${ns} ns); it is left out of its kernel's total`);
      ns = undefined;
    } else if (ns === undefined) ctx.count('result-without-duration', 'data-loss', `result ${result.id} has no Duration; its kernel's total is short by it`);
    let stat = byName.get(result.kernel);
    if (!stat) {
      stat = { name: result.kernel, totalNs: 0, instances: 0, heaviest: -1 };
      byName.set(result.kernel, stat);
    }
    stat.instances += 1;
    if (ns === undefined) continue;
    stat.totalNs += ns;
    stat.minNs = Math.min(stat.minNs ?? Infinity, ns);
    stat.maxNs = Math.max(stat.maxNs ?? 0, ns);
    if (ns > stat.heaviest) {
      stat.heaviest = ns;
      const grid = dim3(result.grid);
      const block = dim3(result.block);
      if (grid) stat.grid = grid;
      if (block) stat.block = block;
      if (result.device && /^\d+$/.test(result.device)) stat.device = Number(result.device);
    }
  }
  return [...byName.values()].map(({ heaviest: _heaviest, ...stat }) => stat).sort((a, b) => b.totalNs - a.totalNs);
}

/**
 * Why an ncu log holds no results, in ncu's own words: its first `==ERROR==` line (ncu failed), else
 * its "No kernels were profiled" warning, else the missing CSV header.
 */
function noResults(path: string, lines: readonly string[]): InputError {
  const errorAt = lines.findIndex((line) => line.startsWith('==ERROR=='));
  if (errorAt >= 0) {
    const more = lines.slice(errorAt + 1).filter((line) => line.startsWith('==ERROR==')).length;
    const rest = more ? ` (and ${more} more ==ERROR== line${more > 1 ? 's' : ''})` : '';
    return new InputError(path, `ncu failed and wrote no results; it said: ${lines[errorAt]!.trim().slice(0, 240)}${rest}`, String(errorAt + 1));
  }
  const noKernelsAt = lines.findIndex((line) => /^==WARNING== No kernels were profiled/.test(line));
  if (noKernelsAt >= 0) {
    return new InputError(path, 'ncu profiled no kernels (==WARNING== No kernels were profiled): check --kernel-name, --launch-skip and --launch-count, and that the program ran on the GPU', String(noKernelsAt + 1));
  }
  return new InputError(path, `expected an ncu CSV header starting ${HEADER_START} (was ncu run with --csv?)`, '1');
}

export default defineImporter({
  id: 'ncu-csv',
  label: 'Nsight Compute CSV (details or raw page)',
  capabilities: { deepDive: true },
  vendor: 'nvidia',
  sniff(head) {
    // Also an ncu log that failed or matched no kernel, read to say so (a good run's log written
    // beside an -o report is not claimed).
    return head.startsWith(HEADER_START) || head.includes(`\n${HEADER_START}`) || /^==ERROR== |^==WARNING== No kernels were profiled/m.test(head);
  },
  async read(file, ctx): Promise<CaptureInput> {
    const lines = (await file.text()).split(/\r?\n/);
    const headerIndex = lines.findIndex((line) => line.startsWith(HEADER_START));
    if (headerIndex < 0) throw noResults(file.path, lines);
    for (const line of lines.slice(0, headerIndex)) {
      if (/^==[A-Z]+==/.test(line)) ctx.count('profiler-message', 'info', line.slice(0, 120));
    }
    const { header, rows } = csvRows(file.path, lines, headerIndex, ctx);
    const page = header.includes('Metric Name') && header.includes('Metric Value') ? 'details' : 'raw';
    const byId = page === 'details' ? readDetails(file.path, header, rows, ctx) : readRaw(file.path, header, rows, ctx);
    const results = [...byId.values()].sort((a, b) => a.id - b.id);
    if (results.length === 0) throw new InputError(file.path, 'expected at least one profiled result after the ncu header, found none', String(headerIndex + 2));
    return {
      source: { path: file.path, format: 'ncu-csv', parts: [page], tool: 'Nsight Compute' },
      ncu: results,
      kernels: kernelStats(results, ctx),
      environment: { vendor: 'nvidia' },
    };
  },
});
