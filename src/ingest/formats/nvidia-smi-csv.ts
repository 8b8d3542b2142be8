/**
 * `nvidia-smi --query-gpu=… --format=csv[,nounits] [-l S | -lms MS]` logs → utilization samples.
 * One row per GPU per sample: `utilization.gpu` → gpuPercent, `utilization.memory` → memoryPercent,
 * `clocks.current.sm` → smClockMhz, `power.draw` → powerW, `memory.used` → bytes, `timestamp` → t,
 * `index` (else the order of `pci.bus_id`) → device; `clocks_event_reasons.active` (or the older
 * `clocks_throttle_reasons.active`) mask and the per-reason `Active` fields → reasons.
 * Units come from the value (`79.56 W`) or the header (`power.draw [W]`).
 * A `--format=csv,noheader` log names no columns: the user gives the `--query-gpu` list
 * (`smiColumns`); `nounits` values then take the unit nvidia-smi uses for the field (MiB, MHz, W, %).
 * Without `index` or `pci.bus_id`, several GPUs are told apart by position: nvidia-smi prints one
 * row per GPU, in index order, at each sample, so rows fall in groups of equal size and spacing.
 * Limits: `timestamp` is local time without a zone, read as if UTC (only differences matter); rows
 * without a utilization value (MIG mode, `[N/A]`) cannot become samples and are counted.
 */
import { InputError, UsageError } from '../../errors.js';
import type { CaptureInput, UtilSample } from '../../model/capture.js';
import { NVML_REASON_BITS, reasonsFromMask } from '../../model/throttle.js';
import { defineImporter, type ImportContext } from '../common/importer.js';

interface Column {
  field: string;
  unit?: string;
}

const FIELD_TOKEN = /^[a-z][a-z0-9_]*(?:\.[a-z0-9_]+)*(?: \[[^\]]+\])?$/;
const QUERY_GROUP = /^(?:utilization|memory|clocks|clocks_event_reasons|clocks_throttle_reasons|power|temperature|pci|enforced|fan)\./;
const SMI_TIMESTAMP = /^(\d{4})\/(\d{2})\/(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?$/;
const REASON_PREFIX = /^clocks_(?:event|throttle)_reasons\./;
const REASON_NAMES = new Set(NVML_REASON_BITS.map(([, name]) => name));

function parseHeader(line: string): Column[] | null {
  const tokens = line.split(',').map((token) => token.trim());
  if (tokens.length > 1 && !line.includes(', ')) return null;
  if (!tokens.every((token) => FIELD_TOKEN.test(token))) return null;
  if (!tokens.some((token) => QUERY_GROUP.test(token))) return null;
  return tokens.map((token) => {
    const match = /^(\S+)(?: \[([^\]]+)\])?$/.exec(token)!;
    return match[2] ? { field: match[1]!, unit: match[2] } : { field: match[1]! };
  });
}

/** The unit nvidia-smi prints in the header of each field group (kept when `nounits` drops it from values). */
function defaultUnit(field: string): string | undefined {
  if (/^utilization\./.test(field)) return '%';
  if (/^memory\.(used|total|free|reserved)$/.test(field)) return 'MiB';
  if (/^clocks\.(current\.|max\.|applications\.|default_applications\.)?(sm|gr|graphics|mem|memory|video)$/.test(field)) return 'MHz';
  if (/^(power\.|enforced\.power)/.test(field)) return 'W';
  return undefined;
}

/**
 * The `--query-gpu` list a noheader log was written with: `timestamp,utilization.gpu,memory.used`,
 * also as typed on the nvidia-smi command line (`--query-gpu=…`).
 */
export function parseSmiColumns(value: string, name = '--smi-columns'): string[] {
  const fields = value
    .trim()
    .replace(/^--query-gpu[= ]/, '')
    .split(',')
    .map((field) => field.trim().replace(/ \[[^\]]*\]$/, ''))
    .filter(Boolean);
  const bad = fields.find((field) => !FIELD_TOKEN.test(field));
  if (fields.length === 0 || bad !== undefined) {
    throw new UsageError(`${name}: expected the nvidia-smi --query-gpu list, e.g. timestamp,utilization.gpu,memory.used, got ${JSON.stringify(value)}`);
  }
  if (!fields.includes('utilization.gpu')) throw new UsageError(`${name}: expected utilization.gpu among the fields, got ${JSON.stringify(value)}`);
  return fields;
}

