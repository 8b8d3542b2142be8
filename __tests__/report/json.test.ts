/**
 * report.json is built in pieces (one kernel at a time, names referenced rather than copied); its
 * text must be exactly `JSON.stringify(ReportSchema.parse(report), null, 2)` plus a newline, and a
 * broken report must fail with the error the whole-report parse gives.
 */
import { ReportSchema, type Report } from '../../src/model/report.js';
import { serializeReport } from '../../src/report/json.js';
import { finding, HOSTILE, makeReport, row } from './report-factory.js';

const reference = (report: unknown): string => `${JSON.stringify(ReportSchema.parse(report), null, 2)}\n`;
const failure = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected a failure');
};

/** Names that need escaping in JSON, or sit around the length at which the serializer stops copying. */
const NAMES = [
  HOSTILE,
  'quote " and backslash \\ inside a name that is long enough to be referenced rather than copied',
  `control \u0001 char and a lone surrogate \ud800 in a name long enough to be referenced, not copied`,
  `emoji 😀 in a templated name void f<int, float>(int, float) long enough to be referenced here`,
  'x'.repeat(63),
  'x'.repeat(64),
  '',
  'short',
];

describe('serializeReport', () => {
  test.each([
    ['a plain report', makeReport()],
    ['2,000 long names', makeReport({ kernels: 2000, kernelName: (i) => `void at::native::elementwise_kernel<(int)128, (int)4>(instance ${i}) ${'T'.repeat(200)}` })],
    ['names to escape', makeReport({ kernels: NAMES.length, kernelName: (i) => NAMES[i]! })],
    ['no kernels', makeReport({ kernels: 0 })],
    ['findings and a comparison', makeReport({ findings: [finding()], rows: [row(), row({ metric: `kernel:${HOSTILE}`, kind: 'kernel-share', unit: 'pp' })] })],
  ])('%s: the text of a whole-report JSON.stringify', (_, report) => {
    expect(serializeReport(report)).toBe(reference(report));
  });

  test('launch shapes, devices and keys the schema does not know', () => {
    const base = makeReport({ kernels: 4 });
    const report = {
      ...base,
      extra: 'dropped',
      kernels: base.kernels.map((k, i) => ({ ...k, grid: [i + 1, 2, 3], block: [128, 1, 1], device: i % 2, unknown: { nested: [1] } })),
    } as unknown as Report;
    const text = serializeReport(report);
    expect(text).toBe(reference(report));
    expect(text).not.toContain('unknown');
    expect(text).toContain('"grid": [\n        1,\n        2,\n        3\n      ]');
  });

  test('a broken kernel or a broken top level fails as the whole-report parse does', () => {
    const base = makeReport({ kernels: 5 });
    const badKernel = { ...base, kernels: base.kernels.map((k, i) => (i === 3 ? { ...k, totalNs: -1 } : k)) } as Report;
    expect(failure(() => serializeReport(badKernel))).toBe(failure(() => reference(badKernel)));
    expect(failure(() => serializeReport(badKernel))).toContain('"kernels",\n      3,\n      "totalNs"');
    const badTop = { ...base, totalKernelNs: -5, kernels: 'none' } as unknown as Report;
    expect(failure(() => serializeReport(badTop))).toBe(failure(() => reference(badTop)));
  });
});
