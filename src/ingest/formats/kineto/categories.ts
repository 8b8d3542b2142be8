/** Kineto event categories the importer decodes, recognized from their raw bytes. */

export const CAT_PENDING = -1;
export const CAT_SKIP = 0;
/** The scanner could not read the category from the bytes; decode the event to find out. */
export const CAT_UNKNOWN = 1;
export const CAT_KERNEL = 2;
export const CAT_MEMCPY = 3;
export const CAT_MEMSET = 4;
export const CAT_RUNTIME = 5;
export const CAT_DRIVER = 6;
export const CAT_CPU_ANNOTATION = 7;
export const CAT_GPU_ANNOTATION = 8;
/** PyTorch ops on the CPU: read for which op launched each kernel. */
export const CAT_CPU_OP = 9;
/** Python calls (`with_stack=True`): read for which line of the workload launched each kernel. */
export const CAT_PYTHON = 10;

const NAMES: ReadonlyArray<readonly [string, number]> = [
  ['kernel', CAT_KERNEL],
  ['Kernel', CAT_KERNEL], // PyTorch <= ~1.10
  ['gpu_memcpy', CAT_MEMCPY],
  ['Memcpy', CAT_MEMCPY],
  ['gpu_memset', CAT_MEMSET],
  ['Memset', CAT_MEMSET],
  ['cuda_runtime', CAT_RUNTIME],
  ['Runtime', CAT_RUNTIME],
  ['cuda_driver', CAT_DRIVER],
  ['user_annotation', CAT_CPU_ANNOTATION],
  ['gpu_user_annotation', CAT_GPU_ANNOTATION],
  ['cpu_op', CAT_CPU_OP],
  ['Operator', CAT_CPU_OP], // PyTorch <= ~1.10
  ['python_function', CAT_PYTHON],
];

const BY_LENGTH = new Map<number, Array<{ bytes: Buffer; category: number }>>();
for (const [name, category] of NAMES) {
  const list = BY_LENGTH.get(name.length) ?? [];
  list.push({ bytes: Buffer.from(name, 'latin1'), category });
  BY_LENGTH.set(name.length, list);
}

/** Category of the JSON string whose characters are bytes[start, end) (no quotes). */
export function categoryOf(bytes: Buffer, start: number, end: number): number {
  const candidates = BY_LENGTH.get(end - start);
  if (!candidates) return CAT_SKIP;
  outer: for (const { bytes: name, category } of candidates) {
    for (let k = 0; k < name.length; k++) if (bytes[start + k] !== name[k]) continue outer;
    return category;
  }
  return CAT_SKIP;
}

export function categoryOfString(cat: string): number {
  const found = NAMES.find(([name]) => name === cat);
  return found ? found[1] : CAT_SKIP;
}
