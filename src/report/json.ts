/** report.json: validated against the schema before it is written, so a broken report never ships. */
import { ReportSchema, type Report } from '../model/report.js';

const EMPTY_KERNELS = '\n  "kernels": []';
/** Characters JSON.stringify escapes in a string: quote, backslash, controls, lone surrogates. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;
/** Strings at least this long are referenced in place rather than copied into the text around them. */
const SHARED_MIN = 64;
const KERNEL_INDENT = '\n      ';

/**
 * The kernels, each validated, as JSON.stringify(…, null, 2) writes them two levels down; false when
 * one is invalid. A long string value (a kernel name) goes into `parts` as the report's own string
 * and the text between such values is joined per kernel, so the pieces cost the formatting, not a
 * second copy of every name.
 */
function pushKernels(parts: string[], kernels: readonly unknown[]): boolean {
  const schema = ReportSchema.shape.kernels.element;
  // `{\n      "name": ` and `,\n      "totalNs": `, made once per key.
  const keyText = new Map<string, string>();
  const keyed = (key: string, first: boolean): string => {
    const id = first ? `{${key}` : key;
    let text = keyText.get(id);
    if (text === undefined) keyText.set(id, (text = `${first ? '{' : ','}${KERNEL_INDENT}${JSON.stringify(key)}: `));
    return text;
  };
  let pending: string[] = [];
  const flush = () => {
    parts.push(pending.join(''));
    pending = [];
  };
  for (let i = 0; i < kernels.length; i++) {
    const parsed = schema.safeParse(kernels[i]);
    if (!parsed.success) return false;
    const kernel: Record<string, unknown> = parsed.data;
    pending.push(i === 0 ? '[\n    ' : ',\n    ');
    let first = true;
    for (const key of Object.keys(kernel)) {
      const value = kernel[key];
      if (value === undefined || typeof value === 'function' || typeof value === 'symbol') continue;
      pending.push(keyed(key, first));
      first = false;
      if (typeof value === 'string' && value.length >= SHARED_MIN && !NEEDS_ESCAPE.test(value)) {
        pending.push('"');
        flush();
        parts.push(value);
        pending.push('"');
      } else if (typeof value === 'object' && value !== null) {
        pending.push(JSON.stringify(value, null, 2).replaceAll('\n', KERNEL_INDENT));
      } else {
        pending.push(JSON.stringify(value));
      }
    }
    pending.push(first ? '{}' : '\n    }');
    flush();
  }
  parts.push(kernels.length > 0 ? '\n  ]' : '[]');
  return true;
}

/**
 * The text of `JSON.stringify(ReportSchema.parse(report), null, 2)` plus a newline, built so that a
 * report of 100,000 kernels costs little more than its text: each kernel is validated on its own
 * (a parsed copy of the list would sit next to the text), the pieces point at the report's own
 * names, and one join makes a flat string (not a rope that its first reader copies once more).
 */
export function serializeReport(report: Report): string {
  const whole = () => `${JSON.stringify(ReportSchema.parse(report), null, 2)}\n`;
  const rest = ReportSchema.safeParse({ ...report, kernels: [] });
  // A broken report is refused with the error a whole-report parse gives.
  if (!rest.success || !Array.isArray(report.kernels)) return whole();
  const text = JSON.stringify(rest.data, null, 2);
  // Strings in JSON hold no raw line break, so this line is the top-level key.
  const open = text.indexOf(EMPTY_KERNELS) + EMPTY_KERNELS.length - 2;
  const parts = [text.slice(0, open)];
  if (!pushKernels(parts, report.kernels)) return whole();
  parts.push(text.slice(open + 2), '\n');
  return parts.join('');
}
