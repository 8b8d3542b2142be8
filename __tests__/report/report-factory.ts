/** Synthetic reports for the renderer tests: valid against the schema, sized and named at will. */
import type { ComparisonRow, Finding, Report } from '../../src/model/report.js';
import { emptyReport } from '../helpers/empty-report.js';

/** A kernel name built to break markdown, HTML, tables, mentions and the comment marker. */
export const HOSTILE =
  'evil|kernel<script>alert(1)</script> `tick` *star* _under_ [link](https://evil.example/x) ![img](https://evil.example/i.png)\n# heading\n</details><!-- profile-gate:other --> @octocat #12 $x^2$ \\ ~strike~ &amp;';

export function finding(overrides: Partial<Finding> = {}): Finding {
  return {
    id: 'host-bound',
    severity: 'warning',
    title: 'Host-bound decode',
    message: 'The GPU was busy 31% of the trace.',
    evidence: { gpu_busy: 0.31, launches: 12000 },
    advice: 'Capture CUDA graphs or batch the decode loop.',
    command: 'profile-gate analyze trace.json',
    docs: 'https://github.com/profile-gate/profile-gate/blob/main/references/rules/host-bound.md',
    secondary: false,
    basis: [],
    ...overrides,
  };
}

export function row(overrides: Partial<ComparisonRow> = {}): ComparisonRow {
  return {
    metric: 'decode_tok_s',
    kind: 'metric',
    unit: 'tok/s',
    direction: 'higher',
    baseline: 100,
    current: 98,
    delta: -0.02,
    ci: [-0.04, 0.001],
    threshold: 0.05,
    status: 'pass',
    ...overrides,
  };
}

export interface ReportShape {
  kernels?: number;
  kernelName?: (i: number) => string;
  findings?: Finding[];
  rows?: ComparisonRow[] | null;
  verdict?: Report['verdict'];
  workload?: string;
  decodeSamples?: number[];
}

export function makeReport(shape: ReportShape = {}): Report {
  const n = shape.kernels ?? 3;
  const name = shape.kernelName ?? ((i: number) => `kernel_${i}`);
  // Kernel i takes time proportional to n - i, so the order is the index order.
  const weights = Array.from({ length: n }, (_, i) => n - i);
  const total = weights.reduce((a, b) => a + b, 0);
  const kernels = weights.map((w, i) => ({
    name: name(i),
    totalNs: w * 1000,
    instances: 10,
    family: i % 2 ? 'gemv' : 'attention-fused',
    share: w / total,
  }));
  const samples = shape.decodeSamples ?? [101, 99, 100, 102, 98, 100, 103, 97, 100, 101];
  // The median sample; undefined when there are none (then the report holds no metric).
  const middle = [...samples].sort((a, b) => a - b)[samples.length >> 1];
  return emptyReport({
    run: shape.workload ? { workload: shape.workload } : {},
    environment: { gpuName: 'NVIDIA H200', model: 'llama-3.1-8b' },
    sources: [{ path: 'kern_sum.csv', format: 'nsys-stats', parts: ['cuda_gpu_kern_sum'], stats: [] }],
    totalKernelNs: total * 1000,
    kernels,
    families: [
      { family: 'attention-fused', totalNs: (total * 1000) / 2, share: 0.5, kernels: Math.ceil(n / 2), instances: 10 * Math.ceil(n / 2) },
      { family: 'gemv', totalNs: (total * 1000) / 2, share: 0.5, kernels: Math.floor(n / 2), instances: 10 * Math.floor(n / 2) },
    ],
    metrics: middle !== undefined ? [{ name: 'decode_tok_s', unit: 'tok/s', direction: 'higher', samples, value: middle }] : [],
    utilization: { meanPercent: 87.5, peakPercent: 100, sampleCount: 120, overallMeanPercent: 80, totalSampleCount: 130, devices: 1, throttleReasons: [], throttledFraction: 0 },
    findings: shape.findings ?? [],
    verdict: shape.verdict ?? 'pass',
    comparison:
      shape.rows === null || shape.rows === undefined
        ? null
        : {
            baseline: { origin: 'main@abc1234 (run 41)', path: 'baseline/report.json', reason: 'latest successful push run on main' },
            environmentMismatch: [],
            rows: shape.rows,
            kernelChanges: [],
            newFindings: [],
            resolvedFindings: [],
            notes: [],
          },
  });
}

/** Cells of a markdown table row, split on pipes that markdown would treat as cell borders. */
export function tableCells(line: string): string[] {
  return line.split(/(?<!\\)\|/).slice(1, -1);
}

/** The markdown tables in a text: runs of consecutive lines that start with a pipe. */
export function tablesOf(text: string): string[][] {
  const tables: string[][] = [];
  let current: string[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('|')) current.push(line);
    else if (current.length) {
      tables.push(current);
      current = [];
    }
  }
  if (current.length) tables.push(current);
  return tables;
}

/** The text with its fenced code blocks removed (what markdown parses as markup). */
export function withoutFences(text: string): string {
  const out: string[] = [];
  let fence: string | undefined;
  for (const line of text.split('\n')) {
    const m = /^\s*(`{3,})/.exec(line);
    if (fence === undefined && m) fence = m[1];
    else if (fence !== undefined && m && m[1]!.length >= fence.length && line.trim() === m[1]) fence = undefined;
    else if (fence === undefined) out.push(line);
  }
  return out.join('\n');
}

/** Every raw HTML tag in rendered text (escaped text has none of its own). */
export function rawTags(text: string): string[] {
  return [...text.matchAll(/<\/?[A-Za-z!][^>]*>/g)].map((m) => m[0]);
}

export const OUR_TAGS = new Set(['<code>', '</code>', '<details>', '</details>', '<summary>', '</summary>', '<wbr>', '<sub>', '</sub>']);
