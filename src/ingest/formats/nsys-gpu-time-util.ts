/**
 * `nsys analyze -r gpu_time_util` output (CSV or column layout, alone or among other rules).
 * The rule splits each device's first-to-last GPU-op range into chunks and lists the chunks whose
 * in-use percentage is below its threshold (default 50%), coalescing neighbours into one row with a
 * duration-weighted percentage: `Row#, In-Use (%), Duration (ns), Start (ns), PID, Device ID, Context ID`.
 * gpuTimeUtilPercent = the duration-weighted mean of In-Use over all rows. When every chunk is below
 * the threshold (a host-bound run) the rows cover the whole range and this is the overall figure;
 * when rows leave gaps (busier regions left out), the gaps count at the threshold, the least they
 * held, so the figure is a lower bound for the whole range, and a notice says so.
 * "No problems detected" (nothing below the threshold) gives a notice and no percentage. With
 * `--format csv` nsys prints no such line: the rule's `Processing [...]` line with nothing after it
 * is the CSV spelling of the same answer, and is read as such (threshold from `(threshold=N)`, else
 * the rule's default of 50%).
 */
import { InputError } from '../../errors.js';
import type { CaptureInput, Notice } from '../../model/capture.js';
import { defineImporter } from '../common/importer.js';
import { scanNsysOutput, splitLabel, type NsysTable } from './nsys/tables.js';
import { nsPerUnit, parseNumber } from '../common/text-tables.js';

const RULE = 'gpu_time_util';
/** The rule's threshold when the command gives none (`nsys analyze --help-rules gpu_time_util`). */
const DEFAULT_THRESHOLD_PERCENT = 50;

function isUtilTable(table: NsysTable): boolean {
  return table.report === RULE || table.header.some((label) => /^In[- ]Use \(%\)$/i.test(label));
}

interface Region {
  percent: number;
  durationNs: number;
  startNs?: number;
  key: string;
}

function readRegions(path: string, table: NsysTable): Region[] {
  const find = (pattern: RegExp) => table.header.findIndex((label) => pattern.test(splitLabel(label).base));
  const inUse = find(/^In[- ]Use$/i);
  const duration = find(/^Duration$/i);
  const start = find(/^Start$/i);
  const keyColumns = [find(/^PID$/i), find(/^Device ID$/i), find(/^Context ID$/i)].filter((i) => i >= 0);
  if (inUse < 0 || duration < 0) {
    throw new InputError(path, `expected gpu_time_util columns "In-Use (%)" and "Duration (ns)", got ${JSON.stringify(table.header.join(','))}`, String(table.headerLine));
  }
  const scaleOf = (index: number) => {
    const unit = splitLabel(table.header[index]!).unit;
    return unit === undefined ? 1 : nsPerUnit(unit);
  };
  const durationScale = scaleOf(duration);
  const startScale = start >= 0 ? scaleOf(start) : 1;
  if (durationScale === undefined || startScale === undefined) {
    throw new InputError(path, `expected a time unit in ${JSON.stringify(table.header[duration])}`, String(table.headerLine));
  }
  if (table.rows.length === 0) throw new InputError(path, 'expected gpu_time_util rows under the header (a truncated table)', String(table.headerLine));
  return table.rows.map((row) => {
    const number = (index: number) => {
      const value = parseNumber(row.cells[index]!, true);
      if (value === undefined || value < 0) {
        throw new InputError(path, `expected a number in column "${table.header[index]}", got ${JSON.stringify(row.cells[index]!.trim())}`, String(row.line));
      }
      return value;
    };
    return {
      percent: number(inUse),
      durationNs: number(duration) * durationScale,
      ...(start >= 0 ? { startNs: number(start) * startScale } : {}),
      key: keyColumns.map((i) => row.cells[i]!.trim()).join('/'),
    };
  });
}

/** Time between listed regions of one device: regions the rule left out because they were busier. */
function unlistedNs(regions: readonly Region[]): number {
  const byKey = new Map<string, Region[]>();
  for (const region of regions) {
    if (region.startNs === undefined) continue;
    const list = byKey.get(region.key);
    if (list) list.push(region);
    else byKey.set(region.key, [region]);
  }
  let gaps = 0;
  for (const list of byKey.values()) {
    list.sort((a, b) => a.startNs! - b.startNs!);
    for (let i = 1; i < list.length; i++) {
      const gap = list[i]!.startNs! - (list[i - 1]!.startNs! + list[i - 1]!.durationNs);
      // Chunk edges are rounded to whole ns; allow that much slack.
      if (gap > Math.max(1000, 1e-3 * list[i - 1]!.durationNs)) gaps += gap;
    }
  }
  return gaps;
}

