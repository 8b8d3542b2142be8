/** Reads the real kernel tables in __tests__/fixtures/kernel-names (see PROVENANCE.md there). */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';

export const KERNEL_FIXTURES = fileURLToPath(new URL('../fixtures/kernel-names/', import.meta.url));

export interface KernelRow {
  name: string;
  totalNs: number;
  instances: number;
}

export function kernelFixtureFiles(): string[] {
  return readdirSync(KERNEL_FIXTURES).filter((f) => /\.(csv|tsv)$/.test(f));
}

/** Rows of a .tsv extract, an nsys kern_sum CSV (stdout noise before the header) or a rocprof stats CSV. */
export function loadKernelRows(file: string): KernelRow[] {
  const text = readFileSync(join(KERNEL_FIXTURES, file), 'utf8');
  if (file.endsWith('.tsv')) {
    return text
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => {
        const [ns, instances, name] = line.split('\t');
        return { name: name!, totalNs: Number(ns), instances: Number(instances) };
      });
  }
  const lines = text.split(/\r?\n/);
  const header = lines.findIndex((line) => /^"?(?:Time \(%\)|Name)"?,/.test(line));
  const records = parse(lines.slice(header).join('\n'), { columns: true, skip_empty_lines: true }) as Record<string, string>[];
  return records.map((r) => ({
    name: r['Name']!,
    totalNs: Number(r['Total Time (ns)'] ?? r['TotalDurationNs']),
    instances: Number(r['Instances'] ?? r['Calls']),
  }));
}