function columnsFromQuery(fields: readonly string[]): Column[] {
  return fields.map((field) => {
    const unit = defaultUnit(field);
    return unit ? { field, unit } : { field };
  });
}

/** Rows in one group per sample: positions within a group are GPUs. */
const MAX_GPUS_BY_POSITION = 16;

/**
 * How many GPUs a log without `index` holds: the smallest group size for which groups start at an
 * even pace (90 % of the starts within half an interval of the median) and each group is
 * printed well within one interval. Undefined when no size fits.
 */
export function gpusByPosition(times: ReadonlyArray<number | undefined>): number | undefined {
  if (times.some((t) => t === undefined)) return undefined;
  const t = times as number[];
  for (let n = 1; n <= MAX_GPUS_BY_POSITION && n * 3 <= t.length; n++) {
    const starts: number[] = [];
    let spread = 0;
    for (let i = 0; i + n <= t.length; i += n) {
      starts.push(t[i]!);
      const group = t.slice(i, i + n);
      spread = Math.max(spread, Math.max(...group) - Math.min(...group));
    }
    const steps = starts.slice(1).map((start, i) => start - starts[i]!);
    const sorted = [...steps].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    if (!(median > 0)) continue;
    const even = steps.filter((step) => step >= median * 0.5 && step <= median * 1.5).length;
    if (even >= 0.9 * steps.length && spread < median * 0.5) return n;
  }
  return undefined;
}

function firstLine(text: string): { line: string; number: number } | null {
  const lines = text.split(/\r?\n/);
  const index = lines.findIndex((line) => line.trim() !== '');
  return index < 0 ? null : { line: lines[index]!.trim(), number: index + 1 };
}

/** Values nvidia-smi prints instead of a number: `[N/A]`, `[Not Supported]`, `[Unknown Error]`, … */
function isMissing(cell: string): boolean {
  return cell === '' || /^\[.*\]$/.test(cell) || /^n\/?a$/i.test(cell);
}

const SCALE: Record<string, number> = {
  '%': 1,
  b: 1,
  kib: 1024,
  mib: 1024 ** 2,
  gib: 1024 ** 3,
  mhz: 1,
  ghz: 1000,
  khz: 0.001,
  w: 1,
  mw: 0.001,
  kw: 1000,
};

/** A number in the column's base unit (%, bytes, MHz, W), or undefined when the unit is unknown. */
function quantity(cell: string, headerUnit: string | undefined): number | undefined {
  const match = /^(-?\d+(?:\.\d+)?)\s*(\S+)?$/.exec(cell);
  if (!match) return undefined;
  const unit = (match[2] ?? headerUnit ?? '').toLowerCase();
  const scale = unit === '' ? 1 : SCALE[unit];
  return scale === undefined ? undefined : Number(match[1]) * scale;
}

function parseTimestamp(cell: string): number | undefined {
  const m = SMI_TIMESTAMP.exec(cell);
  if (!m) return undefined;
  const ms = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!);
  return ms / 1000 + (m[7] ? Number(`0.${m[7]}`) : 0);
}

/** Orders reason names like the NVML bit table, so masks and per-reason fields merge predictably. */
function orderReasons(reasons: Set<string>): string[] {
  const known = NVML_REASON_BITS.map(([, name]) => name).filter((name) => reasons.has(name));
  return [...known, ...[...reasons].filter((name) => !REASON_NAMES.has(name)).sort()];
}

interface RowResult {
  sample?: UtilSample;
  name?: string;
  driver?: string;
}

