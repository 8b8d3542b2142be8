/**
 * `max generate [--profile]` console output. The metrics report (`Prompt size: …` to
 * `Total Throughput: … req/s`) becomes metric samples; with `--profile`, the ranked GPU kernel table
 * becomes kernels (plus one `[other kernels not listed]` row for what the top N leaves out), the
 * Python/CPU table becomes cpuFunctions, and the profiler's notes and errors become notices.
 * Several profiled runs in one log add their tables together (with a notice) and pool their metrics.
 * A report cut off (a paste that stops before `Total Throughput`, or mid-line) keeps the metrics
 * printed in full; a warning names the ones missing.
 * Limits: the GPU table holds totals and call counts only (no min/max, no launch shapes), rounded to
 * 2 decimals; `n/a` metrics are skipped and counted. Generated text and logs are ignored.
 */
import { InputError } from '../../errors.js';
import type { CaptureInput, CpuFunction, KernelStat, MetricSample, Notice } from '../../model/capture.js';
import type { MetricName } from '../../model/metrics.js';
import { createImportContext, defineImporter, type ImportContext } from '../common/importer.js';
import { CPU_EMPTY, CPU_TITLE, GPU_TITLE, maxVersion, profilerNotice, readCpuTable, readGpuKernelTable } from './max/console.js';
import { nsPerUnit, parseNumber, splitLines } from '../common/text-tables.js';

interface MetricLine {
  name: MetricName;
  /** What the report prints after the value: a time unit, or fixed text. */
  unit: 'time' | 'tokens per second' | 'req/s' | 'none';
}

const METRIC_LINES: Record<string, MetricLine> = {
  'Prompt size': { name: 'prompt_tokens', unit: 'none' },
  'Output size': { name: 'output_tokens', unit: 'none' },
  'Startup time': { name: 'startup_ms', unit: 'time' },
  'Time to first token': { name: 'ttft_ms', unit: 'time' },
  'Prompt eval throughput (context-encoding)': { name: 'prefill_tok_s', unit: 'tokens per second' },
  'Time per Output Token': { name: 'tpot_ms', unit: 'time' },
  'Eval throughput (token-generation)': { name: 'decode_tok_s', unit: 'tokens per second' },
  'Total Latency': { name: 'latency_ms', unit: 'time' },
  'Total Throughput': { name: 'request_throughput', unit: 'req/s' },
};

const METRIC_LINE = new RegExp(
  `^(${Object.keys(METRIC_LINES).map((label) => label.replace(/[()]/g, '\\$&')).join('|')}): (\\S+)(?: (.*?))?\\s*$`,
);
const LAST_METRIC = 'Total Throughput';

/** One metric line as a sample; undefined (and counted) for `n/a`, `nan` and `inf`. */
function readMetric(path: string, match: RegExpExecArray, lineNo: number, ctx: ImportContext): MetricSample | undefined {
  const label = match[1]!;
  const spec = METRIC_LINES[label]!;
  const text = match[2]!;
  const unit = (match[3] ?? '').trim();
  if (/^(n\/a|nan|-?inf)$/i.test(text)) {
    ctx.count('metric-not-available', 'info', `"${label}" was printed as ${text} and is left out`);
    return undefined;
  }
  const value = parseNumber(text);
  if (value === undefined) throw new InputError(path, `expected a number after "${label}:", got ${JSON.stringify(text)}`, String(lineNo));
  if (spec.unit === 'time') {
    const scale = nsPerUnit(unit);
    if (scale === undefined) throw new InputError(path, `expected a time unit (ms) after "${label}: ${text}", got ${JSON.stringify(unit)}`, String(lineNo));
    return { name: spec.name, value: (value * scale) / 1e6 };
  }
  if (spec.unit !== 'none' && unit !== spec.unit) {
    throw new InputError(path, `expected "${spec.unit}" after "${label}: ${text}", got ${JSON.stringify(unit)}`, String(lineNo));
  }
  return { name: spec.name, value };
}

/** The index of the last line when the text stops inside it (no final newline) and it starts like a metric line. */
function unterminatedMetricLine(text: string, lines: readonly string[]): number | undefined {
  if (/\n\s*$/.test(text)) return undefined;
  let last = lines.length - 1;
  while (last >= 0 && lines[last]!.trim() === '') last--;
  if (last < 0) return undefined;
  const line = lines[last]!;
  const partialLabel = Object.keys(METRIC_LINES).some((label) => `${label}: `.startsWith(line) || line.startsWith(`${label}:`));
  return partialLabel && line.length > 0 ? last : undefined;
}

