/**
 * `rocm-smi --csv` output: a `device` column then the union of the cards' labels, one row per card
 * (`card0,…`); commas are stripped from values by rocm-smi, missing keys print `N/A`. The labels are
 * those of `rocm-smi --json`, so each row maps to a sample exactly as a JSON card does. A loop
 * around rocm-smi repeats the header before each snapshot; each snapshot is one sampling instant.
 * Limits: rocm-smi prints no time, so samples carry none; `WARNING:` lines are counted and skipped.
 */
import { InputError } from '../../errors.js';
import type { CaptureInput, UtilSample } from '../../model/capture.js';
import { defineImporter } from '../common/importer.js';
import { cardName, sampleFromCard } from './rocm-smi-json.js';
import { cleanLabel, splitCsvLine } from '../common/text-tables.js';

const CARD_ROW = /^card(\d+)\s*,/;
const HEADER = /^"?device"?\s*,/;
const TOOL_LINE = /^\s*(?:WARNING|NOTICE)\b|^=+|^\s*$/i;

export default defineImporter({
  id: 'rocm-smi-csv',
  label: 'rocm-smi --csv',
  capabilities: { utilization: true },
  vendor: 'amd',
  sniff(head) {
    const lines = head.replace(/^\uFEFF/, '').split(/\r?\n/);
    const at = lines.findIndex((line) => !TOOL_LINE.test(line));
    return at >= 0 && HEADER.test(lines[at]!) && CARD_ROW.test(lines[at + 1] ?? '');
  },
  async read(file, ctx): Promise<CaptureInput> {
    const lines = (await file.text()).replace(/^\uFEFF/, '').split(/\r?\n/);
    let header: string[] | undefined;
    const samples: UtilSample[] = [];
    const names = new Set<string>();
    const cards = new Set<number>();
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      if (TOOL_LINE.test(line)) {
        if (line.trim()) ctx.count('tool-line', 'info', 'rocm-smi WARNING and banner lines are skipped');
        continue;
      }
      const fields = splitCsvLine(line);
      if (!fields) throw new InputError(file.path, 'expected well-formed CSV quoting (a truncated or garbled row)', String(i + 1));
      if (HEADER.test(line)) {
        header = fields.map(cleanLabel);
        continue;
      }
      const card = CARD_ROW.exec(line);
      if (!header || !card) throw new InputError(file.path, `expected a "device,…" header then "cardN,…" rows, got ${JSON.stringify(line.slice(0, 60))}`, String(i + 1));
      if (fields.length !== header.length) {
        throw new InputError(file.path, `expected ${header.length} fields as in the header, got ${fields.length} (a truncated or garbled row)`, String(i + 1));
      }
      const record = Object.fromEntries(header.map((label, k) => [label, fields[k]!.trim()]));
      const device = Number(card[1]);
      cards.add(device);
      const name = cardName(record);
      if (name && name !== 'N/A') names.add(name);
      const sample = sampleFromCard(record, device);
      if (sample) samples.push(sample);
      else ctx.count('card-without-utilization', 'data-loss', `"GPU use (%)" missing or not a 0..100 number (first: card${device} at line ${i + 1})`);
    }
    if (samples.length === 0) throw new InputError(file.path, 'expected at least one card row with a "GPU use (%)" value, found none', '1');
    return {
      source: { path: file.path, format: 'rocm-smi-csv', parts: ['csv'], tool: 'rocm-smi' },
      utilization: samples,
      environment: { vendor: 'amd', gpuCount: cards.size, ...(names.size ? { gpuName: [...names].join(', ') } : {}) },
    };
  },
});