/** The rule ran, and nothing at all followed its Processing line: no table, no prose, no error. */
function ranSilently(output: ReturnType<typeof scanNsysOutput>): boolean {
  return output.processed.some((p) => p.report === RULE) && output.tables.length === 0 && output.skipped.length === 0 && !output.prose.some((p) => p.report === RULE);
}

export default defineImporter({
  id: 'nsys-gpu-time-util',
  label: 'Nsight Systems gpu_time_util analysis (nsys analyze)',
  capabilities: { utilization: true },
  vendor: 'nvidia',
  suite: 'nsys',
  sniff(head) {
    return (
      /^\s*"?Row#"?\s*(,|\s{2,})\s*"?In[- ]Use \(%\)"?/m.test(head) ||
      /^\s*\*\* .*\(gpu_time_util\):\s*$/m.test(head) ||
      /^Processing \[.*\] with \[.*[/\\]gpu_time_util\.py\]/m.test(head)
    );
  },
  async read(file, ctx) {
    const output = scanNsysOutput(file.path, await file.text());
    const parts = [...new Set(output.tables.map((table) => table.report ?? (isUtilTable(table) ? RULE : 'unknown-table')))];
    const notices: Notice[] = [];
    const tables = output.tables.filter(isUtilTable);
    for (const skip of output.skipped.filter((s) => s.report === RULE || s.report === undefined)) {
      notices.push({ code: 'nsys-gpu-util-skipped', severity: 'warning', message: `gpu_time_util: ${skip.message}` });
    }
    const threshold = output.prose.find((p) => p.report === RULE && /below (\d+(?:\.\d+)?)%/.test(p.message));
    const thresholdText = threshold ? /below (\d+(?:\.\d+)?)%/.exec(threshold.message)![1] + '%' : 'its threshold';
    const stated = threshold ? /below (\d+(?:\.\d+)?)%/.exec(threshold.message)![1] : /threshold=(\d+(?:\.\d+)?)/.exec(output.processed.find((p) => p.report === RULE)?.message ?? '')?.[1];
    const thresholdPercent = stated !== undefined ? Number(stated) : DEFAULT_THRESHOLD_PERCENT;
    const noProblems = output.prose.find((p) => p.report === RULE && /no problems detected/i.test(p.message));

    let gpuTimeUtilPercent: number | undefined;
    if (tables.length > 0) {
      if (tables.length > 1) ctx.count('several-util-tables', 'info', `${tables.length} gpu_time_util tables (several reports?) are averaged together`);
      const regions = tables.flatMap((table) => readRegions(file.path, table));
      const totalNs = regions.reduce((sum, r) => sum + r.durationNs, 0);
      // The time between listed regions was at least at the threshold (the rule lists only regions
      // below it): counted at the threshold, the figure is a lower bound for the whole capture.
      const gapNs = unlistedNs(regions);
      const weighted =
        totalNs > 0
          ? (regions.reduce((sum, r) => sum + r.percent * r.durationNs, 0) + thresholdPercent * gapNs) / (totalNs + gapNs)
          : regions.reduce((sum, r) => sum + r.percent, 0) / regions.length;
      if (weighted > 100) ctx.count('util-above-100', 'info', 'concurrent GPU operations add up past 100%; clipped to 100');
      gpuTimeUtilPercent = Math.min(100, weighted);
      if (gapNs > 0) {
        notices.push({
          code: 'nsys-gpu-util-partial',
          severity: 'info',
          message: `gpu_time_util lists only regions below ${thresholdText}; ${Math.round(gapNs)} ns between listed regions were busier (counted at ${thresholdPercent}%), so ${gpuTimeUtilPercent.toFixed(1)}% is a lower bound for the capture`,
        });
      }
    } else if (noProblems) {
      notices.push({ code: 'nsys-gpu-util-ok', severity: 'info', message: `gpu_time_util: ${noProblems.message}` });
    } else if (notices.length === 0 && ranSilently(output)) {
      const threshold = /threshold=(\d+(?:\.\d+)?)/.exec(output.processed.find((p) => p.report === RULE)!.message)?.[1] ?? String(DEFAULT_THRESHOLD_PERCENT);
      notices.push({ code: 'nsys-gpu-util-ok', severity: 'info', message: `gpu_time_util: no region below ${threshold}% in use (the rule ran and listed none)` });
    } else if (notices.length === 0) {
      throw new InputError(file.path, 'expected gpu_time_util output: a "Row#,In-Use (%),Duration (ns),…" table, a "no problems" line or a SKIPPED line', '1');
    }

    const capture: CaptureInput = {
      source: { path: file.path, format: 'nsys-gpu-time-util', parts: parts.length ? parts : [RULE], tool: 'nsys', ...(output.toolVersion ? { toolVersion: output.toolVersion } : {}) },
      notices,
      environment: { vendor: 'nvidia' },
      ...(gpuTimeUtilPercent !== undefined ? { gpuTimeUtilPercent } : {}),
    };
    return capture;
  },
});
