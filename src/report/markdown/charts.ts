/**
 * Pictures for the PR comment and the job summary, as mermaid `xychart-beta` blocks (GitHub renders
 * mermaid in both): the kernel-family shares of the baseline against this run, and each side's
 * decode throughput per timed run. A chart is drawn only from numbers the report holds; labels are
 * reduced to characters that cannot end a mermaid string or the code fence.
 */
import { familyLabel } from '../../model/family-ids.js';
import { metricInfo } from '../../model/metrics.js';
import type { Report } from '../../model/report.js';
import { ownValue } from '../../model/own-key.js';

/** Families shown: the largest by either side's share, so the chart stays readable on a phone. */
const MAX_FAMILIES = 6;
/** Timed runs drawn per side. */
const MAX_RUNS = 60;

function label(text: string, max = 28): string {
  const clean = text.replace(/[^\p{L}\p{N} ._/+()&-]+/gu, ' ').replace(/\s+/g, ' ').trim();
  return clean.length <= max ? clean : `${clean.slice(0, max - 1)}…`;
}

const num = (value: number, digits = 1): string => String(Number(value.toFixed(digits)));

function fence(lines: readonly string[]): string {
  return ['```mermaid', ...lines, '```'].join('\n');
}

/** The families whose share moved, baseline against current, as pairs of horizontal bars. */
export function familySharesChart(report: Report): string | undefined {
  const rows = (report.comparison?.rows ?? [])
    .filter((r) => r.kind === 'family-share' && r.baseline !== null && r.current !== null && Number.isFinite(r.baseline) && Number.isFinite(r.current))
    .sort((a, b) => Math.max(b.baseline!, b.current!) - Math.max(a.baseline!, a.current!))
    .slice(0, MAX_FAMILIES);
  if (rows.length === 0) return undefined;
  const categories: string[] = [];
  const values: string[] = [];
  for (const row of rows) {
    const name = label(familyLabel(row.metric.replace(/^family:/, '')));
    categories.push(`"${name} · base"`, `"${name} · head"`);
    values.push(num(row.baseline!), num(row.current!));
  }
  const top = Math.min(100, Math.ceil(Math.max(...rows.map((r) => Math.max(r.baseline!, r.current!))) / 10) * 10 || 10);
  return fence([
    'xychart-beta horizontal',
    '    title "Share of GPU kernel time by family (%): baseline vs this run"',
    `    x-axis [${categories.join(', ')}]`,
    `    y-axis "share of GPU kernel time (%)" 0 --> ${top}`,
    `    bar [${values.join(', ')}]`,
  ]);
}

/** Bounds a little outside the samples, rounded, so the noise and the shift both show. */
function axisRange(values: readonly number[]): [number, number] {
  const low = Math.min(...values);
  const high = Math.max(...values);
  const pad = Math.max((high - low) * 0.1, Math.abs(high) * 0.01, 1e-9);
  const step = 10 ** Math.floor(Math.log10(pad));
  return [Math.max(0, Math.floor((low - pad) / step) * step), Math.ceil((high + pad) / step) * step];
}

/**
 * Both sides' samples of a metric in run order, one line each (baseline first). Mermaid needs both
 * lines as long as the axis, so with unequal counts the first runs of each side are drawn and the
 * title says how many.
 */
export function samplesChart(report: Report, metric = 'decode_tok_s'): string | undefined {
  const base = ownValue(report.comparison?.baselineSamples, metric)?.filter(Number.isFinite);
  const cur = report.metrics.find((m) => m.name === metric)?.samples.filter(Number.isFinite);
  if (!base || !cur || base.length < 2 || cur.length < 2) return undefined;
  const n = Math.min(base.length, cur.length, MAX_RUNS);
  const shown = n < Math.max(base.length, cur.length) ? `, the first ${n} runs of ${base.length} and ${cur.length}` : '';
  const info = metricInfo(metric);
  const unit = label(report.metrics.find((m) => m.name === metric)?.unit ?? '', 16);
  const [low, high] = axisRange([...base.slice(0, n), ...cur.slice(0, n)]);
  const digits = high - low < 10 ? 2 : 1;
  return fence([
    '---',
    'config:',
    '  themeVariables:',
    '    xyChart:',
    '      plotColorPalette: "#8c959f, #0072b2"',
    '---',
    'xychart-beta',
    `    title "${label(info.label, 40)} per timed run: baseline (grey), this run (blue)${shown}"`,
    `    x-axis "timed run" [${Array.from({ length: n }, (_, i) => `"${i + 1}"`).join(', ')}]`,
    `    y-axis "${unit}" ${num(low, digits)} --> ${num(high, digits)}`,
    `    line [${base.slice(0, n).map((v) => num(v, digits)).join(', ')}]`,
    `    line [${cur.slice(0, n).map((v) => num(v, digits)).join(', ')}]`,
  ]);
}

/** Every chart the report has numbers for, in reading order. */
export function reportCharts(report: Report): string[] {
  return [samplesChart(report), familySharesChart(report)].filter((chart): chart is string => chart !== undefined);
}
