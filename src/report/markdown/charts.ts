/**
 * Pictures for the PR comment and the job summary, as mermaid `xychart-beta` blocks (GitHub renders
 * mermaid in both): the kernel-family shares of the baseline against this run, and each side's
 * decode throughput per timed run. A chart is drawn only from numbers the report holds; labels are
 * reduced to characters that cannot end a mermaid string or the code fence.
 */
import { familyLabel } from '../../model/family-ids.js';
import { metricInfo } from '../../model/metrics.js';
import { rowSubject, type Report } from '../../model/report.js';
import { ownValue } from '../../model/own-key.js';

/** Families shown: the largest by either side's share, so the chart stays readable on a phone. */
const MAX_FAMILIES = 6;
/** Timed runs drawn per side. */
const MAX_RUNS = 60;

function label(text: string, max = 28): string {
  const clean = text.replace(/[^\p{L}\p{N} ._/+()&-]+/gu, ' ').replace(/\s+/g, ' ').trim();
  return clean.length <= max ? clean : `${clean.slice(0, max - 1)}…`;
}

/**
 * A number as mermaid's xychart reads one: `[+-]?digits[.digits]`, never an exponent (`1e+21` ends
 * the chart). Callers keep values within ±1e15 by scaling (see axisScale), where toFixed is plain.
 */
const num = (value: number, digits = 1): string => {
  const text = String(Number(value.toFixed(digits)));
  return /e/i.test(text) ? value.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: digits }) : text;
};

/** The baseline in grey, this run in blue (distinct for colour-blind readers too), in every chart. */
const SIDE_COLOURS = ['---', 'config:', '  themeVariables:', '    xyChart:', '      plotColorPalette: "#8c959f, #0072b2"', '---'];

function fence(lines: readonly string[]): string {
  return ['```mermaid', ...lines, '```'].join('\n');
}

/** A share as drawn: within 0–100 % (a report read from elsewhere may claim anything). */
const share = (value: number): number => Math.min(100, Math.max(0, value));

/** The families whose share moved, baseline against current, as pairs of horizontal bars. */
export function familySharesChart(report: Report): string | undefined {
  const rows = (report.comparison?.rows ?? [])
    .filter((r) => r.kind === 'family-share' && r.baseline !== null && r.current !== null && Number.isFinite(r.baseline) && Number.isFinite(r.current))
    .sort((a, b) => Math.max(b.baseline!, b.current!) - Math.max(a.baseline!, a.current!))
    .slice(0, MAX_FAMILIES);
  if (rows.length === 0) return undefined;
  const categories: string[] = [];
  // Two series on alternating categories, so each side has its own colour (a zero bar draws nothing).
  const base: string[] = [];
  const head: string[] = [];
  for (const row of rows) {
    // Short labels: the axis takes a fixed part of the chart's width, and a longer one is cut.
    const subject = rowSubject(row);
    const name = label(familyLabel(subject?.type === 'family' ? subject.id : row.metric), 28);
    categories.push(`"${name} · base"`, `"${name} · head"`);
    base.push(num(share(row.baseline!)), '0');
    head.push('0', num(share(row.current!)));
  }
  const top = Math.min(100, Math.ceil(Math.max(...rows.map((r) => Math.max(share(r.baseline!), share(r.current!)))) / 10) * 10 || 10);
  return fence([
    ...SIDE_COLOURS,
    'xychart-beta horizontal',
    '    title "GPU kernel time by family (%): baseline (grey), this run (blue)"',
    `    x-axis [${categories.join(', ')}]`,
    `    y-axis "share of GPU kernel time (%)" 0 --> ${top}`,
    `    bar [${base.join(', ')}]`,
    `    bar [${head.join(', ')}]`,
  ]);
}

/**
 * Bounds a little outside the samples, rounded, so the noise and the shift both show: the pad is
 * relative to the values (1e-9 tok/s samples keep their spread), and the axis starts at 0 at the
 * lowest only when no sample is negative.
 */
function axisRange(values: readonly number[]): [number, number] | undefined {
  const low = Math.min(...values);
  const high = Math.max(...values);
  const pad = Math.max((high - low) * 0.1, Math.max(Math.abs(low), Math.abs(high)) * 0.01) || 1;
  const step = 10 ** Math.floor(Math.log10(pad));
  const bottom = Math.floor((low - pad) / step) * step;
  const range: [number, number] = [low >= 0 ? Math.max(0, bottom) : bottom, Math.ceil((high + pad) / step) * step];
  return range.every(Number.isFinite) && range[0] < range[1] ? range : undefined;
}

/**
 * The power of 1000 the axis is drawn in, when its numbers are too large or too small to write
 * plainly (mermaid reads no exponent): values are divided by it and the axis title names it.
 */
function axisScale([low, high]: [number, number]): { factor: number; title: string } {
  const exponent = Math.floor(Math.log10(Math.max(Math.abs(low), Math.abs(high))));
  if (exponent < 6 && exponent >= -2) return { factor: 1, title: '' };
  const power = 3 * Math.floor(exponent / 3);
  return { factor: 10 ** power, title: ` (×10^${power})` };
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
  const range = axisRange([...base.slice(0, n), ...cur.slice(0, n)]);
  if (!range) return undefined;
  const scale = axisScale(range);
  const [low, high] = range.map((v) => v / scale.factor) as [number, number];
  // Enough decimals that the axis's span shows: two significant digits of it, at least one.
  const digits = Math.min(6, Math.max(1, 2 - Math.floor(Math.log10(high - low))));
  const drawn = (v: number) => num(v / scale.factor, digits);
  return fence([
    ...SIDE_COLOURS,
    'xychart-beta',
    `    title "${label(info.label, 40)} per timed run: baseline (grey), this run (blue)${shown}"`,
    `    x-axis "timed run" [${Array.from({ length: n }, (_, i) => `"${i + 1}"`).join(', ')}]`,
    `    y-axis "${unit}${scale.title}" ${num(low, digits)} --> ${num(high, digits)}`,
    `    line [${base.slice(0, n).map(drawn).join(', ')}]`,
    `    line [${cur.slice(0, n).map(drawn).join(', ')}]`,
  ]);
}

/** Every chart the report has numbers for, in reading order. */
export function reportCharts(report: Report): string[] {
  return [samplesChart(report), familySharesChart(report)].filter((chart): chart is string => chart !== undefined);
}
