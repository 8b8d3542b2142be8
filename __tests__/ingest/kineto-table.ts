/**
 * Test helper: reads PyTorch's `key_averages().table()` text (the `.kernels.txt` next to each H200
 * trace), independently of the importer, to cross-check per-kernel totals.
 */
export interface TableRow {
  /** As printed: names over 120 characters are cut to 117 and end in `...`. */
  name: string;
  selfCpuNs: number;
  cpuTotalNs: number;
  selfCudaNs: number;
  /** Half a unit of the last printed digit of Self CUDA, in ns. */
  selfCudaToleranceNs: number;
  calls: number;
}

const UNIT_NS: Record<string, number> = { ns: 1, us: 1e3, ms: 1e6, s: 1e9 };

function parseTime(cell: string): { ns: number; toleranceNs: number } {
  const match = /^(\d+)(?:\.(\d+))?(ns|us|ms|s)$/.exec(cell);
  if (!match) throw new Error(`not a time: ${cell}`);
  const [, whole, fraction = '', unit] = match;
  const scale = UNIT_NS[unit!]!;
  return { ns: Number(`${whole}.${fraction || '0'}`) * scale, toleranceNs: 0.5 * 10 ** -fraction.length * scale };
}

// Name, then ten cells: Self CPU %, Self CPU, CPU total %, CPU total, CPU time avg, Self CUDA,
// Self CUDA %, CUDA total, CUDA time avg, # of Calls. Cells never contain spaces; names may.
const ROW = /^\s*(.+?)\s+(\S+%)\s+(\S+)\s+(\S+%)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+%)\s+(\S+)\s+(\S+)\s+(\d+)\s*$/;

export function parseKernelTable(text: string): TableRow[] {
  const rows: TableRow[] = [];
  for (const line of text.split('\n')) {
    const match = ROW.exec(line);
    if (!match || match[1] === 'Name') continue;
    const selfCuda = parseTime(match[7]!);
    rows.push({
      name: match[1]!,
      selfCpuNs: parseTime(match[3]!).ns,
      cpuTotalNs: parseTime(match[5]!).ns,
      selfCudaNs: selfCuda.ns,
      selfCudaToleranceNs: selfCuda.toleranceNs,
      calls: Number(match[11]),
    });
  }
  return rows;
}

/**
 * Rows of GPU work (kernels, memcpy, memset): no CPU time of their own, some CUDA time. The GPU
 * projection of step annotations (`ProfilerStep*`) looks the same but is not GPU work.
 */
export function deviceRows(rows: TableRow[]): TableRow[] {
  return rows.filter((row) => row.selfCpuNs === 0 && row.cpuTotalNs === 0 && row.selfCudaNs > 0 && row.name !== 'ProfilerStep*');
}

/** True when a full name is the one a (possibly cut) table name stands for. */
export function nameMatches(tableName: string, fullName: string): boolean {
  return tableName.endsWith('...') ? fullName.startsWith(tableName.slice(0, -3)) : fullName === tableName;
}
