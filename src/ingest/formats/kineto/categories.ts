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

/** The categories by their name's length (an array index: one load per event, no map). */
const BY_LENGTH: Array<Array<{ bytes: Buffer; category: number }> | undefined> = [];
for (const [name, category] of NAMES) (BY_LENGTH[name.length] ??= []).push({ bytes: Buffer.from(name, 'latin1'), category });

/** Category of the JSON string whose characters are bytes[start, end) (no quotes). */
export function categoryOf(bytes: Buffer, start: number, end: number): number {
  const length = end - start;
  const candidates = length < BY_LENGTH.length ? BY_LENGTH[length] : undefined;
  if (candidates === undefined) return CAT_SKIP;
  outer: for (let c = 0; c < candidates.length; c++) {
    const { bytes: name, category } = candidates[c]!;
    for (let k = 0; k < length; k++) if (bytes[start + k] !== name[k]) continue outer;
    return category;
  }
  return CAT_SKIP;
}

export function categoryOfString(cat: string): number {
  const found = NAMES.find(([name]) => name === cat);
  return found ? found[1] : CAT_SKIP;
}