function readRow(columns: Column[], cells: string[], devices: Map<string, number>, ctx: ImportContext): RowResult {
  const byField = new Map<string, { cell: string; unit?: string }>();
  columns.forEach((column, i) => {
    if (!byField.has(column.field)) byField.set(column.field, { cell: cells[i]!, unit: column.unit });
  });
  const present = (field: string): { cell: string; unit?: string } | undefined => {
    const entry = byField.get(field);
    if (!entry) return undefined;
    if (isMissing(entry.cell)) {
      ctx.count('value-not-available', 'info', `${field} printed as ${entry.cell || 'an empty cell'}; the field is left out`);
      return undefined;
    }
    return entry;
  };
  const number = (...fields: string[]): number | undefined => {
    for (const field of fields) {
      const entry = present(field);
      if (!entry) continue;
      const value = quantity(entry.cell, entry.unit);
      if (value === undefined) ctx.count('unreadable-value', 'data-loss', `${field}: ${JSON.stringify(entry.cell)} is not a number in a known unit`);
      return value;
    }
    return undefined;
  };

  const result: RowResult = {};
  result.name = present('name')?.cell;
  result.driver = present('driver_version')?.cell;
  const gpuPercent = number('utilization.gpu');
  if (gpuPercent === undefined || gpuPercent < 0 || gpuPercent > 100) {
    ctx.count('row-without-utilization', 'data-loss', 'rows without a 0..100 utilization.gpu value are not samples');
    return result;
  }
  const sample: UtilSample = { device: 0, gpuPercent, reasons: [] };
  const stamp = present('timestamp');
  if (stamp) {
    const t = parseTimestamp(stamp.cell);
    if (t === undefined) ctx.count('unreadable-value', 'data-loss', `timestamp: ${JSON.stringify(stamp.cell)}`);
    else sample.t = t;
  }
  const index = present('index');
  const busId = present('pci.bus_id');
  if (index && /^\d+$/.test(index.cell)) sample.device = Number(index.cell);
  else if (busId) {
    if (!devices.has(busId.cell)) devices.set(busId.cell, devices.size);
    sample.device = devices.get(busId.cell)!;
  }
  const memoryPercent = number('utilization.memory');
  if (memoryPercent !== undefined && memoryPercent >= 0 && memoryPercent <= 100) sample.memoryPercent = memoryPercent;
  const smClock = number('clocks.current.sm', 'clocks.sm');
  if (smClock !== undefined) sample.smClockMhz = smClock;
  const power = number('power.draw', 'power.draw.instant', 'power.draw.average');
  if (power !== undefined) sample.powerW = power;
  const memoryUsed = number('memory.used');
  if (memoryUsed !== undefined) sample.memoryUsedBytes = memoryUsed;

  const reasons = new Set<string>();
  for (const prefix of ['clocks_event_reasons', 'clocks_throttle_reasons']) {
    const mask = present(`${prefix}.active`);
    if (!mask) continue;
    if (/^0x[0-9a-f]+$/i.test(mask.cell)) reasonsFromMask(BigInt(mask.cell)).forEach((r) => reasons.add(r));
    else ctx.count('unreadable-value', 'data-loss', `${prefix}.active: ${JSON.stringify(mask.cell)} is not a hex mask`);
  }
  for (const column of columns) {
    if (!REASON_PREFIX.test(column.field)) continue;
    const reason = column.field.replace(REASON_PREFIX, '');
    if (reason === 'active' || reason === 'supported') continue;
    const entry = present(column.field);
    if (entry?.cell === 'Active') reasons.add(reason);
  }
  sample.reasons = orderReasons(reasons);
  result.sample = sample;
  return result;
}

