/** Where the fields an nsys table needs sit, found by their labels, with the unit each is printed in. */
import { ownValue } from '../../../model/own-key.js';
import { nsPerUnit } from '../../common/text-tables.js';

/** `Total Time (ns)` → { base: 'Total Time', unit: 'ns' }; `Instances` → { base: 'Instances' }. */
export function splitLabel(label: string): { base: string; unit?: string } {
  const match = /^(.*?)\s*\(([^()]*)\)$/.exec(label.trim());
  return match ? { base: match[1]!, unit: match[2]! } : { base: label.trim() };
}

const BYTES_PER_UNIT: Record<string, number> = { B: 1, KB: 1e3, MB: 1e6, GB: 1e9, KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3 };

export interface Scaled {
  index: number;
  scale: number;
}

/** Where the fields a table needs sit, found by label. */
export interface Columns {
  total?: Scaled;
  size?: Scaled;
  count?: number;
  countLabel?: string;
  min?: Scaled;
  max?: Scaled;
  name?: number;
  nameLabel?: string;
  category?: number;
  grid?: number;
  block?: number;
  style?: number;
  /** `Time (%)`: each row's share of the table's total time (only checked, never read as a share). */
  percent?: number;
}

export function findColumns(header: readonly string[]): Columns {
  const columns: Columns = {};
  let totalUnit = 1;
  header.forEach((label, index) => {
    const { base, unit } = splitLabel(label);
    const timeScale = unit === undefined ? undefined : nsPerUnit(unit);
    if (base === 'Time' && unit === '%') columns.percent = index;
    else if ((base === 'Total Time' || base === 'Sum') && (unit === undefined || timeScale !== undefined)) {
      totalUnit = timeScale ?? 1;
      columns.total = { index, scale: totalUnit };
    } else if (base === 'Total' && unit !== undefined && ownValue(BYTES_PER_UNIT, unit) !== undefined) {
      columns.size = { index, scale: ownValue(BYTES_PER_UNIT, unit)! };
    } else if (['Instances', 'Num Calls', 'Calls', 'Count', 'Operations'].includes(base) && unit === undefined) {
      columns.count = index;
      columns.countLabel = base;
    } else if (base === 'Min' || base === 'Minimum') {
      columns.min = { index, scale: timeScale ?? Number.NaN };
    } else if (base === 'Max' || base === 'Maximum') {
      columns.max = { index, scale: timeScale ?? Number.NaN };
    } else if (['Name', 'Kernel Name', 'Operation', 'Range'].includes(base)) {
      columns.name = index;
      columns.nameLabel = base;
    } else if (base === 'Category') columns.category = index;
    else if (base === 'GridXYZ') columns.grid = index;
    else if (base === 'BlockXYZ') columns.block = index;
    else if (base === 'Style') columns.style = index;
  });
  // Old headers print `Minimum`/`Maximum` without a unit: they share the total's unit.
  for (const key of ['min', 'max'] as const) {
    const column = columns[key];
    if (column && Number.isNaN(column.scale)) column.scale = totalUnit;
  }
  return columns;
}
