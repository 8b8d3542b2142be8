/**
 * Names from outside (metrics, kernels, families) become keys of plain objects in places: read
 * such a key only when the object holds it itself, so `constructor` or `__proto__` is one more
 * name, never a member of Object.prototype.
 */
export function ownValue<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}