export default defineImporter({
  id: 'nvidia-smi-csv',
  label: 'nvidia-smi --query-gpu CSV',
  capabilities: { utilization: true },
  vendor: 'nvidia',
  sniff(head) {
    const first = firstLine(head);
    if (!first) return false;
    // A `noheader` log is claimed too, so that reading it can say what is missing.
    return parseHeader(first.line) !== null || /^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}\.\d{3}, /.test(first.line);
  },
  async read(file, ctx): Promise<CaptureInput> {
    const text = await file.text();
    const first = firstLine(text);
    if (!first) throw new InputError(file.path, 'expected an nvidia-smi --query-gpu CSV, the file is blank', '1');
    let columns = parseHeader(first.line);
    const fromQuery = !columns && ctx.options.smiColumns?.length ? columnsFromQuery(ctx.options.smiColumns) : undefined;
    if (!columns && !fromQuery) {
      throw new InputError(
        file.path,
        `expected an nvidia-smi --query-gpu header line such as "timestamp, index, utilization.gpu [%]", got ${JSON.stringify(first.line.slice(0, 60))}; a log written with --format=csv,noheader does not name its columns: pass the --query-gpu list it was written with as --smi-columns (e.g. --smi-columns timestamp,utilization.gpu,memory.used; action input smi-columns)`,
        String(first.number),
      );
    }
    columns ??= fromQuery!;
    // A noheader log's first line is already a row.
    const firstRow = fromQuery ? first.number - 1 : first.number;
    let headerLine = fromQuery ? '' : first.line;
    if (!columns.some((c) => c.field === 'utilization.gpu')) {
      throw new InputError(file.path, 'expected a utilization.gpu column in the nvidia-smi query', String(first.number));
    }
    const samples: UtilSample[] = [];
    const names: string[] = [];
    let driver: string | undefined;
    const devices = new Map<string, number>();
    const lines = text.split(/\r?\n/);
    for (let i = firstRow; i < lines.length; i += 1) {
      const line = lines[i]!.trim();
      if (line === '') continue;
      if (line === headerLine) {
        ctx.count('repeated-header', 'info', 'header lines repeated between samples are skipped');
        continue;
      }
      const header = parseHeader(line);
      if (header) {
        if (!header.some((c) => c.field === 'utilization.gpu')) {
          throw new InputError(file.path, 'expected a utilization.gpu column in the nvidia-smi query', String(i + 1));
        }
        ctx.count('changed-header', 'info', 'a new header line changes the columns of the rows after it');
        columns = header;
        headerLine = line;
        continue;
      }
      const cells = line.split(',').map((cell) => cell.trim());
      if (fromQuery && cells.length !== columns.length && samples.length === 0) {
        throw new InputError(file.path, `expected ${columns.length} fields as in --smi-columns (${columns.map((c) => c.field).join(',')}), got ${cells.length}`, String(i + 1));
      }
      if (cells.length !== columns.length) {
        ctx.count('malformed-row', 'data-loss', `a row has a different number of fields than its header (first at line ${i + 1})`);
        continue;
      }
      const row = readRow(columns, cells, devices, ctx);
      if (row.name && !names.includes(row.name)) names.push(row.name);
      driver ??= row.driver;
      if (row.sample) samples.push(row.sample);
    }
    if (samples.length === 0) {
      throw new InputError(file.path, 'expected at least one row with a utilization.gpu value, found none', String(first.number + 1));
    }
    let deviceKnown = columns.some((c) => c.field === 'index' || c.field === 'pci.bus_id');
    if (!deviceKnown) {
      const gpus = gpusByPosition(samples.map((s) => s.t));
      if (gpus !== undefined && gpus > 1) {
        samples.forEach((sample, i) => (sample.device = i % gpus));
        ctx.count('devices-by-position', 'info', `no index column: ${gpus} GPUs told apart by their position in each sample`);
      }
      deviceKnown = gpus !== undefined;
    }
    return {
      source: { path: file.path, format: 'nvidia-smi-csv', parts: [fromQuery ? 'query-gpu-noheader' : 'query-gpu'], tool: 'nvidia-smi', ...(driver ? { toolVersion: driver } : {}) },
      utilization: samples,
      environment: {
        vendor: 'nvidia',
        ...(names.length ? { gpuName: names.join(', ') } : {}),
        ...(driver ? { driver } : {}),
        ...(deviceKnown ? { gpuCount: new Set(samples.map((s) => s.device)).size } : {}),
      },
    };
  },
});