export default defineImporter({
  id: 'max-generate',
  label: 'MAX generate console output',
  capabilities: { kernels: 'optional', metrics: true, tokensCountSteps: true },
  suite: 'max',
  sniff(head) {
    if (/^=+ Serving Benchmark Result =+/m.test(head) || /^Successful requests:/m.test(head)) return false;
    if (/^=== Top \d+ GPU kernels \(/m.test(head) || /^=== Top \d+ Python\/CPU functions \(/m.test(head)) return true;
    if (/^=== Python\/CPU functions: no samples captured ===/m.test(head)) return true;
    if (/^Note: .*only Python\/CPU profile will be captured/m.test(head)) return true;
    return /^Prompt size: \d/m.test(head) && /^(Total Latency|Time to first token|Startup time): /m.test(head);
  },
  async read(file, ctx) {
    const text = await file.text();
    const lines = splitLines(text);
    const lastLine = unterminatedMetricLine(text, lines);
    let cutLine: number | undefined;
    const kernels: KernelStat[] = [];
    const cpuFunctions: CpuFunction[] = [];
    const metrics: MetricSample[] = [];
    const notices: Notice[] = [];
    const parts = new Set<string>();
    let toolVersion: string | undefined;
    let lastMetricLabel: string | undefined;
    let lastContentLine = '';
    let cpuTitleLine: number | undefined;

    for (let i = 0; i < lines.length; ) {
      const line = lines[i]!;
      if (line.trim() !== '') lastContentLine = line;
      if (GPU_TITLE.test(line)) {
        if (parts.has('gpu-kernel-table')) {
          notices.push({ code: 'max-several-profiles', severity: 'info', message: `a second GPU kernel table (line ${i + 1}) is added to the first: several profiled runs in one log` });
        }
        const table = readGpuKernelTable(file.path, lines, i, ctx);
        kernels.push(...table.kernels);
        parts.add('gpu-kernel-table');
        i = table.next;
        continue;
      }
      if (CPU_TITLE.test(line)) {
        cpuTitleLine ??= i + 1;
        const table = readCpuTable(file.path, lines, i);
        cpuFunctions.push(...table.functions);
        parts.add('cpu-table');
        i = table.next;
        continue;
      }
      if (CPU_EMPTY.test(line)) {
        parts.add('cpu-table');
        notices.push({ code: 'max-no-cpu-samples', severity: 'info', message: 'Python/CPU functions: no samples captured' });
      }
      let metric = METRIC_LINE.exec(line);
      if (i === lastLine) {
        // The file stops inside this line: read it if it is whole, else it is where the paste was cut.
        try {
          if (!metric) throw new Error('a partial label');
          readMetric(file.path, metric, i + 1, createImportContext(file.path));
        } catch {
          cutLine = i;
          metric = null;
        }
      }
      if (metric) {
        const sample = readMetric(file.path, metric, i + 1, ctx);
        if (sample) metrics.push(sample);
        lastMetricLabel = metric[1];
        parts.add('metrics');
      }
      const notice = profilerNotice(line);
      if (notice) notices.push(notice);
      toolVersion ??= maxVersion(line);
      i++;
    }

    // A report cut short at the end of the file: what was printed in full is read, the rest named.
    const endsInReport = METRIC_LINE.test(lastContentLine) || cutLine !== undefined;
    if (lastMetricLabel && endsInReport && lastMetricLabel !== LAST_METRIC) {
      const labels = Object.keys(METRIC_LINES);
      const missing = labels.slice(labels.indexOf(lastMetricLabel) + 1);
      const where = cutLine !== undefined ? `line ${cutLine + 1} is cut off mid-line` : `the file ends after "${lastMetricLabel}"`;
      const message = `the metrics report is cut off (${where}): ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing; the ${metrics.length} metrics printed in full are read`;
      ctx.count('metrics-cut-off', 'data-loss', message);
      notices.push({ code: 'max-metrics-cut-off', severity: 'warning', message });
    }
    // --profile prints the GPU kernel table after the Python/CPU one, or a note on why there is none.
    const saidWhy = notices.some((notice) => notice.severity !== 'info');
    if (cpuTitleLine !== undefined && !parts.has('gpu-kernel-table') && !saidWhy) {
      ctx.count(
        'kernel-table-missing',
        'data-loss',
        `the Python/CPU table of a --profile run is here (line ${cpuTitleLine}), but neither the GPU kernel table that follows it nor a note on why there is none: the log is cut short`,
      );
    }
    if (parts.size === 0 && notices.length === 0) {
      throw new InputError(file.path, 'expected MAX generate output: a metrics report or a "=== Top N GPU kernels" table', '1');
    }

    const capture: CaptureInput = {
      source: { path: file.path, format: 'max-generate', parts: [...parts], tool: 'max', ...(toolVersion ? { toolVersion } : {}) },
      kernels,
      metrics,
      cpuFunctions,
      notices,
    };
    return capture;
  },
});
