/**
 * `rocm-smi --json` output (`{"card0": {"GPU use (%)": "12", …}, "system": {…}}`) → one utilization
 * sample per card per document. A loop around rocm-smi writes several documents back to back or one
 * per line; each becomes one sampling instant. Keys are the text labels of rocm-smi and drift
 * across releases, so they are matched case-insensitively by prefix; values are strings.
 * Mapping: `GPU use (%)` → gpuPercent, `GPU Memory Read/Write Activity (%)` (older `GPU memory use (%)`)
 * → memoryPercent, `sclk clock speed:` `(1500Mhz)` → smClockMhz, `Average Graphics Package Power (W)`
 * (MI300: `Current Socket Graphics Package Power (W)`) → powerW, `VRAM Total Used Memory (B)` → bytes.
 * rocm-smi prints no time; a loop that prints one before each document (`date`, `date +%s`) gives
 * that document's samples their time. Other text between documents is counted and skipped.
 * Limits: without such lines samples carry no time; AMD reports no clock-event reasons.
 */
import { InputError } from '../../errors.js';
import type { CaptureInput, UtilSample } from '../../model/capture.js';
import { defineImporter } from '../common/importer.js';
import { isRecord, numberFrom, percentFrom, splitJsonValues } from '../common/json-values.js';

const CARD_KEY = /^card(\d+)$/;

/** The value of the first key that starts with one of the prefixes, in prefix order. */
function field(card: Record<string, unknown>, ...prefixes: string[]): string | undefined {
  const keys = Object.keys(card);
  for (const prefix of prefixes) {
    const key = keys.find((k) => k.toLowerCase().startsWith(prefix));
    if (key !== undefined && typeof card[key] === 'string') return card[key] as string;
  }
  return undefined;
}

/** Epoch seconds from a line a shell loop printed: `date +%s`, `date`, or an ISO time. */
function timeFromLine(text: string): number | undefined {
  const line = text.trim();
  if (/^\d{9,11}(?:\.\d+)?$/.test(line)) return Number(line);
  if (!/\d{1,2}:\d{2}/.test(line)) return undefined;
  const ms = Date.parse(line);
  return Number.isFinite(ms) ? ms / 1000 : undefined;
}

/** `(1500Mhz)` or `1500` → 1500 (MHz). */
function clockMhz(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const match = /^\(?\s*(\d+(?:\.\d+)?)\s*(mhz|ghz)?\s*\)?$/i.exec(value.trim());
  if (!match) return undefined;
  return Number(match[1]) * (match[2]?.toLowerCase() === 'ghz' ? 1000 : 1);
}

/** One card's labels (as `--json` keys or `--csv` columns) as a utilization sample; undefined without `GPU use (%)`. */
export function sampleFromCard(card: Record<string, unknown>, device: number): UtilSample | undefined {
  const gpuPercent = percentFrom(field(card, 'gpu use'));
  if (gpuPercent === undefined) return undefined;
  const sample: UtilSample = { device, gpuPercent, reasons: [] };
  const memoryPercent = percentFrom(field(card, 'gpu memory read/write activity', 'gpu memory use'));
  if (memoryPercent !== undefined) sample.memoryPercent = memoryPercent;
  const clock = clockMhz(field(card, 'sclk clock speed'));
  if (clock !== undefined) sample.smClockMhz = clock;
  const power = numberFrom(field(card, 'average graphics package power', 'current socket graphics package power'));
  if (power !== undefined) sample.powerW = power;
  const used = numberFrom(field(card, 'vram total used memory'));
  if (used !== undefined) sample.memoryUsedBytes = used;
  return sample;
}

/** The card's product name: `Card series` (`Card Series` in --csv), older `Device Name`. */
export function cardName(card: Record<string, unknown>): string | undefined {
  return field(card, 'card series', 'device name');
}

export default defineImporter({
  id: 'rocm-smi-json',
  label: 'rocm-smi --json',
  capabilities: { utilization: true },
  vendor: 'amd',
  sniff(head) {
    const start = head.indexOf('{');
    if (start < 0) return false;
    // Before the JSON only rocm-smi's `WARNING:` lines or a loop's time line may come.
    const before = head.slice(0, start).split(/\r?\n/);
    const allowed = (line: string) => line.trim() === '' || /^\s*(?:WARNING|NOTICE)\b/i.test(line) || timeFromLine(line) !== undefined;
    if (!before.every(allowed)) return false;
    return /^\{\s*"card\d+"\s*:\s*\{/.test(head.slice(start));
  },
  async read(file, ctx): Promise<CaptureInput> {
    const { values, strayLines, truncatedAt } = splitJsonValues(file.path, await file.text());
    // The time printed last before each document, by the document's first line.
    const timeBefore = new Map<number, number>();
    let pending: number | undefined;
    let strayIndex = 0;
    for (const { line } of values) {
      while (strayIndex < strayLines.length && strayLines[strayIndex]!.line < line) {
        const stray = strayLines[strayIndex++]!.text;
        const t = timeFromLine(stray);
        if (t !== undefined) pending = t;
        else if (/^\s*(?:WARNING|NOTICE)\b/i.test(stray)) ctx.count('tool-warning', 'info', stray.slice(0, 120));
        else ctx.count('non-json-line', 'info', 'text between JSON documents is skipped');
      }
      if (pending !== undefined) timeBefore.set(line, pending);
      pending = undefined;
    }
    if (truncatedAt !== undefined) ctx.count('truncated-document', 'data-loss', `the last JSON document (line ${truncatedAt}) is cut off`);
    const samples: UtilSample[] = [];
    const names = new Set<string>();
    let driver: string | undefined;
    const cards = new Set<number>();
    for (const { value, line } of values) {
      if (!isRecord(value)) throw new InputError(file.path, 'expected a rocm-smi JSON object keyed by card0, card1, …', String(line));
      const cardKeys = Object.keys(value).filter((key) => CARD_KEY.test(key));
      if (cardKeys.length === 0) throw new InputError(file.path, 'expected rocm-smi JSON with "cardN" keys, found none', String(line));
      const system = value['system'];
      if (isRecord(system)) driver ??= field(system, 'driver version');
      for (const key of cardKeys) {
        const card = value[key];
        if (!isRecord(card)) throw new InputError(file.path, `expected "${key}" to be an object of strings`, String(line));
        const device = Number(CARD_KEY.exec(key)![1]);
        cards.add(device);
        const name = cardName(card);
        if (name) names.add(name);
        const sample = sampleFromCard(card, device);
        if (!sample) {
          ctx.count('card-without-utilization', 'data-loss', `"GPU use (%)" missing or not a 0..100 number (first: ${key} at line ${line})`);
          continue;
        }
        const t = timeBefore.get(line);
        if (t !== undefined) sample.t = t;
        samples.push(sample);
      }
    }
    if (samples.length === 0) throw new InputError(file.path, 'expected at least one card with a "GPU use (%)" value, found none', '1');
    return {
      source: { path: file.path, format: 'rocm-smi-json', parts: ['json'], tool: 'rocm-smi' },
      utilization: samples,
      environment: {
        vendor: 'amd',
        gpuCount: cards.size,
        ...(names.size ? { gpuName: [...names].join(', ') } : {}),
        ...(driver ? { driver } : {}),
      },
    };
  },
});
